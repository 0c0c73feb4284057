/* pairs.c - the public calls on one shape or a pair: c2d_overlap, c2d_collide, c2d_distance,
 * c2d_contains_point, c2d_closest_point, c2d_raycast and c2d_sweep. Each checks its arguments, then
 * hands a chain or concave polygon to the compound files (layer 5: compoundcontact.c, compoundsweep.c,
 * compoundquery.c) and everything else to the convex kernels (collide.c, distance.c, query.c,
 * sweep.c). Layer 6: the kernels and the compounds never call these; a compound's parts are convex and
 * go to the kernels directly. */
#include "shape.h"

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
