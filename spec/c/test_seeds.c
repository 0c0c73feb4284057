/* test_seeds.c - the worked examples of the source articles (shared/seeds/000-003) as exact cases:
 * rotated box against rotated box (001), circle against a rotated rectangle (000), circle against a
 * rectangle through the expanded-rectangle and rounded-rectangle regions (003, 002), AABB and circle
 * pairs (002). Expected values are worked out by hand in the comments; touching uses coordinates that
 * are exact in binary (3-4-5 triangles, halves) so that "touching counts as overlap" is tested exactly,
 * not within a tolerance.
 */
#include "test.h"
#include "testutil.h"

#include <math.h>

#define DEG (TU_PI / 180.0)

/* Tolerance for values that involve sin/cos of non-special angles: a few ulps of numbers of size ~10. */
#define TRIG_TOL 1e-12

/* ---- seed 001: two rotated boxes (box2d-lite's |C|hB + hA test) ---------------------------------- */

/* The seed builds A = [2,5]x[1,3] and B = [2,4]x[3,4] axis-aligned, then rotates each whole box (corners
 * and centre) about the origin, A by 40 degrees and B by 50. */
static void seed001_boxes(c2d_vec2 *ca, c2d_vec2 *cb)
{
    *ca = tu_rot(tu_v(3.5, 2), 40 * DEG);
    *cb = tu_rot(tu_v(3, 3.5), 50 * DEG);
}

/* The seed's geometry, corners rotated by hand, for the oracle. */
static void seed001_geoms(tu_geom *ga, tu_geom *gb)
{
    static const double axs[4] = {2, 5, 5, 2}, ays[4] = {1, 1, 3, 3};
    static const double bxs[4] = {2, 4, 4, 2}, bys[4] = {3, 3, 4, 4};
    memset(ga, 0, sizeof *ga);
    memset(gb, 0, sizeof *gb);
    ga->n = gb->n = 4;
    for (int i = 0; i < 4; i++) {
        ga->v[i] = tu_rot(tu_v(axs[i], ays[i]), 40 * DEG);
        gb->v[i] = tu_rot(tu_v(bxs[i], bys[i]), 50 * DEG);
    }
}

TEST(seed001_rotated_box_centres_are_the_rotated_box_centres)
{
    c2d_vec2 ca, cb, p;
    c2d_shape *a, *b;
    seed001_boxes(&ca, &cb);
    /* Rotating the centre (3.5, 2) by 40 degrees by hand: (3.5 cos40 - 2 sin40, 3.5 sin40 + 2 cos40). */
    ENSURE_NEAR(ca.x, 3.5 * cos(40 * DEG) - 2 * sin(40 * DEG), 1e-15);
    ENSURE_OK(c2d_rect_new(ca.x, ca.y, 3, 2, 40 * DEG, &a));
    ENSURE_OK(c2d_rect_new(cb.x, cb.y, 2, 1, 50 * DEG, &b));
    ENSURE_OK(c2d_shape_get_position(a, &p));
    ENSURE(tu_same_vec(p, ca));
    ENSURE_OK(c2d_shape_get_position(b, &p));
    ENSURE(tu_same_vec(p, cb));
    /* The corner (2,1) of the unrotated A, rotated by 40 degrees, is A's first vertex: (-w/2,-h/2). */
    c2d_vec2 v[4];
    int n = 0;
    ENSURE_OK(c2d_shape_get_vertices(a, v, 4, &n));
    ENSURE(n == 4);
    c2d_vec2 corner = tu_rot(tu_v(2, 1), 40 * DEG);
    ENSURE_NEAR(v[0].x, corner.x, TRIG_TOL);
    ENSURE_NEAR(v[0].y, corner.y, TRIG_TOL);
    corner = tu_rot(tu_v(4, 4), 50 * DEG); /* B's (+w/2,+h/2) corner, its third vertex */
    ENSURE_OK(c2d_shape_get_vertices(b, v, 4, &n));
    ENSURE_NEAR(v[2].x, corner.x, TRIG_TOL);
    ENSURE_NEAR(v[2].y, corner.y, TRIG_TOL);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(seed001_centre_offset_and_b_extent_in_a_frame_match_the_article)
{
    c2d_vec2 ca, cb, va[4], vb[4];
    c2d_shape *a, *b;
    int n;
    seed001_boxes(&ca, &cb);
    ENSURE_OK(c2d_rect_new(ca.x, ca.y, 3, 2, 40 * DEG, &a));
    ENSURE_OK(c2d_rect_new(cb.x, cb.y, 2, 1, 50 * DEG, &b));
    ENSURE_OK(c2d_shape_get_vertices(a, va, 4, &n));
    ENSURE_OK(c2d_shape_get_vertices(b, vb, 4, &n));
    /* A's own axes, read from its vertices (v0->v1 is its x axis, v1->v2 its y axis). */
    c2d_vec2 ax = tu_sub(va[1], va[0]), ay = tu_sub(va[2], va[1]);
    ax = tu_scale(ax, 1 / tu_len(ax));
    ay = tu_scale(ay, 1 / tu_len(ay));
    /* The article: posTotal = |R(-40)(bPos - aPos)| = (1.15334536, 1.96777167). */
    c2d_vec2 off = tu_sub(cb, ca);
    ENSURE_NEAR(fabs(tu_dot(off, ax)), 1.15334536, 5e-9);
    ENSURE_NEAR(fabs(tu_dot(off, ay)), 1.96777167, 5e-9);
    /* B's half extent in A's frame: |R(10 deg)| hB = (cos10 + 0.5 sin10, sin10 + 0.5 cos10), which is the
     * article's bh = posTotal - hA - (-1.41828648, 0.30171961) = (1.07163184, 0.66605206). */
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double px = tu_dot(vb[i], ax), py = tu_dot(vb[i], ay);
        lo_x = fmin(lo_x, px), hi_x = fmax(hi_x, px);
        lo_y = fmin(lo_y, py), hi_y = fmax(hi_y, py);
    }
    ENSURE_NEAR((hi_x - lo_x) / 2, cos(10 * DEG) + 0.5 * sin(10 * DEG), TRIG_TOL);
    ENSURE_NEAR((hi_y - lo_y) / 2, sin(10 * DEG) + 0.5 * cos(10 * DEG), TRIG_TOL);
    /* The article prints 8 decimals, so a value derived from two of its numbers is good to 1e-8. */
    ENSURE_NEAR((hi_x - lo_x) / 2, 1.07163184, 1e-8);
    ENSURE_NEAR((hi_y - lo_y) / 2, 0.66605206, 1e-8);
    /* The article's verdict vector posTotal - bh - hA: x overlaps, y is separated by 0.30171961. */
    ENSURE_NEAR(fabs(tu_dot(off, ax)) - (hi_x - lo_x) / 2 - 1.5, -1.41828648, 1e-8);
    ENSURE_NEAR(fabs(tu_dot(off, ay)) - (hi_y - lo_y) / 2 - 1.0, 0.30171961, 1e-8);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(box_box_seed001_40_and_50_degrees_do_not_overlap)
{
    c2d_vec2 ca, cb;
    c2d_shape *a, *b;
    int hit = -1;
    c2d_contact c;
    c2d_distance_result d;
    seed001_boxes(&ca, &cb);
    ENSURE_OK(c2d_rect_new(ca.x, ca.y, 3, 2, 40 * DEG, &a));
    ENSURE_OK(c2d_rect_new(cb.x, cb.y, 2, 1, 50 * DEG, &b));
    ENSURE_OK(c2d_overlap(a, b, &hit));
    ENSURE(hit == 0);
    ENSURE_OK(c2d_overlap(b, a, &hit));
    ENSURE(hit == 0);
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count == 0);
    ENSURE(c.depth == 0 && c.normal.x == 0 && c.normal.y == 0);
    /* The gap along A's y axis (0.3017) is a lower bound of the true distance; the oracle gives it
     * exactly from the corners rotated here by hand. */
    tu_geom ga, gb;
    seed001_geoms(&ga, &gb);
    double expected = tu_signed_distance(&ga, &gb);
    ENSURE(expected >= 0.30171961);
    ENSURE_OK(c2d_distance(a, b, &d));
    ENSURE_NEAR(d.distance, expected, TRIG_TOL);
    ENSURE_NEAR(tu_len(tu_sub(d.point_b, d.point_a)), expected, TRIG_TOL);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(box_box_seed001_closing_only_the_gap_in_a_frame_is_not_an_overlap)
{
    /* The article tests A's two axes only. Its |C|hB + hA test along B's axes gives a larger gap,
     * 0.3929 along B's y axis (worked out the same way in B's frame). Moving B 0.35 towards A along A's
     * y axis closes A's gap (0.3017 - 0.35 < 0) but leaves 0.3929 - 0.35 cos 10deg = 0.048 on B's axis:
     * still apart. A further 0.1 closes that too. */
    c2d_vec2 ca, cb;
    c2d_shape *a, *b;
    tu_geom ga, gb;
    int hit = -1;
    c2d_contact c;
    seed001_boxes(&ca, &cb);
    seed001_geoms(&ga, &gb);
    ENSURE_OK(c2d_rect_new(ca.x, ca.y, 3, 2, 40 * DEG, &a));
    ENSURE_OK(c2d_rect_new(cb.x, cb.y, 2, 1, 50 * DEG, &b));
    c2d_vec2 down = tu_rot(tu_v(0, -1), 40 * DEG);
    ENSURE_OK(c2d_shape_move(b, tu_scale(down, 0.35)));
    tu_geom_translate(&gb, tu_scale(down, 0.35));
    double gap = tu_signed_distance(&ga, &gb);
    ENSURE(gap > 0.04);
    ENSURE_OK(c2d_overlap(a, b, &hit));
    ENSURE(hit == 0);
    ENSURE_OK(c2d_overlap(b, a, &hit));
    ENSURE(hit == 0);
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count == 0);
    ENSURE_OK(c2d_shape_move(b, tu_scale(down, 0.1)));
    tu_geom_translate(&gb, tu_scale(down, 0.1));
    double depth = -tu_signed_distance(&ga, &gb);
    ENSURE(depth > 0.04);
    ENSURE_OK(c2d_overlap(a, b, &hit));
    ENSURE(hit == 1);
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count >= 1);
    ENSURE_NEAR(c.depth, depth, TRIG_TOL);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* ---- helpers for exact contacts ---------------------------------------------------------------- */

/* Checks collide(a, b) and collide(b, a) against an expected normal (A to B) and depth, and overlap. */
#define ENSURE_CONTACT(a, b, nx, ny, dep, tol)                                      \
    do {                                                                            \
        c2d_contact c_;                                                             \
        int o_ = -1;                                                                \
        ENSURE_OK(c2d_collide((a), (b), &c_));                                      \
        ENSURE_MSG(c_.count >= 1, "expected a contact, got count %d", c_.count);    \
        ENSURE_NEAR(c_.normal.x, (nx), (tol));                                      \
        ENSURE_NEAR(c_.normal.y, (ny), (tol));                                      \
        ENSURE_NEAR(c_.depth, (dep), (tol));                                        \
        ENSURE_OK(c2d_collide((b), (a), &c_));                                      \
        ENSURE_MSG(c_.count >= 1, "reverse: expected a contact, got count %d", c_.count); \
        ENSURE_NEAR(c_.normal.x, -(nx), (tol));                                     \
        ENSURE_NEAR(c_.normal.y, -(ny), (tol));                                     \
        ENSURE_NEAR(c_.depth, (dep), (tol));                                        \
        ENSURE_OK(c2d_overlap((a), (b), &o_));                                      \
        ENSURE(o_ == 1);                                                            \
        ENSURE_OK(c2d_overlap((b), (a), &o_));                                      \
        ENSURE(o_ == 1);                                                            \
    } while (0)

#define ENSURE_APART(a, b, dist, tol)                                               \
    do {                                                                            \
        c2d_contact c_;                                                             \
        c2d_distance_result d_;                                                     \
        int o_ = -1;                                                                \
        ENSURE_OK(c2d_collide((a), (b), &c_));                                      \
        ENSURE(c_.count == 0);                                                      \
        ENSURE_OK(c2d_overlap((a), (b), &o_));                                      \
        ENSURE(o_ == 0);                                                            \
        ENSURE_OK(c2d_overlap((b), (a), &o_));                                      \
        ENSURE(o_ == 0);                                                            \
        ENSURE_OK(c2d_distance((a), (b), &d_));                                     \
        ENSURE_NEAR(d_.distance, (dist), (tol));                                    \
    } while (0)

/* ---- seed 002: AABB pairs, circle pairs ----------------------------------------------------------- */

TEST(aabb_pair_seed002_overlap_depth_is_the_smaller_axis_overlap)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_rect_new(1, 1, 2, 2, 0, &a));     /* [0,2] x [0,2] */
    ENSURE_OK(c2d_rect_new(2.5, 2, 2, 2, 0, &b));   /* [1.5,3.5] x [1,3]: overlaps 0.5 in x, 1 in y */
    ENSURE_CONTACT(a, b, 1, 0, 0.5, 0);
    /* Face against face: two points, at the ends of the shared stretch y in [1,2], midway between the
     * faces x = 2 (A) and x = 1.5 (B), each 0.5 deep. */
    c2d_contact c;
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count == 2);
    int first = c.points[0].y == 1 ? 0 : 1;
    ENSURE(c.points[first].x == 1.75 && c.points[first].y == 1);
    ENSURE(c.points[1 - first].x == 1.75 && c.points[1 - first].y == 2);
    ENSURE(c.point_depths[0] == 0.5 && c.point_depths[1] == 0.5);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(aabb_pair_seed002_touching_faces_overlap_with_depth_zero)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_rect_new(1, 1, 2, 2, 0, &a));  /* [0,2] x [0,2] */
    ENSURE_OK(c2d_rect_new(3, 1, 2, 1, 0, &b));  /* [2,4] x [0.5,1.5]: shares the line x = 2 */
    ENSURE_CONTACT(a, b, 1, 0, 0, 0);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(aabb_pair_seed002_touching_corners_overlap_with_depth_zero)
{
    c2d_shape *a, *b;
    c2d_contact c;
    int o = -1;
    ENSURE_OK(c2d_rect_new(1, 1, 2, 2, 0, &a));  /* [0,2] x [0,2] */
    ENSURE_OK(c2d_rect_new(3, 3, 2, 2, 0, &b));  /* [2,4] x [2,4]: only the point (2,2) is shared */
    ENSURE_OK(c2d_overlap(a, b, &o));
    ENSURE(o == 1);
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count >= 1);
    ENSURE(c.depth == 0);
    /* Either face normal separates them by zero; both are right. */
    ENSURE((c.normal.x == 1 && c.normal.y == 0) || (c.normal.x == 0 && c.normal.y == 1));
    ENSURE_NEAR(c.points[0].x, 2, 0);
    ENSURE_NEAR(c.points[0].y, 2, 0);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(aabb_pair_seed002_apart_boxes_report_their_gap)
{
    c2d_shape *a, *b, *c;
    ENSURE_OK(c2d_rect_new(1, 1, 2, 2, 0, &a));      /* [0,2] x [0,2] */
    ENSURE_OK(c2d_rect_new(3.25, 1, 1.5, 2, 0, &b)); /* [2.5,4] x [0,2]: 0.5 to the right */
    ENSURE_OK(c2d_rect_new(3.5, 3.5, 1, 1, 0, &c));  /* [3,4] x [3,4]: corner to corner, sqrt 2 */
    ENSURE_APART(a, b, 0.5, 0);
    ENSURE_APART(a, c, sqrt(2.0), 1e-15);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
    c2d_shape_destroy(c);
}

TEST(circle_pair_seed002_3_4_5_centres_touch_exactly)
{
    c2d_shape *a, *b;
    c2d_contact c;
    ENSURE_OK(c2d_circle_new(0, 0, 2, &a));
    ENSURE_OK(c2d_circle_new(3, 4, 3, &b)); /* centre distance 5 = 2 + 3 */
    ENSURE_CONTACT(a, b, 0.6, 0.8, 0, 2e-16); /* 3/5 and 4/5: one ulp */
    /* The touching point is 2 along the normal from A's centre: (1.2, 1.6). */
    ENSURE_OK(c2d_collide(a, b, &c));
    ENSURE(c.count == 1);
    ENSURE_NEAR(c.points[0].x, 1.2, 1e-15);
    ENSURE_NEAR(c.points[0].y, 1.6, 1e-15);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(circle_pair_seed002_overlap_and_gap_by_half)
{
    c2d_shape *a, *b, *c;
    c2d_contact k;
    ENSURE_OK(c2d_circle_new(0, 0, 2, &a));
    ENSURE_OK(c2d_circle_new(3, 4, 3.5, &b)); /* 2 + 3.5 - 5 = 0.5 deep */
    ENSURE_OK(c2d_circle_new(3, 4, 2.5, &c)); /* 5 - 2 - 2.5 = 0.5 apart */
    ENSURE_CONTACT(a, b, 0.6, 0.8, 0.5, 1e-15);
    /* Midway between the surfaces along the normal: A's surface at 2, B's at 1.5 from A's centre. */
    ENSURE_OK(c2d_collide(a, b, &k));
    ENSURE_NEAR(k.points[0].x, 0.6 * 1.75, 1e-15);
    ENSURE_NEAR(k.points[0].y, 0.8 * 1.75, 1e-15);
    ENSURE_APART(a, c, 0.5, 1e-15);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
    c2d_shape_destroy(c);
}

TEST(circle_pair_seed002_just_apart_by_1e9_relative_does_not_overlap)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_circle_new(0, 0, 2, &a));
    ENSURE_OK(c2d_circle_new(3, 4, 3 * (1 - 1e-9), &b));
    ENSURE_APART(a, b, 3e-9, 1e-15);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* ---- seed 002: SAT for convex polygons ----------------------------------------------------------------- */

TEST(polygon_rect_seed002_sat_picks_the_axis_of_least_overlap)
{
    /* Triangle (0,0),(4,0),(0,4) and the box [3,5] x [0.5,1.5]. Overlaps along the candidate axes: x 1,
     * y 1.5, the hypotenuse normal (1,1)/sqrt2: max(x+y) over the triangle is 4, min over the box 3.5,
     * so (4 - 3.5)/sqrt2 = sqrt2/4. The least is the hypotenuse: B leaves along (1,1)/sqrt2. */
    c2d_vec2 tri[3];
    c2d_shape *a, *b;
    tri[0] = tu_v(0, 0), tri[1] = tu_v(4, 0), tri[2] = tu_v(0, 4);
    ENSURE_OK(c2d_polygon_new(tri, 3, &a));
    ENSURE_OK(c2d_rect_new(4, 1, 2, 1, 0, &b));
    ENSURE_CONTACT(a, b, sqrt(0.5), sqrt(0.5), sqrt(2.0) / 4, 1e-15);
    c2d_shape_destroy(b);
    /* Moved to [3.6,5.6] x [0.5,1.5]: min(x+y) = 4.1 > 4, separated along the hypotenuse normal by
     * 0.1/sqrt2 even though the x and y projections still overlap. */
    ENSURE_OK(c2d_rect_new(4.6, 1, 2, 1, 0, &b));
    ENSURE_APART(a, b, 0.1 / sqrt(2.0), 1e-15);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* ---- seeds 002/003: circle against an axis-aligned rect, region by region ----------------------- */

/* The rect [0,4] x [0,2] used below: centre (2,1), 4 wide, 2 high; its corner (4,2). */
static c2d_status unit_rect(c2d_shape **out) { return c2d_rect_new(2, 1, 4, 2, 0, out); }

TEST(circle_rect_seed002_face_region_pushes_along_the_face_normal)
{
    c2d_shape *r, *c;
    ENSURE_OK(unit_rect(&r));
    ENSURE_OK(c2d_circle_new(2, 2.5, 1, &c)); /* above the top face, 0.5 deep */
    ENSURE_CONTACT(r, c, 0, 1, 0.5, 0);
    c2d_shape_destroy(c);
    ENSURE_OK(c2d_circle_new(-0.5, 1, 1, &c)); /* left of the left face, 0.5 deep */
    ENSURE_CONTACT(r, c, -1, 0, 0.5, 0);
    c2d_shape_destroy(c);
    c2d_shape_destroy(r);
}

TEST(circle_rect_seed003_touching_a_face_counts_as_overlap)
{
    c2d_shape *r, *c;
    ENSURE_OK(unit_rect(&r));
    ENSURE_OK(c2d_circle_new(2, 3.5, 1.5, &c)); /* lowest point (2, 2): on the top face */
    ENSURE_CONTACT(r, c, 0, 1, 0, 0);
    c2d_shape_destroy(c);
    ENSURE_OK(c2d_circle_new(2, 3.5, 1.5 * (1 - 1e-9), &c));
    ENSURE_APART(r, c, 1.5e-9, 1e-15);
    c2d_shape_destroy(c);
    c2d_shape_destroy(r);
}

TEST(circle_rect_seed003_touching_a_corner_counts_as_overlap)
{
    c2d_shape *r, *c;
    ENSURE_OK(unit_rect(&r));
    /* Corner (4,2) plus (3,4): the centre (7,6) is exactly 5 from the corner. */
    ENSURE_OK(c2d_circle_new(7, 6, 5, &c));
    ENSURE_CONTACT(r, c, 0.6, 0.8, 0, 2e-16); /* 3/5 and 4/5: one ulp */
    c2d_shape_destroy(c);
    ENSURE_OK(c2d_circle_new(7, 6, 5.5, &c));
    ENSURE_CONTACT(r, c, 0.6, 0.8, 0.5, 1e-15);
    c2d_shape_destroy(c);
    ENSURE_OK(c2d_circle_new(7, 6, 5 * (1 - 1e-9), &c));
    ENSURE_APART(r, c, 5e-9, 1e-15);
    c2d_shape_destroy(c);
    c2d_shape_destroy(r);
}

TEST(circle_rect_seed003_expanded_rect_corner_outside_the_rounding_is_apart)
{
    c2d_shape *r, *c;
    ENSURE_OK(unit_rect(&r));
    /* (4.75, 2.75) lies inside the rect expanded by r = 1 (x < 5, y < 3), but in its corner region,
     * 0.75 sqrt 2 = 1.06 from the corner: the article's second stage says no collision. */
    ENSURE_OK(c2d_circle_new(4.75, 2.75, 1, &c));
    ENSURE_APART(r, c, 0.75 * sqrt(2.0) - 1, 1e-15);
    c2d_shape_destroy(c);
    c2d_shape_destroy(r);
}

TEST(circle_rect_seed002_centre_inside_pushes_out_through_the_nearest_face)
{
    c2d_shape *r, *c;
    ENSURE_OK(unit_rect(&r));
    /* Centre (0.75, 1): 0.75 from the left face, 1 from top and bottom, 3.25 from the right. */
    ENSURE_OK(c2d_circle_new(0.75, 1, 0.5, &c));
    ENSURE_CONTACT(r, c, -1, 0, 1.25, 0);
    c2d_shape_destroy(c);
    c2d_shape_destroy(r);
}

/* ---- seed 000: circle against a rotated rectangle --------------------------------------------------- */

/* A 6 x 4 rect centred at (10, 20) turned by 30 degrees; circles are placed by their centre in the
 * rect's own frame, so the answer is the axis-aligned one (the seed's "rotate the circle by -theta"). */
#define R0_ANGLE (30 * DEG)
static c2d_vec2 r0_world(double lx, double ly)
{
    return tu_add(tu_v(10, 20), tu_rot(tu_v(lx, ly), R0_ANGLE));
}

TEST(circle_rotated_rect_seed000_answers_in_the_rect_frame)
{
    c2d_shape *r, *c;
    c2d_vec2 p, ax = tu_rot(tu_v(1, 0), R0_ANGLE), ay = tu_rot(tu_v(0, 1), R0_ANGLE);
    ENSURE_OK(c2d_rect_new(10, 20, 6, 4, R0_ANGLE, &r));

    p = r0_world(3.5, 0); /* 0.5 into the right face (local x = 3) with r = 1 */
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    ENSURE_CONTACT(r, c, ax.x, ax.y, 0.5, TRIG_TOL);
    c2d_shape_destroy(c);

    p = r0_world(3.9, 0.5); /* the seed truncates 3.9 to 3 (depth 1): in doubles it is 0.1 deep */
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    ENSURE_CONTACT(r, c, ax.x, ax.y, 0.1, TRIG_TOL);
    c2d_shape_destroy(c);

    p = r0_world(0, -2.75); /* below the bottom face (local y = -2): 0.25 deep with r = 1 */
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    ENSURE_CONTACT(r, c, -ay.x, -ay.y, 0.25, TRIG_TOL);
    c2d_shape_destroy(c);

    p = r0_world(3 + 0.6, 2 + 0.8); /* 1 from the corner (3,2) along (0.6,0.8): touching, r = 1 */
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    c2d_vec2 n = tu_rot(tu_v(0.6, 0.8), R0_ANGLE);
    ENSURE_CONTACT(r, c, n.x, n.y, 0, TRIG_TOL);
    c2d_shape_destroy(c);

    /* Just apart by 1e-9 relative to the scene (coordinates ~20): 2e-8 past the right face, and past
     * the corner; the rotation's rounding (~1e-14) is far smaller. */
    p = r0_world(4 + 2e-8, 0);
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    ENSURE_APART(r, c, 2e-8, TRIG_TOL);
    c2d_shape_destroy(c);
    p = r0_world(3 + 0.6 * (1 + 2e-8), 2 + 0.8 * (1 + 2e-8));
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    ENSURE_APART(r, c, 2e-8, TRIG_TOL);
    c2d_shape_destroy(c);

    p = r0_world(3 + 1.2, 2 + 1.6); /* 2 from the corner, r = 1: 1 apart */
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    ENSURE_APART(r, c, 1, TRIG_TOL);
    c2d_shape_destroy(c);

    /* Centre on the rect's centre: the nearest faces are top and bottom (2 away), so 2 + 0.5 deep,
     * along the rect's y axis (either sign is a minimum push). */
    ENSURE_OK(c2d_circle_new(10, 20, 0.5, &c));
    c2d_contact k;
    ENSURE_OK(c2d_collide(r, c, &k));
    ENSURE(k.count >= 1);
    ENSURE_NEAR(k.depth, 2.5, TRIG_TOL);
    ENSURE_NEAR(fabs(tu_dot(k.normal, ay)), 1, TRIG_TOL);
    c2d_shape_destroy(c);
    c2d_shape_destroy(r);
}

TEST(circle_rotated_rect_seed000_near_the_expanded_corner_is_apart)
{
    c2d_shape *r, *c;
    /* Local centre (3.75, 2.75): inside the rect expanded by 1 (|x| < 4, |y| < 3) but 0.75 sqrt 2 from
     * the corner; the rotation must not change the seed-003 answer. */
    c2d_vec2 p = r0_world(3.75, 2.75);
    ENSURE_OK(c2d_rect_new(10, 20, 6, 4, R0_ANGLE, &r));
    ENSURE_OK(c2d_circle_new(p.x, p.y, 1, &c));
    ENSURE_APART(r, c, 0.75 * sqrt(2.0) - 1, TRIG_TOL);
    c2d_shape_destroy(c);
    c2d_shape_destroy(r);
}

/* ---- the header's own special case: crossing segments ------------------------------------------------ */

TEST(crossing_segments_report_the_shortest_push_that_separates_them)
{
    c2d_shape *a, *b;
    /* A from (-1.5,0) to (3,0), B from (0,-1) to (0,2), crossing at the origin. B separates by moving
     * 1.5 left, 3 right, 1 up (its lower end onto A) or 2 down: the shortest is 1 along +y. */
    ENSURE_OK(c2d_segment_new(tu_v(-1.5, 0), tu_v(3, 0), &a));
    ENSURE_OK(c2d_segment_new(tu_v(0, -1), tu_v(0, 2), &b));
    ENSURE_CONTACT(a, b, 0, 1, 1, 0);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

TEST(capsule_against_circle_end_on_touches_at_3_4_5)
{
    c2d_shape *a, *b;
    /* Capsule core (0,0)-(4,0), r = 2; circle centre (7,4) is 5 from the end (4,0): touching with r = 3. */
    ENSURE_OK(c2d_capsule_new(tu_v(0, 0), tu_v(4, 0), 2, &a));
    ENSURE_OK(c2d_circle_new(7, 4, 3, &b));
    ENSURE_CONTACT(a, b, 0.6, 0.8, 0, 2e-16);
    c2d_shape_destroy(b);
    ENSURE_OK(c2d_circle_new(2, 3, 1.5, &b)); /* over the flat side: 2 + 1.5 - 3 = 0.5 deep */
    ENSURE_CONTACT(a, b, 0, 1, 0.5, 0);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}
