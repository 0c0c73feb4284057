/* bench_sweep.c - swept-collision benchmark (issue 4): the time per call of
 *   - one ball step among 400 bricks (a 20x20 grid inside window walls, the ball bouncing around at
 *     2 to 4 radii per step, so most steps hit something), with c2d_static_set_step_ball;
 *   - one bump.lua-style slide move of a box among 400 tiles of a tile map (walls, floors and
 *     platforms), with c2d_static_set_move;
 * and, as the baseline a grid is there to beat, the same ball step done by sweeping every brick in
 * turn with c2d_sweep (what code without a static set does). Median ns per call over repetitions.
 * The Lua figures are measured by the Lua binding's own benchmark.
 *
 * Usage: bench_sweep [--reps N] */
#include "bench.h"
#include "collide2d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRICKS 400
#define WALLS 4

typedef struct ball_ctx {
    c2d_static_set *set;
    c2d_shape *shapes[BRICKS + WALLS];
    int count;
    c2d_ball ball;
    long steps;
} ball_ctx;

static c2d_vec2 V(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

static int add_rect(c2d_shape **shapes, int *count, double l, double t, double r, double b)
{
    return c2d_rect_new(0.5 * (l + r), 0.5 * (t + b), r - l, b - t, 0, &shapes[(*count)++]) == C2D_OK;
}

/* 20x20 bricks of 30x12 with gaps of 2 in an 800x600 window with walls. */
static int ball_scene(ball_ctx *c)
{
    c->count = 0;
    int ok = add_rect(c->shapes, &c->count, -10, -10, 810, 0) && add_rect(c->shapes, &c->count, -10, 600, 810, 610) &&
             add_rect(c->shapes, &c->count, -10, 0, 0, 600) && add_rect(c->shapes, &c->count, 800, 0, 810, 600);
    for (int row = 0; row < 20 && ok; row++)
        for (int col = 0; col < 20 && ok; col++) {
            double l = 80 + 32 * col, t = 60 + 14 * row;
            ok = add_rect(c->shapes, &c->count, l, t, l + 30, t + 12);
        }
    if (!ok || c2d_static_set_new((const c2d_shape *const *)c->shapes, c->count, NULL, &c->set) != C2D_OK)
        return 0;
    c->ball.position = V(400, 500);
    c->ball.velocity = V(9.1, -13.7);
    c->ball.radius = 5;
    return 1;
}

static long ball_pass(void *ctx)
{
    ball_ctx *c = (ball_ctx *)ctx;
    long contacts = 0;
    for (int k = 0; k < 1000; k++) {
        c2d_move_result res;
        c2d_static_set_step_ball(c->set, &c->ball, 1.0, NULL, &res, NULL, 0);
        contacts += res.count;
    }
    c->steps += 1000;
    return contacts;
}

/* The same step without a set: sweep the ball against every brick, take the first hit, reflect, and
 * go on, as hand-written code does. */
static long ball_brute_pass(void *ctx)
{
    ball_ctx *c = (ball_ctx *)ctx;
    long contacts = 0;
    c2d_shape *probe;
    if (c2d_circle_new(c->ball.position.x, c->ball.position.y, c->ball.radius, &probe) != C2D_OK)
        return 0;
    for (int k = 0; k < 1000; k++) {
        double remaining = 1.0;
        for (int legs = 0; legs < 16 && remaining > 0; legs++) {
            c2d_vec2 d = V(c->ball.velocity.x * remaining, c->ball.velocity.y * remaining);
            c2d_shape_set_position(probe, c->ball.position);
            double best = 2;
            c2d_vec2 n = V(0, 0);
            for (int i = 0; i < c->count; i++) {
                c2d_toi toi;
                c2d_sweep(probe, d, c->shapes[i], V(0, 0), &toi);
                if (toi.state == C2D_TOI_HIT && toi.t < best) {
                    best = toi.t;
                    n = toi.normal;
                }
            }
            if (best > 1) {
                c->ball.position = V(c->ball.position.x + d.x, c->ball.position.y + d.y);
                break;
            }
            c->ball.position = V(c->ball.position.x + best * d.x, c->ball.position.y + best * d.y);
            double vn = c->ball.velocity.x * n.x + c->ball.velocity.y * n.y;
            c->ball.velocity = V(c->ball.velocity.x - 2 * vn * n.x, c->ball.velocity.y - 2 * vn * n.y);
            remaining *= 1 - best;
            contacts++;
        }
    }
    c2d_shape_destroy(probe);
    return contacts;
}

typedef struct slide_ctx {
    c2d_static_set *set;
    c2d_shape *tiles[BRICKS];
    c2d_shape *player;
    unsigned long rng;
} slide_ctx;

static double next_uniform(unsigned long *s, double lo, double hi)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return lo + (hi - lo) * (double)(*s >> 11) / 9007199254740992.0;
}

/* A 50x30 tile map with 400 unit tiles: the border (156 tiles), and 244 more in platforms of 4 to 8
 * tiles; the player, a 0.8 box, runs about with moves of up to half a tile. */
static int slide_scene(slide_ctx *c)
{
    int n = 0, ok = 1;
    unsigned char map[30][50];
    memset(map, 0, sizeof map);
    for (int x = 0; x < 50; x++)
        map[0][x] = map[29][x] = 1;
    for (int y = 0; y < 30; y++)
        map[y][0] = map[y][49] = 1;
    int solid = 2 * 50 + 2 * 28;
    unsigned long s = 12345;
    while (solid < BRICKS) {
        int y = 2 + (int)next_uniform(&s, 0, 26), x = 2 + (int)next_uniform(&s, 0, 40);
        int len = 4 + (int)next_uniform(&s, 0, 5);
        for (int k = 0; k < len && solid < BRICKS; k++)
            if (!map[y][x + k]) {
                map[y][x + k] = 1;
                solid++;
            }
    }
    for (int y = 0; y < 30 && ok; y++)
        for (int x = 0; x < 50 && ok; x++)
            if (map[y][x])
                ok = c2d_rect_new(x + 0.5, y + 0.5, 1, 1, 0, &c->tiles[n++]) == C2D_OK;
    if (!ok || n != BRICKS || c2d_static_set_new((const c2d_shape *const *)c->tiles, n, NULL, &c->set) != C2D_OK)
        return 0;
    c->rng = 99;
    return c2d_rect_new(1.5, 1.5, 0.8, 0.8, 0, &c->player) == C2D_OK;
}

static long slide_pass(void *ctx)
{
    slide_ctx *c = (slide_ctx *)ctx;
    long contacts = 0;
    for (int k = 0; k < 1000; k++) {
        c2d_vec2 d = V(next_uniform(&c->rng, -0.5, 0.5), next_uniform(&c->rng, -0.5, 0.5));
        c2d_move_result res;
        c2d_sweep_contact cs[8];
        c2d_static_set_move(c->set, c->player, d, NULL, &res, cs, 8);
        c2d_shape_move(c->player, res.displacement);
        contacts += res.count;
    }
    return contacts;
}

static double measure(bench_pass_fn fn, void *ctx, int reps, long *sink)
{
    double times[64];
    long passes = bench_calibrate(fn, ctx, 5e6, sink);
    for (int r = 0; r < reps; r++)
        times[r] = bench_time_rep(fn, ctx, passes, 1000, sink);
    return bench_median(times, reps);
}

int main(int argc, char **argv)
{
    int reps = 15;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
    if (reps < 1 || reps > 64)
        reps = 15;
    long sink = 0;
    static ball_ctx ball;
    static slide_ctx slide;
    if (!ball_scene(&ball) || !slide_scene(&slide)) {
        fprintf(stderr, "bench_sweep: could not build the scenes\n");
        return 1;
    }
    long c0 = ball_pass(&ball);
    double ball_ns = measure(ball_pass, &ball, reps, &sink);
    ball.ball.position = V(400, 500);
    ball.ball.velocity = V(9.1, -13.7);
    double brute_ns = measure(ball_brute_pass, &ball, reps < 5 ? reps : 5, &sink);
    long s0 = slide_pass(&slide);
    double slide_ns = measure(slide_pass, &slide, reps, &sink);

    printf("swept collision (collide2d %s), median of %d repetitions\n", c2d_version_string(), reps);
    printf("  %-52s %10.1f ns  (%.2f contacts per step)\n", "ball step among 400 bricks (static set)", ball_ns,
           c0 / 1000.0);
    printf("  %-52s %10.1f ns  (%.1fx slower)\n", "same step, c2d_sweep against every brick", brute_ns,
           brute_ns / ball_ns);
    printf("  %-52s %10.1f ns  (%.2f contacts per move)\n", "box slide move among 400 tiles (static set)", slide_ns,
           s0 / 1000.0);
    printf("  (checksum %ld)\n", sink);
    c2d_static_set_destroy(ball.set);
    for (int i = 0; i < ball.count; i++)
        c2d_shape_destroy(ball.shapes[i]);
    c2d_static_set_destroy(slide.set);
    for (int i = 0; i < BRICKS; i++)
        c2d_shape_destroy(slide.tiles[i]);
    c2d_shape_destroy(slide.player);
    return 0;
}
