# The C examples, built the way a user builds them: `make install` into a private prefix, then
# `pkg-config --cflags --libs collide2d` from that prefix. Each must build, run, and say what it should.
B=${BUILD:-build}
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "ok     $1"; }
bad() { failed=$((failed + 1)); echo "not ok $1"; }

if make --no-print-directory -s BUILD="$B" examples >/dev/null 2>"$B/examples-build.log"; then
    ok "examples build against the installed prefix with pkg-config"
else
    bad "examples build against the installed prefix with pkg-config"; cat "$B/examples-build.log"
fi
pc=$(PKG_CONFIG_PATH="$(pwd)/$B/prefix/lib/pkgconfig" pkg-config --modversion collide2d 2>/dev/null)
[ "$pc" = "1.0.0" ] && ok "installed collide2d.pc reports version 1.0.0" || bad "installed collide2d.pc reports version 1.0.0 (got '$pc')"
[ -f "$B/prefix/include/collide2d.h" ] && [ -L "$B/prefix/lib/libcollide2d.so" ] && [ -f "$B/prefix/lib/libcollide2d.a" ] \
    && ok "install puts the header, the shared and static libraries in the prefix" \
    || bad "install puts the header, the shared and static libraries in the prefix"

# example, then a pattern its output must contain
check() {
    out=$("$B/examples/$1" 2>&1); rc=$?
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eq "$2"; then ok "examples/c/$1.c runs: $2"
    else bad "examples/c/$1.c runs: $2 (exit $rc)"; printf '%s\n' "$out" | tail -5; fi
}
check contact 'circle vs box +overlap: normal \(\+1\.0000'
check bounce 'speed 60\.000000000000 \(started 60\.000000000000\)'
check world 'the player walked to x = 274\.00 .*player bottom 400\.00'
check world 'under the mouse at \(330, 352\): 1 shape\(s\) crate 1'
echo "RESULT passed=$passed failed=$failed"
