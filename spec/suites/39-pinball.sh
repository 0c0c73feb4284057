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
FRAMES=4000
game_setup pinball

# check_summary LABEL LOG STATUS: the run's exit status, its summary line, no violation reported, and
# every part of the table in play.
check_summary() {
    summary_common "$1" "$2" "$3" pinball $FRAMES inside crossed escapes pushedout || return
    [ "$(field "$line" balls)" = 12 ] && ok "$label has 12 balls" || fail "$label has $(field "$line" balls) balls, not 12"
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
love_autoplay "$dir/love.log"
check_summary "LÖVE autoplay" "$log" "$status"
love_line=$(grep '^pinball: ' "$log" | tail -n 1)
check_png

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
