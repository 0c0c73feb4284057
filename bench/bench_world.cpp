/* bench_world.cpp - the world's broadphase against Box2D 2.4.1's b2DynamicTree and Chipmunk 7's
 * cpBBTree and cpSpaceHash, side by side in one run (issue 5).
 *
 * 1. Moving shapes: 40,000 circles (then a mixed set of circles, boxes, hexagons and capsules)
 *    drifting and bouncing in a box. Each frame every library is told every shape's new box, finds its
 *    candidate pairs, and runs the same exact narrow phase (c2d_overlap) on them, so every library
 *    must report the same number of overlapping pairs, and only the broadphase differs in the timing.
 *      collide2d : c2d_world_update for each entry, then c2d_world_pairs (sorted, exact).
 *      b2DynamicTree : MoveProxy for each proxy, then a tree query per proxy with the pair rule of
 *                      b2BroadPhase::QueryCallback (all proxies moved: keep the pair from the higher id).
 *                      Box2D 2.4.1 only queries the proxies whose fat box had to move; a world that
 *                      wants every pair each frame (as here) has to query them all.
 *      cpBBTree  : cpSpatialIndexReindexQuery with a velocity function, as cpSpace uses it.
 *      cpSpaceHash : cpSpatialIndexReindexQuery, cell size one shape diameter.
 *    The untimed part of a frame moves the collide2d shapes and computes their tight boxes, which the
 *    other libraries receive for free. Time is the median over frames.
 * 2. Ray casts into 100,000 static shapes: first hit of random rays, exact narrow phase c2d_raycast
 *    for all three trees (clipping the ray at the best hit as each library allows).
 * 3. Scale: worlds of 250,000 and 1,000,000 static shapes: build time, bytes per entry (resident
 *    memory growth of the world alone, the shapes already exist), box queries and rays per second.
 *
 * Usage: bench_world [--frames N] [--quick]
 */
#include <box2d/b2_dynamic_tree.h>
#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "bench.h"
#include "collide2d.h"

namespace {

/* ---- deterministic random numbers ------------------------------------------------------------- */

uint64_t g_rng = 0x9E3779B97F4A7C15ULL;
double uniform(double lo, double hi)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return lo + (hi - lo) * (double)(g_rng >> 11) / 9007199254740992.0;
}

void check(c2d_status st, const char *what)
{
    if (st != C2D_OK) {
        fprintf(stderr, "bench_world: %s failed: %s\n", what, c2d_status_string(st));
        exit(1);
    }
}

/* ---- scenes ----------------------------------------------------------------------------------- */

enum Kind { K_CIRCLE, K_BOX, K_HEXAGON, K_CAPSULE };

c2d_shape *make_shape(Kind k, double x, double y, double angle)
{
    c2d_shape *s = NULL;
    switch (k) {
    case K_CIRCLE:
        check(c2d_circle_new(x, y, uniform(0.3, 0.7), &s), "circle");
        break;
    case K_BOX:
        check(c2d_rect_new(x, y, uniform(0.5, 1.4), uniform(0.5, 1.4), angle, &s), "rect");
        break;
    case K_HEXAGON: {
        c2d_vec2 p[6];
        double r = uniform(0.3, 0.7);
        for (int i = 0; i < 6; i++) {
            p[i].x = x + r * cos(angle + i * M_PI / 3);
            p[i].y = y + r * sin(angle + i * M_PI / 3);
        }
        check(c2d_polygon_new(p, 6, &s), "polygon");
        break;
    }
    case K_CAPSULE: {
        double h = 0.4;
        c2d_vec2 a = {x - h * cos(angle), y - h * sin(angle)}, b = {x + h * cos(angle), y + h * sin(angle)};
        check(c2d_capsule_new(a, b, 0.25, &s), "capsule");
        break;
    }
    }
    return s;
}

/* Shapes drifting in a square box, bouncing off its walls; the same motion replays for every library. */
struct Scene {
    int n;
    double side;
    std::vector<c2d_shape *> shapes;
    std::vector<c2d_vec2> pos0, vel0, pos, vel;
    std::vector<double> ang0, spin, ang;
    std::vector<c2d_aabb> box, prev_box;

    Scene(int count, bool mixed, double density) : n(count)
    {
        side = sqrt((double)count / density);
        for (int i = 0; i < n; i++) {
            c2d_vec2 p = {uniform(0, side), uniform(0, side)};
            double speed = uniform(0, 0.05), dir = uniform(0, 2 * M_PI), a = uniform(0, 2 * M_PI);
            Kind k = mixed ? (Kind)(i % 4) : K_CIRCLE;
            shapes.push_back(make_shape(k, p.x, p.y, a));
            c2d_vec2 v = {speed * cos(dir), speed * sin(dir)};
            pos0.push_back(p);
            vel0.push_back(v);
            ang0.push_back(a);
            spin.push_back(mixed ? uniform(-0.05, 0.05) : 0.0);
        }
        box.resize(n);
        prev_box.resize(n);
        reset();
    }
    ~Scene()
    {
        for (c2d_shape *s : shapes)
            c2d_shape_destroy(s);
    }
    void place()
    {
        for (int i = 0; i < n; i++) {
            check(c2d_shape_set_transform(shapes[i], pos[i], ang[i]), "set_transform");
            prev_box[i] = box[i];
            c2d_shape_get_aabb(shapes[i], &box[i]);
        }
    }
    void reset()
    {
        pos = pos0;
        vel = vel0;
        ang = ang0;
        place();
        prev_box = box;
    }
    void step()
    {
        for (int i = 0; i < n; i++) {
            pos[i].x += vel[i].x;
            pos[i].y += vel[i].y;
            if (pos[i].x < 0 || pos[i].x > side)
                vel[i].x = -vel[i].x;
            if (pos[i].y < 0 || pos[i].y > side)
                vel[i].y = -vel[i].y;
            ang[i] += spin[i];
        }
        place();
    }
};

b2AABB to_b2(const c2d_aabb &b)
{
    b2AABB r;
    r.lowerBound.Set((float)b.min.x, (float)b.min.y);
    r.upperBound.Set((float)b.max.x, (float)b.max.y);
    return r;
}

/* ---- the libraries under test: one frame each -------------------------------------------------- */

struct Runner {
    virtual ~Runner() {}
    virtual const char *name() const = 0;
    virtual void build(Scene &s) = 0;
    /* Updates the broadphase from s.box and returns the number of exactly overlapping pairs. */
    virtual long frame(Scene &s) = 0;
};

struct C2dRunner : Runner {
    c2d_world *w = NULL;
    std::vector<c2d_world_id> ids;
    std::vector<c2d_world_pair> pairs;
    const char *name() const override { return "collide2d world"; }
    void build(Scene &s) override
    {
        check(c2d_world_new(&w), "world_new");
        ids.resize(s.n);
        for (int i = 0; i < s.n; i++)
            check(c2d_world_add(w, s.shapes[i], (uintptr_t)i, &ids[i]), "world_add");
        pairs.resize((size_t)s.n * 4);
    }
    long frame(Scene &s) override
    {
        for (int i = 0; i < s.n; i++)
            c2d_world_update(w, ids[i]);
        int count = 0;
        c2d_status st;
        while ((st = c2d_world_pairs(w, pairs.data(), NULL, (int)pairs.size(), &count)) == C2D_ERR_CAPACITY)
            pairs.resize((size_t)count * 2);
        check(st, "world_pairs");
        return count;
    }
    ~C2dRunner() override { c2d_world_destroy(w); }
};

/* b2BroadPhase's pair rule, with every proxy moved: a proxy pairs with the lower-numbered proxies it
 * finds (b2BroadPhase::QueryCallback skips moved proxies with a higher id than the querying one). */
struct B2Runner : Runner {
    b2DynamicTree tree;
    std::vector<int> proxy;
    std::vector<b2Pair> pairs;
    int query_id = 0;
    Scene *scene = NULL;
    const char *name() const override { return "Box2D b2DynamicTree"; }
    void build(Scene &s) override
    {
        scene = &s;
        proxy.resize(s.n);
        for (int i = 0; i < s.n; i++)
            proxy[i] = tree.CreateProxy(to_b2(s.box[i]), (void *)(intptr_t)i);
    }
    bool QueryCallback(int id)
    {
        if (id == query_id || id > query_id)
            return true;
        b2Pair p = {std::min(id, query_id), std::max(id, query_id)};
        pairs.push_back(p);
        return true;
    }
    long frame(Scene &s) override
    {
        for (int i = 0; i < s.n; i++) {
            b2Vec2 d((float)(0.5 * (s.box[i].min.x + s.box[i].max.x - s.prev_box[i].min.x - s.prev_box[i].max.x)),
                     (float)(0.5 * (s.box[i].min.y + s.box[i].max.y - s.prev_box[i].min.y - s.prev_box[i].max.y)));
            tree.MoveProxy(proxy[i], to_b2(s.box[i]), d);
        }
        pairs.clear();
        for (int i = 0; i < s.n; i++) {
            query_id = proxy[i];
            tree.Query(this, tree.GetFatAABB(query_id));
        }
        long count = 0;
        for (const b2Pair &p : pairs) {
            int a = (int)(intptr_t)tree.GetUserData(p.proxyIdA), b = (int)(intptr_t)tree.GetUserData(p.proxyIdB);
            int hit = 0;
            c2d_overlap(s.shapes[a], s.shapes[b], &hit);
            count += hit;
        }
        return count;
    }
};

/* Chipmunk keeps pointers to objects; ours are the shape indices + 1 (never NULL). */
Scene *g_cp_scene;
cpBB cp_bb(void *obj)
{
    const c2d_aabb &b = g_cp_scene->box[(intptr_t)obj - 1];
    return cpBBNew(b.min.x, b.min.y, b.max.x, b.max.y);
}
/* cpSpace hands cpBBTree the body velocity per second; this scene steps at 60 Hz. */
cpVect cp_velocity(void *obj)
{
    const c2d_vec2 &v = g_cp_scene->vel[(intptr_t)obj - 1];
    return cpv(v.x * 60.0, v.y * 60.0);
}
struct CpCount {
    Scene *s;
    long count;
};
cpCollisionID cp_pair(void *a, void *b, cpCollisionID id, void *data)
{
    CpCount *c = (CpCount *)data;
    int hit = 0;
    c2d_overlap(c->s->shapes[(intptr_t)a - 1], c->s->shapes[(intptr_t)b - 1], &hit);
    c->count += hit;
    return id;
}

struct CpRunner : Runner {
    bool hash;
    cpSpatialIndex *index = NULL;
    explicit CpRunner(bool use_hash) : hash(use_hash) {}
    const char *name() const override { return hash ? "Chipmunk cpSpaceHash" : "Chipmunk cpBBTree"; }
    void build(Scene &s) override
    {
        g_cp_scene = &s;
        if (hash) {
            index = cpSpaceHashNew(1.4, s.n * 4, cp_bb, NULL);
        } else {
            index = cpBBTreeNew(cp_bb, NULL);
            cpBBTreeSetVelocityFunc(index, cp_velocity);
        }
        for (int i = 0; i < s.n; i++)
            cpSpatialIndexInsert(index, (void *)(intptr_t)(i + 1), (cpHashValue)i);
    }
    long frame(Scene &s) override
    {
        CpCount c = {&s, 0};
        cpSpatialIndexReindexQuery(index, cp_pair, &c);
        return c.count;
    }
    ~CpRunner() override
    {
        if (index)
            cpSpatialIndexFree(index);
    }
};

/* ---- 1: moving shapes ------------------------------------------------------------------------- */

/* Frames are timed in this thread's CPU time, not wall time: the benchmark often shares a small machine
 * with builds and tests, and a frame preempted half-way would otherwise count the other programs. */
double thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

const int kWarmupFrames = 10;

double run_moving(Runner &r, Scene &s, int frames, long *pairs)
{
    s.reset();
    r.build(s);
    std::vector<double> t;
    for (int f = 0; f < frames + kWarmupFrames; f++) {
        s.step();
        double t0 = thread_ns();
        long p = r.frame(s);
        double dt = thread_ns() - t0;
        if (f >= kWarmupFrames) /* the first frames find every pair from scratch */
            t.push_back(dt);
        *pairs = p;
    }
    return bench_median(t.data(), (int)t.size());
}

void moving_table(const char *title, bool mixed, int n, int frames)
{
    Scene s(n, mixed, 0.25);
    printf("\n%s: %d shapes, median CPU ms per frame over %d frames after %d (update + pairs + exact narrow phase)\n",
           title, n, frames, kWarmupFrames);
    printf("  %-24s %10s %10s %12s\n", "library", "ms/frame", "vs c2d", "pairs");
    C2dRunner c2d;
    B2Runner b2;
    CpRunner bbtree(false), spacehash(true);
    Runner *all[] = {&c2d, &b2, &bbtree, &spacehash};
    double base = 0;
    long base_pairs = -1;
    for (Runner *r : all) {
        long pairs = 0;
        double ns = run_moving(*r, s, frames, &pairs);
        if (r == &c2d) {
            base = ns;
            base_pairs = pairs;
        }
        printf("  %-24s %10.2f %9.2fx %12ld%s\n", r->name(), ns / 1e6, ns / base, pairs,
               pairs == base_pairs ? "" : "  (differs from collide2d)");
        fflush(stdout);
    }
}

/* ---- 2: rays into static shapes ---------------------------------------------------------------- */

struct B2RayCast {
    Scene *s;
    b2DynamicTree *tree;
    c2d_vec2 o, d;
    double best;
    float RayCastCallback(const b2RayCastInput &in, int proxy)
    {
        int i = (int)(intptr_t)tree->GetUserData(proxy);
        c2d_ray_hit h;
        c2d_raycast(s->shapes[i], o, d, in.maxFraction, &h);
        if (h.hit && h.t < best) {
            best = h.t;
            return (float)h.t;
        }
        return in.maxFraction;
    }
};

struct CpRay {
    Scene *s;
    c2d_vec2 o, d;
    double best;
};
cpFloat cp_ray(void *obj, void *entry, void *data)
{
    (void)obj;
    CpRay *r = (CpRay *)data;
    c2d_ray_hit h;
    c2d_raycast(r->s->shapes[(intptr_t)entry - 1], r->o, r->d, r->best, &h);
    if (h.hit && h.t < r->best)
        r->best = h.t;
    return r->best;
}

void rays_table(int n, int rays)
{
    Scene s(n, true, 0.1);
    std::vector<c2d_vec2> o(rays), d(rays);
    for (int i = 0; i < rays; i++) {
        o[i].x = uniform(0, s.side);
        o[i].y = uniform(0, s.side);
        double a = uniform(0, 2 * M_PI), len = uniform(5, 100);
        d[i].x = len * cos(a);
        d[i].y = len * sin(a);
    }
    printf("\nRay casts: first hit of %d rays (length 5 to 100) into %d static mixed shapes (%.0f x %.0f)\n",
           rays, n, s.side, s.side);
    printf("  %-24s %12s %10s %10s\n", "library", "rays/s", "vs c2d", "hits");
    double base = 0;
    for (int lib = 0; lib < 3; lib++) {
        long hits = 0;
        double t0 = 0, dt = 0;
        if (lib == 0) {
            c2d_world *w;
            c2d_world_id id;
            check(c2d_world_new(&w), "world_new");
            for (int i = 0; i < n; i++)
                check(c2d_world_add(w, s.shapes[i], (uintptr_t)i, &id), "world_add");
            check(c2d_world_optimize(w), "optimize");
            t0 = bench_now_ns();
            for (int i = 0; i < rays; i++) {
                c2d_world_ray_hit h;
                c2d_world_raycast(w, o[i], d[i], 1.0, NULL, &h);
                hits += h.ray.hit;
            }
            dt = bench_now_ns() - t0;
            c2d_world_destroy(w);
        } else if (lib == 1) {
            b2DynamicTree tree;
            for (int i = 0; i < n; i++)
                tree.CreateProxy(to_b2(s.box[i]), (void *)(intptr_t)i);
            t0 = bench_now_ns();
            for (int i = 0; i < rays; i++) {
                B2RayCast cb = {&s, &tree, o[i], d[i], 2.0};
                b2RayCastInput in;
                in.p1.Set((float)o[i].x, (float)o[i].y);
                in.p2.Set((float)(o[i].x + d[i].x), (float)(o[i].y + d[i].y));
                in.maxFraction = 1.0f;
                tree.RayCast(&cb, in);
                hits += cb.best <= 1.0;
            }
            dt = bench_now_ns() - t0;
        } else {
            g_cp_scene = &s;
            cpSpatialIndex *index = cpBBTreeNew(cp_bb, NULL);
            for (int i = 0; i < n; i++)
                cpSpatialIndexInsert(index, (void *)(intptr_t)(i + 1), (cpHashValue)i);
            cpSpatialIndexReindex(index);
            t0 = bench_now_ns();
            for (int i = 0; i < rays; i++) {
                CpRay r = {&s, o[i], d[i], 1.0};
                cpSpatialIndexSegmentQuery(index, NULL, cpv(o[i].x, o[i].y), cpv(o[i].x + d[i].x, o[i].y + d[i].y),
                                           1.0, cp_ray, &r);
                hits += r.best < 1.0 || r.best == 1.0;
            }
            dt = bench_now_ns() - t0;
            cpSpatialIndexFree(index);
        }
        double per_s = rays / (dt / 1e9);
        if (lib == 0)
            base = per_s;
        const char *names[] = {"collide2d world", "Box2D b2DynamicTree", "Chipmunk cpBBTree"};
        printf("  %-24s %12.0f %9.2fx %10ld\n", names[lib], per_s, per_s / base, hits);
        fflush(stdout);
    }
}

/* ---- 3: scale --------------------------------------------------------------------------------- */

long resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, rss = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return rss * sysconf(_SC_PAGESIZE);
}

void scale_row(int n)
{
    double side = sqrt((double)n / 0.1);
    std::vector<c2d_shape *> shapes(n);
    for (int i = 0; i < n; i++)
        shapes[i] = make_shape(i % 2 ? K_BOX : K_CIRCLE, uniform(0, side), uniform(0, side), uniform(0, M_PI));
    long before = resident_bytes();
    double t0 = bench_now_ns();
    c2d_world *w;
    c2d_world_id id;
    check(c2d_world_new(&w), "world_new");
    for (int i = 0; i < n; i++)
        check(c2d_world_add(w, shapes[i], (uintptr_t)i, &id), "world_add");
    double t_add = bench_now_ns() - t0;
    t0 = bench_now_ns();
    check(c2d_world_optimize(w), "optimize");
    double t_opt = bench_now_ns() - t0;
    long grown = resident_bytes() - before;
    const int queries = 100000;
    long found = 0;
    c2d_world_hit hits[256];
    t0 = bench_now_ns();
    for (int q = 0; q < queries; q++) {
        c2d_aabb b;
        b.min.x = uniform(0, side);
        b.min.y = uniform(0, side);
        b.max.x = b.min.x + 5;
        b.max.y = b.min.y + 5;
        int count = 0;
        c2d_world_query_aabb(w, b, NULL, hits, 256, &count);
        found += count;
    }
    double t_q = bench_now_ns() - t0;
    long rhits = 0;
    t0 = bench_now_ns();
    for (int q = 0; q < queries; q++) {
        c2d_vec2 o = {uniform(0, side), uniform(0, side)}, d = {uniform(-50, 50), uniform(-50, 50)};
        c2d_world_ray_hit h;
        c2d_world_raycast(w, o, d, 1.0, NULL, &h);
        rhits += h.ray.hit;
    }
    double t_r = bench_now_ns() - t0;
    printf("  %9d %9.0f %9.0f %12.1f %14.0f %12.0f   (%.1f found per box, %.0f%% rays hit)\n", n, t_add / 1e6,
           t_opt / 1e6, (double)grown / n, queries / (t_q / 1e9), queries / (t_r / 1e9), (double)found / queries,
           100.0 * rhits / queries);
    fflush(stdout);
    c2d_world_destroy(w);
    for (c2d_shape *s : shapes)
        c2d_shape_destroy(s);
}

} // namespace

int main(int argc, char **argv)
{
    int frames = 30;
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick"))
            quick = true;
    }
    int n = quick ? 10000 : 40000;
    printf("bench_world: collide2d %s vs Box2D 2.4.1 b2DynamicTree and Chipmunk 7 cpBBTree / cpSpaceHash\n",
           c2d_version_string());
    moving_table("Moving circles", false, n, frames);
    moving_table("Moving mixed shapes (circles, boxes, hexagons, capsules)", true, n, frames);
    rays_table(quick ? 20000 : 100000, quick ? 20000 : 100000);
    printf("\nScale: static worlds of circles and boxes (density 0.1 per unit^2), built by add + optimize\n");
    printf("  %9s %9s %9s %12s %14s %12s\n", "shapes", "add ms", "opt ms", "bytes/entry", "box queries/s", "rays/s");
    scale_row(quick ? 25000 : 250000);
    scale_row(quick ? 100000 : 1000000);
    return 0;
}
