/* main.c - runs the registered C tests. Usage: test_c [name-prefix...]. Prints each failure, then
 * "RESULT passed=N failed=M". C2D_TEST_SCALE (a factor, default 1) scales property-test iterations. */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TESTS 1024

static struct {
    const char *name;
    c2d_test_fn fn;
} tests[MAX_TESTS];
static int test_count;
static int current_failed;
static const char *current_name;
static unsigned long long rng_state;

void c2d_test_register(const char *name, c2d_test_fn fn)
{
    if (test_count < MAX_TESTS) {
        tests[test_count].name = name;
        tests[test_count].fn = fn;
        test_count++;
    }
}

int c2d_test_failed(void)
{
    return current_failed;
}

void c2d_test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    current_failed = 1;
    printf("FAIL %s (%s:%d): ", current_name, file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

long c2d_test_iterations(long n)
{
    const char *s = getenv("C2D_TEST_SCALE");
    double f = s ? atof(s) : 1.0;
    long r = (long)(n * (f > 0 ? f : 1.0));
    return r < 1 ? 1 : r;
}

unsigned long long c2d_test_rand(void)
{
    /* splitmix64: tiny, good enough, and identical on every machine. */
    unsigned long long z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (z ^ (z >> 31)) >> 11;
}

double c2d_test_uniform(double lo, double hi)
{
    double u = (double)(c2d_test_rand() & ((1ULL << 52) - 1)) / (double)(1ULL << 52);
    return lo + (hi - lo) * u;
}

static int compare_names(const void *a, const void *b)
{
    const char *const *x = (const char *const *)a;
    const char *const *y = (const char *const *)b;
    return strcmp(*x, *y);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    /* Constructors register in link order; sort so runs are reproducible and readable. */
    qsort(tests, (size_t)test_count, sizeof tests[0], compare_names);
    for (int i = 0; i < test_count; i++) {
        int selected = argc < 2;
        for (int k = 1; k < argc; k++)
            if (strncmp(tests[i].name, argv[k], strlen(argv[k])) == 0)
                selected = 1;
        if (!selected)
            continue;
        current_name = tests[i].name;
        current_failed = 0;
        rng_state = 0x2545F4914F6CDD1DULL;
        for (const char *c = tests[i].name; *c; c++)
            rng_state = rng_state * 131 + (unsigned char)*c;
        clock_t t0 = clock();
        tests[i].fn();
        double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (current_failed)
            failed++;
        else
            passed++;
        printf("%s %-48s %8.1f ms\n", current_failed ? "not ok" : "ok    ", tests[i].name, ms);
        fflush(stdout);
    }
    printf("RESULT passed=%d failed=%d\n", passed, failed);
    return failed ? 1 : 0;
}
