# The committed fuzz corpus replayed under valgrind's memcheck, through a plain -O2 build of the
# harness (fuzz/replay.c, make fuzz-valgrind): memcheck sees reads of memory that was never written,
# which suite 51's ASan build cannot, and a leak search after each input names the input that lost
# memory. One test per input.
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not found: apt-get install valgrind"; echo "RESULT passed=0 failed=1"; exit 1; }
sh spec/support/ok_lines.sh fuzz-valgrind "${BUILD:-build}/fuzz-valgrind.out"
