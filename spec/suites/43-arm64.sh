# Linux on ARM64 (mk/arm64.mk), cross-built with Debian's gcc-aarch64-linux-gnu and run under
# qemu-user's qemu-aarch64 (-L /usr/aarch64-linux-gnu: the cross toolchain's ARM64 C library; no
# binfmt_misc, no multiarch):
#  - make arm64: libcollide2d.so exports exactly what the x86_64 .so exports, under the same SONAME and
#    version node, and needs only libc and libm; each Lua module exports luaopen_collide2d alone; none
#    has a fused multiply-add instruction (-ffp-contract=off; GCC for ARM64 fuses by default);
#  - the C tests (spec/c/ but the Box2D cross-check, at 3/100 of the iterations: qemu runs them about 15
#    times slower), linked -static against libcollide2d.a and a GMP cross-built from Debian's source;
#    and their determinism digest against this machine's, to the last bit;
#  - the shared cases (spec/windows/cases.c through libcollide2d.so, cases.lua through the modules)
#    against this machine's, line by line, bit for bit: PUC Lua 5.1, LuaJIT (FFI fast path and C
#    functions) and Lua 5.4 for ARM64, built from Debian's source packages. LuaJIT's ARM64 JIT fuses
#    a * b + c in compiled Lua code into one rounding (fmadd): that changes cases.lua's own arithmetic
#    (the inputs it hands the module), so LuaJIT is compared with operand fusion off (-O-fuse), every
#    other optimisation on; its default run is reported, not compared (docs/platforms.md);
#  - the busted specs in ARM64 PUC Lua 5.1 (but garbage_spec: 100,000-call loops, 5 minutes under
#    qemu) and the FFI, query and sweep specs in ARM64 LuaJIT, through spec/windows/mini_busted.lua;
#  - make dist-arm64: linux-aarch64/ laid out as the host's folder, a C program built through its own
#    collide2d.pc and its Lua module loaded as its README says.
# The C tests run in the background while the interpreters build and the Lua checks run: once built, the
# suite takes about 55 s on two idle cores; on a fresh clone, which first fetches four source packages
# and cross-builds them and GMP, about 2 minutes.
set -u
. spec/support/suite.sh
testc_pid=""
on_finish() {
    [ -n "$testc_pid" ] && kill "$testc_pid" 2>/dev/null
    :
}

SYSROOT=/usr/aarch64-linux-gnu
QEMU=${QEMU_AARCH64:-qemu-aarch64}
arm() { "$QEMU" -L "$SYSROOT" "$@"; }

missing=""
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing="$missing gcc-aarch64-linux-gnu"
[ -f "$SYSROOT/include/stdio.h" ] || missing="$missing libc6-dev-arm64-cross"
command -v "$QEMU" >/dev/null 2>&1 || missing="$missing qemu-user"
command -v dpkg-source >/dev/null 2>&1 || missing="$missing dpkg-dev"
command -v m4 >/dev/null 2>&1 || missing="$missing m4"
if [ -n "$missing" ]; then
    bad "the ARM64 toolchain is installed (run as root: apt-get install$missing, or sh scripts/deps.sh)"
    finish
fi

SHLIB=$B/libcollide2d.so.1.0.0
A=$B/arm64
mkdir -p "$B"
# The libraries and the C tests first, which then run in the background while the interpreters build
# (on a fresh clone LuaJIT's cross-build takes a minute) and the Lua checks run.
if make --no-print-directory -s -j2 BUILD="$B" arm64 arm64-tests "$B/cases" "$B/test_c" \
    "$B/lua51/collide2d.so" "$B/lua54/collide2d.so" "$SHLIB" > "$B/arm64-build.log" 2>&1; then
    ok "make arm64 cross-builds libcollide2d.so, libcollide2d.a and the Lua modules for aarch64 (arm64-tests: the C tests, with GMP)"
else
    bad "make arm64 arm64-tests (see $B/arm64-build.log)"; tail -n 30 "$B/arm64-build.log"
    finish
fi
stamp "libraries and tests built"
out=$B/arm64-test_c.out
# qemu itself in the background (not through a function, whose subshell's pid finish would stop).
C2D_TEST_SCALE=${C2D_ARM64_SCALE:-0.03} "$QEMU" -L "$SYSROOT" "$A/test/test_c" > "$out" 2>&1 &
testc_pid=$!
if make --no-print-directory -s -j2 BUILD="$B" arm64-lua >> "$B/arm64-build.log" 2>&1; then
    ok "make arm64-lua builds PUC Lua 5.1, Lua 5.4 and LuaJIT for aarch64"
else
    bad "make arm64-lua (see $B/arm64-build.log)"; tail -n 30 "$B/arm64-build.log"
    finish
fi
versions=""
for p in lua5.1 lua5.4 luajit gmp; do
    v=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$B/arm64-src/$p/debian/changelog" 2>/dev/null)
    versions="$versions $p ${v:-?}"
done
stamp "interpreters built; from Debian's source packages:$versions"

# ---- the files: machine, exports, needs -------------------------------------------------------------
notarm=""
for f in "$A/libcollide2d.so.1.0.0" "$A/lua51/collide2d.so" "$A/lua54/collide2d.so" "$A/test/test_c" "$A/test/cases" \
    "$A/lua5.1/lua" "$A/lua5.4/lua" "$A/luajit/luajit"; do
    readelf -h "$f" 2>/dev/null | grep -q 'Machine: *AArch64' || notarm="$notarm $f"
done
[ -z "$notarm" ] && ok "the library, the modules, the interpreters and the tests are AArch64 ELF files" \
    || bad "not AArch64:$notarm"
nm_arm=aarch64-linux-gnu-nm
exports() { "$1" -D --defined-only "$2" | awk '$2 == "T" { print $3 }' | sort; }
host_exports=$(exports nm "$SHLIB")
arm_exports=$(exports $nm_arm "$A/libcollide2d.so.1.0.0")
nexports=$(echo "$host_exports" | grep -c .)
if [ "$nexports" -gt 0 ] && [ "$arm_exports" = "$host_exports" ]; then
    ok "the ARM64 libcollide2d.so exports exactly the $nexports c2d_* functions of the x86_64 one, in version node $(echo "$arm_exports" | sed -n '1s/.*@@*//p')"
else
    bad "ARM64 exports differ from x86_64's:"
    printf '%s\n' "$host_exports" > "$B/arm64-exports.host.txt"
    printf '%s\n' "$arm_exports" | diff "$B/arm64-exports.host.txt" - | head -n 20
fi
dyn() { readelf -d "$1" | sed -n "s/.*($2).*\[\(.*\)\]/\1/p" | sort | tr '\n' ' ' | sed 's/ $//'; }
soname=$(dyn "$A/libcollide2d.so.1.0.0" SONAME)
needed=$(dyn "$A/libcollide2d.so.1.0.0" NEEDED)
[ "$soname" = "$(dyn "$SHLIB" SONAME)" ] && [ "$needed" = "$(dyn "$SHLIB" NEEDED)" ] \
    && ok "its SONAME is $soname, and it needs what the x86_64 one needs: $needed" \
    || bad "SONAME '$soname' or needs '$needed' differ from x86_64's"
[ "$(readlink "$A/libcollide2d.so.1")" = libcollide2d.so.1.0.0 ] && [ "$(readlink "$A/libcollide2d.so")" = libcollide2d.so.1 ] \
    && ok "libcollide2d.so.1 and libcollide2d.so link to it" || bad "the symlinks beside the ARM64 library are wrong"
for v in lua51 lua54; do
    mexports=$(exports $nm_arm "$A/$v/collide2d.so" | tr '\n' ' ')
    mneeded=$(dyn "$A/$v/collide2d.so" NEEDED)
    [ "$mexports" = "luaopen_collide2d " ] && ok "$v/collide2d.so exports only luaopen_collide2d" \
        || bad "$v/collide2d.so exports: $mexports"
    case " $mneeded " in
        *' libc.so.6 '*) extra=$(echo "$mneeded" | tr ' ' '\n' | grep -vxE 'libc\.so\.6|libm\.so\.6' | tr '\n' ' ') ;;
        *) extra="(no libc) $mneeded" ;;
    esac
    [ -z "$extra" ] && ok "$v/collide2d.so needs only libc and libm (no Lua library): $mneeded" \
        || bad "$v/collide2d.so needs $extra"
done
# No fused multiply-add anywhere in the library or the modules (-ffp-contract=off): GCC for ARM64 fuses
# by default, and each fmadd would round differently from x86_64's multiply and add.
fused=""; nmul=0
for f in "$A/libcollide2d.so.1.0.0" "$A/lua51/collide2d.so" "$A/lua54/collide2d.so"; do
    dis=$(aarch64-linux-gnu-objdump -d "$f")
    n=$(printf '%s\n' "$dis" | grep -cE '\s(fmadd|fmsub|fnmadd|fnmsub|fmla|fmls)\s')
    [ "$n" -eq 0 ] || fused="$fused $f: $n"
    nmul=$((nmul + $(printf '%s\n' "$dis" | grep -cE '\sfmul\s')))
done
[ -z "$fused" ] && [ "$nmul" -gt 0 ] && ok "no fused multiply-add instruction in the ARM64 library or modules ($nmul multiplies)" \
    || bad "fused multiply-adds in:$fused"
stamp "files checked"

# ---- the shared cases, C: x86_64 against ARM64 -------------------------------------------------------
work=$abs/arm64-check
rm -rf "$work" && mkdir -p "$work"
"$B/cases" > "$work/cases-x86_64.txt"
arm "$A/test/cases" > "$work/cases-arm64.txt" 2>&1
compare "$work/cases-x86_64.txt" "$work/cases-arm64.txt" "C cases, ARM64 libcollide2d.so under qemu vs x86_64"
stamp "C cases compared"

# ---- Lua: the modules in the ARM64 interpreters -----------------------------------------------------
lua51=$A/lua5.1/lua
lua54=$A/lua5.4/lua
lj=$A/luajit/luajit
lua_suite_setup
check_load() { # module dir, expected output, what, interpreter...
    dir=$1; want=$2; what=$3; shift 3
    loaded=$(LUA_CPATH="$dir/?.so" arm "$@" -e "$probe" 2>&1)
    printf '   %s\n' "$loaded"
    [ "$loaded" = "$want" ] && ok "$what" || bad "$what: got '$loaded'"
}
check_load "$A/lua51" "$A/lua51/collide2d.so (collide2d 1.0.0, Lua 5.1)" \
    "ARM64 PUC Lua 5.1 loads lua51/collide2d.so, which answers" "$lua51"
check_load "$A/lua51" "$A/lua51/collide2d.so (collide2d 1.0.0, LuaJIT 2.1.0-beta3, FFI fast path)" \
    "ARM64 LuaJIT loads it with the FFI fast path, which answers" "$lj"
COLLIDE2D_NO_FFI=1 check_load "$A/lua51" "$A/lua51/collide2d.so (collide2d 1.0.0, LuaJIT 2.1.0-beta3)" \
    "with COLLIDE2D_NO_FFI=1 ARM64 LuaJIT keeps the C functions, which answer" "$lj"
check_load "$A/lua54" "$A/lua54/collide2d.so (collide2d 1.0.0, Lua 5.4)" \
    "ARM64 Lua 5.4 loads lua54/collide2d.so, which answers" "$lua54"

# The shared cases from Lua: this machine's PUC Lua 5.1 and Lua 5.4 are the references.
LUA_CPATH="$abs/lua51/?.so" lua5.1 spec/windows/cases.lua > "$work/lua51-x86_64.txt" 2>&1
LUA_CPATH="$abs/lua54/?.so" lua5.4 spec/windows/cases.lua > "$work/lua54-x86_64.txt" 2>&1
LUA_CPATH="$A/lua51/?.so" arm "$lua51" spec/windows/cases.lua > "$work/lua51-arm64.txt" 2>&1
LUA_CPATH="$A/lua54/?.so" arm "$lua54" spec/windows/cases.lua > "$work/lua54-arm64.txt" 2>&1
LUA_CPATH="$A/lua51/?.so" arm "$lj" -O-fuse spec/windows/cases.lua > "$work/luajit-arm64.txt" 2>&1
COLLIDE2D_NO_FFI=1 LUA_CPATH="$A/lua51/?.so" arm "$lj" -O-fuse spec/windows/cases.lua > "$work/luajit-c-arm64.txt" 2>&1
compare "$work/lua51-x86_64.txt" "$work/lua51-arm64.txt" "Lua cases, ARM64 PUC Lua 5.1 vs x86_64"
compare "$work/lua54-x86_64.txt" "$work/lua54-arm64.txt" "Lua cases, ARM64 Lua 5.4 vs x86_64"
compare "$work/lua51-x86_64.txt" "$work/luajit-arm64.txt" "Lua cases, ARM64 LuaJIT -O-fuse (FFI fast path, compiled) vs x86_64 PUC Lua 5.1"
compare "$work/lua51-x86_64.txt" "$work/luajit-c-arm64.txt" "Lua cases, ARM64 LuaJIT -O-fuse (COLLIDE2D_NO_FFI=1) vs x86_64 PUC Lua 5.1"

# LuaJIT as it starts by default: its JIT fuses a * b + c in compiled Lua code. Reported, not compared:
# the script's own arithmetic (its shapes' coordinates, its random stream) rounds once instead of twice
# there, so the module is handed other numbers. The switch a game would use, jit.opt.start("-fuse"),
# must make compiled Lua arithmetic round as the interpreter's: s * 10 - 1 over a table, in a hot loop.
fma_probe='local t, r = {0.1, 0.7, 0.3, 0.9}, {}
for i = 1, 400 do local s = t[i % 4 + 1]; r[i] = s * 10 - 1 end
jit.off(); local n = 0
for i = 1, 400 do local s = t[i % 4 + 1]; if r[i] ~= s * 10 - 1 then n = n + 1 end end
io.write(n)'
fused=$(arm "$lj" -e "$fma_probe" 2>&1)
unfused=$(arm "$lj" -e "jit.opt.start('-fuse') $fma_probe" 2>&1)
[ "$unfused" = 0 ] && ok "with jit.opt.start('-fuse') ARM64 LuaJIT's compiled Lua arithmetic rounds as its interpreter (by default $fused of 400 results of s * 10 - 1 were fused)" \
    || bad "ARM64 LuaJIT with jit.opt.start('-fuse'): $unfused of 400 compiled results differ from the interpreter's"
LUA_CPATH="$A/lua51/?.so" arm "$lj" spec/windows/cases.lua > "$work/luajit-fused-arm64.txt" 2>&1
same=$(paste -d '\n' "$work/lua51-x86_64.txt" "$work/luajit-fused-arm64.txt" | awk 'NR % 2 { a = $0; next } a == $0 { n++ } END { print n + 0 }')
echo "# ARM64 LuaJIT with its default optimisations (fused): $same of $(wc -l < "$work/lua51-x86_64.txt") lines of the Lua cases are x86_64's"
stamp "Lua cases compared"

# The busted specs with the ARM64 modules.
specs=$(ls spec/*_spec.lua | grep -v garbage_spec)
LUA_PATH="./?.lua;$luassert_path" LUA_CPATH="$A/lua51/?.so" arm "$lua51" spec/windows/mini_busted.lua $specs \
    > "$work/specs-lua51.out" 2>&1
count_result "spec/*_spec.lua but garbage_spec in ARM64 PUC Lua 5.1" "$work/specs-lua51.out"
LUA_PATH="./?.lua;$luassert_path" LUA_CPATH="$A/lua51/?.so" arm "$lj" spec/windows/mini_busted.lua \
    spec/ffi_spec.lua spec/queries_spec.lua spec/sweep_spec.lua > "$work/specs-luajit.out" 2>&1
count_result "ffi, queries and sweep specs in ARM64 LuaJIT" "$work/specs-luajit.out"
stamp "specs run"

# ---- make dist-arm64: the package, used the way its README says ------------------------------------
d=$B/dist/linux-aarch64
if make --no-print-directory -s BUILD="$B" dist-arm64 > "$B/arm64-dist.log" 2>&1; then
    missing=""
    for f in include/collide2d.h lib/libcollide2d.so.1.0.0 lib/libcollide2d.so.1 lib/libcollide2d.so \
        lib/libcollide2d.a lib/pkgconfig/collide2d.pc lua51/collide2d.so lua54/collide2d.so README.md; do
        [ -e "$d/$f" ] || missing="$missing $f"
    done
    [ -z "$missing" ] && grep -q '^# collide2d 1.0.0 for linux-aarch64$' "$d/README.md" \
        && ok "make dist-arm64 lays out $d as the host's folder, README included" \
        || bad "make dist-arm64 left out:$missing"
    # A C program built from the package through its own .pc file (which finds its folder), run.
    pcflags=$(PKG_CONFIG_PATH="$abs/dist/linux-aarch64/lib/pkgconfig" pkg-config --cflags --libs collide2d)
    if aarch64-linux-gnu-gcc -std=c99 -O2 -o "$work/cases-dist" spec/windows/cases.c $pcflags \
        -Wl,-rpath,"$abs/dist/linux-aarch64/lib" && arm "$work/cases-dist" | cmp -s - "$work/cases-arm64.txt"; then
        ok "the linux-aarch64 package builds (gcc-aarch64-linux-gnu, its collide2d.pc) and runs a C program"
    else bad "the linux-aarch64 package does not build and run a C program"; fi
    check_load "$abs/dist/linux-aarch64/lua51" "$abs/dist/linux-aarch64/lua51/collide2d.so (collide2d 1.0.0, LuaJIT 2.1.0-beta3, FFI fast path)" \
        "ARM64 LuaJIT loads the package's lua51/collide2d.so" "$lj"
else
    bad "make dist-arm64 (see $B/arm64-dist.log)"; tail -n 20 "$B/arm64-dist.log"
fi
stamp "dist checked"

# ---- the C tests' results ---------------------------------------------------------------------------
wait "$testc_pid"
testc_pid=""
count_result "ARM64 test_c under qemu" "$out"
# Its determinism digest covers every kind of result over a scene with random angles: the ARM64 build
# must give this machine's, to the last bit.
d1=$(sed -n 's/^# determinism digest //p' "$out")
d2=$("$B/test_c" determinism | sed -n 's/^# determinism digest //p')
[ -n "$d1" ] && [ "$d1" = "$d2" ] && ok "ARM64 test_c gives x86_64's determinism digest ($d1)" \
    || bad "determinism digests differ: ARM64 '$d1', x86_64 '$d2'"
stamp "C tests run"
finish
