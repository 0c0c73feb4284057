#!/bin/sh
# scripts/love_demo.sh - runs one of the LÖVE games for `make demo` (mk/demo.mk): with a $DISPLAY (and
# no DEMO_AUTOPLAY) a window to play; else FRAMES frames of autoplay on a virtual X display
# (xvfb-run), under a timeout, the game checking itself and saving a picture. Usage:
#   sh scripts/love_demo.sh GAME_DIR LABEL FRAMES TIMEOUT KEYS PICTURE [NAME=VALUE ...]
# GAME_DIR holds the game's Lua files and the 5.1 module; LABEL names it (examples/love/pinball), KEYS
# says how to play; NAME=VALUE pairs are handed to the autoplay run's environment. Exits with the
# game's status: 0, or 1 when its checks failed.
set -u
game=$1 label=$2 frames=$3 timeout=$4 keys=$5 picture=$6
shift 6
pkgs="love xvfb xauth libgl1-mesa-dri"
command -v love >/dev/null 2>&1 || { echo "demo: LÖVE 11 not found; run as root: apt-get install $pkgs" >&2; exit 1; }
if [ -n "${DISPLAY:-}" ] && [ -z "${DEMO_AUTOPLAY:-}" ]; then
    echo "== LÖVE: $label ($keys)"
    exec love "$game"
fi
command -v xvfb-run >/dev/null 2>&1 || { echo "demo: xvfb-run not found; run as root: apt-get install $pkgs" >&2; exit 1; }
echo "== LÖVE: $label, autoplay $frames frames on a virtual display"
dir=$(dirname "$picture")
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
rm -f "$picture"
env COLLIDE2D_AUTOPLAY="$frames" COLLIDE2D_SCREENSHOT="$dir/$(basename "$picture")" XDG_DATA_HOME="$dir/save" "$@" \
    timeout "$timeout" xvfb-run -a love "$game"
status=$?
[ "$status" -eq 124 ] && echo "demo: LÖVE did not finish within $timeout s" >&2
exit "$status"
