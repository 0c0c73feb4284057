/* test_queries.c - point and ray queries on one shape, for every kind: contains_point and closest_point
 * against the oracle's point signed distance, raycast against a bisection oracle that walks the ray on
 * that same signed distance. Exact cases first (hand-computed), then 100,000 random queries per kind.
 */
#include "test.h"
#include "testutil.h"

#include <stdio.h>

/* See test_properties.c: 1e-9 of the scene size separates "touching" from a real answer. */
#define REL_TOL 1e-9

#define CHECK(cond, ...)                                                            \
    do {                                                                            \
        if (!(cond)) {                                                              \
            c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
            tu_print_geom("shape", g);                                                          \
            return 0;                                                               \
        }                                                                           \
    } while (0)

/* ---- exact cases ------------------------------------------------------------------------------- */

TEST(contains_point_counts_the_boundary_of_every_kind)
{
    c2d_shape *s;
    int in = -1;
    ENSURE_OK(c2d_circle_new(0, 0, 5, &s));
    ENSURE_OK(c2d_contains_point(s, tu_v(3, 4), &in)); /* exactly on the circle */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(3, 4.000001), &in));
    ENSURE(in == 0);
    c2d_shape_destroy(s);
    ENSURE_OK(c2d_rect_new(0, 0, 4, 2, 0, &s));
    ENSURE_OK(c2d_contains_point(s, tu_v(2, 1), &in)); /* a corner */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(0, -1), &in)); /* a face */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(2.0000001, 0), &in));
    ENSURE(in == 0);
    c2d_shape_destroy(s);
    /* A right triangle: its vertices and points on its edges are exact in binary. */
    c2d_vec2 tri[3];
    tri[0] = tu_v(0, 0), tri[1] = tu_v(4, 0), tri[2] = tu_v(0, 4);
    ENSURE_OK(c2d_polygon_new(tri, 3, &s));
    ENSURE_OK(c2d_contains_point(s, tu_v(1, 0), &in)); /* on the bottom edge */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(2, 2), &in)); /* on the hypotenuse x + y = 4 */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(0, 0), &in)); /* a vertex */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(2, 2.000001), &in));
    ENSURE(in == 0);
    c2d_shape_destroy(s);
    ENSURE_OK(c2d_capsule_new(tu_v(0, 0), tu_v(4, 0), 5, &s));
    ENSURE_OK(c2d_contains_point(s, tu_v(7, 4), &in)); /* 3-4-5 from the end point (4,0) */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(2, -5), &in)); /* on the flat side */
    ENSURE(in == 1);
    c2d_shape_destroy(s);
    ENSURE_OK(c2d_segment_new(tu_v(0, 0), tu_v(4, 2), &s));
    ENSURE_OK(c2d_contains_point(s, tu_v(2, 1), &in)); /* the midpoint */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(4, 2), &in)); /* an end */
    ENSURE(in == 1);
    ENSURE_OK(c2d_contains_point(s, tu_v(2, 1.001), &in)); /* a segment has no inside */
    ENSURE(in == 0);
    ENSURE_OK(c2d_contains_point(s, tu_v(6, 3), &in)); /* on the line, past the end */
    ENSURE(in == 0);
    c2d_shape_destroy(s);
}

TEST(closest_point_is_signed_negative_inside)
{
    c2d_shape *s;
    c2d_vec2 q;
    double d;
    ENSURE_OK(c2d_rect_new(0, 0, 4, 2, 0, &s));
    ENSURE_OK(c2d_closest_point(s, tu_v(0.5, 0.25), &q, &d)); /* nearest face: top, 0.75 away */
    ENSURE(d == -0.75 && q.x == 0.5 && q.y == 1);
    ENSURE_OK(c2d_closest_point(s, tu_v(5, 5), &q, &d)); /* corner region: 3-4-5 to (2,1) */
    ENSURE(d == 5 && q.x == 2 && q.y == 1);
    ENSURE_OK(c2d_closest_point(s, tu_v(5, 5), NULL, &d));
    ENSURE(d == 5);
    ENSURE_OK(c2d_closest_point(s, tu_v(5, 5), &q, NULL));
    ENSURE(q.x == 2 && q.y == 1);
    c2d_shape_destroy(s);
    ENSURE_OK(c2d_circle_new(1, 1, 2, &s));
    ENSURE_OK(c2d_closest_point(s, tu_v(4, 5), &q, &d)); /* 5 from the centre */
    ENSURE_NEAR(d, 3, 1e-15);
    ENSURE_NEAR(q.x, 1 + 2 * 0.6, 1e-15);
    ENSURE_NEAR(q.y, 1 + 2 * 0.8, 1e-15);
    c2d_shape_destroy(s);
    ENSURE_OK(c2d_segment_new(tu_v(0, 0), tu_v(4, 0), &s));
    ENSURE_OK(c2d_closest_point(s, tu_v(1, -3), &q, &d));
    ENSURE(d == 3 && q.x == 1 && q.y == 0);
    c2d_shape_destroy(s);
}

TEST(raycast_hits_faces_corners_and_starts_inside)
{
    c2d_shape *s;
    c2d_ray_hit h;
    ENSURE_OK(c2d_rect_new(0, 0, 4, 2, 0, &s));
    /* From the left, a non-unit direction: t is in units of the direction. */
    ENSURE_OK(c2d_raycast(s, tu_v(-6, 0.5), tu_v(2, 0), INFINITY, &h));
    ENSURE(h.hit == 1 && h.t == 2 && h.point.x == -2 && h.point.y == 0.5);
    ENSURE(h.normal.x == -1 && h.normal.y == 0);
    /* Too short. */
    ENSURE_OK(c2d_raycast(s, tu_v(-6, 0.5), tu_v(2, 0), 1.5, &h));
    ENSURE(h.hit == 0 && h.t == 0 && h.point.x == 0 && h.normal.x == 0);
    /* From inside: t = 0, normal against the direction. */
    ENSURE_OK(c2d_raycast(s, tu_v(0, 0), tu_v(0, 3), 1, &h));
    ENSURE(h.hit == 1 && h.t == 0 && h.point.x == 0 && h.point.y == 0);
    ENSURE(h.normal.x == 0 && h.normal.y == -1);
    /* Missing by a hair above the top face. */
    ENSURE_OK(c2d_raycast(s, tu_v(-6, 1.000001), tu_v(1, 0), 100, &h));
    ENSURE(h.hit == 0);
    c2d_shape_destroy(s);
    ENSURE_OK(c2d_circle_new(0, 0, 5, &s));
    ENSURE_OK(c2d_raycast(s, tu_v(-10, 3), tu_v(1, 0), INFINITY, &h)); /* meets (-4, 3) */
    ENSURE(h.hit == 1);
    ENSURE_NEAR(h.t, 6, 1e-14);
    ENSURE_NEAR(h.normal.x, -0.8, 1e-15);
    ENSURE_NEAR(h.normal.y, 0.6, 1e-15);
    c2d_shape_destroy(s);
    ENSURE_OK(c2d_segment_new(tu_v(0, -1), tu_v(0, 1), &s));
    ENSURE_OK(c2d_raycast(s, tu_v(3, 0.5), tu_v(-1, 0), INFINITY, &h)); /* from the right */
    ENSURE(h.hit == 1 && h.t == 3 && h.normal.x == 1 && h.normal.y == 0);
    ENSURE_OK(c2d_raycast(s, tu_v(-3, 0.5), tu_v(1, 0), INFINITY, &h)); /* from the left */
    ENSURE(h.hit == 1 && h.t == 3 && h.normal.x == -1 && h.normal.y == 0);
    c2d_shape_destroy(s);
}

TEST(raycast_unbounded_ray_that_misses_reports_no_hit)
{
    /* max_t = +infinity is allowed; a miss must still be a miss (not a hit at t = infinity). */
    c2d_shape *s;
    c2d_ray_hit h;
    ENSURE_OK(c2d_rect_new(0, 0, 4, 2, 0, &s));
    c2d_status st = c2d_raycast(s, tu_v(-6, 1.000001), tu_v(1, 0), INFINITY, &h);
    c2d_shape_destroy(s);
    ENSURE(st == C2D_OK);
    ENSURE_MSG(h.hit == 0 && h.t == 0, "unbounded ray: hit %d at t = %g", h.hit, h.t);
}

/* ---- random queries -------------------------------------------------------------------------------- */

static int check_point_queries(const tu_body *b, c2d_vec2 p)
{
    const tu_geom *g = &b->g;
    double tol = REL_TOL * fmax(tu_scene_size(g, g), fmax(fabs(p.x), fabs(p.y)));
    double sd = tu_point_distance(g, p);
    int in = -1;
    c2d_vec2 q;
    double d;
    CHECK(c2d_contains_point(b->s, p, &in) == C2D_OK, "contains_point failed");
    if (fabs(sd) > tol)
        CHECK(in == (sd < 0), "contains (%.17g, %.17g) = %d, oracle distance %.17g", p.x, p.y, in, sd);
    CHECK(c2d_closest_point(b->s, p, &q, &d) == C2D_OK, "closest_point failed");
    CHECK(fabs(d - sd) <= tol, "closest_point distance %.17g, oracle %.17g at (%.17g, %.17g)", d, sd, p.x, p.y);
    CHECK(fabs(tu_len(tu_sub(q, p)) - fabs(sd)) <= tol, "closest point (%.17g, %.17g) is %.17g from p, not %.17g",
          q.x, q.y, tu_len(tu_sub(q, p)), fabs(sd));
    CHECK(fabs(tu_point_distance(g, q)) <= tol, "closest point (%.17g, %.17g) is %.3g off the boundary", q.x, q.y,
          tu_point_distance(g, q));
    return 1;
}

/* Signed distance along the ray, and, for a segment (no inside), the side of its line. */
static double ray_sd(const tu_geom *g, c2d_vec2 o, c2d_vec2 dir, double t)
{
    return tu_point_distance(g, tu_add(o, tu_scale(dir, t)));
}

/* The bisection oracle: the first t in [0, tmax] where the shape's signed distance reaches 0, or -1.
 * The signed distance to a convex set is convex along a line, so a ternary search finds its minimum on
 * [0, tmax]; if that is <= 0, the first root lies between 0 and it and is bisected. *closest receives
 * the minimum, so callers can skip grazing rays where hit or miss is decided by rounding. A segment has
 * no inside (its distance only touches 0), so there the root is bisected on the side of its line and
 * kept if it lies on the segment; *closest is then not meaningful. */
static double ray_oracle(const tu_geom *g, c2d_vec2 o, c2d_vec2 dir, double tmax, double *closest)
{
    *closest = ray_sd(g, o, dir, 0);
    if (*closest <= 0)
        return 0;
    if (g->n == 2 && g->r == 0) {
        c2d_vec2 e = tu_sub(g->v[1], g->v[0]);
        double s0 = tu_cross(e, tu_sub(o, g->v[0]));
        double s1 = tu_cross(e, tu_sub(tu_add(o, tu_scale(dir, tmax)), g->v[0]));
        if ((s0 > 0) == (s1 > 0))
            return -1; /* the ray does not reach the segment's line */
        double lo = 0, hi = tmax;
        for (int i = 0; i < 100; i++) {
            double mid = 0.5 * (lo + hi);
            double sm = tu_cross(e, tu_sub(tu_add(o, tu_scale(dir, mid)), g->v[0]));
            if ((sm > 0) == (s0 > 0))
                lo = mid;
            else
                hi = mid;
        }
        double t = 0.5 * (lo + hi);
        return ray_sd(g, o, dir, t) <= 1e-12 * tu_scene_size(g, g) ? t : -1;
    }
    double lo = 0, hi = tmax, tmin = -1;
    /* (2/3)^80 ~ 1e-14: the minimum is located to well below the tolerance. A point already inside
     * ends the search, since the first root lies before it. */
    for (int i = 0; i < 80 && tmin < 0; i++) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        double f1 = ray_sd(g, o, dir, m1), f2 = ray_sd(g, o, dir, m2);
        if (f1 <= 0)
            tmin = m1;
        else if (f2 <= 0)
            tmin = m2;
        else if (f1 < f2)
            hi = m2;
        else
            lo = m1;
    }
    if (tmin < 0)
        tmin = 0.5 * (lo + hi);
    *closest = ray_sd(g, o, dir, tmin);
    if (*closest > 0)
        return -1;
    lo = 0, hi = tmin;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        if (ray_sd(g, o, dir, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static int check_raycast(const tu_body *b, c2d_vec2 o, c2d_vec2 dir, double max_t, int *oracle_hit)
{
    const tu_geom *g = &b->g;
    double scale = fmax(tu_scene_size(g, g), fmax(fabs(o.x), fabs(o.y)));
    double tol = REL_TOL * scale;
    double dlen = tu_len(dir);
    /* The oracle searches a finite stretch: past 40 units of travel the ray has left the scene. */
    double tmax = fmin(max_t, 40 / dlen);
    double closest;
    double t = ray_oracle(g, o, dir, tmax, &closest);
    *oracle_hit = t >= 0;
    c2d_ray_hit h;
    CHECK(c2d_raycast(b->s, o, dir, max_t, &h) == C2D_OK, "raycast failed");
    int is_segment = g->n == 2 && g->r == 0;
    if (!is_segment && fabs(closest) <= tol)
        return 1; /* grazing: hit or miss is decided by rounding */
    if (t >= 0 && fabs(t - max_t) * dlen <= tol)
        return 1; /* the hit is at the very end of the ray */
    if (is_segment) {
        /* A segment has no inside: skip rays starting on its line or passing within tol of an end. */
        c2d_vec2 e = tu_sub(g->v[1], g->v[0]), end = tu_add(o, tu_scale(dir, tmax));
        if (fabs(tu_cross(e, tu_sub(o, g->v[0]))) / tu_len(e) <= tol ||
            tu_point_segment_distance(g->v[0], o, end) <= tol || tu_point_segment_distance(g->v[1], o, end) <= tol)
            return 1;
    }
    CHECK(h.hit == (t >= 0), "ray (%.17g, %.17g) + t (%.17g, %.17g), max_t %.17g: hit %d, oracle t %.17g (closest %.3g)",
          o.x, o.y, dir.x, dir.y, max_t, h.hit, t, closest);
    if (!h.hit) {
        CHECK(h.t == 0 && h.point.x == 0 && h.point.y == 0 && h.normal.x == 0 && h.normal.y == 0,
              "a miss must zero the other fields");
        return 1;
    }
    CHECK(fabs(h.t - t) * dlen <= tol, "ray (%.17g, %.17g) + t (%.17g, %.17g): t %.17g, oracle %.17g", o.x, o.y,
          dir.x, dir.y, h.t, t);
    CHECK(h.t >= 0 && h.t <= max_t, "t %.17g outside [0, %.17g]", h.t, max_t);
    c2d_vec2 expect = tu_add(o, tu_scale(dir, h.t));
    CHECK(fabs(h.point.x - expect.x) <= tol && fabs(h.point.y - expect.y) <= tol, "hit point is not origin + t dir");
    CHECK(fabs(tu_len(h.normal) - 1) <= 1e-12, "normal not unit");
    if (t == 0) {
        CHECK(fabs(h.normal.x + dir.x / dlen) <= 1e-12 && fabs(h.normal.y + dir.y / dlen) <= 1e-12,
              "inside start: normal (%.17g, %.17g) is not minus the direction", h.normal.x, h.normal.y);
        return 1;
    }
    CHECK(tu_dot(h.normal, dir) <= 0, "normal (%.17g, %.17g) does not face the ray", h.normal.x, h.normal.y);
    /* A surface normal at p: stepping h along it from p lands exactly h from the shape (this holds for
     * any normal of a corner's normal cone too, and fails for anything else). */
    double step = 1e-3;
    double away = tu_point_distance(g, tu_add(h.point, tu_scale(h.normal, step)));
    CHECK(fabs(away - step) <= 1e-6 * step + tol, "normal (%.17g, %.17g) at (%.17g, %.17g): a step of %g along it is %.17g away",
          h.normal.x, h.normal.y, h.point.x, h.point.y, step, away);
    return 1;
}

static void run_point_queries(int kind)
{
    long iters = c2d_test_iterations(100000);
    for (long i = 0; i < iters; i++) {
        tu_body b;
        ENSURE_OK(tu_random_body(kind, tu_v(0, 0), TU_SPREAD, &b));
        c2d_vec2 p = tu_random_point(TU_SPREAD + 2);
        int ok = check_point_queries(&b, p);
        tu_body_destroy(&b);
        if (!ok)
            return;
    }
}

static void run_raycasts(int kind)
{
    long iters = c2d_test_iterations(100000);
    long hits = 0;
    for (long i = 0; i < iters; i++) {
        tu_body b;
        ENSURE_OK(tu_random_body(kind, tu_v(0, 0), 1.0, &b));
        c2d_vec2 o = tu_random_point(6);
        /* Aim near the shape most of the time, with a non-unit direction. */
        c2d_vec2 target = tu_random_point(2.5);
        c2d_vec2 dir = tu_scale(tu_sub(target, o), c2d_test_uniform(0.1, 3));
        if (tu_len(dir) < 1e-6)
            dir = tu_v(1, 0);
        /* Unbounded rays, long finite ones and short ones that often stop before the shape. */
        unsigned long pick = c2d_test_rand() % 3;
        double max_t = pick == 0 ? INFINITY : pick == 1 ? 1e9 : c2d_test_uniform(0, 2);
        int oracle_hit = 0;
        int ok = check_raycast(&b, o, dir, max_t, &oracle_hit);
        hits += oracle_hit;
        tu_body_destroy(&b);
        if (!ok)
            return;
    }
    ENSURE_MSG(hits > iters / 10 && hits < iters - iters / 10, "%ld of %ld rays hit: retune the draw", hits, iters);
}

TEST(random_points_circle_contains_and_closest_point_match_the_oracle) { run_point_queries(TU_CIRCLE); }
TEST(random_points_rect_contains_and_closest_point_match_the_oracle) { run_point_queries(TU_RECT); }
TEST(random_points_polygon_contains_and_closest_point_match_the_oracle) { run_point_queries(TU_POLYGON); }
TEST(random_points_capsule_contains_and_closest_point_match_the_oracle) { run_point_queries(TU_CAPSULE); }
TEST(random_points_segment_contains_and_closest_point_match_the_oracle) { run_point_queries(TU_SEGMENT); }

TEST(random_rays_circle_match_the_bisection_oracle) { run_raycasts(TU_CIRCLE); }
TEST(random_rays_rect_match_the_bisection_oracle) { run_raycasts(TU_RECT); }
TEST(random_rays_polygon_match_the_bisection_oracle) { run_raycasts(TU_POLYGON); }
TEST(random_rays_capsule_match_the_bisection_oracle) { run_raycasts(TU_CAPSULE); }
TEST(random_rays_segment_match_the_bisection_oracle) { run_raycasts(TU_SEGMENT); }
