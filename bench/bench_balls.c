/* bench_balls.c - many balls at once: 1000 balls (radius 4, 60 to 300 px/s) in an 800 x 600 box of
 * 20 px wall tiles with a field of 40 bricks, stepped frame by frame at 1/60 s with
 * c2d_static_set_step_balls (every ball against the level and every other ball), the game's own loop.
 * Reported: the median and 90th percentile of the time per frame over the timed frames, the ball-ball
 * contacts per frame, and beside it 1000 c2d_static_set_step_ball calls on the same states (the level
 * only: what ignoring the other balls costs). Target: a frame under 1 ms. */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d.h"

#define NBALLS 1000
#define MAX_FRAMES 2000

static double next_uniform(unsigned long *s, double lo, double hi)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return lo + (hi - lo) * (double)((*s >> 11) & ((1UL << 52) - 1)) / (double)(1UL << 52);
}

static c2d_static_set *level(void)
{
    c2d_shape *s[512];
    int n = 0;
    for (int x = -20; x <= 800; x += 20) {
        c2d_rect_new(x + 10, -10, 20, 20, 0, &s[n++]);
        c2d_rect_new(x + 10, 610, 20, 20, 0, &s[n++]);
    }
    for (int y = 0; y < 600; y += 20) {
        c2d_rect_new(-10, y + 10, 20, 20, 0, &s[n++]);
        c2d_rect_new(810, y + 10, 20, 20, 0, &s[n++]);
    }
    for (int row = 0; row < 4; row++)
        for (int col = 0; col < 10; col++)
            c2d_rect_new(80 + 70 * col, 80 + 30 * row, 60, 20, 0, &s[n++]);
    c2d_static_set *set = NULL;
    if (c2d_static_set_new((const c2d_shape *const *)s, n, NULL, &set) != C2D_OK)
        set = NULL;
    for (int i = 0; i < n; i++)
        c2d_shape_destroy(s[i]);
    return set;
}

typedef struct counter {
    long ball_contacts;
} counter;

static c2d_status count_ball_contacts(void *ctx, const c2d_contact_record *r, int n)
{
    counter *c = (counter *)ctx;
    for (int i = 0; i < n; i++)
        c->ball_contacts += r[i].contact.index < 0;
    return C2D_OK;
}

int main(int argc, char **argv)
{
    int frames = 600, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_balls [--frames N] [--quick]\n");
            return 2;
        }
    }
    if (quick)
        frames = 30;
    if (frames < 1 || frames > MAX_FRAMES) {
        fprintf(stderr, "bench_balls: --frames must be 1..%d\n", MAX_FRAMES);
        return 2;
    }
    c2d_static_set *set = level();
    if (!set) {
        fprintf(stderr, "bench_balls: could not build the level\n");
        return 1;
    }
    static c2d_ball balls[NBALLS], copy[NBALLS];
    unsigned long seed = 12345;
    int n = 0;
    while (n < NBALLS) {
        double x = next_uniform(&seed, 10, 790);
        double y = next_uniform(&seed, 200, 590);
        int clear = 1;
        for (int k = 0; k < n && clear; k++)
            clear = hypot(balls[k].position.x - x, balls[k].position.y - y) > 9;
        double a = next_uniform(&seed, 0, 6.283185307179586);
        double sp = next_uniform(&seed, 60, 300);
        if (!clear)
            continue;
        balls[n].position.x = x;
        balls[n].position.y = y;
        balls[n].velocity.x = sp * cos(a);
        balls[n].velocity.y = sp * sin(a);
        balls[n].radius = 4;
        n++;
    }
    double dt = 1.0 / 60;
    static double ns_multi[MAX_FRAMES], ns_single[MAX_FRAMES];
    counter cnt = {0};
    long truncated = 0, failed = 0;
    c2d_move_result res;
    /* Warm up: let the balls spread over the box first. */
    for (int f = 0; f < (quick ? 10 : 60); f++)
        failed += c2d_static_set_step_balls(set, balls, NULL, NBALLS, dt, NULL, NULL, &res, NULL, NULL) != C2D_OK;
    for (int f = 0; f < frames; f++) {
        memcpy(copy, balls, sizeof balls);
        double t0 = bench_now_ns();
        for (int i = 0; i < NBALLS; i++)
            failed += c2d_static_set_step_ball(set, &copy[i], dt, NULL, NULL, NULL, 0) != C2D_OK;
        double t1 = bench_now_ns();
        failed += c2d_static_set_step_balls(set, balls, NULL, NBALLS, dt, NULL, NULL, &res, count_ball_contacts,
                                            &cnt) != C2D_OK;
        double t2 = bench_now_ns();
        truncated += res.truncated;
        ns_single[f] = t1 - t0;
        ns_multi[f] = t2 - t1;
    }
    /* Still every ball in the box and none overlapping another (a sanity check, not the test). */
    int bad = 0;
    for (int i = 0; i < NBALLS; i++) {
        const c2d_vec2 p = balls[i].position;
        bad += !(p.x >= 4 - 1e-6 && p.x <= 796 + 1e-6 && p.y >= 4 - 1e-6 && p.y <= 596 + 1e-6);
        for (int k = i + 1; k < NBALLS; k++)
            bad += hypot(balls[k].position.x - p.x, balls[k].position.y - p.y) < 8 - 1e-6;
    }
    double med = bench_median(ns_multi, frames), p90 = bench_quantile(ns_multi, frames, 0.9);
    double single = bench_median(ns_single, frames);
    printf("many balls (collide2d %s): %d balls of radius 4 in an 800 x 600 box of tiles and 40 bricks, 1/60 s frames, "
           "%d timed frames\n",
           c2d_version_string(), NBALLS, frames);
    printf("  %-44s %10.3f ms median, %.3f ms 90th percentile\n", "c2d_static_set_step_balls, one frame", med / 1e6,
           p90 / 1e6);
    printf("  %-44s %10.3f ms median\n", "1000 x c2d_static_set_step_ball (level only)", single / 1e6);
    printf("  ball-ball contacts per frame %.1f, truncated frames %ld, misplaced at the end %d\n",
           (double)cnt.ball_contacts / 2 / frames, truncated, bad);
    printf("  target: a frame under 1 ms in C: %s\n", med < 1e6 ? "MET" : "NOT MET");
    c2d_static_set_destroy(set);
    if (failed || bad) {
        printf("collide2d returned an error status or left balls misplaced\n");
        return 1;
    }
    return 0;
}
