/* bench_world.cpp - the world's broadphase against Box2D 2.4.1 and Chipmunk 7.0.3, side by side in one
 * run (issues 5, 16). Three tables:
 *
 * 1. Moving shapes: 40,000 circles (then a mixed set of circles, boxes, hexagons and capsules)
 *    drifting and bouncing in a square, at a density where each circle touches about three others.
 *    Every frame each library is told every shape's new box, finds its candidate pairs and runs the
 *    same exact narrow phase (c2d_overlap) on them, so all of them must report the same set of
 *    overlapping pairs (counted, and compared by an order-independent checksum of the pairs), and only
 *    the broadphase and its pair bookkeeping differ in the timing.
 *      collide2d         c2d_world_update for every entry, then c2d_world_pairs (exact, sorted). The
 *                        world keeps its candidate pairs between frames and revisits only entries
 *                        whose fattened box had to move.
 *      Box2D lean        the leanest persistent-pairs loop over b2DynamicTree (B2LeanRunner): MoveProxy
 *                        for every proxy, a fat-box query for each re-inserted one into a hash set of
 *                        pairs, pairs of re-inserted proxies dropped when their fat boxes part, the
 *                        narrow phase on the rest; nothing of b2ContactManager.
 *      Chipmunk cpBBTree   cpSpatialIndexReindexQuery with a velocity function, as cpSpace drives it
 *                        (the tree keeps its own pair cache).
 *      Chipmunk cpSpaceHash cpSpatialIndexReindexQuery (rehash and query everything each frame).
 *    Every library reads each shape's tight box from the shape itself (c2d_shape_get_aabb, as
 *    cpShapeGetBB reads a cpShape's; Box2D converts it to float), as the collide2d world does inside
 *    c2d_world_update. Moving the shapes is not timed. The libraries run in turn within each frame, on
 *    the same scene state; the time is this thread's CPU time per frame.
 * 2. Ray casts into 100,000 static mixed shapes: the first hit of random rays, with c2d_raycast as the
 *    exact test for every tree (each clipping the ray at the best hit so far, as its API allows), every
 *    tree as good as its API makes it: the world after c2d_world_optimize, cpBBTree after
 *    cpBBTreeOptimize, and Box2D's b2DynamicTree built by inserting the proxies in the best of four
 *    orders (its RebuildBottomUp is cubic: days at this size; the run shows both). The hit parameter
 *    of every ray is compared with collide2d's.
 * 3. Scale: static worlds of 10,000, 100,000 and 1,000,000 circles and boxes: build time (add, then
 *    c2d_world_optimize), heap bytes per entry (glibc mallinfo2: bytes the world holds, the shapes
 *    already exist) and resident growth, box queries and rays per second.
 *
 * Usage: bench_world [--quick] [--frames N] [--warmup N] [--shapes N] [--density D] [--rays N] [--max-scale N]
 *                    [--strict] [--verbose] [--moving-only] [--circles-only] [--lib c2d|box2d|bbtree|spacehash]
 *                    [--rays-only]
 * --rays-only runs the ray table alone (same scene and rays as the full run). --lib times one library's moving frames alone (no cross-check), for callgrind
 * (--toggle-collect='*C2dRunner::frame*', '*B2LeanRunner::frame*', '*CpRunner::frame*').
 */
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
    case K_BOX: {
        double h = uniform(0.5, 1.4), w = uniform(0.5, 1.4);
        check(c2d_rect_new(x, y, w, h, angle, &s), "rect");
        break;
    }
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
            c2d_vec2 p;
            p.x = uniform(0, side);
            p.y = uniform(0, side);
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

/* An open-addressing set of 64-bit pair keys (linear probing, deletion by backward shift, at most
 * half full): what a lean persistent-pairs loop keeps to tell a new pair from one it already has. */
struct PairSet {
    static constexpr uint64_t kEmpty = ~0ULL;
    std::vector<uint64_t> slot;
    size_t count = 0;
    int bits = 0;
    void init(int b)
    {
        bits = b;
        slot.assign((size_t)1 << b, kEmpty);
        count = 0;
    }
    size_t home(uint64_t k) const { return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> (64 - bits)); }
    /* Adds k; false when it was there already. */
    bool insert(uint64_t k)
    {
        if (2 * (count + 1) > slot.size())
            grow();
        size_t mask = slot.size() - 1;
        for (size_t i = home(k);; i = (i + 1) & mask) {
            if (slot[i] == k)
                return false;
            if (slot[i] == kEmpty) {
                slot[i] = k;
                count++;
                return true;
            }
        }
    }
    /* Removes k, which must be present; later entries of its run move back into the hole. */
    void erase(uint64_t k)
    {
        size_t mask = slot.size() - 1, i = home(k);
        while (slot[i] != k)
            i = (i + 1) & mask;
        for (size_t j = i;;) {
            j = (j + 1) & mask;
            if (slot[j] == kEmpty)
                break;
            size_t h = home(slot[j]);
            bool stays = i < j ? (h > i && h <= j) : (h > i || h <= j);
            if (!stays) {
                slot[i] = slot[j];
                i = j;
            }
        }
        slot[i] = kEmpty;
        count--;
    }
    void grow()
    {
        std::vector<uint64_t> old;
        old.swap(slot);
        init(bits + 1);
        for (uint64_t k : old)
            if (k != kEmpty)
                insert(k);
    }
};

/* The leanest persistent-pairs loop over Box2D's b2DynamicTree, with nothing of b2ContactManager
 * (no contact objects, no per-body edge lists, no walk per AddPair, no fat-box test of every contact
 * every frame). Each frame:
 *   1. b2DynamicTree::MoveProxy for every proxy with its shape's tight box and displacement; the tree
 *      re-inserts only those that left their fat box (about 1 in 30 per frame here);
 *   2. each re-inserted proxy queries the tree with its new fat box; a pair not yet in the hash set
 *      is added (when both moved, only the lower index adds it, as b2BroadPhase::QueryCallback does);
 *   3. one pass over the persistent pairs: a pair with a re-inserted proxy whose fat boxes no longer
 *      overlap is dropped (only those can have parted); c2d_overlap on the rest. */
struct B2LeanRunner : Runner {
    b2DynamicTree tree;
    std::vector<int> proxy;      /* shape index -> proxy id */
    std::vector<b2Vec2> centre;  /* each box's centre last frame, for the displacement */
    std::vector<uint8_t> moved;  /* re-inserted this frame, by shape index */
    std::vector<int> moved_list;
    std::vector<uint64_t> pairs; /* persistent pairs, (lower index << 32 | higher index) */
    PairSet known;
    int query = 0;               /* the shape whose fat box is being queried */
    const char *name() const override { return "Box2D tree, lean loop"; }
    void build(Scene &s) override
    {
        proxy.resize(s.n);
        centre.resize(s.n);
        moved.assign(s.n, 0);
        known.init(16);
        for (int i = 0; i < s.n; i++) {
            b2AABB b = to_b2(s.box[i]);
            proxy[i] = tree.CreateProxy(b, (void *)(intptr_t)i);
            centre[i] = b.GetCenter();
            moved[i] = 1;
            moved_list.push_back(i);
        }
    }
    bool QueryCallback(int proxy_id)
    {
        int j = (int)(intptr_t)tree.GetUserData(proxy_id);
        if (j == query || (moved[j] && j < query))
            return true;
        uint64_t lo = (uint64_t)std::min(j, query), hi = (uint64_t)std::max(j, query);
        if (known.insert(lo << 32 | hi))
            pairs.push_back(lo << 32 | hi);
        return true;
    }
    Found frame(Scene &s) override
    {
        for (int i = 0; i < s.n; i++) {
            c2d_aabb box;
            c2d_shape_get_aabb(s.shapes[i], &box);
            b2AABB b = to_b2(box);
            b2Vec2 c = b.GetCenter();
            if (tree.MoveProxy(proxy[i], b, c - centre[i]) && !moved[i]) {
                moved[i] = 1;
                moved_list.push_back(i);
            }
            centre[i] = c;
        }
        for (int i : moved_list) {
            query = i;
            tree.Query(this, tree.GetFatAABB(proxy[i]));
        }
        Found f;
        for (size_t k = 0; k < pairs.size();) {
            uint64_t key = pairs[k];
            int a = (int)(key >> 32), b = (int)(uint32_t)key;
            if ((moved[a] | moved[b]) && !b2TestOverlap(tree.GetFatAABB(proxy[a]), tree.GetFatAABB(proxy[b]))) {
                known.erase(key);
                pairs[k] = pairs.back();
                pairs.pop_back();
                continue;
            }
            f.candidates++;
            int hit = 0;
            c2d_overlap(s.shapes[a], s.shapes[b], &hit);
            if (hit)
                f.hit((uint64_t)a, (uint64_t)b);
            k++;
        }
        for (int i : moved_list)
            moved[i] = 0;
        moved_list.clear();
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
    /* Shapes per unit^2 of the moving tables. Circles of radius 0.3..0.7 placed at random touch
     * density * pi * E[(r1 + r2)^2] = 3.2 * density others on average: 0.93 gives about three
     * touching neighbours per circle (1.5 overlapping pairs per circle), where shapes in a game's
     * pile or crowd touch a few others. The old 0.25 gave 0.8 neighbours: circles barely touched. */
    double density = 0.93;
    int lib = -1;          /* --lib: time only this runner of the moving tables (for profiling) */
    bool moving_only = false;
    bool circles_only = false;
    bool rays_only = false; /* --rays-only: the ray table (B of the summary, "Ray casts") alone */
};

const char *const kRunnerNames[] = {"c2d", "box2d", "bbtree", "spacehash"};

struct Moving {
    double ratio[3]; /* other library's mean ms / collide2d's, for Box2D, cpBBTree, cpSpaceHash */
};

Moving moving_table(const char *title, bool mixed, const Options &opt, bool *mismatch)
{
    int n = opt.shapes;
    Scene s(n, mixed, opt.density, opt.warmup * 2 / 3);
    C2dRunner c2d;
    B2LeanRunner b2;
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
    printf("  Density %.2f shapes per unit^2: %.2f overlapping pairs per shape, %.2f touching neighbours per shape.\n",
           opt.density, pairs_sum / frames / n, 2.0 * pairs_sum / frames / n);
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

/* Orders in which the static shapes can be inserted into Box2D's tree. b2DynamicTree's only rebuild,
 * RebuildBottomUp, is cubic in the number of proxies (every merge scans all pairs of the remaining
 * roots), so at 100,000 shapes the tree can only be built by inserting them; the insertion heuristic
 * (cheapest sibling by perimeter, then rotations) builds a better tree from some orders than others. */
enum { ORDER_CREATION, ORDER_MORTON, ORDER_HILBERT, ORDER_KD, ORDER_COUNT };
const char *const kOrderNames[] = {"creation (random places)", "Morton (Z) curve", "Hilbert curve",
                                   "kd: medians, breadth first"};

/* Hilbert index of (x, y) on a 65536 x 65536 grid. */
uint64_t hilbert(uint32_t x, uint32_t y)
{
    const uint32_t n = 65536;
    uint64_t d = 0;
    for (uint32_t q = n / 2; q > 0; q /= 2) {
        uint32_t rx = (x & q) > 0, ry = (y & q) > 0;
        d += (uint64_t)q * q * ((3 * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = n - 1 - x;
                y = n - 1 - y;
            }
            std::swap(x, y);
        }
    }
    return d;
}

uint64_t morton(uint32_t x, uint32_t y)
{
    uint64_t d = 0;
    for (int b = 0; b < 16; b++)
        d |= (uint64_t)((x >> b) & 1) << (2 * b) | (uint64_t)((y >> b) & 1) << (2 * b + 1);
    return d;
}

std::vector<int> insertion_order(const Scene &s, int how)
{
    std::vector<int> idx(s.n);
    for (int i = 0; i < s.n; i++)
        idx[i] = i;
    auto cx = [&](int i) { return 0.5 * (s.box[i].min.x + s.box[i].max.x); };
    auto cy = [&](int i) { return 0.5 * (s.box[i].min.y + s.box[i].max.y); };
    auto grid = [&](double v) { return (uint32_t)std::min(65535.0, std::max(0.0, v / s.side * 65535.0)); };
    if (how == ORDER_MORTON || how == ORDER_HILBERT) {
        std::vector<uint64_t> key(s.n);
        for (int i = 0; i < s.n; i++)
            key[i] = how == ORDER_MORTON ? morton(grid(cx(i)), grid(cy(i))) : hilbert(grid(cx(i)), grid(cy(i)));
        std::sort(idx.begin(), idx.end(), [&](int a, int b) { return key[a] < key[b]; });
    } else if (how == ORDER_KD) {
        /* The median of the whole set along its longer side first, then the medians of the two
         * halves, and so on level by level: the first proxies inserted span the world evenly, and the
         * tree's top levels form around them before the fine ones come. */
        std::vector<int> out;
        std::vector<std::pair<int, int>> level = {{0, s.n}}, next;
        while (!level.empty()) {
            next.clear();
            for (auto r : level) {
                int lo = r.first, hi = r.second;
                if (lo >= hi)
                    continue;
                double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
                for (int k = lo; k < hi; k++) {
                    x0 = fmin(x0, cx(idx[k])), x1 = fmax(x1, cx(idx[k]));
                    y0 = fmin(y0, cy(idx[k])), y1 = fmax(y1, cy(idx[k]));
                }
                bool by_x = x1 - x0 >= y1 - y0;
                int mid = lo + (hi - lo) / 2;
                std::nth_element(idx.begin() + lo, idx.begin() + mid, idx.begin() + hi,
                                 [&](int a, int b) { return by_x ? cx(a) < cx(b) : cy(a) < cy(b); });
                out.push_back(idx[mid]);
                next.push_back({lo, mid});
                next.push_back({mid + 1, hi});
            }
            level.swap(next);
        }
        idx.swap(out);
    }
    return idx;
}

/* Casts rays [c0, c1) through a Box2D tree; returns the rays per second and writes the hits. */
double b2_rays(Scene &s, const b2DynamicTree &tree, const std::vector<c2d_vec2> &o, const std::vector<c2d_vec2> &d,
               int c0, int c1, std::vector<double> *ts)
{
    double t0 = thread_ns();
    for (int i = c0; i < c1; i++) {
        B2RayCast cb = {&s, &tree, o[i], d[i], 1.0, false};
        b2RayCastInput in;
        in.p1.Set((float)o[i].x, (float)o[i].y);
        in.p2.Set((float)(o[i].x + d[i].x), (float)(o[i].y + d[i].y));
        in.maxFraction = 1.0f;
        tree.RayCast(&cb, in);
        if (ts)
            (*ts)[i] = cb.hit ? cb.best : -1.0;
    }
    return (c1 - c0) / ((thread_ns() - t0) / 1e9);
}

/* Returns the world's rays per second / cpBBTree's (above 1: collide2d faster); sets *mismatch when a
 * tree's first hit differs from the world's. */
double rays_table(int n, int rays, bool *mismatch)
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

    /* Box2D's tree, as good as its API allows. RebuildBottomUp is timed on a few hundred proxies to
     * show why it is not used; then every insertion order is built and probed, and the fastest kept. */
    {
        int m = std::min(n, 600);
        b2DynamicTree small;
        for (int i = 0; i < m; i++)
            small.CreateProxy(to_b2(s.box[i]), (void *)(intptr_t)i);
        double t0 = bench_now_ns();
        small.RebuildBottomUp();
        double sec = (bench_now_ns() - t0) / 1e9;
        printf("Box2D: b2DynamicTree::RebuildBottomUp took %.3f s for %d proxies; it is cubic, so %d would take\n"
               "  about %.0f hours. Its tree is built by inserting the proxies instead, in the order (of these)\n"
               "  whose tree casts fastest (area ratio: b2DynamicTree::GetAreaRatio, lower is better):\n",
               sec, m, n, sec * pow((double)n / m, 3) / 3600);
    }
    b2DynamicTree *trees[ORDER_COUNT];
    int best = 0;
    double best_rate = 0;
    int probe = std::min(rays, 20000);
    for (int k = 0; k < ORDER_COUNT; k++) {
        trees[k] = new b2DynamicTree();
        double t0 = bench_now_ns();
        for (int i : insertion_order(s, k))
            trees[k]->CreateProxy(to_b2(s.box[i]), (void *)(intptr_t)i);
        double build_ms = (bench_now_ns() - t0) / 1e6;
        double rate = b2_rays(s, *trees[k], o, d, 0, probe, NULL);
        printf("    %-28s area ratio %6.1f  height %3d  build %5.0f ms  %9.0f rays/s (first %d rays)\n",
               kOrderNames[k], trees[k]->GetAreaRatio(), trees[k]->GetHeight(), build_ms, rate, probe);
        if (rate > best_rate) {
            best_rate = rate;
            best = k;
        }
    }
    for (int k = 0; k < ORDER_COUNT; k++)
        if (k != best)
            delete trees[k];
    b2DynamicTree &tree = *trees[best];
    printf("Trees: collide2d add + c2d_world_optimize; Box2D inserted in %s order; Chipmunk cpBBTree insert +\n"
           "cpBBTreeOptimize. Exact test: c2d_raycast for all, each tree clipping the ray at the best hit.\n",
           kOrderNames[best]);

    c2d_world *w;
    c2d_world_id id;
    check(c2d_world_new(&w), "world_new");
    for (int i = 0; i < n; i++)
        check(c2d_world_add(w, s.shapes[i], (uintptr_t)i, &id), "world_add");
    check(c2d_world_optimize(w), "optimize");
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
                b2_rays(s, tree, o, d, c0, c1, &ts[1]);
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
    double base = bench_median(rate[0].data(), (int)rate[0].size()), vs_bbtree = 0;
    for (int l = 0; l < L; l++) {
        double r = bench_median(rate[l].data(), (int)rate[l].size());
        if (l == 2)
            vs_bbtree = base / r;
        long hits = 0, differ = 0;
        for (int i = 0; i < rays; i++) {
            hits += ts[l][i] >= 0;
            bool same = (ts[l][i] < 0) == (ts[0][i] < 0) && fabs(ts[l][i] - ts[0][i]) <= 1e-9 * (1 + fabs(ts[0][i]));
            differ += !same;
        }
        char ratio[32];
        snprintf(ratio, sizeof ratio, l == 0 ? "-" : "%.2fx", base / r);
        printf("  %-22s %12.0f %9s %8ld %10ld\n", names[l], r, ratio, hits, differ);
        if (differ)
            *mismatch = true;
    }
    printf("  (c2d is: other library's time per ray / collide2d's; differ: rays whose first hit is not\n"
           "  collide2d's, at 1e-9)\n");
    fflush(stdout);
    c2d_world_destroy(w);
    cpSpatialIndexFree(index);
    delete &tree;
    return vs_bbtree;
}

/* ---- 3: scale --------------------------------------------------------------------------------- */

/* Returns the heap bytes per entry. */
double scale_row(int n, int queries)
{
    double side = sqrt((double)n / 0.1);
    std::vector<c2d_shape *> shapes(n);
    for (int i = 0; i < n; i++) {
        double angle = uniform(0, M_PI), y = uniform(0, side), x = uniform(0, side);
        shapes[i] = make_shape(i % 2 ? K_BOX : K_CIRCLE, x, y, angle);
    }
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
        c2d_vec2 o, d;
        o.x = uniform(0, side);
        o.y = uniform(0, side);
        d.x = uniform(-50, 50);
        d.y = uniform(-50, 50);
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
    fprintf(stderr, "usage: bench_world [--quick] [--frames N] [--warmup N] [--shapes N] [--density D] [--rays N]\n"
                    "                   [--max-scale N] [--strict] [--verbose] [--moving-only] [--circles-only]\n"
                    "                   [--lib c2d|box2d|bbtree|spacehash] [--rays-only]\n");
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
        } else if (i + 1 < argc && !strcmp(argv[i], "--density")) {
            o.density = atof(argv[++i]);
        } else if (i + 1 < argc && !strcmp(argv[i], "--rays")) {
            o.rays = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--moving-only")) {
            o.moving_only = true;
        } else if (!strcmp(argv[i], "--rays-only")) {
            o.rays_only = true;
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
    if (o.frames < 1 || o.warmup < 0 || o.shapes < 2 || o.rays < 1 || o.max_scale < 10000 || !(o.density > 0))
        usage();
    return o;
}

/* Heap bytes per entry of the scale table's worlds as measured before issue 16's rewrite of the
 * library's internals (collide2d 1.0.0, commit e7e955e): the target is to stay at or below them. The
 * figure depends on the number of entries (the tree and the entry arrays), hardly on the shapes, but
 * glibc rounds large blocks differently depending on what the run allocated before (a quick run reads
 * 260.7 at 100,000 where a full one reads 260.6), so 0.5 B/entry of it is measurement, not growth. */
struct Baseline {
    int entries;
    double bytes;
};
const Baseline kTodayBytes[] = {{10000, 228.6}, {100000, 260.6}, {1000000, 256.0}};

} // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    g_verbose = opt.verbose;
    printf("bench_world: collide2d %s vs Box2D 2.4.1 (b2DynamicTree) and Chipmunk %s (cpBBTree, cpSpaceHash)%s\n",
           c2d_version_string(), cpVersionString, opt.quick ? " -- QUICK smoke run, numbers not meaningful" : "");
    bool mismatch = false;
    /* Each table draws its scene from its own seed, so that running one table alone, or a quick run,
     * builds the same scenes as the full run does. */
    if (opt.rays_only) {
        g_rng = 0x8CB92BA72F3D8DD7ULL;
        double r = rays_table(opt.ray_shapes, opt.rays, &mismatch);
        printf("  rays: world vs Chipmunk cpBBTree after cpBBTreeOptimize %6.2fx (want >= 1.20x)\n", r);
        return mismatch ? 1 : 0;
    }
    g_rng = 0x9E3779B97F4A7C15ULL;
    Moving circles = moving_table("A. Moving circles", false, opt, &mismatch);
    g_rng = 0xD1B54A32D192ED03ULL;
    if (!opt.circles_only)
        moving_table("B. Moving mixed shapes (circles, boxes, hexagons, capsules)", true, opt, &mismatch);
    if (opt.moving_only)
        return mismatch ? 1 : 0;
    g_rng = 0x8CB92BA72F3D8DD7ULL;
    double rays_vs_cp = rays_table(opt.ray_shapes, opt.rays, &mismatch);

    g_rng = 0xABC98388FB8FAC03ULL;
    printf("\nC. Scale: static worlds of circles and boxes (0.1 per unit^2), built by add + optimize.\n");
    printf("   heap B/entry: bytes the world allocated (mallinfo2), per entry; RSS: resident growth per entry.\n");
    printf("  %9s %8s %8s %11s %11s %13s %11s\n", "entries", "add ms", "opt ms", "heap B/entry", "RSS B/entry",
           "box queries/s", "rays/s");
    std::vector<double> per;
    std::vector<int> sizes;
    for (int n = 10000; n <= opt.max_scale; n *= 10) {
        per.push_back(scale_row(n, opt.quick ? 20000 : 100000));
        sizes.push_back(n);
    }
    double lo = *std::min_element(per.begin(), per.end()), hi = *std::max_element(per.begin(), per.end());
    printf("  heap bytes per entry range %.1f..%.1f (largest / smallest %.2f): %s\n", lo, hi, hi / lo,
           hi / lo <= 1.6 ? "linear growth (the spread is the slack of arrays grown by half)"
                          : "NOT linear: bytes per entry grow with the world");

    int met = 0, missed = 0;
    auto target = [&](const char *label, double got, double want, const char *how) {
        bool ok = got >= want;
        (ok ? met : missed)++;
        printf("  %-62s %6.2fx %-8s (%s %.2fx)\n", label, got, ok ? "MET" : "NOT MET", how, want);
    };
    printf("\nTargets (c2d is = other library's time / collide2d's; above 1 means collide2d is faster):\n");
    target("A: world vs the lean b2DynamicTree loop, 40,000 moving circles", circles.ratio[0], 1.5, "want >=");
    target("A: world vs Chipmunk cpBBTree, moving circles (issue 5's)", circles.ratio[1], 1.2, "want >=");
    target("rays: world vs Chipmunk cpBBTree after cpBBTreeOptimize", rays_vs_cp, 1.2, "want >=");
    if (opt.shapes != 40000)
        printf("  (this run moved %d circles, not 40,000: the first ratio is not the target's)\n", opt.shapes);
    for (size_t k = 0; k < sizes.size(); k++)
        for (const Baseline &b : kTodayBytes)
            if (b.entries == sizes[k]) {
                bool ok = per[k] <= b.bytes + 0.5;
                (ok ? met : missed)++;
                printf("  heap bytes per entry at %-7d no higher than before issue 16: %6.1f  %-8s (before: %.1f)\n",
                       sizes[k], per[k], ok ? "MET" : "NOT MET", b.bytes);
            }
    printf("targets: %d met, %d NOT MET\n", met, missed);
    if (mismatch)
        printf("ERROR: a library found another set of pairs, or another first hit, than collide2d (see above)\n");
    if (mismatch || hi / lo > 1.6)
        return 1;
    return opt.strict && missed ? 1 : 0;
}
