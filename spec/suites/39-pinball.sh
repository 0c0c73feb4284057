# The pinball table (examples/love/pinball/, examples/lua/pinball.lua): two flippers swinging at 36
# rad/s about their hinges, a spinner, bumpers and a plunger in one static set, 12 balls stepped with
# set:stepBall, played by its own deterministic autopilot and checked every frame by the game itself
# (examples/love/pinball/sim.lua, Sim:checkPath and Sim:check): no ball's path through a wall, into
# the plunger, down through the one-way gate, or into a flipper or the spinner as they turn (an
# independent model of each bar, sampled 600 times a frame), and no ball inside anything at the end of
# a frame (set:pushOut, shape:distance and the model, 1e-6). The LÖVE game runs in autoplay under Xvfb
# with a timeout (a hung game fails instead of hanging the suite); the same simulation runs windowless
# under Lua 5.4 and LuaJIT, and all three must print the same summary line, checksum of the balls'
# final positions and velocities included. The frame time is printed, not checked. Last, the table
# played with flippers that are only re-placed (no set:setMotion) must fail: the checks see the balls
# the flippers teleport over.
set -u
. spec/support/suite.sh
build=$B
for tool in love xvfb-run lua5.4 luajit; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not found: apt-get install love xvfb xauth lua5.4 luajit"; exit 1; }
done
make --no-print-directory -s BUILD="$build" "$build/lua54/collide2d.so" "$build/lua51/collide2d.so" || exit 1

FRAMES=4000
dir="$abs/pinball-check"
game="$dir/game"
rm -rf "$dir"
mkdir -p "$game" "$dir/save"
cp examples/love/pinball/*.lua "$build/lua51/collide2d.so" "$game/"
png="$dir/screenshot.png"

# check_summary LABEL LOG STATUS: the run's exit status, its summary line, no violation reported, and
# every part of the table in play.
check_summary() {
    label=$1; log=$2; status=$3
    [ "$status" -eq 0 ] && ok "$label exits 0" || { fail "$label exits $status, not 0"; tail -n 25 "$log"; }
    line=$(grep '^pinball: ' "$log" | tail -n 1)
    if [ -z "$line" ]; then fail "$label prints a summary line"; return; fi
    echo "   $line"
    grep '^pinball timing: ' "$log" | sed 's/^/   /'
    [ "$(field "$line" frames)" = "$FRAMES" ] && ok "$label ran $FRAMES frames" || fail "$label ran $(field "$line" frames) frames, not $FRAMES"
    [ "$(field "$line" balls)" = 12 ] && ok "$label has 12 balls" || fail "$label has $(field "$line" balls) balls, not 12"
    for v in inside crossed escapes pushedout; do
        [ "$(field "$line" $v)" = 0 ] && ok "$label: $v=0" || fail "$label: $v=$(field "$line" $v)"
    done
    grep -q '^violation: ' "$log" && { fail "$label reports violations"; grep '^violation: ' "$log" | head -n 5; } \
        || ok "$label reports no violation"
    at_least "$line" flips 100 "the flippers swung"
    at_least "$line" flipper_hits 100 "the flippers met balls"
    at_least "$line" spinner_hits 50 "the spinner met balls"
    at_least "$line" bumper_hits 100 "the bumpers kicked"
    at_least "$line" plunger_hits 50 "the plunger met balls"
    at_least "$line" launches 20 "the plunger launched balls"
    at_least "$line" drained 20 "balls drained"
    at_least "$line" respawned 20 "drained balls came back"
    at_least "$line" contacts 1000 "contacts"
    fast=$(field "$line" maxspeed)
    awk -v s="$fast" 'BEGIN { exit !(s >= 3600) }' && ok "$label: the fastest ball went $fast px/s (over 60 px a frame)" \
        || fail "$label: the fastest ball went only $fast px/s"
}

# ---- the LÖVE game, from / and without LUA_CPATH: only the .so in the game directory can be found
log="$dir/love.log"
start=$(date +%s)
(cd / && env -u LUA_CPATH -u LUA_PATH XDG_DATA_HOME="$dir/save" COLLIDE2D_AUTOPLAY=$FRAMES \
    COLLIDE2D_SCREENSHOT="$png" timeout 120 xvfb-run -a love "$game") > "$log" 2>&1
status=$?
echo "   LÖVE run: $(( $(date +%s) - start )) s"
[ "$status" -eq 124 ] && fail "LÖVE timed out after 120 s"
check_summary "LÖVE autoplay" "$log" "$status"
love_line=$(grep '^pinball: ' "$log" | tail -n 1)
if [ -f "$png" ]; then
    magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
    size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
    [ "$magic" = "89504e470d0a1a0a" ] && ok "the screenshot is a PNG" || fail "the screenshot is not a PNG ($magic)"
    [ "$size" = "800x600" ] && ok "the screenshot is 800x600" || fail "the screenshot is $size, not 800x600"
else
    fail "no screenshot at $png"
fi

# ---- the same simulation without a window (and timed: examples/lua/pinball.lua plays it again
# without the checks, which must end with the same checksum)
for lua in lua5.4 luajit; do
    case $lua in lua5.4) mod=lua54 ;; *) mod=lua51 ;; esac
    log="$dir/$lua.log"
    LUA_CPATH="$abs/$mod/?.so" $lua examples/lua/pinball.lua $FRAMES > "$log" 2>&1
    status=$?
    grep -v -e '^pinball: ' -e '^pinball timing: ' -e '^violation: ' "$log" | head -n 3 | sed 's/^/   /'
    check_summary "examples/lua/pinball.lua under $lua" "$log" "$status"
    line=$(grep '^pinball: ' "$log" | tail -n 1)
    [ -n "$line" ] && [ "$line" = "$love_line" ] && ok "$lua plays the same game as LÖVE (checksum $(field "$line" checksum))" \
        || fail "$lua and LÖVE differ: '$line' vs '$love_line'"
done

# ---- flippers that are only re-placed, never swept, must fail the checks: they mean something
log="$dir/teleport.log"
COLLIDE2D_TELEPORT=1 LUA_CPATH="$abs/lua54/?.so" lua5.4 examples/lua/pinball.lua 600 > "$log" 2>&1
status=$?
line=$(grep '^pinball: ' "$log" | tail -n 1)
inside=$(field "$line" inside)
[ "$status" -ne 0 ] && [ "${inside:-0}" -gt 0 ] 2>/dev/null && grep -q '^violation: .* inside the \(left\|right\) flipper' "$log" \
    && ok "flippers turned by setTransform alone leave balls inside them: the run exits $status (inside=$inside)" \
    || { fail "flippers turned by setTransform alone: exit $status, inside=$inside"; tail -n 5 "$log"; }
finish
