# The busted specs (spec/*_spec.lua) under LuaJIT, against ${BUILD:-build}/lua51/collide2d.so, twice:
# with the FFI fast path LuaJIT gets by default, then with COLLIDE2D_NO_FFI=1 (the C functions, as
# in PUC Lua 5.1). Prints one RESULT line with the sums; a run that exits non-zero without reporting
# a failure counts as one.
set -u
build=${BUILD:-build}
mkdir -p "$build/test-logs"
passed=0
failed=0
for no_ffi in "" 1; do
    log="$build/test-logs/31-luajit${no_ffi:+-no-ffi}.busted.log"
    if [ -n "$no_ffi" ]; then echo "== LuaJIT, COLLIDE2D_NO_FFI=1: the C path"; else echo "== LuaJIT, the FFI fast path"; fi
    COLLIDE2D_NO_FFI=$no_ffi sh spec/support/busted.sh luajit lua51 > "$log" 2>&1
    rc=$?
    grep -v '^RESULT ' "$log"
    line=$(grep -E '^RESULT passed=[0-9]+ failed=[0-9]+' "$log" | tail -n 1)
    p=$(echo "$line" | sed -nE 's/.*passed=([0-9]+).*/\1/p')
    f=$(echo "$line" | sed -nE 's/.*failed=([0-9]+).*/\1/p')
    p=${p:-0}
    f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "busted exited with status $rc without reporting a failure: counted as one"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
