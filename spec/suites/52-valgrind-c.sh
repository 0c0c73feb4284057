# The C tests under valgrind's memcheck, linked against the shared library as users link it: any
# memory error or any block definitely lost fails. The tests' own results count as usual, plus one
# test for the memcheck verdict. Iterations are scaled down (C2D_VALGRIND_SCALE, default 0.03 of the
# plain run) to keep the suite within a few minutes.
B=${BUILD:-build}
make --no-print-directory -s BUILD="$B" "$B/test_c" >/dev/null || { echo "RESULT passed=0 failed=1"; exit 1; }
log=$B/valgrind-c.log
out=$B/valgrind-c.out
C2D_TEST_SCALE=${C2D_VALGRIND_SCALE:-0.03} valgrind --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite --show-leak-kinds=definite --log-file="$log" "$B/test_c" > "$out" 2>&1
rc=$?
cat "$out"
line=$(grep -E '^RESULT passed=[0-9]+ failed=[0-9]+' "$out" | tail -n 1)
p=$(echo "$line" | sed -nE 's/.*passed=([0-9]+).*/\1/p')
f=$(echo "$line" | sed -nE 's/.*failed=([0-9]+).*/\1/p')
[ -n "$p" ] || { p=0; f=1; echo "the test binary reported no result under valgrind"; }
# memcheck's verdict: its exit code (99) and, to be sure, the summary lines of its log.
if [ "$rc" -ne 99 ] && grep -q 'ERROR SUMMARY: 0 errors' "$log" &&
    ! grep -qE 'definitely lost: [1-9]' "$log"; then
    echo "ok     memcheck: no memory errors, nothing definitely lost"
    p=$((p + 1))
else
    echo "not ok memcheck (exit $rc):"
    grep -E '^==[0-9]+== ' "$log" | grep -vE '== (Memcheck|Copyright|Using Valgrind|Command|Parent PID)' | head -n 60
    f=$((f + 1))
fi
echo "RESULT passed=$p failed=$f"
[ "$f" -eq 0 ]
