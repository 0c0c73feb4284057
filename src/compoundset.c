/* compoundset.c - another shape carried into a compound's frame, where the compound's own static set
 * answers for the union of its parts, and swept there against the set (which never stops at a seam).
 * Layer 5, compound shapes: the push-out of a carried shape (c2d_compound_union_push, compound.h), the
 * moves and contacts of compounds and their sweeps are built on these. */
#include "compound.h"
#include "sweep.h"

/* A copy of b placed in a's frame (its placement relative to a's), or NULL when out of memory. */
c2d_shape *c2d_compound_carry(const c2d_shape *a, const c2d_shape *b)
{
    c2d_shape *t;
    if (c2d_shape_clone(b, &t) != C2D_OK)
        return NULL;
    c2d_xf r = c2d_xf_relative(c2d_shape_xf(a), c2d_shape_xf(b));
    c2d_shape_place(t, r.p, b->angle - a->angle, r.c, r.s);
    return t;
}

/* The sweep of convex b (moving by db) against compound a (moving by da). */
c2d_status c2d_compound_convex_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db,
                                     c2d_toi *out)
{
    const c2d_compound *c = c2d_compound_of(a);
    c2d_shape *lb = c2d_compound_carry(a, b);
    if (!lb)
        return C2D_ERR_NO_MEMORY;
    c2d_xf x = c2d_shape_xf(a);
    c2d_vec2 rel = c2d_unrotate(x, v2_sub(db, da));
    c2d_toi t;
    int index;
    c2d_status st;
    double longest = fmax(fabs(rel.x), fabs(rel.y));
    if (longest <= C2D_MAX_COORDINATE) {
        st = c2d_static_set_sweep(c->set, lb, rel, &t, &index);
    } else {
        /* Each motion is within range, their difference may be twice that, and a pair's contact sweeps
         * parts back from farther still (clear_along, for shapes that reach the coordinate limit): the
         * set's sweep takes it in n equal pieces within range (the motion is straight, so each piece
         * starts where the one before ends). Two halves when the motion is at most twice the range. */
        int n = longest <= 2 * C2D_MAX_COORDINATE ? 2 : (int)ceil(longest / C2D_MAX_COORDINATE);
        c2d_vec2 piece = v2_scale(rel, 1.0 / n);
        st = c2d_static_set_sweep(c->set, lb, piece, &t, &index);
        if (st == C2D_OK && t.state == C2D_TOI_HIT)
            t.t /= n;
        for (int k = 1; k < n && st == C2D_OK && t.state == C2D_TOI_NONE; k++) {
            c2d_shape_place(lb, v2_add(lb->pos, piece), lb->angle, lb->c, lb->s);
            st = c2d_static_set_sweep(c->set, lb, piece, &t, &index);
            if (st == C2D_OK && t.state != C2D_TOI_NONE) {
                t.state = C2D_TOI_HIT; /* an overlap where a piece begins is met there */
                t.t = (k + t.t) / n;
                t.depth = 0;
            }
        }
    }
    c2d_shape_destroy(lb);
    if (st != C2D_OK)
        return st;
    if (t.state != C2D_TOI_NONE) {
        /* The set's normal runs from the mover (b) to the set: a's runs to b. The point moves with a. */
        t.normal = v2_neg(c2d_rotate(x, t.normal));
        t.point = v2_mad(c2d_xf_apply(x, t.point), t.t, da);
    }
    *out = t;
    return C2D_OK;
}
