/* query.c - questions about one shape and a point or a ray: containment, the nearest boundary point
 * with signed distance, and ray casts (Cyrus-Beck clipping for polygons; offset edges plus corner
 * circles for rounded cores, with the quadratic solved in its cancellation-free form). */
#include "shape.h"

#include <float.h>
#include <string.h>

/* Greatest signed distance of p from the edge lines of a polygon core (<= 0 inside). */
static double polygon_separation(const c2d_shape *s, c2d_vec2 p, int *edge)
{
    double best = -INFINITY;
    *edge = 0;
    for (int i = 0; i < s->count; i++) {
        double d = v2_dot(s->normal[i], v2_sub(p, s->world[i]));
        if (d > best) {
            best = d;
            *edge = i;
        }
    }
    return best;
}

/* Nearest point of the core's boundary to p (for a polygon core, p must be outside). */
static c2d_vec2 core_closest(const c2d_shape *s, c2d_vec2 p)
{
    if (s->count == 1)
        return s->world[0];
    if (s->count == 2)
        return c2d_closest_on_segment(s->world[0], s->world[1], p);
    c2d_vec2 best = s->world[0];
    double best_d2 = INFINITY;
    for (int i = 0; i < s->count; i++) {
        c2d_vec2 q = c2d_closest_on_segment(s->world[i], s->world[(i + 1) % s->count], p);
        double d2 = v2_len2(v2_sub(p, q));
        if (d2 < best_d2) {
            best_d2 = d2;
            best = q;
        }
    }
    return best;
}

/* Whether p lies between the lines square to a 2-vertex core through its ends (measured along the
 * unit direction of the core, so that nothing underflows for a short core). */
static int in_segment_slab(const c2d_shape *s, c2d_vec2 p)
{
    c2d_vec2 u = v2(-s->normal[0].y, s->normal[0].x);
    double along = v2_dot(v2_sub(p, s->world[0]), u), len = v2_dot(v2_sub(s->world[1], s->world[0]), u);
    return along >= 0 && along <= len;
}

c2d_status c2d_contains_point(const c2d_shape *shape, c2d_vec2 p, int *out)
{
    c2d_status st;
    if (!shape || !out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(p)) != C2D_OK)
        return st;
    int e;
    switch (shape->type) {
    case C2D_SHAPE_RECT: {
        c2d_vec2 d = v2_sub(p, shape->pos);
        double lx = shape->cos_a * d.x + shape->sin_a * d.y, ly = -shape->sin_a * d.x + shape->cos_a * d.y;
        *out = fabs(lx) <= shape->hx && fabs(ly) <= shape->hy;
        break;
    }
    case C2D_SHAPE_POLYGON:
        *out = polygon_separation(shape, p, &e) <= 0;
        break;
    case C2D_SHAPE_SEGMENT: {
        /* Exactly on the segment: collinear and between the end points. */
        c2d_vec2 a = shape->world[0], ab = v2_sub(shape->world[1], a), ap = v2_sub(p, a);
        double t = v2_dot(ap, ab), l2 = v2_len2(ab);
        if (!(l2 >= DBL_MIN)) {
            /* So short that products with it underflow (cross and dot would be 0 for any point):
             * across and along its unit direction, from its exact normal, instead. */
            c2d_vec2 n = shape->normal[0], u = v2(-n.y, n.x);
            double s1 = v2_dot(ab, u), sp = v2_dot(ap, u);
            *out = v2_dot(ap, n) == 0 && sp >= fmin(0.0, s1) && sp <= fmax(0.0, s1);
            break;
        }
        *out = v2_cross(ab, ap) == 0 && t >= 0 && t <= l2;
        break;
    }
    default: { /* circle, capsule: within the radius of the core */
        if (shape->count == 2 && in_segment_slab(shape, p)) {
            /* Beside a capsule's core: the distance square to it, which (unlike the distance to the
             * projected point) does not carry the rounding along a long core. */
            *out = fabs(v2_dot(v2_sub(p, shape->world[0]), shape->normal[0])) <= shape->radius;
            break;
        }
        c2d_vec2 q = core_closest(shape, p);
        *out = v2_within(v2_sub(p, q), shape->radius);
        break;
    }
    }
    return C2D_OK;
}

c2d_status c2d_closest_point(const c2d_shape *shape, c2d_vec2 p, c2d_vec2 *out_point, double *out_distance)
{
    c2d_status st;
    if (!shape || (!out_point && !out_distance))
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(p)) != C2D_OK)
        return st;
    c2d_vec2 q;
    double sd;
    int e;
    if (shape->count >= 3 && polygon_separation(shape, p, &e) <= 0) {
        /* Inside a polygon: leave through the nearest edge line. */
        double s = polygon_separation(shape, p, &e);
        q = v2_mad(p, -s, shape->normal[e]);
        sd = s;
    } else {
        c2d_vec2 c = core_closest(shape, p);
        c2d_vec2 off = v2_sub(p, c);
        double d = v2_len_safe(off);
        /* On the core itself the way out is ambiguous; take the first edge's normal (or up). */
        c2d_vec2 dir = v2_normalize_or(off, shape->count >= 2 ? shape->normal[0] : v2(0, 1));
        if (shape->count == 2 && (((c.x != shape->world[0].x || c.y != shape->world[0].y) &&
                                   (c.x != shape->world[1].x || c.y != shape->world[1].y)) ||
                                  in_segment_slab(shape, p))) {
            /* Nearest to the inside of a segment core: the way out is exactly square to it, whatever
             * the rounding of the projection left along it (the projection may even land on an end
             * for a point just inside the slab, and p - end then runs along the core). */
            dir = v2_dot(off, shape->normal[0]) >= 0 ? shape->normal[0] : v2_neg(shape->normal[0]);
            d = fabs(v2_dot(off, shape->normal[0]));
        }
        q = v2_mad(c, shape->radius, dir);
        sd = d - shape->radius;
    }
    if (out_point)
        *out_point = q;
    if (out_distance)
        *out_distance = sd;
    return C2D_OK;
}

/* Ray o + s u (u a unit vector, s a distance) against a circle (c, r): the smallest s >= 0 on entry,
 * or -1; *n gets the surface normal there. o must be outside. Solved from the point of closest
 * approach (Haines et al., "Precision improvements for ray/sphere intersection"): the offset p of the
 * centre from the ray is exact to rounding even far away, where b*b - |m|^2 + r^2 would cancel. */
static double ray_circle(c2d_vec2 o, c2d_vec2 u, c2d_vec2 c, double r, c2d_vec2 *n)
{
    c2d_vec2 m = v2_sub(o, c);
    double b = v2_dot(m, u);
    if (b >= 0)
        return -1; /* moving away (or tangent from outside) */
    c2d_vec2 p = v2_mad(m, -b, u);
    /* Far away, b * u rounds by more than a small circle's size and leaves p a part along u; taken
     * out, the normal below always faces the ray. */
    p = v2_mad(p, -v2_dot(p, u), u);
    double h2 = r * r - v2_dot(p, p);
    if (h2 < 0)
        return -1;
    double h = sqrt(h2), s = -b - h;
    /* Hit point minus centre is p - h u: perpendicular part plus a part against the ray, so the
     * normal always faces the ray. */
    *n = v2_normalize_or(v2_mad(p, -h, u), v2_neg(u));
    return s >= 0 ? s : 0;
}

/* Ray o + s u against the segment p-q, from the front side of normal n only (n.u < 0). */
static double ray_segment(c2d_vec2 o, c2d_vec2 u, c2d_vec2 p, c2d_vec2 q, c2d_vec2 n)
{
    double den = v2_dot(n, u);
    if (!(den < 0))
        return -1;
    double s = v2_dot(n, v2_sub(p, o)) / den;
    if (s < 0)
        return -1;
    /* Along the edge's unit direction (square to n): with q - p itself, a core edge shorter than
     * about 1e-154 has products that underflow to 0 and would accept a hit anywhere on its line. */
    c2d_vec2 hit = v2_mad(o, s, u), t = v2(-n.y, n.x);
    double w = v2_dot(v2_sub(hit, p), t);
    if (w < 0 || w > v2_dot(v2_sub(q, p), t))
        return -1;
    return s;
}

c2d_status c2d_raycast(const c2d_shape *shape, c2d_vec2 origin, c2d_vec2 direction, double max_t, c2d_ray_hit *out)
{
    c2d_status st;
    if (!shape || !out)
        return C2D_ERR_NULL;
    if ((st = c2d_check_vec(origin)) || (st = c2d_check_vec(direction)))
        return st;
    if (isnan(max_t))
        return C2D_ERR_NOT_FINITE;
    if (max_t < 0)
        return C2D_ERR_RANGE;
    if (direction.x == 0 && direction.y == 0)
        return C2D_ERR_DEGENERATE;
    c2d_ray_hit h;
    memset(&h, 0, sizeof h);
    /* Everything below works in distance s along the unit direction u, so a huge or tiny direction
     * vector changes nothing but the final t = s / |direction|. */
    double len = v2_len_safe(direction);
    c2d_vec2 u = v2_normalize_or(direction, v2(1, 0));
    int inside = 0;
    if (shape->type != C2D_SHAPE_SEGMENT)
        c2d_contains_point(shape, origin, &inside);
    if (inside) {
        h.hit = 1;
        h.point = origin;
        h.normal = v2_neg(u);
        *out = h;
        return C2D_OK;
    }
    double best = INFINITY;
    c2d_vec2 normal = v2(0, 0);
    if (shape->count >= 3 && shape->radius == 0) {
        /* Cyrus-Beck: the ray enters the convex polygon at the latest entering edge. */
        double enter = -INFINITY, leave = INFINITY, slack_enter = 0, slack_leave = 0;
        int edge = -1, miss = 0;
        for (int i = 0; i < shape->count && !miss; i++) {
            c2d_vec2 n = shape->normal[i], w = shape->world[i], dw = v2_sub(w, origin);
            double num = v2_dot(n, dw), den = v2_dot(n, u);
            /* How far rounding may have moved this crossing along the ray: the placed vertex is
             * rounded to its own magnitude, the product to the size of its terms. */
            double err = 4 * DBL_EPSILON * (fabs(w.x) + fabs(w.y) + fabs(n.x * dw.x) + fabs(n.y * dw.y));
            if (den == 0) {
                miss = num < 0; /* parallel and outside this edge's line */
            } else if (fabs(num) <= err && fabs(den) <= 1e-12) {
                /* Along the edge's line up to rounding (an edge turned by a denormal angle): its
                 * crossing, num / den, would be rounding divided by almost nothing. */
            } else if (den < 0) {
                double s = num / den;
                if (s > enter) {
                    enter = s;
                    edge = i;
                    slack_enter = err / -den;
                }
            } else if (num / den < leave) {
                leave = num / den;
                slack_leave = err / den;
            }
        }
        /* A polygon thinner than the spacing of doubles at its coordinates (a thin rectangle far
         * out) has opposite edges on one line up to rounding: entry and exit then coincide only to
         * within that rounding. */
        if (!miss && edge >= 0 && enter <= leave + slack_enter + slack_leave && leave >= -slack_leave) {
            best = enter > 0 ? enter : 0;
            normal = shape->normal[edge];
            if (slack_enter + slack_leave > 64 * DBL_EPSILON * (1 + best)) {
                /* A crossing of an edge nearly parallel to the ray is rounding over almost nothing,
                 * and may lie anywhere within its slack (a ray 1e15 long grazing a polygon 1e-9
                 * wide put its hit 2.8e6 beyond it); but the ray meets the polygon only between the
                 * polygon's extremes along it, which are exact to the vertices' rounding. */
                double lo = INFINITY, hi = -INFINITY;
                for (int i = 0; i < shape->count; i++) {
                    double a = v2_dot(v2_sub(shape->world[i], origin), u);
                    lo = a < lo ? a : lo;
                    hi = a > hi ? a : hi;
                }
                best = best > hi ? hi : (best < lo && lo > 0 ? lo : best);
            }
        }
    } else if (shape->type == C2D_SHAPE_SEGMENT) {
        c2d_vec2 a = shape->world[0], b = shape->world[1], e = v2_sub(b, a);
        double den = v2_cross(u, e);
        c2d_vec2 ao = v2_sub(a, origin);
        int collinear = den == 0 && v2_cross(ao, u) == 0;
        if (den != 0) {
            double s = v2_cross(ao, e) / den, w = v2_cross(ao, u) / den;
            if (s >= 0 && w >= 0 && w <= 1) {
                /* A ray collinear with the segment up to rounding gives crossings that are all
                 * cancellation: the point must really be on the segment, else it is collinear. */
                c2d_vec2 hp = v2_mad(origin, s, u);
                double tol = 4 * DBL_EPSILON * (fabs(origin.x) + fabs(origin.y) + fabs(a.x) + fabs(a.y) + fabs(b.x) +
                                                fabs(b.y));
                if (hp.x < fmin(a.x, b.x) - tol || hp.x > fmax(a.x, b.x) + tol || hp.y < fmin(a.y, b.y) - tol ||
                    hp.y > fmax(a.y, b.y) + tol) {
                    collinear = 1;
                } else {
                    best = s;
                    normal = den > 0 ? shape->normal[0] : shape->normal[1];
                    /* The normal must face the ray. */
                    if (v2_dot(normal, u) > 0)
                        normal = v2_neg(normal);
                }
            }
        }
        if (collinear) {
            /* Collinear: the first end point the ray reaches, if any is ahead. */
            double sa = v2_dot(ao, u), sb = v2_dot(v2_sub(b, origin), u);
            double s = fmin(sa, sb) >= 0 ? fmin(sa, sb) : (fmax(sa, sb) >= 0 ? 0 : -1);
            if (s >= 0) {
                best = s;
                normal = v2_neg(u);
            }
        }
    } else {
        /* Rounded core: the boundary is the core's edges pushed out by r, joined by corner arcs. */
        double r = shape->radius;
        for (int i = 0; i < shape->count; i++) {
            c2d_vec2 n;
            double s = ray_circle(origin, u, shape->world[i], r, &n);
            if (s >= 0 && s < best) {
                best = s;
                normal = n;
            }
        }
        for (int i = 0; i < c2d_edge_count(shape); i++) {
            c2d_vec2 n = shape->normal[i];
            c2d_vec2 p = v2_mad(shape->world[i], r, n), q = v2_mad(shape->world[(i + 1) % shape->count], r, n);
            double s = ray_segment(origin, u, p, q, n);
            if (s >= 0 && s < best) {
                best = s;
                normal = n;
            }
        }
    }
    /* A hit so far away that t leaves double range is no hit that can be reported. */
    double t = best / len;
    if (isfinite(t) && t <= max_t) {
        h.hit = 1;
        h.t = t;
        h.point = v2_mad(origin, best, u);
        h.normal = normal;
    }
    *out = h;
    return C2D_OK;
}
