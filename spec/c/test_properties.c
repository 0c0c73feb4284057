/* test_properties.c - properties of overlap, collide and distance over random pairs of every ordered
 * pair of kinds (circle, rect axis-aligned and rotated, polygon of 3..8 vertices, capsule, segment),
 * 100,000 pairs each (scaled down in the sanitised run), checked against the independent oracle of
 * testutil.h:
 *   - overlap(a,b) == overlap(b,a) == (collide.count > 0), and == (oracle distance <= 0) away from touching;
 *   - collide's depth is the oracle's penetration depth, and collide(b,a) has the same depth and the
 *     opposite normal (or another normal that is equally a minimum push, when the minimum is not unique);
 *   - moving B by depth * normal leaves the shapes touching, and 1e-6 further separates them;
 *   - contact points lie within depth of both surfaces;
 *   - distance agrees with the oracle, with closest points on the surfaces;
 *   - all of it is invariant under translating the scene (nearby and 1e6 away) and rotating it.
 * A failing pair is printed in full (kinds and exact geometry) so it can be turned into a repro.
 */
#include "test.h"
#include "testutil.h"

#include <stdio.h>

/* The tolerance for "touching": 1e-9 relative to the scene size. Double rounding in either
 * the library or the oracle is ~1e-15 relative; 1e-9 leaves room for ill-conditioned but correct
 * computations (nearly parallel edges) while any wrong formula is off by far more. */
#define REL_TOL 1e-9
/* For the scene moved 1e6 away: the double rounding of coordinates of size S is ~1e-16 S per
 * operation; 1e-12 S allows some hundred operations' worth, and is still 1e4 times tighter than what
 * a float implementation could reach (6e-8 S). */
#define FAR_REL_TOL 1e-12
/* How much further than the depth B is moved to prove the normal separates. */
#define SEPARATE_STEP 1e-6
/* Normals are compared as unit vectors; disagreement beyond this triggers the "equally minimal" check. */
#define NORMAL_TOL 1e-6

/* Whether the cores, apart by gap, are apart by gap along n too (within tol): then n is the direction
 * between a pair of closest points. The oracle's own closest points are one such pair, but where a
 * vertex and a point of the edge beside it are equally near up to the rounding of squared distances
 * (the edge nearly square to the direction), it may pick the vertex and the library the exact point
 * of the edge: both directions pass here, a wrong one (off by more than about sqrt(tol / gap)) not. */
static int separates_by(const tu_geom *a, const tu_geom *b, c2d_vec2 n, double gap, double tol)
{
    return -(tu_support(a, n) + tu_support(b, tu_scale(n, -1))) >= gap - tol;
}

/* Records a failure with the pair that caused it and makes the caller stop. */
#define CHECK TU_CHECK_PAIR

/* Oracle distance after moving B's geometry by k * n. */
static double pushed_distance(const tu_geom *a, const tu_geom *b, c2d_vec2 n, double k)
{
    tu_geom m = *b;
    tu_geom_translate(&m, tu_scale(n, k));
    return tu_signed_distance(a, &m);
}

/* A normal is a minimum push for B when B moved by depth along it just touches A. */
static int is_minimum_push(const tu_geom *a, const tu_geom *b, c2d_vec2 n, double depth, double tol)
{
    return fabs(tu_len(n) - 1) <= 1e-12 && fabs(pushed_distance(a, b, n, depth)) <= tol;
}

static int same_normal(c2d_vec2 n, c2d_vec2 m)
{
    return fabs(n.x - m.x) <= NORMAL_TOL && fabs(n.y - m.y) <= NORMAL_TOL;
}

/* The contact of a transformed copy of the scene agrees with the original contact c, once its normal
 * is mapped back by `back_angle`. sd is the oracle distance of the original scene. */
static int check_transformed(const tu_body *a, const tu_body *b, const tu_body *ta, const tu_body *tb,
                             const c2d_contact *c, double sd, double back_angle, double tol,
                             const char *what)
{
    c2d_contact t;
    int o;
    CHECK(c2d_collide(ta->s, tb->s, &t) == C2D_OK, "%s: collide failed", what);
    CHECK(c2d_overlap(ta->s, tb->s, &o) == C2D_OK, "%s: overlap failed", what);
    CHECK(o == (t.count > 0), "%s: overlap %d but collide count %d", what, o, t.count);
    if (fabs(sd) > tol)
        CHECK((t.count > 0) == (c->count > 0), "%s: count %d, untransformed count %d (oracle %.17g)", what,
              t.count, c->count, sd);
    if (t.count > 0 && c->count > 0) {
        CHECK(fabs(t.depth - c->depth) <= tol, "%s: depth %.17g, untransformed %.17g", what, t.depth,
              c->depth);
        c2d_vec2 n = tu_rot(t.normal, back_angle);
        CHECK(same_normal(n, c->normal) || is_minimum_push(&a->g, &b->g, n, t.depth, tol),
              "%s: normal (%.17g, %.17g) maps back to (%.17g, %.17g), untransformed (%.17g, %.17g)", what,
              t.normal.x, t.normal.y, n.x, n.y, c->normal.x, c->normal.y);
    }
    return 1;
}

/* All properties for one random pair; returns 0 after recording a failure. */
static int check_pair(const tu_body *a, const tu_body *b)
{
    const double tol = REL_TOL * tu_scene_size(&a->g, &b->g);
    const double sd = tu_signed_distance(&a->g, &b->g);
    int oab = -1, oba = -1;
    c2d_contact cab, cba;
    c2d_distance_result dr;

    CHECK(c2d_overlap(a->s, b->s, &oab) == C2D_OK, "overlap(a,b) failed");
    CHECK(c2d_overlap(b->s, a->s, &oba) == C2D_OK, "overlap(b,a) failed");
    CHECK(c2d_collide(a->s, b->s, &cab) == C2D_OK, "collide(a,b) failed");
    CHECK(c2d_collide(b->s, a->s, &cba) == C2D_OK, "collide(b,a) failed");
    CHECK(c2d_distance(a->s, b->s, &dr) == C2D_OK, "distance(a,b) failed");

    CHECK(oab == oba, "overlap(a,b) = %d but overlap(b,a) = %d", oab, oba);
    CHECK(oab == (cab.count > 0), "overlap(a,b) = %d but collide count %d", oab, cab.count);
    CHECK(oba == (cba.count > 0), "overlap(b,a) = %d but collide(b,a) count %d", oba, cba.count);
    if (fabs(sd) > tol)
        CHECK(oab == (sd < 0), "overlap = %d but the oracle's signed distance is %.17g", oab, sd);
    CHECK(fabs(dr.distance - sd) <= tol, "distance %.17g, oracle %.17g", dr.distance, sd);
    CHECK(fabs(tu_len(dr.normal) - 1) <= 1e-12, "distance normal not unit (%.17g, %.17g)", dr.normal.x,
          dr.normal.y);

    /* The closest points (apart) or deepest points (overlapping) are on the surfaces, and in both cases
     * point_b - point_a = distance * normal: two circles 1 deep have A's deepest point 1 beyond B's. */
    CHECK(fabs(tu_point_distance(&a->g, dr.point_a)) <= tol, "point_a (%.17g, %.17g) is %.3g off A",
          dr.point_a.x, dr.point_a.y, tu_point_distance(&a->g, dr.point_a));
    CHECK(fabs(tu_point_distance(&b->g, dr.point_b)) <= tol, "point_b (%.17g, %.17g) is %.3g off B",
          dr.point_b.x, dr.point_b.y, tu_point_distance(&b->g, dr.point_b));
    c2d_vec2 ab = tu_sub(dr.point_b, dr.point_a);
    CHECK(fabs(ab.x - dr.distance * dr.normal.x) <= tol && fabs(ab.y - dr.distance * dr.normal.y) <= tol,
          "point_b - point_a = (%.17g, %.17g), distance %.17g * normal (%.17g, %.17g)", ab.x, ab.y, dr.distance,
          dr.normal.x, dr.normal.y);
    if (sd < -tol)
        CHECK(is_minimum_push(&a->g, &b->g, dr.normal, -dr.distance, tol),
              "overlapping: moving B by -distance along the distance normal leaves oracle distance %.17g",
              pushed_distance(&a->g, &b->g, dr.normal, -dr.distance));
    /* With the cores apart, the normal is fixed by their closest points (see testutil.h); rounding
     * turns it by about the coordinate error over the gap between the cores. */
    double core_gap = tu_core_distance(&a->g, &b->g);
    c2d_vec2 core_a = tu_v(0, 0), core_b = tu_v(0, 0), core_n;
    if (core_gap > 0) {
        tu_core_closest_points(&a->g, &b->g, &core_a, &core_b);
        core_n = tu_scale(tu_sub(core_b, core_a), 1 / tu_len(tu_sub(core_b, core_a)));
        double ntol = tol / fmin(1.0, core_gap);
        CHECK((fabs(dr.normal.x - core_n.x) <= ntol && fabs(dr.normal.y - core_n.y) <= ntol) ||
                  separates_by(&a->g, &b->g, dr.normal, core_gap, tol),
              "distance normal (%.17g, %.17g), closest core points give (%.17g, %.17g)", dr.normal.x,
              dr.normal.y, core_n.x, core_n.y);
        if (cab.count > 0)
            CHECK((fabs(cab.normal.x - core_n.x) <= ntol && fabs(cab.normal.y - core_n.y) <= ntol) ||
                      separates_by(&a->g, &b->g, cab.normal, core_gap, tol),
                  "contact normal (%.17g, %.17g), closest core points give (%.17g, %.17g)", cab.normal.x,
                  cab.normal.y, core_n.x, core_n.y);
    }
    if (sd > tol)
        CHECK(cab.count == 0 && cab.depth == 0 && cab.normal.x == 0 && cab.normal.y == 0,
              "apart but contact count %d depth %g", cab.count, cab.depth);

    if (cab.count > 0) {
        CHECK(cab.count <= 2, "count %d", cab.count);
        CHECK(cab.depth >= 0, "negative depth %.17g", cab.depth);
        CHECK(fabs(cab.depth + sd) <= tol, "depth %.17g, oracle penetration %.17g", cab.depth, -sd);
        CHECK(is_minimum_push(&a->g, &b->g, cab.normal, cab.depth, tol),
              "moving B by depth %.17g along (%.17g, %.17g) leaves oracle distance %.17g", cab.depth,
              cab.normal.x, cab.normal.y, pushed_distance(&a->g, &b->g, cab.normal, cab.depth));
        /* The library agrees that a little further along the normal they are apart. */
        tu_body moved;
        int o = -1;
        CHECK(tu_body_clone(b, &moved) == C2D_OK, "clone failed");
        c2d_status st = tu_body_move(&moved, tu_scale(cab.normal, cab.depth + SEPARATE_STEP));
        if (st == C2D_OK)
            st = c2d_overlap(a->s, moved.s, &o);
        tu_body_destroy(&moved);
        CHECK(st == C2D_OK && o == 0, "B moved depth + 1e-6 along the normal still overlaps (%d)", o);
        /* Reversed order: same depth, opposite normal unless another normal is equally minimal. */
        CHECK(cba.count > 0, "collide(b,a) found nothing");
        CHECK(fabs(cba.depth - cab.depth) <= tol, "depth(b,a) %.17g, depth(a,b) %.17g", cba.depth, cab.depth);
        CHECK(same_normal(tu_scale(cba.normal, -1), cab.normal) ||
                  is_minimum_push(&a->g, &b->g, tu_scale(cba.normal, -1), cba.depth, tol),
              "normal(b,a) (%.17g, %.17g) is not minus normal(a,b) (%.17g, %.17g)", cba.normal.x,
              cba.normal.y, cab.normal.x, cab.normal.y);
        for (int i = 0; i < cab.count; i++) {
            c2d_vec2 p = cab.points[i];
            double da = tu_point_distance(&a->g, p), db = tu_point_distance(&b->g, p);
            CHECK(fabs(da) <= cab.depth + tol && fabs(db) <= cab.depth + tol,
                  "contact point %d (%.17g, %.17g) is %.3g from A and %.3g from B, depth %.17g", i, p.x, p.y,
                  da, db, cab.depth);
            CHECK(cab.point_depths[i] <= cab.depth + tol, "point depth %d %.17g > depth %.17g", i,
                  cab.point_depths[i], cab.depth);
        }
        if (sd < -tol)
            CHECK(fabs(dr.distance + cab.depth) <= tol, "overlapping: distance %.17g, depth %.17g",
                  dr.distance, cab.depth);
    }

    /* Translation: nearby, or far out where floats would have lost millimetres. */
    c2d_vec2 off;
    switch (c2d_test_rand() % 3) {
    case 0: off = tu_random_point(100); break;
    case 1: off = tu_add(tu_v(1e6, 1e6), tu_random_point(1)); break;
    default: off = tu_v(-1e6, 5e5); break;
    }
    tu_body ta, tb;
    int ok = 1;
    if (tu_body_clone(a, &ta) != C2D_OK)
        CHECK(0, "clone failed");
    if (tu_body_clone(b, &tb) != C2D_OK) {
        tu_body_destroy(&ta);
        CHECK(0, "clone failed");
    }
    if (tu_body_move(&ta, off) != C2D_OK || tu_body_move(&tb, off) != C2D_OK)
        ok = 0;
    double far_tol = tol + FAR_REL_TOL * tu_scene_size(&ta.g, &tb.g);
    if (ok)
        ok = check_transformed(a, b, &ta, &tb, &cab, sd, 0.0, far_tol, "translated scene");
    tu_body_destroy(&ta);
    tu_body_destroy(&tb);
    if (!ok)
        return 0;

    /* Rotation of the whole scene about the origin: the normal turns with it, the depth stays. */
    double theta = c2d_test_uniform(-TU_PI, TU_PI);
    if (tu_body_clone(a, &ta) != C2D_OK)
        CHECK(0, "clone failed");
    if (tu_body_clone(b, &tb) != C2D_OK) {
        tu_body_destroy(&ta);
        CHECK(0, "clone failed");
    }
    if (tu_body_rotate_about_origin(&ta, theta) != C2D_OK || tu_body_rotate_about_origin(&tb, theta) != C2D_OK)
        ok = 0;
    if (ok)
        ok = check_transformed(a, b, &ta, &tb, &cab, sd, -theta, tol, "rotated scene");
    tu_body_destroy(&ta);
    tu_body_destroy(&tb);
    return ok;
}

static void run_pairs(int ka, int kb)
{
    long iters = c2d_test_iterations(100000);
    long overlapping = 0;
    for (long i = 0; i < iters; i++) {
        tu_body a, b;
        ENSURE_MSG(tu_random_pair(ka, kb, &a, &b) == C2D_OK, "could not create a %s and a %s", tu_kind_name(ka),
                   tu_kind_name(kb));
        int ok = check_pair(&a, &b);
        overlapping += tu_signed_distance(&a.g, &b.g) <= 0;
        tu_body_destroy(&a);
        tu_body_destroy(&b);
        if (!ok)
            return;
    }
    /* The draw must exercise both answers, or the properties above are half vacuous. */
    ENSURE_MSG(overlapping > iters / 50 && overlapping < iters - iters / 50,
               "%ld of %ld random pairs overlap: the scene needs retuning", overlapping, iters);
}

#define PAIR_TEST(ka, kb, name)                                                     \
    TEST(random_##name##_pairs_obey_the_contact_properties) { run_pairs(ka, kb); }

PAIR_TEST(TU_CIRCLE, TU_CIRCLE, circle_circle)
PAIR_TEST(TU_CIRCLE, TU_RECT, circle_rect)
PAIR_TEST(TU_CIRCLE, TU_POLYGON, circle_polygon)
PAIR_TEST(TU_CIRCLE, TU_CAPSULE, circle_capsule)
PAIR_TEST(TU_CIRCLE, TU_SEGMENT, circle_segment)
PAIR_TEST(TU_RECT, TU_CIRCLE, rect_circle)
PAIR_TEST(TU_RECT, TU_RECT, rect_rect)
PAIR_TEST(TU_RECT, TU_POLYGON, rect_polygon)
PAIR_TEST(TU_RECT, TU_CAPSULE, rect_capsule)
PAIR_TEST(TU_RECT, TU_SEGMENT, rect_segment)
PAIR_TEST(TU_POLYGON, TU_CIRCLE, polygon_circle)
PAIR_TEST(TU_POLYGON, TU_RECT, polygon_rect)
PAIR_TEST(TU_POLYGON, TU_POLYGON, polygon_polygon)
PAIR_TEST(TU_POLYGON, TU_CAPSULE, polygon_capsule)
PAIR_TEST(TU_POLYGON, TU_SEGMENT, polygon_segment)
PAIR_TEST(TU_CAPSULE, TU_CIRCLE, capsule_circle)
PAIR_TEST(TU_CAPSULE, TU_RECT, capsule_rect)
PAIR_TEST(TU_CAPSULE, TU_POLYGON, capsule_polygon)
PAIR_TEST(TU_CAPSULE, TU_CAPSULE, capsule_capsule)
PAIR_TEST(TU_CAPSULE, TU_SEGMENT, capsule_segment)
PAIR_TEST(TU_SEGMENT, TU_CIRCLE, segment_circle)
PAIR_TEST(TU_SEGMENT, TU_RECT, segment_rect)
PAIR_TEST(TU_SEGMENT, TU_POLYGON, segment_polygon)
PAIR_TEST(TU_SEGMENT, TU_CAPSULE, segment_capsule)
PAIR_TEST(TU_SEGMENT, TU_SEGMENT, segment_segment)

/* Near-touching pairs are rare in the random draw, yet they are where wrong formulas show first. For
 * each pair, B is slid from an overlapping start along a random direction to the exact touching
 * position (bisection on the oracle: the signed distance between convex sets is convex in the
 * translation, so from an overlap there is one root), then set a few tolerances before or after it.
 * There the library must answer by the sign of the oracle's distance, and the depth must match. */
static int check_near_touching(tu_body *a, tu_body *b)
{
    double sd0 = tu_signed_distance(&a->g, &b->g);
    double tol = REL_TOL * tu_scene_size(&a->g, &b->g);
    if (sd0 >= 0)
        return 1; /* needs an overlapping start */
    double angle = c2d_test_uniform(-TU_PI, TU_PI);
    c2d_vec2 u = tu_v(cos(angle), sin(angle));
    double lo = 0, hi = 1;
    while (pushed_distance(&a->g, &b->g, u, hi) <= 0)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (pushed_distance(&a->g, &b->g, u, mid) <= 0)
            lo = mid;
        else
            hi = mid;
    }
    double sign = c2d_test_rand() % 2 ? 1 : -1;
    double offset = sign * c2d_test_uniform(2, 8) * tol;
    c2d_vec2 d = tu_scale(u, lo + offset);
    tu_geom moved = b->g;
    tu_geom_translate(&moved, d);
    double sd = tu_signed_distance(&a->g, &moved);
    if (fabs(sd) <= 1.5 * tol)
        return 1; /* slid in nearly tangentially: the distance barely changed, not a near-touching case */
    if (c2d_shape_move(b->s, d) != C2D_OK)
        CHECK(0, "move failed");
    b->g = moved;
    int o = -1;
    c2d_contact c;
    CHECK(c2d_overlap(a->s, b->s, &o) == C2D_OK && c2d_collide(a->s, b->s, &c) == C2D_OK, "query failed");
    CHECK(o == (sd < 0), "near touching: overlap %d, oracle distance %.17g (tolerance %.3g)", o, sd, tol);
    CHECK(o == (c.count > 0), "near touching: overlap %d, collide count %d", o, c.count);
    if (c.count > 0)
        CHECK(fabs(c.depth + sd) <= tol, "near touching: depth %.17g, oracle %.17g", c.depth, -sd);
    return 1;
}

TEST(near_touching_pairs_of_every_kind_answer_by_the_sign_of_the_distance)
{
    long iters = c2d_test_iterations(2000);
    for (int ka = 0; ka < TU_KINDS; ka++)
        for (int kb = 0; kb < TU_KINDS; kb++)
            for (long i = 0; i < iters; i++) {
                tu_body a, b;
                ENSURE_OK(tu_random_body(ka, tu_v(0, 0), 1.0, &a));
                if (tu_random_body(kb, tu_v(0, 0), 1.0, &b) != C2D_OK) {
                    tu_body_destroy(&a);
                    ENSURE_MSG(0, "could not create a %s", tu_kind_name(kb));
                }
                int ok = check_near_touching(&a, &b);
                tu_body_destroy(&a);
                tu_body_destroy(&b);
                if (!ok)
                    return;
            }
}

/* Grid-aligned pairs (see tu_grid_body): every property above, plus the exact rule that touching counts
 * for the seeds' pairs (circles and unrotated rects), whose touching tests need no rounded value: an
 * oracle distance of exactly 0 on the grid is a true touch (a true gap there is at least ~0.1, which
 * rounding cannot take to 0). Slanted polygon edges and segments need normalised directions, so a touch
 * along them is decided by rounding either way and is left to the tolerance of check_pair. */
TEST(grid_aligned_pairs_of_every_kind_touch_exactly_and_obey_the_contact_properties)
{
    long iters = c2d_test_iterations(4000);
    long touching = 0;
    for (int ka = 0; ka < TU_KINDS; ka++)
        for (int kb = 0; kb < TU_KINDS; kb++)
            for (long i = 0; i < iters; i++) {
                tu_body a, b;
                ENSURE_OK(tu_grid_body(ka, &a));
                if (tu_grid_body(kb, &b) != C2D_OK) {
                    tu_body_destroy(&a);
                    ENSURE_MSG(0, "could not create a %s", tu_kind_name(kb));
                }
                int ok = check_pair(&a, &b), o = -1, o2 = -1;
                double sd = tu_signed_distance(&a.g, &b.g);
                c2d_overlap(a.s, b.s, &o);
                c2d_overlap(b.s, a.s, &o2);
                int seed_kinds = (ka == TU_CIRCLE || ka == TU_RECT) && (kb == TU_CIRCLE || kb == TU_RECT);
                if (ok && sd == 0 && seed_kinds) {
                    touching++;
                    ok = o == 1 && o2 == 1;
                    if (!ok) {
                        c2d_test_fail(__FILE__, __LINE__, "exactly touching %s and %s: overlap %d and %d",
                                      tu_kind_name(ka), tu_kind_name(kb), o, o2);
                        tu_print_geom("A", &a.g);
                        tu_print_geom("B", &b.g);
                    }
                }
                tu_body_destroy(&a);
                tu_body_destroy(&b);
                if (!ok)
                    return;
            }
    /* About 5% of the seed-kind pairs (4 of the 25 kind pairs) touch exactly; ask for a third of that. */
    ENSURE_MSG(touching > iters / 16, "only %ld exactly touching pairs drawn", touching);
}

/* Boxes at angle 0 have a path of their own (no rotation in it). Its contact must be the turned path's
 * and the polygon path's, up to the face chosen between equally deep ones: the same boxes at angle 1e-300 (a sine of 1e-300, which rounds away from every
 * product, so the same geometry through the turned code) and as four-vertex polygons (the general SAT).
 * Sizes and offsets from 1e-3 to 1e4, half of them snapped to a grid so that boxes touch exactly, share
 * edges, sit flush corner to corner or are the same box. */
/* ties: bit 0 when both axes are equally deep (to tol), bit 1 when the boxes' centres are level in x
 * (either sign of an x normal is as good), bit 2 the same in y. */
static int contacts_close(const c2d_contact *c, const c2d_contact *d, double tol, int ties)
{
    if ((c->count > 0) != (d->count > 0))
        return c->depth <= tol && d->depth <= tol; /* touching, to rounding */
    if (fabs(c->depth - d->depth) > tol)
        return 0;
    if (c->count == 0)
        return 1;
    /* Where two faces are equally deep, either may carry the contact: the same depth, another normal
     * and other points. Only then. */
    if (fabs(c->normal.x - d->normal.x) > 1e-12 || fabs(c->normal.y - d->normal.y) > 1e-12) {
        int cx = fabs(c->normal.x) > 0.5, dx = fabs(d->normal.x) > 0.5;
        return cx != dx ? (ties & 1) != 0 : (ties & (cx ? 2 : 4)) != 0;
    }
    if (c->count != d->count) /* corner on corner: one point, or the clipped edge's two at it */
        return c->depth <= tol;
    for (int k = 0; k < 2; k++) { /* every point of each is one of the other's */
        const c2d_contact *x = k ? d : c, *y = k ? c : d;
        for (int i = 0; i < x->count; i++) {
            int found = 0;
            for (int j = 0; j < y->count; j++)
                found |= fabs(x->points[i].x - y->points[j].x) <= tol && fabs(x->points[i].y - y->points[j].y) <= tol &&
                         fabs(x->point_depths[i] - y->point_depths[j]) <= tol;
            if (!found)
                return 0;
        }
    }
    return 1;
}

static c2d_status box_as_polygon(double x, double y, double w, double h, c2d_shape **out)
{
    c2d_vec2 p[4];
    p[0] = tu_v(x - w / 2, y - h / 2);
    p[1] = tu_v(x + w / 2, y - h / 2);
    p[2] = tu_v(x + w / 2, y + h / 2);
    p[3] = tu_v(x - w / 2, y + h / 2);
    return c2d_polygon_new(p, 4, out);
}

TEST(unturned_box_pairs_agree_with_the_turned_path_and_with_polygons)
{
    long iters = c2d_test_iterations(20000), hits = 0, touching = 0, same_face = 0;
    for (long i = 0; i < iters; i++) {
        double scale = pow(10.0, c2d_test_uniform(-3, 4));
        int grid = (c2d_test_rand() & 1) != 0;
        double g[8];
        for (int k = 0; k < 8; k++) {
            double u = c2d_test_uniform(k % 4 < 2 ? -2 : 0.25, 2);
            g[k] = scale * (grid ? floor(4 * u) / 4 + (k % 4 < 2 ? 0 : 0.25) : u);
        }
        double w[2] = {2 * g[2], 2 * g[6]}, h[2] = {2 * g[3], 2 * g[7]};
        if (grid && (c2d_test_rand() & 7) == 0) { /* the same box twice */
            g[4] = g[0], g[5] = g[1], w[1] = w[0], h[1] = h[0];
        }
        c2d_shape *s[2], *t[2], *p[2];
        for (int k = 0; k < 2; k++) {
            ENSURE_OK(c2d_rect_new(g[4 * k], g[4 * k + 1], w[k], h[k], 0.0, &s[k]));
            ENSURE_OK(c2d_rect_new(g[4 * k], g[4 * k + 1], w[k], h[k], 1e-300, &t[k]));
            ENSURE_OK(box_as_polygon(g[4 * k], g[4 * k + 1], w[k], h[k], &p[k]));
        }
        c2d_contact c, cr, ct, cp;
        int o = -1;
        ENSURE_OK(c2d_collide(s[0], s[1], &c));
        ENSURE_OK(c2d_collide(s[1], s[0], &cr));
        ENSURE_OK(c2d_collide(t[0], t[1], &ct));
        ENSURE_OK(c2d_collide(p[0], p[1], &cp));
        ENSURE_OK(c2d_overlap(s[0], s[1], &o));
        double tol = 1e-12 * scale;
        double ox = fabs(g[4] - g[0]), oy = fabs(g[5] - g[1]);
        double sx = ox - (w[0] + w[1]) / 2, sy = oy - (h[0] + h[1]) / 2;
        int ties = (fabs(sx - sy) <= tol) | (ox <= tol) << 1 | (oy <= tol) << 2;
        hits += c.count > 0;
        touching += c.count > 0 && c.depth == 0;
        /* A box and its exact copy have no order (see c2d_collide): both orders give one normal. */
        int copy = g[0] == g[4] && g[1] == g[5] && w[0] == w[1] && h[0] == h[1];
        double back = copy ? 1.0 : -1.0;
        int ok = (o != 0) == (c.count > 0) && cr.count == c.count && cr.depth == c.depth &&
                 (c.count == 0 || (cr.normal.x == back * c.normal.x && cr.normal.y == back * c.normal.y)) &&
                 contacts_close(&c, &ct, tol, ties) && contacts_close(&c, &cp, tol, ties);
        /* The other argument order: the same points, in the same order, to the bit. */
        for (int k = 0; ok && k < c.count; k++)
            ok = cr.points[k].x == c.points[k].x && cr.points[k].y == c.points[k].y &&
                 cr.point_depths[k] == c.point_depths[k];
        same_face += c.count > 0 && fabs(c.normal.x - ct.normal.x) < 0.5 && fabs(c.normal.y - ct.normal.y) < 0.5 && c.count == ct.count;
        for (int k = 0; ok && k < c.count; k++)
            ok = c.point_depths[k] >= 0 && c.point_depths[k] <= c.depth;
        if (!ok)
            c2d_test_fail(__FILE__, __LINE__,
                          "boxes (%.17g, %.17g) %.17g x %.17g and (%.17g, %.17g) %.17g x %.17g: unturned %d points, "
                          "depth %.17g, normal (%g, %g); reversed %d, %.17g; turned by 1e-300 %d, %.17g; "
                          "polygons %d, %.17g; overlap %d",
                          g[0], g[1], w[0], h[0], g[4], g[5], w[1], h[1], c.count, c.depth, c.normal.x, c.normal.y,
                          cr.count, cr.depth, ct.count, ct.depth, cp.count, cp.depth, o);
        for (int k = 0; k < 2; k++) {
            c2d_shape_destroy(s[k]);
            c2d_shape_destroy(t[k]);
            c2d_shape_destroy(p[k]);
        }
        if (!ok)
            return;
    }
    /* Ties (a box centred on the other's axis) may go either way; most pairs have none, and there the
     * points were compared too. */
    ENSURE_MSG(hits > iters / 4 && touching > iters / 100 && same_face > hits * 3 / 4,
               "only %ld contacts, %ld touching, %ld on the turned path's face", hits, touching, same_face);
}
