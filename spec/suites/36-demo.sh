# The BricksBeater demo (examples/love/, examples/lua/bricks.lua) as a stress test: many balls at up to
# 50 radii per step among touching, rotated and polygon bricks, checked every frame by the game itself
# (no ball outside the field, none inside a wall, a live brick or the paddle by more than 1e-9, no
# ball's path through one of them during its step: examples/love/sim.lua, Sim:check and checkPath). The
# LÖVE game runs in autoplay under Xvfb with a timeout (a hung game fails instead of hanging the
# suite); the same simulation runs windowless under Lua 5.4 and LuaJIT, and all three must tell the
# same story, frame for frame.
set -u
build=${BUILD:-build}
case $build in /*) abs=$build ;; *) abs="$PWD/$build" ;; esac
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }
for tool in love xvfb-run lua5.4 luajit; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not found: apt-get install love xvfb xauth lua5.4 luajit"; exit 1; }
done
make --no-print-directory -s BUILD="$build" "$build/lua54/collide2d.so" "$build/lua51/collide2d.so" || exit 1

FRAMES=600
BALLS=60
dir="$abs/demo-check"
game="$dir/game"
rm -rf "$dir"
mkdir -p "$game" "$dir/save"
cp examples/love/*.lua "$build/lua51/collide2d.so" "$game/"
png="$dir/screenshot.png"

# field: the value of key=... in a summary line
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

# check_summary LABEL LOG STATUS: the run's exit status and its summary line.
check_summary() {
    label=$1; log=$2; status=$3
    [ "$status" -eq 0 ] && ok "$label exits 0" || { fail "$label exits $status, not 0"; tail -n 20 "$log"; }
    line=$(grep '^bricks: ' "$log" | tail -n 1)
    if [ -z "$line" ]; then fail "$label prints a summary line"; return; fi
    echo "   $line"
    [ "$(field "$line" frames)" = "$FRAMES" ] && ok "$label ran $FRAMES frames" || fail "$label ran $(field "$line" frames) frames, not $FRAMES"
    [ "$(field "$line" escapes)" = 0 ] && ok "$label: no ball left the field" || fail "$label: $(field "$line" escapes) escapes"
    [ "$(field "$line" inside)" = 0 ] && ok "$label: no ball inside a wall, brick or the paddle" || fail "$label: $(field "$line" inside) balls inside shapes"
    [ "$(field "$line" crossed)" = 0 ] && ok "$label: no ball went through a shape during a step" || fail "$label: $(field "$line" crossed) paths went through shapes"
    [ "$(field "$line" tunnels)" = 0 ] && ok "$label: tunnels=0" || fail "$label: tunnels=$(field "$line" tunnels)"
    [ "$(field "$line" balls)" = "$BALLS" ] && ok "$label kept all $BALLS balls" || fail "$label has $(field "$line" balls) balls, not $BALLS"
    fast=$(field "$line" maxstep | tr -d r)
    awk -v s="$fast" 'BEGIN { exit !(s >= 49) }' && ok "$label: the fastest ball moved ${fast} radii in a step" \
        || fail "$label: the fastest ball moved only ${fast} radii in a step"
    [ "$(field "$line" broken)" -gt 100 ] 2>/dev/null && ok "$label broke $(field "$line" broken) bricks" \
        || fail "$label broke $(field "$line" broken) bricks, not over 100"
    [ "$(field "$line" contacts)" -gt 1000 ] 2>/dev/null && ok "$label met $(field "$line" contacts) contacts" \
        || fail "$label met $(field "$line" contacts) contacts, not over 1000"
}

# ---- the LÖVE game, from / and without LUA_CPATH: only the .so in the game directory can be found
log="$dir/love.log"
start=$(date +%s)
(cd / && env -u LUA_CPATH -u LUA_PATH XDG_DATA_HOME="$dir/save" COLLIDE2D_AUTOPLAY=$FRAMES COLLIDE2D_BALLS=$BALLS \
    COLLIDE2D_MAX_STEP=50 COLLIDE2D_SCREENSHOT="$png" timeout 120 xvfb-run -a love "$game") > "$log" 2>&1
status=$?
echo "   LÖVE run: $(( $(date +%s) - start )) s"
[ "$status" -eq 124 ] && fail "LÖVE timed out after 120 s"
check_summary "LÖVE autoplay" "$log" "$status"
love_line=$(grep '^bricks: ' "$log" | tail -n 1)
if [ -f "$png" ]; then
    magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
    size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
    [ "$magic" = "89504e470d0a1a0a" ] && ok "the screenshot is a PNG" || fail "the screenshot is not a PNG ($magic)"
    [ "$size" = "800x600" ] && ok "the screenshot is 800x600" || fail "the screenshot is $size, not 800x600"
else
    fail "no screenshot at $png"
fi

# ---- the same simulation without a window
for lua in lua5.4 luajit; do
    case $lua in lua5.4) mod=lua54 ;; *) mod=lua51 ;; esac
    log="$dir/$lua.log"
    LUA_CPATH="$abs/$mod/?.so" COLLIDE2D_BALLS=$BALLS COLLIDE2D_MAX_STEP=50 $lua examples/lua/bricks.lua $FRAMES > "$log" 2>&1
    status=$?
    grep -v '^bricks: ' "$log" | head -n 3 | sed 's/^/   /'
    check_summary "examples/lua/bricks.lua under $lua" "$log" "$status"
    line=$(grep '^bricks: ' "$log" | tail -n 1)
    [ -n "$line" ] && [ "$line" = "$love_line" ] && ok "$lua plays the same game as LÖVE" \
        || fail "$lua and LÖVE differ: '$line' vs '$love_line'"
done
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
