/* compoundquery.c - the questions a compound answers as the union of its parts' answers: overlap,
 * containment of a point, the closest point (from inside, of the edges that are no seam), ray casts,
 * and the distance between shapes apart (between overlapping ones, from their contact). Layer 5,
 * compound shapes. */
#include "compound.h"
#include "sweep.h"

#include <string.h>

c2d_status c2d_compound_overlap(const c2d_shape *a, const c2d_shape *b, int *out)
{
    const c2d_shape *s = c2d_is_compound(a) ? a : b, *o = s == a ? b : a;
    const c2d_compound *c = c2d_compound_of(s);
    *out = 0;
    for (int k = 0; k < c->n && !*out; k++) {
        int hit = 0;
        /* o may be a compound itself: then each of its parts against this part. */
        c2d_status st = c2d_is_compound(o) ? c2d_compound_overlap(o, c->part[k], &hit)
                                           : c2d_convex_overlap(c->part[k], o, &hit);
        if (st != C2D_OK)
            return st;
        *out = hit;
    }
    return C2D_OK;
}

/* How far apart the placed parts of s may stand along an edge they share: each is placed on its own,
 * so a point exactly on the joint may fall a rounding error outside both. */
static double joint_slack(const c2d_shape *s)
{
    return 1e-15 * (1.0 + fmax(fabs(s->pos.x), fabs(s->pos.y)) + s->reach);
}

c2d_status c2d_compound_contains(const c2d_shape *s, c2d_vec2 p, int *out)
{
    const c2d_compound *c = c2d_compound_of(s);
    *out = 0;
    for (int k = 0; k < c->n && !*out; k++)
        c2d_convex_contains_point(c->part[k], p, out);
    if (*out || s->type == C2D_SHAPE_CHAIN)
        return C2D_OK;
    /* In the rounding gap of a joint (or that close to the outline, which counts as on it). */
    double slack = joint_slack(s);
    for (int k = 0; k < c->n && !*out; k++) {
        double d;
        c2d_convex_closest_point(c->part[k], p, NULL, &d);
        *out = d <= slack;
    }
    return C2D_OK;
}

c2d_status c2d_compound_raycast(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t, c2d_ray_hit *out)
{
    const c2d_compound *c = c2d_compound_of(s);
    c2d_ray_hit best;
    memset(&best, 0, sizeof best);
    int inside = 0;
    if (s->type == C2D_SHAPE_CONCAVE)
        c2d_compound_contains(s, o, &inside);
    if (inside) {
        /* Starting inside (also on a joint, between two parts' rounding): a hit at 0, facing back. */
        best.hit = 1;
        best.point = o;
        best.normal = v2_neg(v2_normalize_or(d, v2(1, 0)));
        *out = best;
        return C2D_OK;
    }
    for (int k = 0; k < c->n; k++) {
        c2d_ray_hit h;
        c2d_status st = c2d_convex_raycast(c->part[k], o, d, max_t, &h);
        if (st != C2D_OK)
            return st;
        if (h.hit && (!best.hit || h.t < best.t))
            best = h;
    }
    *out = best;
    return C2D_OK;
}

c2d_status c2d_compound_closest(const c2d_shape *s, c2d_vec2 p, c2d_vec2 *out_point, double *out_distance)
{
    const c2d_compound *c = c2d_compound_of(s);
    int inside = 0;
    c2d_compound_contains(s, p, &inside);
    c2d_vec2 best_q = p;
    double best = INFINITY;
    if (!inside || s->type == C2D_SHAPE_CHAIN) {
        /* Outside the union its nearest point is the nearest of any part's. */
        for (int k = 0; k < c->n; k++) {
            c2d_vec2 q;
            double dist;
            c2d_convex_closest_point(c->part[k], p, &q, &dist);
            if (dist < best) {
                best = dist;
                best_q = q;
            }
        }
    } else {
        /* Inside, the nearest point of the union's boundary: of the outline's and the holes' edges, in
         * the compound's frame. Not of the parts' edges that are no seam: a part's edge may be a
         * joint along one stretch and surface along the rest (see hole_pt in parts.h). */
        c2d_xf x = c2d_shape_xf(s);
        c2d_vec2 lp = c2d_xf_local(x, p);
        for (int r = -1; r < c->n_holes; r++) {
            const c2d_vec2 *v = r < 0 ? s->data : c->hole_pt + c->hole_start[r];
            int m = r < 0 ? s->count : c->hole_start[r + 1] - c->hole_start[r];
            for (int i = 0; i < m; i++) {
                c2d_vec2 q = c2d_segment_closest(v[i], v[i + 1 < m ? i + 1 : 0], lp);
                double dist = v2_len_safe(v2_sub(q, lp));
                if (dist < best) {
                    best = dist;
                    best_q = q;
                }
            }
        }
        best_q = c2d_xf_apply(x, best_q);
        best = -best;
    }
    if (out_point)
        *out_point = best_q;
    if (out_distance)
        *out_distance = best;
    return C2D_OK;
}

c2d_status c2d_compound_distance(const c2d_shape *a, const c2d_shape *b, c2d_distance_result *out)
{
    if (c2d_is_compound(a) && c2d_is_compound(b) && c2d_compound_second_first(a, b)) {
        /* Two compounds in their fixed order, as their contact is: the same both ways round. */
        c2d_status st = c2d_compound_distance(b, a, out);
        if (st == C2D_OK) {
            c2d_vec2 p = out->point_a;
            out->point_a = out->point_b;
            out->point_b = p;
            out->normal = v2_neg(out->normal);
        }
        return st;
    }
    int hit = 0;
    c2d_status st = c2d_compound_overlap(a, b, &hit);
    if (st != C2D_OK)
        return st;
    if (hit) {
        c2d_contact c;
        if ((st = c2d_compound_collide(a, b, &c)) != C2D_OK)
            return st;
        out->distance = -c.depth;
        out->normal = c.count > 0 ? c.normal : v2(0, 1);
        c2d_vec2 mid = c.count > 0 ? c.points[0] : a->pos;
        out->point_a = v2_mad(mid, 0.5 * c.depth, out->normal);
        out->point_b = v2_mad(mid, -0.5 * c.depth, out->normal);
        return C2D_OK;
    }
    /* Apart: the nearest pair of parts. */
    const c2d_shape *const *pa = &a, *const *pb = &b;
    int na = 1, nb = 1;
    if (c2d_is_compound(a)) {
        pa = (const c2d_shape *const *)c2d_compound_of(a)->part;
        na = c2d_compound_of(a)->n;
    }
    if (c2d_is_compound(b)) {
        pb = (const c2d_shape *const *)c2d_compound_of(b)->part;
        nb = c2d_compound_of(b)->n;
    }
    int found = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            c2d_distance_result r;
            if ((st = c2d_convex_distance(pa[i], pb[j], &r)) != C2D_OK)
                return st;
            if (!found || r.distance < out->distance) {
                *out = r;
                found = 1;
            }
        }
    return C2D_OK;
}
