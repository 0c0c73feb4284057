# spec/support/suite.sh - what the platform suites (40-windows, 41-macos, 42-loader, 43-arm64) and the
# games' (39-pinball, 44-shooter) share;
# sourced after `set -u`: where the build is ($B, and $abs, the same as an absolute path), the counts
# with ok and fail (bad is its other name), stamp (a line with the seconds since the suite began), and
# finish, which runs the suite's own on_finish (stopping what it started) and reports the counts as
# spec/run.sh reads them; count_result, which adds a test program's own counts; and compare, which
# checks two outputs of the shared cases line by line.
B=${BUILD:-build}
case $B in /*) abs=$B ;; *) abs="$PWD/$B" ;; esac
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }
bad() { fail "$1"; }
t0=$(date +%s)
stamp() { echo "# $1 ($(( $(date +%s) - t0 )) s)"; }
on_finish() { :; }
finish() {
    on_finish
    stamp "done"
    echo "RESULT passed=$passed failed=$failed"
    [ "$failed" -eq 0 ]
    exit
}

# field LINE KEY: the value of key=... in a game's summary line. at_least LINE KEY N WHAT: that value is
# at least N (ok or fail, named with $label, the run being checked).
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
at_least() {
    v=$(field "$1" "$2")
    [ "$v" -ge "$3" ] 2>/dev/null && ok "$label: $4 ($2=$v)" || fail "$label: $2=$v, not at least $3 ($4)"
}

# game_setup NAME: for a game's suite: the tools it needs, both Lua builds of the module, and a fresh
# $dir ($abs/NAME-check) with the LÖVE game in $game (examples/love/NAME/*.lua and the 5.1 module) and
# $png where its screenshot goes.
game_setup() {
    for tool in love xvfb-run lua5.4 luajit; do
        command -v $tool >/dev/null 2>&1 || { echo "$tool not found: apt-get install love xvfb xauth lua5.4 luajit"; exit 1; }
    done
    make --no-print-directory -s BUILD="$B" "$B/lua54/collide2d.so" "$B/lua51/collide2d.so" || exit 1
    dir="$abs/$1-check"
    game="$dir/game"
    rm -rf "$dir"
    mkdir -p "$game" "$dir/save"
    cp examples/love/$1/*.lua "$B/lua51/collide2d.so" "$game/"
    png="$dir/screenshot.png"
}

# summary_common LABEL LOG STATUS NAME FRAMES KEY...: what every game's run must show: exit status 0,
# the "NAME: " summary line (kept in $line, and printed with the "NAME timing: " lines), FRAMES frames,
# each KEY=0, and no "violation: " line. Returns 1 when there is no summary line to check further.
summary_common() {
    label=$1; log=$2; status=$3; name=$4; frames=$5
    shift 5
    [ "$status" -eq 0 ] && ok "$label exits 0" || { fail "$label exits $status, not 0"; tail -n 25 "$log"; }
    line=$(grep "^$name: " "$log" | tail -n 1)
    if [ -z "$line" ]; then fail "$label prints a summary line"; return 1; fi
    echo "   $line"
    grep "^$name timing: " "$log" | sed 's/^/   /'
    [ "$(field "$line" frames)" = "$frames" ] && ok "$label ran $frames frames" || fail "$label ran $(field "$line" frames) frames, not $frames"
    for v in "$@"; do
        [ "$(field "$line" $v)" = 0 ] && ok "$label: $v=0" || fail "$label: $v=$(field "$line" $v)"
    done
    grep -q '^violation: ' "$log" && { fail "$label reports violations"; grep '^violation: ' "$log" | head -n 5; } \
        || ok "$label reports no violation"
    return 0
}

# love_autoplay LOG [NAME=VALUE ...]: the game in $game plays $FRAMES frames by itself on a virtual display,
# from / and without LUA_CPATH (only the module in the game directory can be found), under a 120 s
# timeout, saving its screenshot to $png; its exit status in $status.
love_autoplay() {
    log=$1
    shift
    start=$(date +%s)
    (cd / && env -u LUA_CPATH -u LUA_PATH XDG_DATA_HOME="$dir/save" COLLIDE2D_AUTOPLAY=$FRAMES \
        COLLIDE2D_SCREENSHOT="$png" "$@" timeout 120 xvfb-run -a love "$game") > "$log" 2>&1
    status=$?
    echo "   LÖVE run: $(( $(date +%s) - start )) s"
    [ "$status" -eq 124 ] && fail "LÖVE timed out after 120 s"
}

# check_png: the game's screenshot $png is an 800x600 PNG.
check_png() {
    if [ -f "$png" ]; then
        magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
        size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
        [ "$magic" = "89504e470d0a1a0a" ] && ok "the screenshot is a PNG" || fail "the screenshot is not a PNG ($magic)"
        [ "$size" = "800x600" ] && ok "the screenshot is 800x600" || fail "the screenshot is $size, not 800x600"
    else
        fail "no screenshot at $png"
    fi
}

# compare REFERENCE OTHER NAME: the shared cases' outputs compared line by line (spec/windows/compare.lua),
# its ok / not ok lines counted; $work is the suite's scratch folder.
compare() {
    lua5.4 spec/windows/compare.lua "$1" "$2" "$3" > "$work/compare.out" 2>&1
    rc=$?
    cat "$work/compare.out"
    passed=$((passed + $(grep -c '^ok ' "$work/compare.out")))
    nf=$(grep -c '^not ok ' "$work/compare.out")
    [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ] && nf=1
    failed=$((failed + nf))
}

# count_result LABEL FILE: adds the counts of the last "RESULT passed=N failed=M" line of a test
# program's output (printing the lines that are not "ok"), or a failure when it reported none.
count_result() {
    grep -v '^ok ' "$2"
    line=$(grep -E '^RESULT passed=[0-9]+ failed=[0-9]+' "$2" | tail -n 1)
    p=$(echo "$line" | sed -nE 's/.*passed=([0-9]+).*/\1/p')
    f=$(echo "$line" | sed -nE 's/.*failed=([0-9]+).*/\1/p')
    if [ -n "$p" ] && [ "$p" -gt 0 ]; then
        echo "# $1: $p passed, $f failed"
        passed=$((passed + p)); failed=$((failed + f))
    else
        fail "$1 reported no result"; tail -n 20 "$2"
    fi
}

# lua_suite_setup: for the suites that load a cross-built module in a foreign Lua: luassert's path
# (pure Lua, from lua-busted) in $luassert_path, and in $probe a chunk that prints which file require
# loaded, the Lua, and whether LuaJIT's FFI fast path is in place, then checks one answer.
lua_suite_setup() {
    luassert_path="/usr/share/lua/5.1/?.lua;/usr/share/lua/5.1/?/init.lua"
    [ -f /usr/share/lua/5.1/luassert/init.lua ] || fail "luassert (pure Lua, from lua-busted) not found in /usr/share/lua/5.1"
    probe='local c = require "collide2d"
for p in package.cpath:gmatch("[^;]+") do
  local f = p:gsub("%?", "collide2d"); local h = io.open(f)
  if h then h:close(); io.write(f, " (collide2d ", c._VERSION, ", ", jit and jit.version or _VERSION,
    debug.getinfo(c.collide, "S").what == "Lua" and ", FFI fast path" or "", ")\n"); break end
end
local nx, ny, depth, x, y = c.circle(0, 0, 1):collide(c.circle(1.5, 0, 1))
assert(nx == 1 and ny == 0 and depth == 0.5 and x == 0.75 and y == 0)'
}
