# The macOS builds (mk/macos.mk), cross-compiled for Apple silicon and Intel and checked here, where
# nothing can run them:
#  - make macos fetches zig 0.11.0 from the npm registry (once; the tarball's sha512 must be the pinned
#    one and zig must say 0.11.0), compiles with zig cc and links with Debian's ld64.lld-14;
#  - for each architecture, with Debian's llvm-objdump-14 and llvm-nm-14: the CPU and file type; the
#    dylib's install name, versions, minimum macOS and only dependency (libSystem); its exports,
#    exactly the c2d_* functions of the Linux .so; the Lua module a bundle exporting luaopen_collide2d
#    alone, linked against no Lua library, its lua_* functions looked up at load time (flat namespace)
#    and all of them ones LuaJIT exports; every other undefined symbol one libSystem's stub lists;
#  - no fused multiply-add instruction anywhere (-ffp-contract=off held; a probe compiled with
#    contraction on shows the search finds them);
#  - arm64: the ad-hoc code signature Apple silicon requires, every page hash recomputed
#    (spec/macos/codesign_check.py);
#  - the same compiler and flags build the shared cases for ARM64 Linux, run under qemu-aarch64: their
#    output must be the Linux gcc build's, bit for bit.
# What stays unverified (running on a Mac, Apple's libm, LÖVE for macOS loading the bundle) is listed
# in docs/platforms.md.
set -u
. spec/support/suite.sh
OBJDUMP=llvm-objdump-14
NM=llvm-nm-14
missing=""
for tool in npm ld64.lld-14 $OBJDUMP $NM qemu-aarch64 python3; do
    command -v $tool >/dev/null 2>&1 || missing="$missing $tool"
done
[ -d /usr/aarch64-linux-gnu/lib ] || missing="$missing libc6-arm64-cross"
if [ -n "$missing" ]; then
    fail "missing:$missing (sh scripts/deps.sh installs npm, lld-14, llvm-14, qemu-user, libc6-arm64-cross)"
    finish
fi

SHLIB=$B/libcollide2d.so.1.0.0
if make --no-print-directory -s -j2 BUILD="$B" macos macos-check-cases "$SHLIB" "$B/cases" > "$B/macos-build.log" 2>&1; then
    ok "make macos: zig $(cat "$B/macos-zig/package/package.json" | sed -n 's/.*"version": "\([^"]*\)".*/\1/p') (pinned sha512 verified) built the library and the Lua module for arm64 and x86_64"
else
    fail "make macos (see $B/macos-build.log)"; tail -n 30 "$B/macos-build.log"
    finish
fi
stamp "built"

linux_exports=$(nm -D --defined-only "$SHLIB" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort)
nlinux=$(echo "$linux_exports" | grep -c .)
luajit_lib=$(ls /usr/lib/*/libluajit-5.1.so.2 2>/dev/null | head -n 1)
luajit_api=$([ -n "$luajit_lib" ] && nm -D --defined-only "$luajit_lib" | awk '{ print $3 }' | sort)
tbd=$B/macos-zig/package/lib/libc/darwin/libSystem.11.tbd
# The Mach header's CPU and file type ("ARM64 DYLIB").
header() { $OBJDUMP --macho --private-header "$1" | awk '$1 ~ /^MH_MAGIC_64/ { print $2, $5 }'; }
# "cmd name" for each dylib load command (LC_ID_DYLIB, LC_LOAD_DYLIB), and the other fields asked for.
loads() { $OBJDUMP --macho --private-headers "$1" | awk '/^ +cmd / { cmd = $2 } /^ +name / && cmd ~ /DYLIB/ { print cmd, $2 }'; }
field() { $OBJDUMP --macho --private-headers "$1" | awk -v k="$2" '$1 == k { print $NF; exit }'; }
# Defined external symbols without Mach-O's leading underscore; undefined ones.
exports() { $NM -gU "$1" | awk '{ sub(/^_/, "", $3); print $3 }' | sort; }
undefs() { $NM -u "$1" | sort; }
# Undefined symbols libSystem's stub does not list (the .tbd names them with their underscore).
not_in_system() { for s in $(undefs "$1" | grep -v '^_luaL\?_'); do grep -q "[' ,\[]$s[' ,]" "$tbd" || echo "$s"; done; }
fmas() { $OBJDUMP -d "$1" | grep -ciE '[[:space:]](fmadd|fmsub|fnmadd|fnmsub|vfn?m(add|sub)[0-9a-z]*)[[:space:]]'; }

for arch in arm64 x86_64; do
    d=$B/macos-$arch
    case $arch in arm64) cpu=ARM64 ;; *) cpu=X86_64 ;; esac
    lib=$d/libcollide2d.1.0.0.dylib
    mod=$d/lua51/collide2d.so
    [ "$(header "$lib")" = "$cpu DYLIB" ] && ok "$arch: $lib is a 64-bit Mach-O $cpu dylib" \
        || fail "$arch: $lib is '$(header "$lib")'"
    l=$(loads "$lib" | tr '\n' ' ')
    [ "$l" = "LC_ID_DYLIB @rpath/libcollide2d.1.dylib LC_LOAD_DYLIB /usr/lib/libSystem.B.dylib " ] \
        && ok "$arch: install name @rpath/libcollide2d.1.dylib, and it loads libSystem alone" || fail "$arch: dylib load commands: $l"
    v="$(field "$lib" current) $(field "$lib" compatibility) $(field "$lib" platform) $(field "$lib" minos)"
    [ "$v" = "1.0.0 1.0.0 macos 11.0" ] && ok "$arch: current and compatibility version 1.0.0, for macOS 11.0 and later" \
        || fail "$arch: versions, platform, minimum: $v"
    e=$(exports "$lib")
    if [ -n "$e" ] && [ "$e" = "$linux_exports" ]; then
        ok "$arch: the dylib exports exactly the $nlinux c2d_* functions of the Linux .so"
    else
        printf '%s\n' "$linux_exports" > "$B/macos-exports.so.txt"
        fail "$arch: the dylib's exports differ from the Linux .so's: $(printf '%s\n' "$e" | diff "$B/macos-exports.so.txt" - | head -n 10 | tr '\n' ' ')"
    fi
    extra=$(not_in_system "$lib" | tr '\n' ' ')
    [ -z "$extra" ] && ok "$arch: the dylib needs only functions libSystem has ($(undefs "$lib" | wc -l))" \
        || fail "$arch: the dylib needs what libSystem's stub lacks: $extra"
    [ -s "$d/libcollide2d.a" ] && [ "$(exports "$d/libcollide2d.a" | grep -c '^c2d_')" -ge "$nlinux" ] \
        && ok "$arch: libcollide2d.a holds the c2d_* functions" || fail "$arch: libcollide2d.a is missing or empty"

    [ "$(header "$mod")" = "$cpu BUNDLE" ] && ok "$arch: $mod is a Mach-O $cpu bundle (a loadable module)" \
        || fail "$arch: $mod is '$(header "$mod")'"
    me=$(exports "$mod" | tr '\n' ' ')
    [ "$me" = "luaopen_collide2d " ] && ok "$arch: the module exports only luaopen_collide2d" || fail "$arch: the module exports $me"
    l=$(loads "$mod" | tr '\n' ' ')
    [ "$l" = "LC_LOAD_DYLIB /usr/lib/libSystem.B.dylib " ] && ok "$arch: the module loads libSystem alone: no Lua library" \
        || fail "$arch: the module's dylib load commands: $l"
    # Every lua_* and luaL_* function is bound by name at load time in the flat namespace, where the
    # LÖVE executable that loads the bundle provides it; and LuaJIT (LÖVE's Lua) must have it.
    binds=$($OBJDUMP --macho --bind --lazy-bind "$mod")
    lua_syms=$(undefs "$mod" | grep '^_luaL\?_' | sed 's/^_//')
    not_flat=$(for s in $lua_syms; do printf '%s\n' "$binds" | grep -q "flat-namespace *_$s\$" || echo "$s"; done | tr '\n' ' ')
    [ -n "$lua_syms" ] && [ -z "$not_flat" ] \
        && ok "$arch: its $(echo "$lua_syms" | wc -l) lua_* functions are looked up at load time (-undefined dynamic_lookup)" \
        || fail "$arch: lua_* functions not bound in the flat namespace: $not_flat"
    lacking=$(printf '%s\n' "$lua_syms" | grep -vxF "$luajit_api" | tr '\n' ' ')
    [ -n "$luajit_api" ] && [ -z "$lacking" ] && ok "$arch: LuaJIT exports every one of them" \
        || fail "$arch: functions LuaJIT lacks (or libluajit-5.1-2 missing): $lacking"
    extra=$(not_in_system "$mod" | tr '\n' ' ')
    [ -z "$extra" ] && ok "$arch: the module's other functions are all libSystem's" \
        || fail "$arch: the module needs what libSystem's stub lacks: $extra"
    n=$(( $(fmas "$lib") + $(fmas "$mod") ))
    [ "$n" -eq 0 ] && ok "$arch: no fused multiply-add instruction in the dylib or the module" \
        || fail "$arch: $n fused multiply-add instructions (results would differ from Linux's in the last bits)"
    if [ $arch = arm64 ]; then
        for f in "$lib" "$mod"; do
            if out=$(python3 spec/macos/codesign_check.py "$f"); then ok "arm64: $(basename "$f"): $out"
            else fail "arm64: $(basename "$f"): $out"; fi
        done
    fi
done

# The FMA search itself: a multiply-add compiled with contraction on must be found.
probe=$abs/macos-check/fma
mkdir -p "$probe"
printf 'double f(double a, double b, double c) { return a * b + c; }\n' > "$probe/fma.c"
zigenv="ZIG_GLOBAL_CACHE_DIR=$abs/macos-zig/cache ZIG_LOCAL_CACHE_DIR=$abs/macos-zig/cache"
if env $zigenv "$B/macos-zig/package/zig" cc -target aarch64-macos.11.0 -O2 -ffp-contract=fast -c "$probe/fma.c" -o "$probe/fma.o" &&
    [ "$(fmas "$probe/fma.o")" -gt 0 ]; then
    ok "the search finds the fmadd of a multiply-add compiled with -ffp-contract=fast"
else
    fail "the fused multiply-add search misses a contracted multiply-add"
fi
stamp "Mach-O files checked"

# The compiler's results: zig cc's ARM64 Linux build of the shared cases under qemu against gcc's build.
"$B/cases" > "$abs/macos-check/cases-linux.txt"
if qemu-aarch64 -L /usr/aarch64-linux-gnu "$B/macos-check/cases-aarch64" > "$abs/macos-check/cases-aarch64.txt" 2>&1 &&
    [ -s "$abs/macos-check/cases-linux.txt" ] && cmp -s "$abs/macos-check/cases-linux.txt" "$abs/macos-check/cases-aarch64.txt"; then
    ok "zig cc's ARM64 build of the shared cases, under qemu-aarch64, prints what gcc's x86_64 build prints ($(wc -l < "$abs/macos-check/cases-linux.txt") lines, every double's bits)"
else
    fail "zig cc's ARM64 cases differ from the Linux build's: $(cmp "$abs/macos-check/cases-linux.txt" "$abs/macos-check/cases-aarch64.txt" 2>&1)"
fi
stamp "cases compared"

# ---- make dist: the macOS folders, and the loader for LÖVE games in every folder --------------------
# (make test's suite 40 has built the Windows files by now; run alone, this builds them.)
if make --no-print-directory -s -j2 BUILD="$B" dist > "$B/macos-dist.log" 2>&1; then
    for arch in arm64 x86_64; do
        p=$B/dist/macos-$arch
        missing=""
        for f in include/collide2d.h lib/libcollide2d.1.0.0.dylib lib/libcollide2d.1.dylib lib/libcollide2d.dylib \
            lib/libcollide2d.a lib/pkgconfig/collide2d.pc lua51/collide2d.so README.md collide2d_loader.lua; do
            [ -e "$p/$f" ] || missing="$missing $f"
        done
        [ -z "$missing" ] && cmp -s "$p/lib/libcollide2d.dylib" "$B/macos-$arch/libcollide2d.1.0.0.dylib" \
            && cmp -s "$p/lua51/collide2d.so" "$B/macos-$arch/lua51/collide2d.so" \
            && ok "make dist lays out macos-$arch (the dylib through its symlinks, the module, the .pc, the header)" \
            || fail "make dist's macos-$arch lacks:$missing"
        grep -q 'Built and checked here, not run' "$p/README.md" && ! grep -q '@[A-Z]*@' "$p/README.md" \
            && ok "macos-$arch/README.md says plainly that the files were not run here" \
            || fail "macos-$arch/README.md does not say they were not run, or has an unfilled @FIELD@"
    done
    without=""
    for d in "$B"/dist/*/; do cmp -s "$d/collide2d_loader.lua" lua/collide2d_loader.lua || without="$without $(basename "$d")"; done
    [ -z "$without" ] && ok "every make dist folder has collide2d_loader.lua ($(ls "$B/dist" | tr '\n' ' '))" \
        || fail "collide2d_loader.lua missing from:$without"
else
    fail "make dist (see $B/macos-dist.log)"; tail -n 20 "$B/macos-dist.log"
fi
stamp "dist checked"
finish
