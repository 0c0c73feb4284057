# The C tests again, with the library compiled in under AddressSanitizer and UBSan.
make --no-print-directory -s BUILD=${BUILD:-build} ${BUILD:-build}/test_c_asan >/dev/null || exit 1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    C2D_TEST_SCALE=${C2D_ASAN_SCALE:-0.2} exec ${BUILD:-build}/test_c_asan
