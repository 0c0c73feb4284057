/* test_orders.c - the two argument orders of a pair query agree exactly, and "no contact" is all zero
 * bytes. The header promises that (a, b) and (b, a) give the same answer with the normal turned round;
 * the property tests allow "another equally minimal push" where the minimum is not unique, which let
 * two shapes at one placement (a hitbox and a body sharing a transform) get the same normal in both
 * orders. Here, for every ordered pair of kinds:
 *   - c2d_collide(b, a) is c2d_collide(a, b) with the normal negated, bit for bit (count, depth, points
 *     and their depths), and c2d_distance(b, a) is c2d_distance(a, b) with the normal negated and the
 *     points exchanged, on random pairs and on pairs at one placement (same position and angle);
 *   - a miss is a contact of all zero bytes in both orders (no -0.0 normal), as results are compared
 *     with memcmp (the world's pairs against c2d_collide, in the fuzz harness and by users).
 */
#include "test.h"
#include "testutil.h"

#include <stdio.h>

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Normals compare by value: a component 0 in one order may be -0 in the other, which is the same
 * direction. */
static int negated(c2d_vec2 n, c2d_vec2 m)
{
    return n.x == -m.x && n.y == -m.y;
}

static int same_vec(c2d_vec2 p, c2d_vec2 q)
{
    return same_bits(p.x, q.x) && same_bits(p.y, q.y);
}

#define CHECK TU_CHECK_PAIR

/* Both orders of collide and distance, compared bit for bit; returns whether they overlapped. */
static int check_orders(const tu_body *a, const tu_body *b, int *hit)
{
    c2d_contact ab, ba, zero;
    memset(&zero, 0, sizeof zero);
    CHECK(c2d_collide(a->s, b->s, &ab) == C2D_OK && c2d_collide(b->s, a->s, &ba) == C2D_OK, "collide failed");
    CHECK(ab.count == ba.count, "count %d one way, %d the other", ab.count, ba.count);
    if (ab.count == 0) {
        CHECK(memcmp(&ab, &zero, sizeof ab) == 0, "a miss (a, b) is not all zero bytes: normal (%a, %a)", ab.normal.x,
              ab.normal.y);
        CHECK(memcmp(&ba, &zero, sizeof ba) == 0, "a miss (b, a) is not all zero bytes: normal (%a, %a)", ba.normal.x,
              ba.normal.y);
    } else {
        CHECK(same_bits(ab.depth, ba.depth), "depth %.17g one way, %.17g the other", ab.depth, ba.depth);
        CHECK(negated(ab.normal, ba.normal), "normal (%.17g, %.17g) one way, (%.17g, %.17g) the other", ab.normal.x,
              ab.normal.y, ba.normal.x, ba.normal.y);
        for (int i = 0; i < ab.count; i++) {
            CHECK(same_vec(ab.points[i], ba.points[i]) && same_bits(ab.point_depths[i], ba.point_depths[i]),
                  "point %d: (%.17g, %.17g) depth %.17g one way, (%.17g, %.17g) depth %.17g the other", i,
                  ab.points[i].x, ab.points[i].y, ab.point_depths[i], ba.points[i].x, ba.points[i].y,
                  ba.point_depths[i]);
        }
    }
    c2d_distance_result dab, dba;
    CHECK(c2d_distance(a->s, b->s, &dab) == C2D_OK && c2d_distance(b->s, a->s, &dba) == C2D_OK, "distance failed");
    CHECK(same_bits(dab.distance, dba.distance), "distance %.17g one way, %.17g the other", dab.distance,
          dba.distance);
    CHECK(negated(dab.normal, dba.normal), "distance normal (%.17g, %.17g) one way, (%.17g, %.17g) the other",
          dab.normal.x, dab.normal.y, dba.normal.x, dba.normal.y);
    CHECK(same_vec(dab.point_a, dba.point_b) && same_vec(dab.point_b, dba.point_a),
          "closest points (%.17g, %.17g) (%.17g, %.17g) one way, (%.17g, %.17g) (%.17g, %.17g) the other",
          dab.point_a.x, dab.point_a.y, dab.point_b.x, dab.point_b.y, dba.point_a.x, dba.point_a.y, dba.point_b.x,
          dba.point_b.y);
    *hit = ab.count > 0;
    return 1;
}

/* Places both bodies at one position and angle (their local geometry, and so their sizes, differ). */
static int place_together(tu_body *a, tu_body *b, c2d_vec2 p, double angle)
{
    if (c2d_shape_set_transform(a->s, p, angle) != C2D_OK || c2d_shape_set_transform(b->s, p, angle) != C2D_OK)
        return 0;
    /* The geometry the failure message prints: the placed core as the library holds it. */
    c2d_shape_get_vertices(a->s, a->g.v, TU_MAXV, &a->g.n);
    c2d_shape_get_vertices(b->s, b->g.v, TU_MAXV, &b->g.n);
    return 1;
}

static void run_orders(int ka, int kb, int together)
{
    long iters = c2d_test_iterations(20000), hits = 0;
    for (long i = 0; i < iters; i++) {
        tu_body a, b;
        ENSURE_MSG(tu_random_pair(ka, kb, &a, &b) == C2D_OK, "could not create a %s and a %s", tu_kind_name(ka),
                   tu_kind_name(kb));
        int ok = 1, hit = 0;
        if (together) {
            /* Half the time at the origin with angle 0, where the rectangles' corners are exact. */
            int plain = c2d_test_rand() % 2;
            c2d_vec2 p = plain ? tu_v(0, 0) : tu_random_point(100);
            ok = place_together(&a, &b, p, plain ? 0.0 : c2d_test_uniform(-TU_PI, TU_PI));
            if (!ok)
                c2d_test_fail(__FILE__, __LINE__, "set_transform failed");
        }
        ok = ok && check_orders(&a, &b, &hit);
        hits += hit;
        tu_body_destroy(&a);
        tu_body_destroy(&b);
        if (!ok)
            return;
    }
    /* Random pairs must both hit and miss; at one placement every pair overlaps (they share a point). */
    if (together)
        ENSURE_MSG(hits == iters, "%ld of %ld pairs at one placement overlap", hits, iters);
    else
        ENSURE_MSG(hits > iters / 50 && hits < iters - iters / 50, "%ld of %ld random pairs overlap", hits, iters);
}

static void run_all(int together)
{
    for (int ka = 0; ka < TU_KINDS; ka++)
        for (int kb = 0; kb < TU_KINDS; kb++) {
            run_orders(ka, kb, together);
            if (c2d_test_failed())
                return;
        }
}

TEST(both_orders_agree_bit_for_bit_on_random_pairs_and_misses_are_zero_bytes) { run_all(0); }
TEST(both_orders_agree_bit_for_bit_for_shapes_at_one_placement) { run_all(1); }

/* The cases that showed it: a rectangle hitbox on a body with the same transform, and a circle or a
 * rectangle missing a rectangle, whose zeroed contact came back with a normal of (-0.0, -0.0). */
TEST(rectangles_sharing_a_transform_get_opposite_normals)
{
    c2d_shape *a, *b;
    ENSURE_OK(c2d_rect_new(5, 5, 2, 2, 0.3, &a));
    ENSURE_OK(c2d_rect_new(5, 5, 4, 1, 0.3, &b));
    c2d_contact ab, ba;
    ENSURE_OK(c2d_collide(a, b, &ab));
    ENSURE_OK(c2d_collide(b, a, &ba));
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
    ENSURE(ab.count > 0 && ba.count > 0);
    ENSURE_MSG(ab.normal.x == -ba.normal.x && ab.normal.y == -ba.normal.y, "(%.17g, %.17g) and (%.17g, %.17g)",
               ab.normal.x, ab.normal.y, ba.normal.x, ba.normal.y);
}

TEST(a_missed_contact_has_no_negative_zero_normal)
{
    c2d_shape *circle, *box, *far_box;
    ENSURE_OK(c2d_circle_new(100, 100, 1, &circle));
    ENSURE_OK(c2d_rect_new(0, 0, 2, 2, 0.3, &box));
    ENSURE_OK(c2d_rect_new(10, 0, 2, 2, 0.1, &far_box));
    c2d_contact c[4], zero;
    memset(&zero, 0, sizeof zero);
    ENSURE_OK(c2d_collide(circle, box, &c[0]));
    ENSURE_OK(c2d_collide(box, circle, &c[1]));
    ENSURE_OK(c2d_collide(box, far_box, &c[2]));
    ENSURE_OK(c2d_collide(far_box, box, &c[3]));
    c2d_shape_destroy(circle);
    c2d_shape_destroy(box);
    c2d_shape_destroy(far_box);
    for (int i = 0; i < 4; i++)
        ENSURE_MSG(memcmp(&c[i], &zero, sizeof zero) == 0, "case %d: count %d, normal (%a, %a)", i, c[i].count,
                   c[i].normal.x, c[i].normal.y);
}
