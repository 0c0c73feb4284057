/* test.h - the tiny C test harness: TEST(name) registers a test, ENSURE* check inside it.
 * Each test counts once: it passes when none of its checks failed. main.c runs them (optionally
 * filtered by name prefix) and prints "RESULT passed=N failed=M" for spec/run.sh. Works from C and C++. */
#ifndef C2D_TEST_H
#define C2D_TEST_H

#include <math.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*c2d_test_fn)(void);
void c2d_test_register(const char *name, c2d_test_fn fn);
void c2d_test_fail(const char *file, int line, const char *fmt, ...);
/* Whether the running test has failed a check yet (to stop a loop of sub-cases at the first). */
int c2d_test_failed(void);
/* Scales iteration counts of property tests (the sanitised run uses fewer). */
long c2d_test_iterations(long n);
/* Deterministic random numbers for property tests: one stream per test, seeded by its name. 53 bits,
 * as unsigned long long: unsigned long is 32 bits on 64-bit Windows, and the streams must be the same
 * on every platform.
 * So never draw two random numbers in one expression: not as two arguments of one call
 * (V(c2d_test_uniform(..), c2d_test_uniform(..))), two elements of one braced initializer, or two
 * operands of one operator. C leaves their order unspecified, and gcc evaluates a call's arguments
 * last to first on x86-64 but first to last on ARM64: the test would get other numbers there, and the
 * digest of test_determinism.c would differ. Draw into variables instead, one declarator or statement
 * each (those are sequenced). The calls that once drew so were split in the order x86-64 gcc gave
 * them (last argument first: tu_random_vec draws y before x), so that no stream changed. The rule
 * holds for every generator of the tests, fuzz/ (its input bytes) and bench/; scripts/draw_order.awk,
 * run by suite 15-determinism, catches the plain cases. */
double c2d_test_uniform(double lo, double hi);
unsigned long long c2d_test_rand(void);

#ifdef __cplusplus
}
#endif

#define TEST(name)                                                                  \
    static void test_##name(void);                                                  \
    __attribute__((constructor)) static void register_##name(void)                  \
    {                                                                               \
        c2d_test_register(#name, test_##name);                                      \
    }                                                                               \
    static void test_##name(void)

/* Checks a condition; on failure records it (with a printf-style explanation) and returns from the
 * test, so one broken invariant does not flood the log. */
#define ENSURE_MSG(cond, ...)                                                       \
    do {                                                                            \
        if (!(cond)) {                                                              \
            c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
            return;                                                                 \
        }                                                                           \
    } while (0)
#define ENSURE(cond) ENSURE_MSG(cond, "%s", #cond)
#define ENSURE_NEAR(a, b, tol)                                                      \
    do {                                                                            \
        double ensure_a_ = (a), ensure_b_ = (b);                                    \
        ENSURE_MSG(fabs(ensure_a_ - ensure_b_) <= (tol), "%s = %.17g, expected %s = %.17g (tol %g)", \
                   #a, ensure_a_, #b, ensure_b_, (double)(tol));                    \
    } while (0)
#define ENSURE_OK(call) ENSURE_MSG((call) == C2D_OK, "%s did not return C2D_OK", #call)

#endif
