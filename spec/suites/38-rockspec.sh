# Packaging of the Lua module: the modules `make lua` builds export luaopen_collide2d alone; the sources
# also compile against LuaJIT's own headers; the committed lua/ffi_chunk.h matches lua/ffi.lua; the
# rockspec lists exactly lua/*.c and src/*.c; and `luarocks make` builds and installs the rock offline
# for Lua 5.4 and 5.1 (from a copy of the sources, so no object files land in the tree), after which
# the installed module loads in Lua 5.4, PUC Lua 5.1 and LuaJIT and answers a collision.
set -u
build=${BUILD:-build}
case $build in /*) abs=$build ;; *) abs="$PWD/$build" ;; esac
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }
command -v luarocks >/dev/null 2>&1 || { echo "luarocks not found: apt-get install luarocks"; exit 1; }
make --no-print-directory -s BUILD="$build" lua || exit 1

for v in 54 51; do
    syms=$(nm -D --defined-only "$build/lua$v/collide2d.so" | awk '{ print $3 }' | tr '\n' ' ')
    [ "$syms" = "luaopen_collide2d " ] && ok "lua$v/collide2d.so exports only luaopen_collide2d" \
        || fail "lua$v/collide2d.so exports: $syms"
done

# LuaJIT 2.1's headers report Lua 5.1 but declare some 5.2 calls: lua/compat.h must cope with both.
if pkg-config --exists luajit 2>/dev/null; then
    if ${CC:-cc} -std=c99 -fsyntax-only -DC2D_STATIC -Wall -Wextra -Wshadow -Wmissing-prototypes \
        -Wstrict-prototypes -Werror -Iinclude $(pkg-config --cflags luajit) lua/*.c; then
        ok "lua/*.c compile warning-free against LuaJIT's own headers too"
    else
        fail "lua/*.c do not compile cleanly against LuaJIT's headers"
    fi
fi

# lua/ffi.lua is compiled in through lua/ffi_chunk.h, which is committed for luarocks' sake (its builtin
# build runs no make): the header must be what the script makes of the Lua file, and the file must parse.
chunk="$abs/ffi_chunk.h"
mkdir -p "$abs"
if awk -v name=ffi_chunk -f scripts/lua2c.awk lua/ffi.lua > "$chunk" && cmp -s "$chunk" lua/ffi_chunk.h; then
    ok "lua/ffi_chunk.h is what scripts/lua2c.awk makes of lua/ffi.lua"
else
    fail "lua/ffi_chunk.h is stale or edited by hand: run make lua/ffi_chunk.h (diff: $chunk)"
fi
# make regenerates the working tree's header when lua/ffi.lua is newer, as it may be in a fresh checkout:
# so check the committed pair too.
if git rev-parse --verify -q HEAD > /dev/null 2>&1; then
    top=$PWD
    committed="$abs/ffi-committed"
    rm -rf "$committed"
    mkdir -p "$committed"
    if git archive HEAD lua/ffi.lua lua/ffi_chunk.h | tar -x -C "$committed" && (cd "$committed" &&
        awk -v name=ffi_chunk -f "$top/scripts/lua2c.awk" lua/ffi.lua | cmp -s - lua/ffi_chunk.h); then
        ok "the committed lua/ffi_chunk.h is what scripts/lua2c.awk makes of the committed lua/ffi.lua"
    else
        fail "the committed lua/ffi_chunk.h does not match the committed lua/ffi.lua"
    fi
fi
if luajit -bl lua/ffi.lua > /dev/null; then
    ok "lua/ffi.lua parses (luajit -bl)"
else
    fail "lua/ffi.lua does not parse"
fi

listed=$(grep -Eo "'(lua|src)/[^']*\.c'" collide2d-scm-1.rockspec | tr -d "'" | sort | tr '\n' ' ')
present=$(ls lua/*.c src/*.c | sort | tr '\n' ' ')
[ "$listed" = "$present" ] && ok "the rockspec lists every lua/*.c and src/*.c" \
    || fail "the rockspec lists [$listed] but lua/ and src/ have [$present]"
luarocks lint collide2d-scm-1.rockspec && ok "luarocks lint accepts the rockspec" || fail "luarocks lint"

work="$abs/rockspec"
rm -rf "$work"
mkdir -p "$work/src"
cp -r collide2d-scm-1.rockspec lua include "$work/"
cp src/*.c src/*.h "$work/src/"
# What an installed module must answer: the circle-circle contact of spec/queries_spec.lua.
probe='local c = require "collide2d"
local nx, ny, depth, x, y = c.circle(0, 0, 1):collide(c.circle(1.5, 0, 1))
assert(c._VERSION == "1.0.0" and nx == 1 and ny == 0 and depth == 0.5 and x == 0.75 and y == 0)'
for v in 5.4 5.1; do
    tree="$work/tree-$v"
    if (cd "$work" && luarocks --lua-version=$v make --tree="$tree" collide2d-scm-1.rockspec); then
        ok "luarocks --lua-version=$v make installs the rock"
    else
        fail "luarocks --lua-version=$v make"
        continue
    fi
    so="$tree/lib/lua/$v/collide2d.so"
    [ -f "$so" ] || { fail "no $so"; continue; }
    # luarocks compiles without -fvisibility=hidden: the core's c2d_* functions are then exported, but
    # the binding's own shared functions stay hidden (lua/binding.h).
    extra=$(nm -D --defined-only "$so" | awk '$3 != "luaopen_collide2d" && $3 !~ /^c2d_/ { print $3 }' \
        | tr '\n' ' ')
    [ -z "$extra" ] && ok "the rock for $v exports no binding function but luaopen_collide2d" \
        || fail "the rock for $v exports binding functions: $extra"
    if [ $v = 5.4 ]; then luas="lua5.4"; else luas="lua5.1 luajit"; fi
    for lua in $luas; do
        if env -u LUA_CPATH_5_4 LUA_CPATH="$tree/lib/lua/$v/?.so" "$lua" -e "$probe"; then
            ok "$lua loads the installed module from $so"
        else
            fail "$lua could not use the installed module $so"
        fi
    done
done
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
