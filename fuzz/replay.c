/* replay.c - runs fuzz inputs through the harness (fuzz_api.c and the rest of FUZZ_SRCS in mk/fuzz.mk)
 * without libFuzzer, to replay the corpus under valgrind's memcheck (suite 53, make fuzz-valgrind).
 * ASan, which the libFuzzer build carries, cannot see a read of memory that was allocated but never
 * written; memcheck can, on a plain optimised build. For each file named on the command line it prints
 * "ok     FILE", or "not ok FILE" with the number of new memcheck errors, or of bytes newly lost for
 * good (a leak search runs after each input), when that input made some; memcheck's own report (in its
 * log) says where. A failed check in the harness aborts the process: the suite then counts the first
 * input without a line as failed. Outside valgrind every input passes unless the harness aborts.
 *   valgrind --log-file=LOG build/fuzz/replay fuzz/corpus/...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/memcheck.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole file, or NULL; the harness reads at most a few hundred bytes of it. */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

int main(int argc, char **argv)
{
    int failed = 0;
    unsigned long lost_before = 0;
    for (int i = 1; i < argc; i++) {
        size_t size = 0;
        uint8_t *data = read_file(argv[i], &size);
        if (!data) {
            printf("not ok %s (cannot read it)\n", argv[i]);
            failed++;
            continue;
        }
        unsigned before = VALGRIND_COUNT_ERRORS;
        LLVMFuzzerTestOneInput(data, size);
        unsigned errors = VALGRIND_COUNT_ERRORS - before;
        free(data);
        unsigned long lost = 0, dubious = 0, reachable = 0, suppressed = 0;
        VALGRIND_DO_QUICK_LEAK_CHECK;
        VALGRIND_COUNT_LEAKS(lost, dubious, reachable, suppressed);
        (void)dubious, (void)reachable, (void)suppressed;
        unsigned long leaked = lost - lost_before;
        lost_before = lost;
        if (errors || leaked) {
            printf("not ok %s (%u memcheck errors, %lu bytes lost)\n", argv[i], errors, leaked);
            failed++;
        } else {
            printf("ok     %s\n", argv[i]);
        }
        fflush(stdout);
    }
    return failed ? 1 : 0;
}
