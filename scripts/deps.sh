#!/bin/sh
# Makes sure the Debian packages collide2d builds and tests with are present. As root it installs
# the missing ones with apt-get; otherwise it names them and fails, so nobody is left guessing.
set -u
PKGS="gcc g++ make pkg-config lua5.4 liblua5.4-dev lua5.1 liblua5.1-0-dev luajit libluajit-5.1-dev
lua-busted luarocks love xvfb xauth libgl1-mesa-dri libegl-mesa0 libbox2d-dev libchipmunk-dev
abigail-tools clang libclang-rt-14-dev llvm-14 valgrind python3"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends $missing >&2 && exit 0
    echo "deps: apt-get failed" >&2
    exit 1
fi
echo "deps: missing Debian packages; run as root:  apt-get install$missing" >&2
exit 1
