# spec/support/suite.sh - what the platform suites (40-windows, 41-macos, 42-loader, 43-arm64) share;
# sourced after `set -u`: where the build is ($B, and $abs, the same as an absolute path), the counts
# with ok and fail (bad is its other name), stamp (a line with the seconds since the suite began), and
# finish, which runs the suite's own on_finish (stopping what it started) and reports the counts as
# spec/run.sh reads them; and compare, which checks two outputs of the shared cases line by line.
B=${BUILD:-build}
case $B in /*) abs=$B ;; *) abs="$PWD/$B" ;; esac
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }
bad() { fail "$1"; }
t0=$(date +%s)
stamp() { echo "# $1 ($(( $(date +%s) - t0 )) s)"; }
on_finish() { :; }
finish() {
    on_finish
    stamp "done"
    echo "RESULT passed=$passed failed=$failed"
    [ "$failed" -eq 0 ]
    exit
}

# compare REFERENCE OTHER NAME: the shared cases' outputs compared line by line (spec/windows/compare.lua),
# its ok / not ok lines counted; $work is the suite's scratch folder.
compare() {
    lua5.4 spec/windows/compare.lua "$1" "$2" "$3" > "$work/compare.out" 2>&1
    rc=$?
    cat "$work/compare.out"
    passed=$((passed + $(grep -c '^ok ' "$work/compare.out")))
    nf=$(grep -c '^not ok ' "$work/compare.out")
    [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ] && nf=1
    failed=$((failed + nf))
}
