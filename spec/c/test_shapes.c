/* test_shapes.c - shape basics as documented in collide2d.h: what each constructor stores (kind,
 * position, angle, radius, vertices and their order, bounding box), how polygons are cleaned (winding,
 * duplicates, collinear middle points, centroid), the transform setters, cloning and destroying, and the
 * version calls. Values chosen so that the expected results are exact in binary unless a tolerance is
 * given (and then it says why).
 */
#include "test.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* Whether the polygon v[0..n) equals want[0..n) up to which vertex comes first (the header promises
 * counter-clockwise order, not a starting vertex). Exact comparison within tol. */
static int same_cycle(const c2d_vec2 *v, int n, const c2d_vec2 *want, int m, double tol)
{
    if (n != m)
        return 0;
    for (int s = 0; s < n; s++) {
        int ok = 1;
        for (int i = 0; i < n && ok; i++) {
            c2d_vec2 a = v[(i + s) % n], b = want[i];
            ok = fabs(a.x - b.x) <= tol && fabs(a.y - b.y) <= tol;
        }
        if (ok)
            return 1;
    }
    return 0;
}

TEST(version_calls_report_the_header_version)
{
    ENSURE(c2d_version() == C2D_VERSION_NUMBER);
    ENSURE(c2d_version() == 10000);
    ENSURE(strcmp(c2d_version_string(), "1.0.0") == 0);
}

TEST(circle_new_stores_centre_radius_and_tight_aabb)
{
    c2d_shape *c;
    c2d_vec2 p, v[2];
    c2d_aabb box;
    double r, angle;
    int n = -1;
    ENSURE_OK(c2d_circle_new(1.5, -2, 0.75, &c));
    ENSURE(c2d_shape_get_type(c) == C2D_SHAPE_CIRCLE);
    ENSURE_OK(c2d_shape_get_position(c, &p));
    ENSURE(p.x == 1.5 && p.y == -2);
    ENSURE_OK(c2d_shape_get_angle(c, &angle));
    ENSURE(angle == 0);
    ENSURE_OK(c2d_shape_get_radius(c, &r));
    ENSURE(r == 0.75);
    ENSURE_OK(c2d_shape_get_aabb(c, &box));
    ENSURE(box.min.x == 0.75 && box.min.y == -2.75 && box.max.x == 2.25 && box.max.y == -1.25);
    ENSURE_OK(c2d_shape_get_vertices(c, v, 2, &n));
    ENSURE(n == 1 && v[0].x == 1.5 && v[0].y == -2);
    c2d_shape_destroy(c);
}

TEST(rect_new_vertices_start_at_minus_half_extents_counter_clockwise)
{
    c2d_shape *r;
    c2d_vec2 v[4], p;
    c2d_aabb box;
    double rad, angle;
    int n = -1;
    ENSURE_OK(c2d_rect_new(1, 2, 4, 2, 0, &r));
    ENSURE(c2d_shape_get_type(r) == C2D_SHAPE_RECT);
    ENSURE_OK(c2d_shape_get_vertices(r, v, 4, &n));
    ENSURE(n == 4);
    ENSURE(v[0].x == -1 && v[0].y == 1);
    ENSURE(v[1].x == 3 && v[1].y == 1);
    ENSURE(v[2].x == 3 && v[2].y == 3);
    ENSURE(v[3].x == -1 && v[3].y == 3);
    ENSURE_OK(c2d_shape_get_position(r, &p));
    ENSURE(p.x == 1 && p.y == 2);
    ENSURE_OK(c2d_shape_get_angle(r, &angle));
    ENSURE(angle == 0);
    ENSURE_OK(c2d_shape_get_radius(r, &rad));
    ENSURE(rad == 0);
    ENSURE_OK(c2d_shape_get_aabb(r, &box));
    ENSURE(box.min.x == -1 && box.min.y == 1 && box.max.x == 3 && box.max.y == 3);
    c2d_shape_destroy(r);
}

TEST(rect_new_with_angle_turns_about_its_centre)
{
    c2d_shape *r;
    c2d_vec2 v[4], want[4];
    c2d_aabb box;
    double angle, a = 0.5;
    int n;
    ENSURE_OK(c2d_rect_new(10, -5, 4, 2, a, &r));
    ENSURE_OK(c2d_shape_get_angle(r, &angle));
    ENSURE(angle == a);
    ENSURE_OK(c2d_shape_get_vertices(r, v, 4, &n));
    tu_rect_corners(tu_v(10, -5), 4, 2, a, want);
    /* sin/cos of 0.5 are rounded; a few ulps of coordinates of size 10. */
    for (int i = 0; i < 4; i++) {
        ENSURE_NEAR(v[i].x, want[i].x, 1e-14);
        ENSURE_NEAR(v[i].y, want[i].y, 1e-14);
    }
    /* Tight box: half extents (2 cos a + 1 sin a, 2 sin a + 1 cos a). */
    ENSURE_OK(c2d_shape_get_aabb(r, &box));
    ENSURE_NEAR(box.max.x - 10, 2 * cos(a) + sin(a), 1e-14);
    ENSURE_NEAR(box.max.y + 5, 2 * sin(a) + cos(a), 1e-14);
    ENSURE_NEAR(10 - box.min.x, 2 * cos(a) + sin(a), 1e-14);
    ENSURE_NEAR(-5 - box.min.y, 2 * sin(a) + cos(a), 1e-14);
    c2d_shape_destroy(r);
}

TEST(polygon_new_position_is_the_centroid_of_area)
{
    /* The rect [0,4]x[0,2] (area 8, centroid (2,1)) plus the triangle (0,2),(4,2),(0,4) (area 4,
     * centroid (4/3, 8/3)): centroid ((16 + 16/3)/12, (8 + 32/3)/12) = (16/9, 14/9). Not the vertex
     * mean, which would be (2, 1.5). */
    c2d_vec2 pts[4], p, v[4];
    c2d_shape *s;
    int n;
    double angle, r;
    pts[0] = tu_v(0, 0);
    pts[1] = tu_v(4, 0);
    pts[2] = tu_v(4, 2);
    pts[3] = tu_v(0, 4);
    ENSURE_OK(c2d_polygon_new(pts, 4, &s));
    ENSURE(c2d_shape_get_type(s) == C2D_SHAPE_POLYGON);
    ENSURE_OK(c2d_shape_get_position(s, &p));
    ENSURE_NEAR(p.x, 16.0 / 9.0, 1e-15);
    ENSURE_NEAR(p.y, 14.0 / 9.0, 1e-15);
    ENSURE_OK(c2d_shape_get_angle(s, &angle));
    ENSURE(angle == 0);
    ENSURE_OK(c2d_shape_get_radius(s, &r));
    ENSURE(r == 0);
    /* The vertices stay where they were given (world coordinates), up to rounding through the centroid. */
    ENSURE_OK(c2d_shape_get_vertices(s, v, 4, &n));
    ENSURE(same_cycle(v, n, pts, 4, 1e-15));
    c2d_shape_destroy(s);
}

TEST(polygon_new_stores_clockwise_input_counter_clockwise)
{
    c2d_vec2 cw[4], ccw[4], v[4];
    c2d_shape *s;
    int n;
    cw[0] = tu_v(0, 0), cw[1] = tu_v(0, 2), cw[2] = tu_v(2, 2), cw[3] = tu_v(2, 0);
    ccw[0] = tu_v(0, 0), ccw[1] = tu_v(2, 0), ccw[2] = tu_v(2, 2), ccw[3] = tu_v(0, 2);
    ENSURE_OK(c2d_polygon_new(cw, 4, &s));
    ENSURE_OK(c2d_shape_get_vertices(s, v, 4, &n));
    ENSURE(same_cycle(v, n, ccw, 4, 0));
    c2d_shape_destroy(s);
}

TEST(polygon_new_drops_repeated_points_and_collinear_middle_points)
{
    c2d_vec2 pts[8], want[4], v[8];
    c2d_shape *s;
    int n;
    /* A 2x2 square given with a repeated corner, a point in the middle of the bottom edge, another on
     * the right edge, and the first point repeated at the end (a closed ring). */
    pts[0] = tu_v(0, 0), pts[1] = tu_v(0, 0), pts[2] = tu_v(1, 0), pts[3] = tu_v(2, 0);
    pts[4] = tu_v(2, 1), pts[5] = tu_v(2, 2), pts[6] = tu_v(0, 2), pts[7] = tu_v(0, 0);
    want[0] = tu_v(0, 0), want[1] = tu_v(2, 0), want[2] = tu_v(2, 2), want[3] = tu_v(0, 2);
    ENSURE_OK(c2d_polygon_new(pts, 8, &s));
    ENSURE_OK(c2d_shape_get_vertices(s, v, 8, &n));
    ENSURE_MSG(n == 4, "kept %d vertices", n);
    ENSURE(same_cycle(v, n, want, 4, 0));
    c2d_vec2 p;
    ENSURE_OK(c2d_shape_get_position(s, &p));
    ENSURE(p.x == 1 && p.y == 1);
    c2d_shape_destroy(s);
}

TEST(hull_new_wraps_points_in_any_order)
{
    c2d_vec2 pts[8], want[4], v[8], p;
    c2d_shape *s;
    int n;
    /* Interior points, a point on an edge and a shuffled order: the hull is the square [0,4]^2. */
    pts[0] = tu_v(1, 1), pts[1] = tu_v(4, 4), pts[2] = tu_v(2, 0), pts[3] = tu_v(0, 0);
    pts[4] = tu_v(2, 2), pts[5] = tu_v(0, 4), pts[6] = tu_v(4, 0), pts[7] = tu_v(3, 1);
    want[0] = tu_v(0, 0), want[1] = tu_v(4, 0), want[2] = tu_v(4, 4), want[3] = tu_v(0, 4);
    ENSURE_OK(c2d_hull_new(pts, 8, &s));
    ENSURE(c2d_shape_get_type(s) == C2D_SHAPE_POLYGON);
    ENSURE_OK(c2d_shape_get_vertices(s, v, 8, &n));
    ENSURE_MSG(n == 4, "hull has %d vertices", n);
    ENSURE(same_cycle(v, n, want, 4, 0));
    ENSURE_OK(c2d_shape_get_position(s, &p));
    ENSURE(p.x == 2 && p.y == 2);
    c2d_shape_destroy(s);
}

TEST(hull_new_accepts_the_non_convex_points_polygon_new_rejects)
{
    c2d_vec2 pts[4], want[3], v[4];
    c2d_shape *s = NULL;
    int n;
    pts[0] = tu_v(0, 0), pts[1] = tu_v(4, 0), pts[2] = tu_v(1, 1), pts[3] = tu_v(0, 4); /* a dart */
    ENSURE(c2d_polygon_new(pts, 4, &s) == C2D_ERR_NOT_CONVEX);
    ENSURE(s == NULL);
    want[0] = tu_v(0, 0), want[1] = tu_v(4, 0), want[2] = tu_v(0, 4);
    ENSURE_OK(c2d_hull_new(pts, 4, &s));
    ENSURE_OK(c2d_shape_get_vertices(s, v, 4, &n));
    ENSURE(same_cycle(v, n, want, 3, 0));
    c2d_shape_destroy(s);
}

TEST(hull_new_takes_the_maximum_point_count)
{
    /* C2D_MAX_POLYGON_POINTS points, all inside [-1,1]^2 except the four corners: the hull is exact. */
    int n = C2D_MAX_POLYGON_POINTS;
    c2d_vec2 *pts = (c2d_vec2 *)malloc(sizeof(c2d_vec2) * (size_t)n), v[8], want[4];
    c2d_shape *s;
    int count;
    ENSURE(pts != NULL);
    for (int i = 0; i < n; i++)
        pts[i] = tu_random_vec(-0.99, 0.99, -0.99, 0.99);
    pts[17] = tu_v(-1, -1), pts[4000] = tu_v(1, -1), pts[n - 1] = tu_v(1, 1), pts[9] = tu_v(-1, 1);
    want[0] = tu_v(-1, -1), want[1] = tu_v(1, -1), want[2] = tu_v(1, 1), want[3] = tu_v(-1, 1);
    c2d_status st = c2d_hull_new(pts, n, &s);
    free(pts);
    ENSURE(st == C2D_OK);
    ENSURE_OK(c2d_shape_get_vertices(s, v, 8, &count));
    ENSURE(same_cycle(v, count, want, 4, 0));
    c2d_shape_destroy(s);
}

TEST(polygon_new_takes_the_maximum_point_count)
{
    /* C2D_MAX_POLYGON_POINTS points on a circle of radius 1000, in order: all are corners (each turns by
     * 1e-4 rad, far above any collinearity tolerance), and the centroid is the centre. */
    int n = C2D_MAX_POLYGON_POINTS, count = -1;
    c2d_vec2 *pts = (c2d_vec2 *)malloc(sizeof(c2d_vec2) * (size_t)n), p;
    c2d_shape *s;
    ENSURE(pts != NULL);
    for (int i = 0; i < n; i++)
        pts[i] = tu_v(5 + 1000 * cos(2 * TU_PI * i / n), -7 + 1000 * sin(2 * TU_PI * i / n));
    c2d_status st = c2d_polygon_new(pts, n, &s);
    free(pts);
    ENSURE(st == C2D_OK);
    st = c2d_shape_get_vertices(s, NULL, 0, &count);
    ENSURE((st == C2D_OK || st == C2D_ERR_CAPACITY) && count == n);
    ENSURE_OK(c2d_shape_get_position(s, &p));
    /* The centroid sums n terms of size ~1e6: 1e-9 absorbs the rounding. */
    ENSURE_NEAR(p.x, 5, 1e-9);
    ENSURE_NEAR(p.y, -7, 1e-9);
    c2d_shape_destroy(s);
}

TEST(polygon_new_rejects_a_boundary_winding_twice_even_at_the_maximum_point_count)
{
    /* Every turn of this boundary is to the left (by 4 pi / n), but it goes twice around the circle:
     * its turns sum to 4 pi. With the most points, the sum of the most atan2 roundings must still stay
     * far on the right side of the 3 pi threshold (n odd, so no two points coincide). */
    int n = C2D_MAX_POLYGON_POINTS - 1;
    c2d_vec2 *pts = (c2d_vec2 *)malloc(sizeof(c2d_vec2) * (size_t)n);
    c2d_shape *s = NULL;
    ENSURE(pts != NULL);
    for (int i = 0; i < n; i++)
        pts[i] = tu_v(5 + 1000 * cos(4 * TU_PI * i / n), -7 + 1000 * sin(4 * TU_PI * i / n));
    c2d_status st = c2d_polygon_new(pts, n, &s);
    free(pts);
    ENSURE_MSG(st == C2D_ERR_NOT_CONVEX, "status %d", (int)st);
    ENSURE(s == NULL);
}

TEST(capsule_and_segment_sit_at_their_midpoint)
{
    c2d_shape *c, *g;
    c2d_vec2 p, v[2];
    c2d_aabb box;
    double r;
    int n;
    ENSURE_OK(c2d_capsule_new(tu_v(-1, 0), tu_v(3, 2), 0.5, &c));
    ENSURE(c2d_shape_get_type(c) == C2D_SHAPE_CAPSULE);
    ENSURE_OK(c2d_shape_get_position(c, &p));
    ENSURE(p.x == 1 && p.y == 1);
    ENSURE_OK(c2d_shape_get_radius(c, &r));
    ENSURE(r == 0.5);
    ENSURE_OK(c2d_shape_get_vertices(c, v, 2, &n));
    ENSURE(n == 2 && v[0].x == -1 && v[0].y == 0 && v[1].x == 3 && v[1].y == 2);
    ENSURE_OK(c2d_shape_get_aabb(c, &box));
    ENSURE(box.min.x == -1.5 && box.min.y == -0.5 && box.max.x == 3.5 && box.max.y == 2.5);

    ENSURE_OK(c2d_segment_new(tu_v(2, 5), tu_v(-2, 1), &g));
    ENSURE(c2d_shape_get_type(g) == C2D_SHAPE_SEGMENT);
    ENSURE_OK(c2d_shape_get_position(g, &p));
    ENSURE(p.x == 0 && p.y == 3);
    ENSURE_OK(c2d_shape_get_radius(g, &r));
    ENSURE(r == 0);
    ENSURE_OK(c2d_shape_get_vertices(g, v, 2, &n));
    ENSURE(n == 2 && v[0].x == 2 && v[0].y == 5 && v[1].x == -2 && v[1].y == 1);
    ENSURE_OK(c2d_shape_get_aabb(g, &box));
    ENSURE(box.min.x == -2 && box.min.y == 1 && box.max.x == 2 && box.max.y == 5);
    c2d_shape_destroy(c);
    c2d_shape_destroy(g);
}

TEST(set_position_and_move_carry_every_vertex)
{
    c2d_shape *s;
    c2d_vec2 v[4], p;
    c2d_aabb box;
    int n;
    ENSURE_OK(c2d_rect_new(0, 0, 2, 2, 0, &s));
    ENSURE_OK(c2d_shape_set_position(s, tu_v(5, 6)));
    ENSURE_OK(c2d_shape_get_position(s, &p));
    ENSURE(p.x == 5 && p.y == 6);
    ENSURE_OK(c2d_shape_get_vertices(s, v, 4, &n));
    ENSURE(v[0].x == 4 && v[0].y == 5 && v[2].x == 6 && v[2].y == 7);
    ENSURE_OK(c2d_shape_move(s, tu_v(-1, 0.5)));
    ENSURE_OK(c2d_shape_get_position(s, &p));
    ENSURE(p.x == 4 && p.y == 6.5);
    ENSURE_OK(c2d_shape_get_aabb(s, &box));
    ENSURE(box.min.x == 3 && box.min.y == 5.5 && box.max.x == 5 && box.max.y == 7.5);
    c2d_shape_destroy(s);
}

TEST(set_angle_and_rotate_turn_about_the_position_and_are_not_wrapped)
{
    c2d_shape *s;
    c2d_vec2 v[4], p, want[4];
    double angle;
    int n;
    ENSURE_OK(c2d_rect_new(1, 1, 4, 2, 0, &s));
    ENSURE_OK(c2d_shape_set_angle(s, TU_PI / 2));
    ENSURE_OK(c2d_shape_get_angle(s, &angle));
    ENSURE(angle == TU_PI / 2);
    ENSURE_OK(c2d_shape_get_position(s, &p));
    ENSURE(p.x == 1 && p.y == 1);
    /* A quarter turn: the 4x2 box stands up, its first vertex (-2,-1) goes to (1,-2) in its frame. */
    ENSURE_OK(c2d_shape_get_vertices(s, v, 4, &n));
    ENSURE_NEAR(v[0].x, 2, 1e-15);
    ENSURE_NEAR(v[0].y, -1, 1e-15);
    ENSURE_OK(c2d_shape_rotate(s, 3 * TU_PI));
    ENSURE_OK(c2d_shape_get_angle(s, &angle));
    ENSURE_NEAR(angle, 3.5 * TU_PI, 1e-15); /* as set: 3.5 pi, not wrapped to -pi/2 */
    ENSURE_OK(c2d_shape_set_angle(s, 100));
    ENSURE_OK(c2d_shape_get_angle(s, &angle));
    ENSURE(angle == 100);
    ENSURE_OK(c2d_shape_get_vertices(s, v, 4, &n));
    tu_rect_corners(tu_v(1, 1), 4, 2, 100, want);
    for (int i = 0; i < 4; i++) {
        ENSURE_NEAR(v[i].x, want[i].x, 1e-14);
        ENSURE_NEAR(v[i].y, want[i].y, 1e-14);
    }
    c2d_shape_destroy(s);
}

TEST(polygon_turns_about_its_centroid)
{
    c2d_vec2 pts[3], v[3], want[3], p;
    c2d_shape *s;
    int n;
    pts[0] = tu_v(0, 0), pts[1] = tu_v(3, 0), pts[2] = tu_v(0, 3); /* centroid (1,1) */
    ENSURE_OK(c2d_polygon_new(pts, 3, &s));
    ENSURE_OK(c2d_shape_get_position(s, &p));
    ENSURE_NEAR(p.x, 1, 1e-15);
    ENSURE_NEAR(p.y, 1, 1e-15);
    ENSURE_OK(c2d_shape_set_transform(s, tu_v(10, 0), TU_PI));
    ENSURE_OK(c2d_shape_get_vertices(s, v, 3, &n));
    /* Half a turn about the centroid, then the centroid to (10,0): v -> (10,0) - (v - (1,1)). */
    for (int i = 0; i < 3; i++)
        want[i] = tu_sub(tu_v(11, 1), pts[i]);
    ENSURE(same_cycle(v, n, want, 3, 1e-14));
    c2d_shape_destroy(s);
}

TEST(capsule_turns_about_its_midpoint_keeping_its_radius)
{
    c2d_shape *s;
    c2d_vec2 v[2];
    double r;
    int n;
    ENSURE_OK(c2d_capsule_new(tu_v(0, 0), tu_v(4, 0), 1, &s));
    ENSURE_OK(c2d_shape_rotate(s, TU_PI / 2));
    ENSURE_OK(c2d_shape_get_vertices(s, v, 2, &n));
    ENSURE(n == 2);
    ENSURE_NEAR(v[0].x, 2, 1e-15);
    ENSURE_NEAR(v[0].y, -2, 1e-15);
    ENSURE_NEAR(v[1].x, 2, 1e-15);
    ENSURE_NEAR(v[1].y, 2, 1e-15);
    ENSURE_OK(c2d_shape_get_radius(s, &r));
    ENSURE(r == 1);
    c2d_shape_destroy(s);
}

TEST(get_vertices_reports_the_count_without_writing)
{
    c2d_shape *s;
    c2d_vec2 v[2];
    int n = -1;
    ENSURE_OK(c2d_rect_new(0, 0, 1, 1, 0, &s));
    /* Count only: the header's "out may be NULL (with capacity 0)" reads as success, while its
     * capacity rule would say C2D_ERR_CAPACITY; accept both, the count is what matters. */
    c2d_status st = c2d_shape_get_vertices(s, NULL, 0, &n);
    ENSURE(st == C2D_OK || st == C2D_ERR_CAPACITY);
    ENSURE(n == 4);
    memset(v, 0x5a, sizeof v);
    unsigned char before[sizeof v];
    memcpy(before, v, sizeof v);
    n = -1;
    ENSURE(c2d_shape_get_vertices(s, v, 2, &n) == C2D_ERR_CAPACITY);
    ENSURE(n == 4);
    ENSURE(memcmp(before, v, sizeof v) == 0);
    c2d_shape_destroy(s);
}

TEST(clone_is_an_independent_copy)
{
    c2d_vec2 pts[5];
    c2d_shape *s, *c;
    tu_snapshot a, b;
    for (int i = 0; i < 5; i++)
        pts[i] = tu_v(cos(i * 2 * TU_PI / 5), sin(i * 2 * TU_PI / 5));
    ENSURE_OK(c2d_polygon_new(pts, 5, &s));
    ENSURE_OK(c2d_shape_set_transform(s, tu_v(3, 4), 0.25));
    ENSURE_OK(c2d_shape_clone(s, &c));
    ENSURE(c != s);
    tu_snapshot_take(s, &a);
    tu_snapshot_take(c, &b);
    ENSURE(tu_snapshot_equal(&a, &b));
    /* Moving the clone leaves the original; destroying the original leaves the clone usable. */
    ENSURE_OK(c2d_shape_move(c, tu_v(1, 0)));
    ENSURE_OK(c2d_shape_rotate(c, 1));
    tu_snapshot_take(s, &b);
    ENSURE(tu_snapshot_equal(&a, &b));
    c2d_shape_destroy(s);
    c2d_vec2 p;
    ENSURE_OK(c2d_shape_get_position(c, &p));
    ENSURE_NEAR(p.x, 4, 1e-15);
    ENSURE_NEAR(p.y, 4, 1e-15);
    c2d_shape_destroy(c);
}

TEST(clone_keeps_every_kind)
{
    for (int k = 0; k < TU_KINDS; k++) {
        tu_body b, c;
        tu_snapshot x, y;
        ENSURE_OK(tu_random_body(k, tu_v(0, 0), TU_SPREAD, &b));
        ENSURE_OK(tu_body_clone(&b, &c));
        tu_snapshot_take(b.s, &x);
        tu_snapshot_take(c.s, &y);
        ENSURE_MSG(tu_snapshot_equal(&x, &y), "clone of a %s differs", tu_kind_name(k));
        tu_body_destroy(&b);
        tu_body_destroy(&c);
    }
}

TEST(destroy_ignores_null_and_get_type_of_null_is_none)
{
    c2d_shape_destroy(NULL);
    ENSURE(c2d_shape_get_type(NULL) == C2D_SHAPE_NONE);
}

TEST(random_shapes_have_the_vertices_and_aabb_of_their_parameters)
{
    /* The library's placed vertices match the ones computed here from the construction parameters, and
     * the AABB is the tight box of vertices +- radius: for every kind, many times. Rounding of
     * sin/cos and the centroid round trip: 1e-13 on coordinates below ~5. */
    long iters = c2d_test_iterations(20000);
    for (long it = 0; it < iters; it++) {
        int k = (int)(c2d_test_rand() % TU_KINDS);
        tu_body b;
        c2d_vec2 v[TU_MAXV];
        c2d_aabb box;
        int n;
        ENSURE_OK(tu_random_body(k, tu_v(0, 0), TU_SPREAD, &b));
        ENSURE_OK(c2d_shape_get_vertices(b.s, v, TU_MAXV, &n));
        ENSURE_MSG(n == b.g.n, "%s: %d vertices, expected %d", tu_kind_name(k), n, b.g.n);
        ENSURE_MSG(same_cycle(v, n, b.g.v, b.g.n, 1e-13), "%s: vertices differ", tu_kind_name(k));
        ENSURE_OK(c2d_shape_get_aabb(b.s, &box));
        double lx = INFINITY, ly = INFINITY, hx = -INFINITY, hy = -INFINITY;
        for (int i = 0; i < n; i++) {
            lx = fmin(lx, v[i].x), ly = fmin(ly, v[i].y);
            hx = fmax(hx, v[i].x), hy = fmax(hy, v[i].y);
        }
        ENSURE_NEAR(box.min.x, lx - b.g.r, 1e-13);
        ENSURE_NEAR(box.min.y, ly - b.g.r, 1e-13);
        ENSURE_NEAR(box.max.x, hx + b.g.r, 1e-13);
        ENSURE_NEAR(box.max.y, hy + b.g.r, 1e-13);
        tu_body_destroy(&b);
    }
}

/* Issue 22, item 6: a polygon is degenerate only when its points are all on one line (exactly), not
 * when it is thin. These two were refused because twice their area was below 1e-12 of their size
 * squared, a tolerance the header never stated. Both have area by the exact orientation of their
 * points; each must be accepted, its centroid where the exact one is (within the rounding of its size),
 * and answer queries on its thin side (a ray from below meets the bottom edge). The quadrilateral's
 * vertex (2, 0) goes on from (0, 0) towards (1e15, 2) with a turn of 2e-15 rad: like a point in the
 * middle of a straight edge it is dropped (the header's nearly-straight rule), and lies 4e-15 from
 * the edge that replaces it, so the polygon is the triangle (0, 0), (1e15, 2), (0, 2). */
TEST(thin_polygons_whose_points_are_not_on_one_line_are_accepted)
{
    c2d_vec2 quad[4] = {{0, 0}, {2, 0}, {1e15, 2}, {0, 2}}, tri[3] = {{0, 0}, {1e6, 0}, {0, 1e-6}};
    c2d_vec2 quad_kept[3] = {{0, 0}, {1e15, 2}, {0, 2}};
    c2d_vec2 qc = tu_v(1e15 / 3, 4.0 / 3), tc = tu_v(1e6 / 3, 1e-6 / 3);
    for (int hull = 0; hull < 2; hull++)
        for (int rev = 0; rev < 2; rev++) {
            for (int which = 0; which < 2; which++) {
                int n = which ? 3 : 4;
                const c2d_vec2 *src = which ? tri : quad;
                c2d_vec2 p[4], v[8], pos;
                for (int i = 0; i < n; i++)
                    p[i] = src[rev ? n - 1 - i : i];
                c2d_shape *s = NULL;
                c2d_status st = hull ? c2d_hull_new(p, n, &s) : c2d_polygon_new(p, n, &s);
                ENSURE_MSG(st == C2D_OK, "%s (%s, %s winding): status %d (%s)", which ? "triangle" : "quadrilateral",
                           hull ? "hull" : "polygon", rev ? "clockwise" : "counter-clockwise", (int)st,
                           c2d_status_string(st));
                int count = 0;
                ENSURE_OK(c2d_shape_get_vertices(s, v, 8, &count));
                ENSURE_OK(c2d_shape_get_position(s, &pos));
                c2d_vec2 want = which ? tc : qc;
                double size = which ? 1e6 : 1e15;
                int ok = same_cycle(v, count, which ? tri : quad_kept, 3, 4e-16 * size) &&
                         fabs(pos.x - want.x) <= 4e-16 * size && fabs(pos.y - want.y) <= 1e-14 * fabs(want.y);
                /* Every input point is on the polygon (the dropped one within rounding); the centroid is
                 * inside; a ray up from below meets the bottom edge. */
                double far = 0;
                for (int i = 0; i < n; i++) {
                    double d = 0;
                    ok = ok && c2d_closest_point(s, src[i], NULL, &d) == C2D_OK;
                    far = fmax(far, fabs(d));
                }
                ok = ok && far <= 1e-15 * size;
                int in = 0;
                c2d_ray_hit h;
                memset(&h, 0, sizeof h);
                ok = ok && c2d_contains_point(s, pos, &in) == C2D_OK && in;
                ok = ok && c2d_raycast(s, tu_v(which ? size / 4 : 1, -1), tu_v(0, 1), INFINITY, &h) == C2D_OK &&
                     h.hit && fabs(h.t - 1) <= 1e-12 && fabs(h.point.y) <= 1e-12 && fabs(h.normal.x) <= 1e-12 &&
                     fabs(h.normal.y + 1) <= 1e-12;
                c2d_shape_destroy(s);
                ENSURE_MSG(ok, "%s (%s): %d vertices, position (%.17g, %.17g) (exact (%.17g, %.17g)), input points up "
                               "to %.3g off, contains %d, ray hit %d at t %.17g normal (%g, %g)",
                           which ? "triangle" : "quadrilateral", hull ? "hull" : "polygon", count, pos.x, pos.y, want.x,
                           want.y, far, in, h.hit, h.t, h.normal.x, h.normal.y);
            }
        }
}

/* The rule stays exact the other way too: points exactly on one line are degenerate however far
 * apart, and a thin bow tie is not convex. */
TEST(thin_polygons_exactly_on_one_line_stay_degenerate)
{
    c2d_shape *s = NULL;
    c2d_vec2 line[3] = {{0, 0}, {1e15, 5e14}, {2, 1}}, bow[4] = {{0, 0}, {1e6, 1e-6}, {1e6, 0}, {0, 1e-6}};
    ENSURE(c2d_polygon_new(line, 3, &s) == C2D_ERR_DEGENERATE && s == NULL);
    ENSURE(c2d_hull_new(line, 3, &s) == C2D_ERR_DEGENERATE && s == NULL);
    ENSURE(c2d_polygon_new(bow, 4, &s) == C2D_ERR_NOT_CONVEX && s == NULL);
    /* A vertex where the outline goes on by a turn whose sine is above 1e-12 stays; at or below it
     * (here 1e-15), it is dropped like a point on a straight edge, while three are left. */
    for (int k = 0; k < 2; k++) {
        c2d_vec2 kink[4] = {{0, 0}, {1e6, 0}, {2e6, k ? 1e-5 : 1e-9}, {0, 1}};
        int count = 0;
        ENSURE_OK(c2d_polygon_new(kink, 4, &s));
        ENSURE_OK(c2d_shape_get_vertices(s, NULL, 0, &count));
        c2d_shape_destroy(s);
        ENSURE_MSG(count == (k ? 4 : 3), "turn sine %g: %d vertices", k ? 1e-11 : 1e-15, count);
    }
    /* Three are kept however straight: this triangle's top vertex goes on by a sine of 2e-13. */
    c2d_vec2 flat[3] = {{0, 0}, {2e6, 0}, {1e6, 1e-7}};
    int count = 0;
    ENSURE_OK(c2d_polygon_new(flat, 3, &s));
    ENSURE_OK(c2d_shape_get_vertices(s, NULL, 0, &count));
    c2d_shape_destroy(s);
    ENSURE_MSG(count == 3, "%d vertices", count);
}
