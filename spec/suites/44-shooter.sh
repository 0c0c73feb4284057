# The top-down shooter (examples/love/shooter/, examples/lua/shooter.lua): a turret firing four bullets
# a frame, some 300 in flight, that bounce off the walls of a static set and go through 25 wandering
# enemies in a world that holds the walls as its level, one world:stepBall per bullet per frame. The
# game checks itself every frame (examples/love/shooter/sim.lua, Sim:checkBullet) against an
# independent model, the capsules the bullet's centre sweeps along its path: no path enters a wall,
# every enemy a path enters is reported crossed and every one reported lies on it, and no bullet ends
# a frame inside a wall. The LÖVE game runs in autoplay under Xvfb with a timeout; the same simulation
# runs windowless under Lua 5.4 and LuaJIT, and all three must print the same summary line (checksum
# included). The old way of writing it (mode "rebuild": bounce off a set, rebuild the path, probe each
# leg in the world) must play the very same game. Last, the level mode's calls in a world never given
# its level must fail the checks: the bullets then fly through the walls.
set -u
. spec/support/suite.sh
FRAMES=1200
game_setup shooter

# check_summary LABEL LOG STATUS: the run's exit status, its summary line, no violation, the game played.
check_summary() {
    summary_common "$1" "$2" "$3" shooter $FRAMES crossed missed inside || return
    at_least "$line" maxbullets 290 "about 300 bullets in flight"
    at_least "$line" bounces 10000 "the bullets bounced off the walls"
    at_least "$line" hits 1000 "the bullets went through enemies"
    at_least "$line" kills 100 "enemies died and came back"
}

# ---- the LÖVE game, from / and without LUA_CPATH: only the .so in the game directory can be found
love_autoplay "$dir/love.log"
check_summary "LÖVE autoplay" "$log" "$status"
love_line=$(grep '^shooter: ' "$log" | tail -n 1)
check_png

# ---- the same simulation without a window, under both interpreters, and the old way under LuaJIT
for run in "lua5.4 lua54 level" "luajit lua51 level" "luajit lua51 rebuild"; do
    set -- $run
    log="$dir/$1-$3.log"
    LUA_CPATH="$abs/$2/?.so" $1 examples/lua/shooter.lua $FRAMES $3 > "$log" 2>&1
    status=$?
    check_summary "examples/lua/shooter.lua under $1, mode $3" "$log" "$status"
    line=$(grep '^shooter: ' "$log" | tail -n 1)
    if [ "$3" = level ]; then
        [ -n "$line" ] && [ "$line" = "$love_line" ] && ok "$1 plays the same game as LÖVE (checksum $(field "$line" checksum))" \
            || fail "$1 and LÖVE differ: '$line' vs '$love_line'"
    else
        [ -n "$line" ] && [ "$(field "$line" checksum)" = "$(field "$love_line" checksum)" ] \
            && ok "the old way plays the same game, bullet for bullet (checksum $(field "$line" checksum))" \
            || fail "the old way plays another game: '$line' vs '$love_line'"
    fi
done

# ---- a world never given its level: the bullets fly through the walls, and the checks must say so
log="$dir/nolevel.log"
LUA_CPATH="$abs/lua54/?.so" lua5.4 examples/lua/shooter.lua 300 nolevel > "$log" 2>&1
status=$?
line=$(grep '^shooter: ' "$log" | tail -n 1)
crossed=$(field "$line" crossed)
[ "$status" -ne 0 ] && [ "${crossed:-0}" -gt 0 ] 2>/dev/null && grep -q '^violation: .* enters wall' "$log" \
    && ok "without the level the checks see bullets go through walls: the run exits $status (crossed=$crossed)" \
    || { fail "without the level: exit $status, crossed=$crossed"; tail -n 5 "$log"; }
finish
