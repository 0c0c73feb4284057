/* test_world_move.c - moves and ball steps through a world (c2d_world_move, c2d_world_step_ball): the
 * same motions as through a static set of the same shapes, seams between tiles found through the
 * world too, the mover's own entry skipped, filters and response callbacks honoured, bad input
 * rejected with nothing changed. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define GRID_MAX 320

typedef struct grid {
    int n;
    c2d_shape *shapes[GRID_MAX];
    c2d_world_id ids[GRID_MAX];
    c2d_world *world;
    c2d_static_set *set;
} grid;

static c2d_status grid_add(grid *g, c2d_shape *s)
{
    g->shapes[g->n] = s;
    c2d_status st = c2d_world_add(g->world, s, (uintptr_t)g->n, &g->ids[g->n]);
    g->n++;
    return st;
}

/* Window walls and a 20x10 brick grid with every seventh brick turned, in a world and a set. */
static c2d_status brick_grid(grid *g)
{
    memset(g, 0, sizeof *g);
    c2d_status st = c2d_world_new(&g->world);
    c2d_shape *s;
    const double wall[4][4] = {{320, -5, 660, 10}, {320, 485, 660, 10}, {-5, 240, 10, 480}, {645, 240, 10, 480}};
    for (int i = 0; st == C2D_OK && i < 4; i++)
        if ((st = c2d_rect_new(wall[i][0], wall[i][1], wall[i][2], wall[i][3], 0, &s)) == C2D_OK)
            st = grid_add(g, s);
    for (int row = 0; st == C2D_OK && row < 10; row++)
        for (int col = 0; st == C2D_OK && col < 20; col++) {
            double angle = (row * 20 + col) % 7 == 3 ? 0.3 : 0.0;
            if ((st = c2d_rect_new(40 + col * 28, 60 + row * 14, 28, 14, angle, &s)) == C2D_OK)
                st = grid_add(g, s);
        }
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)g->shapes, g->n, NULL, &g->set);
    return st;
}

static void grid_free(grid *g)
{
    c2d_world_destroy(g->world);
    c2d_static_set_destroy(g->set);
    for (int i = 0; i < g->n; i++)
        c2d_shape_destroy(g->shapes[i]);
    memset(g, 0, sizeof *g);
}

static double clearance(const grid *g, c2d_vec2 p, double r)
{
    c2d_shape *ball;
    double best = INFINITY;
    if (c2d_circle_new(p.x, p.y, r, &ball) != C2D_OK)
        return -INFINITY;
    for (int i = 0; i < g->n; i++) {
        c2d_distance_result d;
        c2d_distance(ball, g->shapes[i], &d);
        best = fmin(best, d.distance);
    }
    c2d_shape_destroy(ball);
    return best;
}

TEST(world_ball_steps_follow_the_static_set_and_never_tunnel)
{
    grid g;
    ENSURE_OK(brick_grid(&g));
    long balls = c2d_test_iterations(400), differ = 0, steps_total = 0, contacts_total = 0;
    for (long k = 0; k < balls; k++) {
        double r = c2d_test_uniform(2, 6);
        double speed = r * c2d_test_uniform(0.01, 50), a = c2d_test_uniform(0, 2 * TU_PI);
        double px = c2d_test_uniform(r + 1, 639 - r), py = c2d_test_uniform(250, 450);
        c2d_ball bw = {{px, py}, {speed * cos(a), speed * sin(a)}, r};
        c2d_ball bs = bw;
        for (int step = 0; step < 30; step++) {
            c2d_world_contact wc[16];
            c2d_sweep_contact sc[16];
            c2d_move_result rw, rs;
            ENSURE_OK(c2d_world_step_ball(g.world, &bw, 1.0, NULL, NULL, NULL, NULL, &rw, wc, 16));
            ENSURE_OK(c2d_static_set_step_ball(g.set, &bs, 1.0, NULL, &rs, sc, 16));
            steps_total++;
            contacts_total += rw.count;
            /* The world builds its set from the entries within reach only, so rounding-level tolerances
             * may differ; the paths must agree to far below anything visible. */
            double scale = 1 + fabs(bs.position.x) + fabs(bs.position.y);
            if (fabs(bw.position.x - bs.position.x) > 1e-9 * scale ||
                fabs(bw.position.y - bs.position.y) > 1e-9 * scale || rw.count != rs.count) {
                differ++;
                bw = bs; /* carry on from the same state */
            } else {
                for (int i = 0; i < rw.count && i < 16; i++)
                    ENSURE_MSG(wc[i].user == (uintptr_t)sc[i].index && wc[i].id == g.ids[sc[i].index],
                               "contact %d names entry %lu, the set's index %d", i, (unsigned long)wc[i].user,
                               sc[i].index);
            }
            double c = clearance(&g, bw.position, r);
            ENSURE_MSG(c >= -1e-9, "ball %ld step %d: %.3g inside a shape at (%.17g, %.17g)", k, step, -c,
                       bw.position.x, bw.position.y);
        }
    }
    printf("# world balls: %ld steps, %ld contacts, %ld steps differing from the set\n", steps_total,
           contacts_total, differ);
    ENSURE_MSG(contacts_total > steps_total / 10, "only %ld contacts: the scene was not exercised", contacts_total);
    ENSURE_MSG(differ * 1000 <= steps_total, "%ld of %ld steps differ from the static set", differ, steps_total);
    grid_free(&g);
}

TEST(world_box_slides_along_100_tiles_without_stopping_at_a_seam)
{
    c2d_world *w;
    c2d_shape *tiles[100], *box;
    ENSURE_OK(c2d_world_new(&w));
    for (int i = 0; i < 100; i++) {
        c2d_world_id id;
        ENSURE_OK(c2d_rect_new(0.5 + i, -0.5, 1, 1, 0, &tiles[i]));
        ENSURE_OK(c2d_world_add(w, tiles[i], (uintptr_t)i, &id));
    }
    /* A box resting on the floor, pressed down while it slides right over all the joints. */
    ENSURE_OK(c2d_rect_new(0.5, 0.25, 0.5, 0.5, 0, &box));
    c2d_vec2 pos = tu_v(0.5, 0.25);
    for (int step = 0; step < 95; step++) {
        c2d_move_result res;
        ENSURE_OK(c2d_world_move(w, box, tu_v(1.0, -0.25), NULL, NULL, NULL, NULL, &res, NULL, 0));
        ENSURE_MSG(fabs(res.displacement.x - 1.0) <= 1e-9 && fabs(res.displacement.y) <= 1e-9,
                   "step %d: moved (%.17g, %.17g) instead of sliding 1 along", step, res.displacement.x,
                   res.displacement.y);
        pos = tu_add(pos, res.displacement);
        ENSURE_OK(c2d_shape_set_position(box, pos));
    }
    c2d_shape_destroy(box);
    c2d_world_destroy(w);
    for (int i = 0; i < 100; i++)
        c2d_shape_destroy(tiles[i]);
}

static c2d_response cross_odd_ignore_three(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)id;
    int *calls = (int *)ctx;
    (*calls)++;
    if (user == 3)
        return C2D_RESPONSE_NONE;
    return user % 2 ? C2D_RESPONSE_CROSS : C2D_RESPONSE_TOUCH;
}

TEST(world_move_skips_the_mover_and_honours_filters_and_responses)
{
    c2d_world *w;
    c2d_shape *walls[5], *mover;
    c2d_world_id ids[5], self;
    ENSURE_OK(c2d_world_new(&w));
    /* Thin walls across the path at x = 2, 4, 6, 8, 10, user values 0 .. 4. */
    for (int i = 0; i < 5; i++) {
        ENSURE_OK(c2d_rect_new(2.0 + 2 * i, 0, 0.2, 4, 0, &walls[i]));
        ENSURE_OK(c2d_world_add(w, walls[i], (uintptr_t)i, &ids[i]));
    }
    ENSURE_OK(c2d_circle_new(0, 0, 0.5, &mover));
    ENSURE_OK(c2d_world_add(w, mover, 99, &self)); /* in its own world: must not hit itself */

    c2d_move_result res;
    c2d_world_contact c[8];
    /* Default slide: stops at the first wall (head-on, nothing to slide along). */
    ENSURE_OK(c2d_world_move(w, mover, tu_v(12, 0), NULL, NULL, NULL, NULL, &res, c, 8));
    ENSURE_NEAR(res.displacement.x, 2.0 - 0.1 - 0.5, 1e-9);
    ENSURE(res.count == 1 && c[0].id == ids[0] && c[0].user == 0);

    /* Skip wall 0 with the filter bits; respond crosses odd walls, ignores wall 3 and touches the rest:
     * the crossing of wall 1 is reported before the touch of wall 2, where the mover stops. */
    ENSURE_OK(c2d_world_set_bits(w, ids[0], 2, C2D_WORLD_ALL_BITS));
    c2d_world_filter f = {1, C2D_WORLD_ALL_BITS & ~2u, NULL, NULL}; /* sees no entry of category 2 */
    int calls = 0;
    ENSURE_OK(c2d_world_move(w, mover, tu_v(12, 0), &f, cross_odd_ignore_three, &calls, NULL, &res, c, 8));
    ENSURE(calls >= 4); /* walls 1 .. 4 (and the mover's own entry, which is then skipped) */
    ENSURE_MSG(res.count == 2, "%d contacts", res.count);
    ENSURE(c[0].user == 1 && c[0].contact.response == C2D_RESPONSE_CROSS);
    ENSURE(c[1].user == 2 && c[1].contact.response == C2D_RESPONSE_TOUCH);
    ENSURE_NEAR(res.displacement.x, 6.0 - 0.1 - 0.5, 1e-9);

    /* A ball through the world with everything crossed: it reaches the end, reporting every wall in
     * order. (The mover's entry goes first: a ball has no shape to be skipped as itself.) */
    ENSURE_OK(c2d_world_remove(w, self));
    c2d_move_options o = c2d_move_options_default();
    o.response = C2D_RESPONSE_CROSS;
    c2d_ball b = {{0, 0}, {12, 0}, 0.5};
    ENSURE_OK(c2d_world_step_ball(w, &b, 1.0, NULL, NULL, NULL, &o, &res, c, 8));
    ENSURE_NEAR(b.position.x, 12.0, 1e-9);
    ENSURE_MSG(res.count == 5, "%d contacts", res.count);
    for (int i = 0; i < 5; i++)
        ENSURE(c[i].user == (uintptr_t)i && c[i].id == ids[i] && c[i].contact.response == C2D_RESPONSE_CROSS);
    c2d_shape_destroy(mover);
    c2d_world_destroy(w);
    for (int i = 0; i < 5; i++)
        c2d_shape_destroy(walls[i]);
}

typedef struct remover {
    c2d_world *w;
    c2d_world_id victim;
} remover;

static c2d_response remove_then_touch(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)id;
    (void)user;
    remover *r = (remover *)ctx;
    if (r->victim) {
        c2d_world_remove(r->w, r->victim);
        r->victim = 0;
    }
    return C2D_RESPONSE_TOUCH;
}

TEST(world_move_respond_callback_may_remove_entries)
{
    c2d_world *w;
    c2d_shape *a, *b, *mover;
    c2d_world_id ia, ib;
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_rect_new(2, 0, 0.2, 4, 0, &a));
    ENSURE_OK(c2d_rect_new(4, 0, 0.2, 4, 0, &b));
    ENSURE_OK(c2d_world_add(w, a, 0, &ia));
    ENSURE_OK(c2d_world_add(w, b, 1, &ib));
    ENSURE_OK(c2d_circle_new(0, 0, 0.5, &mover));
    remover r = {w, ia};
    c2d_move_result res;
    c2d_world_contact c[4];
    ENSURE_OK(c2d_world_move(w, mover, tu_v(6, 0), NULL, remove_then_touch, &r, NULL, &res, c, 4));
    /* Wall a was removed during the callbacks: the mover stops at b. */
    ENSURE_NEAR(res.displacement.x, 4.0 - 0.1 - 0.5, 1e-9);
    ENSURE(res.count == 1 && c[0].id == ib);
    int count = -1;
    ENSURE_OK(c2d_world_count(w, &count));
    ENSURE(count == 1);
    c2d_shape_destroy(mover);
    c2d_world_destroy(w);
    c2d_shape_destroy(a);
    c2d_shape_destroy(b);
}

/* Counts respond calls per entry (user values 0 and 1) and answers slide. */
static c2d_response count_and_slide(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)id;
    ((int *)ctx)[user < 2 ? user : 0]++;
    return C2D_RESPONSE_SLIDE;
}

TEST(world_push_out_looks_beyond_the_motion_for_what_blocks_the_exit)
{
    /* A unit circle starts deep in a block (nearest way out: up by 1.2), barely moving. Above the block
     * a bar (y in [2, 3]) leaves a gap of 1.8, too narrow for it: the exit up is blocked by an entry
     * that lies outside the reach of the motion itself. The mover must end in neither, and respond is
     * asked once per entry. */
    c2d_world *w;
    c2d_shape *block, *bar, *mover;
    c2d_world_id ids[2];
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_rect_new(0, -0.65, 2.4, 1.7, 0, &block)); /* x in [-1.2, 1.2], y in [-1.5, 0.2] */
    ENSURE_OK(c2d_rect_new(0, 2.5, 2, 1, 0, &bar));          /* x in [-1, 1], y in [2, 3] */
    ENSURE_OK(c2d_world_add(w, block, 0, &ids[0]));
    ENSURE_OK(c2d_world_add(w, bar, 1, &ids[1]));
    ENSURE_OK(c2d_circle_new(0, 0, 1, &mover));
    for (int ball = 0; ball < 2; ball++) {
        int asked[2] = {0, 0};
        c2d_move_result res;
        c2d_world_contact c[4];
        c2d_vec2 end;
        if (ball) {
            c2d_ball b = {tu_v(0, 0), tu_v(0, 0.01), 1};
            ENSURE_OK(c2d_world_step_ball(w, &b, 1, NULL, count_and_slide, asked, NULL, &res, c, 4));
            end = b.position;
        } else {
            ENSURE_OK(c2d_world_move(w, mover, tu_v(0, 0.01), NULL, count_and_slide, asked, NULL, &res, c, 4));
            end = res.displacement;
        }
        ENSURE_MSG(res.count >= 1 && c[0].contact.pushed_out, "%d contacts", res.count);
        c2d_shape *at;
        ENSURE_OK(c2d_circle_new(end.x, end.y, 1, &at));
        c2d_distance_result d;
        ENSURE_OK(c2d_distance(at, block, &d));
        ENSURE_MSG(d.distance > -1e-9, "ends %g inside the block at (%g, %g)", d.distance, end.x, end.y);
        ENSURE_OK(c2d_distance(at, bar, &d));
        ENSURE_MSG(d.distance > -1e-9, "ends %g inside the bar at (%g, %g)", d.distance, end.x, end.y);
        ENSURE_MSG(asked[0] == 1 && asked[1] <= 1, "respond asked %d and %d times", asked[0], asked[1]);
        c2d_shape_destroy(at);
    }
    c2d_shape_destroy(mover);
    c2d_world_destroy(w);
    c2d_shape_destroy(block);
    c2d_shape_destroy(bar);
}

static c2d_response bad_response(void *ctx, c2d_world_id id, uintptr_t user)
{
    (void)ctx;
    (void)id;
    (void)user;
    return (c2d_response)42;
}

TEST(world_move_rejects_bad_input_and_changes_nothing)
{
    c2d_world *w;
    c2d_shape *wall, *mover;
    c2d_world_id id;
    ENSURE_OK(c2d_world_new(&w));
    ENSURE_OK(c2d_rect_new(2, 0, 0.2, 4, 0, &wall));
    ENSURE_OK(c2d_world_add(w, wall, 0, &id));
    ENSURE_OK(c2d_circle_new(0, 0, 0.5, &mover));
    c2d_move_result res, before;
    memset(&res, 0x5a, sizeof res);
    before = res;
    c2d_world_contact c[2];
    c2d_vec2 d = tu_v(3, 0);
    ENSURE(c2d_world_move(NULL, mover, d, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NULL);
    ENSURE(c2d_world_move(w, NULL, d, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NULL);
    ENSURE(c2d_world_move(w, mover, d, NULL, NULL, NULL, NULL, NULL, c, 2) == C2D_ERR_NULL);
    ENSURE(c2d_world_move(w, mover, d, NULL, NULL, NULL, NULL, &res, NULL, 2) == C2D_ERR_NULL);
    ENSURE(c2d_world_move(w, mover, d, NULL, NULL, NULL, NULL, &res, c, -1) == C2D_ERR_RANGE);
    ENSURE(c2d_world_move(w, mover, tu_v(NAN, 0), NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_move(w, mover, tu_v(0, INFINITY), NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_move(w, mover, tu_v(1e300, 0), NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_RANGE);
    c2d_response per_shape[1] = {C2D_RESPONSE_TOUCH};
    c2d_move_options o = c2d_move_options_default();
    o.responses = per_shape;
    ENSURE(c2d_world_move(w, mover, d, NULL, NULL, NULL, &o, &res, c, 2) == C2D_ERR_RANGE);
    o = c2d_move_options_default();
    o.restitution = 2;
    ENSURE(c2d_world_move(w, mover, d, NULL, NULL, NULL, &o, &res, c, 2) == C2D_ERR_RANGE);
    o.restitution = NAN;
    ENSURE(c2d_world_move(w, mover, d, NULL, NULL, NULL, &o, &res, c, 2) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_move(w, mover, d, NULL, bad_response, NULL, NULL, &res, c, 2) == C2D_ERR_RANGE);
    ENSURE(memcmp(&res, &before, sizeof res) == 0);

    c2d_ball b = {{0, 0}, {3, 0}, 0.5}, b0 = b;
    ENSURE(c2d_world_step_ball(NULL, &b, 1, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NULL);
    ENSURE(c2d_world_step_ball(w, NULL, 1, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NULL);
    ENSURE(c2d_world_step_ball(w, &b, -1, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_RANGE);
    ENSURE(c2d_world_step_ball(w, &b, NAN, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NOT_FINITE);
    ENSURE(c2d_world_step_ball(w, &b, 1, NULL, bad_response, NULL, NULL, &res, c, 2) == C2D_ERR_RANGE);
    b.radius = 0;
    ENSURE(c2d_world_step_ball(w, &b, 1, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_SIZE);
    b.radius = 0.5;
    b.velocity.x = NAN;
    ENSURE(c2d_world_step_ball(w, &b, 1, NULL, NULL, NULL, NULL, &res, c, 2) == C2D_ERR_NOT_FINITE);
    b.velocity.x = 3;
    ENSURE(memcmp(&b, &b0, sizeof b) == 0 && memcmp(&res, &before, sizeof res) == 0);
    /* The world is unchanged by all of it. */
    int count = -1;
    ENSURE_OK(c2d_world_count(w, &count));
    ENSURE(count == 1);
    c2d_shape_destroy(mover);
    c2d_world_destroy(w);
    c2d_shape_destroy(wall);
}

TEST(world_turning_moves_follow_the_static_set_and_never_end_inside)
{
    /* Boxes and polygons moving up to 60 and turning up to a turn and a half about a pivot near their
     * centre, among the brick grid: c2d_world_move_turning answers as c2d_static_set_move_turning of
     * the same shapes (its contacts naming the same shapes), and the mover ends inside none of them. */
    grid g;
    ENSURE_OK(brick_grid(&g));
    long runs = c2d_test_iterations(300), differ = 0, contacts_total = 0;
    for (long k = 0; k < runs && !c2d_test_failed(); k++) {
        double px = c2d_test_uniform(40, 600);
        double py = c2d_test_uniform(40, 230);
        double w = c2d_test_uniform(4, 20);
        double h = c2d_test_uniform(4, 20);
        double a0 = c2d_test_uniform(-TU_PI, TU_PI);
        c2d_shape *m;
        ENSURE_OK(c2d_rect_new(px, py, w, h, a0, &m));
        double dx = c2d_test_uniform(-60, 60);
        double dy = c2d_test_uniform(-60, 60);
        double turn = c2d_test_uniform(-3 * TU_PI, 3 * TU_PI);
        double pvx = c2d_test_uniform(-5, 5);
        double pvy = c2d_test_uniform(-5, 5);
        c2d_motion mo = tu_motion(dx, dy, turn, pvx, pvy);
        c2d_world_contact wc[16];
        c2d_sweep_contact sc[16];
        c2d_move_result rw, rs;
        double tw, ts;
        ENSURE_OK(c2d_world_move_turning(g.world, m, &mo, NULL, NULL, NULL, NULL, &rw, &tw, wc, 16));
        ENSURE_OK(c2d_static_set_move_turning(g.set, m, &mo, NULL, &rs, &ts, sc, 16));
        contacts_total += rw.count;
        double scale = 1 + fabs(px) + fabs(py);
        if (fabs(rw.displacement.x - rs.displacement.x) > 1e-9 * scale ||
            fabs(rw.displacement.y - rs.displacement.y) > 1e-9 * scale || fabs(tw - ts) > 1e-9 || rw.count != rs.count) {
            differ++;
        } else {
            for (int i = 0; i < rw.count && i < 16; i++)
                ENSURE_MSG(wc[i].user == (uintptr_t)sc[i].index && wc[i].id == g.ids[sc[i].index],
                           "contact %d names entry %lu, the set's index %d", i, (unsigned long)wc[i].user, sc[i].index);
        }
        /* Where the world's move ends, the mover is inside no brick or wall (it starts clear or is
         * pushed out first). */
        ENSURE_OK(c2d_shape_set_transform(m, tu_v(px + rw.displacement.x, py + rw.displacement.y), a0 + tw));
        for (int i = 0; i < g.n; i++) {
            c2d_distance_result d;
            ENSURE_OK(c2d_distance(m, g.shapes[i], &d));
            ENSURE_MSG(d.distance >= -1e-9 * scale, "run %ld: ends %.3g inside shape %d", k, -d.distance, i);
        }
        c2d_shape_destroy(m);
    }
    printf("# world turning moves: %ld runs, %ld contacts, %ld differing from the set\n", runs, contacts_total, differ);
    ENSURE_MSG(contacts_total > runs / 2, "only %ld contacts: the scene was not exercised", contacts_total);
    ENSURE_MSG(differ * 100 <= runs, "%ld of %ld moves differ from the static set", differ, runs);
    /* Bad input changes nothing. */
    c2d_move_result before, res;
    memset(&res, 0x5a, sizeof res);
    before = res;
    double turned = 7;
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(320, 300, 10, 10, 0, &box));
    c2d_motion bad = tu_motion(1, 0, NAN, 0, 0);
    ENSURE(c2d_world_move_turning(g.world, box, NULL, NULL, NULL, NULL, NULL, &res, &turned, NULL, 0) == C2D_ERR_NULL);
    ENSURE(c2d_world_move_turning(g.world, box, &bad, NULL, NULL, NULL, NULL, &res, &turned, NULL, 0) ==
           C2D_ERR_NOT_FINITE);
    bad = tu_motion(1, 0, 1, 3 * C2D_MAX_COORDINATE, 0);
    ENSURE(c2d_world_move_turning(g.world, box, &bad, NULL, NULL, NULL, NULL, &res, &turned, NULL, 0) == C2D_ERR_RANGE);
    ENSURE(memcmp(&res, &before, sizeof res) == 0 && turned == 7);
    c2d_shape_destroy(box);
    grid_free(&g);
}
