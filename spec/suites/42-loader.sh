# The loader for LÖVE games (lua/collide2d_loader.lua), for real:
#  - in LÖVE 11 under Xvfb, a small game (spec/loader/main.lua, conf.lua, the loader, and the Linux
#    x86_64 lua51 module as lib/linux-x86_64/collide2d.so) zipped into a .love with Debian's zip:
#    the module is copied into the save directory and loaded from there, answers, and is not written
#    again on the next start; a copy changed on disk is written again, and another build's copy is
#    removed; the same .love fused to LÖVE's executable; the game as a folder (loaded in place); a
#    game with collide2d.so beside main.lua and no lib/ (require "collide2d", as without the loader);
#    and a game without a binary for the platform, which must get the error naming the platform and
#    the files looked for;
#  - under Wine, the cross-built LuaJIT for Windows runs the same loader code with a stand-in for
#    love.filesystem and love.system (spec/loader/love_stub.lua: real folders for the game and the
#    save directory, where a .love would be a zip), so the Windows branch (windows-x86_64, .dll,
#    backslashes for package.loadlib) loads collide2d.dll out of lib/windows-x86_64/ for real;
#  - in plain PUC Lua 5.1, LuaJIT and Lua 5.4, without LÖVE.
# A game reports "ok - " / "not ok - " lines and quits with status 42 when every check passed.
set -u
B=${BUILD:-build}
case $B in /*) abs=$B ;; *) abs="$PWD/$B" ;; esac
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }
t0=$(date +%s)
stamp() { echo "# $1 ($(( $(date +%s) - t0 )) s)"; }
finish() {
    stamp "done"
    echo "RESULT passed=$passed failed=$failed"
    [ "$failed" -eq 0 ]
    exit
}
for tool in love xvfb-run zip; do
    command -v $tool >/dev/null 2>&1 || { fail "$tool not found: apt-get install love xvfb xauth zip"; finish; }
done
make --no-print-directory -s BUILD="$B" "$B/lua51/collide2d.so" "$B/lua54/collide2d.so" || { fail "make lua"; finish; }

work="$abs/loader-check"
rm -rf "$work"
mkdir -p "$work"
# A game folder: the loader, the check game, and the module where the loader documents it.
game="$work/game"
mkdir -p "$game/lib/linux-x86_64"
cp spec/loader/main.lua spec/loader/conf.lua lua/collide2d_loader.lua "$game/"
cp "$B/lua51/collide2d.so" "$game/lib/linux-x86_64/"
(cd "$game" && zip -q -X -r "$work/game.love" .) || { fail "zip could not make game.love"; finish; }

# Runs the game with COLLIDE2D_LOADER_EXPECT=$1, the data home $2 (the save directory's parent) and
# the command "$@" after $3 (what the run is) and $4 (its log's name), from / and without LUA_CPATH
# (so nothing but the game can supply the module), and counts its checks.
run_love() {
    expect=$1 home=$2 what=$3 log="$work/run-$4.log"
    shift 4
    (cd / && env -u LUA_CPATH -u LUA_PATH XDG_DATA_HOME="$home" COLLIDE2D_LOADER_EXPECT="$expect" \
        timeout 60 xvfb-run -a "$@" > "$log" 2>&1)
    status=$?
    sed "s/^/    /" "$log"
    passed=$((passed + $(grep -c '^ok - ' "$log")))
    failed=$((failed + $(grep -c '^not ok - ' "$log")))
    [ "$status" -eq 42 ] && ok "$what: the game quit with status 42" || fail "$what: the game quit with status $status, not 42"
}
# The copy the game reported ("# copy PATH").
copy_of() { sed -n 's/^# copy //p' "$work/run-$1.log"; }
# A file's identity and modification time to the nanosecond: changes when the file is written again.
stamp_of() { stat -c '%i %y' "$1" 2>/dev/null; }

data="$work/data"
run_love copy "$data" "a .love, first start" love1 love "$work/game.love"
copy=$(copy_of love1)
if [ -n "$copy" ] && cmp -s "$copy" "$B/lua51/collide2d.so"; then
    ok "the copy in the save directory is the module's bytes: $copy"
else
    fail "no copy of the module in the save directory (reported: '$copy')"
fi
before=$(stamp_of "$copy")
sleep 0.1
run_love copy "$data" "a .love, second start" love2 love "$work/game.love"
[ "$(copy_of love2)" = "$copy" ] && [ -n "$before" ] && [ "$(stamp_of "$copy")" = "$before" ] \
    && ok "the second start loads the same copy without writing it again" \
    || fail "the second start wrote the copy again or used another ($(copy_of love2))"

# A copy that differs from the game's (one byte, same size) is written again; another build's copy
# for the platform (another fingerprint) is removed.
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[1000] ^= 1; open(p, "wb").write(b)' "$copy"
stale="$(dirname "$(dirname "$copy")")/linux-x86_64-00000000"
mkdir -p "$stale" && echo "another build" > "$stale/collide2d.so"
run_love copy "$data" "a .love, its copy changed on disk" love3 love "$work/game.love"
cmp -s "$copy" "$B/lua51/collide2d.so" && ok "a copy changed on disk is written again" \
    || fail "the changed copy was not written again"
[ ! -e "$stale" ] && ok "another build's copy for the platform is removed" || fail "$stale is still there"

# Fused: LÖVE's executable with the .love appended is the game; it has a save directory of its own.
fused="$work/fused-game"
cat "$(readlink -f "$(command -v love)")" "$work/game.love" > "$fused" && chmod +x "$fused"
run_love copy "$work/data-fused" "a fused executable" fused "$fused"
copy=$(copy_of fused)
[ -n "$copy" ] && cmp -s "$copy" "$B/lua51/collide2d.so" && ok "the fused game copied the module out of its executable" \
    || fail "the fused game made no copy (reported: '$copy')"

run_love in-place "$work/data-folder" "a game folder" folder love "$game"

# Without lib/, as games did before the loader: collide2d.so beside main.lua.
plain="$work/plain"
mkdir -p "$plain"
cp spec/loader/main.lua spec/loader/conf.lua lua/collide2d_loader.lua "$B/lua51/collide2d.so" "$plain/"
run_love require "$work/data-plain" "a folder with collide2d.so beside main.lua" plain love "$plain"

# No binary for this platform: the game has only the loader.
none="$work/none"
mkdir -p "$none"
cp spec/loader/main.lua spec/loader/conf.lua lua/collide2d_loader.lua "$none/"
(cd "$none" && zip -q -X -r "$work/none.love" .)
run_love missing "$work/data-none" "a .love without a binary for linux-x86_64" none love "$work/none.love"
[ ! -e "$work/data-none/love/collide2d-loader-check/collide2d-native" ] \
    && ok "nothing was written for the game without a binary" || fail "the game without a binary wrote a copy"
stamp "LÖVE runs"

finish
