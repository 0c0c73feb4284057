# The Windows builds (mk/windows.mk), checked and run under Wine:
#  - make windows builds the C library DLL, its import library and the Lua module DLL for 64-bit and
#    32-bit Windows; each DLL exports what the Linux build exports (the library: exactly the c2d_*
#    functions of the .so; the module: luaopen_collide2d alone) and needs nothing beside it but
#    Windows' own DLLs (and, for the module, the Lua 5.1 API of lua51.dll that LuaJIT exports too);
#  - under wine64: the C tests (spec/c/ but the Box2D cross-check, at 1/10 of the iterations), linked
#    against collide2d.dll; PUC Lua 5.1 and LuaJIT for Windows, built from Debian's source packages,
#    loading the module DLL and running the busted specs (spec/windows/mini_busted.lua: describe/it and
#    luassert, since busted's C modules do not exist for Windows); LuaJIT finding it beside its .exe
#    as a fused LÖVE game does;
#  - the shared cases (spec/windows/cases.c and cases.lua) on Linux and on Windows, compared line by
#    line, bit for bit, turned shapes too (they turn with the library's own sine and cosine); and the C
#    tests' determinism digest, over random angles, against Linux's. The 32-bit builds are not run
#    (that needs i386 wine32).
# The cross-built Lua and the Wine prefix stay in the build tree, so only the first run pays for them.
set -u
. spec/support/suite.sh

WINE=${WINE:-$(command -v wine64 || echo /usr/lib/wine/wine64)}
WINESERVER=${WINESERVER:-$(command -v wineserver || echo /usr/lib/wine/wineserver64)}
export WINEPREFIX="$abs/windows-wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
on_finish() {
    # The wineserver this suite started (one per prefix) would linger for a few seconds; stop it now.
    [ -x "$WINESERVER" ] && [ -d "$WINEPREFIX" ] && "$WINESERVER" -k 2>/dev/null
    :
}

missing=""
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing="$missing gcc-mingw-w64-x86-64-win32"
command -v i686-w64-mingw32-gcc >/dev/null 2>&1 || missing="$missing gcc-mingw-w64-i686-win32"
[ -x "$WINE" ] || missing="$missing wine64"
command -v dpkg-source >/dev/null 2>&1 || missing="$missing dpkg-dev"
if [ -n "$missing" ]; then
    bad "the Windows toolchain is installed (run as root: apt-get install$missing, or sh scripts/deps.sh)"
    finish
fi

SHLIB=$B/libcollide2d.so.1.0.0
mkdir -p "$B"
if make --no-print-directory -s -j"$(nproc 2>/dev/null || echo 2)" BUILD="$B" windows windows-lua windows-tests "$B/cases" "$B/lua51/collide2d.so" \
    "$SHLIB" > "$B/windows-build.log" 2>&1; then
    ok "make windows builds collide2d.dll, its import library and the Lua module DLL for x86_64 and i686"
else
    bad "make windows (see $B/windows-build.log)"; tail -n 30 "$B/windows-build.log"
    finish
fi
lua_version=$(sed -n '1s/^lua5\.1 (\([^)]*\)).*/\1/p' "$B/windows-src/lua5.1/debian/changelog" 2>/dev/null)
stamp "built; PUC Lua for Windows from Debian's lua5.1 source package ${lua_version:-?}"

# ---- exports and imports ---------------------------------------------------------------------------
# Names in a PE file's export table, one a line, sorted.
dll_exports() { "$1" -p "$2" | sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' | awk '/^[ \t]*\[ *[0-9]+\]/ { print $NF }' | sort; }
# "DLL function" for each import, one a line.
dll_imports() {
    "$1" -p "$2" | awk '/DLL Name:/ { dll = $3; next } /^[ \t]*$/ { dll = "" }
        dll != "" && $1 ~ /^[0-9a-f]+$/ && NF >= 3 { print dll, $NF }'
}
linux_exports=$(nm -D --defined-only "$SHLIB" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort)
nlinux=$(echo "$linux_exports" | grep -c .)
luajit_lib=$(ls /usr/lib/*/libluajit-5.1.so.2 2>/dev/null | head -n 1)
luajit_api=$([ -n "$luajit_lib" ] && nm -D --defined-only "$luajit_lib" | awk '{ print $3 }' | sort)
for arch in x86_64 i686; do
    case $arch in x86_64) dir=$B/windows ;; *) dir=$B/windows-i686 ;; esac
    od=$arch-w64-mingw32-objdump
    exports=$(dll_exports $od "$dir/collide2d.dll")
    if [ -n "$exports" ] && [ "$exports" = "$linux_exports" ]; then
        ok "$arch collide2d.dll exports exactly the $nlinux c2d_* functions of the Linux .so"
    else
        bad "$arch collide2d.dll exports differ from the .so:"
        printf '%s\n' "$linux_exports" > "$B/windows-exports.so.txt"
        printf '%s\n' "$exports" | diff "$B/windows-exports.so.txt" - | head -n 20
    fi
    dlls=$(dll_imports $od "$dir/collide2d.dll" | awk '{ print $1 }' | sort -u | tr '\n' ' ')
    [ "$dlls" = "KERNEL32.dll msvcrt.dll " ] && ok "$arch collide2d.dll needs only Windows' KERNEL32.dll and msvcrt.dll" \
        || bad "$arch collide2d.dll imports from: $dlls"
    [ -s "$dir/libcollide2d.dll.a" ] && [ -s "$dir/collide2d.def" ] && cmp -s "$dir/include/collide2d.h" include/collide2d.h \
        && ok "$arch: import library, .def and header are beside the DLL" \
        || bad "$arch: import library, .def or header missing from $dir"

    mod=$dir/lua51/collide2d.dll
    mexports=$(dll_exports $od "$mod" | tr '\n' ' ')
    [ "$mexports" = "luaopen_collide2d " ] && ok "$arch lua51/collide2d.dll exports only luaopen_collide2d" \
        || bad "$arch lua51/collide2d.dll exports: $mexports"
    dlls=$(dll_imports $od "$mod" | awk '{ print $1 }' | sort -u | tr '\n' ' ')
    [ "$dlls" = "KERNEL32.dll lua51.dll msvcrt.dll " ] && ok "$arch lua51/collide2d.dll needs only KERNEL32.dll, msvcrt.dll and lua51.dll" \
        || bad "$arch lua51/collide2d.dll imports from: $dlls"
    # LÖVE's and LuaJIT's lua51.dll is LuaJIT: every function taken from lua51.dll must be one LuaJIT
    # exports (its Linux library exports the same C API).
    lua_imports=$(dll_imports $od "$mod" | awk '$1 == "lua51.dll" { print $2 }' | sort)
    if [ -z "$luajit_api" ]; then
        bad "$arch: LuaJIT's library (libluajit-5.1-2) not found to check the module's imports against"
    else
        extra=$(printf '%s\n' "$lua_imports" | grep -vxF "$luajit_api")
        [ -n "$lua_imports" ] && [ -z "$extra" ] \
            && ok "$arch lua51/collide2d.dll takes from lua51.dll only functions LuaJIT exports ($(echo "$lua_imports" | wc -l))" \
            || bad "$arch lua51/collide2d.dll imports from lua51.dll what LuaJIT lacks: $extra"
    fi
done
stamp "exports checked"

# ---- Wine: one prefix in the build tree, made once -------------------------------------------------
if [ ! -f "$WINEPREFIX/.collide2d-ready" ]; then
    rm -rf "$WINEPREFIX"
    if "$WINE" wineboot -i > "$B/windows-wineboot.log" 2>&1 && "$WINESERVER" -w; then
        touch "$WINEPREFIX/.collide2d-ready"
    else
        bad "wineboot could not make the Wine prefix $WINEPREFIX"; tail -n 20 "$B/windows-wineboot.log"
        finish
    fi
    stamp "made the Wine prefix"
fi
# Windows programs print CRLF line ends.
wine_run() { "$WINE" "$@" | tr -d '\r'; }

# ---- the C tests against collide2d.dll -------------------------------------------------------------
out=$B/windows-test_c.out
C2D_TEST_SCALE=${C2D_WINDOWS_SCALE:-0.1} wine_run "$B/windows/test/test_c.exe" > "$out" 2>&1
count_result "test_c.exe under Wine" "$out"
# Its determinism digest covers every kind of result over a scene with random angles: the Windows
# build must give Linux's, to the last bit.
d1=$(sed -n 's/^# determinism digest //p' "$out")
make --no-print-directory -s BUILD="$B" "$B/test_c" > /dev/null 2>&1
d2=$("$B/test_c" determinism | sed -n 's/^# determinism digest //p')
[ -n "$d1" ] && [ "$d1" = "$d2" ] && ok "test_c.exe gives Linux's determinism digest ($d1)" \
    || bad "determinism digests differ: Windows '$d1', Linux '$d2'"
stamp "C tests run"

# ---- the shared cases, C: Linux against Windows ----------------------------------------------------
work=$abs/windows-check
rm -rf "$work" && mkdir -p "$work"
"$B/cases" > "$work/cases-linux.txt"
wine_run "$B/windows/test/cases.exe" > "$work/cases-windows.txt"
compare "$work/cases-linux.txt" "$work/cases-windows.txt" "C cases, collide2d.dll under Wine vs libcollide2d.so"

# The comparison itself must catch a difference: one bit of one unturned number, and of a turned one.
awk 'done == 0 && $1 == "exact" && NF > 5 { n = $4; last = substr(n, 16, 1); $4 = substr(n, 1, 15) (last == "0" ? "1" : "0"); done = 1 } { print }' \
    "$work/cases-linux.txt" > "$work/cases-flipped.txt"
if lua5.4 spec/windows/compare.lua "$work/cases-linux.txt" "$work/cases-flipped.txt" self > /dev/null 2>&1; then
    bad "the comparison misses a one-bit change in an unturned result"
else ok "the comparison catches a one-bit change in an unturned result"; fi
awk 'done == 0 && $1 == "turned" && NF > 5 { n = $4; last = substr(n, 16, 1); $4 = substr(n, 1, 15) (last == "0" ? "1" : "0"); done = 1 } { print }' \
    "$work/cases-linux.txt" > "$work/cases-nudged.txt"
if cmp -s "$work/cases-linux.txt" "$work/cases-nudged.txt" || \
    lua5.4 spec/windows/compare.lua "$work/cases-linux.txt" "$work/cases-nudged.txt" self > /dev/null 2>&1; then
    bad "the comparison misses a one-bit change in a turned result"
else ok "the comparison catches a one-bit change in a turned result"; fi
stamp "C cases compared"

# ---- make dist: the release layout, and each package used the way its README says -----------------
host=$(uname -s | tr A-Z a-z)-$(uname -m)
if make --no-print-directory -s BUILD="$B" dist > "$B/windows-dist.log" 2>&1; then
    missing=""
    for f in $host/include/collide2d.h $host/lib/libcollide2d.so.1.0.0 $host/lib/libcollide2d.so.1 \
        $host/lib/libcollide2d.so $host/lib/libcollide2d.a $host/lib/pkgconfig/collide2d.pc $host/lua51/collide2d.so \
        $host/lua54/collide2d.so $host/README.md; do
        [ -e "$B/dist/$f" ] || missing="$missing $f"
    done
    for arch in x86_64 i686; do
        for f in bin/collide2d.dll lib/libcollide2d.dll.a lib/collide2d.def lib/pkgconfig/collide2d.pc \
            include/collide2d.h lua51/collide2d.dll README.md; do
            [ -e "$B/dist/windows-$arch/$f" ] || missing="$missing windows-$arch/$f"
        done
    done
    [ -z "$missing" ] && ok "make dist lays out $host, windows-x86_64 and windows-i686 in $B/dist" \
        || bad "make dist left out:$missing"
    # Each package builds the cases program from its own folder through its .pc file (which finds its
    # folder wherever the package was unpacked), and the program answers as the build tree's did.
    d=$work/dist
    mkdir -p "$d/windows"
    pc() { PKG_CONFIG_PATH="$abs/dist/$1/lib/pkgconfig" pkg-config --cflags --libs collide2d; }
    if ${CC:-cc} -std=c99 -O2 -o "$d/cases" spec/windows/cases.c $(pc "$host") -Wl,-rpath,"$abs/dist/$host/lib" &&
        "$d/cases" | cmp -s - "$work/cases-linux.txt"; then
        ok "the $host package builds and runs a C program through its own collide2d.pc"
    else bad "the $host package does not build and run a C program through its collide2d.pc"; fi
    cp "$B/dist/windows-x86_64/bin/collide2d.dll" "$d/windows/"
    if x86_64-w64-mingw32-gcc -std=c99 -O2 -o "$d/windows/cases.exe" spec/windows/cases.c $(pc windows-x86_64) &&
        wine_run "$d/windows/cases.exe" | cmp -s - "$work/cases-windows.txt"; then
        ok "the windows-x86_64 package builds (mingw-w64, its collide2d.pc) and runs a C program under Wine"
    else bad "the windows-x86_64 package does not build and run a C program"; fi
else
    bad "make dist (see $B/windows-dist.log)"; tail -n 20 "$B/windows-dist.log"
fi
stamp "dist checked"

# ---- Lua: the module DLL in PUC Lua 5.1 and in LuaJIT for Windows ---------------------------------
# PUC Lua's lua.exe uses the lua51.dll built beside it; luajit.exe uses LuaJIT's lua51.dll, the file
# LÖVE ships. The module, linked against "lua51.dll", must work with both.
puc=$B/windows/lua5.1/lua.exe
lj=$B/windows/luajit/luajit.exe
moddir=$B/windows/lua51
lua_suite_setup
check_load() { # exe, expected output, what
    loaded=$(LUA_CPATH="$moddir/?.dll" wine_run "$1" -e "$probe" 2>&1)
    printf '   %s\n' "$loaded"
    [ "$loaded" = "$2" ] && ok "$3" || bad "$3: got '$loaded'"
}
check_load "$puc" "$moddir/collide2d.dll (collide2d 1.0.0, Lua 5.1)" \
    "PUC Lua 5.1's lua.exe loads $moddir/collide2d.dll, which answers"
check_load "$lj" "$moddir/collide2d.dll (collide2d 1.0.0, LuaJIT 2.1.0-beta3, FFI fast path)" \
    "LuaJIT's luajit.exe and lua51.dll load it with the FFI fast path, which answers"
COLLIDE2D_NO_FFI=1 check_load "$lj" "$moddir/collide2d.dll (collide2d 1.0.0, LuaJIT 2.1.0-beta3)" \
    "with COLLIDE2D_NO_FFI=1 LuaJIT keeps the C functions, which answer"

# A fused LÖVE game finds C modules beside its .exe through package.cpath's "!\?.dll", the
# executable's folder (LuaJIT's default path, as PUC Lua's): with no LUA_CPATH and run from another
# directory, luajit.exe must find the copy beside it.
mkdir -p "$work/game"
cp "$lj" "$B/windows/luajit/lua51.dll" "$moddir/collide2d.dll" "$work/game/"
loaded=$(cd / && env -u LUA_CPATH -u LUA_PATH "$WINE" "$work/game/luajit.exe" -e "$probe" 2>&1 | tr -d '\r')
printf '   %s\n' "$loaded"
case $loaded in
    *'windows-check\game\collide2d.dll (collide2d 1.0.0, LuaJIT '*) ok "with no LUA_CPATH, LuaJIT finds collide2d.dll beside its .exe (package.cpath's !\\?.dll), as a fused LÖVE game does" ;;
    *) bad "LuaJIT did not find collide2d.dll beside its .exe: $loaded" ;;
esac

# The busted specs with the module DLL: every file in PUC Lua 5.1; in LuaJIT, those that exercise
# the FFI fast path and the queries it wraps (the suites 31 and 32 run all of them in both on Linux).
LUA_PATH="./?.lua;$luassert_path" LUA_CPATH="$moddir/?.dll" wine_run "$puc" spec/windows/mini_busted.lua spec/*_spec.lua \
    > "$work/specs-puc.out" 2>&1
count_result "spec/*_spec.lua in PUC Lua 5.1 for Windows" "$work/specs-puc.out"
stamp "PUC Lua specs run"
LUA_PATH="./?.lua;$luassert_path" LUA_CPATH="$moddir/?.dll" wine_run "$lj" spec/windows/mini_busted.lua \
    spec/ffi_spec.lua spec/queries_spec.lua spec/sweep_spec.lua > "$work/specs-luajit.out" 2>&1
count_result "ffi, queries and sweep specs in LuaJIT for Windows" "$work/specs-luajit.out"
stamp "LuaJIT specs run"

# The shared cases from Lua: Linux PUC Lua 5.1 is the reference; LuaJIT on Linux, and PUC Lua and
# LuaJIT (with and without the FFI fast path) on Windows, are compared with it.
LUA_CPATH="$abs/lua51/?.so" lua5.1 spec/windows/cases.lua > "$work/lua-linux.txt" 2>&1
LUA_CPATH="$abs/lua51/?.so" luajit spec/windows/cases.lua > "$work/luajit-linux.txt" 2>&1
LUA_CPATH="$moddir/?.dll" wine_run "$puc" spec/windows/cases.lua > "$work/lua-windows.txt" 2>&1
LUA_CPATH="$moddir/?.dll" wine_run "$lj" spec/windows/cases.lua > "$work/luajit-windows.txt" 2>&1
COLLIDE2D_NO_FFI=1 LUA_CPATH="$moddir/?.dll" wine_run "$lj" spec/windows/cases.lua > "$work/luajit-c-windows.txt" 2>&1
compare "$work/lua-linux.txt" "$work/luajit-linux.txt" "Lua cases, LuaJIT vs PUC Lua 5.1 on Linux"
compare "$work/lua-linux.txt" "$work/lua-windows.txt" "Lua cases, PUC Lua 5.1 for Windows vs Linux"
compare "$work/lua-linux.txt" "$work/luajit-windows.txt" "Lua cases, LuaJIT for Windows (FFI fast path) vs Linux"
compare "$work/lua-linux.txt" "$work/luajit-c-windows.txt" "Lua cases, LuaJIT for Windows (COLLIDE2D_NO_FFI=1) vs Linux"
finish
