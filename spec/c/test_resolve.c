/* test_resolve.c - bump.lua-style moves through a static set (touch, slide, bounce, cross), on rotated
 * shapes as well as boxes; a box sliding over 100 tiles without stopping at a joint (and stopping at
 * the first one when seams are switched off, which is the bug seams exist for); seam detection with
 * gaps and explicitly marked neighbours; push-out; the set's first-contact sweep; bad input. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* 100 unit tiles side by side, tops at y = 1. */
static c2d_status make_row(c2d_shape **tiles, int with_seams, c2d_static_set **set)
{
    for (int i = 0; i < 100; i++) {
        c2d_status st = c2d_rect_new(i + 0.5, 0.5, 1, 1, 0, &tiles[i]);
        if (st != C2D_OK)
            return st;
    }
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    opt.no_auto_seams = !with_seams;
    return c2d_static_set_new((const c2d_shape *const *)tiles, 100, &opt, set);
}

static void free_row(c2d_shape **tiles, c2d_static_set *set)
{
    for (int i = 0; i < 100; i++)
        c2d_shape_destroy(tiles[i]);
    c2d_static_set_destroy(set);
}

TEST(resolve_box_slides_along_100_tiles_without_stopping_at_a_seam)
{
    /* A 0.8 box resting on the row, pushed right and a little down each move: the down part is taken by
     * the floor, the whole right part is done every time, across all 99 joints. */
    c2d_shape *tiles[100], *box;
    c2d_static_set *set;
    ENSURE_OK(make_row(tiles, 1, &set));
    ENSURE_OK(c2d_rect_new(0.5, 1.4, 0.8, 0.8, 0, &box));
    for (int k = 0; k < 250; k++) {
        c2d_move_result res;
        c2d_sweep_contact c[4];
        ENSURE_OK(c2d_static_set_move(set, box, V(0.37, -0.05), NULL, &res, c, 4));
        ENSURE_MSG(res.displacement.x == 0.37 && fabs(res.displacement.y) <= 1e-15,
                   "move %d: displacement (%.17g, %.17g)", k, res.displacement.x, res.displacement.y);
        ENSURE(res.count == 1 && c[0].normal.x == 0 && c[0].normal.y == 1 && c[0].t == 0);
        ENSURE(c[0].response == C2D_RESPONSE_SLIDE);
        ENSURE_NEAR(res.velocity.x, 0.37, 0);
        ENSURE_NEAR(res.velocity.y, 0, 1e-15);
        ENSURE_OK(c2d_shape_move(box, V(res.displacement.x, 0)));
    }
    c2d_vec2 pos;
    ENSURE_OK(c2d_shape_get_position(box, &pos));
    ENSURE_NEAR(pos.x, 0.5 + 250 * 0.37, 1e-9);
    ENSURE(pos.y == 1.4);
    c2d_shape_destroy(box);
    free_row(tiles, set);
}

TEST(resolve_without_seams_the_box_snags_on_a_joint_a_hair_out_of_level)
{
    /* The failure seams prevent. Two tiles exactly level are no trouble even without seams: the box's
     * corner meets the next tile's corner and only grazes it, sliding on over its top. But real level
     * data is a hair out: with the second tile 1e-10 higher (above the touching tolerance, within the
     * seam tolerance), seams switched off let its side face stop the box where its right side reaches
     * the joint (x = 1), after 0.1 of its 0.37; with seams it slides on. */
    c2d_shape *tiles[2], *box;
    ENSURE_OK(c2d_rect_new(0.5, 0.5, 1, 1, 0, &tiles[0]));
    ENSURE_OK(c2d_rect_new(1.5, 0.5, 1, 1, 0, &tiles[1]));
    ENSURE_OK(c2d_rect_new(0.5, 1.4, 0.8, 0.8, 0, &box));
    c2d_static_set_options off;
    memset(&off, 0, sizeof off);
    off.no_auto_seams = 1;
    c2d_static_set *set;
    c2d_move_result res;
    c2d_sweep_contact c[4];
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 2, &off, &set));
    ENSURE_OK(c2d_static_set_move(set, box, V(0.37, -0.05), NULL, &res, c, 4));
    ENSURE(res.displacement.x == 0.37 && res.count == 1); /* level: a graze at the corner */
    c2d_static_set_destroy(set);
    ENSURE_OK(c2d_shape_set_position(tiles[1], V(1.5, 0.5 + 1e-10)));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 2, &off, &set));
    ENSURE_OK(c2d_static_set_move(set, box, V(0.37, -0.05), NULL, &res, c, 4));
    ENSURE_NEAR(res.displacement.x, 0.1, 1e-15);
    ENSURE(res.count >= 2 && c[res.count - 1].normal.x == -1 && c[res.count - 1].index == 1);
    c2d_static_set_destroy(set);
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 2, NULL, &set));
    ENSURE_OK(c2d_static_set_move(set, box, V(0.37, -0.05), NULL, &res, c, 4));
    ENSURE_NEAR(res.displacement.x, 0.37, 1e-15);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(tiles[0]);
    c2d_shape_destroy(tiles[1]);
    c2d_shape_destroy(box);
}

/* A box of 1 at the origin and a 2x4 wall whose left face is x = 4. */
static c2d_status wall_scene(c2d_shape **box, c2d_shape **wall, c2d_static_set **set)
{
    c2d_status st = c2d_rect_new(0, 0, 1, 1, 0, box);
    if (st == C2D_OK)
        st = c2d_rect_new(5, 0, 2, 4, 0, wall);
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)wall, 1, NULL, set);
    return st;
}

TEST(resolve_touch_stops_at_the_contact)
{
    c2d_shape *box, *wall;
    c2d_static_set *set;
    ENSURE_OK(wall_scene(&box, &wall, &set));
    c2d_move_options opt = c2d_move_options_default();
    opt.response = C2D_RESPONSE_TOUCH;
    c2d_move_result res;
    c2d_sweep_contact c[2];
    ENSURE_OK(c2d_static_set_move(set, box, V(10, 3), &opt, &res, c, 2));
    ENSURE(res.count == 1 && c[0].index == 0 && c[0].response == C2D_RESPONSE_TOUCH);
    ENSURE_NEAR(c[0].t, 0.35, 1e-15);
    ENSURE_NEAR(res.displacement.x, 3.5, 1e-14);
    ENSURE_NEAR(res.displacement.y, 1.05, 1e-14);
    ENSURE(res.velocity.x == 0 && res.velocity.y == 0);
    /* Face against face: the point is the middle of the touching stretch, y from 0.55 to 1.55 clipped
     * to the wall's -2..2. */
    ENSURE_NEAR(c[0].point.x, 4, 1e-14);
    ENSURE_NEAR(c[0].point.y, 1.05, 1e-14);
    ENSURE_NEAR(c[0].normal.x, -1, 0);
    c2d_shape_destroy(box);
    c2d_shape_destroy(wall);
    c2d_static_set_destroy(set);
}

TEST(resolve_slide_keeps_the_motion_along_the_face)
{
    c2d_shape *box, *wall;
    c2d_static_set *set;
    ENSURE_OK(wall_scene(&box, &wall, &set));
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_move(set, box, V(10, 3), NULL, &res, NULL, 0));
    ENSURE(res.count == 1);
    ENSURE_NEAR(res.displacement.x, 3.5, 1e-14);
    ENSURE_NEAR(res.displacement.y, 3, 1e-14);
    ENSURE_NEAR(res.velocity.x, 0, 1e-15);
    ENSURE_NEAR(res.velocity.y, 3, 1e-15);
    ENSURE_NEAR(res.travelled, 0.35 * sqrt(109.0) + 0.65 * 3, 1e-13);
    c2d_shape_destroy(box);
    c2d_shape_destroy(wall);
    c2d_static_set_destroy(set);
}

TEST(resolve_bounce_reflects_the_rest_of_the_motion)
{
    c2d_shape *box, *wall;
    c2d_static_set *set;
    ENSURE_OK(wall_scene(&box, &wall, &set));
    c2d_move_options opt = c2d_move_options_default();
    opt.response = C2D_RESPONSE_BOUNCE;
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_move(set, box, V(10, 3), &opt, &res, NULL, 0));
    ENSURE(res.count == 1);
    ENSURE_NEAR(res.displacement.x, 3.5 - 6.5, 1e-14);
    ENSURE_NEAR(res.displacement.y, 3, 1e-14);
    ENSURE_NEAR(res.velocity.x, -10, 1e-14);
    ENSURE_NEAR(res.velocity.y, 3, 1e-14);
    /* Restitution 0.5 halves the normal part; friction 0.1 takes 0.1 * 15 off the tangential 3. */
    opt.restitution = 0.5;
    opt.friction = 0.1;
    ENSURE_OK(c2d_static_set_move(set, box, V(10, 3), &opt, &res, NULL, 0));
    ENSURE_NEAR(res.velocity.x, -5, 1e-14);
    ENSURE_NEAR(res.velocity.y, 1.5, 1e-14);
    ENSURE_NEAR(res.displacement.x, 3.5 - 0.65 * 5, 1e-14);
    ENSURE_NEAR(res.displacement.y, 1.05 + 0.65 * 1.5, 1e-14);
    c2d_shape_destroy(box);
    c2d_shape_destroy(wall);
    c2d_static_set_destroy(set);
}

TEST(resolve_cross_reports_and_passes_through)
{
    c2d_shape *box, *wall;
    c2d_static_set *set;
    ENSURE_OK(wall_scene(&box, &wall, &set));
    c2d_response responses[1] = {C2D_RESPONSE_CROSS};
    c2d_move_options opt = c2d_move_options_default();
    opt.responses = responses;
    c2d_move_result res;
    c2d_sweep_contact c[2];
    ENSURE_OK(c2d_static_set_move(set, box, V(10, 0), &opt, &res, c, 2));
    ENSURE(res.count == 1 && c[0].response == C2D_RESPONSE_CROSS && c[0].index == 0);
    ENSURE_NEAR(c[0].t, 0.35, 1e-15);
    ENSURE_NEAR(res.displacement.x, 10, 0);
    /* NONE in the per-shape responses ignores the shape altogether. */
    responses[0] = C2D_RESPONSE_NONE;
    ENSURE_OK(c2d_static_set_move(set, box, V(10, 0), &opt, &res, c, 2));
    ENSURE(res.count == 0 && res.displacement.x == 10);
    c2d_shape_destroy(box);
    c2d_shape_destroy(wall);
    c2d_static_set_destroy(set);
}

TEST(resolve_cross_met_at_the_instant_of_a_slide_is_reported_once)
{
    /* A box falling onto a floor touches the side of a trigger zone at the very instant it lands;
     * the slide along the floor then starts inside the zone's touch. One crossing, not two. */
    c2d_shape *floor, *zone, *box;
    ENSURE_OK(c2d_rect_new(0, -0.5, 20, 1, 0, &floor));
    ENSURE_OK(c2d_rect_new(2.125, 0.5, 1.75, 1, 0, &zone)); /* x in [1.25, 3], y in [0, 1] */
    ENSURE_OK(c2d_rect_new(0, 2, 1, 1, 0, &box));          /* lands at t = 0.375 with x in [0.25, 1.25] */
    const c2d_shape *shapes[2] = {floor, zone};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    c2d_response responses[2] = {C2D_RESPONSE_SLIDE, C2D_RESPONSE_CROSS};
    c2d_move_options opt = c2d_move_options_default();
    opt.responses = responses;
    c2d_move_result res;
    c2d_sweep_contact c[8];
    ENSURE_OK(c2d_static_set_move(set, box, V(2, -4), &opt, &res, c, 8));
    int crossings = 0, floors = 0;
    for (int i = 0; i < res.count && i < 8; i++) {
        crossings += c[i].index == 1;
        floors += c[i].index == 0;
    }
    ENSURE_MSG(crossings == 1 && floors == 1, "%d crossings and %d floor contacts in %d", crossings, floors,
               res.count);
    ENSURE_NEAR(res.displacement.x, 2, 1e-12);
    ENSURE_NEAR(res.displacement.y, -1.5, 1e-12);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(floor);
    c2d_shape_destroy(zone);
    c2d_shape_destroy(box);
}

TEST(resolve_a_seam_tolerance_as_long_as_the_edge_does_not_hide_it)
{
    /* A row of 2-wide bricks and a point-sized shape below them, with a seam tolerance of 2: the point
     * touches no face, so the bricks' bottom faces stay solid and a box moving up lands on them. */
    c2d_shape *s[4], *box;
    for (int i = 0; i < 3; i++)
        ENSURE_OK(c2d_rect_new(2 * i, 2, 2, 2, 0, &s[i])); /* y in [1, 3] */
    ENSURE_OK(c2d_rect_new(0.5, -1, 1e-300, 1e-300, 0, &s[3]));
    ENSURE_OK(c2d_rect_new(2.25, 0, 0.5, 0.5, 0, &box)); /* top at y = 0.25 */
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    opt.seam_tolerance = 2;
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, 4, &opt, &set));
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_move(set, box, V(0, 4), NULL, &res, NULL, 0));
    ENSURE_MSG(res.count == 1, "%d contacts", res.count);
    ENSURE_NEAR(res.displacement.y, 0.75, 1e-12);
    c2d_static_set_destroy(set);
    for (int i = 0; i < 4; i++)
        c2d_shape_destroy(s[i]);
    c2d_shape_destroy(box);
}

TEST(resolve_push_out_of_a_rectangle_thinner_than_doubles)
{
    /* A 100-long rectangle of denormal height across a pentagon: out the short way, below the lowest
     * vertex, not "overlapping nothing". */
    c2d_vec2 pv[5] = {V(-1.75, -1.75), V(2, -1.5), V(3, 2), V(0, 4), V(-3, 2)};
    c2d_shape *p, *bar;
    ENSURE_OK(c2d_polygon_new(pv, 5, &p));
    ENSURE_OK(c2d_rect_new(0, 0, 100, 4.9406564584124654e-324, 0, &bar));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&p, 1, NULL, &set));
    c2d_vec2 out;
    ENSURE_OK(c2d_static_set_push_out(set, bar, &out));
    ENSURE_NEAR(out.x, 0, 1e-9);
    ENSURE_NEAR(out.y, -1.75, 1e-9);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(p);
    c2d_shape_destroy(bar);
}

TEST(resolve_push_out_between_a_huge_bumper_and_a_copy_of_the_mover)
{
    /* A ball of radius 457.78 sits on a copy of itself, 20.09 below a bumper a billion wide. Up is
     * blocked, so the way out is one of the two corners where the copy's swollen surface (radius
     * 915.56 about the ball) meets the bumper's: 915.56 away and touching both. Their crossing used
     * to keep only the rounding of squares near 1e18, fell 0.05 inside the copy and was refused. */
    c2d_shape *big, *copy, *ball;
    ENSURE_OK(c2d_circle_new(0, 1e9, 1e9, &big));
    ENSURE_OK(c2d_circle_new(-477.875, -477.875, 457.78125, &copy));
    ENSURE_OK(c2d_circle_new(-477.875, -477.875, 457.78125, &ball));
    const c2d_shape *shapes[2] = {big, copy};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    c2d_vec2 push;
    ENSURE_OK(c2d_static_set_push_out(set, ball, &push));
    ENSURE_NEAR(hypot(push.x, push.y), 2 * 457.78125, 1e-6);
    ENSURE(fabs(push.x) > 900);
    ENSURE_OK(c2d_shape_set_position(ball, V(-477.875 + push.x, -477.875 + push.y)));
    c2d_distance_result d;
    ENSURE_OK(c2d_distance(ball, copy, &d));
    ENSURE(d.distance > -1e-6);
    ENSURE_OK(c2d_distance(ball, big, &d));
    ENSURE(d.distance > -1e-6);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(copy);
    c2d_shape_destroy(big);
}

TEST(resolve_push_out_is_not_onto_a_face_flush_with_a_joined_neighbour)
{
    /* A 2x6 plate over the first of a row of 2x2 bricks, sharing its left face x = 0 with the joint
     * between bricks 0 and 1. A ball of no size inside both, 0.5 from that face: the face is nearest,
     * but beyond it lies brick 1, and the joint is a seam, so the ball would have travelled inside the
     * row. The nearest real way out is the corner (0, 1) where the plate's face meets the top of the
     * row (1.03 away; the right face is 1.5): there the joint ends and the union's surface turns. The
     * ball bounces off the plate's face and flies on above the row. */
    c2d_vec2 plate[4] = {V(0, -3), V(2, -3), V(2, 3), V(0, 3)};
    c2d_shape *shapes[6];
    ENSURE_OK(c2d_polygon_new(plate, 4, &shapes[0]));
    for (int i = 0; i < 5; i++)
        ENSURE_OK(c2d_rect_new(1 - 2 * i, 0, 2, 2, 0, &shapes[1 + i]));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 6, NULL, &set));
    c2d_shape *dot;
    ENSURE_OK(c2d_circle_new(0.5, 0.1, 1e-300, &dot));
    c2d_vec2 push;
    ENSURE_OK(c2d_static_set_push_out(set, dot, &push));
    ENSURE_NEAR(push.x, -0.5, 1e-12);
    ENSURE_NEAR(push.y, 0.9, 1e-12);
    c2d_ball b = {V(0.5, 0.1), V(1, 0.05), 1e-300};
    c2d_move_result res;
    c2d_sweep_contact c[4];
    ENSURE_OK(c2d_static_set_step_ball(set, &b, 2.0, NULL, &res, c, 4));
    ENSURE(res.count == 2 && c[0].pushed_out && !c[1].pushed_out);
    ENSURE(c[1].index == 0 && c[1].normal.x == -1 && c[1].normal.y == 0 && c[1].response == C2D_RESPONSE_BOUNCE);
    ENSURE_NEAR(b.position.x, -2, 1e-12);
    ENSURE_NEAR(b.position.y, 1.1, 1e-12);
    ENSURE_NEAR(b.velocity.x, -1, 0);
    ENSURE_NEAR(b.velocity.y, 0.05, 0);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(dot);
    for (int i = 0; i < 6; i++)
        c2d_shape_destroy(shapes[i]);
}

TEST(resolve_a_seam_tolerance_as_long_as_the_edge_does_not_hide_a_corner)
{
    /* A 341-wide brick and a segment ending 180 below its lower left corner, with a seam tolerance as
     * long as the brick's edges. The corner used to count the segment's end as touching and hid
     * itself, and a ball flying at it went into the brick without a contact. At a corner, too, at
     * most a quarter of the longer edge counts. */
    double w = 341.328125;
    c2d_shape *shapes[2];
    ENSURE_OK(c2d_segment_new(V(160.453125, -7.00390625), V(0, -424.890625), &shapes[0]));
    ENSURE_OK(c2d_rect_new(w, 343.640625, w, w, 0, &shapes[1]));
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    opt.seam_tolerance = w;
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 2, &opt, &set));
    c2d_ball b = {V(3.1415926535897931, 3.1415926535897931), V(3.1415926535897931, 3.1415926535897931),
                  3.1415926535897931};
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_step_ball(set, &b, 108.421875, NULL, &res, NULL, 0));
    ENSURE(res.count >= 1);
    c2d_shape *ball;
    ENSURE_OK(c2d_circle_new(b.position.x, b.position.y, b.radius, &ball));
    c2d_distance_result d;
    ENSURE_OK(c2d_distance(ball, shapes[1], &d));
    ENSURE(d.distance > -1e-9);
    c2d_shape_destroy(ball);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(shapes[0]);
    c2d_shape_destroy(shapes[1]);
}

TEST(resolve_circle_slides_down_a_rotated_ramp)
{
    /* A 100x2 plank turned by a = 0.3 has its top face normal n = (-sin a, cos a). A unit circle resting
     * on it (centre 2n) pushed straight down slides along the face: d - (d.n) n. */
    double a = 0.3;
    c2d_shape *plank, *ball;
    c2d_static_set *set;
    ENSURE_OK(c2d_rect_new(0, 0, 100, 2, a, &plank));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&plank, 1, NULL, &set));
    c2d_vec2 n = V(-sin(a), cos(a));
    ENSURE_OK(c2d_circle_new(2 * n.x, 2 * n.y, 1, &ball));
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_move(set, ball, V(0, -1), NULL, &res, NULL, 0));
    ENSURE(res.count == 1);
    ENSURE_NEAR(res.displacement.x, -sin(a) * cos(a), 1e-14);
    ENSURE_NEAR(res.displacement.y, -sin(a) * sin(a), 1e-14);
    /* A rotated box on the same ramp does the same. */
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(1.5 * n.x, 1.5 * n.y, 1, 1, a, &box));
    ENSURE_OK(c2d_static_set_move(set, box, V(0, -1), NULL, &res, NULL, 0));
    ENSURE_NEAR(res.displacement.x, -sin(a) * cos(a), 1e-14);
    ENSURE_NEAR(res.displacement.y, -sin(a) * sin(a), 1e-14);
    c2d_shape_destroy(box);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(plank);
    c2d_static_set_destroy(set);
}

TEST(resolve_push_out_takes_the_shortest_way_out_of_the_union)
{
    /* A 1x1 box at (49.9, 0.8) sinks 0.3 into the row at the joint of tiles 49 and 50: straight up by
     * 0.3, not sideways through the joint. */
    c2d_shape *tiles[100], *box;
    c2d_static_set *set;
    ENSURE_OK(make_row(tiles, 1, &set));
    ENSURE_OK(c2d_rect_new(49.9, 0.8, 1, 1, 0, &box));
    c2d_vec2 push;
    ENSURE_OK(c2d_static_set_push_out(set, box, &push));
    ENSURE_NEAR(push.x, 0, 1e-15);
    ENSURE_NEAR(push.y, 0.7, 1e-14);
    /* Clear of everything: no push. */
    ENSURE_OK(c2d_shape_set_position(box, V(10, 5)));
    ENSURE_OK(c2d_static_set_push_out(set, box, &push));
    ENSURE(push.x == 0 && push.y == 0);
    c2d_shape_destroy(box);
    free_row(tiles, set);
}

TEST(resolve_set_sweep_finds_the_first_shape_hit)
{
    /* A unit circle at (-3, 3) moving (4, -4) towards the row: its centre meets the circle of radius 1
     * about tile 0's corner (0, 1) where (4t - 3)^2 + (2 - 4t)^2 = 1, i.e. 8t^2 - 10t + 3 = 0, so
     * t = 0.5 (the other root, 0.75, is where it would leave). The centre is then (-1, 1), level with
     * the corner: the normal from the ball to the tile is (1, 0) and the contact point the corner. */
    c2d_shape *tiles[100], *ball;
    c2d_static_set *set;
    ENSURE_OK(make_row(tiles, 1, &set));
    ENSURE_OK(c2d_circle_new(-3, 3, 1, &ball));
    c2d_toi toi;
    int index;
    ENSURE_OK(c2d_static_set_sweep(set, ball, V(4, -4), &toi, &index));
    ENSURE(toi.state == C2D_TOI_HIT && index == 0);
    ENSURE_NEAR(toi.t, 0.5, 1e-15);
    ENSURE_NEAR(toi.normal.x, 1, 1e-15);
    ENSURE_NEAR(toi.normal.y, 0, 1e-15);
    ENSURE_NEAR(toi.point.x, 0, 1e-15);
    ENSURE_NEAR(toi.point.y, 1, 1e-15);
    c2d_shape_destroy(ball);
    free_row(tiles, set);
}

TEST(resolve_seams_need_touching_or_marked_neighbours)
{
    /* Two tiles 1e-4 apart are not joined automatically; marking them neighbours with a tolerance above
     * the gap joins them (tile 0's edge 1 is its right side, tile 1's edge 3 its left side). */
    c2d_shape *t[2];
    c2d_static_set *set;
    ENSURE_OK(c2d_rect_new(0.5, 0.5, 1, 1, 0, &t[0]));
    ENSURE_OK(c2d_rect_new(1.5001, 0.5, 1, 1, 0, &t[1]));
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)t, 2, NULL, &set));
    int seam;
    ENSURE_OK(c2d_static_set_is_seam(set, 0, 1, &seam));
    ENSURE(seam == 0);
    ENSURE_OK(c2d_static_set_mark_neighbours(set, 0, 1, 1e-3));
    ENSURE_OK(c2d_static_set_is_seam(set, 0, 1, &seam));
    ENSURE(seam == 1);
    ENSURE_OK(c2d_static_set_is_seam(set, 1, 3, &seam));
    ENSURE(seam == 1);
    ENSURE_OK(c2d_static_set_is_seam(set, 1, 2, &seam));
    ENSURE(seam == 0);
    c2d_static_set_destroy(set);
    /* A larger automatic tolerance joins them too. */
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    opt.seam_tolerance = 1e-3;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)t, 2, &opt, &set));
    ENSURE_OK(c2d_static_set_is_seam(set, 0, 1, &seam));
    ENSURE(seam == 1);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(t[0]);
    c2d_shape_destroy(t[1]);
}

TEST(resolve_rejects_bad_input_and_changes_nothing)
{
    c2d_shape *box, *wall;
    c2d_static_set *set;
    ENSURE_OK(wall_scene(&box, &wall, &set));
    c2d_move_result res;
    c2d_move_options opt = c2d_move_options_default();
    ENSURE(c2d_static_set_move(NULL, box, V(1, 0), NULL, &res, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move(set, NULL, V(1, 0), NULL, &res, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move(set, box, V(1, 0), NULL, NULL, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move(set, box, V(1, 0), NULL, &res, NULL, 3) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_move(set, box, V(NAN, 0), NULL, &res, NULL, 0) == C2D_ERR_NOT_FINITE);
    opt.restitution = 1.5;
    ENSURE(c2d_static_set_move(set, box, V(1, 0), &opt, &res, NULL, 0) == C2D_ERR_RANGE);
    opt = c2d_move_options_default();
    opt.friction = -1;
    ENSURE(c2d_static_set_move(set, box, V(1, 0), &opt, &res, NULL, 0) == C2D_ERR_RANGE);
    opt = c2d_move_options_default();
    opt.response = (c2d_response)9;
    ENSURE(c2d_static_set_move(set, box, V(1, 0), &opt, &res, NULL, 0) == C2D_ERR_RANGE);

    c2d_ball ball = {{0, 0}, {1, 0}, 0.5}, before = ball;
    ENSURE(c2d_static_set_step_ball(set, &ball, -1, NULL, NULL, NULL, 0) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_step_ball(set, &ball, NAN, NULL, NULL, NULL, 0) == C2D_ERR_NOT_FINITE);
    ball.radius = 0;
    ENSURE(c2d_static_set_step_ball(set, &ball, 1, NULL, NULL, NULL, 0) == C2D_ERR_SIZE);
    ball.radius = 0.5;
    ball.velocity.x = INFINITY;
    ENSURE(c2d_static_set_step_ball(set, &ball, 1, NULL, NULL, NULL, 0) == C2D_ERR_NOT_FINITE);
    ball.velocity.x = 1;
    ENSURE(memcmp(&ball, &before, sizeof ball) == 0);

    c2d_static_set *none = NULL;
    ENSURE(c2d_static_set_new(NULL, 2, NULL, &none) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_new((const c2d_shape *const *)&wall, -1, NULL, &none) == C2D_ERR_RANGE);
    c2d_static_set_options sopt;
    memset(&sopt, 0, sizeof sopt);
    sopt.seam_tolerance = -1;
    ENSURE(c2d_static_set_new((const c2d_shape *const *)&wall, 1, &sopt, &none) == C2D_ERR_SIZE);
    ENSURE(none == NULL);
    ENSURE(c2d_static_set_mark_neighbours(set, 0, 0, 1) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_set_enabled(set, 1, 0) == C2D_ERR_RANGE);
    int seam = 7;
    ENSURE(c2d_static_set_is_seam(set, 0, 4, &seam) == C2D_ERR_RANGE && seam == 7);
    c2d_static_set_destroy(NULL);

    /* An empty set is valid: nothing to hit. */
    ENSURE_OK(c2d_static_set_new(NULL, 0, NULL, &none));
    ENSURE_OK(c2d_static_set_step_ball(none, &ball, 2, NULL, NULL, NULL, 0));
    ENSURE(ball.position.x == 2);
    c2d_static_set_destroy(none);
    c2d_shape_destroy(box);
    c2d_shape_destroy(wall);
    c2d_static_set_destroy(set);
}

TEST(resolve_random_moves_of_every_kind_never_end_inside_a_tile)
{
    /* A 30x20 room of unit tiles with walls all round and random platforms; movers of every kind start
     * anywhere (inside tiles too: they are pushed out) and move up to 6 tiles with a random response.
     * Wherever they end, they overlap no tile by more than 1e-9 (independent oracle). */
    enum { W = 30, H = 20 };
    c2d_shape *tiles[W * H];
    tu_geom geom[W * H];
    int n = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int solid = x == 0 || y == 0 || x == W - 1 || y == H - 1 || (y % 5 == 0 && (x * 7 + y) % 11 < 6);
            if (!solid)
                continue;
            memset(&geom[n], 0, sizeof geom[n]);
            geom[n].kind = TU_RECT;
            geom[n].n = 4;
            tu_rect_corners(V(x + 0.5, y + 0.5), 1, 1, 0, geom[n].v);
            ENSURE_OK(c2d_rect_new(x + 0.5, y + 0.5, 1, 1, 0, &tiles[n]));
            n++;
        }
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, n, NULL, &set));
    static const c2d_response kinds[3] = {C2D_RESPONSE_TOUCH, C2D_RESPONSE_SLIDE, C2D_RESPONSE_BOUNCE};
    long iters = c2d_test_iterations(20000);
    for (long it = 0; it < iters; it++) {
        tu_body b;
        ENSURE_OK(tu_random_body((int)(c2d_test_rand() % TU_KINDS), V(W / 2.0, H / 2.0), 8, &b));
        c2d_vec2 d = tu_random_vec(-6, 6, -6, 6);
        c2d_move_options opt = c2d_move_options_default();
        opt.response = kinds[c2d_test_rand() % 3];
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_move(set, b.s, d, &opt, &res, NULL, 0));
        tu_geom g = b.g;
        tu_geom_translate(&g, res.displacement);
        for (int i = 0; i < n; i++) {
            double sd = tu_signed_distance(&g, &geom[i]);
            ENSURE_MSG(sd >= -1e-9, "%s moved (%.17g, %.17g) by response %d ends %.3g inside tile %d",
                       tu_kind_name(b.g.kind), d.x, d.y, (int)opt.response, -sd, i);
        }
        /* Slides and touches end in a few contacts; bounces in a gap barely wider than the mover may
         * rattle beyond the cap, and are then cut short (but still never inside). */
        ENSURE_MSG(!res.truncated || opt.response == C2D_RESPONSE_BOUNCE, "%s moved (%.17g, %.17g) by response %d: %d contacts",
                   tu_kind_name(b.g.kind), d.x, d.y, (int)opt.response, res.count);
        tu_body_destroy(&b);
    }
    for (int i = 0; i < n; i++)
        c2d_shape_destroy(tiles[i]);
    c2d_static_set_destroy(set);
}

TEST(resolve_seams_of_a_staggered_wall_and_overlap_reported_by_the_set)
{
    /* Bricks laid like a wall: [0,2] [2,4] [4,6] below, [1,3] [3,5] on top. Each upper brick's bottom
     * (edge 0) is covered by the tops of two lower bricks: a seam. A lower brick's top (edge 2) is
     * only partly covered: surface. */
    c2d_shape *b[5];
    ENSURE_OK(c2d_rect_new(1, 0.5, 2, 1, 0, &b[0]));
    ENSURE_OK(c2d_rect_new(3, 0.5, 2, 1, 0, &b[1]));
    ENSURE_OK(c2d_rect_new(5, 0.5, 2, 1, 0, &b[2]));
    ENSURE_OK(c2d_rect_new(2, 1.5, 2, 1, 0, &b[3]));
    ENSURE_OK(c2d_rect_new(4, 1.5, 2, 1, 0, &b[4]));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)b, 5, NULL, &set));
    int seam;
    ENSURE_OK(c2d_static_set_is_seam(set, 3, 0, &seam));
    ENSURE(seam == 1);
    ENSURE_OK(c2d_static_set_is_seam(set, 4, 0, &seam));
    ENSURE(seam == 1);
    ENSURE_OK(c2d_static_set_is_seam(set, 0, 2, &seam));
    ENSURE(seam == 0);
    ENSURE_OK(c2d_static_set_is_seam(set, 3, 1, &seam)); /* between the two upper bricks */
    ENSURE(seam == 1);
    /* A unit circle sunk 0.25 into the top of the upper course is reported overlapping, with the normal
     * from the circle to the wall straight down and depth 0.25. */
    c2d_shape *ball;
    ENSURE_OK(c2d_circle_new(3, 2.75, 1, &ball));
    c2d_toi toi;
    int index;
    ENSURE_OK(c2d_static_set_sweep(set, ball, V(1, 0), &toi, &index));
    ENSURE(toi.state == C2D_TOI_OVERLAP && (index == 3 || index == 4));
    ENSURE_NEAR(toi.depth, 0.25, 1e-15);
    ENSURE_NEAR(toi.normal.x, 0, 1e-15);
    ENSURE_NEAR(toi.normal.y, -1, 1e-15);
    c2d_shape_destroy(ball);
    for (int i = 0; i < 5; i++)
        c2d_shape_destroy(b[i]);
    c2d_static_set_destroy(set);
}

TEST(resolve_turned_box_slides_down_a_slope_of_turned_tiles_without_snagging)
{
    /* Twenty 1x1 tiles turned by -0.2 and laid edge to edge along the slope; a 0.6 box turned the same
     * way rests on their common top face and is pushed along it (and a little into it) 30 times. Every
     * move covers its whole 0.37 along the slope: no joint stops it. */
    double a = -0.2;
    c2d_vec2 along = V(cos(a), sin(a)), up = V(-sin(a), cos(a));
    c2d_shape *tiles[20], *box;
    for (int i = 0; i < 20; i++) {
        c2d_vec2 c = tu_add(tu_scale(along, i + 0.5), tu_scale(up, -0.5));
        ENSURE_OK(c2d_rect_new(c.x, c.y, 1, 1, a, &tiles[i]));
    }
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)tiles, 20, NULL, &set));
    c2d_vec2 start = tu_add(tu_scale(along, 0.5), tu_scale(up, 0.3));
    ENSURE_OK(c2d_rect_new(start.x, start.y, 0.6, 0.6, a, &box));
    for (int k = 0; k < 30; k++) {
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_move(set, box, tu_add(tu_scale(along, 0.37), tu_scale(up, -0.02)), NULL, &res,
                                      NULL, 0));
        ENSURE_NEAR(tu_dot(res.displacement, along), 0.37, 1e-12);
        ENSURE_NEAR(tu_dot(res.displacement, up), 0, 1e-12);
        ENSURE_OK(c2d_shape_move(box, res.displacement));
    }
    c2d_shape_destroy(box);
    for (int i = 0; i < 20; i++)
        c2d_shape_destroy(tiles[i]);
    c2d_static_set_destroy(set);
}

/* A T cut into convex parts (as c2d_concave_new cuts it): a triangle part has every edge a joint and
 * its corner at the T's reflex corner, where the bar's underside meets the stem's side. A box pressed
 * into that inside corner (0.25 into the bar, 0.1 into the stem) leaves by the diagonal (-0.1, -0.25),
 * touching the triangle only at that corner, which lies on the union's surface; the triangle's joints
 * used to refuse it, and the push went 1.5 sideways. As tiles in a set and as one concave shape. */
TEST(resolve_push_out_leaves_a_reflex_corner_of_parts_diagonally)
{
    c2d_vec2 parts[4][4] = {{V(0.5, 2.75), V(1.9, 2.75), V(0.5, 4)},
                            {V(1.9, 1.5), V(2.9, 1.5), V(2.9, 2.75), V(1.9, 2.75)},
                            {V(0.5, 4), V(2.9, 2.75), V(6.5, 2.75), V(6.5, 4)},
                            {V(0.5, 4), V(1.9, 2.75), V(2.9, 2.75)}};
    int counts[4] = {3, 4, 4, 3};
    c2d_shape *shapes[4];
    for (int k = 0; k < 4; k++)
        ENSURE_OK(c2d_polygon_new(parts[k], counts[k], &shapes[k]));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 4, NULL, &set));
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(1, 2, 2, 2, 0, &box)); /* [0, 2] x [1, 3] */
    c2d_vec2 push;
    ENSURE_OK(c2d_static_set_push_out(set, box, &push));
    ENSURE_NEAR(push.x, -0.1, 1e-12);
    ENSURE_NEAR(push.y, -0.25, 1e-12);
    c2d_vec2 t[] = {V(0.5, 2.75), V(1.9, 2.75), V(1.9, 1.5), V(2.9, 1.5), V(2.9, 2.75), V(6.5, 2.75), V(6.5, 4), V(0.5, 4)};
    c2d_shape *tee;
    ENSURE_OK(c2d_concave_new(t, 8, NULL, NULL, 0, &tee));
    c2d_contact c;
    ENSURE_OK(c2d_collide(tee, box, &c));
    ENSURE(c.count > 0);
    ENSURE_NEAR(c.depth, sqrt(0.1 * 0.1 + 0.25 * 0.25), 1e-12);
    ENSURE_NEAR(c.normal.x * 0.25 - c.normal.y * 0.1, 0, 1e-12);
    /* Still no exit onto a face that lies flush against a joint (resolve_push_out_is_not_onto_a_face_
     * flush_with_a_joined_neighbour): only a touch at a part's corner that other shapes' surfaces
     * pass through counts. */
    c2d_static_set_destroy(set);
    c2d_shape_destroy(tee);
    c2d_shape_destroy(box);
    for (int k = 0; k < 4; k++)
        c2d_shape_destroy(shapes[k]);
}

/* A level editor may stack a tile twice at one place. A copy has the same exits as its tile, so
 * push-out among stacked copies must be push-out without them, to the bit. (It also cost n^3 hull
 * builds for n copies, every pair's crossings tested against every shape, until copies were taken
 * once: a fuzz input with some twenty copies took 2.4 s.) Random scenes: five overlapping boxes and
 * polygons, each stacked 1 to 12 times, the copies anywhere after their shape (among the others'), and
 * a mover among them: a turned box, a segment or a ball of radius 1e-12 (thin movers touching a shape
 * and its copy were once taken for movers lying along a joint, and pushed on). */
TEST(resolve_push_out_among_stacked_copies_is_the_push_out_without_them)
{
    long iters = c2d_test_iterations(300), pushed = 0;
    for (long it = 0; it < iters; it++) {
        c2d_shape *shapes[5], *stacked[60], *mover;
        int n = 0;
        for (int i = 0; i < 5; i++) {
            c2d_vec2 c = tu_random_vec(-1.5, 1.5, -1.5, 1.5);
            if (i & 1) {
                c2d_vec2 pts[TU_MAXV];
                int m = tu_random_convex_points(3 + (int)(c2d_test_rand() % 6), c, pts);
                ENSURE_OK(c2d_polygon_new(pts, m, &shapes[i]));
            } else {
                double turn = c2d_test_uniform(-3, 3), h = c2d_test_uniform(0.5, 2), w = c2d_test_uniform(0.5, 2);
                ENSURE_OK(c2d_rect_new(c.x, c.y, w, h, turn, &shapes[i]));
            }
            stacked[n++] = shapes[i];
        }
        /* Copies, each inserted anywhere after its shape: the shapes keep their order of first
         * appearance, which decides ties, and copies land among the other shapes. */
        for (int i = 0; i < 5; i++) {
            int reps = (int)(c2d_test_rand() % 12);
            for (int r = 0; r < reps; r++) {
                int first = 0;
                while (stacked[first] != shapes[i])
                    first++;
                int at = first + 1 + (int)(c2d_test_rand() % (unsigned long long)(n - first));
                memmove(&stacked[at + 1], &stacked[at], (size_t)(n - at) * sizeof stacked[0]);
                ENSURE_OK(c2d_shape_clone(shapes[i], &stacked[at]));
                n++;
            }
        }
        c2d_vec2 mc = tu_random_vec(-2, 2, -2, 2);
        switch (it % 3) {
        case 0: ENSURE_OK(c2d_rect_new(mc.x, mc.y, 0.6, 0.4, c2d_test_uniform(-3, 3), &mover)); break;
        case 1: {
            double a = c2d_test_uniform(-3, 3);
            ENSURE_OK(c2d_segment_new(mc, V(mc.x + cos(a), mc.y + sin(a)), &mover));
            break;
        }
        default: ENSURE_OK(c2d_circle_new(mc.x, mc.y, 1e-12, &mover)); break;
        }
        c2d_static_set *one, *many;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 5, NULL, &one));
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)stacked, n, NULL, &many));
        c2d_vec2 p1, p2;
        ENSURE_OK(c2d_static_set_push_out(one, mover, &p1));
        ENSURE_OK(c2d_static_set_push_out(many, mover, &p2));
        pushed += p1.x != 0 || p1.y != 0;
        int same = memcmp(&p1, &p2, sizeof p1) == 0;
        c2d_static_set_destroy(one);
        c2d_static_set_destroy(many);
        c2d_shape_destroy(mover);
        for (int i = 0; i < n; i++)
            c2d_shape_destroy(stacked[i]);
        ENSURE_MSG(same, "scene %ld (mover kind %ld): pushed by (%.17g, %.17g) without the copies, (%.17g, %.17g) among them",
                   it, it % 3, p1.x, p1.y, p2.x, p2.y);
    }
    ENSURE_MSG(pushed > iters / 4, "only %ld of %ld movers started inside", pushed, iters);
}
