/* bench_world.cpp - the world's broadphase against Box2D 2.4.1 and Chipmunk 7.0.3, side by side in one
 * run (issue 5). Three tables:
 *
 * 1. Moving shapes: 40,000 circles (then a mixed set of circles, boxes, hexagons and capsules)
 *    drifting and bouncing in a square. Every frame each library is told every shape's new box, finds
 *    its candidate pairs and runs the same exact narrow phase (c2d_overlap) on them, so all of them
 *    must report the same set of overlapping pairs (counted, and compared by an order-independent
 *    checksum of the pairs), and only the broadphase and its pair bookkeeping differ in the timing.
 *      collide2d         c2d_world_update for every entry, then c2d_world_pairs (exact, sorted). The
 *                        world keeps its candidate pairs between frames and revisits only entries
 *                        whose fattened box had to move.
 *      Box2D b2BroadPhase  what b2World does each step, with c2d_overlap as the narrow phase:
 *                        b2BroadPhase::MoveProxy for every proxy, UpdatePairs into a persistent
 *                        contact list with per-proxy contact edges (b2ContactManager::AddPair's
 *                        duplicate check), then b2ContactManager::Collide's loop: drop contacts whose
 *                        fat boxes parted (b2BroadPhase::TestOverlap), narrow phase on the rest.
 *      Chipmunk cpBBTree   cpSpatialIndexReindexQuery with a velocity function, as cpSpace drives it
 *                        (the tree keeps its own pair cache).
 *      Chipmunk cpSpaceHash cpSpatialIndexReindexQuery (rehash and query everything each frame).
 *    Every library reads each shape's tight box from the shape itself (c2d_shape_get_aabb, as
 *    cpShapeGetBB reads a cpShape's; Box2D converts it to float), as the collide2d world does inside
 *    c2d_world_update. Moving the shapes is not timed. The libraries
 *    run in turn within each frame, on the same scene state; the time is the median over frames of
 *    this thread's CPU time.
 * 2. Ray casts into 100,000 static mixed shapes: the first hit of random rays, with c2d_raycast as the
 *    exact test for every tree (each clipping the ray at the best hit so far, as its API allows). The
 *    hit parameter of every ray is compared with collide2d's.
 * 3. Scale: static worlds of 10,000, 100,000 and 1,000,000 circles and boxes: build time (add, then
 *    c2d_world_optimize), heap bytes per entry (glibc mallinfo2: bytes the world holds, the shapes
 *    already exist) and resident growth, box queries and rays per second.
 *
 * Usage: bench_world [--quick] [--frames N] [--warmup N] [--shapes N] [--rays N] [--max-scale N] [--strict] [--verbose]
 *                    [--moving-only] [--circles-only] [--lib c2d|box2d|bbtree|spacehash]
 * --lib times one library's moving frames alone (no cross-check), for callgrind
 * (--toggle-collect='*C2dRunner::frame*', '*B2Runner::frame*', '*CpRunner::frame*').
 */
#include <box2d/b2_broad_phase.h>
#include <box2d/b2_dynamic_tree.h>
#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include <malloc.h>
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

/* ---- helpers ---------------------------------------------------------------------------------- */

/* xorshift64: deterministic across platforms, so a run always builds the same scenes. */
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

/* This thread's CPU time: a frame preempted half-way by another program on this shared machine does
 * not count the other program's work. */
double thread_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One overlapping pair of shape indices, mixed into a 64-bit value; the sum over a frame's pairs is
 * independent of the order in which a library lists them, and differs when the sets differ. */
inline uint64_t pair_hash(uint64_t a, uint64_t b)
{
    if (a > b)
        std::swap(a, b);
    uint64_t x = (a << 32 | b) + 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* What a frame found: how many exactly overlapping pairs, and the checksum of which. */
struct Found {
    long pairs = 0;
    long candidates = 0; /* pairs given to the narrow phase */
    uint64_t sum = 0;
    void hit(uint64_t a, uint64_t b)
    {
        pairs++;
        sum += pair_hash(a, b);
    }
};

/* Heap bytes in use (every arena; small blocks and mmapped ones). */
long heap_bytes(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (long)(mi.uordblks + mi.hblkhd);
}

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

/* Shapes drifting in a square, bouncing off its walls, the mixed ones turning as they go. */
struct Scene {
    int n;
    double side;
    std::vector<c2d_shape *> shapes;
    std::vector<c2d_vec2> pos, vel;
    std::vector<double> spin, ang;
    std::vector<int> start; /* the frame at which each shape starts to move */
    std::vector<c2d_aabb> box; /* each shape's box as built (the static scenes use it) */
    int frame = 0;

    /* Shapes start moving at random frames before `stagger`: a scene where every shape starts at
     * once keeps its broadphase work in lock-step (shapes of equal speed leave their fattened boxes
     * in the same frames, for ever), so frames alternate between idle and bursts. */
    Scene(int count, bool mixed, double density, int stagger = 0) : n(count)
    {
        side = sqrt((double)count / density);
        for (int i = 0; i < n; i++) {
            c2d_vec2 p = {uniform(0, side), uniform(0, side)};
            double speed = uniform(0, 0.05), dir = uniform(0, 2 * M_PI), a = uniform(0, 2 * M_PI);
            Kind k = mixed ? (Kind)(i % 4) : K_CIRCLE;
            shapes.push_back(make_shape(k, p.x, p.y, a));
            c2d_vec2 v = {speed * cos(dir), speed * sin(dir)};
            c2d_vec2 c;
            check(c2d_shape_get_position(shapes.back(), &c), "get_position");
            pos.push_back(c);
            vel.push_back(v);
            ang.push_back(k == K_BOX ? a : 0.0); /* polygons and capsules were built turned */
            spin.push_back(mixed ? uniform(-0.05, 0.05) : 0.0);
            start.push_back(stagger > 0 ? (int)uniform(0, stagger) : 0);
        }
        box.resize(n);
        for (int i = 0; i < n; i++)
            check(c2d_shape_get_aabb(shapes[i], &box[i]), "get_aabb");
    }
    ~Scene()
    {
        for (c2d_shape *s : shapes)
            c2d_shape_destroy(s);
    }
    void step()
    {
        frame++;
        for (int i = 0; i < n; i++) {
            if (frame < start[i])
                continue;
            pos[i].x += vel[i].x;
            pos[i].y += vel[i].y;
            if (pos[i].x < 0 || pos[i].x > side)
                vel[i].x = -vel[i].x;
            if (pos[i].y < 0 || pos[i].y > side)
                vel[i].y = -vel[i].y;
            ang[i] += spin[i];
            check(c2d_shape_set_transform(shapes[i], pos[i], ang[i]), "set_transform");
        }
    }
};

b2AABB to_b2(const c2d_aabb &b)
{
    b2AABB r;
    r.lowerBound.Set((float)b.min.x, (float)b.min.y);
    r.upperBound.Set((float)b.max.x, (float)b.max.y);
    return r;
}

/* ---- the libraries under test: one frame each ------------------------------------------------ */

struct Runner {
    virtual ~Runner() {}
    virtual const char *name() const = 0;
    virtual void build(Scene &s) = 0;
    /* Brings the broadphase up to date with the shapes as they are now and finds the exactly
     * overlapping pairs. */
    virtual Found frame(Scene &s) = 0;
};

struct C2dRunner : Runner {
    c2d_world *w = NULL;
    std::vector<c2d_world_id> ids;
    std::vector<c2d_world_pair> out;
    const char *name() const override { return "collide2d world"; }
    void build(Scene &s) override
    {
        check(c2d_world_new(&w), "world_new");
        ids.resize(s.n);
        for (int i = 0; i < s.n; i++)
            check(c2d_world_add(w, s.shapes[i], (uintptr_t)i, &ids[i]), "world_add");
        out.resize((size_t)s.n * 2);
    }
    double update_ns = 0; /* the frames' time split, for --verbose */
    Found frame(Scene &s) override
    {
        double t0 = thread_ns();
        for (int i = 0; i < s.n; i++)
            c2d_world_update(w, ids[i]);
        update_ns += thread_ns() - t0;
        int count = 0;
        c2d_status st;
        while ((st = c2d_world_pairs(w, out.data(), NULL, (int)out.size(), &count)) == C2D_ERR_CAPACITY)
            out.resize((size_t)count * 2);
        check(st, "world_pairs");
        Found f;
        f.candidates = -1; /* not observable through the API */
        for (int k = 0; k < count; k++)
            f.hit(out[k].user_a, out[k].user_b);
        return f;
    }
    ~C2dRunner() override { c2d_world_destroy(w); }
};

/* b2World's broadphase bookkeeping, reduced to what a frame of pairs needs. A contact is linked into
 * the edge lists of both its proxies, as b2Contact is into its bodies' b2ContactEdge lists. */
struct B2Runner : Runner {
    struct Contact {
        int a, b;            /* shape indices */
        int next[2], prev[2]; /* edge lists of a (0) and b (1) */
        int slot;            /* position in `live` */
    };
    b2BroadPhase bp;
    std::vector<int> proxy;   /* shape index -> proxy id */
    std::vector<b2Vec2> centre; /* each box's centre last frame, for the displacement (b2Body's sweep) */
    std::vector<int> edges;   /* shape index -> first contact, or -1 */
    std::vector<Contact> pool;
    std::vector<int> free_list, live;
    const char *name() const override { return "Box2D b2BroadPhase"; }
    void build(Scene &s) override
    {
        proxy.resize(s.n);
        centre.resize(s.n);
        edges.assign(s.n, -1);
        for (int i = 0; i < s.n; i++) {
            b2AABB b = to_b2(s.box[i]);
            proxy[i] = bp.CreateProxy(b, (void *)(intptr_t)i);
            centre[i] = b.GetCenter();
        }
    }
    int side(const Contact &c, int shape) const { return c.a == shape ? 0 : 1; }
    void link(int c, int k)
    {
        Contact &ct = pool[c];
        int shape = k ? ct.b : ct.a, head = edges[shape];
        ct.prev[k] = -1;
        ct.next[k] = head;
        if (head >= 0)
            pool[head].prev[side(pool[head], shape)] = c;
        edges[shape] = c;
    }
    void unlink(int c, int k)
    {
        Contact &ct = pool[c];
        int shape = k ? ct.b : ct.a, n = ct.next[k], p = ct.prev[k];
        if (p >= 0)
            pool[p].next[side(pool[p], shape)] = n;
        else
            edges[shape] = n;
        if (n >= 0)
            pool[n].prev[side(pool[n], shape)] = p;
    }
    /* b2ContactManager::AddPair: ignore a pair that already has a contact (found by walking one
     * proxy's contact edges), else create one. */
    void AddPair(void *ua, void *ub)
    {
        int a = (int)(intptr_t)ua, b = (int)(intptr_t)ub;
        if (a == b)
            return;
        for (int c = edges[b]; c >= 0;) {
            const Contact &ct = pool[c];
            if (ct.a == a || ct.b == a)
                return;
            c = ct.next[side(ct, b)];
        }
        int c;
        if (!free_list.empty()) {
            c = free_list.back();
            free_list.pop_back();
        } else {
            c = (int)pool.size();
            pool.push_back(Contact());
        }
        pool[c].a = a;
        pool[c].b = b;
        pool[c].slot = (int)live.size();
        live.push_back(c);
        link(c, 0);
        link(c, 1);
    }
    void destroy(int c)
    {
        unlink(c, 0);
        unlink(c, 1);
        int slot = pool[c].slot, last = live.back();
        live[slot] = last;
        pool[last].slot = slot;
        live.pop_back();
        free_list.push_back(c);
    }
    Found frame(Scene &s) override
    {
        /* b2Body::SynchronizeFixtures: every proxy is moved; the tree only re-inserts those that
         * left their fat box, and only those are queried for new pairs. (b2World passes the box
         * swept over the step; the current box, given here, is smaller and never slower.) */
        for (int i = 0; i < s.n; i++) {
            c2d_aabb box;
            c2d_shape_get_aabb(s.shapes[i], &box);
            b2AABB b = to_b2(box);
            b2Vec2 c = b.GetCenter();
            bp.MoveProxy(proxy[i], b, c - centre[i]);
            centre[i] = c;
        }
        bp.UpdatePairs(this);
        /* b2ContactManager::Collide. */
        Found f;
        for (size_t k = 0; k < live.size();) {
            int c = live[k];
            int a = pool[c].a, b = pool[c].b;
            if (!bp.TestOverlap(proxy[a], proxy[b])) {
                destroy(c);
                continue;
            }
            f.candidates++;
            int hit = 0;
            c2d_overlap(s.shapes[a], s.shapes[b], &hit);
            if (hit)
                f.hit((uint64_t)a, (uint64_t)b);
            k++;
        }
        return f;
    }
};

/* Chipmunk keeps pointers to objects; ours are the shape indices + 1 (never NULL). */
Scene *g_cp_scene;
cpBB cp_bb(void *obj)
{
    c2d_aabb b;
    c2d_shape_get_aabb(g_cp_scene->shapes[(intptr_t)obj - 1], &b);
    return cpBBNew(b.min.x, b.min.y, b.max.x, b.max.y);
}
/* cpSpace hands cpBBTree the body velocity per second; this scene steps at 60 Hz. */
cpVect cp_velocity(void *obj)
{
    const c2d_vec2 &v = g_cp_scene->vel[(intptr_t)obj - 1];
    return cpv(v.x * 60.0, v.y * 60.0);
}
struct CpFrame {
    Scene *s;
    Found f;
};
/* cpSpaceCollideShapes rejects on the boxes, then collides: c2d_overlap does both. */
cpCollisionID cp_pair(void *a, void *b, cpCollisionID id, void *data)
{
    CpFrame *c = (CpFrame *)data;
    intptr_t ia = (intptr_t)a - 1, ib = (intptr_t)b - 1;
    int hit = 0;
    c->f.candidates++;
    c2d_overlap(c->s->shapes[ia], c->s->shapes[ib], &hit);
    if (hit)
        c->f.hit((uint64_t)ia, (uint64_t)ib);
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
            /* Cell size: the largest circle's diameter; cells: 10 per object, as Chipmunk's
             * documentation advises for cpSpaceUseSpatialHash. */
            index = cpSpaceHashNew(1.4, s.n * 10, cp_bb, NULL);
        } else {
            index = cpBBTreeNew(cp_bb, NULL);
            cpBBTreeSetVelocityFunc(index, cp_velocity);
        }
        for (int i = 0; i < s.n; i++)
            cpSpatialIndexInsert(index, (void *)(intptr_t)(i + 1), (cpHashValue)i);
    }
    Found frame(Scene &s) override
    {
        g_cp_scene = &s;
        CpFrame c;
        c.s = &s;
        cpSpatialIndexReindexQuery(index, cp_pair, &c);
        return c.f;
    }
    ~CpRunner() override
    {
        if (index)
            cpSpatialIndexFree(index);
    }
};

/* ---- 1: moving shapes ------------------------------------------------------------------------- */

bool g_verbose = false; /* --verbose: every frame's time */

struct Options {
    bool quick = false;
    bool strict = false;
    bool verbose = false;
    int frames = 60;  /* timed frames */
    int warmup = 60;  /* untimed frames first; shapes start moving during the first two thirds */
    int shapes = 40000;
    int rays = 100000;
    int ray_shapes = 100000;
    int max_scale = 1000000;
    int lib = -1;          /* --lib: time only this runner of the moving tables (for profiling) */
    bool moving_only = false;
    bool circles_only = false;
};

const char *const kRunnerNames[] = {"c2d", "box2d", "bbtree", "spacehash"};

struct Moving {
    double ratio[3]; /* other library's mean ms / collide2d's, for Box2D, cpBBTree, cpSpaceHash */
};

Moving moving_table(const char *title, bool mixed, const Options &opt, bool *mismatch)
{
    int n = opt.shapes;
    Scene s(n, mixed, 0.25, opt.warmup * 2 / 3);
    C2dRunner c2d;
    B2Runner b2;
    CpRunner bbtree(false), spacehash(true);
    Runner *all[] = {&c2d, &b2, &bbtree, &spacehash};
    const int R = 4;
    for (int r = 0; r < R; r++)
        if (opt.lib < 0 || r == opt.lib)
            all[r]->build(s);
    std::vector<double> t[R];
    Found last[R];
    long frames_differ[R] = {0, 0, 0, 0};
    double pairs_sum = 0, cand_sum[R] = {0, 0, 0, 0};
    for (int f = 0; f < opt.frames + opt.warmup; f++) {
        s.step();
        if (f == opt.warmup)
            c2d.update_ns = 0; /* count the timed frames only */
        for (int k = 0; k < R; k++) {
            int r = (f + k) % R; /* the libraries take turns going first */
            if (opt.lib >= 0 && r != opt.lib)
                continue;
            double t0 = thread_ns();
            last[r] = all[r]->frame(s);
            double dt = thread_ns() - t0;
            if (f >= opt.warmup) {
                t[r].push_back(dt);
                cand_sum[r] += (double)last[r].candidates;
            }
        }
        /* Every frame, timed or not, every library must find exactly collide2d's pairs. */
        for (int r = 1; r < R && opt.lib < 0; r++)
            if (last[r].pairs != last[0].pairs || last[r].sum != last[0].sum)
                frames_differ[r]++;
        if (f >= opt.warmup)
            pairs_sum += (double)last[0].pairs;
    }
    if (g_verbose && !t[0].empty()) {
        double all_ns = 0;
        for (double x : t[0])
            all_ns += x;
        printf("  collide2d: the c2d_world_update loop takes %.0f%% of its frames' time, c2d_world_pairs the rest\n",
               100.0 * c2d.update_ns / all_ns);
    }
    if (g_verbose)
        for (int r = 0; r < R; r++) {
            printf("  frames %s (ms):", all[r]->name());
            for (double x : t[r])
                printf(" %.2f", x / 1e6);
            printf("\n");
        }
    int frames = opt.frames;
    printf("\n%s: %d shapes in a %.0f x %.0f square; %d frames timed after %d untimed.\n", title, n, s.side,
           s.side, frames, opt.warmup);
    printf("Each frame: update every shape's box, find the candidate pairs, c2d_overlap on each candidate.\n");
    printf("  %-22s %8s %8s %13s %9s %11s %8s  %s\n", "library", "mean ms", "median", "q1..q3", "c2d is",
           "candidates", "pairs", "pair sets");
    double mean[R];
    for (int r = 0; r < R; r++) {
        double sum = 0;
        for (double x : t[r])
            sum += x;
        mean[r] = t[r].empty() ? 1.0 : sum / (double)t[r].size();
    }
    Moving out;
    for (int r = 0; r < R; r++) {
        if (t[r].empty()) {
            out.ratio[r ? r - 1 : 0] = 0;
            continue;
        }
        std::vector<double> v = t[r];
        double med = bench_median(v.data(), (int)v.size());
        double q1 = bench_quantile(v.data(), (int)v.size(), 0.25), q3 = bench_quantile(v.data(), (int)v.size(), 0.75);
        char range[32], cand[32], ratio[32], agree[48];
        snprintf(range, sizeof range, "%.2f..%.2f", q1 / 1e6, q3 / 1e6);
        if (r == 0)
            snprintf(cand, sizeof cand, "(inside)"); /* the world does not say how many it had */
        else
            snprintf(cand, sizeof cand, "%.0f", cand_sum[r] / frames);
        if (r == 0 || t[0].empty())
            snprintf(ratio, sizeof ratio, "-");
        else
            snprintf(ratio, sizeof ratio, "%.2fx", mean[r] / mean[0]);
        if (r == 0)
            snprintf(agree, sizeof agree, "reference");
        else if (frames_differ[r] == 0)
            snprintf(agree, sizeof agree, "same all %d frames", frames + opt.warmup);
        else
            snprintf(agree, sizeof agree, "DIFFER in %ld frames", frames_differ[r]);
        printf("  %-22s %8.2f %8.2f %13s %9s %11s %8.0f  %s\n", all[r]->name(), mean[r] / 1e6, med / 1e6, range,
               ratio, cand, pairs_sum / frames, agree);
        if (r > 0) {
            out.ratio[r - 1] = mean[r] / mean[0];
            if (frames_differ[r])
                *mismatch = true;
        }
    }
    printf("  (ms: this thread's CPU time per frame. c2d is: the library's mean / collide2d's mean, above 1\n"
           "  means collide2d is faster. candidates, pairs: means per timed frame.)\n");
    fflush(stdout);
    return out;
}

/* ---- 2: rays into static shapes ---------------------------------------------------------------- */

struct B2RayCast {
    Scene *s;
    const b2DynamicTree *tree;
    c2d_vec2 o, d;
    double best;
    bool hit;
    float RayCastCallback(const b2RayCastInput &in, int proxy)
    {
        int i = (int)(intptr_t)tree->GetUserData(proxy);
        c2d_ray_hit h;
        c2d_raycast(s->shapes[i], o, d, in.maxFraction, &h);
        if (h.hit && (!hit || h.t < best)) {
            hit = true;
            best = h.t;
            return (float)h.t; /* clip the ray here */
        }
        return in.maxFraction; /* go on with the ray as it is */
    }
};

struct CpRay {
    Scene *s;
    c2d_vec2 o, d;
    double best;
    bool hit;
};
cpFloat cp_ray(void *obj, void *entry, void *data)
{
    (void)obj;
    CpRay *r = (CpRay *)data;
    c2d_ray_hit h;
    c2d_raycast(r->s->shapes[(intptr_t)entry - 1], r->o, r->d, r->best, &h);
    if (h.hit && (!r->hit || h.t < r->best)) {
        r->hit = true;
        r->best = h.t;
    }
    return r->best; /* the new end of the segment */
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
    printf("\nRay casts: first hit of %d rays (length 5 to 100) into %d static mixed shapes (%.0f x %.0f).\n",
           rays, n, s.side, s.side);
    printf("Trees: collide2d add + c2d_world_optimize; Box2D b2DynamicTree::CreateProxy (its RebuildBottomUp\n"
           "is quadratic); Chipmunk cpBBTree insert + cpBBTreeOptimize. Exact test: c2d_raycast for all.\n");

    c2d_world *w;
    c2d_world_id id;
    check(c2d_world_new(&w), "world_new");
    for (int i = 0; i < n; i++)
        check(c2d_world_add(w, s.shapes[i], (uintptr_t)i, &id), "world_add");
    check(c2d_world_optimize(w), "optimize");
    b2DynamicTree tree;
    for (int i = 0; i < n; i++)
        tree.CreateProxy(to_b2(s.box[i]), (void *)(intptr_t)i);
    g_cp_scene = &s;
    cpSpatialIndex *index = cpBBTreeNew(cp_bb, NULL);
    for (int i = 0; i < n; i++)
        cpSpatialIndexInsert(index, (void *)(intptr_t)(i + 1), (cpHashValue)i);
    cpBBTreeOptimize(index);

    const int L = 3;
    const char *names[L] = {"collide2d world", "Box2D b2DynamicTree", "Chipmunk cpBBTree"};
    std::vector<double> ts[L]; /* each library's hit parameter per ray, -1 for a miss */
    for (int l = 0; l < L; l++)
        ts[l].assign(rays, -1.0);
    /* Chunks of rays, the libraries taking turns, so a busy spell of the machine hits all alike. */
    const int chunk = std::max(1, std::min(rays, 5000));
    std::vector<double> rate[L];
    for (int c0 = 0; c0 < rays; c0 += chunk) {
        int c1 = std::min(rays, c0 + chunk);
        for (int l = 0; l < L; l++) {
            double t0 = thread_ns();
            if (l == 0) {
                for (int i = c0; i < c1; i++) {
                    c2d_world_ray_hit h;
                    c2d_world_raycast(w, o[i], d[i], 1.0, NULL, &h);
                    ts[0][i] = h.ray.hit ? h.ray.t : -1.0;
                }
            } else if (l == 1) {
                for (int i = c0; i < c1; i++) {
                    B2RayCast cb = {&s, &tree, o[i], d[i], 1.0, false};
                    b2RayCastInput in;
                    in.p1.Set((float)o[i].x, (float)o[i].y);
                    in.p2.Set((float)(o[i].x + d[i].x), (float)(o[i].y + d[i].y));
                    in.maxFraction = 1.0f;
                    tree.RayCast(&cb, in);
                    ts[1][i] = cb.hit ? cb.best : -1.0;
                }
            } else {
                for (int i = c0; i < c1; i++) {
                    CpRay r = {&s, o[i], d[i], 1.0, false};
                    cpSpatialIndexSegmentQuery(index, NULL, cpv(o[i].x, o[i].y),
                                               cpv(o[i].x + d[i].x, o[i].y + d[i].y), 1.0, cp_ray, &r);
                    ts[2][i] = r.hit ? r.best : -1.0;
                }
            }
            double dt = thread_ns() - t0;
            rate[l].push_back((c1 - c0) / (dt / 1e9));
        }
    }
    printf("  %-22s %12s %9s %8s %10s\n", "library", "rays/s", "c2d is", "hits", "differ");
    double base = bench_median(rate[0].data(), (int)rate[0].size());
    for (int l = 0; l < L; l++) {
        double r = bench_median(rate[l].data(), (int)rate[l].size());
        long hits = 0, differ = 0;
        for (int i = 0; i < rays; i++) {
            hits += ts[l][i] >= 0;
            bool same = (ts[l][i] < 0) == (ts[0][i] < 0) && fabs(ts[l][i] - ts[0][i]) <= 1e-9 * (1 + fabs(ts[0][i]));
            differ += !same;
        }
        char ratio[32];
        snprintf(ratio, sizeof ratio, l == 0 ? "-" : "%.2fx", base / r);
        printf("  %-22s %12.0f %9s %8ld %10ld\n", names[l], r, ratio, hits, differ);
    }
    printf("  (c2d is: other library's time per ray / collide2d's; differ: rays whose first hit is not\n"
           "  collide2d's, at 1e-9)\n");
    fflush(stdout);
    c2d_world_destroy(w);
    cpSpatialIndexFree(index);
}

/* ---- 3: scale --------------------------------------------------------------------------------- */

/* Returns the heap bytes per entry. */
double scale_row(int n, int queries)
{
    double side = sqrt((double)n / 0.1);
    std::vector<c2d_shape *> shapes(n);
    for (int i = 0; i < n; i++)
        shapes[i] = make_shape(i % 2 ? K_BOX : K_CIRCLE, uniform(0, side), uniform(0, side), uniform(0, M_PI));
    malloc_trim(0);
    long heap0 = heap_bytes(), rss0 = resident_bytes();
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
    long heap = heap_bytes() - heap0, rss = resident_bytes() - rss0;
    long found = 0;
    c2d_world_hit hits[256];
    t0 = thread_ns();
    for (int q = 0; q < queries; q++) {
        c2d_aabb b;
        b.min.x = uniform(0, side);
        b.min.y = uniform(0, side);
        b.max.x = b.min.x + 5;
        b.max.y = b.min.y + 5;
        int count = 0;
        check(c2d_world_query_aabb(w, b, NULL, hits, 256, &count), "query_aabb");
        found += count;
    }
    double t_q = thread_ns() - t0;
    long rhits = 0;
    t0 = thread_ns();
    for (int q = 0; q < queries; q++) {
        c2d_vec2 o = {uniform(0, side), uniform(0, side)}, d = {uniform(-50, 50), uniform(-50, 50)};
        c2d_world_ray_hit h;
        c2d_world_raycast(w, o, d, 1.0, NULL, &h);
        rhits += h.ray.hit;
    }
    double t_r = thread_ns() - t0;
    printf("  %9d %8.0f %8.0f %11.1f %11.1f %13.0f %11.0f   %.1f found per box, %.0f%% of rays hit\n", n,
           t_add / 1e6, t_opt / 1e6, (double)heap / n, (double)rss / n, queries / (t_q / 1e9),
           queries / (t_r / 1e9), (double)found / queries, 100.0 * rhits / queries);
    fflush(stdout);
    c2d_world_destroy(w);
    for (c2d_shape *s : shapes)
        c2d_shape_destroy(s);
    return (double)heap / n;
}

void usage(void)
{
    fprintf(stderr, "usage: bench_world [--quick] [--frames N] [--warmup N] [--shapes N] [--rays N] [--max-scale N] [--strict] [--verbose]\n"
                    "                   [--moving-only] [--circles-only] [--lib c2d|box2d|bbtree|spacehash]\n");
    exit(2);
}

Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            o.quick = true;
            o.frames = 10;
            o.warmup = 15;
            o.shapes = 10000;
            o.rays = 20000;
            o.ray_shapes = 20000;
            o.max_scale = 100000;
        } else if (!strcmp(argv[i], "--strict")) {
            o.strict = true;
        } else if (!strcmp(argv[i], "--verbose")) {
            o.verbose = true;
        } else if (i + 1 < argc && !strcmp(argv[i], "--frames")) {
            o.frames = atoi(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--warmup")) {
            o.warmup = atoi(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--shapes")) {
            o.shapes = atoi(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--rays")) {
            o.rays = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--moving-only")) {
            o.moving_only = true;
        } else if (!strcmp(argv[i], "--circles-only")) {
            o.moving_only = o.circles_only = true;
        } else if (i + 1 < argc && !strcmp(argv[i], "--lib")) {
            i++;
            for (int r = 0; r < 4; r++)
                if (!strcmp(argv[i], kRunnerNames[r]))
                    o.lib = r;
            if (o.lib < 0)
                usage();
            o.moving_only = true;
        } else if (i + 1 < argc && !strcmp(argv[i], "--max-scale")) {
            o.max_scale = atoi(argv[++i]);
        } else {
            usage();
        }
    }
    if (o.frames < 1 || o.warmup < 0 || o.shapes < 2 || o.rays < 1 || o.max_scale < 10000)
        usage();
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    g_verbose = opt.verbose;
    printf("bench_world: collide2d %s vs Box2D 2.4.1 (b2BroadPhase, b2DynamicTree) and Chipmunk %s (cpBBTree, "
           "cpSpaceHash)%s\n",
           c2d_version_string(), cpVersionString, opt.quick ? " -- QUICK smoke run, numbers not meaningful" : "");
    bool mismatch = false;
    Moving circles = moving_table("A. Moving circles", false, opt, &mismatch);
    if (!opt.circles_only)
        moving_table("B. Moving mixed shapes (circles, boxes, hexagons, capsules)", true, opt, &mismatch);
    if (opt.moving_only)
        return mismatch ? 1 : 0;
    rays_table(opt.ray_shapes, opt.rays);

    printf("\nC. Scale: static worlds of circles and boxes (0.1 per unit^2), built by add + optimize.\n");
    printf("   heap B/entry: bytes the world allocated (mallinfo2), per entry; RSS: resident growth per entry.\n");
    printf("  %9s %8s %8s %11s %11s %13s %11s\n", "entries", "add ms", "opt ms", "heap B/entry", "RSS B/entry",
           "box queries/s", "rays/s");
    std::vector<double> per;
    for (int n = 10000; n <= opt.max_scale; n *= 10)
        per.push_back(scale_row(n, opt.quick ? 20000 : 100000));
    double lo = *std::min_element(per.begin(), per.end()), hi = *std::max_element(per.begin(), per.end());
    printf("  heap bytes per entry range %.1f..%.1f (largest / smallest %.2f): %s\n", lo, hi, hi / lo,
           hi / lo <= 1.6 ? "linear growth (the spread is the slack of arrays grown by half)"
                          : "NOT linear: bytes per entry grow with the world");

    printf("\nTargets (moving circles, table A; c2d is = other library's ms / collide2d's ms):\n");
    bool missed = false;
    const double want_b2 = 3.0, want_cp = 1.2;
    double got_b2 = circles.ratio[0], got_cp = circles.ratio[1];
    printf("  >= %.1fx faster than Box2D b2BroadPhase/b2DynamicTree: %.2fx  %s\n", want_b2, got_b2,
           got_b2 >= want_b2 ? "met" : "NOT MET");
    printf("  >= %.1fx faster than Chipmunk cpBBTree:               %.2fx  %s\n", want_cp, got_cp,
           got_cp >= want_cp ? "met" : "NOT MET");
    missed = got_b2 < want_b2 || got_cp < want_cp;
    if (mismatch)
        printf("ERROR: a library found another set of pairs than collide2d (see 'pair set' above)\n");
    if (mismatch || hi / lo > 1.6)
        return 1;
    return opt.strict && missed ? 1 : 0;
}
