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
. spec/support/suite.sh
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

# A lib/ binary the system refuses (not a library): with collide2d.so beside main.lua, load() falls back
# to require "collide2d"; without, it raises naming the file.
mkdir -p "$plain/lib/linux-x86_64"
echo "not a library" > "$plain/lib/linux-x86_64/collide2d.so"
run_love require "$work/data-plain" "a folder whose lib/ binary the system refuses, collide2d.so beside main.lua" refused love "$plain"
rm "$plain/collide2d.so"
run_love broken "$work/data-plain" "a folder whose lib/ binary the system refuses, and nothing else" broken love "$plain"

# No binary for this platform: the game has only the loader.
none="$work/none"
mkdir -p "$none"
cp spec/loader/main.lua spec/loader/conf.lua lua/collide2d_loader.lua "$none/"
(cd "$none" && zip -q -X -r "$work/none.love" .)
run_love missing "$work/data-none" "a .love without a binary for linux-x86_64" none love "$work/none.love"
[ ! -e "$work/data-none/love/collide2d-loader-check/collide2d-native" ] \
    && ok "nothing was written for the game without a binary" || fail "the game without a binary wrote a copy"
stamp "LÖVE runs"

# ---- plain Lua, without LÖVE -----------------------------------------------------------------------
# PUC Lua 5.1 and LuaJIT load the layout beside the loader in place; Lua 5.4, which cannot load a
# lua51 build, gets require "collide2d" (here the lua54 build on LUA_CPATH).
probe='package.path = arg[1] .. "/?.lua;" .. package.path
local c, path = require("collide2d_loader").load()
local nx, ny, depth = c.circle(0, 0, 1):collide(c.circle(1.5, 0, 1))
assert(nx == 1 and ny == 0 and depth == 0.5 and require("collide2d") == c)
print(tostring(path) .. " " .. _VERSION .. (jit and " " .. jit.version or ""))'
echo "$probe" > "$work/probe.lua"
for lua in lua5.1 luajit; do
    got=$(cd / && env -u LUA_CPATH -u LUA_PATH $lua "$work/probe.lua" "$game" 2>&1)
    [ "$got" = "$game/lib/linux-x86_64/collide2d.so Lua 5.1$( [ $lua = luajit ] && echo " $(luajit -v | cut -d' ' -f1-2)")" ] \
        && ok "$lua without LÖVE loads lib/linux-x86_64/collide2d.so beside the loader in place" \
        || fail "$lua without LÖVE: $got"
done
got=$(cd / && env -u LUA_PATH LUA_CPATH="$abs/lua54/?.so" lua5.4 "$work/probe.lua" "$game" 2>&1)
[ "$got" = "nil Lua 5.4" ] && ok "lua5.4 gets require \"collide2d\" (the lua54 build on LUA_CPATH)" || fail "lua5.4: $got"

# ---- Windows: the loader in LuaJIT for Windows under Wine -----------------------------------------
WINE=${WINE:-$(command -v wine64 || echo /usr/lib/wine/wine64)}
WINESERVER=${WINESERVER:-$(command -v wineserver || echo /usr/lib/wine/wineserver64)}
if [ ! -x "$WINE" ] || ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    fail "wine64 and the mingw-w64 cross compiler are needed for the Windows half (sh scripts/deps.sh)"
    finish
fi
export WINEPREFIX="$abs/windows-wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if ! make --no-print-directory -s -j2 BUILD="$B" "$B/windows/lua51/collide2d.dll" "$B/windows/luajit/luajit.exe" \
    > "$work/windows-build.log" 2>&1; then
    fail "make the Windows module and LuaJIT (see $work/windows-build.log)"; tail -n 20 "$work/windows-build.log"
    finish
fi
# The same prefix as suite 40's, made the same way when that suite has not run.
if [ ! -f "$WINEPREFIX/.collide2d-ready" ]; then
    rm -rf "$WINEPREFIX"
    if "$WINE" wineboot -i > "$work/wineboot.log" 2>&1 && "$WINESERVER" -w; then
        touch "$WINEPREFIX/.collide2d-ready"
    else
        fail "wineboot could not make the Wine prefix $WINEPREFIX"; finish
    fi
fi
w="$work/wine"
mkdir -p "$w/bin" "$w/game/lib/windows-x86_64" "$w/save" "$w/none" "$w/save-none"
cp "$B/windows/luajit/luajit.exe" "$B/windows/luajit/lua51.dll" "$w/bin/"
cp lua/collide2d_loader.lua "$w/game/"
cp lua/collide2d_loader.lua "$w/none/"
cp "$B/windows/lua51/collide2d.dll" "$w/game/lib/windows-x86_64/"
# Wine's drive Z: is the Unix root: Windows paths, with "/" as LÖVE gives them.
winpath() { echo "Z:$1"; }
run_wine() { # expect game save what log
    log="$work/wine-$5.log"
    env -u LUA_CPATH -u LUA_PATH "$WINE" "$w/bin/luajit.exe" spec/loader/wine_check.lua "$1" "$(winpath "$2")" \
        "$(winpath "$3")" 2>&1 | tr -d '\r' > "$log"
    status=$?
    sed "s/^/    /" "$log"
    passed=$((passed + $(grep -c '^ok - ' "$log")))
    failed=$((failed + $(grep -c '^not ok - ' "$log")))
    grep -q '^ok - ' "$log" && ! grep -q '^not ok - ' "$log" && ok "$4: every check passed" \
        || fail "$4: the checks did not all pass"
}
run_wine copy "$w/game" "$w/save" "Windows, LuaJIT with the love stand-in, first start" copy1
dll=$(ls "$w"/save/collide2d-native/windows-x86_64-*/collide2d.dll 2>/dev/null)
[ -n "$dll" ] && cmp -s "$dll" "$B/windows/lua51/collide2d.dll" && grep -q '^# writes 1$' "$work/wine-copy1.log" \
    && ok "the DLL was copied into the save directory, once" || fail "no copy of the DLL in $w/save"
run_wine copy "$w/game" "$w/save" "Windows, second start" copy2
grep -q '^# writes 0$' "$work/wine-copy2.log" && ok "the second start writes nothing" \
    || fail "the second start wrote the DLL again"
run_wine missing "$w/none" "$w/save-none" "Windows, a game without the DLL" missing
run_wine plain "$w/game" "$w/save" "Windows, LuaJIT without LÖVE" plain
"$WINESERVER" -k 2>/dev/null
stamp "Wine runs"

finish
