/* test_errors.c - every kind of bad input to every public function: NaN, infinities, magnitudes above
 * C2D_MAX_COORDINATE, non-positive sizes, degenerate and non-convex point lists, NULL for each pointer,
 * out-of-range counts and too-small output arrays. The header's promise is checked each time: the
 * documented status, no crash (the ASan run watches for reads past the caller's arrays), no
 * out-parameter written, and no change to the shapes involved.
 */
#include "test.h"
#include "testutil.h"

#include <string.h>

/* A shape pointer value no constructor can return: a failed constructor must leave *out holding it. */
static char sentinel_storage;
#define SENTINEL ((c2d_shape *)(void *)&sentinel_storage)

#define BIG 1e300 /* finite but above C2D_MAX_COORDINATE */

/* The bad numbers and the status each must give. */
static const double bad_values[4] = {NAN, INFINITY, -INFINITY, BIG};
static const c2d_status bad_status[4] = {C2D_ERR_NOT_FINITE, C2D_ERR_NOT_FINITE, C2D_ERR_NOT_FINITE,
                                         C2D_ERR_RANGE};

/* Expects `call` to return `want` and leave out (a c2d_shape *) at SENTINEL. */
#define ENSURE_CTOR_FAILS(want, call, out)                                          \
    do {                                                                            \
        c2d_status got_;                                                            \
        (out) = SENTINEL;                                                           \
        got_ = (call);                                                              \
        ENSURE_MSG(got_ == (want), "%s returned %d (%s), expected %d", #call, (int)got_, \
                   c2d_status_string(got_), (int)(want));                           \
        ENSURE_MSG((out) == SENTINEL, "%s wrote *out on failure", #call);           \
    } while (0)

#define ENSURE_STATUS(want, call)                                                   \
    do {                                                                            \
        c2d_status got_ = (call);                                                   \
        ENSURE_MSG(got_ == (want), "%s returned %d (%s), expected %d", #call, (int)got_, \
                   c2d_status_string(got_), (int)(want));                           \
    } while (0)

TEST(status_string_names_every_status_and_unknown_values)
{
    const char *seen[10];
    for (int s = 0; s <= 9; s++) {
        const char *str = c2d_status_string((c2d_status)s);
        ENSURE(str != NULL && str[0] != '\0');
        ENSURE_MSG(strcmp(str, "unknown status") != 0, "status %d has no name", s);
        for (int t = 0; t < s; t++)
            ENSURE_MSG(strcmp(seen[t], str) != 0, "statuses %d and %d share '%s'", t, s, str);
        seen[s] = str;
    }
    ENSURE(strcmp(c2d_status_string(C2D_OK), "ok") == 0);
    ENSURE(strcmp(c2d_status_string(C2D_ERR_NULL), "NULL argument") == 0);
    ENSURE(strcmp(c2d_status_string((c2d_status)10), "unknown status") == 0);
    ENSURE(strcmp(c2d_status_string((c2d_status)-1), "unknown status") == 0);
    ENSURE(strcmp(c2d_status_string((c2d_status)1000000), "unknown status") == 0);
}

TEST(circle_new_rejects_bad_numbers_sizes_and_null)
{
    c2d_shape *s;
    for (int i = 0; i < 4; i++) {
        ENSURE_CTOR_FAILS(bad_status[i], c2d_circle_new(bad_values[i], 0, 1, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_circle_new(0, bad_values[i], 1, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_circle_new(0, 0, bad_values[i], &s), s);
    }
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_circle_new(0, 0, 0, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_circle_new(0, 0, -1, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_circle_new(0, 0, -0.0, &s), s);
    ENSURE_STATUS(C2D_ERR_NULL, c2d_circle_new(0, 0, 1, NULL));
    /* The limit itself is accepted. */
    ENSURE_OK(c2d_circle_new(C2D_MAX_COORDINATE, -C2D_MAX_COORDINATE, 1, &s));
    c2d_shape_destroy(s);
}

TEST(rect_new_rejects_bad_numbers_sizes_and_null)
{
    c2d_shape *s;
    for (int i = 0; i < 4; i++) {
        ENSURE_CTOR_FAILS(bad_status[i], c2d_rect_new(bad_values[i], 0, 1, 1, 0, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_rect_new(0, bad_values[i], 1, 1, 0, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_rect_new(0, 0, bad_values[i], 1, 0, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_rect_new(0, 0, 1, bad_values[i], 0, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_rect_new(0, 0, 1, 1, bad_values[i], &s), s);
    }
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_rect_new(0, 0, 0, 1, 0, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_rect_new(0, 0, 1, 0, 0, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_rect_new(0, 0, -2, 1, 0, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_rect_new(0, 0, 1, -2, 0, &s), s);
    ENSURE_STATUS(C2D_ERR_NULL, c2d_rect_new(0, 0, 1, 1, 0, NULL));
}

/* polygon_new and hull_new share the point-list rules. */
static void point_list_errors(c2d_status (*make)(const c2d_vec2 *, int, c2d_shape **), const char *name)
{
    c2d_shape *s;
    c2d_vec2 tri[3], p[4];
    tri[0] = tu_v(0, 0), tri[1] = tu_v(1, 0), tri[2] = tu_v(0, 1);
    ENSURE_CTOR_FAILS(C2D_ERR_NULL, make(NULL, 3, &s), s);
    ENSURE_STATUS(C2D_ERR_NULL, make(tri, 3, NULL));
    /* Counts out of range are rejected before the array is read (ASan would see a read past tri). */
    ENSURE_CTOR_FAILS(C2D_ERR_RANGE, make(tri, -1, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_RANGE, make(tri, C2D_MAX_POLYGON_POINTS + 1, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_RANGE, make(tri, 2147483647, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, make(tri, 0, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, make(tri, 1, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, make(tri, 2, &s), s);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            for (int axis = 0; axis < 2; axis++) {
                memcpy(p, tri, sizeof tri);
                if (axis)
                    p[k].y = bad_values[i];
                else
                    p[k].x = bad_values[i];
                ENSURE_CTOR_FAILS(bad_status[i], make(p, 3, &s), s);
            }
    /* Fewer than 3 distinct points. */
    p[0] = p[1] = p[2] = tu_v(1, 1);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, make(p, 3, &s), s);
    p[2] = tu_v(2, 2);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, make(p, 3, &s), s);
    /* All collinear (in order, and folded back on themselves). */
    p[0] = tu_v(0, 0), p[1] = tu_v(1, 1), p[2] = tu_v(2, 2), p[3] = tu_v(3, 3);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, make(p, 4, &s), s);
    p[0] = tu_v(0, 0), p[1] = tu_v(3, 0), p[2] = tu_v(1, 0), p[3] = tu_v(2, 0);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, make(p, 4, &s), s);
    (void)name;
}

TEST(polygon_new_rejects_null_counts_bad_numbers_and_degenerate_points)
{
    point_list_errors(c2d_polygon_new, "polygon_new");
}

TEST(hull_new_rejects_null_counts_bad_numbers_and_degenerate_points)
{
    point_list_errors(c2d_hull_new, "hull_new");
}

TEST(polygon_new_rejects_non_convex_points)
{
    c2d_shape *s;
    c2d_vec2 p[6];
    /* A dart (reflex vertex at (1,1)). */
    p[0] = tu_v(0, 0), p[1] = tu_v(4, 0), p[2] = tu_v(1, 1), p[3] = tu_v(0, 4);
    ENSURE_CTOR_FAILS(C2D_ERR_NOT_CONVEX, c2d_polygon_new(p, 4, &s), s);
    /* A bow tie: convex corners but the edges cross (the points are not in convex order). */
    p[0] = tu_v(0, 0), p[1] = tu_v(2, 2), p[2] = tu_v(2, 0), p[3] = tu_v(0, 2);
    ENSURE_CTOR_FAILS(C2D_ERR_NOT_CONVEX, c2d_polygon_new(p, 4, &s), s);
    /* A pentagram's points in star order wind twice around. */
    for (int i = 0; i < 5; i++)
        p[i] = tu_v(cos(i * 4 * TU_PI / 5), sin(i * 4 * TU_PI / 5));
    ENSURE_CTOR_FAILS(C2D_ERR_NOT_CONVEX, c2d_polygon_new(p, 5, &s), s);
    /* The same points in hull order are fine. */
    for (int i = 0; i < 5; i++)
        p[i] = tu_v(cos(i * 2 * TU_PI / 5), sin(i * 2 * TU_PI / 5));
    ENSURE_OK(c2d_polygon_new(p, 5, &s));
    c2d_shape_destroy(s);
}

TEST(capsule_and_segment_new_reject_bad_numbers_sizes_zero_length_and_null)
{
    c2d_shape *s;
    c2d_vec2 a = tu_v(0, 0), b = tu_v(1, 0);
    for (int i = 0; i < 4; i++) {
        c2d_vec2 bad = tu_v(bad_values[i], 0), bad_y = tu_v(0, bad_values[i]);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_capsule_new(bad, b, 1, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_capsule_new(a, bad_y, 1, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_capsule_new(a, b, bad_values[i], &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_segment_new(bad_y, b, &s), s);
        ENSURE_CTOR_FAILS(bad_status[i], c2d_segment_new(a, bad, &s), s);
    }
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_capsule_new(a, b, 0, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_SIZE, c2d_capsule_new(a, b, -1, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, c2d_capsule_new(b, b, 1, &s), s);
    ENSURE_CTOR_FAILS(C2D_ERR_DEGENERATE, c2d_segment_new(b, b, &s), s);
    ENSURE_STATUS(C2D_ERR_NULL, c2d_capsule_new(a, b, 1, NULL));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_segment_new(a, b, NULL));
}

TEST(clone_rejects_null)
{
    c2d_shape *s, *c;
    ENSURE_OK(c2d_circle_new(0, 0, 1, &s));
    ENSURE_CTOR_FAILS(C2D_ERR_NULL, c2d_shape_clone(NULL, &c), c);
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_clone(s, NULL));
    c2d_shape_destroy(s);
}

/* One shape of every kind, placed off the origin and turned, so that "unchanged" is meaningful. */
static int make_all_kinds(c2d_shape **out)
{
    c2d_vec2 pts[5];
    for (int i = 0; i < 5; i++)
        pts[i] = tu_v(3 + cos(i * 2 * TU_PI / 5), 1 + sin(i * 2 * TU_PI / 5));
    if (c2d_circle_new(1, 2, 0.5, &out[0]) || c2d_rect_new(-1, 2, 3, 1, 0.3, &out[1]) ||
        c2d_polygon_new(pts, 5, &out[2]) || c2d_capsule_new(tu_v(0, 0), tu_v(2, 1), 0.25, &out[3]) ||
        c2d_segment_new(tu_v(-2, -1), tu_v(1, -3), &out[4]))
        return 0;
    for (int k = 0; k < 5; k++)
        if (c2d_shape_rotate(out[k], 0.7))
            return 0;
    return 1;
}

static void destroy_all(c2d_shape **s)
{
    for (int k = 0; k < 5; k++)
        c2d_shape_destroy(s[k]);
}

TEST(transform_calls_reject_null_and_bad_numbers_leaving_the_shape_unchanged)
{
    c2d_shape *s[5];
    ENSURE(make_all_kinds(s));
    for (int k = 0; k < 5; k++) {
        tu_snapshot before, after;
        tu_snapshot_take(s[k], &before);
        for (int i = 0; i < 4; i++) {
            double v = bad_values[i];
            c2d_status want = bad_status[i];
            ENSURE_STATUS(want, c2d_shape_set_position(s[k], tu_v(v, 0)));
            ENSURE_STATUS(want, c2d_shape_set_position(s[k], tu_v(0, v)));
            ENSURE_STATUS(want, c2d_shape_set_angle(s[k], v));
            ENSURE_STATUS(want, c2d_shape_set_transform(s[k], tu_v(v, 0), 0));
            ENSURE_STATUS(want, c2d_shape_set_transform(s[k], tu_v(0, 0), v));
            ENSURE_STATUS(want, c2d_shape_move(s[k], tu_v(0, v)));
            ENSURE_STATUS(want, c2d_shape_rotate(s[k], v));
        }
        /* A move whose result would leave the coordinate range, from a valid position by a valid delta
         * (every shape here is off both axes, so a full-range push away from the origin overshoots). */
        c2d_vec2 p;
        ENSURE_OK(c2d_shape_get_position(s[k], &p));
        ENSURE(p.x != 0 && p.y != 0);
        ENSURE_STATUS(C2D_ERR_RANGE, c2d_shape_move(s[k], tu_v(copysign(C2D_MAX_COORDINATE, p.x), 0)));
        ENSURE_STATUS(C2D_ERR_RANGE, c2d_shape_move(s[k], tu_v(0, copysign(C2D_MAX_COORDINATE, p.y))));
        tu_snapshot_take(s[k], &after);
        ENSURE_MSG(tu_snapshot_equal(&before, &after), "kind %d changed by a failed call", k);
    }
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_set_position(NULL, tu_v(0, 0)));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_set_angle(NULL, 0));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_set_transform(NULL, tu_v(0, 0), 0));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_move(NULL, tu_v(0, 0)));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_rotate(NULL, 0));
    destroy_all(s);
}

TEST(getters_reject_null_and_leave_outputs_untouched)
{
    c2d_shape *s[5];
    ENSURE(make_all_kinds(s));
    c2d_vec2 p = tu_v(-7, -7);
    double d = -7;
    c2d_aabb box;
    int n = -7;
    memset(&box, 0x5a, sizeof box);
    c2d_aabb box_before = box;
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_position(NULL, &p));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_angle(NULL, &d));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_radius(NULL, &d));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_aabb(NULL, &box));
    ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_vertices(NULL, &p, 1, &n));
    ENSURE(p.x == -7 && p.y == -7 && d == -7 && n == -7);
    ENSURE(memcmp(&box, &box_before, sizeof box) == 0);
    for (int k = 0; k < 5; k++) {
        ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_position(s[k], NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_angle(s[k], NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_radius(s[k], NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_aabb(s[k], NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_vertices(s[k], &p, 1, NULL));
        /* out may be NULL only with capacity 0; a negative capacity is a count out of range. */
        ENSURE_STATUS(C2D_ERR_NULL, c2d_shape_get_vertices(s[k], NULL, 4, &n));
        ENSURE_STATUS(C2D_ERR_RANGE, c2d_shape_get_vertices(s[k], &p, -1, &n));
        ENSURE(p.x == -7 && p.y == -7 && n == -7);
    }
    destroy_all(s);
}

TEST(get_vertices_too_small_capacity_reports_the_count_and_writes_nothing)
{
    c2d_shape *s[5];
    static const int counts[5] = {1, 4, 5, 2, 2};
    ENSURE(make_all_kinds(s));
    for (int k = 0; k < 5; k++) {
        c2d_vec2 v[8];
        int n = -1;
        memset(v, 0x5a, sizeof v);
        unsigned char before[sizeof v];
        memcpy(before, v, sizeof v);
        ENSURE_STATUS(C2D_ERR_CAPACITY, c2d_shape_get_vertices(s[k], v, counts[k] - 1, &n));
        ENSURE_MSG(n == counts[k], "kind %d: count %d, expected %d", k, n, counts[k]);
        ENSURE(memcmp(v, before, sizeof v) == 0);
        /* Asking for the count only (NULL, capacity 0): the header allows reading this as success or
         * as the general "capacity too small" rule; either way the count must be reported. */
        n = -1;
        c2d_status st = c2d_shape_get_vertices(s[k], NULL, 0, &n);
        ENSURE(st == C2D_OK || st == C2D_ERR_CAPACITY);
        ENSURE(n == counts[k]);
    }
    destroy_all(s);
}

TEST(pair_queries_reject_null_and_leave_outputs_untouched)
{
    c2d_shape *s[5];
    ENSURE(make_all_kinds(s));
    int o = -7;
    c2d_contact c, c0;
    c2d_distance_result d, d0;
    memset(&c, 0x5a, sizeof c);
    memset(&d, 0x5a, sizeof d);
    c0 = c;
    d0 = d;
    for (int k = 0; k < 5; k++) {
        ENSURE_STATUS(C2D_ERR_NULL, c2d_overlap(NULL, s[k], &o));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_overlap(s[k], NULL, &o));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_overlap(s[k], s[k], NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_collide(NULL, s[k], &c));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_collide(s[k], NULL, &c));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_collide(s[k], s[k], NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_distance(NULL, s[k], &d));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_distance(s[k], NULL, &d));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_distance(s[k], s[k], NULL));
    }
    ENSURE(o == -7);
    ENSURE(memcmp(&c, &c0, sizeof c) == 0);
    ENSURE(memcmp(&d, &d0, sizeof d) == 0);
    destroy_all(s);
}

TEST(point_queries_reject_null_and_bad_numbers_leaving_outputs_untouched)
{
    c2d_shape *s[5];
    ENSURE(make_all_kinds(s));
    for (int k = 0; k < 5; k++) {
        int o = -7;
        c2d_vec2 q = tu_v(-7, -7);
        double d = -7;
        c2d_ray_hit h, h0;
        tu_snapshot before, after;
        memset(&h, 0x5a, sizeof h);
        h0 = h;
        tu_snapshot_take(s[k], &before);
        c2d_vec2 ok = tu_v(0.5, 0.5), dir = tu_v(1, 0);
        ENSURE_STATUS(C2D_ERR_NULL, c2d_contains_point(NULL, ok, &o));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_contains_point(s[k], ok, NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_closest_point(NULL, ok, &q, &d));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_closest_point(s[k], ok, NULL, NULL));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_raycast(NULL, ok, dir, 1, &h));
        ENSURE_STATUS(C2D_ERR_NULL, c2d_raycast(s[k], ok, dir, 1, NULL));
        for (int i = 0; i < 4; i++) {
            double v = bad_values[i];
            c2d_status want = bad_status[i];
            ENSURE_STATUS(want, c2d_contains_point(s[k], tu_v(v, 0), &o));
            ENSURE_STATUS(want, c2d_contains_point(s[k], tu_v(0, v), &o));
            ENSURE_STATUS(want, c2d_closest_point(s[k], tu_v(v, 0), &q, &d));
            ENSURE_STATUS(want, c2d_closest_point(s[k], tu_v(0, v), &q, NULL));
            ENSURE_STATUS(want, c2d_closest_point(s[k], tu_v(0, v), NULL, &d));
            ENSURE_STATUS(want, c2d_raycast(s[k], tu_v(v, 0), dir, 1, &h));
            ENSURE_STATUS(want, c2d_raycast(s[k], ok, tu_v(0, v), 1, &h));
        }
        /* max_t may be +infinity, but not NaN; a zero direction has no ray. */
        ENSURE_STATUS(C2D_ERR_NOT_FINITE, c2d_raycast(s[k], ok, dir, NAN, &h));
        ENSURE_STATUS(C2D_ERR_DEGENERATE, c2d_raycast(s[k], ok, tu_v(0, 0), 1, &h));
        ENSURE(o == -7 && q.x == -7 && q.y == -7 && d == -7);
        ENSURE(memcmp(&h, &h0, sizeof h) == 0);
        ENSURE_OK(c2d_raycast(s[k], tu_v(-50, 0), dir, INFINITY, &h));
        tu_snapshot_take(s[k], &after);
        ENSURE(tu_snapshot_equal(&before, &after));
    }
    destroy_all(s);
}

TEST(queries_between_shapes_do_not_change_them)
{
    c2d_shape *s[5];
    tu_snapshot before[5], after;
    ENSURE(make_all_kinds(s));
    for (int k = 0; k < 5; k++)
        tu_snapshot_take(s[k], &before[k]);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            int o;
            c2d_contact c;
            c2d_distance_result d;
            ENSURE_OK(c2d_overlap(s[i], s[j], &o));
            ENSURE_OK(c2d_collide(s[i], s[j], &c));
            ENSURE_OK(c2d_distance(s[i], s[j], &d));
        }
    for (int k = 0; k < 5; k++) {
        tu_snapshot_take(s[k], &after);
        ENSURE(tu_snapshot_equal(&before[k], &after));
    }
    destroy_all(s);
}
