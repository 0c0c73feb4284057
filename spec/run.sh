#!/bin/sh
# Runs every suite in spec/suites/ (in name order) and prints the one closing line CI reads:
# "N passed, N failed". A suite is a shell script run from the top directory; it prints a line
# "RESULT passed=N failed=M" with its own counts. A suite that exits non-zero without reporting a
# failure, or reports nothing, counts as one failure, so a crash can never pass unnoticed.
# Run a subset with: SUITES="10-c 20-c-asan" make test
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"
total_pass=0
total_fail=0
summary=""
if [ -n "${SUITES:-}" ]; then
    list=""; for s in $SUITES; do list="$list spec/suites/$s.sh"; done
else
    list=$(ls spec/suites/*.sh 2>/dev/null | sort)
fi
for suite in $list; do
    name=$(basename "$suite" .sh)
    log="$logdir/$name.log"
    start=$(date +%s)
    echo "=== suite $name"
    sh "$suite" > "$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    # Show the suite's output (bounded) so CI logs explain any failure.
    if [ "$(wc -l < "$log")" -gt 200 ]; then
        head -n 60 "$log"; echo "... ($(wc -l < "$log") lines; full log in $log) ..."; tail -n 100 "$log"
    else
        cat "$log"
    fi
    line=$(grep -E '^RESULT passed=[0-9]+ failed=[0-9]+' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*passed=([0-9]+).*/\1/')
        f=$(echo "$line" | sed -E 's/.*failed=([0-9]+).*/\1/')
    else
        p=0; f=0
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "suite $name exited with status $rc without reporting a failure: counted as one"
        f=1
    fi
    if [ -z "$line" ] && [ "$rc" -eq 0 ]; then
        echo "suite $name reported no result: counted as one failure"
        f=1
    fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    summary="$summary
  $(printf '%-18s %6d passed %4d failed %5ds' "$name" "$p" "$f" "$secs")"
done
echo
echo "suites:$summary"
echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$total_pass" -gt 0 ]
