# Determinism across runs and builds: the digest of test_determinism.c (every kind of result over a
# fixed scene) from two runs of the plain test binary and one of the ASan+UBSan build must be equal.
# Different processes get different memory layouts; a result that depended on an address, on
# uninitialised memory or on insertion order would change the digest.
B=${BUILD:-build}
make --no-print-directory -s BUILD="$B" "$B/test_c" "$B/test_c_asan" >/dev/null || { echo "RESULT passed=0 failed=1"; exit 1; }
passed=0; failed=0
d1=$("$B/test_c" determinism | sed -n 's/^# determinism digest //p')
d2=$("$B/test_c" determinism | sed -n 's/^# determinism digest //p')
d3=$("$B/test_c_asan" determinism | sed -n 's/^# determinism digest //p')
echo "digests: $d1 $d2 $d3"
if [ -n "$d1" ] && [ "$d1" = "$d2" ]; then passed=$((passed + 1)); echo "ok     same digest in two runs"
else failed=$((failed + 1)); echo "not ok same digest in two runs"; fi
if [ -n "$d1" ] && [ "$d1" = "$d3" ]; then passed=$((passed + 1)); echo "ok     same digest with the sanitizer build"
else failed=$((failed + 1)); echo "not ok same digest with the sanitizer build"; fi
# Determinism across machines: no source of the tests, the fuzz harness, the benchmarks, the examples or
# the cross-platform cases (spec/windows/cases.c, run on x86-64 and ARM64 and compared) draws two random
# numbers in one expression whose order C leaves unspecified (spec/c/test.h). First the checker itself
# on a line it must flag and one it must not.
t="$B/draw-order-selftest.c"
mkdir -p "$B"
printf '    p = V(c2d_test_uniform(0, 1), c2d_test_uniform(0, 1));\n    double a = c2d_test_uniform(0, 1), b = c2d_test_uniform(0, 1);\n' > "$t"
if [ "$(awk -f scripts/draw_order.awk "$t")" = "$t:1:     p = V(c2d_test_uniform(0, 1), c2d_test_uniform(0, 1));" ]; then
    passed=$((passed + 1)); echo "ok     the draw-order checker flags two draws in one call and only those"
else failed=$((failed + 1)); echo "not ok the draw-order checker missed two draws in one call, or flagged a declaration"; fi
found=$(awk -f scripts/draw_order.awk spec/c/*.c spec/c/*.h spec/c/*.cpp fuzz/*.c fuzz/*.h bench/*.c bench/*.cpp \
    bench/*.h examples/c/*.c spec/windows/*.c)
if [ -z "$found" ]; then passed=$((passed + 1)); echo "ok     no two random draws in one expression"
else failed=$((failed + 1)); echo "not ok two random draws in one expression (spec/c/test.h):"; echo "$found"; fi
echo "RESULT passed=$passed failed=$failed"
