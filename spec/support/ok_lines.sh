#!/bin/sh
# spec/support/ok_lines.sh - runs a make target that prints one "ok     ..." or "not ok ..." line per
# check (suites 51 and 53), shows its output, and prints the suite's "RESULT passed=N failed=M" line.
# A target that fails without a "not ok" line (a build failure) counts as one failure.
#   sh spec/support/ok_lines.sh TARGET OUTPUT-FILE
B=${BUILD:-build}
mkdir -p "$B"
make --no-print-directory -s BUILD="$B" "$1" > "$2" 2>&1
rc=$?
cat "$2"
passed=$(grep -c '^ok ' "$2")
failed=$(grep -c '^not ok ' "$2")
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
