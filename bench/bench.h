/* bench.h - timing helpers shared by the collide2d benchmarks (C and C++).
 *
 * Every benchmark times the same way so their numbers can sit in one report: a monotonic clock,
 * a pass count calibrated so one repetition lasts a few milliseconds (long enough that clock
 * resolution and call overhead of the timer vanish), several repetitions, and the median of the
 * per-call times (the median ignores the odd repetition disturbed by another process on a shared
 * machine). Header-only so that each benchmark stays one translation unit. C users need
 * _POSIX_C_SOURCE >= 199309L for clock_gettime (the Makefile's C flags define it). */
#ifndef C2D_BENCH_H
#define C2D_BENCH_H

#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One pass of a benchmark: does its calls_per_pass calls and returns a count derived from their
 * results (hits, say), which the caller accumulates so the work cannot be optimised away. */
typedef long (*bench_pass_fn)(void *ctx);

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Sorts v[0..n) ascending; n is a repetition count (tens), so insertion sort is enough. */
static inline void bench_sort(double *v, int n)
{
    for (int i = 1; i < n; i++) {
        double x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

/* The q-quantile (0 <= q <= 1) of v[0..n), n >= 1, by linear interpolation; sorts v. */
static inline double bench_quantile(double *v, int n, double q)
{
    bench_sort(v, n);
    double pos = q * (double)(n - 1);
    int i = (int)pos;
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

static inline double bench_median(double *v, int n)
{
    return bench_quantile(v, n, 0.5);
}

/* How many passes make one repetition last about target_ns. A pass is timed several times and the
 * fastest counts: on a shared or virtual machine a single timing can include time the CPU spent
 * elsewhere, and calibrating on it would make every repetition too short. The untimed passes also
 * warm caches and branch predictors before the caller starts timing. */
static inline long bench_calibrate(bench_pass_fn fn, void *ctx, double target_ns, long *sink)
{
    double best = 0.0;
    for (int k = 0; k < 5; k++) {
        double t0 = bench_now_ns();
        *sink += fn(ctx);
        double dt = bench_now_ns() - t0;
        if (k == 0 || dt < best)
            best = dt;
    }
    double passes = target_ns / (best > 1.0 ? best : 1.0);
    return passes < 1.0 ? 1 : (long)(passes + 0.5);
}

/* Nanoseconds per call for one repetition of `passes` passes. */
static inline double bench_time_rep(bench_pass_fn fn, void *ctx, long passes, long calls_per_pass, long *sink)
{
    double t0 = bench_now_ns();
    for (long p = 0; p < passes; p++)
        *sink += fn(ctx);
    double dt = bench_now_ns() - t0;
    return dt / ((double)passes * (double)calls_per_pass);
}

/* Like bench_time_rep, but retries (up to max_tries times) a repetition during which this thread was
 * not on the CPU for more than 2% of the time: another process took the CPU, and what was timed is
 * partly its work. The thread's CPU clock tells them apart; the wall clock is what is reported.
 * Returns the last repetition's time; *clean, if not NULL, says whether it ran undisturbed. */
static inline double bench_time_rep_clean(bench_pass_fn fn, void *ctx, long passes, long calls_per_pass, long *sink,
                                          int max_tries, int *clean)
{
    double per_call = 0.0;
    int ok = 0;
    for (int k = 0; k < max_tries && !ok; k++) {
        struct timespec c0, c1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
        double t0 = bench_now_ns();
        for (long p = 0; p < passes; p++)
            *sink += fn(ctx);
        double dt = bench_now_ns() - t0;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
        double cpu = (double)(c1.tv_sec - c0.tv_sec) * 1e9 + (double)(c1.tv_nsec - c0.tv_nsec);
        per_call = dt / ((double)passes * (double)calls_per_pass);
        ok = cpu >= 0.98 * dt;
    }
    if (clean)
        *clean = ok;
    return per_call;
}

#ifdef __cplusplus
}
#endif

#endif /* C2D_BENCH_H */
