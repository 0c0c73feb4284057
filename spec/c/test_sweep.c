/* test_sweep.c - time of impact between two moving shapes (c2d_sweep): exact worked cases for each kind
 * of contact (face, corner circle on a vertical path, vertex against face, two moving shapes), overlap
 * at t = 0, touching, bad input, and a property test against a fine-step bisection oracle built on the
 * independent signed distance of testutil.h. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

TEST(sweep_circle_hits_rect_face_at_exact_fraction)
{
    /* A unit circle moving 10 to the right reaches the face x = 4 of the 2x2 box at x = 3: t = 0.3. */
    c2d_shape *ball, *box;
    ENSURE_OK(c2d_circle_new(0, 0, 1, &ball));
    ENSURE_OK(c2d_rect_new(5, 0, 2, 2, 0, &box));
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(ball, V(10, 0), box, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, 0.3, 1e-15);
    ENSURE_NEAR(toi.normal.x, 1, 1e-15);
    ENSURE_NEAR(toi.normal.y, 0, 1e-15);
    ENSURE_NEAR(toi.point.x, 4, 1e-14);
    ENSURE_NEAR(toi.point.y, 0, 1e-14);
    ENSURE_NEAR(toi.depth, 0, 0);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(box);
}

TEST(sweep_vertical_path_meets_corner_circle)
{
    /* Seed 004's tangent point, on the path its slope formula cannot handle (dx = 0): the centre moves
     * up the line x = 3.4 past the corner (4, -1) of the box [4,6]x[-1,1]. Contact when the centre is
     * 1 from the corner: (y + 1)^2 = 1 - 0.6^2, y = -1.8, so t = 3.2 / 10, and the normal is the
     * direction from the centre to the corner, (0.6, 0.8). */
    c2d_shape *ball, *box;
    ENSURE_OK(c2d_circle_new(3.4, -5, 1, &ball));
    ENSURE_OK(c2d_rect_new(5, 0, 2, 2, 0, &box));
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(ball, V(0, 10), box, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, 0.32, 1e-14);
    ENSURE_NEAR(toi.normal.x, 0.6, 1e-14);
    ENSURE_NEAR(toi.normal.y, 0.8, 1e-14);
    ENSURE_NEAR(toi.point.x, 4, 1e-14);
    ENSURE_NEAR(toi.point.y, -1, 1e-14);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(box);
}

TEST(sweep_box_face_meets_diamond_vertex)
{
    /* A 2x2 box sliding right meets the left vertex (6 - sqrt 2, 0) of a square turned 45 degrees. */
    c2d_shape *box, *diamond;
    ENSURE_OK(c2d_rect_new(0, 0, 2, 2, 0, &box));
    ENSURE_OK(c2d_rect_new(6, 0, 2, 2, TU_PI / 4, &diamond));
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(box, V(10, 0), diamond, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, (5 - sqrt(2.0)) / 10, 1e-14);
    ENSURE_NEAR(toi.normal.x, 1, 1e-14);
    ENSURE_NEAR(toi.normal.y, 0, 1e-14);
    ENSURE_NEAR(toi.point.x, 6 - sqrt(2.0), 1e-13);
    ENSURE_NEAR(toi.point.y, 0, 1e-13);
    c2d_shape_destroy(box);
    c2d_shape_destroy(diamond);
}

TEST(sweep_two_moving_circles_meet_halfway)
{
    /* Radii 1 and 2, centres 13 apart closing at 5 + 5: they touch when 3 apart, at t = 1. Halve the
     * speeds' window: displacements 6 and -6 close 12 of the 10 needed at t = 10/12. */
    c2d_shape *a, *b;
    ENSURE_OK(c2d_circle_new(0, 0, 1, &a));
    ENSURE_OK(c2d_circle_new(13, 0, 2, &b));
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(a, V(6, 0), b, V(-6, 0), &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, 10.0 / 12.0, 1e-15);
    ENSURE_NEAR(toi.normal.x, 1, 1e-15);
    /* At t = 5/6 a is at 5, b at 8: the contact point is 6, on both surfaces. */
    ENSURE_NEAR(toi.point.x, 6, 1e-14);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(sweep_reports_overlap_at_start_with_separating_normal)
{
    /* The circle's centre is 0.25 inside the top face of the box: depth 1.25, and B (the box) must move
     * down, away from the circle, so the normal from A to B is (0, -1). */
    c2d_shape *ball, *box;
    ENSURE_OK(c2d_circle_new(0, 0.75, 1, &ball));
    ENSURE_OK(c2d_rect_new(0, 0, 4, 2, 0, &box));
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(ball, V(3, 0), box, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_OVERLAP);
    ENSURE_NEAR(toi.t, 0, 0);
    ENSURE_NEAR(toi.depth, 1.25, 1e-15);
    ENSURE_NEAR(toi.normal.x, 0, 1e-15);
    ENSURE_NEAR(toi.normal.y, -1, 1e-15);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(box);
}

TEST(sweep_touching_shapes_hit_only_when_moving_in)
{
    /* Resting exactly on the top face: moving along it or away is no hit, pressing into it is a hit
     * at t = 0. */
    c2d_shape *ball, *box;
    ENSURE_OK(c2d_circle_new(0, 2, 1, &ball));
    ENSURE_OK(c2d_rect_new(0, 0, 4, 2, 0, &box));
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(ball, V(1, 0), box, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_NONE);
    ENSURE_NEAR(toi.t, 1, 0);
    ENSURE_OK(c2d_sweep(ball, V(0, 1), box, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_NONE);
    ENSURE_OK(c2d_sweep(ball, V(1, -1), box, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, 0, 0);
    ENSURE_NEAR(toi.normal.y, -1, 1e-15);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(box);
}

TEST(sweep_fast_ball_never_passes_through_a_thin_wall)
{
    /* A segment wall and a displacement a thousand times its distance: still hit, at t = 0.0009. */
    c2d_shape *ball, *wall;
    ENSURE_OK(c2d_circle_new(0, 0, 0.1, &ball));
    ENSURE_OK(c2d_segment_new(V(1, -5), V(1, 5), &wall));
    c2d_toi toi;
    ENSURE_OK(c2d_sweep(ball, V(1000, 0), wall, V(0, 0), &toi));
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, 0.9 / 1000, 1e-16);
    ENSURE_NEAR(toi.normal.x, 1, 1e-15);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(wall);
}

TEST(sweep_rejects_bad_input_and_leaves_output_alone)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_circle_new(0, 0, 1, &a));
    ENSURE_OK(c2d_circle_new(5, 0, 1, &b));
    c2d_toi toi, before;
    memset(&toi, 0x5a, sizeof toi);
    before = toi;
    ENSURE(c2d_sweep(NULL, V(1, 0), b, V(0, 0), &toi) == C2D_ERR_NULL);
    ENSURE(c2d_sweep(a, V(1, 0), NULL, V(0, 0), &toi) == C2D_ERR_NULL);
    ENSURE(c2d_sweep(a, V(1, 0), b, V(0, 0), NULL) == C2D_ERR_NULL);
    ENSURE(c2d_sweep(a, V(NAN, 0), b, V(0, 0), &toi) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_sweep(a, V(0, 0), b, V(0, INFINITY), &toi) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_sweep(a, V(2e15, 0), b, V(0, 0), &toi) == C2D_ERR_RANGE);
    ENSURE(memcmp(&toi, &before, sizeof toi) == 0);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* The oracle's first time in [0, 1] at which the two geometries moving by da and db meet (signed
 * distance <= 0): scan in fine steps, then bisect the first step that crosses. Returns 2 when they
 * overlap at t = 0, 1 with *t when they meet, 0 when no step meets. Grazing contacts shorter than a
 * step can be missed by the scan; the caller allows for that. */
static int oracle_toi(const tu_geom *a, c2d_vec2 da, const tu_geom *b, c2d_vec2 db, double *t)
{
    const int steps = 400;
    tu_geom ma, mb;
    double prev = 0;
    for (int s = 0; s <= steps; s++) {
        double u = (double)s / steps;
        ma = *a;
        mb = *b;
        tu_geom_translate(&ma, tu_scale(da, u));
        tu_geom_translate(&mb, tu_scale(db, u));
        double sd = tu_signed_distance(&ma, &mb);
        if (sd <= 0) {
            if (s == 0)
                return 2;
            double lo = prev, hi = u;
            for (int k = 0; k < 60; k++) {
                double mid = 0.5 * (lo + hi);
                ma = *a;
                mb = *b;
                tu_geom_translate(&ma, tu_scale(da, mid));
                tu_geom_translate(&mb, tu_scale(db, mid));
                if (tu_signed_distance(&ma, &mb) <= 0)
                    hi = mid;
                else
                    lo = mid;
            }
            *t = hi;
            return 1;
        }
        prev = u;
    }
    return 0;
}

/* Signed distance of the geometries moved to time u. */
static double distance_at(const tu_geom *a, c2d_vec2 da, const tu_geom *b, c2d_vec2 db, double u)
{
    tu_geom ma = *a, mb = *b;
    tu_geom_translate(&ma, tu_scale(da, u));
    tu_geom_translate(&mb, tu_scale(db, u));
    return tu_signed_distance(&ma, &mb);
}

TEST(sweep_agrees_with_bisection_oracle_on_random_moving_pairs)
{
    long n = c2d_test_iterations(6000);
    long hits = 0, overlaps = 0, misses = 0;
    for (long it = 0; it < n; it++) {
        tu_body a, b;
        int ka = (int)(c2d_test_rand() % TU_KINDS), kb = (int)(c2d_test_rand() % TU_KINDS);
        ENSURE_OK(tu_random_body(ka, V(-2.5, 0), 3, &a));
        ENSURE_OK(tu_random_body(kb, V(2.5, 0), 3, &b));
        c2d_vec2 da = tu_random_vec(-3, 10, -4, 4);
        c2d_vec2 db = c2d_test_rand() % 2 ? V(0, 0) : tu_random_vec(-8, 3, -4, 4);
        c2d_toi toi;
        ENSURE_OK(c2d_sweep(a.s, da, b.s, db, &toi));
        double t_oracle = 0;
        int o = oracle_toi(&a.g, da, &b.g, db, &t_oracle);
        double tol = 1e-9 * tu_scene_size(&a.g, &b.g);
        if (o == 2) {
            /* Overlapping at the start: an overlap, or a touch within tolerance. */
            double sd0 = distance_at(&a.g, da, &b.g, db, 0);
            ENSURE_MSG(toi.state == C2D_TOI_OVERLAP || (sd0 > -tol && toi.state != C2D_TOI_NONE),
                       "%s vs %s: oracle overlaps at 0 (sd %.3g), sweep state %d", tu_kind_name(ka),
                       tu_kind_name(kb), sd0, (int)toi.state);
            if (toi.state == C2D_TOI_OVERLAP)
                ENSURE_NEAR(toi.depth, -sd0, tol);
            overlaps++;
        } else if (o == 1) {
            ENSURE_MSG(toi.state == C2D_TOI_HIT, "%s vs %s: oracle meets at %.17g, sweep state %d",
                       tu_kind_name(ka), tu_kind_name(kb), t_oracle, (int)toi.state);
            /* The sweep may find a graze the scan stepped over, never a later contact. */
            ENSURE_MSG(toi.t <= t_oracle + 1e-9, "%s vs %s: sweep %.17g after oracle %.17g", tu_kind_name(ka),
                       tu_kind_name(kb), toi.t, t_oracle);
            ENSURE_NEAR(distance_at(&a.g, da, &b.g, db, toi.t), 0, tol);
            hits++;
        } else {
            if (toi.state == C2D_TOI_HIT) {
                /* Only a graze between two scan steps: touching at t, never overlapping. */
                ENSURE_NEAR(distance_at(&a.g, da, &b.g, db, toi.t), 0, tol);
            } else {
                ENSURE_MSG(toi.state == C2D_TOI_NONE, "%s vs %s: sweep state %d, oracle none", tu_kind_name(ka),
                           tu_kind_name(kb), (int)toi.state);
            }
            misses++;
        }
        if (toi.state == C2D_TOI_HIT) {
            /* The normal separates: moving B along it (A against it) increases the distance. */
            c2d_vec2 step = tu_scale(toi.normal, 1e-6);
            tu_geom mb = b.g;
            tu_geom_translate(&mb, step);
            double before = distance_at(&a.g, da, &b.g, db, toi.t);
            double after = distance_at(&a.g, da, &mb, db, toi.t);
            ENSURE_MSG(after > before, "%s vs %s: normal (%g, %g) does not separate", tu_kind_name(ka),
                       tu_kind_name(kb), toi.normal.x, toi.normal.y);
        }
        tu_body_destroy(&a);
        tu_body_destroy(&b);
    }
    /* The scene is built so that every outcome occurs often. */
    ENSURE_MSG(hits > n / 10 && misses > n / 10 && overlaps > n / 100, "hits %ld misses %ld overlaps %ld", hits,
               misses, overlaps);
}

TEST(sweep_a_box_level_with_a_ledge_slides_onto_it_corner_to_corner)
{
    /* A box whose bottom is exactly level with a ledge's top, moving towards it across a gap: the
     * corners meet and the box goes on over the top (the path only grazes the ledge's side). A hair
     * lower it hits the side; a hair higher it passes above. In a set and in a world alike. */
    c2d_shape *ledge, *box;
    ENSURE_OK(c2d_rect_new(20, -5, 20, 10, 0, &ledge)); /* top at y = 0, left side at x = 10 */
    for (int level = -1; level <= 1; level++) {
        double y = 2 + level * 1e-6;                      /* the box's bottom at y = level * 1e-6 */
        ENSURE_OK(c2d_rect_new(6, y, 4, 4, 0, &box));
        c2d_toi t;
        ENSURE_OK(c2d_sweep(box, (c2d_vec2){6, 0}, ledge, (c2d_vec2){0, 0}, &t));
        ENSURE_MSG((t.state == C2D_TOI_HIT) == (level < 0), "level %d: state %d", level, (int)t.state);
        if (level < 0)
            ENSURE(fabs(t.t - 1.0 / 3) < 1e-12 && t.normal.x == 1 && t.normal.y == 0);
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&ledge, 1, NULL, &set));
        c2d_move_result r;
        ENSURE_OK(c2d_static_set_move(set, box, (c2d_vec2){6, 0}, NULL, &r, NULL, 0));
        ENSURE(r.count == (level < 0) && (level < 0 ? fabs(r.displacement.x - 2) < 1e-12 : r.displacement.x == 6));
        c2d_static_set_destroy(set);
        c2d_shape_destroy(box);
    }
    /* Already touching corner to corner, moving along: no hit at all. */
    ENSURE_OK(c2d_rect_new(8, 2, 4, 4, 0, &box));
    c2d_toi t;
    ENSURE_OK(c2d_sweep(box, (c2d_vec2){6, 0}, ledge, (c2d_vec2){0, 0}, &t));
    ENSURE(t.state == C2D_TOI_NONE);
    c2d_shape_destroy(box);
    c2d_shape_destroy(ledge);
}
