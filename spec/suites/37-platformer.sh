# The platformer (examples/love/platformer/, examples/lua/platformer.lua): a level of one concave
# ground polygon with a hole, a chain of hills, one-way ledges and two moving platforms in one static
# set, played by its own deterministic autopilot and checked every frame by the game itself
# (examples/love/platformer/sim.lua, Sim:check and checkPath): the player inside no solid shape by
# more than 1e-9, its path never through the ground, the hills, a platform or the top of a ledge, no
# snag on the hills' joints, never out of the level, and the milestones reached (a landing on each
# ledge, a jump up through one, rides across on the ferry and up and down on the lift, laps). The LÖVE
# game runs in autoplay under Xvfb with a timeout (a hung game fails instead of hanging the suite);
# the same simulation runs windowless under Lua 5.4 and LuaJIT, and all three must print the same
# summary line.
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

FRAMES=4000
LAPS=2
dir="$abs/platformer-check"
game="$dir/game"
rm -rf "$dir"
mkdir -p "$game" "$dir/save"
cp examples/love/platformer/*.lua "$build/lua51/collide2d.so" "$game/"
png="$dir/screenshot.png"

# field: the value of key=... in a summary line
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

# all_positive "a/b/c": every count at least 1
all_positive() {
    [ -n "$1" ] || return 1
    for n in $(printf '%s\n' "$1" | tr '/' ' '); do [ "$n" -ge 1 ] 2>/dev/null || return 1; done
}

# check_summary LABEL LOG STATUS: the run's exit status, its summary line, no violation or missed
# milestone reported.
check_summary() {
    label=$1; log=$2; status=$3
    [ "$status" -eq 0 ] && ok "$label exits 0" || { fail "$label exits $status, not 0"; tail -n 25 "$log"; }
    line=$(grep '^platformer: ' "$log" | tail -n 1)
    if [ -z "$line" ]; then fail "$label prints a summary line"; return; fi
    echo "   $line"
    [ "$(field "$line" frames)" = "$FRAMES" ] && ok "$label ran $FRAMES frames" || fail "$label ran $(field "$line" frames) frames, not $FRAMES"
    for v in snags inside fallthrough escapes; do
        [ "$(field "$line" $v)" = 0 ] && ok "$label: $v=0" || fail "$label: $v=$(field "$line" $v)"
    done
    grep -q '^violation: ' "$log" && { fail "$label reports violations"; grep '^violation: ' "$log" | head -n 5; } \
        || ok "$label reports no violation"
    grep -q '^missing: ' "$log" && { fail "$label missed milestones"; grep '^missing: ' "$log"; } \
        || ok "$label reached every milestone"
    [ "$(field "$line" laps)" -ge "$LAPS" ] 2>/dev/null && ok "$label ran the level $(field "$line" laps) times" \
        || fail "$label ran the level $(field "$line" laps) times, not $LAPS"
    all_positive "$(field "$line" landings)" && ok "$label landed on every one-way ledge ($(field "$line" landings))" \
        || fail "$label landings=$(field "$line" landings): not on every ledge"
    [ "$(field "$line" oneway_up)" -ge 1 ] 2>/dev/null && ok "$label jumped up through ledges $(field "$line" oneway_up) times" \
        || fail "$label never jumped up through a ledge"
    all_positive "$(field "$line" rides)" && ok "$label rode the ferry across and the lift up and down ($(field "$line" rides))" \
        || fail "$label rides=$(field "$line" rides): missed a ride"
    [ "$(field "$line" bounces)" -gt 100 ] 2>/dev/null && ok "$label: the balls bounced $(field "$line" bounces) times" \
        || fail "$label: the balls bounced $(field "$line" bounces) times, not over 100"
}

# ---- the LÖVE game, from / and without LUA_CPATH: only the .so in the game directory can be found
log="$dir/love.log"
start=$(date +%s)
(cd / && env -u LUA_CPATH -u LUA_PATH XDG_DATA_HOME="$dir/save" COLLIDE2D_AUTOPLAY=$FRAMES COLLIDE2D_LAPS=$LAPS \
    COLLIDE2D_SCREENSHOT="$png" timeout 120 xvfb-run -a love "$game") > "$log" 2>&1
status=$?
echo "   LÖVE run: $(( $(date +%s) - start )) s"
[ "$status" -eq 124 ] && fail "LÖVE timed out after 120 s"
check_summary "LÖVE autoplay" "$log" "$status"
love_line=$(grep '^platformer: ' "$log" | tail -n 1)
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
    LUA_CPATH="$abs/$mod/?.so" $lua examples/lua/platformer.lua $FRAMES $LAPS > "$log" 2>&1
    status=$?
    grep -v -e '^platformer: ' -e '^violation: ' -e '^missing: ' "$log" | head -n 3 | sed 's/^/   /'
    check_summary "examples/lua/platformer.lua under $lua" "$log" "$status"
    line=$(grep '^platformer: ' "$log" | tail -n 1)
    [ -n "$line" ] && [ "$line" = "$love_line" ] && ok "$lua plays the same game as LÖVE" \
        || fail "$lua and LÖVE differ: '$line' vs '$love_line'"
done

# ---- a run too short for its milestones must fail: the runner's exit status means something
log="$dir/short.log"
LUA_CPATH="$abs/lua54/?.so" lua5.4 examples/lua/platformer.lua 300 1 > "$log" 2>&1
status=$?
[ "$status" -ne 0 ] && grep -q '^missing: 0 laps, not 1' "$log" \
    && ok "a 300-frame run exits $status and says what it missed" \
    || { fail "a 300-frame run exits $status without saying what it missed"; cat "$log"; }
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
