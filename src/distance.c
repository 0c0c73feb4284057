/* distance.c - the distance between two convex shapes (c2d_convex_distance, which c2d_distance answers
 * for them): the exact closest points of their cores (closest.c) and the radii, overlap reported as
 * negative distance through the contact (sat.c), and the normal of nearly touching shapes from their
 * closest features. Layer 3, kernels. */
#include "shape.h"

#include <float.h>
#include <string.h>

/* Cores apart by less than this times the size of their coordinates (the closest point's, plus the two
 * shapes' reaches) take their normal from their closest features (feature_normal). The direction
 * between the closest points is off by a few roundings of those coordinates over the distance, and a
 * face lying along the other core turns that angle, times its length, into supports that cross: near
 * touching the angle grows without bound (1e-3 rad at 1e-13 of the size), while at this ratio it is
 * below 1e-9 rad and the direction stands, bit for bit as before. */
#define C2D_FEATURE_NORMAL 1e-6

/* How far b's core lies beyond a's along n: b's least product with n less a's greatest. */
static double support_gap(const c2d_core *a, const c2d_core *b, c2d_vec2 n)
{
    double hi = -INFINITY, lo = INFINITY;
    for (int i = 0; i < a->count; i++)
        hi = fmax(hi, v2_dot(n, a->v[i]));
    for (int i = 0; i < b->count; i++)
        lo = fmin(lo, v2_dot(n, b->v[i]));
    return lo - hi;
}

/* The normal from a to b of cores apart whose closest points nearly coincide, from the features that
 * are closest (those c2d_core_distance finds); size is that of the coordinates.
 *  - A vertex against the inside of an edge: the edge's normal, which is exactly the direction between
 *    them (a segment's towards the side the other core is on).
 *  - A vertex against a vertex: the direction between the closest points, good where it is more than
 *    rounding (every direction between the two vertices' normal cones separates them by about the
 *    distance, and it is the one).
 * A vertex within rounding of an edge's end may come out as either; the answer is then checked against
 * the face of either core that separates them best (c2d_best_face_normal), which is taken instead where
 * the supports along it are farther apart by more than rounding: a face beside a corner whose other
 * core turns away, or a direction that rounding put outside the cones, or none (closest points equal). */
static c2d_vec2 feature_normal(const c2d_core *a, const c2d_core *b, double size)
{
    c2d_feature_pair fp;
    c2d_vec2 pa, pb;
    c2d_core_distance_features(a, b, &pa, &pb, &fp);
    c2d_vec2 f = c2d_best_face_normal(a, b), n = v2_normalize_or(v2_sub(pb, pa), f);
    if (a->count == 1 && b->count == 1)
        return n;
    const c2d_core *vc = fp.vertex_in_b ? b : a, *ec = fp.vertex_in_b ? a : b;
    int ne = ec->count;
    c2d_vec2 e0 = ec->v[fp.edge], e = v2_sub(ec->v[(fp.edge + 1) % ne], e0);
    /* c2d_segment_closest's parameter: the same numbers say face or end as placed the closest point. */
    double len2 = v2_len2(e), t = len2 > 0 ? v2_dot(v2_sub(vc->v[fp.vertex], e0), e) / len2 : 0;
    if (t > 0 && t < 1) {
        c2d_vec2 m = ec->n[fp.edge];
        if (ne == 2) {
            /* Both sides of a segment are surface: the side where the other core lies more. */
            double lo = INFINITY, hi = -INFINITY;
            for (int i = 0; i < vc->count; i++) {
                double s = v2_dot(m, v2_sub(vc->v[i], e0));
                lo = fmin(lo, s);
                hi = fmax(hi, s);
            }
            if (-hi > lo)
                m = v2_neg(m);
        }
        n = fp.vertex_in_b ? m : v2_neg(m);
    }
    return support_gap(a, b, f) > support_gap(a, b, n) + 16 * DBL_EPSILON * size ? f : n;
}

c2d_status c2d_convex_distance(const c2d_shape *a, const c2d_shape *b, c2d_distance_result *out)
{
    /* In the pair's frame (see c2d_collide), then back into the world. */
    c2d_pair_frame f;
    c2d_status st = c2d_pair_frame_init(&f, a, b);
    if (st != C2D_OK)
        return st;
    /* The frame's shape first whichever order the arguments came in (see c2d_collide), so that
     * where the geometry ties both orders find the same features; turned round after. */
    const c2d_core *ka = f.swap ? &f.b : &f.a, *kb = f.swap ? &f.a : &f.b;
    c2d_distance_result r;
    memset(&r, 0, sizeof r);
    /* Cores apart (even with the radii overlapping): the closest features are exact. Cores that
     * cross or touch: the contact's deepest point and the minimum translation. pa is on ka's core,
     * pb on kb's, n from ka to kb. */
    c2d_vec2 pa, pb, n;
    double d;
    if (c2d_cores_apart(ka, kb, &pa, &pb, &d)) {
        n = v2_normalize_or(v2_sub(pb, pa), v2(0, 1));
        /* Nearly touching: the closest points' direction is rounding, their features are not. */
        double size = fabs(pa.x) + fabs(pa.y) + a->reach + b->reach;
        if (d <= C2D_FEATURE_NORMAL * size) {
            /* Unless the features point against the closest points by more than rounding: a sliver's
             * face may lie across them (its line stands up to its slack from where its points put
             * it), and the points, placed along the normal, would then stand d + radii apart. */
            c2d_vec2 fn = feature_normal(ka, kb, size);
            if (v2_dot(fn, v2_sub(pb, pa)) >= -64 * DBL_EPSILON * size)
                n = fn;
        }
    } else {
        c2d_contact c;
        c2d_collide_cores(ka, kb, &c);
        if (c.count > 0) {
            int k = (c.count == 2 && c.point_depths[1] > c.point_depths[0]) ? 1 : 0;
            r.distance = -c.depth;
            r.normal = f.swap ? v2_neg(c.normal) : c.normal;
            /* A's surface reaches depth/2 past the midpoint towards B, and B's towards A. */
            r.point_a = v2_mad(c.points[k], 0.5 * c.depth, r.normal);
            r.point_b = v2_mad(c.points[k], -0.5 * c.depth, r.normal);
            goto placed;
        }
        /* Touching within rounding, on the far side: the direction between the nearly coincident
         * closest points is noise, so their features say which way. */
        d = c2d_core_distance(ka, kb, &pa, &pb);
        n = feature_normal(ka, kb, fabs(pa.x) + fabs(pa.y) + a->reach + b->reach);
    }
    if (f.swap) {
        c2d_vec2 t = pa;
        pa = pb;
        pb = t;
        n = v2_neg(n);
    }
    r.distance = d - ka->radius - kb->radius; /* in the frame's order, so both orders round alike */
    r.normal = n;
    r.point_a = v2_mad(pa, a->radius, n);
    r.point_b = v2_mad(pb, -b->radius, n);
placed:
    c2d_pair_frame_free(&f);
    r.normal = c2d_rotate(f.frame, r.normal);
    r.point_a = c2d_xf_apply(f.frame, r.point_a);
    r.point_b = c2d_xf_apply(f.frame, r.point_b);
    *out = r;
    return C2D_OK;
}
