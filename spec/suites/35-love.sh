# The LÖVE check: copies the Lua 5.1 build of the module into a copy of the game in spec/love/, runs it
# under LÖVE 11 on a virtual X display, and checks its exit status (42 means every in-game check
# passed), its "ok - " lines, and the screenshot it saved (a 320x240 PNG in its save directory).
set -u
build=${BUILD:-build}
case $build in /*) abs=$build ;; *) abs="$PWD/$build" ;; esac
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }
for tool in love xvfb-run; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not found: apt-get install love xvfb xauth"; exit 1; }
done
make --no-print-directory -s BUILD="$build" "$build/lua51/collide2d.so" || exit 1

game="$abs/love-check/game"
save="$abs/love-check/save"
rm -rf "$abs/love-check"
mkdir -p "$game" "$save"
cp spec/love/main.lua spec/love/conf.lua "$build/lua51/collide2d.so" "$game/"

# From / and without LUA_CPATH, only LÖVE's own C loader (love.filesystem.getCRequirePath) can find
# the module: the copy in the game directory. The timeout turns a hung game into a failure.
log="$abs/love-check/game.log"
(cd / && env -u LUA_CPATH -u LUA_PATH XDG_DATA_HOME="$save" timeout 60 xvfb-run -a love "$game") > "$log" 2>&1
status=$?
cat "$log"
passed=$((passed + $(grep -c '^ok - ' "$log")))
failed=$((failed + $(grep -c '^not ok - ' "$log")))

if [ "$status" -eq 42 ]; then ok "the game quit with status 42"; else fail "the game quit with status $status, not 42"; fi

png="$save/love/collide2d-check/check.png"
if [ -f "$png" ]; then
    magic=$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')
    # The IHDR chunk follows the signature: width and height are big-endian at bytes 16..23.
    size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
    [ "$magic" = "89504e470d0a1a0a" ] && ok "the screenshot is a PNG" || fail "the screenshot is not a PNG ($magic)"
    [ "$size" = "320x240" ] && ok "the screenshot is 320x240" || fail "the screenshot is $size, not 320x240"
else
    fail "no screenshot at $png"
fi
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
