/* compoundsweep.c - the sweep of a compound against a convex shape or another compound, and for
 * shapes that overlap at the start, the whole shape's contact in place of the deepest part's. Layer 5,
 * compound shapes. */
#include "compound.h"

#include <string.h>

/* The sweep of compound a against b, and for shapes that overlap at the start, their contact: the
 * set sweeps behind it report the deepest part's overlap, where the promise is the whole shape's
 * (moving B by depth * normal separates them). */
static c2d_status compound_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out);

c2d_status c2d_compound_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out)
{
    c2d_status st = compound_sweep(a, da, b, db, out);
    if (st != C2D_OK || out->state != C2D_TOI_OVERLAP)
        return st;
    c2d_contact c;
    if ((st = c2d_compound_collide(a, b, &c)) != C2D_OK)
        return st;
    /* The parts' sweep found one deeper than touching, so the whole shape's contact has a depth: a
     * part's push out of the other shape's set decides touching as the set's sweep does, at a
     * tolerance no larger (the sweep's scale takes in the motion too), and a pair's contact is no
     * shorter than its deepest pair of parts. (It once kept the parts' answer where the whole-shape
     * push came out 0: push-out called exits up to 4 tolerances deep free.) */
    if (c.count > 0) {
        int deepest = c.count > 1 && c.point_depths[1] > c.point_depths[0];
        out->normal = c.normal;
        out->depth = c.depth;
        out->point = c.points[deepest];
    }
    return C2D_OK;
}

static c2d_status compound_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out)
{
    if (!c2d_is_compound(a)) {
        c2d_status st = compound_sweep(b, db, a, da, out);
        if (st == C2D_OK && out->state != C2D_TOI_NONE)
            out->normal = v2_neg(out->normal);
        return st;
    }
    if (!c2d_is_compound(b))
        return c2d_compound_convex_sweep(a, da, b, db, out);
    /* Two compounds: the earliest of b's parts (an overlap first, the deepest of those). */
    const c2d_compound *cb = c2d_compound_of(b);
    c2d_toi best;
    memset(&best, 0, sizeof best);
    best.t = 1;
    for (int k = 0; k < cb->n; k++) {
        c2d_toi t;
        c2d_status st = c2d_compound_convex_sweep(a, da, cb->part[k], db, &t);
        if (st != C2D_OK)
            return st;
        int better = best.state == C2D_TOI_NONE ? t.state != C2D_TOI_NONE
                     : t.state == C2D_TOI_OVERLAP ? best.state != C2D_TOI_OVERLAP || t.depth > best.depth
                                                  : best.state == C2D_TOI_HIT && t.state == C2D_TOI_HIT && t.t < best.t;
        if (better)
            best = t;
    }
    /* Each part of b alone may only touch a: a segment of a through a joint of b touches the two
     * parts of b that meet there, each at its end, while it crosses b. a's parts against the whole of
     * b (its joints seams) see that crossing; they decide only whether the two overlap at the start
     * (the time of a hit is b's parts' answer, as it always was). */
    if (best.state != C2D_TOI_OVERLAP) {
        const c2d_compound *ca = c2d_compound_of(a);
        for (int k = 0; k < ca->n; k++) {
            c2d_toi t;
            c2d_status st = c2d_compound_convex_sweep(b, db, ca->part[k], da, &t);
            if (st != C2D_OK)
                return st;
            if (t.state == C2D_TOI_OVERLAP && (best.state != C2D_TOI_OVERLAP || t.depth > best.depth)) {
                best = t;
                best.normal = v2_neg(t.normal);
            }
        }
    }
    *out = best;
    return C2D_OK;
}
