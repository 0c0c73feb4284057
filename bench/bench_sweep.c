/* bench_sweep.c - swept-collision benchmark (issue 4), from C, each workload against a brute-force
 * baseline that gets the same inputs:
 *   - one ball step among 400 bricks: a breakout field of 20x20 bricks of 30x12 (gaps of 2) inside
 *     the walls of an 800x600 window, ball radius 5 moving about 16 px (3.3 radii) a step.
 *       static set: c2d_static_set_step_ball (grid, seams, bounce).
 *       brute force: what code without a static set does: c2d_sweep of the ball against every brick,
 *       take the earliest hit, reflect the velocity about its normal, repeat with the rest of the step.
 *   - one bump.lua-style slide move among 400 tiles: a 50x30 tile map (border and platforms) with a
 *     0.8 x 0.8 box moving up to half a tile a move.
 *       static set: c2d_static_set_move (default response: slide).
 *       brute force: bump.lua's loop without its grid: c2d_sweep against every tile, take the earliest
 *       hit, drop the normal part of the rest of the motion, repeat.
 *   - one frame of a platformer character on a level of a 300-segment chain of slopes under 35 degrees,
 *     60 blocks on it (steps and walls) and 40 one-way ledges above, walking, jumping and falling under
 *     gravity: c2d_static_set_move_character (snap, step) against a plain c2d_static_set_move (slide)
 *     of the same displacement from the same position. Target: at most 2x the plain move.
 * The inputs are recorded first: a trajectory of 1000 ball states (and 1000 box positions with their
 * moves), produced by the static set. A timed pass replays every recorded state once, so both
 * implementations do exactly the same calls from exactly the same states, and their end positions are
 * compared ("same end": within 1e-9 of each other; the brute-force loops know nothing of seams, so
 * where a mover crosses the joint between two touching tiles or walls they may differ).
 *
 * Median ns per call over repetitions (the two implementations take turns), calibrated passes, a
 * repetition during which the thread lost the CPU run again (bench.h).
 *
 * Usage: bench_sweep [--reps N] [--states N] [--quick] [--verbose] */
#include "bench.h"
#include "collide2d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRICKS 400
#define WALLS 4
#define MAX_STATES 100000
#define MAX_REPS 64
#define MAX_LEGS 16

static c2d_vec2 V(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

#define TU_PI_BENCH 3.14159265358979323846

static int g_failed; /* a collide2d call returned an error on valid input */

static void ok(c2d_status st)
{
    if (st != C2D_OK)
        g_failed = 1;
}

/* ---- ball among bricks ------------------------------------------------------------------------ */

typedef struct ball_ctx {
    c2d_static_set *set;
    c2d_shape *shapes[BRICKS + WALLS];
    int count;
    int states;
    c2d_ball *start;  /* recorded states */
    c2d_vec2 *end_set, *end_brute; /* where each implementation ended from each state */
    long contacts_set, contacts_brute;
    c2d_shape *probe; /* the brute force's ball */
} ball_ctx;

static int add_rect(c2d_shape **shapes, int *count, double l, double t, double r, double b)
{
    return c2d_rect_new(0.5 * (l + r), 0.5 * (t + b), r - l, b - t, 0, &shapes[(*count)++]) == C2D_OK;
}

static int ball_scene(ball_ctx *c, int states)
{
    c->count = 0;
    int good = add_rect(c->shapes, &c->count, -10, -10, 810, 0) && add_rect(c->shapes, &c->count, -10, 600, 810, 610) &&
               add_rect(c->shapes, &c->count, -10, 0, 0, 600) && add_rect(c->shapes, &c->count, 800, 0, 810, 600);
    for (int row = 0; row < 20 && good; row++)
        for (int col = 0; col < 20 && good; col++) {
            double l = 80 + 32 * col, t = 60 + 14 * row;
            good = add_rect(c->shapes, &c->count, l, t, l + 30, t + 12);
        }
    if (!good || c2d_static_set_new((const c2d_shape *const *)c->shapes, c->count, NULL, &c->set) != C2D_OK)
        return 0;
    c->states = states;
    c->start = (c2d_ball *)malloc((size_t)states * sizeof *c->start);
    c->end_set = (c2d_vec2 *)malloc((size_t)states * sizeof *c->end_set);
    c->end_brute = (c2d_vec2 *)malloc((size_t)states * sizeof *c->end_brute);
    if (!c->start || !c->end_set || !c->end_brute || c2d_circle_new(400, 500, 5, &c->probe) != C2D_OK)
        return 0;
    /* The recorded trajectory: the states before each of `states` consecutive steps. */
    c2d_ball b;
    b.position = V(400, 500);
    b.velocity = V(9.1, -13.7);
    b.radius = 5;
    for (int k = 0; k < states; k++) {
        c->start[k] = b;
        ok(c2d_static_set_step_ball(c->set, &b, 1.0, NULL, NULL, NULL, 0));
    }
    return 1;
}

static long ball_set_pass(void *ctx)
{
    ball_ctx *c = (ball_ctx *)ctx;
    long contacts = 0;
    for (int k = 0; k < c->states; k++) {
        c2d_ball b = c->start[k];
        c2d_move_result res;
        ok(c2d_static_set_step_ball(c->set, &b, 1.0, NULL, &res, NULL, 0));
        c->end_set[k] = b.position;
        contacts += res.count;
    }
    c->contacts_set = contacts;
    return contacts;
}

static long ball_brute_pass(void *ctx)
{
    ball_ctx *c = (ball_ctx *)ctx;
    long contacts = 0;
    for (int k = 0; k < c->states; k++) {
        c2d_vec2 p = c->start[k].position, v = c->start[k].velocity;
        double remaining = 1.0;
        for (int leg = 0; leg < MAX_LEGS && remaining > 0; leg++) {
            c2d_vec2 d = V(v.x * remaining, v.y * remaining);
            ok(c2d_shape_set_position(c->probe, p));
            double best = 2;
            c2d_vec2 n = V(0, 0);
            for (int i = 0; i < c->count; i++) {
                c2d_toi toi;
                ok(c2d_sweep(c->probe, d, c->shapes[i], V(0, 0), &toi));
                if (toi.state == C2D_TOI_HIT && toi.t < best) {
                    best = toi.t;
                    n = toi.normal;
                }
            }
            if (best > 1) {
                p = V(p.x + d.x, p.y + d.y);
                break;
            }
            p = V(p.x + best * d.x, p.y + best * d.y);
            double vn = v.x * n.x + v.y * n.y;
            v = V(v.x - 2 * vn * n.x, v.y - 2 * vn * n.y);
            remaining *= 1 - best;
            contacts++;
        }
        c->end_brute[k] = p;
    }
    c->contacts_brute = contacts;
    return contacts;
}

/* ---- box among tiles -------------------------------------------------------------------------- */

typedef struct slide_ctx {
    c2d_static_set *set;
    c2d_shape *tiles[BRICKS];
    c2d_shape *player;
    int states;
    c2d_vec2 *start, *move; /* recorded positions and the move made from each */
    c2d_vec2 *end_set, *end_brute;
    long contacts_set, contacts_brute;
} slide_ctx;

static double next_uniform(unsigned long *s, double lo, double hi)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return lo + (hi - lo) * (double)(*s >> 11) / 9007199254740992.0;
}

/* A 50x30 tile map with 400 unit tiles: the border (156 tiles) and 244 more in platforms of 4 to 8
 * tiles; the player, a 0.8 box, runs about with moves of up to half a tile on each axis. */
static int slide_scene(slide_ctx *c, int states)
{
    int n = 0, good = 1;
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
    for (int y = 0; y < 30 && good; y++)
        for (int x = 0; x < 50 && good; x++)
            if (map[y][x])
                good = c2d_rect_new(x + 0.5, y + 0.5, 1, 1, 0, &c->tiles[n++]) == C2D_OK;
    if (!good || n != BRICKS || c2d_static_set_new((const c2d_shape *const *)c->tiles, n, NULL, &c->set) != C2D_OK)
        return 0;
    if (c2d_rect_new(1.5, 1.5, 0.8, 0.8, 0, &c->player) != C2D_OK)
        return 0;
    c->states = states;
    c->start = (c2d_vec2 *)malloc((size_t)states * sizeof *c->start);
    c->move = (c2d_vec2 *)malloc((size_t)states * sizeof *c->move);
    c->end_set = (c2d_vec2 *)malloc((size_t)states * sizeof *c->end_set);
    c->end_brute = (c2d_vec2 *)malloc((size_t)states * sizeof *c->end_brute);
    if (!c->start || !c->move || !c->end_set || !c->end_brute)
        return 0;
    unsigned long rng = 99;
    c2d_vec2 p = V(1.5, 1.5);
    for (int k = 0; k < states; k++) {
        double dy = next_uniform(&rng, -0.5, 0.5), dx = next_uniform(&rng, -0.5, 0.5);
        c2d_vec2 d = V(dx, dy);
        c2d_move_result res;
        ok(c2d_shape_set_position(c->player, p));
        ok(c2d_static_set_move(c->set, c->player, d, NULL, &res, NULL, 0));
        c->start[k] = p;
        c->move[k] = d;
        p = V(p.x + res.displacement.x, p.y + res.displacement.y);
    }
    return 1;
}

static long slide_set_pass(void *ctx)
{
    slide_ctx *c = (slide_ctx *)ctx;
    long contacts = 0;
    for (int k = 0; k < c->states; k++) {
        c2d_move_result res;
        c2d_sweep_contact cs[8];
        ok(c2d_shape_set_position(c->player, c->start[k]));
        ok(c2d_static_set_move(c->set, c->player, c->move[k], NULL, &res, cs, 8));
        c->end_set[k] = V(c->start[k].x + res.displacement.x, c->start[k].y + res.displacement.y);
        contacts += res.count;
    }
    c->contacts_set = contacts;
    return contacts;
}

static long slide_brute_pass(void *ctx)
{
    slide_ctx *c = (slide_ctx *)ctx;
    long contacts = 0;
    for (int k = 0; k < c->states; k++) {
        c2d_vec2 p = c->start[k], d = c->move[k];
        for (int leg = 0; leg < MAX_LEGS && (d.x != 0 || d.y != 0); leg++) {
            ok(c2d_shape_set_position(c->player, p));
            double best = 2;
            c2d_vec2 n = V(0, 0);
            for (int i = 0; i < BRICKS; i++) {
                c2d_toi toi;
                ok(c2d_sweep(c->player, d, c->tiles[i], V(0, 0), &toi));
                if (toi.state == C2D_TOI_HIT && toi.t < best) {
                    best = toi.t;
                    n = toi.normal;
                }
            }
            if (best > 1) {
                p = V(p.x + d.x, p.y + d.y);
                break;
            }
            /* Slide: the rest of the motion without its part along the normal. */
            p = V(p.x + best * d.x, p.y + best * d.y);
            c2d_vec2 rest = V((1 - best) * d.x, (1 - best) * d.y);
            double rn = rest.x * n.x + rest.y * n.y;
            d = V(rest.x - rn * n.x, rest.y - rn * n.y);
            contacts++;
        }
        c->end_brute[k] = p;
    }
    c->contacts_brute = contacts;
    return contacts;
}

/* ---- timing and report ------------------------------------------------------------------------ */

static int g_verbose; /* --verbose: list the calls whose ends differ */

static int same_ends(const char *what, const c2d_vec2 *start, const c2d_vec2 *move, const c2d_vec2 *a,
                     const c2d_vec2 *b, int n)
{
    int same = 0;
    for (int k = 0; k < n; k++) {
        int eq = fabs(a[k].x - b[k].x) <= 1e-9 * (1 + fabs(a[k].x)) && fabs(a[k].y - b[k].y) <= 1e-9 * (1 + fabs(a[k].y));
        same += eq;
        if (!eq && g_verbose)
            printf("  %s %d: from (%.17g, %.17g) by (%.17g, %.17g): set ends at (%.17g, %.17g), brute force at "
                   "(%.17g, %.17g)\n", what, k, start[k].x, start[k].y, move[k].x, move[k].y, a[k].x, a[k].y, b[k].x,
                   b[k].y);
    }
    return same;
}

/* ---- a ball by two flippers, turning and at rest ------------------------------------------------ */

/* A pinball table's lower end, 400 x 600 (y down): walls, and two 110 x 18 flippers hinged at (95, 520)
 * and (305, 520), at rest 0.5 rad down, swung at 30 rad/s in one set and standing still in the other.
 * The recorded states are balls of radius 8 falling onto the flippers at 300 to 900 px/s, one 1/60 s
 * step each: the step a game pays while a flipper turns under a ball, against the same step with the
 * flipper at rest. */
typedef struct flip_ctx {
    c2d_static_set *turning, *rest;
    c2d_shape *shapes[6];
    int states;
    c2d_ball *start;
    long contacts[2];
} flip_ctx;

static int flip_scene(flip_ctx *c, int states)
{
    int n = 0;
    int good = add_rect(c->shapes, &n, -10, -10, 410, 0) && add_rect(c->shapes, &n, -10, 600, 410, 610) &&
               add_rect(c->shapes, &n, -10, 0, 0, 600) && add_rect(c->shapes, &n, 400, 0, 410, 600);
    double rest = 0.5;
    c2d_vec2 hinge[2] = {{95, 520}, {305, 520}};
    for (int k = 0; k < 2 && good; k++) {
        double a = k == 0 ? rest : TU_PI_BENCH - rest; /* the right one points left */
        double cx = hinge[k].x + 55 * cos(a), cy = hinge[k].y + 55 * sin(a);
        good = c2d_rect_new(cx, cy, 110, 18, a, &c->shapes[n++]) == C2D_OK;
    }
    if (!good || c2d_static_set_new((const c2d_shape *const *)c->shapes, 6, NULL, &c->turning) != C2D_OK ||
        c2d_static_set_new((const c2d_shape *const *)c->shapes, 6, NULL, &c->rest) != C2D_OK)
        return 0;
    /* Swinging up (y down: the left flipper turns counter-clockwise on screen, a negative angle). */
    c2d_motion up = {{0, 0}, -30, {-55, 0}}, up2 = {{0, 0}, 30, {-55, 0}};
    ok(c2d_static_set_set_motion(c->turning, 4, &up));
    ok(c2d_static_set_set_motion(c->turning, 5, &up2));
    c->states = states;
    c->start = (c2d_ball *)malloc((size_t)states * sizeof *c->start);
    if (!c->start)
        return 0;
    unsigned long seed = 7;
    for (int k = 0; k < states; k++) {
        double x = next_uniform(&seed, 60, 340);
        double y = next_uniform(&seed, 440, 500);
        double speed = next_uniform(&seed, 300, 900);
        double dir = next_uniform(&seed, 1.2, 1.95); /* downwards, y down */
        c->start[k].position = V(x, y);
        c->start[k].velocity = V(speed * cos(dir), speed * sin(dir));
        c->start[k].radius = 8;
    }
    return 1;
}

static long flip_pass(flip_ctx *c, int turning)
{
    long contacts = 0;
    c2d_move_options opt = c2d_move_options_default();
    opt.restitution = 0.9;
    for (int k = 0; k < c->states; k++) {
        c2d_ball b = c->start[k];
        c2d_move_result res;
        ok(c2d_static_set_step_ball(turning ? c->turning : c->rest, &b, 1.0 / 60, &opt, &res, NULL, 0));
        contacts += res.count;
    }
    c->contacts[turning ? 0 : 1] = contacts;
    return contacts;
}
static long flip_turning_pass(void *ctx)
{
    return flip_pass((flip_ctx *)ctx, 1);
}
static long flip_rest_pass(void *ctx)
{
    return flip_pass((flip_ctx *)ctx, 0);
}

/* ---- a platformer character -------------------------------------------------------------------- */

#define CH_SEGS 300
#define CH_BLOCKS 60
#define CH_LEDGES 40

typedef struct char_ctx {
    c2d_static_set *set;
    c2d_shape *shapes[1 + CH_BLOCKS + CH_LEDGES];
    int count;
    c2d_shape *player;
    c2d_character_options opt;
    int states;
    c2d_vec2 *start, *move;        /* recorded positions and the displacement asked from each */
    c2d_character_state *state;    /* and what the character stood on there */
    long grounded, contacts_plain;
} char_ctx;

/* The level, then a recorded run of the character mover over it: the input changes direction every 400
 * frames, a jump when a wall stops it and every 240 frames on the ground, gravity 0.02 a frame up to a
 * fall of 0.6. */
static int char_scene(char_ctx *c, int states)
{
    unsigned long s = 2718;
    c2d_vec2 pts[CH_SEGS + 1];
    pts[0] = V(0, 0);
    for (int k = 1; k <= CH_SEGS; k++) {
        double len = next_uniform(&s, 1.0, 4.0);
        double a = next_uniform(&s, -0.6, 0.6);
        pts[k] = V(pts[k - 1].x + len * cos(a), pts[k - 1].y + len * sin(a));
    }
    int n = 0, good = c2d_chain_new(pts, CH_SEGS + 1, 0, &c->shapes[n++]) == C2D_OK;
    for (int k = 0; k < CH_BLOCKS && good; k++) {
        int at = 5 + (int)next_uniform(&s, 0, CH_SEGS - 10);
        double h = next_uniform(&s, 0.1, 1.5); /* a step to climb (under 0.3) or a wall to jump */
        good = c2d_rect_new(pts[at].x, pts[at].y + h / 2 - 0.5, 0.8, h + 1.0, 0, &c->shapes[n++]) == C2D_OK;
    }
    for (int k = 0; k < CH_LEDGES && good; k++) {
        int at = 5 + (int)next_uniform(&s, 0, CH_SEGS - 10);
        double up = next_uniform(&s, 2.0, 3.0);
        good = c2d_rect_new(pts[at].x, pts[at].y + up, 3.0, 0.3, 0, &c->shapes[n++]) == C2D_OK;
    }
    c->count = n;
    if (!good || c2d_static_set_new((const c2d_shape *const *)c->shapes, n, NULL, &c->set) != C2D_OK)
        return 0;
    for (int k = 1 + CH_BLOCKS; k < n; k++)
        ok(c2d_static_set_set_one_way(c->set, k, V(0, 1)));
    if (c2d_rect_new(pts[2].x, pts[2].y + 3, 0.8, 1.6, 0, &c->player) != C2D_OK)
        return 0;
    c->opt = c2d_character_options_default();
    c->opt.snap_distance = 0.3;
    c->opt.step_height = 0.3;
    c->states = states;
    c->start = (c2d_vec2 *)malloc((size_t)states * sizeof *c->start);
    c->move = (c2d_vec2 *)malloc((size_t)states * sizeof *c->move);
    c->state = (c2d_character_state *)malloc((size_t)states * sizeof *c->state);
    if (!c->start || !c->move || !c->state)
        return 0;
    c2d_character_state st;
    memset(&st, 0, sizeof st);
    st.ground_index = -1;
    c2d_vec2 p = V(pts[2].x, pts[2].y + 3);
    double vy = 0, dir = 1;
    int wall = 0;
    c->grounded = 0;
    for (int k = 0; k < states; k++) {
        if (k % 400 == 399)
            dir = -dir;
        vy = st.grounded ? (wall || k % 240 == 0 ? 0.35 : 0.0) : (vy - 0.02 < -0.6 ? -0.6 : vy - 0.02);
        c2d_vec2 d = V(0.12 * dir, st.grounded && vy == 0 ? -0.02 : vy);
        c2d_character_result res;
        c->start[k] = p;
        c->move[k] = d;
        c->state[k] = st;
        ok(c2d_shape_set_position(c->player, p));
        ok(c2d_static_set_move_character(c->set, c->player, d, &c->opt, &st, &res, NULL, NULL));
        if (res.flags & C2D_CHARACTER_CEILING)
            vy = 0;
        wall = (res.flags & C2D_CHARACTER_WALL) != 0;
        c->grounded += st.grounded;
        p = V(p.x + res.displacement.x, p.y + res.displacement.y);
    }
    return 1;
}

static long char_mover_pass(void *ctx)
{
    char_ctx *c = (char_ctx *)ctx;
    long grounded = 0;
    for (int k = 0; k < c->states; k++) {
        c2d_character_state st = c->state[k];
        c2d_character_result res;
        ok(c2d_shape_set_position(c->player, c->start[k]));
        ok(c2d_static_set_move_character(c->set, c->player, c->move[k], &c->opt, &st, &res, NULL, NULL));
        grounded += st.grounded;
    }
    return grounded;
}

static long char_plain_pass(void *ctx)
{
    char_ctx *c = (char_ctx *)ctx;
    long contacts = 0;
    for (int k = 0; k < c->states; k++) {
        c2d_move_result res;
        c2d_sweep_contact cs[8];
        ok(c2d_shape_set_position(c->player, c->start[k]));
        ok(c2d_static_set_move(c->set, c->player, c->move[k], NULL, &res, cs, 8));
        contacts += res.count;
    }
    c->contacts_plain = contacts;
    return contacts;
}

/* Times two passes in turn, `reps` repetitions each; median ns per call of each into ns[2]. */
static void measure_pair(bench_pass_fn fa, bench_pass_fn fb, void *ctx, long calls, int reps, double rep_ns,
                         double ns[2], long *sink)
{
    double times[2][MAX_REPS];
    bench_pass_fn fns[2] = {fa, fb};
    long passes[2];
    for (int i = 0; i < 2; i++)
        passes[i] = bench_calibrate(fns[i], ctx, rep_ns, sink);
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < 2; i++)
            times[i][r] = bench_time_rep_clean(fns[i], ctx, passes[i], calls, sink, 5, NULL);
    for (int i = 0; i < 2; i++)
        ns[i] = bench_median(times[i], reps);
}

static void row(const char *name, const double ns[2], long contacts_set, long contacts_brute, int same, int states)
{
    printf("  %-32s %9.0f %12.0f %8.1fx %9.2f %9.2f %7d/%d\n", name, ns[0], ns[1], ns[1] / ns[0],
           (double)contacts_set / states, (double)contacts_brute / states, same, states);
}

int main(int argc, char **argv)
{
    int reps = 15, states = 1000, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--states") == 0 && i + 1 < argc)
            states = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--verbose") == 0)
            g_verbose = 1;
        else {
            fprintf(stderr, "usage: bench_sweep [--reps N] [--states N] [--quick] [--verbose]\n");
            return 2;
        }
    }
    if (quick) {
        reps = 3;
        states = 200;
    }
    if (reps < 1 || reps > MAX_REPS || states < 1 || states > MAX_STATES) {
        fprintf(stderr, "bench_sweep: --reps must be 1..%d and --states 1..%d\n", MAX_REPS, MAX_STATES);
        return 2;
    }
    long sink = 0;
    static ball_ctx ball;
    static slide_ctx slide;
    if (!ball_scene(&ball, states) || !slide_scene(&slide, states)) {
        fprintf(stderr, "bench_sweep: could not build the scenes\n");
        return 1;
    }
    double rep_ns = quick ? 2e6 : 1e7;
    double ball_ns[2], slide_ns[2], flip_ns[2];
    static flip_ctx flip;
    if (!flip_scene(&flip, states)) {
        fprintf(stderr, "bench_sweep: could not build the flipper scene\n");
        return 1;
    }
    measure_pair(ball_set_pass, ball_brute_pass, &ball, states, reps, rep_ns, ball_ns, &sink);
    measure_pair(slide_set_pass, slide_brute_pass, &slide, states, reps, rep_ns, slide_ns, &sink);
    measure_pair(flip_turning_pass, flip_rest_pass, &flip, states, reps, rep_ns, flip_ns, &sink);
    static char_ctx ch;
    double char_ns[2];
    if (!char_scene(&ch, states)) {
        fprintf(stderr, "bench_sweep: could not build the platformer scene\n");
        return 1;
    }
    measure_pair(char_mover_pass, char_plain_pass, &ch, states, reps, rep_ns, char_ns, &sink);

    printf("swept collision (collide2d %s): ns per call, median of %d repetitions over %d recorded states%s\n",
           c2d_version_string(), reps, states, quick ? " -- QUICK smoke run, numbers not meaningful" : "");
    printf("  %-32s %9s %12s %9s %9s %9s %s\n", "workload", "set ns", "brute ns", "set is", "hits/set",
           "hits/bru", "same end");
    int ball_same, slide_same;
    {
        c2d_vec2 *pos = (c2d_vec2 *)malloc((size_t)states * sizeof *pos), *vel = (c2d_vec2 *)malloc((size_t)states * sizeof *vel);
        if (!pos || !vel)
            return 1;
        for (int k = 0; k < states; k++) {
            pos[k] = ball.start[k].position;
            vel[k] = ball.start[k].velocity;
        }
        ball_same = same_ends("ball step", pos, vel, ball.end_set, ball.end_brute, states);
        slide_same = same_ends("slide move", slide.start, slide.move, slide.end_set, slide.end_brute, states);
        free(pos);
        free(vel);
    }
    row("ball step among 400 bricks", ball_ns, ball.contacts_set, ball.contacts_brute, ball_same, states);
    row("box slide move among 400 tiles", slide_ns, slide.contacts_set, slide.contacts_brute, slide_same, states);
    printf("  set: c2d_static_set_step_ball / c2d_static_set_move; brute: c2d_sweep against every shape, earliest\n"
           "  hit, reflect (ball) or slide (box), repeat. set is: brute ns / set ns. hits: contacts per call.\n"
           "  same end: calls where both end within 1e-9 (the brute force ignores seams between touching shapes).\n");
    printf("turning members: ns per 1/60 s ball step (radius 8, 300 to 900 px/s) falling onto two 110 x 18 flippers\n");
    printf("  %-32s %9s %12s %9s %9s %9s\n", "workload", "turning", "at rest", "ratio", "hits/turn", "hits/rest");
    printf("  %-32s %9.0f %12.0f %8.2fx %9.2f %9.2f\n", "ball step by two flippers", flip_ns[0], flip_ns[1],
           flip_ns[0] / flip_ns[1], (double)flip.contacts[0] / states, (double)flip.contacts[1] / states);
    printf("  turning: both flippers swinging at 30 rad/s (c2d_static_set_set_motion), swept as they turn;\n"
           "  at rest: the same set standing still. target: a step by turning flippers costs at most 4x the step\n"
           "  by the same flippers at rest: %.2fx %s\n", flip_ns[0] / flip_ns[1], flip_ns[0] <= 4 * flip_ns[1] ? "MET" : "NOT MET");
    printf("a platformer character: ns per frame on a chain of 300 slopes with 60 blocks and 40 one-way ledges\n");
    printf("  %-32s %9s %12s %9s %9s\n", "workload", "character", "plain move", "ratio", "grounded");
    printf("  %-32s %9.0f %12.0f %8.2fx %8.0f%%\n", "walk, jump, fall (box 0.8 x 1.6)", char_ns[0], char_ns[1],
           char_ns[0] / char_ns[1], 100.0 * (double)ch.grounded / states);
    printf("  character: c2d_static_set_move_character (snap 0.3, step 0.3) from each recorded state; plain move:\n"
           "  c2d_static_set_move (slide) of the same displacement from the same position. target: at most 2x\n"
           "  the plain move: %.2fx %s\n", char_ns[0] / char_ns[1], char_ns[0] <= 2 * char_ns[1] ? "MET" : "NOT MET");
    printf("  (checksum %ld)\n", sink);

    c2d_static_set_destroy(ball.set);
    for (int i = 0; i < ball.count; i++)
        c2d_shape_destroy(ball.shapes[i]);
    c2d_shape_destroy(ball.probe);
    free(ball.start);
    free(ball.end_set);
    free(ball.end_brute);
    c2d_static_set_destroy(flip.turning);
    c2d_static_set_destroy(flip.rest);
    for (int i = 0; i < 6; i++)
        c2d_shape_destroy(flip.shapes[i]);
    free(flip.start);
    c2d_static_set_destroy(ch.set);
    for (int i = 0; i < ch.count; i++)
        c2d_shape_destroy(ch.shapes[i]);
    c2d_shape_destroy(ch.player);
    free(ch.start);
    free(ch.move);
    free(ch.state);
    c2d_static_set_destroy(slide.set);
    for (int i = 0; i < BRICKS; i++)
        c2d_shape_destroy(slide.tiles[i]);
    c2d_shape_destroy(slide.player);
    free(slide.start);
    free(slide.move);
    free(slide.end_set);
    free(slide.end_brute);
    if (g_failed) {
        printf("collide2d returned an error status on valid input\n");
        return 1;
    }
    return 0;
}
