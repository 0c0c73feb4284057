#!/bin/sh
# Makes sure the Debian packages collide2d builds and tests with are present. As root it installs
# the missing ones with apt-get; otherwise it names them and fails, so nobody is left guessing.
# The Windows build (mk/windows.mk) also needs Debian's source package of Lua 5.1 (`apt-get source
# lua5.1`), so as root this adds a deb-src entry for the Debian archive the machine already uses.
# The ARM64 build (mk/arm64.mk) cross-compiles with gcc-aarch64-linux-gnu and its C library
# (libc6-dev-arm64-cross, which --no-install-recommends would leave out), runs under qemu-user's
# qemu-aarch64, and fetches its Lua interpreters and GMP the same way (m4 for GMP's configure); it adds
# no foreign architecture to dpkg.
set -u
PKGS="gcc g++ make pkg-config lua5.4 liblua5.4-dev lua5.1 liblua5.1-0-dev luajit libluajit-5.1-dev
lua-busted luarocks love xvfb xauth libgl1-mesa-dri libegl-mesa0 libbox2d-dev libchipmunk-dev
abigail-tools clang libclang-rt-14-dev llvm-14 valgrind libgmp-dev python3
gcc-mingw-w64-x86-64-win32 gcc-mingw-w64-i686-win32 wine64 dpkg-dev
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user m4"
DEB_SRC_LIST=/etc/apt/sources.list.d/collide2d-deb-src.sources

# Prints the machine's own 'deb' entries for its Debian release (those whose suite is the release's
# codename) as deb-src entries in deb822 form: the same archive, the same keyring. Nothing is invented,
# so the sources come from wherever the binary packages come from.
deb_src_entries() {
    codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    [ -n "$codename" ] || return 0
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && [ "$f" != "$DEB_SRC_LIST" ] || continue
        awk -v cn="$codename" 'BEGIN { RS = ""; ORS = "" }
        {
            deb = 0; suite = 0; n = split($0, L, "\n")
            for (i = 1; i <= n; i++) {
                if (L[i] ~ /^Types:/ && L[i] ~ /[ \t]deb([ \t]|$)/) deb = 1
                if (L[i] ~ /^Suites:/) { m = split(L[i], S, /[ \t]+/); for (j = 2; j <= m; j++) if (S[j] == cn) suite = 1 }
            }
            if (!deb || !suite) next
            for (i = 1; i <= n; i++) {
                if (L[i] ~ /^#/) continue
                print (L[i] ~ /^Types:/ ? "Types: deb-src" : L[i]) "\n"
            }
            print "\n"
        }' "$f"
    done
    # One-line entries: "deb [options] URI SUITE COMPONENTS..."
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk -v cn="$codename" '$1 == "deb" {
            line = $0; sub(/^deb[ \t]+/, "", line)
            opts = ""; if (line ~ /^\[/) { opts = substr(line, 1, index(line, "]")); line = substr(line, index(line, "]") + 1) }
            n = split(line, F, /[ \t]+/); k = (F[1] == "") ? 2 : 1
            if (F[k + 1] != cn) next
            printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", F[k], F[k + 1]
            for (i = k + 2; i <= n; i++) printf " %s", F[i]
            printf "\n"
            if (match(opts, /signed-by=[^] \t]+/)) printf "Signed-By: %s\n", substr(opts, RSTART + 10, RLENGTH - 10)
            printf "\n"
        }' "$f"
    done
}

# zip makes the .love files of suite 42 (the loader for LÖVE games). The macOS cross build (mk/macos.mk,
# suite 41) fetches zig with npm and links with lld-14's ld64.lld; qemu-user and libc6-arm64-cross run
# the same compiler's ARM64 Linux build of the shared cases.
# npm comes with some builds of nodejs (which then conflict with Debian's npm): asked for only when
# no npm command is there.
PKGS="$PKGS zip lld-14 qemu-user libc6-arm64-cross"
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
need_src=0
command -v apt-cache >/dev/null 2>&1 && ! apt-cache showsrc lua5.1 >/dev/null 2>&1 && need_src=1
[ -z "$missing" ] && [ $need_src -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    if [ $need_src -eq 1 ]; then
        entries=$(deb_src_entries)
        if [ -n "$entries" ]; then
            echo "deps: adding deb-src entries ($DEB_SRC_LIST) for apt-get source lua5.1" >&2
            printf '%s\n' "$entries" > "$DEB_SRC_LIST"
        else
            echo "deps: found no 'deb' entry for this Debian release to copy as deb-src" >&2
        fi
    fi
    apt-get update -qq >&2 || { echo "deps: apt-get update failed" >&2; exit 1; }
    [ -z "$missing" ] && exit 0
    echo "deps: installing$missing" >&2
    apt-get install -y -qq --no-install-recommends $missing >&2 && exit 0
    echo "deps: apt-get failed" >&2
    exit 1
fi
[ -n "$missing" ] && echo "deps: missing Debian packages; run as root:  apt-get install$missing" >&2
[ $need_src -eq 1 ] && echo "deps: no deb-src entry for lua5.1 (the Windows build needs apt-get source lua5.1); as root, add one and run apt-get update" >&2
exit 1
