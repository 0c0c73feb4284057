#!/bin/sh
# spec/support/busted.sh - runs the busted specs (spec/*_spec.lua) under one Lua interpreter against one
# build of the module; the Lua suites in spec/suites/3*.sh call it. Usage (from the top directory):
#   sh spec/support/busted.sh lua5.4 lua54      # interpreter, module build ($BUILD/<dir>/collide2d.so)
#   sh spec/support/busted.sh lua5.4 lua54-asan asan   # the same, with the sanitizer runtimes preloaded
# LUA_CPATH puts the fresh build first (";;" keeps the default path, where busted's own C modules
# live), so the specs never need an install. Prints busted's "RESULT passed=N failed=M" line.
set -u
lua=$1
dir=$2
build=${BUILD:-build}
case $build in /*) ;; *) build="$PWD/$build" ;; esac
so="$build/$dir/collide2d.so"
command -v "$lua" >/dev/null 2>&1 || { echo "$lua not found: apt-get install $lua"; exit 1; }
command -v busted >/dev/null 2>&1 || { echo "busted not found: apt-get install lua-busted"; exit 1; }
make --no-print-directory -s BUILD="${BUILD:-build}" "${BUILD:-build}/$dir/collide2d.so" || exit 1
# A version-specific variable (LUA_CPATH_5_4) would override LUA_CPATH in Lua 5.4.
unset LUA_CPATH_5_4 LUA_CPATH_5_3 LUA_CPATH_5_2 LUA_INIT LUA_INIT_5_4
export LUA_CPATH="$build/$dir/?.so;;"
if [ "${3:-}" = asan ]; then
    # The interpreter is not instrumented: preload the runtimes the module was built against. Leak
    # checking at exit reports any memory the module and the core lost track of.
    LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
    export LD_PRELOAD ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
fi
# Say which module file the interpreter really loads, so a stale install can never pass for the build,
# and whether LuaJIT's FFI fast path is in place (see spec/suites/31-luajit.sh).
"$lua" -e 'local c = require "collide2d"; for p in package.cpath:gmatch("[^;]+") do local f = p:gsub("%?", "collide2d"); local h = io.open(f) if h then h:close() print("module: " .. f .. " (collide2d " .. c._VERSION .. ", " .. (jit and jit.version or _VERSION) .. (debug.getinfo(c.collide, "S").what == "Lua" and ", FFI fast path" or "") .. ")") break end end' || exit 1
exec busted --lua="$lua"
