/* test_members.c - static sets whose shapes move and block from one side: re-placing a member (its
 * seams follow it, queries find it where it went, even far outside the set as built), a paddle swept
 * against a ball at up to 50 ball radii per step that never lets the ball through, one-way platforms
 * (passed from below and from the sides, landed on from above, for moves and balls, in sets and in
 * worlds, with no snag at the joints of a one-way row), and the contact records that say where the
 * mover was (the same contacts as the plain calls, in the same order, past any capacity). */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* A row of n unit bricks, tops at y = 1, from x = 0. */
static c2d_status make_bricks(c2d_shape **b, int n, c2d_static_set **set)
{
    for (int i = 0; i < n; i++) {
        c2d_status st = c2d_rect_new(i + 0.5, 0.5, 1, 1, 0, &b[i]);
        if (st != C2D_OK)
            return st;
    }
    return c2d_static_set_new((const c2d_shape *const *)b, n, NULL, set);
}

static void free_shapes(c2d_shape **s, int n)
{
    for (int i = 0; i < n; i++)
        c2d_shape_destroy(s[i]);
}

/* Edges of a unit brick, as c2d_shape_get_vertices orders them from the corner (-w/2, -h/2): 0 bottom,
 * 1 right, 2 top, 3 left. */
enum { BOTTOM, RIGHT, TOP, LEFT };

static int seam(const c2d_static_set *set, int i, int e)
{
    int out = -1;
    return c2d_static_set_is_seam(set, i, e, &out) == C2D_OK ? out : -1;
}

TEST(members_re_placing_a_brick_moves_its_seams_with_it)
{
    c2d_shape *b[3];
    c2d_static_set *set;
    ENSURE_OK(make_bricks(b, 3, &set));
    ENSURE(seam(set, 0, RIGHT) == 1 && seam(set, 1, LEFT) == 1 && seam(set, 1, RIGHT) == 1 && seam(set, 2, LEFT) == 1);
    /* Brick 2 lifted away: brick 1's right face is a face again. */
    ENSURE_OK(c2d_static_set_set_transform(set, 2, V(2.5, 5.5), 0));
    ENSURE(seam(set, 1, RIGHT) == 0 && seam(set, 2, LEFT) == 0 && seam(set, 1, LEFT) == 1);
    c2d_vec2 pos;
    double angle;
    ENSURE_OK(c2d_static_set_get_transform(set, 2, &pos, &angle));
    ENSURE(pos.x == 2.5 && pos.y == 5.5 && angle == 0);
    /* A box sliding along the row now drops off the end of brick 1 instead of going on. */
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(1.5, 1.4, 0.8, 0.8, 0, &box));
    c2d_toi toi;
    int index;
    ENSURE_OK(c2d_static_set_sweep(set, box, V(0, -10), &toi, &index));
    ENSURE(toi.state == C2D_TOI_HIT && index == 1);
    /* Found where it went: a box under the lifted brick hits its bottom face. */
    ENSURE_OK(c2d_shape_set_position(box, V(2.5, 3.4)));
    ENSURE_OK(c2d_static_set_sweep(set, box, V(0, 10), &toi, &index));
    ENSURE(toi.state == C2D_TOI_HIT && index == 2);
    ENSURE_NEAR(toi.t * 10, 5 - 3.8, 1e-12);
    /* And back where it was: the row is one flat floor again, as the set was built. */
    ENSURE_OK(c2d_static_set_set_transform(set, 2, V(2.5, 0.5), 0));
    ENSURE(seam(set, 1, RIGHT) == 1 && seam(set, 2, LEFT) == 1);
    ENSURE_OK(c2d_shape_set_position(box, V(0.5, 1.4)));
    c2d_move_result res;
    c2d_sweep_contact c[8];
    ENSURE_OK(c2d_static_set_move(set, box, V(2, -0.1), NULL, &res, c, 8));
    ENSURE(res.count == 1 && c[0].normal.y == 1);
    ENSURE_NEAR(res.displacement.x, 2, 0);
    /* Far outside the grid the set was built with, and turned. */
    ENSURE_OK(c2d_static_set_set_transform(set, 0, V(1000, -2000), 0.5));
    ENSURE_OK(c2d_shape_set_position(box, V(1000, -1990)));
    ENSURE_OK(c2d_static_set_sweep(set, box, V(0, -20), &toi, &index));
    ENSURE(toi.state == C2D_TOI_HIT && index == 0);
    int inside = 0;
    c2d_vec2 out;
    ENSURE_OK(c2d_shape_set_position(box, V(1000, -2000)));
    ENSURE_OK(c2d_static_set_push_out(set, box, &out));
    inside = out.x != 0 || out.y != 0;
    ENSURE(inside);
    c2d_shape_destroy(box);
    free_shapes(b, 3);
    c2d_static_set_destroy(set);
}

TEST(members_bad_input_changes_nothing)
{
    c2d_shape *b[2];
    c2d_static_set *set;
    ENSURE_OK(make_bricks(b, 2, &set));
    ENSURE(c2d_static_set_set_transform(NULL, 0, V(0, 0), 0) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_set_transform(set, 2, V(0, 0), 0) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_set_transform(set, -1, V(0, 0), 0) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_set_transform(set, 0, V(NAN, 0), 0) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_set_transform(set, 0, V(0, 0), INFINITY) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_set_transform(set, 0, V(2e15, 0), 0) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_set_transform(set, 0, V(C2D_MAX_COORDINATE, 0), 0) == C2D_ERR_RANGE);
    c2d_vec2 pos, v;
    double angle;
    ENSURE_OK(c2d_static_set_get_transform(set, 0, &pos, &angle));
    ENSURE(pos.x == 0.5 && pos.y == 0.5 && angle == 0);
    ENSURE(seam(set, 0, RIGHT) == 1);
    ENSURE(c2d_static_set_get_transform(set, 0, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_set_velocity(set, 0, V(0, NAN)) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_set_velocity(set, 5, V(0, 1)) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_set_one_way(set, 0, V(INFINITY, 1)) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_set_one_way(set, 0, V(1e16, 1)) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_static_set_get_velocity(set, 0, &v));
    ENSURE(v.x == 0 && v.y == 0);
    ENSURE_OK(c2d_static_set_get_one_way(set, 0, &v));
    ENSURE(v.x == 0 && v.y == 0);
    ENSURE_OK(c2d_static_set_set_one_way(set, 0, V(0, 7)));
    ENSURE_OK(c2d_static_set_get_one_way(set, 0, &v));
    ENSURE(v.x == 0 && v.y == 1);
    /* Different one-way directions never join. */
    ENSURE(seam(set, 0, RIGHT) == 0 && seam(set, 1, LEFT) == 0);
    ENSURE_OK(c2d_static_set_set_one_way(set, 1, V(0, 0.5)));
    ENSURE(seam(set, 0, RIGHT) == 1 && seam(set, 1, LEFT) == 1);
    /* So do different velocities. */
    ENSURE_OK(c2d_static_set_set_velocity(set, 1, V(1, 0)));
    ENSURE(seam(set, 0, RIGHT) == 0);
    ENSURE_OK(c2d_static_set_set_velocity(set, 1, V(0, 0)));
    ENSURE(seam(set, 0, RIGHT) == 1);
    free_shapes(b, 2);
    c2d_static_set_destroy(set);
}

/* The signed distance between a ball and a shape. */
static double ball_distance(c2d_vec2 centre, double r, const c2d_shape *s)
{
    c2d_vec2 q;
    double d = 0;
    if (c2d_closest_point(s, centre, &q, &d) != C2D_OK)
        return NAN;
    return d - r;
}

TEST(members_paddle_at_50_radii_per_step_never_lets_the_ball_through)
{
    /* A box 200 r tall; the paddle spans its whole width, so a ball above it can never get below it
     * except through it. The paddle moves up and down at random speeds up to 50 radii per step, the
     * ball bounces around above it: after every step the ball is above the paddle's top and outside
     * it, and inside the box. */
    const double r = 1, W = 40, H = 200;
    c2d_shape *s[4];
    ENSURE_OK(c2d_rect_new(-1, H / 2, 2, H + 4, 0, &s[0]));    /* left wall */
    ENSURE_OK(c2d_rect_new(W + 1, H / 2, 2, H + 4, 0, &s[1])); /* right wall */
    ENSURE_OK(c2d_rect_new(W / 2, H + 1, W + 4, 2, 0, &s[2])); /* ceiling */
    ENSURE_OK(c2d_rect_new(W / 2, 5, W, 2, 0, &s[3]));         /* paddle, top at y = 6 */
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)s, 4, NULL, &set));
    long steps = c2d_test_iterations(20000);
    for (int trial = 0; trial < 4; trial++) {
        double py = 5;
        ENSURE_OK(c2d_static_set_set_transform(set, 3, V(W / 2, py), 0));
        c2d_ball ball;
        ball.position = tu_random_vec(2, W - 2, 20, 60);
        ball.velocity = tu_random_vec(-30, 30, -30, 30);
        ball.radius = r;
        for (long k = 0; k < steps / 4; k++) {
            const double dt = 1;
            /* Towards the ball more often than not, fast; kept below the middle of the box so the ball
             * always has room above it (a ball squeezed against the ceiling is crushed, not tunnelled). */
            double vy = c2d_test_uniform(-50, 50) * r;
            if (py + vy * dt > 90)
                vy = 90 - py;
            if (py + vy * dt < 5)
                vy = 5 - py;
            ENSURE_OK(c2d_static_set_set_velocity(set, 3, V(0, vy)));
            c2d_move_result res;
            ENSURE_OK(c2d_static_set_step_ball(set, &ball, dt, NULL, &res, NULL, 0));
            py += vy * dt;
            ENSURE_OK(c2d_static_set_set_transform(set, 3, V(W / 2, py), 0));
            double top = py + 1;
            ENSURE_MSG(ball.position.y - r >= top - 1e-9 && !res.truncated,
                       "trial %d step %ld: ball at (%.17g, %.17g) v (%.17g, %.17g), paddle top %.17g%s", trial, k,
                       ball.position.x, ball.position.y, ball.velocity.x, ball.velocity.y, top,
                       res.truncated ? " (truncated)" : "");
            ENSURE(ball.position.x >= r - 1e-9 && ball.position.x <= W - r + 1e-9 && ball.position.y <= H - r + 1e-9);
            /* The speed must not run away: bring it back to a game's range now and then. */
            double sp = tu_len(ball.velocity);
            if (sp > 120)
                ball.velocity = tu_scale(ball.velocity, 60 / sp);
        }
    }
    free_shapes(s, 4);
    c2d_static_set_destroy(set);
}

TEST(members_paddle_hitting_a_resting_ball_hands_it_the_paddle_speed)
{
    /* A ball at rest, a paddle below it coming up at 50 radii per step: the ball leaves at twice the
     * paddle's speed (an elastic bounce off an unstoppable wall), contact at the moment the paddle
     * reaches it, where the record says the ball was. */
    c2d_shape *paddle;
    ENSURE_OK(c2d_rect_new(0, 0, 10, 1, 0, &paddle));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&paddle, 1, NULL, &set));
    ENSURE_OK(c2d_static_set_set_velocity(set, 0, V(0, 50)));
    c2d_ball ball;
    ball.position = V(1, 11.5); /* 10 above the paddle's top, which it reaches at t = 0.2 */
    ball.velocity = V(0, 0);
    ball.radius = 1;
    c2d_move_result res;
    c2d_contact_record rec[4];
    ENSURE_OK(c2d_static_set_step_ball_records(set, &ball, 1, NULL, &res, rec, 4));
    ENSURE(res.count == 1);
    ENSURE_NEAR(rec[0].contact.t, 0.2, 1e-12);
    ENSURE_NEAR(ball.velocity.y, 100, 1e-9);
    ENSURE_NEAR(ball.velocity.x, 0, 0);
    ENSURE_NEAR(ball.position.y, 11.5 + 0.8 * 100, 1e-9);
    ENSURE_NEAR(rec[0].position.y, 11.5, 1e-12);
    ENSURE_NEAR(rec[0].contact.point.y, 10.5, 1e-12); /* the paddle's top as it was then */
    ENSURE(rec[0].contact.normal.x == 0 && rec[0].contact.normal.y == 1);
    ENSURE_NEAR(rec[0].velocity.y, 100, 1e-9);
    /* The set was not changed: the paddle is where it was. */
    c2d_vec2 pos;
    ENSURE_OK(c2d_static_set_get_transform(set, 0, &pos, NULL));
    ENSURE(pos.x == 0 && pos.y == 0);
    /* A box resting on a platform that rises is carried up (slide), not left behind or pushed in. */
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(0, 1.5, 2, 2, 0, &box)); /* resting on the top at y = 0.5 */
    ENSURE_OK(c2d_static_set_set_velocity(set, 0, V(3, 2)));
    c2d_contact_record mr[4];
    ENSURE_OK(c2d_static_set_move_records(set, box, V(1, -1), NULL, &res, mr, 4));
    ENSURE(res.count == 1 && mr[0].contact.response == C2D_RESPONSE_SLIDE);
    ENSURE_NEAR(res.displacement.x, 1, 1e-12);
    ENSURE_NEAR(res.displacement.y, 2, 1e-12);
    ENSURE_NEAR(mr[0].position.y, 1.5, 1e-12);
    c2d_shape_destroy(box);
    c2d_shape_destroy(paddle);
    c2d_static_set_destroy(set);
}

/* One-way platform: a 4 x 1 slab at the origin, blocking from above (y up). */
static c2d_status one_way_set(c2d_shape **slab, c2d_static_set **set)
{
    c2d_status st = c2d_rect_new(0, 0, 4, 1, 0, slab);
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)slab, 1, NULL, set);
    if (st == C2D_OK)
        st = c2d_static_set_set_one_way(*set, 0, V(0, 1));
    return st;
}

TEST(members_one_way_platform_passes_from_below_and_the_sides_holds_from_above)
{
    c2d_shape *slab, *box;
    c2d_static_set *set;
    ENSURE_OK(one_way_set(&slab, &set));
    ENSURE_OK(c2d_rect_new(0, -2, 1, 1, 0, &box));
    c2d_move_result res;
    /* Jumping up through it, ending half inside, ending above. */
    ENSURE_OK(c2d_static_set_move(set, box, V(0, 1.8), NULL, &res, NULL, 0));
    ENSURE(res.count == 0 && res.displacement.y == 1.8);
    ENSURE_OK(c2d_static_set_move(set, box, V(0, 4), NULL, &res, NULL, 0));
    ENSURE(res.count == 0 && res.displacement.y == 4);
    /* From inside (half way through it): not pushed out, goes on up. */
    ENSURE_OK(c2d_shape_set_position(box, V(0, 0.2)));
    c2d_vec2 out;
    ENSURE_OK(c2d_static_set_push_out(set, box, &out));
    ENSURE(out.x == 0 && out.y == 0);
    ENSURE_OK(c2d_static_set_move(set, box, V(0.5, 3), NULL, &res, NULL, 0));
    ENSURE(res.count == 0 && res.displacement.y == 3);
    /* ...and from inside, down: still passes (it never was on top). */
    ENSURE_OK(c2d_static_set_move(set, box, V(0, -3), NULL, &res, NULL, 0));
    ENSURE(res.count == 0 && res.displacement.y == -3);
    /* From the side. */
    ENSURE_OK(c2d_shape_set_position(box, V(-5, 0)));
    ENSURE_OK(c2d_static_set_move(set, box, V(10, 0.1), NULL, &res, NULL, 0));
    ENSURE(res.count == 0 && res.displacement.x == 10);
    /* From above: lands on the top (y = 0.5) and slides on. */
    ENSURE_OK(c2d_shape_set_position(box, V(-1, 3)));
    c2d_sweep_contact c[4];
    ENSURE_OK(c2d_static_set_move(set, box, V(1, -5), NULL, &res, c, 4));
    ENSURE(res.count == 1 && c[0].normal.y == 1);
    ENSURE_NEAR(res.displacement.y, -2, 1e-12);
    ENSURE_NEAR(res.displacement.x, 1, 1e-12);
    /* Resting on it, moving down again: held. */
    ENSURE_OK(c2d_shape_set_position(box, V(0, 1)));
    ENSURE_OK(c2d_static_set_move(set, box, V(0.5, -1), NULL, &res, c, 4));
    ENSURE(res.count == 1 && res.displacement.y == 0 && res.displacement.x == 0.5);
    /* A ball: up through it, then falling back, it bounces off the top. */
    c2d_ball ball;
    ball.position = V(0, -3);
    ball.velocity = V(0, 10);
    ball.radius = 0.25;
    ENSURE_OK(c2d_static_set_step_ball(set, &ball, 0.6, NULL, &res, NULL, 0));
    ENSURE(res.count == 0 && ball.position.y == 3);
    ball.velocity = V(0.5, -10);
    ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1, NULL, &res, NULL, 0));
    ENSURE(res.count == 1 && ball.velocity.y == 10);
    ENSURE_NEAR(ball.position.y, 0.75 + 7.75, 1e-12);
    /* A ball rising past a corner from beside it passes; one falling onto the corner bounces. */
    ball.position = V(2.1, -3);
    ball.velocity = V(0, 10);
    ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1, NULL, &res, NULL, 0));
    ENSURE(res.count == 0);
    ball.velocity = V(0, -10);
    ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1, NULL, &res, NULL, 0));
    ENSURE(res.count == 1 && ball.velocity.x > 0);
    c2d_shape_destroy(box);
    c2d_shape_destroy(slab);
    c2d_static_set_destroy(set);
}

TEST(members_one_way_rows_never_snag_a_sliding_box_or_rolling_ball)
{
    /* 60 one-way tiles in a row (tops at y = 1); boxes and balls land on it from random heights with
     * random sideways speeds and slide or roll along it: nothing ever stops at or bounces off a joint.
     * A box sliding right ends exactly on the top, having gone the whole way. */
    c2d_shape *t[60];
    c2d_static_set *set;
    ENSURE_OK(make_bricks(t, 60, &set));
    for (int i = 0; i < 60; i++)
        ENSURE_OK(c2d_static_set_set_one_way(set, i, V(0, 1)));
    for (int i = 0; i < 59; i++)
        ENSURE(seam(set, i, RIGHT) == 1);
    long n = c2d_test_iterations(2000);
    for (long k = 0; k < n; k++) {
        double w = c2d_test_uniform(0.1, 2), x = c2d_test_uniform(2, 20), h = c2d_test_uniform(0, 3);
        c2d_shape *box;
        ENSURE_OK(c2d_rect_new(x, 1 + w / 2 + h, w, w, 0, &box));
        double dy = -h - c2d_test_uniform(0.01, 5), dx = c2d_test_uniform(0.1, 30);
        c2d_vec2 d = V(dx, dy);
        c2d_move_result res;
        c2d_sweep_contact c[8];
        ENSURE_OK(c2d_static_set_move(set, box, d, NULL, &res, c, 8));
        c2d_shape_destroy(box);
        ENSURE_MSG(res.count == 1 && fabs(res.displacement.y + h) <= 1e-12 && fabs(res.displacement.x - d.x) <= 1e-12 * d.x,
                   "box %ld: %d contacts, displacement (%.17g, %.17g) for (%.17g, %.17g), h %.17g", k, res.count,
                   res.displacement.x, res.displacement.y, d.x, d.y, h);
        c2d_ball ball;
        ball.radius = c2d_test_uniform(0.05, 1);
        ball.position = V(x + 20, 1 + ball.radius + h); /* within the row over the whole step */
        double vy = -c2d_test_uniform(0.5, 10), vx = c2d_test_uniform(-10, 10);
        ball.velocity = V(vx, vy);
        ENSURE_OK(c2d_static_set_step_ball(set, &ball, 2, NULL, &res, c, 8));
        ENSURE_MSG(ball.velocity.x == vx && (res.count == 0 || (res.count == 1 && ball.velocity.y == -vy)),
                   "ball %ld: %d contacts, v (%.17g, %.17g) from (%.17g, %.17g)", k, res.count, ball.velocity.x,
                   ball.velocity.y, vx, vy);
    }
    free_shapes(t, 60);
    c2d_static_set_destroy(set);
}

static c2d_response respond_slide(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)ctx;
    (void)id;
    (void)user;
    return C2D_RESPONSE_SLIDE;
}

TEST(members_one_way_entries_in_a_world)
{
    c2d_world *w;
    ENSURE_OK(c2d_world_new(&w));
    c2d_shape *slab, *wall, *box;
    ENSURE_OK(c2d_rect_new(0, 0, 4, 1, 0, &slab));
    ENSURE_OK(c2d_rect_new(10, 0, 1, 10, 0, &wall));
    c2d_world_id a, b;
    ENSURE_OK(c2d_world_add(w, slab, 1, &a));
    ENSURE_OK(c2d_world_add(w, wall, 2, &b));
    ENSURE_OK(c2d_world_set_one_way(w, a, V(0, 3)));
    c2d_vec2 dir;
    ENSURE_OK(c2d_world_get_one_way(w, a, &dir));
    ENSURE(dir.x == 0 && dir.y == 1);
    ENSURE_OK(c2d_world_get_one_way(w, b, &dir));
    ENSURE(dir.x == 0 && dir.y == 0);
    ENSURE(c2d_world_set_one_way(w, a, V(NAN, 0)) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_set_one_way(w, a + 12345, V(0, 1)) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_rect_new(0, -2, 1, 1, 0, &box));
    c2d_move_result res;
    c2d_contact_record rec[4];
    ENSURE_OK(c2d_world_move_records(w, box, V(0, 4), NULL, respond_slide, NULL, NULL, &res, rec, 4));
    ENSURE(res.count == 0 && res.displacement.y == 4);
    ENSURE_OK(c2d_shape_set_position(box, V(0, 2)));
    ENSURE_OK(c2d_world_move_records(w, box, V(0, -4), NULL, NULL, NULL, NULL, &res, rec, 4));
    ENSURE(res.count == 1 && rec[0].id == a && rec[0].user == 1);
    ENSURE_NEAR(res.displacement.y, -1, 1e-12);
    ENSURE_NEAR(rec[0].position.y, 1, 1e-12);
    /* The wall beside it still blocks from every side. */
    ENSURE_OK(c2d_shape_set_position(box, V(5, 0)));
    ENSURE_OK(c2d_world_move_records(w, box, V(10, 0), NULL, NULL, NULL, NULL, &res, rec, 4));
    ENSURE(res.count == 1 && rec[0].id == b);
    ENSURE_NEAR(rec[0].position.x, 9, 1e-12);
    /* Balls too. */
    c2d_ball ball;
    ball.position = V(0, -3);
    ball.velocity = V(0, 10);
    ball.radius = 0.25;
    ENSURE_OK(c2d_world_step_ball_records(w, &ball, 0.6, NULL, NULL, NULL, NULL, &res, rec, 4));
    ENSURE(res.count == 0 && ball.position.y == 3);
    ball.velocity = V(0, -10);
    ENSURE_OK(c2d_world_step_ball_records(w, &ball, 1, NULL, NULL, NULL, NULL, &res, rec, 4));
    ENSURE(res.count == 1 && rec[0].id == a && ball.velocity.y == 10);
    ENSURE_NEAR(rec[0].position.y, 0.75, 1e-12);
    /* Back to solid: blocks from below. */
    ENSURE_OK(c2d_world_set_one_way(w, a, V(0, 0)));
    ENSURE_OK(c2d_shape_set_position(box, V(0, -2)));
    ENSURE_OK(c2d_world_move(w, box, V(0, 4), NULL, NULL, NULL, NULL, &res, NULL, 0));
    ENSURE(res.count == 1);
    ENSURE_NEAR(res.displacement.y, 1, 1e-12);
    c2d_world_destroy(w);
    c2d_shape_destroy(slab);
    c2d_shape_destroy(wall);
    c2d_shape_destroy(box);
}

TEST(members_records_are_the_plain_contacts_with_where_the_mover_was)
{
    /* Random balls in a field of bricks and random box moves: the records hold the plain calls'
     * contacts bit for bit, in order; a ball's position is its contact point plus radius times the
     * normal; a moved box placed at a record's position touches that record's shape; a run with too
     * little room reports the full count and the same first records. */
    c2d_shape *b[40];
    for (int i = 0; i < 40; i++) {
        double turn = c2d_test_uniform(-1, 1), h = c2d_test_uniform(0.5, 2), w = c2d_test_uniform(0.5, 2);
        double x = (i % 8) * 3.0 + c2d_test_uniform(-0.5, 0.5);
        ENSURE_OK(c2d_rect_new(x, (i / 8) * 3.0, w, h, turn, &b[i]));
    }
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)b, 40, NULL, &set));
    long n = c2d_test_iterations(1500);
    for (long k = 0; k < n; k++) {
        c2d_ball b1, b2;
        b1.position = tu_random_vec(-3, 24, -3, 15);
        b1.velocity = tu_random_vec(-40, 40, -40, 40);
        b1.radius = c2d_test_uniform(0.05, 0.6);
        b2 = b1;
        c2d_move_result r1, r2, r3;
        c2d_sweep_contact plain[300];
        c2d_contact_record rec[300], few[2];
        ENSURE_OK(c2d_static_set_step_ball(set, &b1, 1, NULL, &r1, plain, 300));
        ENSURE_OK(c2d_static_set_step_ball_records(set, &b2, 1, NULL, &r2, rec, 300));
        ENSURE(memcmp(&b1, &b2, sizeof b1) == 0 && memcmp(&r1, &r2, sizeof r1) == 0);
        for (int i = 0; i < r1.count && i < 300; i++) {
            ENSURE(memcmp(&plain[i], &rec[i].contact, sizeof plain[i]) == 0 && rec[i].id == 0 && rec[i].user == 0);
            if (rec[i].contact.pushed_out)
                continue;
            c2d_vec2 q = tu_add(rec[i].contact.point, tu_scale(rec[i].contact.normal, b1.radius));
            ENSURE_MSG(tu_len(tu_sub(q, rec[i].position)) <= 1e-9 * (1 + tu_len(q)),
                       "ball %ld contact %d: position (%.17g, %.17g), point + r n (%.17g, %.17g)", k, i,
                       rec[i].position.x, rec[i].position.y, q.x, q.y);
            double d = ball_distance(rec[i].position, b1.radius, b[rec[i].contact.index]);
            ENSURE_MSG(fabs(d) <= 1e-9, "ball %ld contact %d: %.3g from its shape", k, i, d);
        }
        /* A moved box, with each response; a run with room for two gives the same first two. */
        c2d_shape *box;
        double turn = c2d_test_uniform(-1, 1), h = c2d_test_uniform(0.1, 1), w = c2d_test_uniform(0.1, 1);
        double y = c2d_test_uniform(-3, 15), x = c2d_test_uniform(-3, 24);
        ENSURE_OK(c2d_rect_new(x, y, w, h, turn, &box));
        c2d_vec2 d = tu_random_vec(-20, 20, -20, 20);
        c2d_move_options o = c2d_move_options_default();
        o.response = (c2d_response)(1 + (int)(c2d_test_rand() % 4));
        ENSURE_OK(c2d_static_set_move(set, box, d, &o, &r1, plain, 300));
        ENSURE_OK(c2d_static_set_move_records(set, box, d, &o, &r2, rec, 300));
        ENSURE_OK(c2d_static_set_move_records(set, box, d, &o, &r3, few, 2));
        ENSURE(memcmp(&r1, &r2, sizeof r1) == 0 && memcmp(&r1, &r3, sizeof r1) == 0);
        for (int i = 0; i < r1.count && i < 300; i++) {
            ENSURE(memcmp(&plain[i], &rec[i].contact, sizeof plain[i]) == 0);
            if (i < 2)
                ENSURE(memcmp(&few[i], &rec[i], sizeof few[i]) == 0);
            if (rec[i].contact.pushed_out)
                continue;
            c2d_shape *at;
            c2d_distance_result dist;
            ENSURE_OK(c2d_shape_clone(box, &at));
            ENSURE_OK(c2d_shape_set_position(at, rec[i].position));
            ENSURE_OK(c2d_distance(at, b[rec[i].contact.index], &dist));
            c2d_shape_destroy(at);
            ENSURE_MSG(fabs(dist.distance) <= 1e-9, "move %ld contact %d: %.3g from its shape", k, i, dist.distance);
        }
        c2d_shape_destroy(box);
    }
    free_shapes(b, 40);
    c2d_static_set_destroy(set);
}

TEST(members_a_member_that_went_far_and_came_back_leaves_the_tolerance_as_it_was)
{
    /* The touching tolerance grows with the coordinates in play (1e-12 of them): while a member stands
     * at 1e13 it is about 10; once the member is back, a gap of 1e-3 is a gap again. */
    c2d_shape *b[2], *box;
    c2d_static_set *set;
    ENSURE_OK(make_bricks(b, 2, &set));
    ENSURE_OK(c2d_rect_new(0.5, 1.5 + 1e-3, 1, 1, 0, &box)); /* 1e-3 above the row */
    c2d_move_result r;
    c2d_sweep_contact c[4];
    ENSURE_OK(c2d_static_set_move(set, box, V(0, -1), NULL, &r, c, 4));
    ENSURE(r.count == 1 && fabs(r.displacement.y + 1e-3) < 1e-12);
    ENSURE_OK(c2d_static_set_set_transform(set, 1, V(1e13, 0), 0));
    ENSURE_OK(c2d_static_set_move(set, box, V(0, -1), NULL, &r, c, 4));
    ENSURE_OK(c2d_static_set_set_transform(set, 1, V(1.5, 0.5), 0));
    ENSURE_OK(c2d_static_set_move(set, box, V(0, -1), NULL, &r, c, 4));
    ENSURE_MSG(r.count == 1 && fabs(r.displacement.y + 1e-3) < 1e-12, "displacement %.17g", r.displacement.y);
    c2d_shape_destroy(box);
    free_shapes(b, 2);
    c2d_static_set_destroy(set);
}

TEST(members_one_way_directions_that_are_multiples_join)
{
    /* (1, 1) and (3, 3) are one direction, though they normalise a rounding apart. */
    c2d_shape *b[2];
    c2d_static_set *set;
    ENSURE_OK(make_bricks(b, 2, &set));
    ENSURE_OK(c2d_static_set_set_one_way(set, 0, V(1, 1)));
    ENSURE_OK(c2d_static_set_set_one_way(set, 1, V(3, 3)));
    ENSURE(seam(set, 0, RIGHT) == 1 && seam(set, 1, LEFT) == 1);
    ENSURE_OK(c2d_static_set_set_one_way(set, 1, V(3, 3.0001)));
    ENSURE(seam(set, 0, RIGHT) == 0);
    free_shapes(b, 2);
    c2d_static_set_destroy(set);
}
