/* bench_trig.c - the cost of the library's own sine and cosine (src/trig.c, c2d_sincos) against the C
 * library's sincos, which it replaced in c2d_shape_place: nanoseconds per call over 4096 angles drawn
 * from each range, as throughput (independent calls) and as latency (each angle depends on the
 * previous result, as when a chain of computations waits for the rotation). Median over repetitions,
 * the two functions taking turns (bench.h). The target: within 1.5 times the C library's time for
 * |x| < 100, the angles a game turns its shapes by.
 *
 * c2d_sincos is private to the library: this program links the library's own object file for it.
 *
 * Usage: bench_trig [--reps N] [--quick] */
#define _GNU_SOURCE /* glibc's sincos */
#include "bench.h"
#include "trig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANGLES 4096
#define MAX_REPS 64

typedef struct ctx {
    double x[ANGLES];
} ctx;

static void libm_sincos(double x, double *s, double *c)
{
#if defined(__GLIBC__)
    sincos(x, s, c);
#else
    *s = sin(x);
    *c = cos(x);
#endif
}

/* The result feeds the sink, so no call can be dropped; the long holds the bits that vary. */
static long fold(double acc)
{
    return (long)(acc * 1e3);
}

static long libm_throughput(void *p)
{
    const ctx *c = (const ctx *)p;
    double acc = 0;
    for (int i = 0; i < ANGLES; i++) {
        double s, co;
        libm_sincos(c->x[i], &s, &co);
        acc += s + co;
    }
    return fold(acc);
}

static long c2d_throughput(void *p)
{
    const ctx *c = (const ctx *)p;
    double acc = 0;
    for (int i = 0; i < ANGLES; i++) {
        double s, co;
        c2d_sincos(c->x[i], &s, &co);
        acc += s + co;
    }
    return fold(acc);
}

/* Each angle waits for the previous result: x + 1e-300 * s is x (the term is far below an ulp of any
 * angle here) but the processor cannot know that before s is there. */
static long libm_latency(void *p)
{
    const ctx *c = (const ctx *)p;
    double s = 0, co = 0;
    for (int i = 0; i < ANGLES; i++)
        libm_sincos(c->x[i] + 1e-300 * s, &s, &co);
    return fold(s + co);
}

static long c2d_latency(void *p)
{
    const ctx *c = (const ctx *)p;
    double s = 0, co = 0;
    for (int i = 0; i < ANGLES; i++)
        c2d_sincos(c->x[i] + 1e-300 * s, &s, &co);
    return fold(s + co);
}

int main(int argc, char **argv)
{
    int reps = 15, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else {
            fprintf(stderr, "usage: bench_trig [--reps N] [--quick]\n");
            return 2;
        }
    }
    if (quick)
        reps = 3;
    if (reps < 1 || reps > MAX_REPS)
        reps = reps < 1 ? 1 : MAX_REPS;
    double target_ns = quick ? 2e5 : 5e6;

    static const struct {
        const char *name;
        double lo, hi;
    } ranges[] = {
        {"|x| < pi/4", 0, 0.785},
        {"|x| < 2 pi", 0, 6.283},
        {"|x| < 100", 0, 100},
        {"|x| < 1e6", 0, 1e6},
        {"1e6 < |x| < 1e15", 1e6, 1e15},
    };
    static ctx c;
    long sink = 0;
    int worst_fail = 0;
    unsigned long long seed = 0x5EEDULL;
    printf("ns per call, median of %d repetitions (c2d / libm: below 1 means c2d_sincos is faster)\n", reps);
    printf("%-18s %11s %11s %7s   %11s %11s %7s\n", "angles", "libm thr.", "c2d thr.", "ratio", "libm lat.",
           "c2d lat.", "ratio");
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        for (int i = 0; i < ANGLES; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            double u = (double)(seed >> 11) * (1.0 / 9007199254740992.0);
            double x = ranges[r].lo + (ranges[r].hi - ranges[r].lo) * u;
            c.x[i] = (seed >> 7) & 1 ? -x : x;
        }
        bench_pass_fn fns[4] = {libm_throughput, c2d_throughput, libm_latency, c2d_latency};
        double t[4][MAX_REPS];
        long passes[4];
        for (int f = 0; f < 4; f++)
            passes[f] = bench_calibrate(fns[f], &c, target_ns, &sink);
        for (int k = 0; k < reps; k++)
            for (int f = 0; f < 4; f++)
                t[f][k] = bench_time_rep_clean(fns[f], &c, passes[f], ANGLES, &sink, 3, NULL);
        double m[4];
        for (int f = 0; f < 4; f++)
            m[f] = bench_median(t[f], reps);
        printf("%-18s %11.2f %11.2f %7.2f   %11.2f %11.2f %7.2f\n", ranges[r].name, m[0], m[1], m[1] / m[0], m[2],
               m[3], m[3] / m[2]);
        if (r == 2 && !quick && m[1] > 1.5 * m[0])
            worst_fail = 1;
    }
    printf("(sink %ld)\n", sink);
    if (worst_fail)
        printf("note: c2d_sincos took more than 1.5 times libm's time for |x| < 100\n");
    return 0;
}
