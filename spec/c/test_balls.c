/* test_balls.c - many balls stepped at once (c2d_static_set_step_balls): two balls head-on against the
 * exact answer, a fixed ball that reflects, momentum and energy kept by elastic bounces, one ball alone
 * as c2d_static_set_step_ball bit for bit, a resting column under gravity that neither jitters nor
 * creeps, piles dropped into a box that come to rest, a ball at rest on the level that the level's
 * friction stops, bad input refused with nothing changed, and random steps of 2 to 200 balls at up to
 * 50 radii a step in a box of tiles, checked by an oracle of their own: each ball's path rebuilt from
 * its contact records (straight between them), and every pair of paths and every path against the
 * box's walls measured exactly. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define MAXB 200

static c2d_vec2 V(double x, double y)
{
    return tu_v(x, y);
}

/* A box of unit tiles around [0, w] x [0, h]: every wall a row of tiles, so the balls roll over seams. */
static c2d_static_set *tile_box(int w, int h)
{
    c2d_shape *s[1024];
    int n = 0;
    for (int x = -1; x <= w; x++) {
        if (c2d_rect_new(x + 0.5, -0.5, 1, 1, 0, &s[n]) == C2D_OK)
            n++;
        if (c2d_rect_new(x + 0.5, h + 0.5, 1, 1, 0, &s[n]) == C2D_OK)
            n++;
    }
    for (int y = 0; y < h; y++) {
        if (c2d_rect_new(-0.5, y + 0.5, 1, 1, 0, &s[n]) == C2D_OK)
            n++;
        if (c2d_rect_new(w + 0.5, y + 0.5, 1, 1, 0, &s[n]) == C2D_OK)
            n++;
    }
    c2d_static_set *set = NULL;
    c2d_static_set_new((const c2d_shape *const *)s, n, NULL, &set);
    for (int i = 0; i < n; i++)
        c2d_shape_destroy(s[i]);
    return set;
}

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

static c2d_static_set *empty_set(void)
{
    c2d_static_set *set = NULL;
    c2d_static_set_new(NULL, 0, NULL, &set);
    return set;
}

/* Keeps every record of a step, however many (a dense step of 200 balls may have tens of thousands). */
typedef struct sink {
    c2d_contact_record *r;
    int n, cap;
} sink;

static c2d_status keep(void *ctx, const c2d_contact_record *r, int n)
{
    sink *s = (sink *)ctx;
    if (n > s->cap) {
        c2d_contact_record *grown = (c2d_contact_record *)realloc(s->r, (size_t)n * sizeof *grown);
        if (!grown)
            return C2D_ERR_NO_MEMORY;
        s->r = grown;
        s->cap = n;
    }
    if (n > 0)
        memcpy(s->r, r, (size_t)n * sizeof *r);
    s->n = n;
    return C2D_OK;
}

static c2d_status refuse(void *ctx, const c2d_contact_record *r, int n)
{
    (void)ctx;
    (void)r;
    (void)n;
    return C2D_ERR_CAPACITY;
}

TEST(balls_head_on_exchange)
{
    c2d_static_set *set = empty_set();
    ENSURE(set);
    c2d_ball b[2];
    b[0].position = V(0, 0);
    b[0].velocity = V(1, 0);
    b[0].radius = 1;
    b[1].position = V(10, 0);
    b[1].velocity = V(-1, 0);
    b[1].radius = 1;
    static sink s;
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_step_balls(set, b, NULL, 2, 10, NULL, NULL, &res, keep, &s));
    /* They meet at t = 4 at x = 4 and 6, swap velocities, and part: -2 and 12 at t = 10. */
    ENSURE_NEAR(b[0].position.x, -2, 1e-12);
    ENSURE_NEAR(b[1].position.x, 12, 1e-12);
    ENSURE(b[0].position.y == 0 && b[1].position.y == 0);
    ENSURE(b[0].velocity.x == -1 && b[1].velocity.x == 1);
    ENSURE(res.count == 2 && s.n == 2 && !res.truncated);
    ENSURE(s.r[0].id == 1 && s.r[0].contact.index == -2 && s.r[1].id == 2 && s.r[1].contact.index == -1);
    ENSURE_NEAR(s.r[0].contact.t, 0.4, 1e-15);
    ENSURE_NEAR(s.r[0].position.x, 4, 1e-12);
    ENSURE_NEAR(s.r[0].contact.point.x, 5, 1e-12);
    ENSURE(s.r[0].contact.normal.x == -1 && s.r[1].contact.normal.x == 1);
    ENSURE(s.r[0].velocity.x == -1 && s.r[1].velocity.x == 1);
    ENSURE_NEAR(res.travelled, 20, 1e-12);
    c2d_static_set_destroy(set);
}

TEST(balls_unequal_masses_head_on)
{
    c2d_static_set *set = empty_set();
    ENSURE(set);
    c2d_ball b[2];
    b[0].position = V(0, 0);
    b[0].velocity = V(3, 0);
    b[0].radius = 1;
    b[1].position = V(5, 0);
    b[1].velocity = V(0, 0);
    b[1].radius = 2;
    double m[2] = {1, 3};
    c2d_balls_options bo = c2d_balls_options_default();
    bo.restitution = 0.5;
    ENSURE_OK(c2d_static_set_step_balls(set, b, m, 2, 1, NULL, &bo, NULL, NULL, NULL));
    /* Contact at t = 2/3: v1' = (m1 v1 - e m2 v1) / (m1 + m2) = (3 - 4.5) / 4, v2' = (1 + e) m1 v1 / 4. */
    ENSURE_NEAR(b[0].velocity.x, -0.375, 1e-14);
    ENSURE_NEAR(b[1].velocity.x, 1.125, 1e-14);
    ENSURE_NEAR(b[0].position.x, 2 - 0.375 / 3, 1e-12);
    ENSURE_NEAR(b[1].position.x, 5 + 1.125 / 3, 1e-12);
    c2d_static_set_destroy(set);
}

TEST(balls_fixed_ball_reflects)
{
    c2d_static_set *set = empty_set();
    ENSURE(set);
    for (int k = 0; k < 2; k++) {
        c2d_ball b[2];
        b[0].position = V(0, 0);
        b[0].velocity = V(0, 0);
        b[0].radius = 1;
        /* Head-on, then at 60 degrees from the line of centres at contact. */
        b[1].position = k == 0 ? V(5, 0) : V(5, sqrt(3.0));
        b[1].velocity = V(-1, 0);
        b[1].radius = 1;
        double m[2] = {INFINITY, 1};
        ENSURE_OK(c2d_static_set_step_balls(set, b, m, 2, 5, NULL, NULL, NULL, NULL, NULL));
        ENSURE(b[0].position.x == 0 && b[0].position.y == 0 && b[0].velocity.x == 0 && b[0].velocity.y == 0);
        if (k == 0) {
            ENSURE(b[1].velocity.x == 1 && b[1].velocity.y == 0);
            ENSURE_NEAR(b[1].position.x, 4, 1e-12);
        } else {
            /* Contact normal (1/2, sqrt3/2): the velocity (-1, 0) reflects to (-1, 0) - 2 (-1/2) n. */
            ENSURE_NEAR(b[1].velocity.x, -0.5, 1e-12);
            ENSURE_NEAR(b[1].velocity.y, sqrt(3.0) / 2, 1e-12);
            ENSURE_NEAR(tu_len(b[1].velocity), 1, 1e-12);
        }
    }
    c2d_static_set_destroy(set);
}

TEST(balls_one_ball_is_step_ball)
{
    c2d_static_set *set = tile_box(20, 20);
    ENSURE(set);
    for (long it = 0; it < c2d_test_iterations(2000); it++) {
        c2d_ball a;
        double x = c2d_test_uniform(1, 19);
        double y = c2d_test_uniform(1, 19);
        double vx = c2d_test_uniform(-60, 60);
        double vy = c2d_test_uniform(-60, 60);
        double r = c2d_test_uniform(0.1, 1);
        a.position = V(x, y);
        a.velocity = V(vx, vy);
        a.radius = r;
        c2d_ball b = a;
        c2d_move_result ra, rb;
        ENSURE_OK(c2d_static_set_step_ball(set, &a, 1, NULL, &ra, NULL, 0));
        ENSURE_OK(c2d_static_set_step_balls(set, &b, NULL, 1, 1, NULL, NULL, &rb, NULL, NULL));
        ENSURE_MSG(memcmp(&a, &b, sizeof a) == 0, "iteration %ld: one ball differs from step_ball", it);
        ENSURE(ra.count == rb.count && ra.travelled == rb.travelled);
    }
    c2d_static_set_destroy(set);
}

/* No balls may be given as NULL (the header refuses NULL only with n > 0): the call steps nothing and
 * writes its result. Found by fuzz op set_balls under UBSan: the balls were copied back with
 * memcpy(NULL, out, 0), undefined behaviour whatever the size (the sanitised suite, test_c_asan, sees
 * it). */
TEST(balls_none_given_as_null_steps_nothing)
{
    c2d_static_set *set = tile_box(4, 4);
    ENSURE(set);
    c2d_move_result res;
    memset(&res, 0xA5, sizeof res);
    ENSURE_OK(c2d_static_set_step_balls(set, NULL, NULL, 0, 1, NULL, NULL, &res, NULL, NULL));
    ENSURE(res.count == 0 && res.truncated == 0 && res.travelled == 0);
    ENSURE_OK(c2d_static_set_step_balls(set, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL));
    c2d_static_set_destroy(set);
}

/* Found by fuzz op set_balls (fuzz/corpus/crash-balls-pushed-out-of-a-box-onto-each-other): two balls
 * at rest inside a box, clear of each other (0.265 apart), are each pushed out of it first, as
 * c2d_static_set_step_ball pushes a ball out, onto the box's left side at y 0 and 0.125, where they
 * overlapped by 0.125 and, not approaching each other, stayed so. Now pushed apart there, along the
 * wall, each by half (equal masses), to touching; the records say so. */
TEST(balls_pushed_out_onto_one_place_end_apart)
{
    c2d_shape *box;
    ENSURE_OK(c2d_rect_new(0, 0, 40, 40, 0, &box));
    c2d_static_set *set;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&box, 1, NULL, &set));
    c2d_shape_destroy(box);
    c2d_ball b[2];
    b[0].position = V(-19.5, 0);
    b[1].position = V(-19, 0.125);
    b[0].velocity = b[1].velocity = V(0, 0);
    b[0].radius = b[1].radius = 0.125;
    ENSURE(tu_len(tu_sub(b[1].position, b[0].position)) > 0.25);
    static sink s;
    c2d_move_result res;
    ENSURE_OK(c2d_static_set_step_balls(set, b, NULL, 2, 1, NULL, NULL, &res, keep, &s));
    double d = tu_len(tu_sub(b[1].position, b[0].position));
    c2d_static_set_destroy(set);
    ENSURE_MSG(d >= 0.25 - 1e-12 && d <= 0.25 + 1e-9, "balls at (%.17g, %.17g) and (%.17g, %.17g): %.3g apart",
               b[0].position.x, b[0].position.y, b[1].position.x, b[1].position.y, d - 0.25);
    /* Along the wall: by half each, from y 0 and 0.125 to -0.0625 and 0.1875. */
    ENSURE(near(b[0].position.x, -20.125, 1e-12) && near(b[1].position.x, -20.125, 1e-12));
    ENSURE(near(b[0].position.y, -0.0625, 1e-9) && near(b[1].position.y, 0.1875, 1e-9));
    ENSURE(b[0].velocity.x == 0 && b[0].velocity.y == 0 && b[1].velocity.x == 0 && b[1].velocity.y == 0);
    /* Each ball's push-out of the box, then the pair pushed apart: all at t 0, marked pushed out. */
    ENSURE(res.count == 4 && s.n == 4);
    int level = 0, apart = 0;
    for (int q = 0; q < s.n; q++) {
        ENSURE(s.r[q].contact.t == 0 && s.r[q].contact.pushed_out);
        if (s.r[q].contact.index == 0)
            level++;
        else if (s.r[q].contact.index == -1 - (int)(2 - s.r[q].id))
            apart++;
        if (s.r[q].contact.index < 0)
            ENSURE(q >= 2); /* after both push-outs of the box */
    }
    ENSURE(level == 2 && apart == 2);
}

/* Two balls placed on one spot (empty level) are pushed apart along x, by their inverse masses, to
 * touching; their velocities are theirs. A fixed ball stays, the other is pushed off it. Balls that
 * only a push beyond the coordinate range would part stay. */
TEST(balls_placed_on_one_spot_are_pushed_apart_by_their_masses)
{
    c2d_static_set *set = empty_set();
    ENSURE(set);
    c2d_ball b[2];
    b[0].position = b[1].position = V(3, 4);
    b[0].velocity = V(0.5, 0);
    b[1].velocity = V(0, -0.25);
    b[0].radius = 1;
    b[1].radius = 3;
    double m[2] = {3, 1};
    ENSURE_OK(c2d_static_set_step_balls(set, b, m, 2, 0, NULL, NULL, NULL, NULL, NULL));
    /* 4 deep: the heavy ball moves a quarter of it, the light one three quarters. */
    ENSURE(near(b[0].position.x, 2, 1e-9) && b[0].position.y == 4);
    ENSURE(near(b[1].position.x, 6, 1e-9) && b[1].position.y == 4);
    ENSURE(b[0].velocity.x == 0.5 && b[0].velocity.y == 0 && b[1].velocity.x == 0 && b[1].velocity.y == -0.25);
    ENSURE(tu_len(tu_sub(b[1].position, b[0].position)) >= 4);
    b[0].position = V(3, 4);
    b[1].position = V(3.5, 4);
    b[0].velocity = b[1].velocity = V(0, 0);
    m[0] = INFINITY;
    ENSURE_OK(c2d_static_set_step_balls(set, b, m, 2, 1, NULL, NULL, NULL, NULL, NULL));
    ENSURE(b[0].position.x == 3 && b[0].position.y == 4);
    ENSURE(near(b[1].position.x, 7, 1e-9) && b[1].position.y == 4);
    /* Found by the fuzzer (fuzz/corpus/crash-balls-pushed-apart-beyond-the-coordinate-range): two balls
     * of radius 1e15 on one spot at the coordinate limit could be parted only beyond it, and the step
     * answered C2D_ERR_RANGE for valid balls. They stay as they are. */
    b[0].position = b[1].position = V(1e15, 1e15);
    b[0].velocity = b[1].velocity = V(0, 0);
    b[0].radius = b[1].radius = 1e15;
    ENSURE_OK(c2d_static_set_step_balls(set, b, NULL, 2, 1, NULL, NULL, NULL, NULL, NULL));
    ENSURE(b[0].position.x == 1e15 && b[1].position.x == 1e15);
    c2d_static_set_destroy(set);
}

/* Balls placed at random in a box of tiles, anywhere: overlapping each other, inside its walls, some
 * fixed, half with a rest speed. After one step, no two of them overlap (but two fixed balls) and none
 * is in a wall: the step pushes them out of the level and apart first, marks that with push-out records
 * at t 0, and steps on from there (a ball in a wall may leave the box the nearest way out, as one ball
 * would).
 * The balls cover at most a fifth of the box, so there is always room. */
TEST(balls_placed_anywhere_end_apart_and_out_of_the_walls)
{
    int w = 12;
    c2d_static_set *set = tile_box(w, w);
    ENSURE(set);
    static sink s;
    long scenes = 0, pushed_apart = 0;
    for (long scene = 0; scene < c2d_test_iterations(300); scene++) {
        c2d_ball b[40];
        double m[40];
        int n = 2 + (int)(c2d_test_rand() % 39);
        double area = 0, cover = c2d_test_uniform(0.02, 0.2) * w * w;
        int k = 0;
        while (k < n) {
            double r = c2d_test_uniform(0.1, 0.6);
            if (area + TU_PI * r * r > cover && k >= 2)
                break;
            area += TU_PI * r * r;
            double x = c2d_test_uniform(-0.5, w + 0.5);
            double y = c2d_test_uniform(-0.5, w + 0.5);
            double ang = c2d_test_uniform(0, 2 * TU_PI);
            double sp = c2d_test_uniform(0, 5 * r);
            b[k].position = V(x, y);
            b[k].velocity = V(sp * cos(ang), sp * sin(ang));
            b[k].radius = r;
            m[k] = c2d_test_uniform(0.2, 5);
            /* A fixed ball well inside the box, still: one in a corner could wall a ball in. */
            if (c2d_test_uniform(0, 1) < 0.1 && x > 3 && x < w - 3 && y > 3 && y < w - 3) {
                m[k] = INFINITY;
                b[k].velocity = V(0, 0);
            }
            k++;
        }
        n = k;
        c2d_ball before[40];
        memcpy(before, b, sizeof before);
        double dt = c2d_test_rand() % 4 == 0 ? 0 : c2d_test_uniform(0, 0.5);
        c2d_balls_options bo = c2d_balls_options_default();
        if (scene % 2) /* half with a rest speed, whose solve runs after the balls are pushed apart */
            bo.rest_speed = 0.5;
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_balls(set, b, m, n, dt, NULL, &bo, &res, keep, &s));
        scenes++;
        for (int q = 0; q < s.n; q++)
            if (s.r[q].contact.index < 0 && s.r[q].contact.pushed_out) {
                ENSURE(s.r[q].contact.t == 0);
                pushed_apart++;
            }
        for (int i = 0; i < n; i++) {
            c2d_vec2 p = b[i].position, out;
            c2d_shape *ball;
            ENSURE_OK(c2d_circle_new(p.x, p.y, b[i].radius, &ball));
            ENSURE_OK(c2d_static_set_push_out(set, ball, &out));
            c2d_shape_destroy(ball);
            ENSURE_MSG(tu_len(out) <= 1e-9, "scene %ld: ball %d of %d %.3g deep in a wall at (%.17g, %.17g) r %g",
                       scene, i, n, tu_len(out), p.x, p.y, b[i].radius);
            if (m[i] == INFINITY)
                ENSURE(p.x == before[i].position.x && p.y == before[i].position.y);
            for (int j = i + 1; j < n; j++) {
                if (m[i] == INFINITY && m[j] == INFINITY)
                    continue;
                double R = b[i].radius + b[j].radius, d = tu_len(tu_sub(b[j].position, p));
                ENSURE_MSG(d >= R - 1e-9, "scene %ld (dt %g): balls %d and %d of %d end %.3g deep", scene, dt, i, j,
                           n, R - d);
            }
        }
    }
    printf("balls_placed_anywhere: %ld scenes, %ld records of balls pushed apart\n", scenes, pushed_apart / 2);
    ENSURE(pushed_apart > 0);
    c2d_static_set_destroy(set);
}

/* Found by the fixed-seed fuzz run (fuzz/corpus/crash-balls-mass-with-no-finite-inverse): a ball of
 * mass 5e-324 has no finite inverse mass, and the step answered C2D_ERR_NOT_FINITE for valid balls.
 * Masses as far apart as doubles go: a ball 5e-324 heavy bounces off one of mass 1 as off a wall, so
 * does one of 1e-300 off one of 1e300 (which it moves by less than 1e-290: 2e-600 exactly), and two
 * balls of ordinary masses meet bit for bit as they would with no such ball in the step. */
TEST(balls_masses_from_the_least_double_to_the_greatest)
{
    c2d_static_set *set = empty_set();
    ENSURE(set);
    c2d_ball b[4];
    double m[4] = {5e-324, 1, 0.5, 2};
    b[0].position = V(0, 0);
    b[0].velocity = V(1, 0);
    b[1].position = V(3, 0);
    b[1].velocity = V(-1, 0);
    b[2].position = V(0, 100);
    b[2].velocity = V(1, 0);
    b[3].position = V(3, 100);
    b[3].velocity = V(-1, 0);
    for (int i = 0; i < 4; i++)
        b[i].radius = 0.5;
    c2d_ball alone[2] = {b[2], b[3]};
    ENSURE_OK(c2d_static_set_step_balls(set, b, m, 4, 2, NULL, NULL, NULL, NULL, NULL));
    ENSURE_OK(c2d_static_set_step_balls(set, alone, m + 2, 2, 2, NULL, NULL, NULL, NULL, NULL));
    /* The light ball back at 3 (its speed reversed at t 1, at x 1), the other on at -1 as if alone. */
    ENSURE(b[0].velocity.x == -3 && b[0].velocity.y == 0 && near(b[0].position.x, -2, 1e-12));
    ENSURE(b[1].velocity.x == -1 && near(b[1].position.x, 1, 1e-12));
    ENSURE(memcmp(&b[2], &alone[0], sizeof alone) == 0);
    /* A mass of 1e300 against 1e-300: the light one bounces off it. */
    m[0] = 1e-300;
    m[1] = 1e300;
    b[0].position = V(0, 0);
    b[0].velocity = V(1, 0);
    b[1].position = V(3, 0);
    b[1].velocity = V(0, 0);
    ENSURE_OK(c2d_static_set_step_balls(set, b, m, 2, 4, NULL, NULL, NULL, NULL, NULL));
    ENSURE(near(b[0].velocity.x, -1, 1e-15) && fabs(b[1].velocity.x) < 1e-290 && near(b[0].position.x, 0, 1e-12));
    c2d_static_set_destroy(set);
}

TEST(balls_bad_input_changes_nothing)
{
    c2d_static_set *set = tile_box(10, 10);
    ENSURE(set);
    c2d_ball b[3], keep_b[3];
    for (int i = 0; i < 3; i++) {
        b[i].position = V(2 + 3 * i, 5);
        b[i].velocity = V(1, 2);
        b[i].radius = 1;
    }
    memcpy(keep_b, b, sizeof b);
    double m[3] = {1, 2, 3};
    c2d_move_result res;
    ENSURE(c2d_static_set_step_balls(set, b, NULL, -1, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_step_balls(NULL, b, NULL, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_step_balls(set, NULL, NULL, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_NULL);
    ENSURE(c2d_static_set_step_balls(set, b, NULL, 3, -1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_RANGE);
    ENSURE(c2d_static_set_step_balls(set, b, NULL, 3, NAN, NULL, NULL, &res, NULL, NULL) == C2D_ERR_NOT_FINITE);
    m[1] = -2;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_RANGE);
    m[1] = 0;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_RANGE);
    m[1] = NAN;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_NOT_FINITE);
    m[1] = 2;
    c2d_balls_options bo = c2d_balls_options_default();
    bo.restitution = 1.5;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, &bo, &res, NULL, NULL) == C2D_ERR_RANGE);
    bo.restitution = NAN;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, &bo, &res, NULL, NULL) == C2D_ERR_NOT_FINITE);
    bo = c2d_balls_options_default();
    bo.rest_speed = -1;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, &bo, &res, NULL, NULL) == C2D_ERR_RANGE);
    c2d_move_options o = c2d_move_options_default();
    o.restitution = 2;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, &o, NULL, &res, NULL, NULL) == C2D_ERR_RANGE);
    b[2].radius = 0;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_SIZE);
    b[2].radius = -1;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_SIZE);
    b[2].radius = 1;
    b[1].position.x = NAN;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_NOT_FINITE);
    b[1].position.x = 5;
    b[0].velocity.y = INFINITY;
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, NULL, NULL) == C2D_ERR_NOT_FINITE);
    b[0].velocity.y = 2;
    ENSURE(memcmp(b, keep_b, sizeof b) == 0);
    /* A report that refuses: its status, and the balls as they were. */
    b[0].velocity = V(3, 0);
    b[1].velocity = V(-3, 0);
    memcpy(keep_b, b, sizeof b);
    ENSURE(c2d_static_set_step_balls(set, b, m, 3, 1, NULL, NULL, &res, refuse, NULL) == C2D_ERR_CAPACITY);
    ENSURE(memcmp(b, keep_b, sizeof b) == 0);
    ENSURE_OK(c2d_static_set_step_balls(set, b, m, 0, 1, NULL, NULL, &res, NULL, NULL));
    ENSURE(res.count == 0 && memcmp(b, keep_b, sizeof b) == 0);
    c2d_static_set_destroy(set);
}

/* Elastic bounces in open space keep momentum and energy; each pair's contact leaves them touching. */
TEST(balls_elastic_keeps_momentum_and_energy)
{
    c2d_static_set *set = empty_set();
    ENSURE(set);
    for (long it = 0; it < c2d_test_iterations(300); it++) {
        c2d_ball b[40];
        double m[40];
        int n = 2 + (int)(c2d_test_rand() % 39);
        for (int i = 0; i < n; i++) {
            double r = c2d_test_uniform(0.2, 1);
            int placed = 0;
            for (int tries = 0; tries < 100 && !placed; tries++) {
                double x = c2d_test_uniform(0, 20);
                double y = c2d_test_uniform(0, 20);
                placed = 1;
                for (int k = 0; k < i && placed; k++)
                    placed = tu_len(tu_sub(V(x, y), b[k].position)) > r + b[k].radius;
                b[i].position = V(x, y);
            }
            double vx = c2d_test_uniform(-10, 10);
            double vy = c2d_test_uniform(-10, 10);
            b[i].velocity = V(vx, vy);
            b[i].radius = r;
            m[i] = c2d_test_uniform(0.1, 10);
            if (!placed)
                b[i].position = V(100 + 10 * i, 100);
        }
        c2d_vec2 p0 = V(0, 0);
        double e0 = 0;
        for (int i = 0; i < n; i++) {
            p0 = tu_add(p0, tu_scale(b[i].velocity, m[i]));
            e0 += 0.5 * m[i] * tu_dot(b[i].velocity, b[i].velocity);
        }
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_balls(set, b, m, n, 1, NULL, NULL, &res, NULL, NULL));
        ENSURE(!res.truncated);
        c2d_vec2 p1 = V(0, 0);
        double e1 = 0;
        for (int i = 0; i < n; i++) {
            p1 = tu_add(p1, tu_scale(b[i].velocity, m[i]));
            e1 += 0.5 * m[i] * tu_dot(b[i].velocity, b[i].velocity);
        }
        double ps = 0;
        for (int i = 0; i < n; i++)
            ps += m[i] * tu_len(b[i].velocity);
        ENSURE_MSG(tu_len(tu_sub(p1, p0)) <= 1e-9 * ps, "iteration %ld: momentum %g -> %g", it, tu_len(p0), tu_len(p1));
        ENSURE_MSG(fabs(e1 - e0) <= 1e-9 * e0, "iteration %ld: energy %.17g -> %.17g", it, e0, e1);
    }
    c2d_static_set_destroy(set);
}

/* ---- the oracle: paths rebuilt from the records ---- */

typedef struct opath {
    int n, cap;
    double *t;
    c2d_vec2 *p;
} opath;

/* Room for n knots in a. */
static int opath_room(opath *a, int n)
{
    if (n <= a->cap)
        return 1;
    double *t = (double *)realloc(a->t, (size_t)n * sizeof *t);
    if (!t)
        return 0;
    a->t = t;
    c2d_vec2 *p = (c2d_vec2 *)realloc(a->p, (size_t)n * sizeof *p);
    if (!p)
        return 0;
    a->p = p;
    a->cap = n;
    return 1;
}

static c2d_vec2 opath_at(const opath *a, double t)
{
    int k = 0;
    while (k + 2 < a->n && a->t[k + 1] <= t)
        k++;
    if (!(a->t[k + 1] > a->t[k]) || t >= a->t[k + 1])
        return a->p[k + 1];
    if (t <= a->t[k])
        return a->p[k];
    double u = (t - a->t[k]) / (a->t[k + 1] - a->t[k]);
    return V(a->p[k].x + (a->p[k + 1].x - a->p[k].x) * u, a->p[k].y + (a->p[k + 1].y - a->p[k].y) * u);
}

/* The least distance between the centres over the step, piece by piece (each a quadratic's minimum). */
static double least_distance(const opath *a, const opath *b, double dt, double *when)
{
    double best = INFINITY, s = 0;
    while (1) {
        double next = dt;
        for (int k = 0; k < a->n; k++)
            if (a->t[k] > s && a->t[k] < next)
                next = a->t[k];
        for (int k = 0; k < b->n; k++)
            if (b->t[k] > s && b->t[k] < next)
                next = b->t[k];
        c2d_vec2 d0 = tu_sub(opath_at(b, s), opath_at(a, s)), d1 = tu_sub(opath_at(b, next), opath_at(a, next));
        c2d_vec2 w = tu_sub(d1, d0);
        double u = tu_dot(w, w) > 0 ? -tu_dot(d0, w) / tu_dot(w, w) : 0;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        double l = tu_len(tu_add(d0, tu_scale(w, u)));
        if (l < best) {
            best = l;
            *when = s + u * (next - s);
        }
        if (next >= dt)
            break;
        s = next;
    }
    return best;
}

/* n random balls in the box of w x w tiles, none overlapping another or a wall. */
static int random_balls(c2d_ball *b, double *m, int n, int w, double speed_radii)
{
    int placed_n = 0;
    for (int i = 0; i < n; i++) {
        double r = c2d_test_uniform(0.05, 0.6);
        int placed = 0;
        c2d_vec2 p = V(0, 0);
        for (int tries = 0; tries < 50 && !placed; tries++) {
            double x = c2d_test_uniform(r, w - r);
            double y = c2d_test_uniform(r, w - r);
            p = V(x, y);
            placed = 1;
            for (int k = 0; k < placed_n && placed; k++)
                placed = tu_len(tu_sub(p, b[k].position)) > r + b[k].radius + 1e-9;
        }
        if (!placed)
            continue;
        double ang = c2d_test_uniform(0, 2 * TU_PI);
        double sp = c2d_test_uniform(0, speed_radii * r);
        b[placed_n].position = p;
        b[placed_n].velocity = V(sp * cos(ang), sp * sin(ang));
        b[placed_n].radius = r;
        double u = c2d_test_uniform(0, 1);
        m[placed_n] = u < 0.05 ? INFINITY : c2d_test_uniform(0.2, 5);
        if (m[placed_n] == INFINITY) /* a bumper: a fixed ball that moves could crush one against a wall */
            b[placed_n].velocity = V(0, 0);
        placed_n++;
    }
    return placed_n;
}

TEST(balls_random_steps_never_pass_or_overlap)
{
    int w = 24;
    c2d_static_set *set = tile_box(w, w);
    ENSURE(set);
    static sink s;
    static opath path[MAXB]; /* grown as needed, kept for the next steps */
    static int count[MAXB];
    long steps = 0, contacts = 0, truncated = 0;
    for (long scene = 0; scene < c2d_test_iterations(30); scene++) {
        c2d_ball b[MAXB];
        double m[MAXB];
        int want = 2 + (int)(c2d_test_rand() % (scene % 4 == 0 ? MAXB - 1 : 30));
        int n = random_balls(b, m, want, w, 50);
        c2d_balls_options bo = c2d_balls_options_default();
        bo.restitution = c2d_test_uniform(0, 1);
        c2d_move_options o = c2d_move_options_default();
        o.restitution = c2d_test_uniform(0.5, 1);
        for (int step = 0; step < 8; step++) {
            for (int i = 0; i < n; i++)
                if (m[i] == INFINITY)
                    b[i].velocity = V(0, 0);
            c2d_ball before[MAXB];
            memcpy(before, b, sizeof b);
            c2d_move_result res;
            c2d_status st = c2d_static_set_step_balls(set, b, m, n, 1, &o, &bo, &res, keep, &s);
            ENSURE_MSG(st == C2D_OK, "scene %ld step %d: status %d", scene, step, (int)st);
            steps++;
            contacts += res.count;
            truncated += res.truncated;
            /* Each ball's path: its start, its records in order, its end (straight between them). */
            for (int i = 0; i < n; i++)
                count[i] = 0;
            for (int q = 0; q < s.n; q++) {
                int i = (int)s.r[q].id - 1;
                ENSURE(i >= 0 && i < n);
                count[i]++;
            }
            for (int i = 0; i < n; i++) {
                ENSURE(opath_room(&path[i], count[i] + 2));
                path[i].n = 1;
                path[i].t[0] = 0;
                path[i].p[0] = before[i].position;
            }
            for (int q = 0; q < s.n; q++) {
                int i = (int)s.r[q].id - 1;
                ENSURE(i >= 0 && i < n);
                ENSURE(q == 0 || s.r[q].contact.t >= s.r[q - 1].contact.t);
                path[i].t[path[i].n] = s.r[q].contact.t;
                path[i].p[path[i].n] = s.r[q].position;
                path[i].n++;
            }
            for (int i = 0; i < n; i++) {
                path[i].t[path[i].n] = 1;
                path[i].p[path[i].n] = b[i].position;
                path[i].n++;
                /* Inside the box (convex: the knots tell), within the touching tolerance. */
                for (int k = 0; k < path[i].n; k++) {
                    c2d_vec2 p = path[i].p[k];
                    double r = b[i].radius, tol = 1e-9;
                    ENSURE_MSG(p.x >= r - tol && p.x <= w - r + tol && p.y >= r - tol && p.y <= w - r + tol,
                               "scene %ld step %d: ball %d of %d left the box at (%.17g, %.17g) r %g", scene, step,
                               i, n, p.x, p.y, r);
                }
            }
            /* (A step cut short stops every ball at one moment, which the records do not say: then
             * only where they end is checked.) */
            for (int i = 0; i < n; i++)
                    for (int j = i + 1; j < n; j++) {
                        if (m[i] == INFINITY && m[j] == INFINITY)
                            continue;
                        double R = b[i].radius + b[j].radius, when = 0;
                        double d = res.truncated ? INFINITY : least_distance(&path[i], &path[j], 1, &when);
                        ENSURE_MSG(d >= R - 1e-9, "scene %ld step %d: balls %d and %d (of %d) %.3g deep at t %.17g",
                                   scene, step, i, j, n, R - d, when);
                        double dend = tu_len(tu_sub(b[j].position, b[i].position));
                        ENSURE_MSG(dend >= R - 1e-9, "scene %ld step %d: balls %d and %d overlap at the end", scene,
                                   step, i, j);
                    }
        }
    }
    printf("balls_random_steps: %ld steps, %ld contacts, %ld truncated\n", steps, contacts, truncated);
    c2d_static_set_destroy(set);
}

/* A column of balls on a tiled floor under gravity, stepped for many frames: each frame adds g dt to
 * the fall and the step must take it all back, so that the column stays put (no jitter, no creep). */
TEST(balls_resting_column_settles)
{
    c2d_static_set *set = tile_box(10, 40);
    ENSURE(set);
    int n = 8;
    c2d_ball b[8];
    for (int i = 0; i < n; i++) {
        b[i].position = V(4.5, 1 + 2 * i);
        b[i].velocity = V(0, 0);
        b[i].radius = 1;
    }
    double g = 10, dt = 1.0 / 60;
    c2d_balls_options bo = c2d_balls_options_default();
    bo.restitution = 0.5;
    bo.rest_speed = 2 * g * dt;
    c2d_move_options o = c2d_move_options_default();
    o.restitution = 0.5;
    double drift = 0, gap_min = INFINITY;
    int truncated = 0;
    for (int frame = 0; frame < 600; frame++) {
        for (int i = 0; i < n; i++)
            b[i].velocity.y -= g * dt;
        c2d_move_result res;
        ENSURE_OK(c2d_static_set_step_balls(set, b, NULL, n, dt, &o, &bo, &res, NULL, NULL));
        truncated += res.truncated;
        for (int i = 0; i < n; i++)
            drift = fmax(drift, tu_len(tu_sub(b[i].position, V(4.5, 1 + 2 * i))));
        for (int i = 0; i + 1 < n; i++)
            gap_min = fmin(gap_min, tu_len(tu_sub(b[i + 1].position, b[i].position)) - 2);
    }
    ENSURE_MSG(truncated == 0, "%d truncated steps", truncated);
    ENSURE_MSG(drift <= 1e-9, "the column moved by %g", drift);
    ENSURE_MSG(gap_min >= -1e-9, "balls sank %g into each other", -gap_min);
    for (int i = 0; i < n; i++)
        ENSURE_MSG(fabs(b[i].velocity.y) <= g * dt, "ball %d still moves at %g", i, b[i].velocity.y);
    c2d_static_set_destroy(set);
}

/* A ball that goes on from a contact with another ball meets a moving member where the member has got
 * to by then, not where it stood when the step began. */
TEST(balls_moving_member_after_a_ball_contact)
{
    c2d_shape *wall = NULL;
    ENSURE_OK(c2d_rect_new(10, 0, 2, 10, 0, &wall));
    c2d_static_set *set = NULL;
    ENSURE_OK(c2d_static_set_new((const c2d_shape *const *)&wall, 1, NULL, &set));
    c2d_shape_destroy(wall);
    ENSURE_OK(c2d_static_set_set_velocity(set, 0, V(-4, 0))); /* its left face at x = 9 - 4 t */
    c2d_ball b[2];
    b[0].position = V(0, 0);
    b[0].velocity = V(2, 0);
    b[0].radius = 1;
    b[1].position = V(3, 0);
    b[1].velocity = V(0, 0);
    b[1].radius = 1;
    static sink s;
    ENSURE_OK(c2d_static_set_step_balls(set, b, NULL, 2, 1.2, NULL, NULL, NULL, keep, &s));
    /* t = 0.5: the balls meet (x = 1 and 3), the second goes on at 2; t = 1: it meets the wall's face at
     * x = 5, which hands it -2 - 2 * 4 = -10; t = 1.1: it meets the first ball (x = 1 and 3) and stops;
     * t = 1.2: the first ball is at 0. */
    ENSURE(s.n == 5);
    ENSURE(s.r[2].id == 2 && s.r[2].contact.index == 0);
    ENSURE_NEAR(s.r[2].contact.t * 1.2, 1, 1e-12);
    ENSURE_NEAR(s.r[2].position.x, 4, 1e-12);
    ENSURE_NEAR(b[0].position.x, 0, 1e-12);
    ENSURE_NEAR(b[0].velocity.x, -10, 1e-12);
    ENSURE_NEAR(b[1].position.x, 3, 1e-12);
    ENSURE_NEAR(b[1].velocity.x, 0, 1e-12);
    c2d_static_set_destroy(set);
}

/* ---- piles: balls dropped into a box of tiles under gravity ---- */

/* What became of a pile. */
typedef struct pile_outcome {
    long frames;       /* stepped in all */
    long rest_from;    /* the first frame of the quiet run that ended the test, or -1 */
    long contacts;     /* ball-ball contact records in all (a pair's two counted once) */
    long cut;          /* steps cut short */
    double sunk;       /* the deepest a ball ever was in another or a wall (or below the floor) */
    double height;     /* the highest centre at the end */
    double moved, speed; /* at rest, the most a ball moved in a frame and the fastest it went */
} pile_outcome;

static c2d_status count_ball_contacts(void *ctx, const c2d_contact_record *r, int n)
{
    long *count = (long *)ctx;
    for (int i = 0; i < n; i++)
        *count += r[i].contact.index < 0 && r[i].contact.index < -1 - (int)(r[i].id - 1); /* once a pair */
    return C2D_OK;
}

/* Steps the pile b[0 .. n) (masses m, or NULL for all 1; a fixed ball is not pulled down) in a box w
 * wide under gravity g = 10 at 1/60 s, restitution 0.3 for the balls and the walls, rest_speed 2 g dt
 * and at most 200 ball contacts a step, until it has been at rest for quiet frames in a row or
 * max_frames have passed. At rest: no step cut short, every ball slower than would move it 1e-9 in a
 * frame, and every ball where the frame before left it and where the quiet frames began, within 1e-9
 * (neither jitter nor creep). */
static void run_pile(c2d_ball *b, const double *m, int n, int w, double friction, long quiet, long max_frames,
                     pile_outcome *out)
{
    c2d_static_set *set = tile_box(w, 30);
    memset(out, 0, sizeof *out);
    out->rest_from = -1;
    if (!set)
        return;
    double g = 10, dt = 1.0 / 60, still = 1e-9;
    c2d_balls_options bo = c2d_balls_options_default();
    bo.restitution = 0.3;
    bo.rest_speed = 2 * g * dt;
    bo.max_events = 200;
    c2d_move_options o = c2d_move_options_default();
    o.restitution = 0.3;
    o.friction = friction;
    c2d_ball before[MAXB], settled[MAXB];
    long quiet_from = 0;
    memcpy(settled, b, (size_t)n * sizeof *b);
    for (long frame = 0; frame < max_frames && (out->rest_from < 0); frame++) {
        for (int i = 0; i < n; i++)
            if (!m || m[i] < INFINITY)
                b[i].velocity.y -= g * dt;
        memcpy(before, b, (size_t)n * sizeof *b);
        c2d_move_result res;
        c2d_status st = c2d_static_set_step_balls(set, b, m, n, dt, &o, &bo, &res, count_ball_contacts, &out->contacts);
        out->frames++;
        if (st != C2D_OK) {
            out->sunk = INFINITY;
            break;
        }
        out->cut += res.truncated;
        double moved = 0, speed = 0, drift = 0;
        for (int i = 0; i < n; i++) {
            const c2d_ball *p = &b[i];
            out->sunk = fmax(out->sunk, p->radius - p->position.x);
            out->sunk = fmax(out->sunk, p->radius - p->position.y);
            out->sunk = fmax(out->sunk, p->position.x + p->radius - w);
            for (int k = i + 1; k < n; k++)
                out->sunk = fmax(out->sunk, p->radius + b[k].radius - tu_len(tu_sub(b[k].position, p->position)));
            moved = fmax(moved, tu_len(tu_sub(p->position, before[i].position)));
            speed = fmax(speed, tu_len(p->velocity));
            drift = fmax(drift, tu_len(tu_sub(p->position, settled[i].position)));
        }
        if (res.truncated || speed * dt > still || moved > still || drift > still) {
            quiet_from = frame + 1;
            out->moved = out->speed = 0;
            memcpy(settled, b, (size_t)n * sizeof *b);
        } else {
            out->moved = fmax(out->moved, moved);
            out->speed = fmax(out->speed, speed);
            if (frame + 1 - quiet_from >= quiet)
                out->rest_from = quiet_from;
        }
    }
    for (int i = 0; i < n; i++)
        out->height = fmax(out->height, b[i].position.y);
    c2d_static_set_destroy(set);
}

/* n balls of radius 0.3 to 0.6 at rest, placed apart in [0, w] x [0, top]. */
static void drop_balls(c2d_ball *b, int n, int w, double top)
{
    int placed = 0;
    while (placed < n) {
        double r = c2d_test_uniform(0.3, 0.6);
        double x = c2d_test_uniform(r, w - r);
        double y = c2d_test_uniform(r, top - r);
        int clear = 1;
        for (int k = 0; k < placed && clear; k++)
            clear = tu_len(tu_sub(V(x, y), b[k].position)) > r + b[k].radius;
        if (!clear)
            continue;
        b[placed].position = V(x, y);
        b[placed].velocity = V(0, 0);
        b[placed].radius = r;
        placed++;
    }
}

/* A wide pile: 40 balls of mixed sizes dropped from up to 29 high into a box 8 wide fall, bounce and
 * roll for a few seconds and then come to rest: a second (60 frames) with no step cut short, no ball
 * moving by more than 1e-9 a frame (no jitter) and, all along, none sunk into another or a wall by more
 * than 1e-9. (Each frame the pile's resting contacts are solved together and exactly before the step,
 * each pair kept at a rest gap a little under the touching tolerance; see balls_resting_column_settles
 * for a column.) Not scaled with C2D_TEST_SCALE: the pile needs its seconds to fall and settle (the
 * platform suites run the tests at a fraction of their iterations). */
TEST(balls_pile_comes_to_rest)
{
    c2d_ball b[40];
    int n = 40, w = 8;
    drop_balls(b, n, w, 29);
    pile_outcome po;
    run_pile(b, NULL, n, w, 0, 60, 900, &po);
    printf("balls_pile: at rest from frame %ld of %ld (then moving at most %.2g a frame, %.2g fast), %.1f ball "
           "contact records a frame, %ld steps cut short\n",
           po.rest_from, po.frames, po.moved, po.speed, (double)po.contacts / (double)po.frames, po.cut);
    ENSURE_MSG(po.sunk <= 1e-9, "a ball sank %g into another or a wall", po.sunk);
    ENSURE_MSG(po.rest_from >= 0, "the pile did not come to rest in %ld frames", po.frames);
    ENSURE_MSG(po.height < 12, "the pile did not fall: its top ball is at %g", po.height);
}

/* Random piles of 12 to 30 balls in boxes 5 to 10 wide, of mass 1, of masses 0.2 to 5, and of masses
 * 0.2 to 5 around a fixed ball (mass INFINITY) in the air, come to rest as the wide pile does, on a
 * level with friction 0.5. (Between balls there is none: without the level's, a ball that a slow
 * contact left sliding along the floor at a millimetre a second would slide on for ever, as it should.) */
TEST(balls_random_piles_come_to_rest)
{
    for (long pile = 0; pile < 6; pile++) {
        c2d_ball b[40];
        double m[40];
        int n = 12 + (int)(c2d_test_rand() % 19);
        int w = 5 + (int)(c2d_test_rand() % 6);
        int kind = (int)(pile % 3);
        if (n > 3 * w)
            n = 3 * w; /* room for them below 12 */
        drop_balls(b, n, w, 12);
        for (int i = 0; i < n; i++)
            m[i] = kind == 0 ? 1 : c2d_test_uniform(0.2, 5);
        if (kind == 2)
            m[0] = INFINITY;
        pile_outcome po;
        run_pile(b, kind == 0 ? NULL : m, n, w, 0.5, 60, 900, &po);
        printf("balls_random_piles: %d balls %d wide, masses %s: at rest from frame %ld (then moving at most %.2g "
               "a frame), %.1f ball contact records a frame, %ld steps cut short\n",
               n, w, kind == 0 ? "1" : kind == 1 ? "0.2-5" : "0.2-5 and a fixed ball", po.rest_from, po.moved,
               (double)po.contacts / (double)po.frames, po.cut);
        ENSURE_MSG(po.sunk <= 1e-9, "pile %ld: a ball sank %g into another or a wall", pile, po.sunk);
        ENSURE_MSG(po.rest_from >= 0, "pile %ld (%d balls, %d wide): not at rest in %ld frames", pile, n, w,
                   po.frames);
    }
}

/* At rest on the level, a ball feels the level's friction as it does in c2d_static_set_step_ball's
 * bounces (before the step its resting contact is solved, with friction times that impulse taken from
 * its speed along the floor): sliding at 1 under gravity 10 with friction 0.3, it slows by 0.3 g dt
 * each frame and stops after a third of a second, without leaving the floor; without friction it
 * slides on. */
TEST(balls_level_friction_stops_a_resting_ball)
{
    c2d_static_set *set = tile_box(40, 10);
    ENSURE(set);
    double g = 10, dt = 1.0 / 60;
    c2d_balls_options bo = c2d_balls_options_default();
    bo.rest_speed = 2 * g * dt;
    for (int rough = 0; rough < 2; rough++) {
        c2d_move_options o = c2d_move_options_default();
        o.restitution = 0.3;
        o.friction = rough ? 0.3 : 0;
        c2d_ball b[1];
        b[0].position = V(2, 0.5);
        b[0].velocity = V(1, 0);
        b[0].radius = 0.5;
        for (int frame = 1; frame <= 30; frame++) {
            b[0].velocity.y -= g * dt;
            ENSURE_OK(c2d_static_set_step_balls(set, b, NULL, 1, dt, &o, &bo, NULL, NULL, NULL));
            double want = rough ? fmax(1 - frame * 0.3 * g * dt, 0) : 1;
            ENSURE_MSG(fabs(b[0].velocity.x - want) <= 1e-12, "friction %g, frame %d: speed %.17g, not %.17g",
                       o.friction, frame, b[0].velocity.x, want);
            ENSURE_MSG(fabs(b[0].velocity.y) <= 1e-12 && fabs(b[0].position.y - 0.5) <= 1e-12,
                       "friction %g, frame %d: the ball left the floor: y %.17g, speed %.17g", o.friction, frame,
                       b[0].position.y, b[0].velocity.y);
        }
    }
    c2d_static_set_destroy(set);
}
