/* test_spin.c - static-set members that turn (c2d_static_set_set_motion): a flipper's face throws a
 * ball at rest at (1 + e) w d to 1e-9; a ball resting on a flipper is thrown when it swings; the set's
 * sweep agrees with c2d_sweep_motion; bad input changes nothing; and a property run of ball steps
 * among bars and flippers turning at up to 60 rad/s (re-placed after every step, as a game does):
 * no ball passes through a bar, none ends inside one; and a bar's tip meets a ball where its arc
 * reaches beyond both its ends (the box a turning member sweeps, which skips casts that cannot hit). */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* A flipper len long and thick high, hinged at its left end h, standing at angle a: its position (the
 * rectangle's centre) as c2d_static_set_set_transform takes it. */
static c2d_vec2 flipper_position(c2d_vec2 h, double len, double a)
{
    return V(h.x + 0.5 * len * cos(a), h.y + 0.5 * len * sin(a));
}

TEST(spin_flipper_face_throws_a_ball_at_one_plus_e_omega_d)
{
    /* A 110 x 18 flipper hinged at the origin, swinging up at 30 rad/s; a ball of radius 8 at rest just
     * above its upper face, 70 along it. The face meets the ball within the step; the ball leaves along
     * the face's normal at (1 + e) times the face's normal speed there, w d, d the contact point's
     * distance along the flipper from the hinge. */
    double e = 0.9, w = 30, dt = 1.0 / 60;
    c2d_shape *flip;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {flip};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    c2d_motion swing = tu_motion(0, 0, w, -55, 0);
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
    c2d_motion back;
    ENSURE_OK(c2d_static_set_get_motion(set, 0, &back));
    ENSURE(memcmp(&back, &swing, sizeof back) == 0);
    c2d_ball ball = {{70, 9 + 8 + 3}, {0, 0}, 8};
    c2d_move_options opt = c2d_move_options_default();
    opt.restitution = e;
    c2d_move_result res;
    c2d_contact_record rec[4];
    ENSURE_OK(c2d_static_set_step_ball_records(set, &ball, dt, &opt, &res, rec, 4));
    ENSURE_MSG(res.count == 1, "%d contacts", res.count);
    c2d_vec2 n = rec[0].contact.normal, q = rec[0].contact.point;
    /* The face's normal at contact time is the flipper turned by w t. */
    double a = w * dt * rec[0].contact.t;
    ENSURE_NEAR(n.x, -sin(a), 1e-9);
    ENSURE_NEAR(n.y, cos(a), 1e-9);
    double d = q.x * cos(a) + q.y * sin(a); /* along the flipper from the hinge */
    ENSURE_NEAR(q.x * -sin(a) + q.y * cos(a), 9, 1e-9); /* on the upper face */
    double speed = (1 + e) * w * d;
    ENSURE_NEAR(rec[0].velocity.x, speed * n.x, 1e-9 * speed);
    ENSURE_NEAR(rec[0].velocity.y, speed * n.y, 1e-9 * speed);
    ENSURE_NEAR(ball.velocity.x, speed * n.x, 1e-9 * speed);
    ENSURE_NEAR(ball.velocity.y, speed * n.y, 1e-9 * speed);
    /* And the ball ends clear of the flipper where it stands after the step. */
    ENSURE_OK(c2d_static_set_set_transform(set, 0, flipper_position(V(0, 0), 110, w * dt), w * dt));
    c2d_shape *probe;
    ENSURE_OK(c2d_circle_new(ball.position.x, ball.position.y, ball.radius, &probe));
    c2d_vec2 push;
    ENSURE_OK(c2d_static_set_push_out(set, probe, &push));
    ENSURE(push.x == 0 && push.y == 0);
    c2d_shape_destroy(probe);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(flip);
}

TEST(spin_ball_resting_on_a_flipper_is_thrown_when_it_swings)
{
    /* The ball lies on the flipper's face (touching) near its tip; at rest, a step leaves it there. */
    c2d_shape *flip;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {flip};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    c2d_ball ball = {{100, 17}, {0, 0}, 8};
    c2d_move_options opt = c2d_move_options_default();
    opt.restitution = 0.5;
    ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1.0 / 60, &opt, NULL, NULL, 0));
    ENSURE(ball.velocity.x == 0 && ball.velocity.y == 0);
    ENSURE(ball.position.x == 100 && ball.position.y == 17);
    /* Swung up at 40 rad/s: thrown up at (1 + e) w d, d = 100 along the flipper. */
    c2d_motion swing = tu_motion(0, 0, 40, -55, 0);
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1.0 / 60, &opt, &res, NULL, 0));
    ENSURE(res.count >= 1);
    ENSURE_NEAR(ball.velocity.y, 1.5 * 40 * 100, 1e-6 * 6000);
    ENSURE_NEAR(ball.velocity.x, 0, 1e-6 * 6000);
    /* Swung down instead, the face leaves the ball, which stays where it was. */
    c2d_ball rest = {{100, 17}, {0, 0}, 8};
    swing.angular_velocity = -40;
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
    ENSURE_OK(c2d_static_set_step_ball(set, &rest, 1.0 / 60, &opt, &res, NULL, 0));
    ENSURE(res.count == 0);
    ENSURE(rest.position.x == 100 && rest.position.y == 17);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(flip);
}

TEST(spin_set_sweep_agrees_with_the_rotating_sweep)
{
    for (long it = 0; it < c2d_test_iterations(300); it++) {
        int kb = (int)(c2d_test_rand() % TU_KINDS);
        int ka = (int)(c2d_test_rand() % TU_KINDS);
        tu_body a, b;
        ENSURE_OK(tu_random_body(ka, V(0, 0), 2, &a));
        ENSURE_OK(tu_random_body(kb, V(4, 0), 2, &b));
        double w = c2d_test_uniform(-2, 2);
        double px = c2d_test_uniform(-3, 3);
        double py = c2d_test_uniform(-3, 3);
        double dx = c2d_test_uniform(-2, 8);
        double dy = c2d_test_uniform(-3, 3);
        c2d_motion mb = tu_motion(0, 0, w, px, py);
        const c2d_shape *shapes[1] = {b.s};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
        ENSURE_OK(c2d_static_set_set_motion(set, 0, &mb));
        c2d_toi x, y;
        int index;
        ENSURE_OK(c2d_static_set_sweep(set, a.s, V(dx, dy), &x, &index));
        ENSURE_OK(c2d_sweep_motion(a.s, &(c2d_motion){V(dx, dy), 0, V(0, 0)}, b.s, &mb, &y));
        ENSURE_MSG(x.state == y.state, "case %ld: states %d and %d", it, (int)x.state, (int)y.state);
        if (x.state == C2D_TOI_HIT) {
            ENSURE_MSG(fabs(x.t - y.t) <= 1e-9, "case %ld: t %.17g and %.17g", it, x.t, y.t);
            /* The same contact, up to where each call stopped within its own tolerance: where two
             * corners meet, or a corner meets an edge at its end, the normal depends on which feature the
             * call saw touch first (both do, within the tolerance); where two edges lie almost flush,
             * the point is the middle of their overlap, which a hair of turn moves along them. */
            ENSURE_MSG(fabs(x.normal.x - y.normal.x) <= 1e-3 && fabs(x.normal.y - y.normal.y) <= 1e-3,
                       "case %ld (%d, %d): normals (%.17g, %.17g) and (%.17g, %.17g) at t %.17g", it, ka, kb,
                       x.normal.x, x.normal.y, y.normal.x, y.normal.y, x.t);
            /* Both points lie on both surfaces as they stand at that time (midway between the closest
             * points of the two cores, each moved out to its surface). */
            c2d_vec2 p0, q0;
            double a0;
            ENSURE_OK(c2d_shape_get_position(b.s, &p0));
            ENSURE_OK(c2d_shape_get_angle(b.s, &a0));
            c2d_vec2 c = tu_add(p0, tu_rot(V(px, py), a0));
            ENSURE_OK(c2d_shape_set_transform(b.s, tu_add(c, tu_rot(tu_sub(p0, c), w * x.t)), a0 + w * x.t));
            ENSURE_OK(c2d_shape_get_position(a.s, &q0));
            ENSURE_OK(c2d_shape_set_position(a.s, tu_add(q0, tu_scale(V(dx, dy), x.t))));
            c2d_vec2 pts[2] = {y.point, x.point};
            for (int k = 0; k < 2; k++) {
                c2d_vec2 on;
                double da, db;
                ENSURE_OK(c2d_closest_point(a.s, pts[k], &on, &da));
                ENSURE_OK(c2d_closest_point(b.s, pts[k], &on, &db));
                ENSURE_MSG(fabs(da) <= 1e-8 && fabs(db) <= 1e-8, "case %ld (%d, %d): point %d is %.3g and %.3g off", it,
                           ka, kb, k, da, db);
            }
        }
        c2d_static_set_destroy(set);
        tu_body_destroy(&a);
        tu_body_destroy(&b);
    }
}

TEST(spin_bad_motion_changes_nothing)
{
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(0, 0, 2, 2, 0, &box));
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {box};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    c2d_motion good = tu_motion(1, 2, 3, 0.5, 0), bad;
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &good));
    bad = tu_motion(1, 2, NAN, 0, 0);
    ENSURE(c2d_static_set_set_motion(set, 0, &bad) == C2D_ERR_NOT_FINITE);
    bad = tu_motion(1, 2, 3, 2e15, 0);
    ENSURE(c2d_static_set_set_motion(set, 0, &bad) == C2D_ERR_RANGE);
    bad = tu_motion(INFINITY, 2, 3, 0, 0);
    ENSURE(c2d_static_set_set_motion(set, 0, &bad) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_set_motion(set, 1, &good) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_set_motion(NULL, 0, &good) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_get_motion(set, 0, NULL) == C2D_ERR_NULL);
    c2d_motion m;
    ENSURE_OK(c2d_static_set_get_motion(set, 0, &m));
    ENSURE(memcmp(&m, &good, sizeof m) == 0);
    c2d_vec2 v;
    ENSURE_OK(c2d_static_set_get_velocity(set, 0, &v));
    ENSURE(v.x == 1 && v.y == 2);
    /* NULL stands still again. */
    ENSURE_OK(c2d_static_set_set_motion(set, 0, NULL));
    ENSURE_OK(c2d_static_set_get_motion(set, 0, &m));
    ENSURE(m.velocity.x == 0 && m.velocity.y == 0 && m.angular_velocity == 0);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(box);
}

/* ---- the property run ---- */

#define BARS 4

typedef struct bar {
    c2d_vec2 hinge;
    double len, thick, angle, w;
} bar;

/* How far the ball centred at c, of radius r, is from the bar standing at angle a (negative: inside). */
static double bar_gap(const bar *b, double a, c2d_vec2 c, double r)
{
    c2d_vec2 q = tu_sub(c, b->hinge);
    double along = q.x * cos(a) + q.y * sin(a), side = -q.x * sin(a) + q.y * cos(a);
    double ca = along < 0 ? 0 : along > b->len ? b->len : along;
    double h = 0.5 * b->thick, cs = side < -h ? -h : side > h ? h : side;
    double dx = along - ca, dy = side - cs;
    if (dx == 0 && dy == 0) /* the centre inside the bar */
        return -fmin(fmin(along, b->len - along), fmin(side + h, h - side)) - r;
    return sqrt(dx * dx + dy * dy) - r;
}

/* The worst gap between the ball and any bar along one straight leg of the ball's path, from p at time
 * ta with velocity v to time tb, each bar turning from its angle at time 0 of the step: sampled finely
 * enough that the ball cannot cross the thinnest bar between two samples. */
static double leg_gap(const bar *bars, const double *angle0, c2d_vec2 p, c2d_vec2 v, double ta, double tb, double r,
                      double dt)
{
    int n = 2 + (int)(600 * (tb - ta) / dt);
    double worst = INFINITY;
    for (int j = 0; j <= n; j++) {
        double t = ta + (tb - ta) * j / n;
        c2d_vec2 c = tu_add(p, tu_scale(v, t - ta));
        for (int k = 0; k < BARS; k++)
            worst = fmin(worst, bar_gap(&bars[k], angle0[k] + bars[k].w * t, c, r));
    }
    return worst;
}

TEST(spin_balls_never_pass_through_or_end_inside_turning_bars)
{
    long steps = c2d_test_iterations(30000);
    double dt = 1.0 / 60;
    long done = 0, hits = 0, carried = 0;
    while (done < steps) {
        /* A 60 x 40 box with BARS bars hinged inside, each turning at up to 60 rad/s. The discs they
         * sweep keep 3.5 from the walls and from each other, more than the widest ball: a ball caught
         * between a turning bar and a wall would be crushed, which no answer can avoid (see
         * c2d_static_set_set_velocity on crushing). */
        c2d_shape *shapes[4 + BARS];
        ENSURE_OK(c2d_rect_new(30, -1, 62, 2, 0, &shapes[0]));
        ENSURE_OK(c2d_rect_new(30, 41, 62, 2, 0, &shapes[1]));
        ENSURE_OK(c2d_rect_new(-1, 20, 2, 42, 0, &shapes[2]));
        ENSURE_OK(c2d_rect_new(61, 20, 2, 42, 0, &shapes[3]));
        bar bars[BARS];
        for (int k = 0; k < BARS; k++) {
            bar *b = &bars[k];
            for (int tries = 0;; tries++) {
                b->len = c2d_test_uniform(3, 8);
                b->thick = c2d_test_rand() % 3 == 0 ? 0.01 : c2d_test_uniform(0.2, 2);
                double reach = tu_len(V(b->len, 0.5 * b->thick)) + 3.5;
                double hy = c2d_test_uniform(reach, 40 - reach);
                double hx = c2d_test_uniform(reach, 60 - reach);
                b->hinge = V(hx, hy);
                int apart = 1;
                for (int j = 0; j < k; j++)
                    apart = apart && tu_len(tu_sub(b->hinge, bars[j].hinge)) >
                                         reach + tu_len(V(bars[j].len, 0.5 * bars[j].thick));
                if (apart || tries > 100)
                    break;
            }
            b->angle = c2d_test_uniform(-TU_PI, TU_PI);
            b->w = c2d_test_uniform(-60, 60);
            c2d_vec2 pos = flipper_position(b->hinge, b->len, b->angle);
            ENSURE_OK(c2d_rect_new(pos.x, pos.y, b->len, b->thick, b->angle, &shapes[4 + k]));
        }
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 4 + BARS, NULL, &set));
        for (int k = 0; k < BARS; k++) {
            c2d_motion m = tu_motion(0, 0, bars[k].w, -0.5 * bars[k].len, 0);
            ENSURE_OK(c2d_static_set_set_motion(set, 4 + k, &m));
        }
        c2d_ball ball;
        ball.radius = c2d_test_uniform(0.1, 1.5);
        double by = c2d_test_uniform(2, 38);
        double bx = c2d_test_uniform(2, 58);
        ball.position = V(bx, by);
        double vy = c2d_test_uniform(-30, 30);
        double vx = c2d_test_uniform(-30, 30);
        ball.velocity = V(vx, vy);
        c2d_shape *probe;
        ENSURE_OK(c2d_circle_new(bx, by, ball.radius, &probe));
        c2d_vec2 push;
        ENSURE_OK(c2d_static_set_push_out(set, probe, &push));
        ball.position = tu_add(ball.position, push);
        c2d_move_options opt = c2d_move_options_default();
        opt.restitution = c2d_test_uniform(0.3, 1);
        for (int s = 0; s < 300 && done < steps; s++, done++) {
            double angle0[BARS];
            for (int k = 0; k < BARS; k++)
                angle0[k] = bars[k].angle;
            c2d_move_result res;
            c2d_ball before = ball;
            c2d_contact_record rec[300];
            ENSURE_OK(c2d_static_set_step_ball_records(set, &ball, dt, &opt, &res, rec, 300));
            hits += res.count;
            ENSURE_MSG(!res.truncated, "step %ld: cut short after %d contacts", done, res.count);
            /* The path, leg by leg between the contacts, never enters a bar as it turns. The last leg
             * is straight unless the ball rode a bar (then it touches it by construction). */
            c2d_vec2 p = before.position, v = before.velocity;
            double ta = 0, worst = INFINITY;
            for (int k = 0; k < res.count; k++) {
                double tb = rec[k].contact.t * dt;
                worst = fmin(worst, leg_gap(bars, angle0, p, v, ta, tb, ball.radius, dt));
                p = rec[k].position;
                v = rec[k].velocity;
                ta = tb;
            }
            c2d_vec2 straight = tu_add(p, tu_scale(v, dt - ta));
            if (tu_len(tu_sub(straight, ball.position)) <= 1e-9 * (1 + tu_len(straight)))
                worst = fmin(worst, leg_gap(bars, angle0, p, v, ta, dt, ball.radius, dt));
            else
                carried++;
            ENSURE_MSG(worst >= -1e-7, "step %ld: the ball went %.3g into a turning bar (%d contacts)", done, -worst,
                       res.count);
            for (int k = 0; k < BARS; k++) {
                bar *b = &bars[k];
                b->angle += b->w * dt;
                c2d_vec2 pos = flipper_position(b->hinge, b->len, b->angle);
                ENSURE_OK(c2d_static_set_set_transform(set, 4 + k, pos, b->angle));
            }
            /* Not inside anything where everything now stands (deeper than a hair). */
            ENSURE_OK(c2d_shape_set_position(probe, ball.position));
            ENSURE_OK(c2d_static_set_push_out(set, probe, &push));
            ENSURE_MSG(tu_len(push) <= 1e-6, "step %ld: the ball ended %.3g inside", done, tu_len(push));
        }
        c2d_shape_destroy(probe);
        c2d_static_set_destroy(set);
        for (int k = 0; k < 4 + BARS; k++)
            c2d_shape_destroy(shapes[k]);
    }
    printf("# %ld ball steps among turning bars, %ld contacts, %ld steps riding a bar\n", done, hits, carried);
    ENSURE(hits > steps / 100);
}

TEST(spin_advance_places_members_where_their_motion_takes_them)
{
    /* A flipper hinged at (0, 0) turning at 3 rad/s, a paddle moving at (2, 1), a wall standing still. */
    c2d_shape *flip, *paddle, *wall;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
    ENSURE_OK(c2d_rect_new(0, -50, 40, 4, 0, &paddle));
    ENSURE_OK(c2d_rect_new(300, 0, 10, 200, 0, &wall));
    const c2d_shape *shapes[3] = {flip, paddle, wall};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(shapes, 3, NULL, &set));
    c2d_motion swing = tu_motion(0, 0, 3, -55, 0), slide = tu_motion(2, 1, 0, 0, 0);
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
    ENSURE_OK(c2d_static_set_set_motion(set, 1, &slide));
    ENSURE_OK(c2d_static_set_advance(set, 0.25));
    c2d_vec2 p;
    double a;
    ENSURE_OK(c2d_static_set_get_transform(set, 0, &p, &a));
    ENSURE_NEAR(a, 0.75, 1e-15);
    ENSURE_NEAR(p.x, 55 * cos(0.75), 1e-12);
    ENSURE_NEAR(p.y, 55 * sin(0.75), 1e-12);
    ENSURE_OK(c2d_static_set_get_transform(set, 1, &p, &a));
    ENSURE(p.x == 0.5 && p.y == -49.75 && a == 0);
    ENSURE_OK(c2d_static_set_get_transform(set, 2, &p, &a));
    ENSURE(p.x == 300 && p.y == 0 && a == 0);
    /* The pivot stays with the flipper: advancing again turns it on about the same hinge. */
    ENSURE_OK(c2d_static_set_advance(set, 0.25));
    ENSURE_OK(c2d_static_set_get_transform(set, 0, &p, &a));
    ENSURE_NEAR(a, 1.5, 1e-15);
    ENSURE_NEAR(p.x, 55 * cos(1.5), 1e-12);
    ENSURE_NEAR(p.y, 55 * sin(1.5), 1e-12);
    /* Bad time, or a motion that would leave the coordinate range: nothing moves. */
    ENSURE(c2d_static_set_advance(set, -1) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_advance(set, NAN) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_static_set_advance(NULL, 1) == C2D_ERR_NULL);
    c2d_motion far = tu_motion(1e14, 0, 0, 0, 0);
    ENSURE_OK(c2d_static_set_set_motion(set, 2, &far));
    ENSURE(c2d_static_set_advance(set, 20) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_static_set_get_transform(set, 0, &p, &a));
    ENSURE_NEAR(a, 1.5, 1e-15);
    ENSURE_OK(c2d_static_set_get_transform(set, 2, &p, &a));
    ENSURE(p.x == 300);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(flip);
    c2d_shape_destroy(paddle);
    c2d_shape_destroy(wall);
}

TEST(spin_ball_carried_by_a_flipper_stops_at_a_post)
{
    /* A ball resting on a flipper's face, 80 along it, and a post (radius 4) on the arc the ball's
     * centre would follow if the flipper carried it through the step. Swung up hard, the flipper
     * throws, chases and carries the ball; the post stops it: neither ends inside the ball, and the
     * ball does not pass the post. */
    c2d_shape *flip, *post;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
    double rb = tu_len(V(80, 17)), a0 = atan2(17, 80);
    ENSURE_OK(c2d_circle_new(rb * cos(a0 + 0.3), rb * sin(a0 + 0.3), 4, &post));
    const c2d_shape *shapes[2] = {flip, post};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    for (int k = 0; k < 2; k++) {
        double e = k == 0 ? 0.0 : 0.9;
        c2d_motion swing = tu_motion(0, 0, 45, -55, 0);
        ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
        ENSURE_OK(c2d_static_set_set_transform(set, 0, V(55, 0), 0));
        c2d_ball ball = {{80, 17}, {0, 0}, 8};
        c2d_move_options opt = c2d_move_options_default();
        opt.restitution = e;
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1.0 / 60, &opt, &res, NULL, 0));
        /* Where the post stands, the ball is not inside it, and it has not gone round past it. */
        c2d_vec2 pc;
        ENSURE_OK(c2d_static_set_get_transform(set, 1, &pc, NULL));
        double gap = tu_len(tu_sub(ball.position, pc)) - 12;
        ENSURE_MSG(gap >= -1e-7, "restitution %g: the ball ended %.3g inside the post", e, -gap);
        /* Without a bounce the flipper carries the ball along its face: round the hinge no farther than
         * the post. (With one it throws the ball off its arc, clear of the post or onto it.) */
        double ab = atan2(ball.position.y, ball.position.x), ap = atan2(pc.y, pc.x);
        if (e == 0)
            ENSURE_MSG(ab <= ap + 1e-9 && res.count >= 2,
                       "restitution 0: the ball went past the post (at %.6g rad, the post at %.6g; %d contacts)", ab,
                       ap, res.count);
    }
    c2d_static_set_destroy(set);
    c2d_shape_destroy(flip);
    c2d_shape_destroy(post);
}

TEST(spin_pivot_of_a_turned_circle_turns_with_it)
{
    /* A circle's placement keeps no rotation, but its frame turns with its angle: the pivot (2, 0) of a
     * circle at the origin turned a quarter-turn is (0, 2), and a half-turn about it takes the centre
     * to (0, 4). (About an unturned (2, 0) it would go to (4, 0), far from the probe.) */
    c2d_shape *ball, *probe;
    ENSURE_OK(c2d_circle_new(0, 0, 1, &ball));
    ENSURE_OK(c2d_shape_set_angle(ball, TU_PI / 2));
    ENSURE_OK(c2d_circle_new(0, 6, 1, &probe));
    c2d_motion half = tu_motion(0, 0, TU_PI, 2, 0);
    c2d_toi toi;
    ENSURE_OK(c2d_sweep_motion(ball, &half, probe, NULL, &toi));
    /* It touches the probe (2 apart) at (0, 4), the end of the half-turn, which it reaches moving
     * across the line between them: the gap closes as the square of the time left, so touching (within
     * the tolerance) comes a hair before the end. */
    ENSURE(toi.state == C2D_TOI_HIT);
    ENSURE_NEAR(toi.t, 1, 1e-5);
    /* The same pivot in a set, with motions read back whatever the other members do. */
    const c2d_shape *shapes[2] = {ball, probe};
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    c2d_motion still_pivot = tu_motion(0, 0, 0, 3, 4), m;
    ENSURE_OK(c2d_static_set_set_motion(set, 1, &still_pivot));
    ENSURE_OK(c2d_static_set_get_motion(set, 1, &m));
    ENSURE(m.pivot.x == 3 && m.pivot.y == 4);
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &half));
    ENSURE_OK(c2d_static_set_get_motion(set, 1, &m));
    ENSURE(m.pivot.x == 3 && m.pivot.y == 4);
    ENSURE_OK(c2d_static_set_advance(set, 1));
    c2d_vec2 p;
    ENSURE_OK(c2d_static_set_get_transform(set, 0, &p, NULL));
    ENSURE_NEAR(p.x, 0, 1e-12);
    ENSURE_NEAR(p.y, 4, 1e-12);
    c2d_static_set_destroy(set);
    c2d_shape_destroy(ball);
    c2d_shape_destroy(probe);
}

TEST(spin_bar_tip_meets_a_ball_where_its_arc_reaches_beyond_both_ends)
{
    /* A bar 10 long turning half a radian about its end, from a quarter radian before an axis direction
     * u to a quarter after: its tip reaches 10 along u half-way, 10 cos 0.25 (9.69) at either end. A
     * ball of radius 1 passing across u at 10.99 along it overlaps the tip by 0.01 half-way, and is
     * 0.3 clear of both ends' boxes: the turning member's swept box must reach the arc's farthest
     * point. Along each axis direction, turning either way, by a ball step and by the set's sweep. */
    for (int k = 0; k < 8; k++) {
        double phi = (k % 4) * TU_PI / 2, s = k < 4 ? 1 : -1, a0 = phi - 0.25 * s;
        c2d_vec2 u = V(cos(phi), sin(phi)), across = V(-u.y, u.x);
        c2d_shape *rod;
        ENSURE_OK(c2d_rect_new(5 * cos(a0), 5 * sin(a0), 10, 0.2, a0, &rod));
        const c2d_shape *shapes[1] = {rod};
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
        c2d_motion turn = tu_motion(0, 0, 0.5 * s, -5, 0);
        ENSURE_OK(c2d_static_set_set_motion(set, 0, &turn));
        c2d_vec2 start = tu_add(tu_scale(u, 10.99), tu_scale(across, 5)), vel = tu_scale(across, -10);
        c2d_ball ball = {start, vel, 1};
        c2d_move_result res;
        c2d_sweep_contact c[4];
        ENSURE_OK(c2d_static_set_step_ball(set, &ball, 1.0, NULL, &res, c, 4));
        ENSURE_MSG(res.count >= 1 && c[0].t > 0.3 && c[0].t < 0.7, "axis %d, turning %g: %d contacts, first at %g",
                   k % 4, s, res.count, res.count > 0 ? c[0].t : -1.0);
        c2d_shape *probe;
        ENSURE_OK(c2d_circle_new(start.x, start.y, 1, &probe));
        c2d_toi toi;
        int index;
        ENSURE_OK(c2d_static_set_sweep(set, probe, vel, &toi, &index));
        ENSURE_MSG(toi.state == C2D_TOI_HIT && index == 0 && toi.t > 0.3 && toi.t < 0.7,
                   "axis %d, turning %g: sweep state %d at %g", k % 4, s, (int)toi.state, toi.t);
        c2d_shape_destroy(probe);
        c2d_static_set_destroy(set);
        c2d_shape_destroy(rod);
    }
}
