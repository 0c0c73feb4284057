# The ABI guard: the shared library against the committed baseline (make abi-check), proof that the
# guard really fails on the breaks it exists for (a struct layout change, an enum value change, a
# removed function: each built as a mutated copy of the library), and the symbol hygiene a stable ABI
# needs (SONAME, only c2d_* exported, all under the version node, every declared function present).
B=${BUILD:-build}
SHLIB=$B/libcollide2d.so.1.0.0
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok     $1"; }
bad() { failed=$((failed + 1)); echo "not ok $1"; }

make --no-print-directory -s BUILD="$B" "$SHLIB" >/dev/null || { echo "RESULT passed=0 failed=1"; exit 1; }

if make --no-print-directory -s BUILD="$B" abi-check; then ok "abi-check: library matches abi/collide2d.abi"
else bad "abi-check: library matches abi/collide2d.abi"; fi

# Builds the library from src/ with a modified copy of the public header and/or version script, the
# way the Makefile does, and runs the same abidiff as abi-check. Arguments: name, sed script for the
# header, sed script for the version script.
work=$B/abi-selftest
mutant() {
    dir=$work/$(echo "$1" | tr ' ' '-')
    rm -rf "$dir" && mkdir -p "$dir/include" || return 2
    sed -e "$2" include/collide2d.h > "$dir/include/collide2d.h"
    sed -e "$3" src/collide2d.map > "$dir/collide2d.map"
    ${CC:-cc} -std=c99 -D_POSIX_C_SOURCE=200809L -O0 -g -fPIC -fvisibility=hidden -DC2D_BUILD \
        -I"$dir/include" -Isrc -shared -Wl,-soname,libcollide2d.so.1 \
        -Wl,--version-script="$dir/collide2d.map" -o "$dir/libcollide2d.so.1.0.0" src/*.c -lm || return 2
    abidiff --no-added-syms abi/collide2d.abi \
        "$dir/libcollide2d.so.1.0.0" > "$dir/abidiff.txt" 2>&1
}
expect_break() {
    mutant "$1" "$2" "$3"
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
        ok "abi guard catches $1 (abidiff exit $rc)"
    else
        bad "abi guard catches $1 (abidiff exit $rc)"; cat "$dir/abidiff.txt"
    fi
}
# A field added at the front of a result struct: every caller's offsets move.
expect_break "a struct layout change" '/^typedef struct c2d_contact {/a\
    int flags;' ''
# A renumbered status: compiled callers compare against the old value.
expect_break "an enum value change" 's/C2D_ERR_RANGE = 3,/C2D_ERR_RANGE = 30,/' ''
# A function dropped from the export list.
expect_break "a removed function" '' 's/global: c2d_\*;/global: c2d_[a-q]*; c2d_s*; c2d_v*;/'
# A value type passed by value changes its members' type: every function taking a c2d_vec2 changes its
# calling convention. (Floats, not an added member: the engine asserts that a shape's header, which
# holds vectors, fits a cache line, so a grown c2d_vec2 would not even build.)
expect_break "a by-value type change" '/^typedef struct c2d_vec2 {/,/^} c2d_vec2;/s/double/float/' ''
# And the control: an unmodified rebuild passes, so the breaks above are not noise.
mutant "no change" '' ''
rc=$?
if [ "$rc" -eq 0 ]; then ok "abi guard passes an unchanged rebuild"
else bad "abi guard passes an unchanged rebuild (abidiff exit $rc)"; cat "$dir/abidiff.txt"; fi

soname=$(readelf -d "$SHLIB" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" = "libcollide2d.so.1" ]; then ok "SONAME is libcollide2d.so.1"
else bad "SONAME is libcollide2d.so.1 (got '$soname')"; fi

# Defined dynamic symbols: "name@@VERSION" from readelf's symbol table (the version node included).
exports=$(readelf --dyn-syms -W "$SHLIB" | awk '$7 != "UND" && $7 != "Ndx" && $4 != "SECTION" && $4 != "FILE" && NF >= 8 { print $8 }' |
    grep -v '^COLLIDE2D_1$' | sort -u)
stray=$(echo "$exports" | grep -v '^c2d_[a-z0-9_]*@@COLLIDE2D_1$')
if [ -z "$stray" ] && [ -n "$exports" ]; then ok "every export is c2d_* under COLLIDE2D_1 ($(echo "$exports" | wc -l) symbols)"
else bad "every export is c2d_* under COLLIDE2D_1; stray: $stray"; fi

# Every function the header declares with C2D_API is exported: otherwise a user's link fails.
declared=$(tr '\n' ' ' < include/collide2d.h | grep -oE 'C2D_API [A-Za-z0-9_ *]+\(' |
    sed -E 's/.*[ *]([a-z0-9_]+)\($/\1/' | grep '^c2d_' | sort -u)
missing=""
for f in $declared; do
    echo "$exports" | grep -q "^$f@@" || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "every C2D_API function of the header is exported ($(echo "$declared" | wc -w))"
else bad "every C2D_API function of the header is exported; missing:$missing"; fi

# The header stands alone, in strict C99 and as C++.
hdr_check() {
    if printf '#include <collide2d.h>\nint c2d_header_check;\n' | $1 -Iinclude -fsyntax-only -Wall -Wextra -Werror $2 -x $3 -; then
        ok "include/collide2d.h compiles alone: $1 $2"
    else bad "include/collide2d.h compiles alone: $1 $2"; fi
}
hdr_check "${CC:-cc}" "-std=c99 -pedantic" c
hdr_check "${CC:-cc}" "-std=c11" c
hdr_check "${CXX:-c++}" "-std=c++98 -pedantic" c++
hdr_check "${CXX:-c++}" "-std=c++17" c++

echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
