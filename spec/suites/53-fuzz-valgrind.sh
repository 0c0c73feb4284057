# The committed fuzz corpus replayed under valgrind's memcheck, through a plain -O2 build of the
# harness (fuzz/replay.c, make fuzz-valgrind): memcheck sees reads of memory that was never written,
# which suite 51's ASan build cannot, and a leak search after each input names the input that lost
# memory. One test per input.
B=${BUILD:-build}
out=$B/fuzz-valgrind.out
mkdir -p "$B"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not found: apt-get install valgrind"; echo "RESULT passed=0 failed=1"; exit 1; }
make --no-print-directory -s BUILD="$B" fuzz-valgrind > "$out" 2>&1
rc=$?
cat "$out"
passed=$(grep -c '^ok ' "$out")
failed=$(grep -c '^not ok ' "$out")
# A build failure reports no lines: count it rather than pass quietly.
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
