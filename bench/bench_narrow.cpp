/* bench_narrow.cpp - narrow-phase benchmark: collide2d against Box2D 2.4.1 and Chipmunk 7 (issues 2, 16).
 *
 * For every pair kind it generates one set of random shape pairs whose bounding boxes overlap (what a
 * broadphase hands to a narrow phase), gives every library the same geometry and the same two poses
 * per pair, checks that their answers agree, then times overlap and contact queries with placement
 * counted (both shapes placed at the visit's pose before each query, as a game moves its shapes each
 * frame) and, for reference, without (shapes already placed). Rays against polygons and boxes the same
 * way. A hand-written box-box SAT and clip (narrow_floor.h) is the floor box-box is held to. A second
 * table repeats the Box2D pair kinds with 16,384 pairs per kind, beyond the L2 cache. The targets are
 * printed with their ratios, met or not.
 *
 * Files: narrow_scene.h (shapes, pairs, poses, rays; no library), narrow_peers.h (each library's
 * shapes and pass functions: how each places and queries), narrow_floor.h (the box-box floor).
 * Written in C++ only because Box2D 2.4.1 is a C++ library; collide2d is used through its C ABI,
 * linked as a shared library the way a user links it.
 *
 * Usage: bench_narrow [--quick] [--pairs N] [--cold N] [--reps N] [--seed N] [--only KIND]
 *                     [--lib c2d|box2d|chipmunk|floor] [--sections ARFDM] [--visits N] [--dump N]
 *                     [--strict] [--verbose] [--profile] [--check]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "bench.h"
#include "collide2d.h"
#include "narrow_floor.h"
#include "narrow_peers.h"
#include "narrow_scene.h"

namespace {

/* ---- what is measured ------------------------------------------------------------------------- */

struct KindSpec {
    const char *name;
    bool ray;      /* a ray against shape a, not a pair */
    Kind a, b;     /* in Chipmunk's type order (circle, segment, polygon): it wants them so */
    bool rotated;  /* boxes get random angles and the second pose turns (polygons always turn) */
    bool box2d;    /* Box2D 2.4.1 has no capsule, so those are collide2d against Chipmunk only */
    bool floor;    /* box-box: also timed against the hand-written floor */
};

const KindSpec kKinds[] = {
    {"circle-circle", false, K_CIRCLE, K_CIRCLE, false, true, false},
    {"circle-polygon", false, K_CIRCLE, K_POLY, true, true, false},
    {"polygon-polygon", false, K_POLY, K_POLY, true, true, false},
    {"box-box aligned", false, K_BOX, K_BOX, false, true, true},
    {"box-box rotated", false, K_BOX, K_BOX, true, true, true},
    {"circle-box rotated", false, K_CIRCLE, K_BOX, true, true, false},
    {"circle-capsule", false, K_CIRCLE, K_CAPSULE, true, false, false},
    {"capsule-capsule", false, K_CAPSULE, K_CAPSULE, true, false, false},
    {"capsule-polygon", false, K_CAPSULE, K_POLY, true, false, false},
    {"ray-polygon", true, K_POLY, K_POLY, true, true, false},
    {"ray-box", true, K_BOX, K_BOX, true, true, false},
};
const int kKindCount = (int)(sizeof kKinds / sizeof kKinds[0]);

/* Every timed function. The b2Collide* call answers both "do they touch" (pointCount > 0) and "what
 * is the contact" (its manifold), so it is timed once and compared with both of collide2d's queries;
 * so is cpShapesCollide, Chipmunk's only pair test. */
enum Fn {
    F_C2D_OVERLAP,
    F_C2D_COLLIDE,
    F_B2_COLLIDE,
    F_B2_TESTOVERLAP,
    F_B2_WORLDMANIFOLD,
    F_CP_COLLIDE,
    F_FLOOR,
    F_C2D_RAY,
    F_B2_RAY,
    F_CP_RAY,
    F_COUNT
};
enum Form { PLACED, FIXED, FORM_COUNT };
const char *const kFormNames[] = {"placed", "fixed"};
enum Lib { L_C2D, L_B2, L_CP, L_FLOOR, L_COUNT };
const char *const kLibNames[] = {"c2d", "box2d", "chipmunk", "floor"};
const Lib kFnLib[F_COUNT] = {L_C2D, L_C2D, L_B2, L_B2, L_B2, L_CP, L_FLOOR, L_C2D, L_B2, L_CP};

/* Interquartile range / median below which a measurement counts as undisturbed. */
const double kSteady = 0.15;

/* collide2d and Chipmunk both work in double without a skin: where both report a contact their depths
 * and normals (1 - cos of the angle between them) should agree to 1e-13, and they must agree on every
 * yes/no except within 1e-9 of touching. Where they differ by more, the long-double referee of
 * narrow_scene.h decides: collide2d must be within 1e-13 of it (else an error); a pair where only
 * Chipmunk is off is counted and shown, not held against collide2d. */
const double kAgree = 1e-13;
const double kTouching = 1e-9;

/* Float rounding allowed to Box2D beyond its skin: positions up to ~100 in float are good to ~1e-5,
 * and a transform or two compound that. */
const double kFloatSlack = 1e-4;

/* ---- options ---------------------------------------------------------------------------------- */

struct Options {
    int pairs = 1024;
    int cold_pairs = 16384;
    int reps = 31;
    uint64_t seed = 20261122;
    const char *only = NULL;
    int lib = -1; /* run one library only (for profiling under callgrind), -1 for all */
    int dump = 0;
    bool strict = false;
    bool verbose = false;
    /* Short repetitions, many of them: when the host takes the CPU away for a few milliseconds
     * only a few repetitions suffer, and the median steps over them. */
    double rep_ns = 1e6;
    const char *sections = "ARFD";
    int visits = 8;      /* visits per pair per pass in table A (even: poses alternate) */
    int cold_visits = 2; /* the same in table D */
    /* Table D's passes are long (tens of thousands of calls from memory): fewer repetitions are
     * enough for a steady median, and only the placed form (the one its target uses) is timed. */
    int cold_reps = 11;
    int attempts = 4; /* measurements of a kind when the machine was too noisy (2 in table D) */
    bool quick = false;
    bool profile = false; /* one untimed pass per function, for callgrind */
    bool check = false;   /* the cross-checks alone, nothing timed */
    bool placed_only = false; /* set for table D */
    int chunk = 0;            /* table D: calls per chunk of interleaved timing (0: whole passes) */
    bool own_copies = false;  /* table D: every timed function on its own copy of the pairs */
};

void usage(void)
{
    fprintf(stderr,
            "usage: bench_narrow [--quick] [--pairs N] [--cold N] [--reps N] [--seed N] [--only KIND]\n"
            "                    [--lib c2d|box2d|chipmunk|floor] [--sections ARFDM] [--visits N] [--dump N]\n"
            "                    [--strict] [--verbose] [--profile] [--check]\n");
    exit(2);
}

Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--strict")) {
            o.strict = true;
            continue;
        }
        if (!strcmp(arg, "--verbose")) {
            o.verbose = true;
            continue;
        }
        if (!strcmp(arg, "--profile")) {
            o.profile = true;
            continue;
        }
        if (!strcmp(arg, "--check")) {
            o.check = true;
            continue;
        }
        if (!strcmp(arg, "--quick")) {
            /* A smoke run: every table, few and short repetitions, smaller sets. */
            o.quick = true;
            o.pairs = 256;
            o.reps = 5;
            o.rep_ns = 2e5;
            o.cold_pairs = 2048;
            o.cold_reps = 3;
            continue;
        }
        if (!val)
            usage();
        i++;
        if (!strcmp(arg, "--pairs"))
            o.pairs = atoi(val);
        else if (!strcmp(arg, "--cold"))
            o.cold_pairs = atoi(val);
        else if (!strcmp(arg, "--reps"))
            o.reps = atoi(val);
        else if (!strcmp(arg, "--seed"))
            o.seed = strtoull(val, NULL, 10);
        else if (!strcmp(arg, "--only")) {
            /* Underscores stand for spaces ("box-box_rotated"), for shells and make. */
            static char name[64];
            snprintf(name, sizeof name, "%s", val);
            for (char *c = name; *c; c++)
                if (*c == '_')
                    *c = ' ';
            o.only = name;
        } else if (!strcmp(arg, "--visits"))
            o.visits = atoi(val);
        else if (!strcmp(arg, "--sections"))
            o.sections = val;
        else if (!strcmp(arg, "--dump"))
            o.dump = atoi(val);
        else if (!strcmp(arg, "--lib")) {
            for (int l = 0; l < L_COUNT; l++)
                if (!strcmp(val, kLibNames[l]))
                    o.lib = l;
            if (o.lib < 0)
                usage();
        } else
            usage();
    }
    if (o.pairs < 1 || o.cold_pairs < 1 || o.reps < 1 || o.visits < 2 || o.visits % 2)
        usage();
    return o;
}

/* ---- one pair kind: build, check, time --------------------------------------------------------- */

struct Result {
    const KindSpec *spec;
    int pairs;
    bool timed[F_COUNT][FORM_COUNT];
    double ns[F_COUNT][FORM_COUNT];
    double spread[F_COUNT][FORM_COUNT]; /* interquartile range / median: how noisy the machine was */
    long hits[F_COUNT];                 /* pairs (pose 0) each call reports touching */
    long b2_differ[F_COUNT];            /* pairs (pose 0) where a Box2D call disagrees with collide2d */
    long cp_differ;                     /* Chipmunk disagrees on yes/no, or collide2d is off the referee (errors) */
    long c2d_off;                       /* of those, collide2d's depth or normal off the referee */
    long cp_off;                        /* only Chipmunk's depth or normal is off the referee by > kAgree */
    double worst_cp_off;                /* the largest such Chipmunk error */
    long near_touching;                 /* yes/no differences within kTouching of touching: not errors */
    long beyond_skin;                   /* Box2D disagrees where its skin does not explain it (errors) */
    long inconsistent;                  /* collide2d: overlap and collide differ, or the poses do (errors) */
    long floor_differ;                  /* the floor's contact is not collide2d's (errors) */
    long ray_near;                      /* rays whose segment passes within float rounding of the surface */
    double worst_depth, worst_normal;   /* largest differences from Chipmunk where both report contact */
    double worst_floor;                 /* largest difference from the floor (depth, normal, points) */
    int boxes_apart;                    /* pairs whose bounding boxes do not overlap (table M only) */
};

void print_desc(const char *label, const Desc &d, const Pose &p)
{
    switch (d.kind) {
    case K_CIRCLE:
        printf("    %s: circle r %.17g", label, d.r);
        break;
    case K_BOX:
        printf("    %s: box %.17g x %.17g", label, 2 * d.hx, 2 * d.hy);
        break;
    case K_CAPSULE:
        printf("    %s: capsule ({%.17g, 0}, {%.17g, 0}) r %.17g", label, -d.hx, d.hx, d.r);
        break;
    case K_POLY:
        printf("    %s: polygon {", label);
        for (int i = 0; i < d.n; i++)
            printf("%s{%.17g, %.17g}", i ? ", " : "", d.vx[i], d.vy[i]);
        printf("}");
        break;
    }
    printf(" placed at (%.17g, %.17g) angle %.17g\n", p.x, p.y, p.angle);
}

/* The collide2d distance between the two shapes of pair i as they are placed now (for judging
 * disagreements; the library's own answer, checked against Chipmunk everywhere else). */
double c2d_gap(const C2dSet &cs, uint32_t i)
{
    c2d_distance_result r;
    if (c2d_distance(cs.a[i], cs.b[i], &r) != C2D_OK)
        return NAN;
    return r.distance;
}

/* Times the listed functions: calibrated passes, repetitions in which the functions take turns (the
 * first one rotating), median per call. When so many repetitions were disturbed that the quartiles
 * spread wide, the whole set is measured again (opt.attempts in all: four in table A, two in table D)
 * and the steadiest attempt kept. */
struct Timed {
    Fn fn;
    Form form;
    bench_pass_fn pass;
    void *ctx;
    const std::vector<uint32_t> **order; /* the set's visit order, which chunked timing points elsewhere */
};

/* With `chunks` (table D), a repetition runs the visit order a chunk at a time, every function taking
 * its turn on each chunk before the next: a pass over 16,384 pairs takes 10-20 ms, and interleaving
 * whole passes let a burst of load from the machine's other tenant (sharing the L3 cache and memory)
 * land on one library. A chunk of about a millisecond is the same grain as table A's passes, and
 * just as cold: the other functions' data evicts a function's own between its chunks. */
void time_all(const Options &opt, const char *label, const std::vector<Timed> &list, long calls, Result &res,
              long *sink, const std::vector<std::vector<uint32_t>> *chunks = NULL)
{
    size_t n = list.size();
    if (n == 0)
        return;
    std::vector<long> passes(n, 1);
    if (!chunks)
        for (size_t k = 0; k < n; k++)
            passes[k] = bench_calibrate(list[k].pass, list[k].ctx, opt.rep_ns, sink);
    double best = INFINITY;
    for (int attempt = 0; attempt < opt.attempts && best > kSteady; attempt++) {
        std::vector<std::vector<double>> t(n);
        for (int rep = 0; rep < opt.reps; rep++) {
            if (!chunks) {
                /* Table A: one untimed pass first, so that every function is timed with its own data as
                 * warm as the cache keeps it, whichever function ran before (functions of one library
                 * share their shapes, and would otherwise warm them for each other). */
                for (size_t j = 0; j < n; j++) {
                    size_t k = (j + (size_t)rep) % n;
                    *sink += list[k].pass(list[k].ctx);
                    t[k].push_back(bench_time_rep_clean(list[k].pass, list[k].ctx, passes[k], calls, sink, 10, NULL));
                }
                continue;
            }
            std::vector<double> total(n, 0.0);
            for (size_t c = 0; c < chunks->size(); c++) {
                const std::vector<uint32_t> &chunk = (*chunks)[c];
                for (size_t j = 0; j < n; j++) {
                    size_t k = (j + c + (size_t)rep) % n;
                    const std::vector<uint32_t> *whole = *list[k].order;
                    *list[k].order = &chunk;
                    total[k] += (double)chunk.size() *
                                bench_time_rep_clean(list[k].pass, list[k].ctx, 1, (long)chunk.size(), sink, 10, NULL);
                    *list[k].order = whole;
                }
            }
            for (size_t k = 0; k < n; k++)
                t[k].push_back(total[k] / (double)calls);
        }
        double worst = 0.0;
        std::vector<double> ns(n), spread(n);
        for (size_t k = 0; k < n; k++) {
            if (opt.verbose) {
                printf("  reps %s %d/%d:", label, (int)list[k].fn, (int)list[k].form);
                for (double x : t[k])
                    printf(" %.1f", x);
                printf("  (passes %ld)\n", passes[k]);
            }
            ns[k] = bench_median(t[k].data(), opt.reps);
            double q1 = bench_quantile(t[k].data(), opt.reps, 0.25), q3 = bench_quantile(t[k].data(), opt.reps, 0.75);
            spread[k] = ns[k] > 0.0 ? (q3 - q1) / ns[k] : 0.0;
            worst = fmax(worst, spread[k]);
        }
        if (worst < best) {
            best = worst;
            for (size_t k = 0; k < n; k++) {
                res.ns[list[k].fn][list[k].form] = ns[k];
                res.spread[list[k].fn][list[k].form] = spread[k];
                res.timed[list[k].fn][list[k].form] = true;
            }
        }
    }
}

/* The visit order cut into chunks of about a millisecond's calls, for time_all. */
std::vector<std::vector<uint32_t>> chunks_of(const std::vector<uint32_t> &order, size_t size)
{
    std::vector<std::vector<uint32_t>> out;
    for (size_t i = 0; i < order.size(); i += size)
        out.emplace_back(order.begin() + i, order.begin() + std::min(order.size(), i + size));
    return out;
}

/* Each library's copy of a kind's pairs, shapes placed at pose 0, with the poses of every visit. */
bool build_c2d(const KindSpec &spec, const std::vector<PairCase> &cases, C2dSet &cs)
{
    for (size_t i = 0; i < cases.size(); i++) {
        c2d_shape *sa = NULL, *sb = NULL;
        c2d_status st = c2d_make(cases[i].a, &sa);
        if (st == C2D_OK)
            st = c2d_make(cases[i].b, &sb);
        if (st != C2D_OK) {
            printf("  %s: collide2d rejected a valid shape (%s); kind skipped\n", spec.name, c2d_status_string(st));
            print_desc("shape", sa ? cases[i].b : cases[i].a, sa ? cases[i].pb[0] : cases[i].pa[0]);
            c2d_shape_destroy(sa);
            return false;
        }
        cs.a.push_back(sa);
        cs.b.push_back(sb);
        for (int k = 0; k < 2; k++) {
            const Pose &pa = cases[i].pa[k], &pb = cases[i].pb[k];
            C2dPose p = {{pa.x, pa.y}, pa.angle, {pb.x, pb.y}, pb.angle};
            cs.pose.push_back(p);
        }
    }
    return true;
}

void build_b2(const KindSpec &spec, const std::vector<PairCase> &cases, B2Set &bs)
{
    /* Box2D wants the polygon before the circle. */
    bs.swapped = spec.a == K_CIRCLE && spec.b != K_CIRCLE;
    bs.call = spec.a == K_CIRCLE && spec.b == K_CIRCLE ? B2_CIRCLES
              : spec.a == K_CIRCLE || spec.b == K_CIRCLE ? B2_POLYGON_CIRCLE
                                                         : B2_POLYGONS;
    for (const PairCase &pc : cases) {
        const Desc &a = bs.swapped ? pc.b : pc.a, &b = bs.swapped ? pc.a : pc.b;
        const Pose *pa = bs.swapped ? pc.pb : pc.pa, *pb = bs.swapped ? pc.pa : pc.pb;
        bs.a.push_back(b2_make(a));
        bs.b.push_back(b2_make(b));
        bs.xa.push_back(b2_xf(b2Vec2((float)pa[0].x, (float)pa[0].y), (float)pa[0].angle));
        bs.xb.push_back(b2_xf(b2Vec2((float)pb[0].x, (float)pb[0].y), (float)pb[0].angle));
        for (int k = 0; k < 2; k++) {
            B2Pose p = {b2Vec2((float)pa[k].x, (float)pa[k].y), (float)pa[k].angle,
                        b2Vec2((float)pb[k].x, (float)pb[k].y), (float)pb[k].angle};
            bs.pose.push_back(p);
        }
    }
}

void build_cp(const std::vector<PairCase> &cases, CpSet &ps)
{
    for (const PairCase &pc : cases) {
        ps.a.push_back(cp_make(pc.a, ps.ba));
        ps.b.push_back(cp_make(pc.b, ps.bb));
        for (int k = 0; k < 2; k++) {
            CpPose p = {cpv(pc.pa[k].x, pc.pa[k].y), pc.pa[k].angle, cpv(pc.pb[k].x, pc.pb[k].y), pc.pb[k].angle};
            ps.pose.push_back(p);
        }
    }
}

void build_floor(const std::vector<PairCase> &cases, FloorSet &fs)
{
    for (const PairCase &pc : cases)
        for (int k = 0; k < 2; k++) {
            FloorBox fa = {pc.pa[k].x, pc.pa[k].y, pc.pa[k].angle, pc.a.hx, pc.a.hy};
            FloorBox fb = {pc.pb[k].x, pc.pb[k].y, pc.pb[k].angle, pc.b.hx, pc.b.hy};
            fs.a.push_back(fa);
            fs.b.push_back(fb);
        }
}

/* The pairs of one kind: built for every library, checked, timed. Returns false when collide2d
 * rejected a valid shape (then nothing of the kind is timed). */
bool measure_pairs(const Options &opt, const KindSpec &spec, int pairs, int visits, bool after_broadphase, Rng &rng,
                   Result &res, long *sink)
{
    std::vector<PairCase> cases(pairs);
    for (int i = 0; i < pairs; i++)
        cases[i] = make_pair(spec.a, spec.b, spec.rotated, after_broadphase, rng);
    std::vector<uint32_t> order = make_order(pairs, visits, rng);
    for (const PairCase &pc : cases)
        res.boxes_apart += !aabbs_overlap(pc.a, pc.pa[0], pc.b, pc.pb[0]);

    C2dSet cs;
    B2Set bs;
    CpSet ps;
    FloorSet fs;
    if (!build_c2d(spec, cases, cs))
        return false;
    if (spec.box2d)
        build_b2(spec, cases, bs);
    build_cp(cases, ps);
    if (spec.floor)
        build_floor(cases, fs);
    cs.order = bs.order = ps.order = fs.order = &order;

    /* Untimed: every pair at both poses, every library, so a reader sees whether they did the same
     * work, and a wrong answer cannot pass as speed. */
    int dumped = 0;
    for (int i = 0; i < pairs; i++) {
        int first[F_COUNT] = {0};
        for (int k = 0; k < 2; k++) {
            uint32_t v = (uint32_t)i << 1 | (uint32_t)k;
            const Pose &pa = cases[i].pa[k], &pb = cases[i].pb[k];
            int r[F_COUNT];
            memset(r, 0, sizeof r);
            c2d_place(&cs, v);
            r[F_C2D_OVERLAP] = c2d_overlap_fixed(&cs, v);
            c2d_contact c;
            c.count = 0;
            if (c2d_collide(cs.a[i], cs.b[i], &c) != C2D_OK)
                cs.errors++;
            r[F_C2D_COLLIDE] = c.count > 0;
            if (spec.box2d) {
                r[F_B2_COLLIDE] = b2_collide_placed(&bs, v);
                r[F_B2_TESTOVERLAP] = b2_test_overlap_placed(&bs, v);
                r[F_B2_WORLDMANIFOLD] = b2_world_manifold_placed(&bs, v);
            }
            cp_place_one(ps.ba[i], ps.a[i], ps.pose[v].pa, ps.pose[v].aa);
            cp_place_one(ps.bb[i], ps.b[i], ps.pose[v].pb, ps.pose[v].ab);
            cpContactPointSet cps = cpShapesCollide(ps.a[i], ps.b[i]);
            r[F_CP_COLLIDE] = cps.count > 0;
            if (k == 0)
                memcpy(first, r, sizeof r);
            else if (r[F_C2D_OVERLAP] != first[F_C2D_OVERLAP] || r[F_CP_COLLIDE] != first[F_CP_COLLIDE])
                res.inconsistent++; /* the two poses are the same placement: a different answer is a bug */
            if (r[F_C2D_OVERLAP] != r[F_C2D_COLLIDE])
                res.inconsistent++;

            double gap = NAN;
            bool cp_bad = false;
            if (r[F_CP_COLLIDE] != r[F_C2D_COLLIDE]) {
                gap = c2d_gap(cs, (uint32_t)i);
                if (fabs(gap) <= kTouching)
                    res.near_touching++;
                else
                    cp_bad = true;
            } else if (c.count > 0 && cps.count > 0) {
                /* Chipmunk's depth is its deepest point's penetration along its normal. */
                double depth = 0.0;
                for (int q = 0; q < cps.count; q++)
                    depth = fmax(depth, -cps.points[q].distance);
                double dd = fabs(depth - c.depth), dn = 1.0 - (c.normal.x * cps.normal.x + c.normal.y * cps.normal.y);
                res.worst_depth = fmax(res.worst_depth, dd);
                res.worst_normal = fmax(res.worst_normal, dn);
                if (dd > kAgree || dn > kAgree) {
                    long double nx, ny;
                    bool clear;
                    long double ref = reference_contact(cases[i].a, pa, cases[i].b, pb, &nx, &ny, &clear);
                    double c2d_off = fabs((double)(ref - c.depth));
                    double c2d_turn = clear ? (double)(1.0L - (c.normal.x * nx + c.normal.y * ny)) : 0.0;
                    if (c2d_off <= kAgree && c2d_turn <= kAgree) {
                        res.cp_off++;
                        res.worst_cp_off = fmax(res.worst_cp_off, fabs((double)(ref - depth)));
                    } else {
                        cp_bad = true;
                        res.c2d_off++;
                    }
                }
            }
            if (cp_bad) {
                res.cp_differ++;
                if (dumped++ < opt.dump) {
                    printf("  %s pair %d pose %d: collide2d says %d (depth %.17g), Chipmunk %d\n", spec.name, i, k,
                           r[F_C2D_COLLIDE], c.depth, r[F_CP_COLLIDE]);
                    print_desc("A", cases[i].a, pa);
                    print_desc("B", cases[i].b, pb);
                }
            }

            if (spec.box2d) {
                /* Box2D's polygons carry a 0.01 skin: b2CollidePolygons reports a contact while the
                 * face separation is below 0.02, b2CollidePolygonAndCircle and b2TestOverlap while
                 * the distance is below 0.01 per polygon. Anything else is a real disagreement. */
                int polys = (spec.a != K_CIRCLE) + (spec.b != K_CIRCLE);
                double skin = 0.01 * polys;
                const Fn b2fns[] = {F_B2_COLLIDE, F_B2_TESTOVERLAP};
                for (Fn f : b2fns) {
                    if (r[f] == r[F_C2D_COLLIDE])
                        continue;
                    if (std::isnan(gap))
                        gap = c2d_gap(cs, (uint32_t)i);
                    double measure = gap;
                    if (f == F_B2_COLLIDE && spec.box2d && polys == 2)
                        measure = sat_separation(cases[i].a, pa, cases[i].b, pb);
                    bool explained = r[f] ? measure <= skin + kFloatSlack : gap >= -kFloatSlack;
                    if (!explained)
                        res.beyond_skin++;
                }
            }

            if (spec.floor) {
                c2d_contact fc;
                floor_box_box(fs.a[v], fs.b[v], &fc);
                double worst = 0.0;
                bool same = fc.count == c.count;
                if (same && c.count > 0) {
                    worst = fmax(fabs(fc.depth - c.depth),
                                 fmax(fabs(fc.normal.x - c.normal.x), fabs(fc.normal.y - c.normal.y)));
                    for (int q = 0; q < c.count; q++) {
                        /* Points as a set: the two may list them in either order. */
                        double best = INFINITY;
                        for (int w = 0; w < fc.count; w++)
                            best = fmin(best, fmax(fabs(fc.points[w].x - c.points[q].x) +
                                                       fabs(fc.point_depths[w] - c.point_depths[q]),
                                                   fabs(fc.points[w].y - c.points[q].y)));
                        worst = fmax(worst, best);
                    }
                }
                res.worst_floor = fmax(res.worst_floor, worst);
                if (!same || worst > 1e-9)
                    res.floor_differ++;
            }
            if (k == 0)
                for (int f = 0; f < F_COUNT; f++) {
                    res.hits[f] += r[f];
                    if (kFnLib[f] == L_B2 && spec.box2d && r[f] != r[F_C2D_COLLIDE])
                        res.b2_differ[f]++;
                }
        }
    }

    /* What each library times: placed (the targets) and fixed (reference). */
    std::vector<Timed> list;
    /* Table D gives every timed function its own copy of the pairs: sharing one, a function would find
     * in the cache what another function of the same library had just brought there. */
    C2dSet cs_contact;
    B2Set bs_overlap, bs_world;
    C2dSet *cc = &cs;
    B2Set *bo = &bs, *bw = &bs;
    if (opt.own_copies) {
        if (!build_c2d(spec, cases, cs_contact))
            return false;
        cc = &cs_contact;
        if (spec.box2d) {
            build_b2(spec, cases, bs_overlap);
            build_b2(spec, cases, bs_world);
            bo = &bs_overlap;
            bw = &bs_world;
        }
        cs_contact.order = bs_overlap.order = bs_world.order = &order;
    }
    auto add = [&](Fn fn, Form form, bench_pass_fn pass, void *ctx, const std::vector<uint32_t> **slot) {
        if ((opt.lib < 0 || opt.lib == kFnLib[fn]) && !(form == FIXED && opt.placed_only))
            list.push_back(Timed{fn, form, pass, ctx, slot});
    };
    add(F_C2D_OVERLAP, PLACED, c2d_overlap_placed_pass, &cs, &cs.order);
    add(F_C2D_COLLIDE, PLACED, c2d_collide_placed_pass, cc, &cc->order);
    if (spec.box2d) {
        add(F_B2_COLLIDE, PLACED, b2_collide_placed_pass, &bs, &bs.order);
        add(F_B2_TESTOVERLAP, PLACED, b2_testoverlap_placed_pass, bo, &bo->order);
        add(F_B2_WORLDMANIFOLD, PLACED, b2_worldmanifold_placed_pass, bw, &bw->order);
    }
    add(F_CP_COLLIDE, PLACED, cp_collide_placed_pass, &ps, &ps.order);
    if (spec.floor)
        add(F_FLOOR, PLACED, floor_placed_pass, &fs, &fs.order);
    add(F_C2D_OVERLAP, FIXED, c2d_overlap_fixed_pass, &cs, &cs.order);
    add(F_C2D_COLLIDE, FIXED, c2d_collide_fixed_pass, cc, &cc->order);
    if (spec.box2d) {
        add(F_B2_COLLIDE, FIXED, b2_collide_fixed_pass, &bs, &bs.order);
        add(F_B2_TESTOVERLAP, FIXED, b2_testoverlap_fixed_pass, bo, &bo->order);
        add(F_B2_WORLDMANIFOLD, FIXED, b2_worldmanifold_fixed_pass, bw, &bw->order);
    }
    add(F_CP_COLLIDE, FIXED, cp_collide_fixed_pass, &ps, &ps.order);
    long calls = (long)order.size();
    if (opt.profile) {
        /* One pass per function and nothing else: under callgrind, a pass's inclusive count divided
         * by the calls per pass is the cost of one call. */
        for (const Timed &t : list)
            *sink += t.pass(t.ctx);
        printf("profile: %s, one pass of %ld calls per function\n", spec.name, calls);
    } else if (!opt.check) {
        std::vector<std::vector<uint32_t>> chunks;
        if (opt.chunk > 0)
            chunks = chunks_of(order, (size_t)opt.chunk);
        time_all(opt, spec.name, list, calls, res, sink, opt.chunk > 0 ? &chunks : NULL);
    }
    cs.errors += cs_contact.errors;
    if (cs.errors > 0)
        printf("  %s: collide2d returned an error status %ld times on valid input\n", spec.name, cs.errors);
    res.inconsistent += cs.errors;
    return true;
}

/* Rays against one shape kind: the same, with c2d_raycast, b2PolygonShape::RayCast and
 * cpShapeSegmentQuery. Box2D's ray cast ignores the polygon's skin (it casts against the core
 * polygon), so all three answer the same question; only float rounding separates Box2D's answers. */
bool measure_rays(const Options &opt, const KindSpec &spec, int count, int visits, Rng &rng, Result &res, long *sink)
{
    std::vector<RayCase> cases(count);
    for (int i = 0; i < count; i++)
        cases[i] = make_ray(spec.a, rng);
    std::vector<uint32_t> order = make_order(count, visits, rng);

    C2dSet cs;
    B2Set bs;
    CpSet ps;
    cs.order = bs.order = ps.order = &order;
    for (int i = 0; i < count; i++) {
        c2d_shape *s = NULL;
        c2d_status st = c2d_make(cases[i].s, &s);
        if (st != C2D_OK) {
            printf("  %s: collide2d rejected a valid shape (%s); kind skipped\n", spec.name, c2d_status_string(st));
            return false;
        }
        cs.a.push_back(s);
        bs.a.push_back(b2_make(cases[i].s));
        const Pose &p0 = cases[i].p[0];
        bs.xa.push_back(b2_xf(b2Vec2((float)p0.x, (float)p0.y), (float)p0.angle));
        ps.a.push_back(cp_make(cases[i].s, ps.ba));
        for (int k = 0; k < 2; k++) {
            const Pose &p = cases[i].p[k];
            c2d_vec2 o = cases[i].o[k], d = cases[i].d[k];
            C2dPose cp = {{p.x, p.y}, p.angle, {0, 0}, 0};
            cs.pose.push_back(cp);
            cs.ro.push_back(o);
            cs.rd.push_back(d);
            B2Pose bp = {b2Vec2((float)p.x, (float)p.y), (float)p.angle, b2Vec2(0, 0), 0};
            bs.pose.push_back(bp);
            b2RayCastInput in;
            in.p1.Set((float)o.x, (float)o.y);
            in.p2.Set((float)(o.x + d.x), (float)(o.y + d.y));
            in.maxFraction = 1.0f;
            bs.ray.push_back(in);
            CpPose pp = {cpv(p.x, p.y), p.angle, cpvzero, 0};
            ps.pose.push_back(pp);
            ps.r0.push_back(cpv(o.x, o.y));
            ps.r1.push_back(cpv(o.x + d.x, o.y + d.y));
        }
    }

    for (int i = 0; i < count; i++) {
        int first_hit = 0;
        for (int k = 0; k < 2; k++) {
            uint32_t v = (uint32_t)i << 1 | (uint32_t)k;
            c2d_vec2 o = cases[i].o[k], d = cases[i].d[k];
            if (c2d_shape_set_transform(cs.a[i], cs.pose[v].pa, cs.pose[v].aa) != C2D_OK)
                cs.errors++;
            c2d_ray_hit h;
            h.hit = 0;
            if (c2d_raycast(cs.a[i], o, d, 1.0, &h) != C2D_OK)
                cs.errors++;
            b2RayCastOutput bo;
            bool bh = bs.a[i]->RayCast(&bo, bs.ray[v], b2_xf(bs.pose[v].pa, bs.pose[v].aa), 0);
            cp_place_one(ps.ba[i], ps.a[i], ps.pose[v].pa, ps.pose[v].aa);
            cpSegmentQueryInfo info;
            bool ch = cpShapeSegmentQuery(ps.a[i], ps.r0[v], ps.r1[v], 0.0, &info);
            /* How close the segment comes to the surface: a segment that grazes a corner or ends
             * at the surface is where rounding decides. */
            double len = hypot(d.x, d.y), near = INFINITY;
            c2d_shape *seg = NULL;
            c2d_vec2 e = {o.x + d.x, o.y + d.y};
            c2d_distance_result dr;
            if (c2d_segment_new(o, e, &seg) == C2D_OK && c2d_distance(seg, cs.a[i], &dr) == C2D_OK)
                near = fabs(dr.distance);
            c2d_shape_destroy(seg);
            bool cp_same = ch == (h.hit != 0) && (!ch || fabs(info.alpha - h.t) * len <= kTouching);
            /* Box2D's hit must lie on the surface to float precision: along a shallow crossing a small
             * error across the surface is a large one in t. */
            bool b2_same = bh == (h.hit != 0);
            if (b2_same && bh) {
                c2d_vec2 q = {o.x + (double)bo.fraction * d.x, o.y + (double)bo.fraction * d.y};
                double off = INFINITY;
                c2d_closest_point(cs.a[i], q, NULL, &off);
                b2_same = fabs(off) <= kFloatSlack;
            }
            if (!cp_same) {
                if (near <= kTouching)
                    res.near_touching++;
                else
                    res.cp_differ++;
            }
            if (!b2_same) {
                if (near <= kFloatSlack)
                    res.ray_near++;
                else
                    res.beyond_skin++;
            }
            if (k == 0) {
                first_hit = h.hit;
                res.hits[F_C2D_RAY] += h.hit != 0;
                res.hits[F_B2_RAY] += bh;
                res.hits[F_CP_RAY] += ch;
                res.b2_differ[F_B2_RAY] += bh != (h.hit != 0);
            } else if (h.hit != first_hit && near > kTouching) {
                res.inconsistent++; /* the same segment and shape, moved together: the same answer */
            }
            if (((!cp_same && near > kTouching) || (!b2_same && near > kFloatSlack)) && opt.dump > 0) {
                printf("  Box2D %d fraction %.9g; segment passes %.3g from the surface\n", bh,
                       bh ? bo.fraction : 0.0f, near);
                printf("  %s ray %d pose %d: collide2d %d t %.17g, Chipmunk %d t %.17g, Box2D %d\n", spec.name, i, k,
                       h.hit, h.t, ch, info.alpha, bh);
                print_desc("shape", cases[i].s, cases[i].p[k]);
                printf("    segment (%.17g, %.17g) + t (%.17g, %.17g)\n", o.x, o.y, d.x, d.y);
            }
        }
    }

    std::vector<Timed> list;
    /* One timed function per library in each form: no copies needed for table D. */
    auto add = [&](Fn fn, Form form, bench_pass_fn pass, void *ctx, const std::vector<uint32_t> **slot) {
        if ((opt.lib < 0 || opt.lib == kFnLib[fn]) && !(form == FIXED && opt.placed_only))
            list.push_back(Timed{fn, form, pass, ctx, slot});
    };
    add(F_C2D_RAY, PLACED, c2d_ray_placed_pass, &cs, &cs.order);
    add(F_B2_RAY, PLACED, b2_ray_placed_pass, &bs, &bs.order);
    add(F_CP_RAY, PLACED, cp_ray_placed_pass, &ps, &ps.order);
    add(F_C2D_RAY, FIXED, c2d_ray_fixed_pass, &cs, &cs.order);
    add(F_B2_RAY, FIXED, b2_ray_fixed_pass, &bs, &bs.order);
    add(F_CP_RAY, FIXED, cp_ray_fixed_pass, &ps, &ps.order);
    long calls = (long)order.size();
    if (opt.profile) {
        for (const Timed &t : list)
            *sink += t.pass(t.ctx);
        printf("profile: %s, one pass of %ld calls per function\n", spec.name, calls);
    } else if (!opt.check) {
        std::vector<std::vector<uint32_t>> chunks;
        if (opt.chunk > 0)
            chunks = chunks_of(order, (size_t)opt.chunk);
        time_all(opt, spec.name, list, calls, res, sink, opt.chunk > 0 ? &chunks : NULL);
    }
    if (cs.errors > 0)
        printf("  %s: collide2d returned an error status %ld times on valid input\n", spec.name, cs.errors);
    res.inconsistent += cs.errors;
    return true;
}

/* ---- tables ----------------------------------------------------------------------------------- */

void fmt_ns(char *buf, size_t size, const Result &r, Fn f, Form form)
{
    if (r.timed[f][form])
        snprintf(buf, size, "%.1f", r.ns[f][form]);
    else
        snprintf(buf, size, "-");
}

void fmt_ratio(char *buf, size_t size, const Result &r, Fn num, Fn den, Form form)
{
    if (r.timed[num][form] && r.timed[den][form] && r.ns[den][form] > 0.0)
        snprintf(buf, size, "%.2fx", r.ns[num][form] / r.ns[den][form]);
    else
        snprintf(buf, size, "-");
}

double worst_spread(const std::vector<Result> &rows, bool rays, std::vector<const char *> *noisy)
{
    double worst = 0.0;
    for (const Result &r : rows) {
        if (r.spec->ray != rays)
            continue;
        bool bad = false;
        for (int f = 0; f < F_COUNT; f++)
            for (int m = 0; m < FORM_COUNT; m++)
                if (r.timed[f][m]) {
                    worst = fmax(worst, r.spread[f][m]);
                    bad |= r.spread[f][m] > kSteady;
                }
        if (bad && noisy)
            noisy->push_back(r.spec->name);
    }
    return worst;
}

void print_noise(const std::vector<Result> &rows, bool rays)
{
    std::vector<const char *> noisy;
    double w = worst_spread(rows, rays, &noisy);
    printf("timing noise: worst interquartile range %.1f%% of the median.", 100.0 * w);
    if (!noisy.empty()) {
        printf(" Still disturbed after retries:");
        for (const char *n : noisy)
            printf(" %s", n);
    }
    printf("\n");
}

void print_pair_table(const char *title, const std::vector<Result> &rows, bool show_apart)
{
    printf("\n%s\n", title);
    printf("%-18s %-7s %-6s %7s %8s %6s %8s %6s %8s %6s  %-15s %-8s%s\n", "pair", "query", "form", "c2d ns",
           "b2Coll", "B/c2d", "b2 alt", "B/c2d", "Chipm", "C/c2d", "hits c2d/b2/cp", "differ",
           show_apart ? " apart" : "");
    printf("%-18s %-7s %-6s %7s %8s %6s %8s %6s %8s %6s  %-15s %-8s\n", "", "", "", "", "ns", "", "ns", "", "ns", "",
           "", "b2/alt");
    double worst_depth = 0.0, worst_normal = 0.0;
    long cp_differ = 0, near = 0, skin = 0, bad = 0, cp_off = 0, c2d_off = 0;
    double worst_cp_off = 0.0;
    for (const Result &r : rows) {
        if (r.spec->ray)
            continue;
        worst_depth = fmax(worst_depth, r.worst_depth);
        worst_normal = fmax(worst_normal, r.worst_normal);
        cp_differ += r.cp_differ;
        cp_off += r.cp_off;
        c2d_off += r.c2d_off;
        worst_cp_off = fmax(worst_cp_off, r.worst_cp_off);
        near += r.near_touching;
        skin += r.beyond_skin;
        bad += r.inconsistent;
        for (int q = 0; q < 2; q++) {
            Fn c2d = q == 0 ? F_C2D_OVERLAP : F_C2D_COLLIDE, alt = q == 0 ? F_B2_TESTOVERLAP : F_B2_WORLDMANIFOLD;
            for (int m = 0; m < FORM_COUNT; m++) {
                if (m == FIXED && !r.timed[c2d][FIXED])
                    continue;
                char c[32], b[32], br[32], a[32], ar[32], p[32], pr[32], hits[64] = "", diff[32] = "", apart[16] = "";
                fmt_ns(c, sizeof c, r, c2d, (Form)m);
                fmt_ns(b, sizeof b, r, F_B2_COLLIDE, (Form)m);
                fmt_ratio(br, sizeof br, r, F_B2_COLLIDE, c2d, (Form)m);
                fmt_ns(a, sizeof a, r, alt, (Form)m);
                fmt_ratio(ar, sizeof ar, r, alt, c2d, (Form)m);
                fmt_ns(p, sizeof p, r, F_CP_COLLIDE, (Form)m);
                fmt_ratio(pr, sizeof pr, r, F_CP_COLLIDE, c2d, (Form)m);
                if (m == PLACED) {
                    if (r.spec->box2d) {
                        snprintf(hits, sizeof hits, "%ld/%ld/%ld", r.hits[c2d], r.hits[F_B2_COLLIDE],
                                 r.hits[F_CP_COLLIDE]);
                        snprintf(diff, sizeof diff, "%ld/%ld", r.b2_differ[F_B2_COLLIDE], r.b2_differ[alt]);
                    } else {
                        snprintf(hits, sizeof hits, "%ld/-/%ld", r.hits[c2d], r.hits[F_CP_COLLIDE]);
                        snprintf(diff, sizeof diff, "-");
                    }
                    if (show_apart)
                        snprintf(apart, sizeof apart, " %d%%", (int)(100.0 * r.boxes_apart / r.pairs + 0.5));
                }
                printf("%-18s %-7s %-6s %7s %8s %6s %8s %6s %7s%s %6s  %-15s %-8s%s\n",
                       q == 0 && m == 0 ? r.spec->name : "", m == 0 ? (q == 0 ? "overlap" : "contact") : "",
                       kFormNames[m], c, b, br, a, ar, p, q == 0 ? "*" : " ", pr, hits, diff, apart);
            }
        }
    }
    printf("placed: both shapes placed at the visit's pose, then the query (the targets' column); fixed: the query\n"
           "alone. b2Coll = the bare b2Collide* call (body-frame manifold; pointCount > 0 answers overlap);\n"
           "b2 alt = b2TestOverlap on overlap rows, b2Collide* + b2WorldManifold::Initialize on contact rows.\n"
           "* Chipmunk has no overlap-only test: both rows show cpShapesCollide.\n");
    printf("checks (every pair at both poses): collide2d and Chipmunk differ on yes/no on %ld pairs beyond %.0e\n"
           "  of touching (%ld within); where both report contact, depths within %.1e, normals within 1-cos %.1e;\n"
           "  beyond %.0e the long-double referee decides: collide2d off it on %ld (errors),\n"
           "  Chipmunk off it on %ld (worst %.1e). Box2D differs beyond its skin on %ld. collide2d errors or\n"
           "  inconsistencies (status, overlap vs collide, pose 0 vs 1): %ld.\n",
           cp_differ - c2d_off, kTouching, near, worst_depth, worst_normal, kAgree, c2d_off, cp_off, worst_cp_off, skin,
           bad);
    print_noise(rows, false);
}

void print_ray_table(const char *title, const std::vector<Result> &rows)
{
    printf("\n%s\n", title);
    printf("%-14s %-6s %7s %8s %6s %8s %6s  %-15s %-7s %s\n", "ray against", "form", "c2d ns", "Box2D", "B/c2d",
           "Chipm", "C/c2d", "hits c2d/b2/cp", "differ", "near");
    printf("%-14s %-6s %7s %8s %6s %8s %6s  %-15s %-7s %s\n", "", "", "", "ns", "", "ns", "", "", "b2/cp", "surface");
    long bad = 0;
    for (const Result &r : rows) {
        if (!r.spec->ray)
            continue;
        bad += r.inconsistent + r.cp_differ + r.beyond_skin;
        for (int m = 0; m < FORM_COUNT; m++) {
            if (m == FIXED && !r.timed[F_C2D_RAY][FIXED])
                continue;
            char c[32], b[32], br[32], p[32], pr[32], hits[64] = "", diff[32] = "", near[32] = "";
            fmt_ns(c, sizeof c, r, F_C2D_RAY, (Form)m);
            fmt_ns(b, sizeof b, r, F_B2_RAY, (Form)m);
            fmt_ratio(br, sizeof br, r, F_B2_RAY, F_C2D_RAY, (Form)m);
            fmt_ns(p, sizeof p, r, F_CP_RAY, (Form)m);
            fmt_ratio(pr, sizeof pr, r, F_CP_RAY, F_C2D_RAY, (Form)m);
            if (m == PLACED) {
                snprintf(hits, sizeof hits, "%ld/%ld/%ld", r.hits[F_C2D_RAY], r.hits[F_B2_RAY], r.hits[F_CP_RAY]);
                snprintf(diff, sizeof diff, "%ld/%ld", r.ray_near + r.beyond_skin, r.cp_differ + r.near_touching);
                snprintf(near, sizeof near, "%ld", r.ray_near);
            }
            const char *name = r.spec->name + 4; /* "ray-polygon" -> "polygon" */
            printf("%-14s %-6s %7s %8s %6s %8s %6s  %-15s %-7s %s\n", m == 0 ? name : "", kFormNames[m], c, b, br, p,
                   pr, hits, diff, near);
        }
    }
    printf("placed: the shape placed at the visit's pose, then the ray (Box2D: b2Transform from the pose and\n"
           "b2PolygonShape::RayCast; Chipmunk: body set, cpShapeCacheBB, cpShapeSegmentQuery); fixed: the ray alone.\n"
           "Segments start outside the shape and pass through its bounding box. Box2D's RayCast ignores the 0.01\n"
           "skin (it casts against the core polygon), so all three answer the same question: 'differ' counts yes/no\n"
           "or hit points apart: Box2D's (float) more than %.0e off collide2d's surface, Chipmunk's t (times\n"
           "length) more than 1e-9 from collide2d's. 'near surface': Box2D's yes/no differs on a segment passing\n"
           "within %.0e of the surface, where float rounding decides. Differences away from it: %ld (errors).\n",
           kFloatSlack, kFloatSlack, bad);
    print_noise(rows, true);
}

void print_floor_table(const std::vector<Result> &rows)
{
    printf("\nF. box-box contact against the floor (a hand-written double SAT + clip from poses, narrow_floor.h)\n");
    printf("%-18s %10s %9s %11s  %s\n", "pair", "c2d ns", "floor ns", "c2d/floor", "floor agrees with c2d_collide");
    for (const Result &r : rows) {
        if (!r.spec->floor)
            continue;
        char c[32], f[32], ratio[32];
        fmt_ns(c, sizeof c, r, F_C2D_COLLIDE, PLACED);
        fmt_ns(f, sizeof f, r, F_FLOOR, PLACED);
        fmt_ratio(ratio, sizeof ratio, r, F_C2D_COLLIDE, F_FLOOR, PLACED);
        printf("%-18s %10s %9s %11s  %s (worst difference %.1e; %ld of %d placements differ)\n", r.spec->name, c, f,
               ratio, r.floor_differ ? "NO" : "yes", r.worst_floor, r.floor_differ, 2 * r.pairs);
    }
    printf("Both with placement: c2d = set_transform of both boxes + c2d_collide; the floor takes the poses and\n"
           "computes the same normal, depth and points (compared on every pair at both poses, to 1e-9).\n");
}

/* ---- targets ---------------------------------------------------------------------------------- */

const Result *find(const std::vector<Result> &rows, const char *name)
{
    for (const Result &r : rows)
        if (!strcmp(r.spec->name, name))
            return &r;
    return NULL;
}

struct Tally {
    int met = 0, missed = 0, unmeasured = 0;
};

/* One target line: `num / den` must reach `want`. */
void target(Tally &t, const char *label, const Result *rn, Fn num, const Result *rd, Fn den, double want,
            const char *how)
{
    if (!rn || !rd || !rn->timed[num][PLACED] || !rd->timed[den][PLACED] || rd->ns[den][PLACED] <= 0) {
        printf("  %-58s not measured in this run\n", label);
        t.unmeasured++;
        return;
    }
    double ratio = rn->ns[num][PLACED] / rd->ns[den][PLACED];
    bool met = ratio >= want;
    (met ? t.met : t.missed)++;
    printf("  %-58s %6.2fx %-8s (%s %.2fx)\n", label, ratio, met ? "MET" : "NOT MET", how, want);
}

int check_targets(const std::vector<Result> &hot, const std::vector<Result> &cold, bool have_hot, bool have_cold)
{
    Tally t;
    char label[128];
    if (have_hot) {
        printf("\nTargets (a), table A: bounding boxes overlap, both shapes placed before each query.\n");
        printf("  ratio = other's ns / collide2d's ns unless said otherwise\n");
        const char *vs_b2[] = {"box-box aligned", "box-box rotated", "polygon-polygon", "circle-polygon"};
        for (const char *k : vs_b2)
            for (int q = 0; q < 2; q++) {
                snprintf(label, sizeof label, "%s %s vs bare b2Collide*", k, q ? "contact" : "overlap");
                target(t, label, find(hot, k), F_B2_COLLIDE, find(hot, k), q ? F_C2D_COLLIDE : F_C2D_OVERLAP, 1.5,
                       "want >=");
            }
        const Result *rp = find(hot, "ray-polygon");
        target(t, "ray-polygon vs b2PolygonShape::RayCast", rp, F_B2_RAY, rp, F_C2D_RAY, 1.5, "want >=");
        for (int q = 0; q < 2; q++) {
            Fn f = q ? F_C2D_COLLIDE : F_C2D_OVERLAP;
            snprintf(label, sizeof label, "capsule-polygon %s no slower than box-box rotated",
                     q ? "contact" : "overlap");
            target(t, label, find(hot, "box-box rotated"), f, find(hot, "capsule-polygon"), f, 1.0,
                   "box-box ns / capsule-polygon ns, want >=");
        }
        target(t, "box-box rotated contact within 1.5x of the floor", find(hot, "box-box rotated"), F_FLOOR,
               find(hot, "box-box rotated"), F_C2D_COLLIDE, 1.0 / 1.5, "floor ns / c2d ns, want >=");
        target(t, "box-box aligned contact within 1.5x of the floor", find(hot, "box-box aligned"), F_FLOOR,
               find(hot, "box-box aligned"), F_C2D_COLLIDE, 1.0 / 1.5, "floor ns / c2d ns, want >=");
    }
    if (have_cold) {
        printf("\nTargets (b), table D: cold cache, placed; no row slower than Box2D's bare call.\n");
        for (const Result &r : cold) {
            if (r.spec->ray) {
                snprintf(label, sizeof label, "%s vs b2PolygonShape::RayCast", r.spec->name);
                target(t, label, &r, F_B2_RAY, &r, F_C2D_RAY, 1.0, "want >=");
                continue;
            }
            for (int q = 0; q < 2; q++) {
                snprintf(label, sizeof label, "%s %s vs bare b2Collide*", r.spec->name, q ? "contact" : "overlap");
                target(t, label, &r, F_B2_COLLIDE, &r, q ? F_C2D_COLLIDE : F_C2D_OVERLAP, 1.0, "want >=");
            }
        }
    }
    if (have_hot || have_cold)
        printf("targets: %d met, %d NOT MET%s\n", t.met, t.missed,
               t.unmeasured ? " (some not measured in this run)" : "");
    return t.missed;
}

/* Other runnable tasks right now, from /proc/loadavg ("1.0 0.5 0.2 running/total lastpid"), or -1
 * when unknown. This process is one of the running ones. */
int other_runnable(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return -1;
    double l1, l5, l15;
    int running = 0, total = 0;
    int n = fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total);
    fclose(f);
    return n == 5 ? running - 1 : -1;
}

/* Measures every kind selected for one table. Returns false when collide2d could not be used. */
bool run_table(const Options &opt, bool cold, bool after_broadphase, bool rays, Rng &rng, std::vector<Result> &rows,
               long *sink)
{
    bool ok = true;
    for (int k = 0; k < kKindCount; k++) {
        const KindSpec &spec = kKinds[k];
        if ((opt.only && strcmp(opt.only, spec.name)) || spec.ray != rays || (cold && !spec.box2d))
            continue;
        Result r;
        memset(&r, 0, sizeof r);
        r.spec = &spec;
        r.pairs = cold ? opt.cold_pairs : opt.pairs;
        int visits = cold ? opt.cold_visits : opt.visits;
        Options o = opt;
        if (cold) {
            o.reps = opt.cold_reps;
            o.attempts = 2;
            o.placed_only = true;
            o.chunk = 2048;
            o.own_copies = true;
        }
        bool done = spec.ray ? measure_rays(o, spec, r.pairs, visits, rng, r, sink)
                             : measure_pairs(o, spec, r.pairs, visits, after_broadphase, rng, r, sink);
        if (!done) {
            ok = false;
            continue;
        }
        rows.push_back(r);
    }
    return ok;
}

long errors_in(const std::vector<Result> &rows)
{
    long e = 0;
    for (const Result &r : rows)
        e += r.inconsistent + r.cp_differ + r.beyond_skin + r.floor_differ;
    return e;
}

} // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    Rng rng = {opt.seed};
    long sink = 0;

    printf("narrow phase: collide2d %s vs Box2D 2.4.1 vs Chipmunk %s; ns per call, median of %d reps; seed %llu%s\n",
           c2d_version_string(), cpVersionString, opt.reps, (unsigned long long)opt.seed,
           opt.quick ? " -- QUICK smoke run, numbers not meaningful" : "");
    printf("Pairs: B placed at 0.4..1 (overlapping) or 1..1.6 (apart) of the touching distance, bounding boxes\n"
           "overlapping; two poses per pair (the same placement moved and turned), alternating between visits.\n");
    int others = other_runnable();
    if (others > 0)
        printf("NOTE: %d other task(s) running on this machine as the benchmark starts: expect noise.\n", others);

    bool run_a = strchr(opt.sections, 'A'), run_r = strchr(opt.sections, 'R'), run_f = strchr(opt.sections, 'F'),
         run_d = strchr(opt.sections, 'D'), run_m = strchr(opt.sections, 'M');
    bool usable = true;
    std::vector<Result> hot, rays, cold, mix;
    /* Table F reads the floor's timing from table A's box-box rows. */
    if (run_a || run_f)
        usable &= run_table(opt, false, true, false, rng, hot, &sink);
    if (run_r || run_a)
        usable &= run_table(opt, false, true, true, rng, rays, &sink);
    if (run_d) {
        usable &= run_table(opt, true, true, false, rng, cold, &sink);
        usable &= run_table(opt, true, true, true, rng, cold, &sink);
    }
    if (run_m)
        usable &= run_table(opt, false, false, false, rng, mix, &sink);
    if (opt.profile) {
        printf("(checksum %ld)\n", sink);
        return usable ? 0 : 1;
    }

    char title[240];
    if (run_a) {
        snprintf(title, sizeof title,
                 "A. %d pairs per kind whose bounding boxes overlap (what a broadphase hands over), %d visits each "
                 "per pass:", opt.pairs, opt.visits);
        print_pair_table(title, hot, false);
    }
    if (run_r || run_a) {
        snprintf(title, sizeof title, "R. rays: %d segments per shape kind (3- to 8-gons; rotated boxes)", opt.pairs);
        print_ray_table(title, rays);
    }
    if (run_f)
        print_floor_table(hot);
    if (run_d) {
        snprintf(title, sizeof title, "D. cold cache: %d pairs per kind, %d visits each per pass (shapes no longer fit "
                 "in L2), median of %d reps:", opt.cold_pairs, opt.cold_visits, opt.cold_reps);
        print_pair_table(title, cold, false);
        snprintf(title, sizeof title, "D (rays). cold cache: %d segments per shape kind", opt.cold_pairs);
        print_ray_table(title, cold);
    }
    if (run_m) {
        snprintf(title, sizeof title, "M. reference: %d pairs per kind, bounding boxes apart or not (the old table A; "
                 "'apart': pairs a broadphase would drop)", opt.pairs);
        print_pair_table(title, mix, true);
    }

    std::vector<Result> hot_all = hot;
    hot_all.insert(hot_all.end(), rays.begin(), rays.end());
    int missed = check_targets(hot_all, cold, run_a, run_d);
    /* Printed so that the accumulated results are observably used. */
    printf("(checksum %ld)\n", sink);

    long errors = errors_in(hot) + errors_in(rays) + errors_in(cold) + errors_in(mix);
    if (errors > 0)
        printf("ERROR: %ld wrong answers or disagreements beyond rounding and skin (see the checks above)\n", errors);
    if (errors > 0 || !usable)
        return 1;
    return opt.strict && missed > 0 ? 1 : 0;
}
