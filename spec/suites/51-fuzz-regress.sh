# The fuzz harness as a regression test: every committed input of fuzz/corpus replayed through the
# ASan+UBSan libFuzzer build (crash-* inputs reproduce reported library bugs and fail until they are
# fixed), then a short fixed-seed mutation run. One test per input, one for the run (make fuzz-regress).
B=${BUILD:-build}
out=$B/fuzz-regress.out
mkdir -p "$B"
make --no-print-directory -s BUILD="$B" fuzz-regress > "$out" 2>&1
rc=$?
cat "$out"
passed=$(grep -c '^ok ' "$out")
failed=$(grep -c '^not ok ' "$out")
# A build failure or an empty corpus reports no lines: count it rather than pass quietly.
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
