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
echo "RESULT passed=$passed failed=$failed"
