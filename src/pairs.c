/* pairs.c - the public calls on one shape or a pair: c2d_overlap, c2d_collide, c2d_distance,
 * c2d_contains_point, c2d_closest_point, c2d_raycast, c2d_sweep and c2d_sweep_motion. Each checks its
 * arguments, then hands a chain or concave polygon to the compound files (layer 5: compoundcontact.c,
 * compoundsweep.c, compoundquery.c) and everything else to the convex kernels (collide.c, distance.c,
 * query.c, sweep.c, turnsweep.c). Layer 6: the kernels and the compounds never call these; a
 * compound's parts are convex and go to the kernels directly. */
#include "shape.h"
#include "turnsweep.h"

#include <string.h>

c2d_status c2d_overlap(const c2d_shape *a, const c2d_shape *b, int *out)
{
    if (!a || !b || !out)
        return C2D_ERR_NULL;
    if (c2d_is_compound(a) || c2d_is_compound(b))
        return c2d_compound_overlap(a, b, out);
    return c2d_convex_overlap(a, b, out);
}

c2d_status c2d_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    if (!a || !b || !out)
        return C2D_ERR_NULL;
    if (c2d_is_compound(a) || c2d_is_compound(b))
        return c2d_compound_collide(a, b, out);
    return c2d_convex_collide(a, b, out);
}

c2d_status c2d_distance(const c2d_shape *a, const c2d_shape *b, c2d_distance_result *out)
{
    if (!a || !b || !out)
        return C2D_ERR_NULL;
    if (c2d_is_compound(a) || c2d_is_compound(b))
        return c2d_compound_distance(a, b, out);
    return c2d_convex_distance(a, b, out);
}

c2d_status c2d_contains_point(const c2d_shape *shape, c2d_vec2 p, int *out)
{
    c2d_status st;
    if (!shape || !out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(p)) != C2D_OK)
        return st;
    if (c2d_is_compound(shape))
        return c2d_compound_contains(shape, p, out);
    return c2d_convex_contains_point(shape, p, out);
}

c2d_status c2d_closest_point(const c2d_shape *shape, c2d_vec2 p, c2d_vec2 *out_point, double *out_distance)
{
    c2d_status st;
    if (!shape || (!out_point && !out_distance))
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(p)) != C2D_OK)
        return st;
    if (c2d_is_compound(shape))
        return c2d_compound_closest(shape, p, out_point, out_distance);
    return c2d_convex_closest_point(shape, p, out_point, out_distance);
}

c2d_status c2d_raycast(const c2d_shape *shape, c2d_vec2 origin, c2d_vec2 direction, double max_t, c2d_ray_hit *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    /* One test for the usual case (NaN fails every comparison); the status only when it fails. */
    if (!(fabs(origin.x) <= C2D_MAX_COORDINATE && fabs(origin.y) <= C2D_MAX_COORDINATE &&
          fabs(direction.x) <= C2D_MAX_COORDINATE && fabs(direction.y) <= C2D_MAX_COORDINATE && max_t >= 0)) {
        c2d_status st;
        if ((st = c2d_check_vec(origin)) || (st = c2d_check_vec(direction)))
            return st;
        return isnan(max_t) ? C2D_ERR_NOT_FINITE : C2D_ERR_RANGE;
    }
    if (c2d_is_compound(shape)) {
        if (direction.x == 0 && direction.y == 0)
            return C2D_ERR_DEGENERATE;
        return c2d_compound_raycast(shape, origin, direction, max_t, out);
    }
    return c2d_convex_raycast(shape, origin, direction, max_t, out);
}

c2d_status c2d_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out)
{
    if (!a || !b || !out)
        return C2D_ERR_NULL;
    c2d_status st = c2d_check_vec(da);
    if (st == C2D_OK)
        st = c2d_check_vec(db);
    if (st != C2D_OK)
        return st;
    if (c2d_is_compound(a) || c2d_is_compound(b))
        return c2d_compound_sweep(a, da, b, db, out);
    return c2d_convex_sweep(a, da, b, db, out);
}

static int part_count(const c2d_shape *s)
{
    int n = 1;
    (void)c2d_shape_get_part_count(s, &n);
    return n;
}

static const c2d_shape *part_of(const c2d_shape *s, int k)
{
    return c2d_is_compound(s) ? c2d_compound_part(s, k) : s;
}

c2d_status c2d_sweep_motion(const c2d_shape *a, const c2d_motion *ma, const c2d_shape *b, const c2d_motion *mb,
                            c2d_toi *out)
{
    if (!a || !b || !out)
        return C2D_ERR_NULL;
    c2d_rigid ra, rb;
    c2d_status st = c2d_rigid_of_motion(a, ma, &ra);
    if (st == C2D_OK)
        st = c2d_rigid_of_motion(b, mb, &rb);
    if (st != C2D_OK)
        return st;
    if (ra.w == 0 && rb.w == 0)
        return c2d_sweep(a, ra.v, b, rb.v, out);
    c2d_toi still;
    if ((st = c2d_sweep(a, v2(0, 0), b, v2(0, 0), &still)) != C2D_OK)
        return st;
    if (still.state == C2D_TOI_OVERLAP) {
        *out = still;
        return C2D_OK;
    }
    /* The earliest contact of any part of A with any part of B: they all move as their shape does. */
    double tol = c2d_rigid_sweep_tolerance(a, &ra, b, &rb);
    c2d_toi best;
    memset(&best, 0, sizeof best);
    best.state = C2D_TOI_NONE;
    best.t = 1;
    for (int i = 0, na = part_count(a); i < na; i++)
        for (int j = 0, nb = part_count(b); j < nb; j++) {
            c2d_toi t;
            if ((st = c2d_convex_sweep_rigid(part_of(a, i), &ra, part_of(b, j), &rb, tol, &t)) != C2D_OK)
                return st;
            if (t.state == C2D_TOI_HIT && (best.state == C2D_TOI_NONE || t.t < best.t))
                best = t;
        }
    *out = best;
    return C2D_OK;
}
