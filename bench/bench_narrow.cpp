/* bench_narrow.cpp - narrow-phase benchmark: collide2d against Box2D 2.4.1 and Chipmunk 7 (issue 2).
 *
 * For every pair kind it generates one set of random shape pairs, gives each library the same
 * geometry placed the way that library's users keep it (collide2d: shapes moved with
 * set_transform; Box2D: shapes in body frame plus a b2Transform; Chipmunk: shapes on bodies,
 * cpShapeUpdate already run), then times overlap and contact queries over the set and prints the
 * median ns per call, the ratios, the hit counts and how often the libraries disagree.
 * Written in C++ only because Box2D 2.4.1 is a C++ library; collide2d is used through its C ABI,
 * linked as a shared library the way a user links it.
 *
 * Usage: bench_narrow [--quick] [--pairs N] [--reps N] [--seed N] [--only PAIR] [--lib c2d|box2d|chipmunk]
 *                     [--sections ABCD] [--small N] [--large N] [--visits N] [--dump N] [--strict] [--verbose]
 *                     [--profile]
 */
#include <box2d/b2_distance.h>
#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "bench.h"
#include "collide2d.h"

namespace {

/* ---- shared geometry -------------------------------------------------------------------------- */

enum Kind { K_CIRCLE, K_BOX, K_POLY, K_CAPSULE };

const int kMaxVerts = 8; /* Box2D 2.4.1's b2_maxPolygonVertices */

/* One shape, independent of any library: a body frame (position, angle) and the geometry in it. */
struct Desc {
    Kind kind;
    double x, y, angle;
    double r;              /* circle or capsule radius */
    double hx, hy;         /* box half extents; for a capsule hx is half the core segment */
    int n;                 /* polygon vertex count */
    double vx[kMaxVerts];  /* polygon vertices in the body frame, counter-clockwise */
    double vy[kMaxVerts];
};

struct PairKind {
    const char *name;
    Kind a, b;     /* in Chipmunk's type order (circle, segment, polygon): it wants them so */
    bool rotated;  /* boxes get random angles (polygons and capsules always do) */
    bool box2d;    /* Box2D 2.4.1 has no capsule, so those pairs are collide2d against Chipmunk only */
};

const PairKind kPairs[] = {
    {"circle-circle", K_CIRCLE, K_CIRCLE, false, true},
    {"circle-polygon", K_CIRCLE, K_POLY, true, true},
    {"polygon-polygon", K_POLY, K_POLY, true, true},
    {"box-box aligned", K_BOX, K_BOX, false, true},
    {"box-box rotated", K_BOX, K_BOX, true, true},
    {"circle-box rotated", K_CIRCLE, K_BOX, true, true},
    {"circle-capsule", K_CIRCLE, K_CAPSULE, true, false},
    {"capsule-capsule", K_CAPSULE, K_CAPSULE, true, false},
    {"capsule-polygon", K_CAPSULE, K_POLY, true, false},
};
const int kPairCount = (int)(sizeof kPairs / sizeof kPairs[0]);

enum Query { Q_OVERLAP, Q_CONTACT };
const char *const kQueryNames[] = {"overlap", "contact"};

/* Interquartile range / median below which a measurement counts as undisturbed. */
const double kSteady = 0.15;

/* collide2d and Chipmunk both work in double: on shapes of size ~1 their depths and normals agree to
 * ~1e-12, so a difference above this is a wrong answer from one of them. */
const double kAgree = 1e-9;

/* The performance targets: Box2D time / collide2d time must reach `ratio`. */
struct Target {
    const char *pair;
    Query query;
    double ratio;
};
const Target kTargets[] = {
    {"polygon-polygon", Q_CONTACT, 2.0},
    {"circle-polygon", Q_CONTACT, 2.0},
    {"box-box rotated", Q_OVERLAP, 3.0},
};

/* splitmix64: deterministic across platforms and compilers, unlike rand(), so a seed names a set. */
struct Rng {
    uint64_t s;
    uint64_t next()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform(double lo, double hi) { return lo + (hi - lo) * (double)(next() >> 11) * 0x1.0p-53; }
};

/* Sizes around 1 (Box2D's metres, where its tolerances are tuned) and positions within +-100, where
 * float is still accurate to ~1e-5: the peers are measured where they work well. */
Desc random_shape(Kind kind, bool rotated, Rng &rng)
{
    Desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.x = rng.uniform(-100.0, 100.0);
    d.y = rng.uniform(-100.0, 100.0);
    d.angle = rotated ? rng.uniform(-M_PI, M_PI) : 0.0;
    switch (kind) {
    case K_CIRCLE:
        d.angle = 0.0;
        d.r = rng.uniform(0.5, 2.0);
        break;
    case K_BOX:
        d.hx = rng.uniform(0.4, 2.0);
        d.hy = rng.uniform(0.4, 2.0);
        break;
    case K_CAPSULE:
        d.hx = rng.uniform(0.3, 2.0);
        d.r = rng.uniform(0.2, 1.0);
        break;
    case K_POLY: {
        /* One vertex per equal sector, jittered within it and then stretched: always strictly
         * convex, and the jitter is small enough that no gap reaches 180 degrees, so the body
         * origin lies inside (the placement below relies on that). */
        d.n = 3 + (int)(rng.next() % 6);
        double jitter = d.n == 3 ? 0.15 : 0.3;
        double radius = rng.uniform(0.6, 2.0);
        double stretch = rng.uniform(0.6, 1.4);
        double phase = rng.uniform(0.0, 2.0 * M_PI);
        for (int i = 0; i < d.n; i++) {
            double t = phase + ((double)i + rng.uniform(-jitter, jitter)) * 2.0 * M_PI / (double)d.n;
            d.vx[i] = radius * stretch * cos(t);
            d.vy[i] = radius / stretch * sin(t);
        }
        break;
    }
    }
    return d;
}

/* Body-frame vertices and radius of a shape as a GJK proxy (the core plus a rounding radius). */
struct Proxy {
    b2Vec2 v[kMaxVerts];
    int n;
    float r;
};

Proxy proxy_of(const Desc &d)
{
    Proxy p;
    p.r = 0.0f;
    switch (d.kind) {
    case K_CIRCLE:
        p.n = 1;
        p.v[0].Set(0.0f, 0.0f);
        p.r = (float)d.r;
        break;
    case K_BOX:
        p.n = 4;
        p.v[0].Set((float)-d.hx, (float)-d.hy);
        p.v[1].Set((float)d.hx, (float)-d.hy);
        p.v[2].Set((float)d.hx, (float)d.hy);
        p.v[3].Set((float)-d.hx, (float)d.hy);
        break;
    case K_CAPSULE:
        p.n = 2;
        p.v[0].Set((float)-d.hx, 0.0f);
        p.v[1].Set((float)d.hx, 0.0f);
        p.r = (float)d.r;
        break;
    case K_POLY:
        p.n = d.n;
        for (int i = 0; i < d.n; i++)
            p.v[i].Set((float)d.vx[i], (float)d.vy[i]);
        break;
    }
    return p;
}

/* The distance between two shapes whose body origins are `dx, dy` apart, by GJK without any skin.
 * Only used to place the pairs; computed relative to A so float loses nothing to the coordinates. */
float gap(const Desc &a, const Desc &b, double dx, double dy)
{
    Proxy pa = proxy_of(a), pb = proxy_of(b);
    b2DistanceInput in;
    in.proxyA.Set(pa.v, pa.n, pa.r);
    in.proxyB.Set(pb.v, pb.n, pb.r);
    in.transformA.Set(b2Vec2(0.0f, 0.0f), (float)a.angle);
    in.transformB.Set(b2Vec2((float)dx, (float)dy), (float)b.angle);
    in.useRadii = true;
    b2SimplexCache cache;
    cache.count = 0;
    b2DistanceOutput out;
    b2Distance(&out, &cache, &in);
    return out.distance;
}

double bounding_radius(const Desc &d)
{
    switch (d.kind) {
    case K_CIRCLE:
        return d.r;
    case K_BOX:
        return hypot(d.hx, d.hy);
    case K_CAPSULE:
        return d.hx + d.r;
    case K_POLY: {
        double m = 0.0;
        for (int i = 0; i < d.n; i++)
            m = fmax(m, hypot(d.vx[i], d.vy[i]));
        return m;
    }
    }
    return 0.0;
}

/* World-frame bounding box of a placed shape: minx, miny, maxx, maxy. */
void world_aabb(const Desc &d, double box[4])
{
    Proxy p = proxy_of(d);
    double co = cos(d.angle), si = sin(d.angle);
    box[0] = box[1] = INFINITY;
    box[2] = box[3] = -INFINITY;
    for (int i = 0; i < p.n; i++) {
        /* From the double description, not the float proxy, so the box is the shape's own. */
        double lx = d.kind == K_POLY ? d.vx[i] : (double)p.v[i].x, ly = d.kind == K_POLY ? d.vy[i] : (double)p.v[i].y;
        double wx = d.x + co * lx - si * ly, wy = d.y + si * lx + co * ly;
        box[0] = fmin(box[0], wx - d.r);
        box[1] = fmin(box[1], wy - d.r);
        box[2] = fmax(box[2], wx + d.r);
        box[3] = fmax(box[3], wy + d.r);
    }
}

bool aabbs_overlap(const Desc &a, const Desc &b)
{
    double ba[4], bb[4];
    world_aabb(a, ba);
    world_aabb(b, bb);
    return ba[0] <= bb[2] && bb[0] <= ba[2] && ba[1] <= bb[3] && bb[1] <= ba[3];
}

/* Touching distance along (ux, uy): how far B's body origin may go from A's in that direction
 * before the shapes part. Both shapes contain their body origin, so the translations that make
 * them overlap form a convex set containing 0 and the boundary along a ray is crossed once:
 * bisection finds it. */
double touching_distance(const Desc &a, const Desc &b, double ux, double uy)
{
    double lo = 0.0, hi = bounding_radius(a) + bounding_radius(b) + 1.0;
    for (int i = 0; i < 48; i++) {
        double mid = 0.5 * (lo + hi);
        if (gap(a, b, mid * ux, mid * uy) > 1e-6f)
            hi = mid;
        else
            lo = mid;
    }
    return 0.5 * (lo + hi);
}

/* Places B along a random direction from A at a random fraction of the touching distance: half of
 * the pairs at 0.4..1 (overlapping), half at 1..1.6 (apart), many of them near the boundary where
 * the interesting branches are. With after_broadphase, an apart pair is redrawn until the two
 * bounding boxes overlap: those are the pairs a broadphase would hand to the narrow phase, and on
 * them no library can answer from the boxes alone. */
void place_pair(Desc &a, Desc &b, Rng &rng, bool after_broadphase)
{
    bool overlapping = (rng.next() & 1) != 0;
    for (int attempt = 0;; attempt++) {
        double t = rng.uniform(0.0, 2.0 * M_PI);
        double ux = cos(t), uy = sin(t);
        double s = touching_distance(a, b, ux, uy) * (overlapping ? rng.uniform(0.4, 1.0) : rng.uniform(1.0, 1.6));
        b.x = a.x + s * ux;
        b.y = a.y + s * uy;
        if (!after_broadphase || overlapping || aabbs_overlap(a, b))
            return;
        /* Axis-aligned boxes are their own bounding boxes: apart, they never pass a broadphase,
         * so such a pair becomes an overlapping one. */
        if (attempt == 64)
            overlapping = true;
    }
}

/* ---- collide2d -------------------------------------------------------------------------------- */

struct C2dSet {
    std::vector<c2d_shape *> a, b;
    const std::vector<uint32_t> *order; /* the pairs one pass visits, in visiting order */
    long errors; /* calls that did not return C2D_OK: a library bug on this valid input */
};

c2d_status c2d_make(const Desc &d, c2d_shape **out)
{
    c2d_status st = C2D_OK;
    c2d_shape *s = NULL;
    switch (d.kind) {
    case K_CIRCLE:
        return c2d_circle_new(d.x, d.y, d.r, out);
    case K_BOX:
        return c2d_rect_new(d.x, d.y, 2.0 * d.hx, 2.0 * d.hy, d.angle, out);
    case K_CAPSULE: {
        c2d_vec2 p = {-d.hx, 0.0}, q = {d.hx, 0.0};
        st = c2d_capsule_new(p, q, d.r, &s);
        if (st == C2D_OK) {
            c2d_vec2 pos = {d.x, d.y};
            st = c2d_shape_set_transform(s, pos, d.angle);
        }
        break;
    }
    case K_POLY: {
        /* Built once in its own frame and then placed, as a game keeps a polygon it moves: the
         * library turns it about its centroid, so the centroid goes where the body frame puts it. */
        c2d_vec2 pts[kMaxVerts];
        for (int i = 0; i < d.n; i++) {
            pts[i].x = d.vx[i];
            pts[i].y = d.vy[i];
        }
        st = c2d_polygon_new(pts, d.n, &s);
        c2d_vec2 c = {0.0, 0.0};
        if (st == C2D_OK)
            st = c2d_shape_get_position(s, &c);
        if (st == C2D_OK) {
            double co = cos(d.angle), si = sin(d.angle);
            c2d_vec2 pos = {d.x + co * c.x - si * c.y, d.y + si * c.x + co * c.y};
            st = c2d_shape_set_transform(s, pos, d.angle);
        }
        break;
    }
    }
    if (st != C2D_OK) {
        c2d_shape_destroy(s);
        return st;
    }
    *out = s;
    return C2D_OK;
}

inline int c2d_overlap_one(C2dSet *set, size_t i)
{
    int hit = 0;
    if (c2d_overlap(set->a[i], set->b[i], &hit) != C2D_OK)
        set->errors++;
    return hit != 0;
}

inline int c2d_contact_one(C2dSet *set, size_t i)
{
    c2d_contact c;
    c.count = 0;
    if (c2d_collide(set->a[i], set->b[i], &c) != C2D_OK)
        set->errors++;
    return c.count > 0;
}

long c2d_overlap_pass(void *ctx)
{
    C2dSet *set = (C2dSet *)ctx;
    long hits = 0;
    for (uint32_t i : *set->order)
        hits += c2d_overlap_one(set, i);
    return hits;
}

long c2d_contact_pass(void *ctx)
{
    C2dSet *set = (C2dSet *)ctx;
    long hits = 0;
    for (uint32_t i : *set->order)
        hits += c2d_contact_one(set, i);
    return hits;
}

/* ---- Box2D 2.4.1 ------------------------------------------------------------------------------ */

/* A Box2D user holds a fixture's shape (in the body frame) and the body's transform. */
struct B2Item {
    b2Shape *shape;
    b2Transform xf;
};

struct B2Set {
    std::vector<B2Item> a, b;
    const std::vector<uint32_t> *order;
};

b2Shape *b2_make(const Desc &d)
{
    if (d.kind == K_CIRCLE) {
        b2CircleShape *c = new b2CircleShape();
        c->m_radius = (float)d.r;
        return c;
    }
    b2PolygonShape *p = new b2PolygonShape();
    if (d.kind == K_BOX) {
        p->SetAsBox((float)d.hx, (float)d.hy);
    } else {
        Proxy px = proxy_of(d);
        p->Set(px.v, px.n);
    }
    return p;
}

inline int b2_overlap_one(const B2Set *set, size_t i)
{
    const B2Item &a = set->a[i], &b = set->b[i];
    return b2TestOverlap(a.shape, 0, b.shape, 0, a.xf, b.xf) ? 1 : 0;
}

/* Box2D has one function per pair of types and the polygon goes first; the pair kinds list the
 * circle first (Chipmunk's order), so circle-polygon swaps here. The manifold comes out in a body
 * frame with no normal for circles; a game that wants what c2d_collide and cpShapesCollide give
 * (world normal, points, depths) then calls b2WorldManifold::Initialize, which `world` adds. */
inline int b2_contact_one(const B2Set *set, size_t i, bool world)
{
    const B2Item *a = &set->a[i], *b = &set->b[i];
    b2Manifold m;
    if (a->shape->m_type == b2Shape::e_circle && b->shape->m_type != b2Shape::e_circle) {
        const B2Item *t = a;
        a = b;
        b = t;
    }
    if (a->shape->m_type == b2Shape::e_circle)
        b2CollideCircles(&m, (const b2CircleShape *)a->shape, a->xf, (const b2CircleShape *)b->shape, b->xf);
    else if (b->shape->m_type == b2Shape::e_circle)
        b2CollidePolygonAndCircle(&m, (const b2PolygonShape *)a->shape, a->xf, (const b2CircleShape *)b->shape,
                                  b->xf);
    else
        b2CollidePolygons(&m, (const b2PolygonShape *)a->shape, a->xf, (const b2PolygonShape *)b->shape, b->xf);
    if (world && m.pointCount > 0) {
        b2WorldManifold wm;
        wm.Initialize(&m, a->xf, a->shape->m_radius, b->xf, b->shape->m_radius);
        /* Reading the result keeps the call from being dropped; no manifold has a NaN normal. */
        return wm.normal.x == wm.normal.x;
    }
    return m.pointCount > 0;
}

long b2_overlap_pass(void *ctx)
{
    const B2Set *set = (const B2Set *)ctx;
    long hits = 0;
    for (uint32_t i : *set->order)
        hits += b2_overlap_one(set, i);
    return hits;
}

long b2_contact_pass(void *ctx)
{
    const B2Set *set = (const B2Set *)ctx;
    long hits = 0;
    for (uint32_t i : *set->order)
        hits += b2_contact_one(set, i, true);
    return hits;
}

long b2_manifold_pass(void *ctx)
{
    const B2Set *set = (const B2Set *)ctx;
    long hits = 0;
    for (uint32_t i : *set->order)
        hits += b2_contact_one(set, i, false);
    return hits;
}

/* ---- Chipmunk 7 ------------------------------------------------------------------------------- */

struct CpSet {
    std::vector<cpBody *> bodies; /* bodiless segments crash cpShapesCollide, and users have bodies */
    std::vector<cpShape *> a, b;
    const std::vector<uint32_t> *order;
};

cpShape *cp_make(const Desc &d, CpSet &set)
{
    cpBody *body = cpBodyNew(1.0, 1.0);
    cpBodySetPosition(body, cpv(d.x, d.y));
    cpBodySetAngle(body, d.angle);
    set.bodies.push_back(body);
    cpShape *s = NULL;
    switch (d.kind) {
    case K_CIRCLE:
        s = cpCircleShapeNew(body, d.r, cpvzero);
        break;
    case K_BOX:
        s = cpBoxShapeNew(body, 2.0 * d.hx, 2.0 * d.hy, 0.0);
        break;
    case K_CAPSULE:
        s = cpSegmentShapeNew(body, cpv(-d.hx, 0.0), cpv(d.hx, 0.0), d.r);
        break;
    case K_POLY: {
        cpVect v[kMaxVerts];
        for (int i = 0; i < d.n; i++)
            v[i] = cpv(d.vx[i], d.vy[i]);
        s = cpPolyShapeNew(body, d.n, v, cpTransformIdentity, 0.0);
        break;
    }
    }
    /* A space does this once per step for every shape; it is not part of a pair test. */
    cpShapeUpdate(s, cpTransformRigid(cpv(d.x, d.y), d.angle));
    return s;
}

/* Chipmunk has no overlap-only test: its users ask cpShapesCollide and look at the count, so both
 * rows time the same call. */
inline int cp_contact_one(const CpSet *set, size_t i)
{
    cpContactPointSet cps = cpShapesCollide(set->a[i], set->b[i]);
    return cps.count > 0;
}

/* Where both collide2d and Chipmunk report a contact, how far apart their answers are: the
 * difference in depth, and 1 - cos of the angle between the normals. Chipmunk's depth is its deepest
 * contact point's penetration along its normal. Untimed: it shows the two did the same job. */
void contact_difference(C2dSet *cs, const CpSet *ps, size_t i, double *ddepth, double *dnormal)
{
    c2d_contact c;
    c.count = 0;
    if (c2d_collide(cs->a[i], cs->b[i], &c) != C2D_OK)
        cs->errors++;
    cpContactPointSet cps = cpShapesCollide(ps->a[i], ps->b[i]);
    *ddepth = *dnormal = 0.0;
    if (c.count == 0 || cps.count == 0)
        return;
    double depth = 0.0;
    for (int k = 0; k < cps.count; k++)
        depth = fmax(depth, -cps.points[k].distance);
    *ddepth = fabs(depth - c.depth);
    *dnormal = 1.0 - (c.normal.x * cps.normal.x + c.normal.y * cps.normal.y);
}

long cp_pass(void *ctx)
{
    const CpSet *set = (const CpSet *)ctx;
    long hits = 0;
    for (uint32_t i : *set->order)
        hits += cp_contact_one(set, i);
    return hits;
}

/* ---- the run ---------------------------------------------------------------------------------- */

/* L_B2M is Box2D's bare manifold (no world manifold), timed on contact rows for comparison. */
enum Lib { L_C2D, L_B2, L_CP, L_B2M, L_COUNT };
const char *const kLibNames[] = {"c2d", "box2d", "chipmunk", "box2d-manifold"};

struct Options {
    int pairs = 1024;
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
    const char *sections = "ABCD"; /* which tables to produce, see main */
    int small_pairs = 64;
    int large_pairs = 16384;
    bool quick = false;
    bool profile = false; /* one untimed pass per library, for callgrind */
    int visits = 8;
};

struct Row {
    const char *pair;
    Query query;
    bool have[L_COUNT];
    double ns[L_COUNT];
    double spread[L_COUNT]; /* interquartile range / median: how noisy the machine was */
    long hits[L_COUNT];
    long differ[L_COUNT]; /* pairs on which the library disagrees with collide2d */
    bool timed[L_COUNT];
    int boxes_apart;      /* pairs whose bounding boxes do not overlap */
    double worst_depth;   /* largest depth difference from Chipmunk where both report contact */
    double worst_normal;  /* largest 1 - cos(angle between the normals) there */
};

void print_desc(const char *label, const Desc &d)
{
    switch (d.kind) {
    case K_CIRCLE:
        printf("    %s: c2d_circle_new(%.17g, %.17g, %.17g)\n", label, d.x, d.y, d.r);
        break;
    case K_BOX:
        printf("    %s: c2d_rect_new(%.17g, %.17g, %.17g, %.17g, %.17g)\n", label, d.x, d.y, 2 * d.hx, 2 * d.hy,
               d.angle);
        break;
    case K_CAPSULE:
        printf("    %s: c2d_capsule_new({%.17g, 0}, {%.17g, 0}, %.17g) then set_transform({%.17g, %.17g}, %.17g)\n",
               label, -d.hx, d.hx, d.r, d.x, d.y, d.angle);
        break;
    case K_POLY:
        printf("    %s: polygon of %d body-frame points {", label, d.n);
        for (int i = 0; i < d.n; i++)
            printf("%s{%.17g, %.17g}", i ? ", " : "", d.vx[i], d.vy[i]);
        printf("}, body at (%.17g, %.17g) angle %.17g\n", d.x, d.y, d.angle);
        break;
    }
}

void usage(void)
{
    fprintf(stderr, "usage: bench_narrow [--quick] [--pairs N] [--reps N] [--seed N] [--only PAIR] [--lib c2d|box2d|chipmunk]\n"
                    "                    [--sections ABCD] [--small N] [--large N] [--visits N] [--dump N] [--strict]\n"
                    "                    [--verbose] [--profile]\n");
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
        if (!strcmp(arg, "--quick")) {
            /* A smoke run: every table, few and short repetitions, smaller sets. */
            o.quick = true;
            o.pairs = 256;
            o.reps = 5;
            o.rep_ns = 2e5;
            o.large_pairs = 4096;
            continue;
        }
        if (!val)
            usage();
        i++;
        if (!strcmp(arg, "--pairs"))
            o.pairs = atoi(val);
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
        }
        else if (!strcmp(arg, "--visits"))
            o.visits = atoi(val);
        else if (!strcmp(arg, "--sections"))
            o.sections = val;
        else if (!strcmp(arg, "--large"))
            o.large_pairs = atoi(val);
        else if (!strcmp(arg, "--small"))
            o.small_pairs = atoi(val);
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
    if (o.pairs < 1 || o.small_pairs < 1 || o.large_pairs < 1 || o.reps < 1 || o.visits < 0)
        usage();
    return o;
}

void fmt_ns(char *buf, size_t size, bool have, double ns)
{
    if (have)
        snprintf(buf, size, "%.1f", ns);
    else
        snprintf(buf, size, "-");
}

void fmt_ratio(char *buf, size_t size, bool have, double num, double den)
{
    if (have && den > 0.0)
        snprintf(buf, size, "%.2fx", num / den);
    else
        snprintf(buf, size, "-");
}

bool has_target(const char *pair)
{
    for (const Target &tg : kTargets)
        if (!strcmp(tg.pair, pair))
            return true;
    return false;
}

/* Builds one pair set per pair kind, checks the libraries' answers against each other, times them,
 * and appends one row per pair kind and query. Returns the number of collide2d error statuses. */
long measure(const Options &opt, bool after_broadphase, bool targets_only, Rng &rng, std::vector<Row> &rows,
             long *sink, bool *c2d_unusable)
{
    long c2d_errors = 0;
    for (int k = 0; k < kPairCount; k++) {
        const PairKind &pk = kPairs[k];
        if ((opt.only && strcmp(opt.only, pk.name)) || (targets_only && !has_target(pk.name)))
            continue;

        std::vector<Desc> da(opt.pairs), db(opt.pairs);
        for (int i = 0; i < opt.pairs; i++) {
            da[i] = random_shape(pk.a, pk.rotated, rng);
            db[i] = random_shape(pk.b, pk.rotated, rng);
            place_pair(da[i], db[i], rng, after_broadphase);
        }

        C2dSet cs;
        cs.errors = 0;
        bool c2d_ok = true;
        for (int i = 0; i < opt.pairs; i++) {
            c2d_shape *sa = NULL, *sb = NULL;
            c2d_status st = c2d_make(da[i], &sa);
            if (st == C2D_OK)
                st = c2d_make(db[i], &sb);
            if (st != C2D_OK) {
                printf("  %s: collide2d rejected a valid shape (%s); collide2d skipped\n", pk.name,
                       c2d_status_string(st));
                print_desc("shape", sa ? db[i] : da[i]);
                c2d_shape_destroy(sa);
                c2d_ok = false;
                *c2d_unusable = true;
                break;
            }
            cs.a.push_back(sa);
            cs.b.push_back(sb);
        }

        B2Set bs;
        if (pk.box2d) {
            for (int i = 0; i < opt.pairs; i++) {
                B2Item ia = {b2_make(da[i]), b2Transform()}, ib = {b2_make(db[i]), b2Transform()};
                ia.xf.Set(b2Vec2((float)da[i].x, (float)da[i].y), (float)da[i].angle);
                ib.xf.Set(b2Vec2((float)db[i].x, (float)db[i].y), (float)db[i].angle);
                bs.a.push_back(ia);
                bs.b.push_back(ib);
            }
        }

        CpSet ps;
        for (int i = 0; i < opt.pairs; i++) {
            ps.a.push_back(cp_make(da[i], ps));
            ps.b.push_back(cp_make(db[i], ps));
        }

        /* A pass visits random pairs, about visits * 1024 calls of them (or each pair once in storage
         * order with --visits 0). Replaying the same short sequence of outcomes lets a modern
         * branch predictor learn it, which flatters branchy code far beyond what a game's
         * ever-changing pairs see; a long random sequence over the same cache-resident shapes
         * cannot be learnt. A large set is visited once per pass: its size alone defeats it. */
        std::vector<uint32_t> order;
        long visits = (long)opt.visits * 1024 / opt.pairs;
        if (opt.visits > 0 && visits < 1)
            visits = 1;
        if (opt.visits == 0) {
            for (int i = 0; i < opt.pairs; i++)
                order.push_back((uint32_t)i);
        } else {
            for (long i = 0; i < visits * opt.pairs; i++)
                order.push_back((uint32_t)(rng.next() % (uint64_t)opt.pairs));
        }
        cs.order = &order;
        bs.order = &order;
        ps.order = &order;
        long calls_per_pass = (long)order.size();

        int boxes_apart = 0;
        for (int i = 0; i < opt.pairs; i++)
            boxes_apart += !aabbs_overlap(da[i], db[i]);

        for (int q = Q_OVERLAP; q <= Q_CONTACT; q++) {
            Row row;
            memset(&row, 0, sizeof row);
            row.pair = pk.name;
            row.query = (Query)q;
            row.boxes_apart = boxes_apart;
            row.have[L_C2D] = c2d_ok;
            row.have[L_B2] = pk.box2d;
            row.have[L_CP] = true;
            row.have[L_B2M] = pk.box2d && q == Q_CONTACT;

            bench_pass_fn fns[L_COUNT] = {q == Q_OVERLAP ? c2d_overlap_pass : c2d_contact_pass,
                                          q == Q_OVERLAP ? b2_overlap_pass : b2_contact_pass, cp_pass,
                                          b2_manifold_pass};
            void *ctxs[L_COUNT] = {&cs, &bs, &ps, &bs};

            /* --profile: one pass per library and nothing else, for instruction counts under
             * callgrind (--toggle-collect on the pass function: Ir / calls per pass = Ir per call). */
            if (opt.profile) {
                for (int l = 0; l < L_COUNT; l++)
                    if (row.have[l] && (opt.lib < 0 || opt.lib == l))
                        *sink += fns[l](ctxs[l]);
                printf("profile: %s %s, one pass of %ld calls per library\n", pk.name, kQueryNames[q], calls_per_pass);
                continue;
            }
            /* Per-pair answers, untimed, so a reader sees whether the libraries did the same work. */
            int dumped = 0;
            for (int i = 0; i < opt.pairs; i++) {
                int r[L_COUNT] = {0, 0, 0, 0};
                if (row.have[L_C2D])
                    r[L_C2D] = q == Q_OVERLAP ? c2d_overlap_one(&cs, (size_t)i) : c2d_contact_one(&cs, (size_t)i);
                if (row.have[L_B2])
                    r[L_B2] = q == Q_OVERLAP ? b2_overlap_one(&bs, (size_t)i) : b2_contact_one(&bs, (size_t)i, true);
                r[L_B2M] = r[L_B2];
                r[L_CP] = cp_contact_one(&ps, (size_t)i);
                /* Beyond yes/no: the two double-precision libraries should find the same depth
                 * and normal; a pair where they do not counts as a disagreement too. */
                bool mismatch = false;
                if (q == Q_CONTACT && row.have[L_C2D]) {
                    double dd, dn;
                    contact_difference(&cs, &ps, (size_t)i, &dd, &dn);
                    row.worst_depth = fmax(row.worst_depth, dd);
                    row.worst_normal = fmax(row.worst_normal, dn);
                    mismatch = dd > kAgree || dn > kAgree;
                }
                for (int l = 0; l < L_COUNT; l++) {
                    row.hits[l] += r[l];
                    if (row.have[L_C2D] && row.have[l] && (r[l] != r[L_C2D] || (l == L_CP && mismatch)))
                        row.differ[l]++;
                }
                /* Chipmunk computes in double with no skin: where it and collide2d disagree, one
                 * of them is wrong, so those pairs are the repro cases worth printing. */
                if (row.have[L_C2D] && (r[L_CP] != r[L_C2D] || mismatch) && dumped < opt.dump) {
                    dumped++;
                    printf("  %s %s pair %d: collide2d says %d, Chipmunk %d%s, Box2D %s (GJK gap %.3g)\n", pk.name,
                           kQueryNames[q], i, r[L_C2D], r[L_CP], mismatch ? " with another depth or normal" : "",
                           row.have[L_B2] ? (r[L_B2] ? "1" : "0") : "-",
                           (double)gap(da[i], db[i], db[i].x - da[i].x, db[i].y - da[i].y));
                    print_desc("A", da[i]);
                    print_desc("B", db[i]);
                }
            }

            bool run[L_COUNT];
            long passes[L_COUNT] = {0, 0, 0, 0};
            for (int l = 0; l < L_COUNT; l++) {
                run[l] = row.have[l] && (opt.lib < 0 || opt.lib == l || (opt.lib == L_B2 && l == L_B2M));
                if (run[l])
                    passes[l] = bench_calibrate(fns[l], ctxs[l], opt.rep_ns, sink);
            }
            for (int l = 0; l < L_COUNT; l++)
                row.timed[l] = run[l];
            /* Libraries take turns within each repetition, so a slow spell of the machine lands
             * on all of them rather than on whichever happened to run then. When other work
             * still disturbed so many repetitions that the quartiles spread wide, the row is
             * measured again (up to kAttempts times) and the steadiest attempt is kept: on a
             * shared two-core machine a test suite next door can take the CPU for seconds. */
            const int kAttempts = 4;
            double best_spread = INFINITY;
            for (int attempt = 0; attempt < kAttempts && best_spread > kSteady; attempt++) {
                std::vector<double> t[L_COUNT];
                for (int rep = 0; rep < opt.reps; rep++)
                    for (int l = 0; l < L_COUNT; l++)
                        if (run[l])
                            t[l].push_back(bench_time_rep_clean(fns[l], ctxs[l], passes[l], calls_per_pass, sink,
                                                                10, NULL));
                double ns[L_COUNT] = {0, 0, 0, 0}, spread[L_COUNT] = {0, 0, 0, 0}, worst = 0.0;
                for (int l = 0; l < L_COUNT; l++) {
                    if (!run[l])
                        continue;
                    if (opt.verbose) {
                        printf("  reps %s %s %s:", pk.name, kQueryNames[q], kLibNames[l]);
                        for (double x : t[l])
                            printf(" %.1f", x);
                        printf("  (passes %ld)\n", passes[l]);
                    }
                    ns[l] = bench_median(t[l].data(), opt.reps);
                    double q1 = bench_quantile(t[l].data(), opt.reps, 0.25);
                    double q3 = bench_quantile(t[l].data(), opt.reps, 0.75);
                    spread[l] = ns[l] > 0.0 ? (q3 - q1) / ns[l] : 0.0;
                    worst = fmax(worst, spread[l]);
                }
                if (worst < best_spread) {
                    best_spread = worst;
                    memcpy(row.ns, ns, sizeof ns);
                    memcpy(row.spread, spread, sizeof spread);
                }
            }
            rows.push_back(row);
        }

        c2d_errors += cs.errors;
        for (c2d_shape *sh : cs.a)
            c2d_shape_destroy(sh);
        for (c2d_shape *sh : cs.b)
            c2d_shape_destroy(sh);
        for (B2Item &it : bs.a)
            delete it.shape;
        for (B2Item &it : bs.b)
            delete it.shape;
        for (cpShape *sh : ps.a)
            cpShapeFree(sh);
        for (cpShape *sh : ps.b)
            cpShapeFree(sh);
        for (cpBody *b : ps.bodies)
            cpBodyFree(b);
    }
    return c2d_errors;
}

void print_table(const char *title, const std::vector<Row> &rows, int pairs)
{
    printf("\n%s\n", title);
    printf("%-18s %-7s %7s %8s %6s %8s %8s %6s  %-15s %-7s %s\n", "pair", "query", "c2d ns", "Box2D ns", "B/c2d",
           "B2 mf ns", "Chipm ns", "C/c2d", "hits c2d/b2d/cp", "differ", "boxes");
    printf("%-18s %-7s %7s %8s %6s %8s %8s %6s  %-15s %-7s %s\n", "", "", "", "", "", "", "", "", "", "b2d/cp",
           "apart");
    double worst_spread = 0.0;
    for (const Row &r : rows) {
        char c[32], b[32], br[32], bm[32], p[32], pr[32], hits[64], diff[48], bh[24] = "-", bd[24] = "-";
        fmt_ns(c, sizeof c, r.timed[L_C2D], r.ns[L_C2D]);
        fmt_ns(b, sizeof b, r.timed[L_B2], r.ns[L_B2]);
        fmt_ratio(br, sizeof br, r.timed[L_B2] && r.timed[L_C2D], r.ns[L_B2], r.ns[L_C2D]);
        fmt_ns(bm, sizeof bm, r.timed[L_B2M], r.ns[L_B2M]);
        fmt_ns(p, sizeof p, r.timed[L_CP], r.ns[L_CP]);
        fmt_ratio(pr, sizeof pr, r.timed[L_CP] && r.timed[L_C2D], r.ns[L_CP], r.ns[L_C2D]);
        if (r.have[L_B2]) {
            snprintf(bh, sizeof bh, "%ld", r.hits[L_B2]);
            snprintf(bd, sizeof bd, "%ld", r.differ[L_B2]);
        }
        snprintf(hits, sizeof hits, "%ld/%s/%ld", r.have[L_C2D] ? r.hits[L_C2D] : 0, bh, r.hits[L_CP]);
        snprintf(diff, sizeof diff, "%s/%ld", bd, r.differ[L_CP]);
        printf("%-18s %-7s %7s %8s %6s %8s %7s%s %6s  %-15s %-7s %d%%\n", r.pair, kQueryNames[r.query], c, b, br, bm,
               p, r.query == Q_OVERLAP ? "*" : " ", pr, hits, diff, (int)(100.0 * r.boxes_apart / pairs + 0.5));
        for (int l = 0; l < L_COUNT; l++)
            if (r.timed[l] && r.spread[l] > worst_spread)
                worst_spread = r.spread[l];
    }
    double worst_depth = 0.0, worst_normal = 0.0;
    for (const Row &r : rows) {
        worst_depth = fmax(worst_depth, r.worst_depth);
        worst_normal = fmax(worst_normal, r.worst_normal);
    }
    printf("contacts against Chipmunk: depths within %.1e, normals within 1-cos %.1e (over %s %s)\n", worst_depth,
           worst_normal, "every pair both report", "touching");
    printf("timing noise: worst interquartile range %.1f%% of the median.\n", 100.0 * worst_spread);
    if (worst_spread > kSteady) {
        printf("  the machine was busy; rows still disturbed after retries:");
        for (const Row &r : rows)
            for (int l = 0; l < L_COUNT; l++)
                if (r.timed[l] && r.spread[l] > kSteady) {
                    printf(" %s/%s", r.pair, kQueryNames[r.query]);
                    break;
                }
        printf("\n");
    }
}

/* Prints each target's status; returns how many were measured and missed. */
int check_targets(const char *label, const std::vector<Row> &rows)
{
    int missed = 0;
    printf("targets, %s (Box2D ns / collide2d ns):\n", label);
    for (const Target &tg : kTargets) {
        const Row *found = NULL;
        for (const Row &r : rows)
            if (!strcmp(r.pair, tg.pair) && r.query == tg.query)
                found = &r;
        if (!found || !found->timed[L_C2D] || !found->timed[L_B2]) {
            printf("  %-16s %-7s >= %.0fx: not measured in this run\n", tg.pair, kQueryNames[tg.query], tg.ratio);
            continue;
        }
        double ratio = found->ns[L_B2] / found->ns[L_C2D];
        bool met = ratio >= tg.ratio;
        missed += !met;
        printf("  %-16s %-7s >= %.0fx: %5.2fx  %-7s", tg.pair, kQueryNames[tg.query], tg.ratio, ratio,
               met ? "met" : "NOT MET");
        /* The bare b2Collide* call is Box2D's cheapest answer to either question (a manifold with
         * points means overlap), so the ratio against it is printed too, for a reader who would
         * call that instead. */
        const Row *contact = NULL;
        for (const Row &r : rows)
            if (!strcmp(r.pair, tg.pair) && r.query == Q_CONTACT)
                contact = &r;
        if (contact && contact->timed[L_B2M])
            printf("  (against the bare b2Collide* call: %.2fx)", contact->ns[L_B2M] / found->ns[L_C2D]);
        printf("\n");
    }
    return missed;
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

} // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    Rng rng = {opt.seed};
    long sink = 0, c2d_errors = 0;
    bool c2d_unusable = false;

    printf("narrow phase: collide2d %s vs Box2D 2.4.1 vs Chipmunk %s; ns per call, median of %d reps; seed %llu%s\n",
           c2d_version_string(), cpVersionString, opt.reps, (unsigned long long)opt.seed,
           opt.quick ? " -- QUICK smoke run, numbers not meaningful" : "");
    printf("Half the pairs overlap by construction (B placed at 0.4..1 or 1..1.6 of the touching distance).\n");
    int others = other_runnable();
    if (others > 0)
        printf("NOTE: %d other task(s) running on this machine as the benchmark starts: expect noise.\n", others);
    if (opt.visits > 0)
        printf("Each pass visits the pairs %d times over in random order (a replayed short sequence trains the "
               "branch predictor).\n", opt.visits);
    else
        printf("Each pass visits the pairs once, in storage order.\n");

    /* A: the mix. B: the same without the pairs a broadphase would have dropped, where the
     * bounding-box test inside c2d_* cannot help. C and D: the target pairs again with a working set
     * that sits in L1 (64 pairs) and one well beyond L2 (16384 pairs), where the bytes each shape
     * occupies, and where they lie, start to count. */
    std::vector<Row> mixed, broad, small, large;
    bool run_a = strchr(opt.sections, 'A') != NULL, run_b = strchr(opt.sections, 'B') != NULL,
         run_c = strchr(opt.sections, 'C') != NULL, run_d = strchr(opt.sections, 'D') != NULL;
    if (run_a)
        c2d_errors += measure(opt, false, false, rng, mixed, &sink, &c2d_unusable);
    if (run_b)
        c2d_errors += measure(opt, true, false, rng, broad, &sink, &c2d_unusable);
    if (run_c) {
        Options few = opt;
        few.pairs = opt.small_pairs;
        c2d_errors += measure(few, false, true, rng, small, &sink, &c2d_unusable);
    }
    if (run_d) {
        Options big = opt;
        big.pairs = opt.large_pairs;
        c2d_errors += measure(big, false, true, rng, large, &sink, &c2d_unusable);
    }

    char title[200];
    if (run_a) {
        snprintf(title, sizeof title, "A. %d pairs per kind, the issue's mix ('boxes apart': pairs a broadphase "
                 "would drop):", opt.pairs);
        print_table(title, mixed, opt.pairs);
    }
    if (run_b) {
        snprintf(title, sizeof title, "B. %d pairs per kind whose bounding boxes overlap (what a broadphase "
                 "hands over):", opt.pairs);
        print_table(title, broad, opt.pairs);
    }
    if (run_c) {
        snprintf(title, sizeof title, "C. %d pairs per kind, the issue's mix: a working set that stays in L1/L2 "
                 "cache", opt.small_pairs);
        print_table(title, small, opt.small_pairs);
    }
    if (run_d) {
        snprintf(title, sizeof title, "D. %d pairs per kind, the issue's mix: shapes no longer fit in L2 cache",
                 opt.large_pairs);
        print_table(title, large, opt.large_pairs);
    }
    printf("Box2D contact = b2Collide* + b2WorldManifold::Initialize (world normal, points, depths like the others);\n"
           "B2 mf = the b2Collide* call alone (body-frame manifold). Box2D overlap = b2TestOverlap.\n");
    printf("* Chipmunk has no overlap-only test; its overlap rows time cpShapesCollide too.\n");
    printf("hits: pairs reported touching; differ: pairs where Box2D or Chipmunk disagrees with collide2d\n"
           "(Box2D's 0.01 polygon skin makes it report a few more).\n\n");

    int missed = 0;
    if (run_a)
        missed += check_targets("table A, as the issue states them", mixed);
    if (run_b)
        check_targets("table B, for information", broad);
    if (run_c)
        check_targets("table C (cache-resident), for information", small);
    if (run_d)
        check_targets("table D (beyond L2), for information", large);
    /* Printed so that the accumulated results are observably used. */
    printf("(checksum %ld)\n", sink);

    if (c2d_errors > 0)
        printf("collide2d returned an error status %ld times on valid input: a library bug\n", c2d_errors);
    if (c2d_errors > 0 || c2d_unusable)
        return 1;
    return opt.strict && missed > 0 ? 1 : 0;
}
