#!/bin/bash
# run-viewer.sh [FILE…]: builds Tachyon Viewer in build/ (setting it up the
# first time) and opens FILE…, or the demo profile bundled with the program
# when no file is given.  Runs uninstalled: the settings schema comes from
# the build directory.
set -euo pipefail

top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ ! -f "$top/build/build.ninja" ]; then
  meson setup "$top/build" "$top"
fi
ninja -C "$top/build"

export GSETTINGS_SCHEMA_DIR="$top/build/data"
if [ $# -eq 0 ]; then
  set -- --demo
fi
exec "$top/build/src/tachyon-viewer" "$@"
