# Keeps the reference honest: every symbol the shared library exports needs a "### name" entry in
# docs/c-api.md, and every function of the Lua module one in docs/lua.md. One test per name.
# And every ```c block of docs/c-api.md compiles against include/collide2d.h (snippets with the
# context of spec/docs/prelude.h, with -fsyntax-only), and the blocks that are whole programs build
# and run: spec/docs/c_examples.lua, one test per block. (The Lua examples of docs/lua.md run in
# spec/docs_spec.lua and spec/world_spec.lua.)
B=${BUILD:-build}
make --no-print-directory -s BUILD="$B" all >/dev/null || exit 1
pass=0; fail=0
for sym in $(nm -D --defined-only "$B/libcollide2d.so" | awk '$2 == "T" {sub(/@.*/, "", $3); print $3}' | sort); do
    if grep -q "^### $sym\$" docs/c-api.md; then pass=$((pass + 1)); else echo "not documented in docs/c-api.md: $sym"; fail=$((fail + 1)); fi
done
if [ -f "$B/lua54/collide2d.so" ] && [ -f docs/lua.md ]; then
    for fn in $(LUA_CPATH="$B/lua54/?.so" lua5.4 -e '
        local m = require "collide2d"
        local names = {}
        for k, v in pairs(m) do if type(v) == "function" then names[#names + 1] = k end end
        table.sort(names)
        print(table.concat(names, " "))'); do
        if grep -Eq "^### (collide2d\.|shape:|world:|set:)?$fn\b" docs/lua.md; then pass=$((pass + 1)); else echo "not documented in docs/lua.md: $fn"; fail=$((fail + 1)); fi
    done
fi
out="$B/docs-c-examples"
rm -rf "$out"; mkdir -p "$out"
lua5.4 spec/docs/c_examples.lua docs/c-api.md "$out" "$(cd "$B" && pwd)" > "$out/log" 2>&1
rc=$?
cat "$out/log"
pass=$((pass + $(grep -c '^ok ' "$out/log")))
nf=$(grep -c '^not ok ' "$out/log")
if [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then echo "not ok - spec/docs/c_examples.lua failed (status $rc)"; nf=1; fi
fail=$((fail + nf))
echo "RESULT passed=$pass failed=$fail"
