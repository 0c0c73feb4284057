/* query.c - questions about one shape and a point or a ray: containment, the nearest boundary point
 * with signed distance, and ray casts (Cyrus-Beck clipping for polygons; offset edges plus corner
 * circles for rounded cores, with the quadratic solved in its cancellation-free form). */
#include "shape.h"

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
        double t = v2_dot(ap, ab);
        *out = v2_cross(ab, ap) == 0 && t >= 0 && t <= v2_len2(ab);
        break;
    }
    default: { /* circle, capsule: within the radius of the core */
        c2d_vec2 q = core_closest(shape, p);
        *out = v2_len2(v2_sub(p, q)) <= shape->radius * shape->radius;
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
        double d = v2_len(off);
        /* On the core itself the way out is ambiguous; take the first edge's normal (or up). */
        c2d_vec2 dir = d > 0 ? v2_scale(off, 1.0 / d) : (shape->count >= 2 ? shape->normal[0] : v2(0, 1));
        q = v2_mad(c, shape->radius, dir);
        sd = d - shape->radius;
    }
    if (out_point)
        *out_point = q;
    if (out_distance)
        *out_distance = sd;
    return C2D_OK;
}

/* Ray o + t d against a circle (c, r): smallest t >= 0 on entry, or -1. o must be outside. */
static double ray_circle(c2d_vec2 o, c2d_vec2 d, c2d_vec2 c, double r)
{
    c2d_vec2 m = v2_sub(o, c);
    double a = v2_dot(d, d), b = v2_dot(m, d), k = v2_dot(m, m) - r * r;
    if (b >= 0)
        return -1; /* moving away (or tangent from outside) */
    double disc = b * b - a * k;
    if (disc < 0)
        return -1;
    /* t = (-b - sqrt(disc)) / a, rewritten as k / (-b + sqrt(disc)): no cancellation when b < 0. */
    double t = k / (-b + sqrt(disc));
    return t >= 0 ? t : 0;
}

/* Ray against the segment p-q, from the front side of normal n only (n.d < 0). */
static double ray_segment(c2d_vec2 o, c2d_vec2 d, c2d_vec2 p, c2d_vec2 q, c2d_vec2 n)
{
    double den = v2_dot(n, d);
    if (!(den < 0))
        return -1;
    double t = v2_dot(n, v2_sub(p, o)) / den;
    if (t < 0)
        return -1;
    c2d_vec2 hit = v2_mad(o, t, d), e = v2_sub(q, p);
    double u = v2_dot(v2_sub(hit, p), e);
    if (u < 0 || u > v2_len2(e))
        return -1;
    return t;
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
    c2d_vec2 unit = v2_normalize_or(direction, v2(1, 0));
    int inside = 0;
    if (shape->type != C2D_SHAPE_SEGMENT)
        c2d_contains_point(shape, origin, &inside);
    if (inside) {
        h.hit = 1;
        h.point = origin;
        h.normal = v2_neg(unit);
        *out = h;
        return C2D_OK;
    }
    double best = INFINITY;
    c2d_vec2 normal = v2(0, 0);
    if (shape->count >= 3 && shape->radius == 0) {
        /* Cyrus-Beck: the ray enters the convex polygon at the latest entering edge. */
        double enter = -INFINITY, leave = INFINITY;
        int edge = -1, miss = 0;
        for (int i = 0; i < shape->count && !miss; i++) {
            c2d_vec2 n = shape->normal[i];
            double num = v2_dot(n, v2_sub(shape->world[i], origin)), den = v2_dot(n, direction);
            if (den == 0) {
                miss = num < 0; /* parallel and outside this edge's line */
            } else if (den < 0) {
                double t = num / den;
                if (t > enter) {
                    enter = t;
                    edge = i;
                }
            } else {
                leave = fmin(leave, num / den);
            }
        }
        if (!miss && edge >= 0 && enter <= leave && leave >= 0) {
            best = enter > 0 ? enter : 0;
            normal = shape->normal[edge];
        }
    } else if (shape->type == C2D_SHAPE_SEGMENT) {
        c2d_vec2 a = shape->world[0], b = shape->world[1], e = v2_sub(b, a);
        double den = v2_cross(direction, e);
        c2d_vec2 ao = v2_sub(a, origin);
        if (den != 0) {
            double t = v2_cross(ao, e) / den, u = v2_cross(ao, direction) / den;
            if (t >= 0 && u >= 0 && u <= 1) {
                best = t;
                normal = den > 0 ? shape->normal[0] : shape->normal[1];
                /* The normal must face the ray. */
                if (v2_dot(normal, direction) > 0)
                    normal = v2_neg(normal);
            }
        } else if (v2_cross(ao, direction) == 0) {
            /* Collinear: the first end point the ray reaches, if any is ahead. */
            double dd = v2_dot(direction, direction);
            double ta = v2_dot(ao, direction) / dd, tb = v2_dot(v2_sub(b, origin), direction) / dd;
            double t = fmin(ta, tb) >= 0 ? fmin(ta, tb) : (fmax(ta, tb) >= 0 ? 0 : -1);
            if (t >= 0) {
                best = t;
                normal = v2_neg(unit);
            }
        }
    } else {
        /* Rounded core: the boundary is the core's edges pushed out by r, joined by corner arcs. */
        double r = shape->radius;
        for (int i = 0; i < shape->count; i++) {
            double t = ray_circle(origin, direction, shape->world[i], r);
            if (t >= 0 && t < best) {
                best = t;
                normal = v2_normalize_or(v2_sub(v2_mad(origin, t, direction), shape->world[i]), v2_neg(unit));
            }
        }
        for (int i = 0; i < c2d_edge_count(shape); i++) {
            c2d_vec2 n = shape->normal[i];
            c2d_vec2 p = v2_mad(shape->world[i], r, n), q = v2_mad(shape->world[(i + 1) % shape->count], r, n);
            double t = ray_segment(origin, direction, p, q, n);
            if (t >= 0 && t < best) {
                best = t;
                normal = n;
            }
        }
    }
    if (best <= max_t) {
        h.hit = 1;
        h.t = best;
        h.point = v2_mad(origin, best, direction);
        h.normal = normal;
    }
    *out = h;
    return C2D_OK;
}
