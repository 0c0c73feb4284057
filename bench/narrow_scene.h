/* narrow_scene.h - the geometry bench_narrow hands to every library, independent of any of them.
 *
 * A shape is described once (Desc: kind and geometry in its body frame, whose origin is the shape's
 * centre or centroid, so that collide2d's position, Box2D's body origin and Chipmunk's body position
 * are the same point) and placed by poses (position, angle). A pair case holds two poses per shape
 * with the same relative placement, the second moved and turned rigidly from the first: every
 * library gets the same answers at both, and alternating between them makes each visit of a pair a
 * real placement (a shape placed where it already is could be a no-op). A ray case is a shape and a
 * segment, moved together the same way. Only Box2D's GJK (b2Distance, no skin) is used here, to
 * place pairs near touching; this header is part of bench_narrow.cpp, one translation unit. */
#ifndef C2D_NARROW_SCENE_H
#define C2D_NARROW_SCENE_H

#include <box2d/b2_distance.h>
#include <box2d/box2d.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "collide2d.h"

namespace {

enum Kind { K_CIRCLE, K_BOX, K_POLY, K_CAPSULE };

const int kMaxVerts = 8; /* Box2D 2.4.1's b2_maxPolygonVertices */

/* One shape, independent of any library: its geometry in the body frame and its first pose. */
struct Desc {
    Kind kind;
    double x, y, angle;    /* pose 0 */
    double r;              /* circle or capsule radius */
    double hx, hy;         /* box half extents; for a capsule hx is half the core segment */
    int n;                 /* polygon vertex count */
    double vx[kMaxVerts];  /* polygon vertices in the body frame, counter-clockwise, centroid at 0 */
    double vy[kMaxVerts];
};

struct Pose {
    double x, y, angle;
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

/* Angles are kept in [-pi, pi): every library's sine and cosine take their fast path there. */
double wrap_angle(double a)
{
    a = fmod(a + M_PI, 2.0 * M_PI);
    if (a < 0)
        a += 2.0 * M_PI;
    return a - M_PI;
}

/* Sizes around 1 (Box2D's metres, where its tolerances are tuned) and positions within +-100, where
 * float is still accurate to ~1e-5: the peers are measured where they work well. */
Desc random_shape(Kind kind, bool rotated, Rng &rng)
{
    Desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.x = rng.uniform(-100.0, 100.0);
    d.y = rng.uniform(-100.0, 100.0);
    d.angle = rotated && kind != K_CIRCLE ? rng.uniform(-M_PI, M_PI) : 0.0;
    switch (kind) {
    case K_CIRCLE:
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
         * convex, and no gap reaches 180 degrees. Then moved so that the centroid is the body
         * origin: collide2d places a polygon by its centroid, the others by their body origin. */
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
        double area = 0.0, cx = 0.0, cy = 0.0;
        for (int i = 0; i < d.n; i++) {
            int j = (i + 1) % d.n;
            double cr = d.vx[i] * d.vy[j] - d.vx[j] * d.vy[i];
            area += cr;
            cx += (d.vx[i] + d.vx[j]) * cr;
            cy += (d.vy[i] + d.vy[j]) * cr;
        }
        cx /= 3.0 * area;
        cy /= 3.0 * area;
        for (int i = 0; i < d.n; i++) {
            d.vx[i] -= cx;
            d.vy[i] -= cy;
        }
        break;
    }
    }
    return d;
}

Pose pose_of(const Desc &d)
{
    Pose p = {d.x, d.y, d.angle};
    return p;
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

/* World-frame bounding box of a shape at a pose: minx, miny, maxx, maxy. */
void world_aabb(const Desc &d, const Pose &p, double box[4])
{
    double lx[kMaxVerts], ly[kMaxVerts];
    int n = 0;
    switch (d.kind) {
    case K_CIRCLE:
        lx[0] = ly[0] = 0.0;
        n = 1;
        break;
    case K_BOX:
        lx[0] = -d.hx, ly[0] = -d.hy, lx[1] = d.hx, ly[1] = -d.hy;
        lx[2] = d.hx, ly[2] = d.hy, lx[3] = -d.hx, ly[3] = d.hy;
        n = 4;
        break;
    case K_CAPSULE:
        lx[0] = -d.hx, ly[0] = 0.0, lx[1] = d.hx, ly[1] = 0.0;
        n = 2;
        break;
    case K_POLY:
        for (n = 0; n < d.n; n++)
            lx[n] = d.vx[n], ly[n] = d.vy[n];
        break;
    }
    double co = cos(p.angle), si = sin(p.angle);
    box[0] = box[1] = INFINITY;
    box[2] = box[3] = -INFINITY;
    for (int i = 0; i < n; i++) {
        double wx = p.x + co * lx[i] - si * ly[i], wy = p.y + si * lx[i] + co * ly[i];
        box[0] = fmin(box[0], wx - d.r);
        box[1] = fmin(box[1], wy - d.r);
        box[2] = fmax(box[2], wx + d.r);
        box[3] = fmax(box[3], wy + d.r);
    }
}

/* World vertices of a box or polygon at a pose, counter-clockwise; returns their count. */
int world_vertices(const Desc &d, const Pose &p, double *wx, double *wy)
{
    double lx[kMaxVerts], ly[kMaxVerts];
    int n = 0;
    if (d.kind == K_BOX) {
        lx[0] = -d.hx, ly[0] = -d.hy, lx[1] = d.hx, ly[1] = -d.hy;
        lx[2] = d.hx, ly[2] = d.hy, lx[3] = -d.hx, ly[3] = d.hy;
        n = 4;
    } else if (d.kind == K_POLY) {
        for (n = 0; n < d.n; n++)
            lx[n] = d.vx[n], ly[n] = d.vy[n];
    }
    double co = cos(p.angle), si = sin(p.angle);
    for (int i = 0; i < n; i++) {
        wx[i] = p.x + co * lx[i] - si * ly[i];
        wy[i] = p.y + si * lx[i] + co * ly[i];
    }
    return n;
}

/* The largest separation of two polygons along their face normals (what b2CollidePolygons compares
 * with its skin of 2 x 0.01: it reports a contact whenever this is below 0.02, which for corners
 * facing each other can be at a distance well above 0.02). */
double sat_separation(const Desc &a, const Pose &pa, const Desc &b, const Pose &pb)
{
    double ax[kMaxVerts], ay[kMaxVerts], bx[kMaxVerts], by[kMaxVerts];
    int na = world_vertices(a, pa, ax, ay), nb = world_vertices(b, pb, bx, by);
    double best = -INFINITY;
    for (int side = 0; side < 2; side++) {
        const double *px = side ? bx : ax, *py = side ? by : ay, *qx = side ? ax : bx, *qy = side ? ay : by;
        int np = side ? nb : na, nq = side ? na : nb;
        for (int i = 0; i < np; i++) {
            int j = (i + 1) % np;
            double ex = px[j] - px[i], ey = py[j] - py[i], len = hypot(ex, ey);
            double nx = ey / len, ny = -ex / len, s = INFINITY;
            for (int k = 0; k < nq; k++)
                s = fmin(s, nx * (qx[k] - px[i]) + ny * (qy[k] - py[i]));
            best = fmax(best, s);
        }
    }
    return best;
}

/* ---- the referee: depth and normal in long double ------------------------------------------------
 * Where collide2d and Chipmunk differ by more than rounding, neither can judge the other. This
 * computes the contact of two placed shapes independently, in 64-bit-mantissa arithmetic from the same
 * double inputs (the cosine and sine of each angle as double, as both libraries take them): every
 * shape is a core (a point, a segment or a convex polygon) swollen by a radius. Cores that overlap
 * separate along the axis of least penetration, one of the cores' edge normals (the Minkowski
 * difference of convex cores has no other edge directions); cores apart touch along the line of
 * their closest points. Slow and simple; used only on the pairs in dispute. */
struct Core {
    long double x[kMaxVerts], y[kMaxVerts];
    int n;
    long double r;
};

Core core_of(const Desc &d, const Pose &p)
{
    double lx[kMaxVerts], ly[kMaxVerts];
    Core c;
    c.r = d.r;
    switch (d.kind) {
    case K_CIRCLE:
        lx[0] = ly[0] = 0.0;
        c.n = 1;
        break;
    case K_CAPSULE:
        lx[0] = -d.hx, ly[0] = 0.0, lx[1] = d.hx, ly[1] = 0.0;
        c.n = 2;
        break;
    case K_BOX:
        lx[0] = -d.hx, ly[0] = -d.hy, lx[1] = d.hx, ly[1] = -d.hy;
        lx[2] = d.hx, ly[2] = d.hy, lx[3] = -d.hx, ly[3] = d.hy;
        c.n = 4;
        break;
    case K_POLY:
        for (c.n = 0; c.n < d.n; c.n++)
            lx[c.n] = d.vx[c.n], ly[c.n] = d.vy[c.n];
        break;
    }
    long double co = cos(p.angle), si = sin(p.angle);
    for (int i = 0; i < c.n; i++) {
        c.x[i] = (long double)p.x + co * lx[i] - si * ly[i];
        c.y[i] = (long double)p.y + si * lx[i] + co * ly[i];
    }
    return c;
}

/* Squared distance from (px, py) to the segment a-b, and the closest point. */
long double point_segment2(long double px, long double py, long double ax, long double ay, long double bx,
                           long double by, long double *qx, long double *qy)
{
    long double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey;
    long double t = l2 > 0 ? ((px - ax) * ex + (py - ay) * ey) / l2 : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    *qx = ax + t * ex;
    *qy = ay + t * ey;
    return (px - *qx) * (px - *qx) + (py - *qy) * (py - *qy);
}

/* The contact depth of the two shapes (negative: apart) and the normal from A to B. *clear says
 * whether the normal is well defined: false where two axes are within 1e-9 of each other (then either
 * is a right answer). */
long double reference_contact(const Desc &da, const Pose &pa, const Desc &db, const Pose &pb, long double *nx,
                              long double *ny, bool *clear)
{
    Core c[2] = {core_of(da, pa), core_of(db, pb)};
    long double reach = c[0].r + c[1].r;
    long double best = -INFINITY, second = -INFINITY;
    *nx = 0, *ny = 1, *clear = true;
    /* Edge normals of each core (both sides of a segment), outward from it. */
    for (int side = 0; side < 2; side++) {
        const Core &p = c[side], &q = c[1 - side];
        if (p.n < 2)
            continue;
        int edges = p.n == 2 ? 2 : p.n;
        for (int i = 0; i < edges; i++) {
            int i0 = i, i1 = p.n == 2 ? 1 - i : (i + 1) % p.n;
            long double ex = p.x[i1] - p.x[i0], ey = p.y[i1] - p.y[i0], len = sqrtl(ex * ex + ey * ey);
            long double ux = ey / len, uy = -ex / len, s = INFINITY;
            for (int k = 0; k < q.n; k++)
                s = fminl(s, ux * (q.x[k] - p.x[i0]) + uy * (q.y[k] - p.y[i0]));
            if (s > best) {
                second = best;
                best = s;
                *nx = side ? -ux : ux;
                *ny = side ? -uy : uy;
            } else if (s > second) {
                second = s;
            }
        }
    }
    if (best <= 0 && c[0].n + c[1].n > 2) {
        *clear = best - second > 1e-9L;
        return reach - best;
    }
    /* Cores apart: the closest pair of features. */
    long double d2 = INFINITY, ax = 0, ay = 0, bx = 0, by = 0;
    for (int side = 0; side < 2; side++) {
        const Core &p = c[side], &q = c[1 - side];
        for (int k = 0; k < p.n; k++) {
            int edges = q.n == 1 ? 1 : (q.n == 2 ? 1 : q.n);
            for (int e = 0; e < edges; e++) {
                long double qx, qy;
                int e1 = q.n == 1 ? 0 : (e + 1) % q.n;
                long double dd = point_segment2(p.x[k], p.y[k], q.x[e], q.y[e], q.x[e1], q.y[e1], &qx, &qy);
                if (dd < d2) {
                    d2 = dd;
                    ax = side ? qx : p.x[k], ay = side ? qy : p.y[k];
                    bx = side ? p.x[k] : qx, by = side ? p.y[k] : qy;
                }
            }
        }
    }
    long double dist = sqrtl(d2);
    if (dist > 0) {
        *nx = (bx - ax) / dist;
        *ny = (by - ay) / dist;
    }
    return reach - dist;
}

bool aabbs_overlap(const Desc &a, const Pose &pa, const Desc &b, const Pose &pb)
{
    double ba[4], bb[4];
    world_aabb(a, pa, ba);
    world_aabb(b, pb, bb);
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

/* The second pose: the first one moved to another random place and, for rotated kinds, turned by a
 * random angle about A, B carried along. The relative placement, hence every answer, stays. */
void rigid_move(const Pose &a0, const Pose &b0, bool rotated, Rng &rng, Pose *a1, Pose *b1)
{
    double t = rotated ? rng.uniform(-M_PI, M_PI) : 0.0;
    double co = cos(t), si = sin(t);
    double dx = b0.x - a0.x, dy = b0.y - a0.y;
    a1->x = rng.uniform(-100.0, 100.0);
    a1->y = rng.uniform(-100.0, 100.0);
    b1->x = a1->x + co * dx - si * dy;
    b1->y = a1->y + si * dx + co * dy;
    /* Aligned kinds keep angle 0; a rotated kind turns every shape of the pair, circles included
     * (a rolling body's angle changes too). */
    a1->angle = rotated ? wrap_angle(a0.angle + t) : a0.angle;
    b1->angle = rotated ? wrap_angle(b0.angle + t) : b0.angle;
}

/* Two shapes and two poses each. */
struct PairCase {
    Desc a, b;
    Pose pa[2], pb[2];
};

/* B is placed along a random direction from A at a random fraction of the touching distance: half
 * of the pairs at 0.4..1 (overlapping), half at 1..1.6 (apart), many of them near the boundary where
 * the interesting branches are. With after_broadphase, an apart pair is redrawn until the two
 * bounding boxes overlap at both poses: those are the pairs a broadphase hands to the narrow phase,
 * and on them no library can answer from the boxes alone. */
PairCase make_pair(Kind ka, Kind kb, bool rotated, bool after_broadphase, Rng &rng)
{
    PairCase pc;
    pc.a = random_shape(ka, rotated, rng);
    pc.b = random_shape(kb, rotated, rng);
    Desc &a = pc.a, &b = pc.b;
    bool overlapping = (rng.next() & 1) != 0;
    for (int attempt = 0;; attempt++) {
        double t = rng.uniform(0.0, 2.0 * M_PI);
        double ux = cos(t), uy = sin(t);
        double s = touching_distance(a, b, ux, uy) * (overlapping ? rng.uniform(0.4, 1.0) : rng.uniform(1.0, 1.6));
        b.x = a.x + s * ux;
        b.y = a.y + s * uy;
        pc.pa[0] = pose_of(a);
        pc.pb[0] = pose_of(b);
        bool ok = !after_broadphase || overlapping || aabbs_overlap(a, pc.pa[0], b, pc.pb[0]);
        for (int k = 0; ok; k++) {
            rigid_move(pc.pa[0], pc.pb[0], rotated, rng, &pc.pa[1], &pc.pb[1]);
            if (!after_broadphase || overlapping || aabbs_overlap(a, pc.pa[1], b, pc.pb[1]))
                return pc;
            if (k == 64)
                ok = false; /* this placement's boxes only touch at some angles: draw another */
        }
        /* Axis-aligned boxes are their own bounding boxes: apart, they never pass a broadphase,
         * so such a pair becomes an overlapping one. */
        if (attempt == 64)
            overlapping = true;
    }
}

/* A shape and a segment from o to o + d (parameter 0..1), at two poses that move both together. */
struct RayCase {
    Desc s;
    Pose p[2];
    c2d_vec2 o[2], d[2];
};

/* Does the segment from o to o + d pass through the box? (A broadphase's slab test.) */
bool segment_meets_box(c2d_vec2 o, c2d_vec2 d, const double box[4])
{
    double lo = 0.0, hi = 1.0;
    const double org[2] = {o.x, o.y}, dir[2] = {d.x, d.y};
    for (int k = 0; k < 2; k++) {
        if (dir[k] == 0.0) {
            if (org[k] < box[k] || org[k] > box[k + 2])
                return false;
            continue;
        }
        double t0 = (box[k] - org[k]) / dir[k], t1 = (box[k + 2] - org[k]) / dir[k];
        lo = fmax(lo, fmin(t0, t1));
        hi = fmin(hi, fmax(t0, t1));
    }
    return lo <= hi;
}

/* The segment starts outside the shape's bounding circle (no library is asked about rays from
 * inside, where they answer differently by design) and aims at a point within 1.3 bounding radii of
 * the centre, ending anywhere from 0.6 to 1.4 of the way there: about half the segments hit. Only
 * segments that pass through the shape's bounding box at both poses are kept (what a world's tree
 * hands to the exact test). */
RayCase make_ray(Kind kind, Rng &rng)
{
    RayCase rc;
    rc.s = random_shape(kind, true, rng);
    rc.p[0] = pose_of(rc.s);
    double R = bounding_radius(rc.s);
    for (;;) {
        double phi = rng.uniform(0.0, 2.0 * M_PI), dist = R * rng.uniform(1.05, 3.0);
        double psi = rng.uniform(0.0, 2.0 * M_PI), rad = 1.3 * R * sqrt(rng.uniform(0.0, 1.0));
        double ox = rc.p[0].x + dist * cos(phi), oy = rc.p[0].y + dist * sin(phi);
        double tx = rc.p[0].x + rad * cos(psi), ty = rc.p[0].y + rad * sin(psi);
        double f = rng.uniform(0.6, 1.4);
        rc.o[0].x = ox;
        rc.o[0].y = oy;
        rc.d[0].x = f * (tx - ox);
        rc.d[0].y = f * (ty - oy);
        double box[4];
        world_aabb(rc.s, rc.p[0], box);
        if (!segment_meets_box(rc.o[0], rc.d[0], box))
            continue;
        /* The second pose moves shape and segment together. */
        for (int k = 0; k < 64; k++) {
            Pose b0 = {rc.o[0].x, rc.o[0].y, 0.0}, b1;
            rigid_move(rc.p[0], b0, true, rng, &rc.p[1], &b1);
            double t = rc.p[1].angle - rc.p[0].angle, co = cos(t), si = sin(t);
            rc.o[1].x = b1.x;
            rc.o[1].y = b1.y;
            rc.d[1].x = co * rc.d[0].x - si * rc.d[0].y;
            rc.d[1].y = si * rc.d[0].x + co * rc.d[0].y;
            world_aabb(rc.s, rc.p[1], box);
            if (segment_meets_box(rc.o[1], rc.d[1], box))
                return rc;
        }
    }
}

/* The pairs one pass visits, in visiting order, each entry (pair << 1 | pose). Every pair is visited
 * exactly `visits` times (an even number) in a random order, and its visits alternate between its
 * two poses, so that every visit, including the first of the next pass, places the pair somewhere
 * else than the visit before. A random order over many calls also keeps the branch predictor from
 * learning the sequence of outcomes, which would flatter branchy code far beyond what a game sees. */
std::vector<uint32_t> make_order(int pairs, int visits, Rng &rng)
{
    std::vector<uint32_t> order;
    order.reserve((size_t)pairs * visits);
    for (int v = 0; v < visits; v++)
        for (int i = 0; i < pairs; i++)
            order.push_back((uint32_t)i);
    for (size_t i = order.size(); i > 1; i--)
        std::swap(order[i - 1], order[(size_t)(rng.next() % i)]);
    std::vector<uint8_t> next_pose((size_t)pairs, 0);
    for (uint32_t &e : order) {
        uint32_t i = e;
        e = i << 1 | next_pose[i];
        next_pose[i] ^= 1;
    }
    return order;
}

} // namespace

#endif /* C2D_NARROW_SCENE_H */
