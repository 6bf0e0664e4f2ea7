#!/usr/bin/env bash
# Installs what Tachyon Viewer needs to build, run and test on Debian 12.
# Run as root (or through sudo).
set -euo pipefail

packages=(
  # build
  meson ninja-build pkg-config gcc libgtk-4-dev libadwaita-1-dev libzstd-dev
  libglib2.0-dev libglib2.0-dev-bin libglib2.0-bin gettext
  # tests: the reference reader, sanitizers and fuzzing, headless GUI
  python3 zstd clang libclang-rt-14-dev chromium
  xvfb xauth dbus dbus-x11 at-spi2-core xdotool x11-utils imagemagick
  libxml2-utils desktop-file-utils appstream appstream-util shared-mime-info
  xdg-utils libfile-mimeinfo-perl libgtk-4-bin
  flatpak flatpak-builder
  # run: icons and fonts
  hicolor-icon-theme adwaita-icon-theme fonts-cantarell fonts-dejavu-core
)

# --- pstats and pprof exports (src/export/tv-export-pprof.c, tests/clients) ---
# build: protoc-c compiles pprof's profile.proto; libprotobuf-c encodes it and
# zlib gzips it.  test: Debian's python3 (above) reads the pstats files; the
# npm package pprof-format (tests/clients/package-lock.json) decodes the pprof
# ones on node, and golang-go's `go tool pprof` (Google's own reader) parses
# them.  node and npm come from Debian unless the machine has them: a
# NodeSource nodejs brings its own npm, which Debian's npm package conflicts
# with.
packages+=(libprotobuf-c-dev protobuf-c-compiler zlib1g-dev golang-go)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
# --- end of the pstats and pprof block ---

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: every package is installed"
elif [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: run me as root (sudo $0) to install: ${missing[*]}" >&2
  exit 1
else
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --- test clients: npm packages ---------------------------------------------
# The real clients the export tests open our files in (tests/clients):
# speedscope and playwright-core, which drives Debian's chromium,
# pprof-format, and the Firefox Profiler's command line
# (@firefox-devtools/profiler-cli, which asks for Node 24 but runs on
# Debian's 20: npm only warns), at the versions of
# tests/clients/package-lock.json.  `npm ci` installs exactly
# those, runs no install script, and downloads no browser.  It is run as
# the user who called sudo, so that the checkout keeps its owner, and
# again only when the lock file changed.
clients=$(cd "$(dirname "$0")/../tests/clients" && pwd)
if ! cmp -s "$clients/package-lock.json" "$clients/node_modules/.tv-installed-lock.json"; then
  as_user=()
  if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    as_user=(sudo -u "$SUDO_USER" -H)
  fi
  (cd "$clients" \
     && "${as_user[@]}" env PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
          npm ci --ignore-scripts --no-audit --no-fund --loglevel=error \
     && "${as_user[@]}" cp package-lock.json node_modules/.tv-installed-lock.json)
  echo "install-deps: the test clients are installed in tests/clients/node_modules"
fi
