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
for tool in love xvfb-run lua5.4 luajit; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not found: apt-get install love xvfb xauth lua5.4 luajit"; exit 1; }
done
make --no-print-directory -s BUILD="$B" "$B/lua54/collide2d.so" "$B/lua51/collide2d.so" || exit 1

FRAMES=1200
dir="$abs/shooter-check"
game="$dir/game"
rm -rf "$dir"
mkdir -p "$game" "$dir/save"
cp examples/love/shooter/*.lua "$B/lua51/collide2d.so" "$game/"
png="$dir/screenshot.png"

# check_summary LABEL LOG STATUS: the run's exit status, its summary line, no violation, the game played.
check_summary() {
    label=$1; log=$2; status=$3
    [ "$status" -eq 0 ] && ok "$label exits 0" || { fail "$label exits $status, not 0"; tail -n 25 "$log"; }
    line=$(grep '^shooter: ' "$log" | tail -n 1)
    if [ -z "$line" ]; then fail "$label prints a summary line"; return; fi
    echo "   $line"
    grep '^shooter timing: ' "$log" | sed 's/^/   /'
    [ "$(field "$line" frames)" = "$FRAMES" ] && ok "$label ran $FRAMES frames" || fail "$label ran $(field "$line" frames) frames, not $FRAMES"
    for v in crossed missed inside; do
        [ "$(field "$line" $v)" = 0 ] && ok "$label: $v=0" || fail "$label: $v=$(field "$line" $v)"
    done
    grep -q '^violation: ' "$log" && { fail "$label reports violations"; grep '^violation: ' "$log" | head -n 5; } \
        || ok "$label reports no violation"
    at_least "$line" maxbullets 290 "about 300 bullets in flight"
    at_least "$line" bounces 10000 "the bullets bounced off the walls"
    at_least "$line" hits 1000 "the bullets went through enemies"
    at_least "$line" kills 100 "enemies died and came back"
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
love_line=$(grep '^shooter: ' "$log" | tail -n 1)
if [ -f "$png" ]; then
    magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
    [ "$magic" = "89504e470d0a1a0a" ] && ok "the screenshot is a PNG" || fail "the screenshot is not a PNG ($magic)"
else
    fail "no screenshot at $png"
fi

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
