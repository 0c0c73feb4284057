/* narrow_peers.h - bench_narrow's adapters: each library's shapes built from the same descriptions,
 * and one pass function per library, query and placement, named for callgrind.
 *
 * Placement. Every query exists in two forms:
 *  - "placed" (the column the targets use): both shapes are placed at the visit's pose, then asked,
 *    as a game that moves its shapes every frame does:
 *      collide2d  c2d_shape_set_transform(a, pos, angle), the same for b, then the query;
 *      Box2D      b2Transform::Set(pos, angle) for both (sinf and cosf, as b2Body::SynchronizeTransform
 *                 does), then the b2Collide* call, b2TestOverlap or b2PolygonShape::RayCast;
 *      Chipmunk   cpBodySetPosition and cpBodySetAngle on both bodies and cpShapeCacheBB on both shapes
 *                 (cpShapeUpdate with the body's transform: without it the query reads stale data),
 *                 then cpShapesCollide or cpShapeSegmentQuery.
 *    Each library reads its poses from its own array, in its own precision (floats for Box2D, whose
 *    bodies keep floats), indexed by the visit.
 *  - "fixed": the shapes stay where they are (collide2d and Chipmunk: where the last placement left
 *    them; Box2D: a stored b2Transform per shape), only the query is timed. For reference.
 *
 * A pass visits the pairs in the order of its `order` vector (entries pair << 1 | pose) and returns
 * how many touched, which the caller accumulates so that nothing is optimised away. */
#ifndef C2D_NARROW_PEERS_H
#define C2D_NARROW_PEERS_H

#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include <stdint.h>

#include <vector>

#include "collide2d.h"
#include "narrow_floor.h"
#include "narrow_scene.h"

namespace {

/* One pass function per (library, query, placement): a plain loop around an inline per-visit call,
 * with its own name so that callgrind's inclusive count per pass divided by the calls per pass is
 * the cost of one call. */
#define NARROW_PASS(name, Set, one)                                                                                    \
    long name(void *ctx)                                                                                               \
    {                                                                                                                  \
        Set *set = (Set *)ctx;                                                                                         \
        long hits = 0;                                                                                                 \
        for (uint32_t v : *set->order)                                                                                 \
            hits += one(set, v);                                                                                       \
        return hits;                                                                                                   \
    }

/* ---- collide2d -------------------------------------------------------------------------------- */

struct C2dPose {
    c2d_vec2 pa;
    double aa;
    c2d_vec2 pb;
    double ab;
};

struct C2dSet {
    std::vector<c2d_shape *> a, b;   /* b is unused for rays */
    std::vector<C2dPose> pose;       /* indexed by visit: pair << 1 | pose */
    std::vector<c2d_vec2> ro, rd;    /* rays: origin and direction per visit */
    const std::vector<uint32_t> *order;
    long errors = 0; /* calls that did not return C2D_OK: a library bug on this valid input */
    ~C2dSet()
    {
        for (c2d_shape *s : a)
            c2d_shape_destroy(s);
        for (c2d_shape *s : b)
            c2d_shape_destroy(s);
    }
};

c2d_status c2d_make(const Desc &d, c2d_shape **out)
{
    c2d_status st = C2D_OK;
    c2d_shape *s = NULL;
    c2d_vec2 pos = {d.x, d.y};
    switch (d.kind) {
    case K_CIRCLE:
        return c2d_circle_new(d.x, d.y, d.r, out);
    case K_BOX:
        return c2d_rect_new(d.x, d.y, 2.0 * d.hx, 2.0 * d.hy, d.angle, out);
    case K_CAPSULE: {
        c2d_vec2 p = {-d.hx, 0.0}, q = {d.hx, 0.0};
        st = c2d_capsule_new(p, q, d.r, &s);
        break;
    }
    case K_POLY: {
        /* Built once in its body frame (centroid at the origin) and then placed, as a game keeps a
         * polygon it moves. */
        c2d_vec2 pts[kMaxVerts];
        for (int i = 0; i < d.n; i++) {
            pts[i].x = d.vx[i];
            pts[i].y = d.vy[i];
        }
        st = c2d_polygon_new(pts, d.n, &s);
        break;
    }
    }
    if (st == C2D_OK)
        st = c2d_shape_set_transform(s, pos, d.angle);
    if (st != C2D_OK) {
        c2d_shape_destroy(s);
        return st;
    }
    *out = s;
    return C2D_OK;
}

inline void c2d_place(C2dSet *set, uint32_t v)
{
    const C2dPose &p = set->pose[v];
    uint32_t i = v >> 1;
    if ((c2d_shape_set_transform(set->a[i], p.pa, p.aa) | c2d_shape_set_transform(set->b[i], p.pb, p.ab)) != C2D_OK)
        set->errors++;
}

inline int c2d_overlap_fixed(C2dSet *set, uint32_t v)
{
    uint32_t i = v >> 1;
    int hit = 0;
    if (c2d_overlap(set->a[i], set->b[i], &hit) != C2D_OK)
        set->errors++;
    return hit != 0;
}

inline int c2d_collide_fixed(C2dSet *set, uint32_t v)
{
    uint32_t i = v >> 1;
    c2d_contact c;
    c.count = 0;
    if (c2d_collide(set->a[i], set->b[i], &c) != C2D_OK)
        set->errors++;
    return c.count > 0;
}

inline int c2d_overlap_placed(C2dSet *set, uint32_t v)
{
    c2d_place(set, v);
    return c2d_overlap_fixed(set, v);
}

inline int c2d_collide_placed(C2dSet *set, uint32_t v)
{
    c2d_place(set, v);
    return c2d_collide_fixed(set, v);
}

/* Rays: the shape is a[i]; the segment of the visit is ro[v] + t rd[v], 0 <= t <= 1. */
inline int c2d_ray_fixed(C2dSet *set, uint32_t v)
{
    c2d_ray_hit h;
    h.hit = 0;
    if (c2d_raycast(set->a[v >> 1], set->ro[v], set->rd[v], 1.0, &h) != C2D_OK)
        set->errors++;
    return h.hit;
}

inline int c2d_ray_placed(C2dSet *set, uint32_t v)
{
    const C2dPose &p = set->pose[v];
    if (c2d_shape_set_transform(set->a[v >> 1], p.pa, p.aa) != C2D_OK)
        set->errors++;
    return c2d_ray_fixed(set, v);
}

NARROW_PASS(c2d_overlap_placed_pass, C2dSet, c2d_overlap_placed)
NARROW_PASS(c2d_collide_placed_pass, C2dSet, c2d_collide_placed)
NARROW_PASS(c2d_overlap_fixed_pass, C2dSet, c2d_overlap_fixed)
NARROW_PASS(c2d_collide_fixed_pass, C2dSet, c2d_collide_fixed)
NARROW_PASS(c2d_ray_placed_pass, C2dSet, c2d_ray_placed)
NARROW_PASS(c2d_ray_fixed_pass, C2dSet, c2d_ray_fixed)

/* ---- Box2D 2.4.1 ------------------------------------------------------------------------------ */

/* Box2D has one function per pair of types, polygon before circle. */
enum B2Call { B2_CIRCLES, B2_POLYGON_CIRCLE, B2_POLYGONS };

struct B2Pose {
    b2Vec2 pa;
    float aa;
    b2Vec2 pb;
    float ab;
};

struct B2Set {
    B2Call call = B2_POLYGONS;
    bool swapped = false;            /* A and B exchanged (circle-polygon pairs) so the polygon is first */
    std::vector<b2Shape *> a, b;     /* b is unused for rays */
    std::vector<b2Transform> xa, xb; /* the stored transforms of the fixed form (pose 0) */
    std::vector<B2Pose> pose;        /* indexed by visit */
    std::vector<b2RayCastInput> ray; /* rays: indexed by visit */
    const std::vector<uint32_t> *order;
    ~B2Set()
    {
        for (b2Shape *s : a)
            delete s;
        for (b2Shape *s : b)
            delete s;
    }
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

inline b2Transform b2_xf(b2Vec2 p, float angle)
{
    b2Transform xf;
    xf.Set(p, angle);
    return xf;
}

inline void b2_collide(const B2Set *set, uint32_t i, const b2Transform &xa, const b2Transform &xb, b2Manifold *m)
{
    switch (set->call) {
    case B2_CIRCLES:
        b2CollideCircles(m, (const b2CircleShape *)set->a[i], xa, (const b2CircleShape *)set->b[i], xb);
        break;
    case B2_POLYGON_CIRCLE:
        b2CollidePolygonAndCircle(m, (const b2PolygonShape *)set->a[i], xa, (const b2CircleShape *)set->b[i], xb);
        break;
    case B2_POLYGONS:
        b2CollidePolygons(m, (const b2PolygonShape *)set->a[i], xa, (const b2PolygonShape *)set->b[i], xb);
        break;
    }
}

/* The bare b2Collide* call: a body-frame manifold; pointCount > 0 is how Box2D users ask whether two
 * shapes touch (what b2Contact::Update does). */
inline int b2_collide_with(const B2Set *set, uint32_t i, const b2Transform &xa, const b2Transform &xb)
{
    b2Manifold m;
    b2_collide(set, i, xa, xb, &m);
    return m.pointCount > 0;
}

/* b2Collide* and then b2WorldManifold::Initialize: what it takes to get what the other two return
 * (world normal, points, separations). */
inline int b2_world_manifold_with(const B2Set *set, uint32_t i, const b2Transform &xa, const b2Transform &xb)
{
    b2Manifold m;
    b2_collide(set, i, xa, xb, &m);
    if (m.pointCount == 0)
        return 0;
    b2WorldManifold wm;
    wm.Initialize(&m, xa, set->a[i]->m_radius, xb, set->b[i]->m_radius);
    /* Reading the result keeps the call from being dropped; no manifold has a NaN normal. */
    return wm.normal.x == wm.normal.x;
}

inline int b2_test_overlap_with(const B2Set *set, uint32_t i, const b2Transform &xa, const b2Transform &xb)
{
    return b2TestOverlap(set->a[i], 0, set->b[i], 0, xa, xb) ? 1 : 0;
}

inline int b2_ray_with(const B2Set *set, uint32_t v, const b2Transform &xf)
{
    b2RayCastOutput out;
    return set->a[v >> 1]->RayCast(&out, set->ray[v], xf, 0) ? 1 : 0;
}

inline int b2_collide_fixed(B2Set *set, uint32_t v)
{
    return b2_collide_with(set, v >> 1, set->xa[v >> 1], set->xb[v >> 1]);
}
inline int b2_world_manifold_fixed(B2Set *set, uint32_t v)
{
    return b2_world_manifold_with(set, v >> 1, set->xa[v >> 1], set->xb[v >> 1]);
}
inline int b2_test_overlap_fixed(B2Set *set, uint32_t v)
{
    return b2_test_overlap_with(set, v >> 1, set->xa[v >> 1], set->xb[v >> 1]);
}
inline int b2_ray_fixed(B2Set *set, uint32_t v)
{
    return b2_ray_with(set, v, set->xa[v >> 1]);
}
inline int b2_collide_placed(B2Set *set, uint32_t v)
{
    const B2Pose &p = set->pose[v];
    return b2_collide_with(set, v >> 1, b2_xf(p.pa, p.aa), b2_xf(p.pb, p.ab));
}
inline int b2_world_manifold_placed(B2Set *set, uint32_t v)
{
    const B2Pose &p = set->pose[v];
    return b2_world_manifold_with(set, v >> 1, b2_xf(p.pa, p.aa), b2_xf(p.pb, p.ab));
}
inline int b2_test_overlap_placed(B2Set *set, uint32_t v)
{
    const B2Pose &p = set->pose[v];
    return b2_test_overlap_with(set, v >> 1, b2_xf(p.pa, p.aa), b2_xf(p.pb, p.ab));
}
inline int b2_ray_placed(B2Set *set, uint32_t v)
{
    const B2Pose &p = set->pose[v];
    return b2_ray_with(set, v, b2_xf(p.pa, p.aa));
}

NARROW_PASS(b2_collide_placed_pass, B2Set, b2_collide_placed)
NARROW_PASS(b2_testoverlap_placed_pass, B2Set, b2_test_overlap_placed)
NARROW_PASS(b2_worldmanifold_placed_pass, B2Set, b2_world_manifold_placed)
NARROW_PASS(b2_ray_placed_pass, B2Set, b2_ray_placed)
NARROW_PASS(b2_collide_fixed_pass, B2Set, b2_collide_fixed)
NARROW_PASS(b2_testoverlap_fixed_pass, B2Set, b2_test_overlap_fixed)
NARROW_PASS(b2_worldmanifold_fixed_pass, B2Set, b2_world_manifold_fixed)
NARROW_PASS(b2_ray_fixed_pass, B2Set, b2_ray_fixed)

/* ---- Chipmunk 7 ------------------------------------------------------------------------------- */

struct CpPose {
    cpVect pa;
    cpFloat aa;
    cpVect pb;
    cpFloat ab;
};

struct CpSet {
    /* Shapes on bodies: bodiless segments crash cpShapesCollide, and users have bodies. */
    std::vector<cpBody *> ba, bb;
    std::vector<cpShape *> a, b;
    std::vector<CpPose> pose;
    std::vector<cpVect> r0, r1; /* rays: the segment's ends per visit */
    const std::vector<uint32_t> *order;
    ~CpSet()
    {
        for (cpShape *s : a)
            cpShapeFree(s);
        for (cpShape *s : b)
            cpShapeFree(s);
        for (cpBody *s : ba)
            cpBodyFree(s);
        for (cpBody *s : bb)
            cpBodyFree(s);
    }
};

cpShape *cp_make(const Desc &d, std::vector<cpBody *> &bodies)
{
    cpBody *body = cpBodyNew(1.0, 1.0);
    bodies.push_back(body);
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
    cpBodySetPosition(body, cpv(d.x, d.y));
    cpBodySetAngle(body, d.angle);
    cpShapeCacheBB(s);
    return s;
}

inline void cp_place_one(cpBody *body, cpShape *shape, cpVect p, cpFloat angle)
{
    cpBodySetPosition(body, p);
    cpBodySetAngle(body, angle);
    cpShapeCacheBB(shape);
}

/* Chipmunk has no overlap-only test: its users ask cpShapesCollide and look at the count, so both
 * the overlap and the contact rows show this call. */
inline int cp_collide_fixed(CpSet *set, uint32_t v)
{
    cpContactPointSet cps = cpShapesCollide(set->a[v >> 1], set->b[v >> 1]);
    return cps.count > 0;
}

inline int cp_collide_placed(CpSet *set, uint32_t v)
{
    const CpPose &p = set->pose[v];
    uint32_t i = v >> 1;
    cp_place_one(set->ba[i], set->a[i], p.pa, p.aa);
    cp_place_one(set->bb[i], set->b[i], p.pb, p.ab);
    return cp_collide_fixed(set, v);
}

inline int cp_ray_fixed(CpSet *set, uint32_t v)
{
    cpSegmentQueryInfo info;
    return cpShapeSegmentQuery(set->a[v >> 1], set->r0[v], set->r1[v], 0.0, &info) ? 1 : 0;
}

inline int cp_ray_placed(CpSet *set, uint32_t v)
{
    const CpPose &p = set->pose[v];
    cp_place_one(set->ba[v >> 1], set->a[v >> 1], p.pa, p.aa);
    return cp_ray_fixed(set, v);
}

NARROW_PASS(cp_collide_placed_pass, CpSet, cp_collide_placed)
NARROW_PASS(cp_collide_fixed_pass, CpSet, cp_collide_fixed)
NARROW_PASS(cp_ray_placed_pass, CpSet, cp_ray_placed)
NARROW_PASS(cp_ray_fixed_pass, CpSet, cp_ray_fixed)

/* ---- the box-box floor ------------------------------------------------------------------------ */

struct FloorSet {
    std::vector<FloorBox> a, b; /* indexed by visit: the pose and the half extents */
    const std::vector<uint32_t> *order;
};

inline int floor_placed(FloorSet *set, uint32_t v)
{
    c2d_contact c;
    return floor_box_box(set->a[v], set->b[v], &c) > 0;
}

NARROW_PASS(floor_placed_pass, FloorSet, floor_placed)

#undef NARROW_PASS

} // namespace

#endif /* C2D_NARROW_PEERS_H */
