/* test_world_motion.c - world entries that move and turn (c2d_world_set_motion): a flipper in a world
 * throws a ball at rest at (1 + e) w d as the static set's does; world ball steps and moves among
 * turning bars, and among a turning chain and concave polygon, give the static set's answers bit for
 * bit; a crate on a turning platform is carried as in the static set; a bar whose turn brings it into
 * a ball that stands still is found by the move's scope (the broadphase grown by the motion), and so
 * is a paddle whose velocity does, while the instantaneous queries do not see them; a ball a flipper
 * throws meets the entries beyond the step's first scope; bad input changes nothing. */
#include "testutil.h"

#include <string.h>

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* A bar len long hinged at its left end h, standing at angle a: its position (the rectangle's centre). */
static c2d_vec2 bar_position(c2d_vec2 h, double len, double a)
{
    return V(h.x + 0.5 * len * cos(a), h.y + 0.5 * len * sin(a));
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int same_vec(c2d_vec2 a, c2d_vec2 b)
{
    return same_double(a.x, b.x) && same_double(a.y, b.y);
}

/* Whether two move results are the same to the last bit. */
static int same_result(const c2d_move_result *a, const c2d_move_result *b)
{
    return same_vec(a->displacement, b->displacement) && same_vec(a->velocity, b->velocity) &&
           same_double(a->travelled, b->travelled) && a->count == b->count && a->truncated == b->truncated;
}

/* Whether a world record and a static set's are the same contact to the last bit: the world's names
 * the entry whose user value is the set's index. */
static int same_record(const c2d_contact_record *w, const c2d_contact_record *s)
{
    return w->user == (uintptr_t)s->contact.index && same_double(w->contact.t, s->contact.t) &&
           same_vec(w->contact.normal, s->contact.normal) && same_vec(w->contact.point, s->contact.point) &&
           w->contact.response == s->contact.response && w->contact.pushed_out == s->contact.pushed_out &&
           same_vec(w->position, s->position) && same_vec(w->velocity, s->velocity);
}

TEST(world_motion_flipper_throws_a_ball_at_one_plus_e_omega_d)
{
    /* test_spin.c's flipper, in a world: 110 x 18 hinged at the origin, swinging up at 30 rad/s, a ball
     * of radius 8 at rest 3 above its face, 70 along it. */
    double e = 0.9, w = 30, dt = 1.0 / 60;
    c2d_shape *flip;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
    c2d_world *world;
    ENSURE_OK(c2d_world_new(&world));
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(world, flip, 7, &id));
    c2d_motion swing = tu_motion(0, 0, w, -55, 0);
    ENSURE_OK(c2d_world_set_motion(world, id, &swing));
    c2d_motion back;
    ENSURE_OK(c2d_world_get_motion(world, id, &back));
    ENSURE(memcmp(&back, &swing, sizeof back) == 0);
    c2d_ball ball = {{70, 9 + 8 + 3}, {0, 0}, 8};
    c2d_move_options opt = c2d_move_options_default();
    opt.restitution = e;
    c2d_move_result res;
    c2d_contact_record rec[4];
    ENSURE_OK(c2d_world_step_ball_records(world, &ball, dt, NULL, NULL, NULL, &opt, &res, rec, 4));
    ENSURE_MSG(res.count == 1, "%d contacts", res.count);
    ENSURE(rec[0].id == id && rec[0].user == 7);
    c2d_vec2 n = rec[0].contact.normal, q = rec[0].contact.point;
    double a = w * dt * rec[0].contact.t;
    ENSURE_NEAR(n.x, -sin(a), 1e-9);
    ENSURE_NEAR(n.y, cos(a), 1e-9);
    double d = q.x * cos(a) + q.y * sin(a);
    ENSURE_NEAR(q.x * -sin(a) + q.y * cos(a), 9, 1e-9);
    double speed = (1 + e) * w * d;
    ENSURE_NEAR(ball.velocity.x, speed * n.x, 1e-9 * speed);
    ENSURE_NEAR(ball.velocity.y, speed * n.y, 1e-9 * speed);
    /* The plain contacts name the entry too. */
    c2d_ball again = {{70, 9 + 8 + 3}, {0, 0}, 8};
    c2d_world_contact wc[4];
    ENSURE_OK(c2d_world_step_ball(world, &again, dt, NULL, NULL, NULL, &opt, &res, wc, 4));
    ENSURE(res.count == 1 && wc[0].id == id && wc[0].user == 7);
    ENSURE(same_vec(again.position, ball.position) && same_vec(again.velocity, ball.velocity));
    /* The same as the static set's answer, to the last bit. */
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {flip};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
    c2d_ball sb = {{70, 9 + 8 + 3}, {0, 0}, 8};
    c2d_move_result sres;
    c2d_contact_record srec[4];
    ENSURE_OK(c2d_static_set_step_ball_records(set, &sb, dt, &opt, &sres, srec, 4));
    srec[0].contact.index = 7; /* the entry's user value */
    ENSURE(same_result(&res, &sres) && same_record(&rec[0], &srec[0]));
    ENSURE(same_vec(sb.position, ball.position) && same_vec(sb.velocity, ball.velocity));
    /* Made still again, the flipper lets the ball be. */
    ENSURE_OK(c2d_world_set_motion(world, id, NULL));
    c2d_ball rest = {{70, 9 + 8 + 3}, {0, 0}, 8};
    ENSURE_OK(c2d_world_step_ball(world, &rest, dt, NULL, NULL, NULL, &opt, &res, NULL, 0));
    ENSURE(res.count == 0 && rest.position.x == 70 && rest.position.y == 20);
    c2d_static_set_destroy(set);
    c2d_world_destroy(world);
    c2d_shape_destroy(flip);
}

TEST(world_motion_scope_finds_an_entry_turning_into_a_still_ball)
{
    /* A bar 10 long hinged at the origin, pointing along -y; a ball of radius 1 at rest at (8, 0), well
     * clear of the bar's box. Turning counter-clockwise at 60 rad/s, the bar swings up through +x within
     * the step (a quarter turn in 1/38 s of the 1/30) and must meet the ball. */
    c2d_shape *bar;
    c2d_vec2 h = V(0, 0);
    double len = 10, a0 = -TU_PI / 2, w = 60, dt = 1.0 / 30;
    c2d_vec2 pos = bar_position(h, len, a0);
    ENSURE_OK(c2d_rect_new(pos.x, pos.y, len, 0.5, a0, &bar));
    c2d_world *world;
    ENSURE_OK(c2d_world_new(&world));
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(world, bar, 1, &id));
    c2d_motion turn = tu_motion(0, 0, w, -0.5 * len, 0);
    ENSURE_OK(c2d_world_set_motion(world, id, &turn));
    c2d_ball ball = {{8, 0}, {0, 0}, 1};
    /* Where everything stands, nothing is near the ball: the instantaneous queries do not see the bar. */
    c2d_aabb box = {{7, -1}, {9, 1}};
    int count = -1;
    c2d_world_hit hits[4];
    ENSURE_OK(c2d_world_query_aabb(world, box, NULL, hits, 4, &count));
    ENSURE(count == 0);
    c2d_world_ray_hit rh;
    ENSURE_OK(c2d_world_raycast(world, V(7, 0), V(1, 0), 2, NULL, &rh));
    ENSURE(!rh.ray.hit);
    /* The step finds the bar and the ball is struck, along +y, at about (1 + e) w d. */
    c2d_move_result res;
    c2d_world_contact wc[8];
    ENSURE_OK(c2d_world_step_ball(world, &ball, dt, NULL, NULL, NULL, NULL, &res, wc, 8));
    ENSURE_MSG(res.count >= 1, "%d contacts", res.count);
    ENSURE(wc[0].id == id && wc[0].user == 1);
    ENSURE_MSG(ball.velocity.y > 0.5 * 2 * w * 7, "velocity (%g, %g)", ball.velocity.x, ball.velocity.y);
    /* A paddle that moves into a ball standing still is found as well. */
    c2d_shape *paddle;
    ENSURE_OK(c2d_rect_new(-20, 30, 1, 6, 0, &paddle));
    c2d_world_id pid;
    ENSURE_OK(c2d_world_add(world, paddle, 2, &pid));
    c2d_motion slide = tu_motion(600, 0, 0, 0, 0);
    ENSURE_OK(c2d_world_set_motion(world, pid, &slide));
    c2d_ball still = {{0, 30}, {0, 0}, 1};
    ENSURE_OK(c2d_world_step_ball(world, &still, dt, NULL, NULL, NULL, NULL, &res, wc, 8));
    ENSURE_MSG(res.count >= 1 && wc[0].id == pid, "%d contacts", res.count);
    ENSURE_NEAR(still.velocity.x, 1200, 1e-6 * 1200);
    /* The same paddle for a move of a box standing still: pushed along (slide). */
    c2d_shape *crate;
    ENSURE_OK(c2d_rect_new(0, 30, 2, 2, 0, &crate));
    c2d_contact_record mr[8];
    ENSURE_OK(c2d_world_move_records(world, crate, V(0, 0), NULL, NULL, NULL, NULL, &res, mr, 8));
    ENSURE_MSG(res.count >= 1 && mr[0].id == pid, "%d contacts", res.count);
    /* Over a move (one unit of time) the paddle goes 600: the crate ends ahead of where it ends. */
    ENSURE_MSG(res.displacement.x >= 600 - 20 + 0.5 + 1 - 1e-6, "displacement (%g, %g)", res.displacement.x,
               res.displacement.y);
    /* A filter that refuses the entries in motion: nothing is met. */
    c2d_world_filter none = {1, 1, NULL, NULL};
    ENSURE_OK(c2d_world_set_bits(world, pid, 2, C2D_WORLD_ALL_BITS));
    ENSURE_OK(c2d_world_set_bits(world, id, 2, C2D_WORLD_ALL_BITS));
    c2d_ball clear = {{0, 30}, {0, 0}, 1};
    ENSURE_OK(c2d_world_step_ball(world, &clear, dt, &none, NULL, NULL, NULL, &res, wc, 8));
    ENSURE(res.count == 0 && clear.position.x == 0 && clear.position.y == 30);
    c2d_world_destroy(world);
    c2d_shape_destroy(crate);
    c2d_shape_destroy(paddle);
    c2d_shape_destroy(bar);
}

TEST(world_motion_thrown_ball_meets_entries_beyond_the_first_scope)
{
    /* The flipper of test_spin.c swinging up at 40 rad/s under a ball resting on it near its tip throws
     * it up at 6000 a second: 100 in a step of 1/60, through a thin roof 40 above that no scope of the
     * ball at rest would hold. It must bounce off the roof's underside instead. */
    c2d_shape *flip, *roof;
    ENSURE_OK(c2d_rect_new(55, 0, 110, 18, 0, &flip));
    ENSURE_OK(c2d_rect_new(100, 60, 200, 0.5, 0, &roof));
    c2d_world *world;
    ENSURE_OK(c2d_world_new(&world));
    c2d_world_id fid, rid;
    ENSURE_OK(c2d_world_add(world, flip, 0, &fid));
    ENSURE_OK(c2d_world_add(world, roof, 1, &rid));
    c2d_motion swing = tu_motion(0, 0, 40, -55, 0);
    ENSURE_OK(c2d_world_set_motion(world, fid, &swing));
    c2d_ball ball = {{100, 17}, {0, 0}, 8};
    c2d_move_options opt = c2d_move_options_default();
    opt.restitution = 0.5;
    c2d_move_result res;
    c2d_world_contact wc[16];
    ENSURE_OK(c2d_world_step_ball(world, &ball, 1.0 / 60, NULL, NULL, NULL, &opt, &res, wc, 16));
    int met_roof = 0;
    for (int k = 0; k < res.count && k < 16; k++)
        met_roof |= wc[k].id == rid;
    ENSURE_MSG(met_roof, "%d contacts, the ball at (%g, %g)", res.count, ball.position.x, ball.position.y);
    ENSURE_MSG(ball.position.y + ball.radius <= 60 - 0.25 + 1e-9, "the ball went through the roof to %g",
               ball.position.y);
    ENSURE(ball.velocity.y < 0);
    /* The static set of the two gives the same answer. */
    c2d_static_set *set;
    const c2d_shape *shapes[2] = {flip, roof};
    ENSURE_OK(c2d_static_set_new(shapes, 2, NULL, &set));
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &swing));
    c2d_ball sb = {{100, 17}, {0, 0}, 8};
    c2d_move_result sres;
    ENSURE_OK(c2d_static_set_step_ball(set, &sb, 1.0 / 60, &opt, &sres, NULL, 0));
    ENSURE(same_result(&res, &sres) && same_vec(sb.position, ball.position) && same_vec(sb.velocity, ball.velocity));
    c2d_static_set_destroy(set);
    c2d_world_destroy(world);
    c2d_shape_destroy(roof);
    c2d_shape_destroy(flip);
}

TEST(world_motion_crate_on_a_turning_platform_is_carried_as_in_the_static_set)
{
    /* A platform 40 long and 2 thick hinged at its left end, turning up at 1 rad/s; a 2 x 2 crate at
     * rest on it 30 along. A move of the crate by nothing (one unit of time) rides the platform round:
     * the crate ends beside where the platform ends, far beyond the scope of a move of length 0. */
    c2d_shape *plat, *crate;
    ENSURE_OK(c2d_rect_new(20, 0, 40, 2, 0, &plat));
    ENSURE_OK(c2d_rect_new(30, 2, 2, 2, 0, &crate));
    c2d_world *world;
    ENSURE_OK(c2d_world_new(&world));
    c2d_world_id id;
    ENSURE_OK(c2d_world_add(world, plat, 0, &id));
    c2d_motion turn = tu_motion(0, 0, 1, -20, 0);
    ENSURE_OK(c2d_world_set_motion(world, id, &turn));
    c2d_move_result res;
    c2d_contact_record rec[300];
    ENSURE_OK(c2d_world_move_records(world, crate, V(0, 0), NULL, NULL, NULL, NULL, &res, rec, 300));
    ENSURE_MSG(res.count >= 1, "%d contacts", res.count);
    c2d_vec2 end = tu_add(V(30, 2), res.displacement), want = tu_rot(V(30, 2), 1.0);
    ENSURE_MSG(tu_len(tu_sub(end, want)) < 0.5, "the crate ended at (%g, %g), the platform's spot at (%g, %g)", end.x,
               end.y, want.x, want.y);
    c2d_static_set *set;
    const c2d_shape *shapes[1] = {plat};
    ENSURE_OK(c2d_static_set_new(shapes, 1, NULL, &set));
    ENSURE_OK(c2d_static_set_set_motion(set, 0, &turn));
    c2d_move_result sres;
    c2d_contact_record srec[300];
    ENSURE_OK(c2d_static_set_move_records(set, crate, V(0, 0), NULL, &sres, srec, 300));
    ENSURE(same_result(&res, &sres));
    for (int k = 0; k < sres.count && k < 300; k++)
        ENSURE_MSG(same_record(&rec[k], &srec[k]), "contact %d differs", k);
    c2d_static_set_destroy(set);
    c2d_world_destroy(world);
    c2d_shape_destroy(crate);
    c2d_shape_destroy(plat);
}

TEST(world_motion_bad_input_changes_nothing)
{
    c2d_shape *box, *far;
    ENSURE_OK(c2d_rect_new(0, 0, 2, 2, 0, &box));
    ENSURE_OK(c2d_rect_new(9e14, 0, 2, 2, 0, &far));
    c2d_world *world;
    ENSURE_OK(c2d_world_new(&world));
    c2d_world_id id, fid;
    ENSURE_OK(c2d_world_add(world, box, 0, &id));
    ENSURE_OK(c2d_world_add(world, far, 1, &fid));
    c2d_motion m;
    /* Still until set. */
    ENSURE_OK(c2d_world_get_motion(world, id, &m));
    ENSURE(m.velocity.x == 0 && m.velocity.y == 0 && m.angular_velocity == 0 && m.pivot.x == 0 && m.pivot.y == 0);
    c2d_motion good = tu_motion(1, 2, 3, 0.5, 0), bad;
    ENSURE_OK(c2d_world_set_motion(world, id, &good));
    bad = tu_motion(1, 2, NAN, 0, 0);
    ENSURE(c2d_world_set_motion(world, id, &bad) == C2D_ERR_NOT_FINITE);
    bad = tu_motion(INFINITY, 2, 3, 0, 0);
    ENSURE(c2d_world_set_motion(world, id, &bad) == C2D_ERR_NOT_FINITE);
    bad = tu_motion(1, 2, 3, 0, NAN);
    ENSURE(c2d_world_set_motion(world, id, &bad) == C2D_ERR_NOT_FINITE);
    bad = tu_motion(1, 2, 3, 2e15, 0);
    ENSURE(c2d_world_set_motion(world, id, &bad) == C2D_ERR_RANGE);
    bad = tu_motion(2e15, 0, 0, 0, 0);
    ENSURE(c2d_world_set_motion(world, id, &bad) == C2D_ERR_RANGE);
    /* A pivot in range in the shape's frame that stands beyond the range where the shape stands. */
    bad = tu_motion(0, 0, 1, 2e14, 0);
    ENSURE(c2d_world_set_motion(world, fid, &bad) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_motion(world, id + 12345, &good) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_motion(world, 0, &good) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_motion(NULL, id, &good) == C2D_ERR_NULL);
    ENSURE(c2d_world_get_motion(world, id, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_world_get_motion(NULL, id, &m) == C2D_ERR_NULL);
    ENSURE(c2d_world_get_motion(world, id + 12345, &m) == C2D_ERR_RANGE);
    ENSURE_OK(c2d_world_get_motion(world, id, &m));
    ENSURE(memcmp(&m, &good, sizeof m) == 0);
    ENSURE_OK(c2d_world_get_motion(world, fid, &m));
    ENSURE(m.velocity.x == 0 && m.angular_velocity == 0 && m.pivot.x == 0);
    /* NULL stands still again; a zeroed motion too. */
    ENSURE_OK(c2d_world_set_motion(world, id, NULL));
    ENSURE_OK(c2d_world_get_motion(world, id, &m));
    ENSURE(m.velocity.x == 0 && m.velocity.y == 0 && m.angular_velocity == 0);
    ENSURE_OK(c2d_world_set_motion(world, id, &good));
    c2d_motion zero = tu_motion(0, 0, 0, 0, 0);
    ENSURE_OK(c2d_world_set_motion(world, id, &zero));
    ENSURE_OK(c2d_world_get_motion(world, id, &m));
    ENSURE(memcmp(&m, &zero, sizeof m) == 0);
    /* A removed entry's motion goes with it: its id is refused, and the entry that takes its slot
     * stands still. */
    ENSURE_OK(c2d_world_set_motion(world, id, &good));
    ENSURE_OK(c2d_world_remove(world, id));
    ENSURE(c2d_world_get_motion(world, id, &m) == C2D_ERR_RANGE);
    ENSURE(c2d_world_set_motion(world, id, &good) == C2D_ERR_RANGE);
    c2d_world_id again;
    ENSURE_OK(c2d_world_add(world, box, 2, &again));
    ENSURE_OK(c2d_world_get_motion(world, again, &m));
    ENSURE(m.velocity.x == 0 && m.velocity.y == 0 && m.angular_velocity == 0 && m.pivot.x == 0);
    /* And a ball step beside it meets nothing (the removed entry's motion is gone from the scope). */
    c2d_ball ball = {{5, 0}, {0, 0}, 1};
    c2d_move_result res;
    ENSURE_OK(c2d_world_step_ball(world, &ball, 1, NULL, NULL, NULL, NULL, &res, NULL, 0));
    ENSURE(res.count == 0 && ball.position.x == 5);
    /* A shape re-placed, after its motion was set, so that its pivot stands beyond the range: the move
     * that would sweep it answers C2D_ERR_RANGE and changes nothing. */
    c2d_motion edge = tu_motion(0, 0, 1, -5e14, 0);
    ENSURE_OK(c2d_world_set_motion(world, fid, &edge));
    ENSURE_OK(c2d_shape_set_position(far, V(-9e14, 0)));
    ENSURE_OK(c2d_world_update(world, fid));
    c2d_ball near = {{-9e14, 10}, {0, 0}, 1};
    c2d_ball before = near;
    ENSURE(c2d_world_step_ball(world, &near, 1, NULL, NULL, NULL, NULL, &res, NULL, 0) == C2D_ERR_RANGE);
    ENSURE(memcmp(&near, &before, sizeof near) == 0);
    c2d_world_destroy(world);
    c2d_shape_destroy(box);
    c2d_shape_destroy(far);
}

/* ---- the world against the static set, among turning bars ---- */

#define BARS 4

typedef struct bar {
    c2d_vec2 hinge;
    double len, thick, angle, w;
} bar;

TEST(world_motion_ball_steps_and_moves_among_turning_bars_match_the_static_set)
{
    long steps = c2d_test_iterations(6000);
    double dt = 1.0 / 60;
    long done = 0, hits = 0, moves = 0, rounds_beyond = 0;
    while (done < steps) {
        /* test_spin.c's scene: a 60 x 40 box, BARS bars hinged inside turning at up to 60 rad/s. */
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
            c2d_vec2 pos = bar_position(b->hinge, b->len, b->angle);
            ENSURE_OK(c2d_rect_new(pos.x, pos.y, b->len, b->thick, b->angle, &shapes[4 + k]));
        }
        /* The same shapes in a world (user value: the set's index) and in a static set, with the same
         * motions. */
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 4 + BARS, NULL, &set));
        c2d_world *world;
        ENSURE_OK(c2d_world_new(&world));
        c2d_world_id ids[4 + BARS];
        for (int k = 0; k < 4 + BARS; k++)
            ENSURE_OK(c2d_world_add(world, shapes[k], (uintptr_t)k, &ids[k]));
        for (int k = 0; k < BARS; k++) {
            c2d_motion m = tu_motion(0, 0, bars[k].w, -0.5 * bars[k].len, 0);
            ENSURE_OK(c2d_static_set_set_motion(set, 4 + k, &m));
            ENSURE_OK(c2d_world_set_motion(world, ids[4 + k], &m));
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
        c2d_shape *crate;
        double side = c2d_test_uniform(0.2, 2);
        ENSURE_OK(c2d_rect_new(0, 0, side, side, 0, &crate));
        c2d_move_options opt = c2d_move_options_default();
        opt.restitution = c2d_test_uniform(0.3, 1);
        c2d_move_options slide = c2d_move_options_default();
        slide.response = C2D_RESPONSE_SLIDE;
        for (int s = 0; s < 300 && done < steps; s++, done++) {
            c2d_ball wb = ball, start = ball;
            c2d_move_result wres, sres;
            c2d_contact_record wrec[300], srec[300];
            ENSURE_OK(c2d_world_step_ball_records(world, &wb, dt, NULL, NULL, NULL, &opt, &wres, wrec, 300));
            ENSURE_OK(c2d_static_set_step_ball_records(set, &ball, dt, &opt, &sres, srec, 300));
            hits += sres.count;
            ENSURE_MSG(same_result(&wres, &sres) && same_vec(wb.position, ball.position) &&
                           same_vec(wb.velocity, ball.velocity),
                       "step %ld: the world's ball at (%.17g, %.17g), %d contacts; the set's at (%.17g, %.17g), %d",
                       done, wb.position.x, wb.position.y, wres.count, ball.position.x, ball.position.y, sres.count);
            for (int k = 0; k < sres.count && k < 300; k++)
                ENSURE_MSG(same_record(&wrec[k], &srec[k]), "step %ld: contact %d differs", done, k);
            /* The ball's path may leave the box of where it started grown by its own motion (a bar threw
             * it): count how often, to be sure the scope's later rounds are exercised. */
            c2d_vec2 moved = tu_sub(ball.position, start.position);
            rounds_beyond += fmax(fabs(moved.x), fabs(moved.y)) > (fabs(start.velocity.x) + fabs(start.velocity.y)) * dt;
            /* Every tenth step, a move of a crate from the ball's place along its velocity, sliding. */
            if (s % 10 == 0) {
                ENSURE_OK(c2d_shape_set_position(crate, ball.position));
                c2d_vec2 d = tu_scale(ball.velocity, dt);
                ENSURE_OK(c2d_world_move_records(world, crate, d, NULL, NULL, NULL, &slide, &wres, wrec, 300));
                ENSURE_OK(c2d_static_set_move_records(set, crate, d, &slide, &sres, srec, 300));
                ENSURE_MSG(same_result(&wres, &sres), "step %ld: the moves differ", done);
                for (int k = 0; k < sres.count && k < 300; k++)
                    ENSURE_MSG(same_record(&wrec[k], &srec[k]), "step %ld: move contact %d differs", done, k);
                moves++;
            }
            for (int k = 0; k < BARS; k++) {
                bar *b = &bars[k];
                b->angle += b->w * dt;
                c2d_vec2 pos = bar_position(b->hinge, b->len, b->angle);
                ENSURE_OK(c2d_static_set_set_transform(set, 4 + k, pos, b->angle));
                ENSURE_OK(c2d_shape_set_transform(shapes[4 + k], pos, b->angle));
                ENSURE_OK(c2d_world_update(world, ids[4 + k]));
            }
        }
        c2d_shape_destroy(crate);
        c2d_shape_destroy(probe);
        c2d_world_destroy(world);
        c2d_static_set_destroy(set);
        for (int k = 0; k < 4 + BARS; k++)
            c2d_shape_destroy(shapes[k]);
    }
    printf("# %ld world ball steps and %ld moves among turning bars as the static set's, %ld contacts, %ld "
           "steps thrown beyond their own reach\n",
           done, moves, hits, rounds_beyond);
    ENSURE(hits > steps / 100);
}

TEST(world_motion_turning_chains_and_concave_polygons_match_the_static_set)
{
    /* A zigzag chain and an L-shaped concave polygon turning about points of their own inside a box,
     * re-placed after every step: world ball steps answer as the static set's, bit for bit. */
    c2d_vec2 zig[5] = {{-6, 0}, {-3, 2}, {0, 0}, {3, 2}, {6, 0}};
    c2d_vec2 ell[6] = {{0, 0}, {6, 0}, {6, 1.5}, {1.5, 1.5}, {1.5, 6}, {0, 6}};
    long steps = c2d_test_iterations(2000), done = 0, hits = 0;
    while (done < steps) {
        c2d_shape *shapes[6];
        ENSURE_OK(c2d_rect_new(20, -1, 42, 2, 0, &shapes[0]));
        ENSURE_OK(c2d_rect_new(20, 31, 42, 2, 0, &shapes[1]));
        ENSURE_OK(c2d_rect_new(-1, 15, 2, 32, 0, &shapes[2]));
        ENSURE_OK(c2d_rect_new(41, 15, 2, 32, 0, &shapes[3]));
        ENSURE_OK(c2d_chain_new(zig, 5, 0, &shapes[4]));
        ENSURE_OK(c2d_concave_new(ell, 6, NULL, NULL, 0, &shapes[5]));
        c2d_vec2 at[2] = {{11, 15}, {30, 15}};
        double angle[2], w[2];
        for (int k = 0; k < 2; k++) {
            angle[k] = c2d_test_uniform(-TU_PI, TU_PI);
            w[k] = c2d_test_uniform(-20, 20);
            ENSURE_OK(c2d_shape_set_transform(shapes[4 + k], at[k], angle[k]));
        }
        c2d_static_set *set;
        ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)shapes, 6, NULL, &set));
        c2d_world *world;
        ENSURE_OK(c2d_world_new(&world));
        c2d_world_id ids[6];
        for (int k = 0; k < 6; k++)
            ENSURE_OK(c2d_world_add(world, shapes[k], (uintptr_t)k, &ids[k]));
        for (int k = 0; k < 2; k++) {
            c2d_motion m = tu_motion(0, 0, w[k], 0, 0); /* about its position */
            ENSURE_OK(c2d_static_set_set_motion(set, 4 + k, &m));
            ENSURE_OK(c2d_world_set_motion(world, ids[4 + k], &m));
        }
        c2d_ball ball;
        ball.radius = c2d_test_uniform(0.2, 1);
        double by = c2d_test_uniform(2, 28);
        double bx = c2d_test_uniform(2, 38);
        ball.position = V(bx, by);
        double vy = c2d_test_uniform(-40, 40);
        double vx = c2d_test_uniform(-40, 40);
        ball.velocity = V(vx, vy);
        c2d_shape *probe;
        ENSURE_OK(c2d_circle_new(bx, by, ball.radius, &probe));
        c2d_vec2 push;
        ENSURE_OK(c2d_static_set_push_out(set, probe, &push));
        ball.position = tu_add(ball.position, push);
        for (int s = 0; s < 200 && done < steps; s++, done++) {
            c2d_ball wb = ball;
            c2d_move_result wres, sres;
            c2d_contact_record wrec[300], srec[300];
            ENSURE_OK(c2d_world_step_ball_records(world, &wb, 1.0 / 60, NULL, NULL, NULL, NULL, &wres, wrec, 300));
            ENSURE_OK(c2d_static_set_step_ball_records(set, &ball, 1.0 / 60, NULL, &sres, srec, 300));
            hits += sres.count;
            ENSURE_MSG(same_result(&wres, &sres) && same_vec(wb.position, ball.position) &&
                           same_vec(wb.velocity, ball.velocity),
                       "step %ld: the world's ball at (%.17g, %.17g), %d contacts; the set's at (%.17g, %.17g), %d",
                       done, wb.position.x, wb.position.y, wres.count, ball.position.x, ball.position.y, sres.count);
            for (int k = 0; k < sres.count && k < 300; k++)
                ENSURE_MSG(same_record(&wrec[k], &srec[k]), "step %ld: contact %d differs", done, k);
            for (int k = 0; k < 2; k++) {
                angle[k] += w[k] / 60;
                ENSURE_OK(c2d_static_set_set_transform(set, 4 + k, at[k], angle[k]));
                ENSURE_OK(c2d_shape_set_transform(shapes[4 + k], at[k], angle[k]));
                ENSURE_OK(c2d_world_update(world, ids[4 + k]));
            }
        }
        c2d_shape_destroy(probe);
        c2d_world_destroy(world);
        c2d_static_set_destroy(set);
        for (int k = 0; k < 6; k++)
            c2d_shape_destroy(shapes[k]);
    }
    printf("# %ld world ball steps among a turning chain and concave polygon as the static set's, %ld contacts\n",
           done, hits);
    ENSURE(hits > steps / 100);
}
