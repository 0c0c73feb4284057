# The engine in layers: every file of src/ calls only its own layer and the ones below (src/README.md's
# table), and no files call each other in a circle, read from the object files' own symbols by
# scripts/layers.lua. First the checker itself, on two tiny files that call up and round, so that a
# checker that passed everything could not pass here.
B=${BUILD:-build}
command -v lua5.4 >/dev/null 2>&1 || { echo "lua5.4 not found: apt-get install lua5.4"; echo "RESULT passed=0 failed=1"; exit 1; }
make --no-print-directory -s BUILD="$B" all >/dev/null || { echo "RESULT passed=0 failed=1"; exit 1; }
passed=0; failed=0
t="$B/layers-selftest"
rm -rf "$t"; mkdir -p "$t"
printf 'int low_fn(void);\nint high_fn(void) { return low_fn(); }\n' > "$t/high.c"
printf 'int high_fn(void);\nint low_fn(void) { return 1; }\nint low_up(void) { return high_fn(); }\n' > "$t/low.c"
printf '| layer | name | files |\n|---|---|---|\n| 1 | low | `low.c` |\n| 2 | high | `high.c` |\n' > "$t/layers.md"
${CC:-cc} -c "$t/high.c" -o "$t/high.o" && ${CC:-cc} -c "$t/low.c" -o "$t/low.o"
out=$(lua5.4 scripts/layers.lua "$t" "$t/layers.md" 2>&1)
if echo "$out" | grep -q "not ok low.c (layer 1) calls up into high.c (layer 2): high_fn" &&
   echo "$out" | grep -q "not ok circle of calls between high.c, low.c"; then
    passed=$((passed + 1)); echo "ok     the checker names an upward call and a circle"
else
    failed=$((failed + 1)); echo "not ok the checker missed an upward call or a circle:"; echo "$out"
fi
lua5.4 scripts/layers.lua "$B/obj" src/README.md src > "$t/src.log" 2>&1
cat "$t/src.log"
line=$(grep -E '^RESULT passed=[0-9]+ failed=[0-9]+' "$t/src.log" | tail -n 1)
p=$(echo "$line" | sed -E 's/.*passed=([0-9]+).*/\1/'); f=$(echo "$line" | sed -E 's/.*failed=([0-9]+).*/\1/')
[ -n "$line" ] || { p=0; f=1; }
echo "RESULT passed=$((passed + p)) failed=$((failed + f))"
[ $((failed + f)) -eq 0 ]
