#!/usr/bin/env bash
# install-deps.sh run|test|fuzz: installs the Debian 12 packages that
# Tachyon Viewer needs for what you ask:
#
#   run   build the viewer and run it (the README's first command)
#   test  run, and what build-aux/run-tests.sh needs (the second; CI)
#   fuzz  test, and clang for tests/fuzz/run-fuzzer.sh
#
# Run it as root (or through sudo).  Packages are installed without their
# Recommends, so each list names everything it needs: the lists were
# checked against a fresh debootstrap --variant=minbase root with only
# gcc, make, git and sudo added (see PLATFORM.md's last section).
#
# One package a line, sorted, with what needs it.  A package goes in the
# list of the first profile that needs it.
set -euo pipefail

# Building, running and `meson install`ing the viewer.
run_packages=(
  adwaita-icon-theme        # the symbolic icons of the window
  desktop-file-utils        # update-desktop-database, run by meson install
  fonts-cantarell           # GNOME's interface font
  fonts-dejavu-core         # the monospaced font of the source view
  gcc                       # the compiler
  gettext                   # msgfmt: the translations, .desktop, metainfo, MIME
  hicolor-icon-theme        # the folder the application icon goes in
  libadwaita-1-dev
  libc6-dev                 # the C library's headers (gcc only recommends them)
  libglib2.0-bin            # glib-compile-schemas
  libglib2.0-dev
  libglib2.0-dev-bin        # glib-compile-resources
  libgtk-4-bin              # gtk4-update-icon-cache, run by meson install
  libgtk-4-dev
  libjson-glib-dev          # the JSON of --compare --info --json
  libgtksourceview-5-dev    # the source panel: Python's syntax colours, line numbers, its gutter
  libprotobuf-c-dev         # --export pprof: protobuf-c encodes profile.proto
  librsvg2-common           # gdk-pixbuf's SVG loader: the icons are SVG
  libzstd-dev
  meson
  ninja-build
  pkg-config
  protobuf-c-compiler       # protoc-c compiles pprof's profile.proto
  shared-mime-info          # the MIME type's ITS rules; update-mime-database
  zlib1g-dev                # --export pprof is gzipped
)

# Everything build-aux/run-tests.sh runs, on top of the above.
test_packages=(
  appstream                 # appstreamcli validate: the metainfo
  chromium                  # the HTML export, driven headless
  dbus                      # dbus-run-session: the tests' own session bus
  flatpak-builder           # --show-manifest: the Flatpak manifest
  golang-go                 # go tool pprof, Google's reader of the pprof export
  libfile-mimeinfo-perl     # mimetype, which xdg-mime uses
  libxml2-utils             # xmllint: the SVG export
  python3                   # the command-line, export and data-file tests; pstats reads the pstats export
  xauth                     # xvfb-run
  xdg-utils                 # xdg-mime: the MIME type's handler
  xdotool                   # the timeline's pointer tests
  xvfb                      # the X server of the UI tests
  zstd                      # the reference reader, tachgen.py, (de)compresses with it
)

# tests/fuzz/run-fuzzer.sh: libFuzzer.
fuzz_packages=(
  clang
  libclang-rt-14-dev
)

usage() {
  echo "usage: $0 run|test|fuzz" >&2
  echo "  run   what building and running the viewer needs" >&2
  echo "  test  run, and what build-aux/run-tests.sh needs" >&2
  echo "  fuzz  test, and clang for tests/fuzz/run-fuzzer.sh" >&2
  exit 2
}

[ $# -eq 1 ] || usage
case "$1" in
  run)  packages=("${run_packages[@]}") ;;
  test) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
  fuzz) packages=("${run_packages[@]}" "${test_packages[@]}" "${fuzz_packages[@]}") ;;
  *)    usage ;;
esac

# The test clients run on node (tests/clients): from Debian unless the
# machine has them, since a NodeSource nodejs brings its own npm, which
# Debian's npm package conflicts with.
if [ "$1" != run ]; then
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: every package for '$1' is installed"
elif [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: run me as root (sudo bash $0 $1) to install: ${missing[*]}" >&2
  exit 1
else
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

[ "$1" != run ] || exit 0

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

