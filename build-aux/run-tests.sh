#!/usr/bin/env bash
# Builds Tachyon Viewer twice, plainly and with ASan+UBSan, runs every test
# of both under one X server and one session bus, and ends with the line
# "N passed, N failed".  Exits non-zero when a test failed.
#
# The reference suite runs the reference reader, tachgen.py, which is not
# part of the project: $TACHGEN, else ../shared/tools/tachgen.py beside the
# source.  Without it, that suite does not run, and the output says so;
# with TACHYON_REQUIRE_REFERENCE=1 (CI) its absence is a failure.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

fail() { echo "run-tests: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

reference=${TACHGEN:-$top/../shared/tools/tachgen.py}
not_run=
if [ -f "$reference" ]; then
  TACHGEN=$(cd "$(dirname "$reference")" && pwd)/$(basename "$reference")
  export TACHGEN
  echo "run-tests: the reference suite runs $TACHGEN"
  suites=()
else
  not_run="the reference suite did not run: there is no reference reader at $reference (set TACHGEN to tachgen.py, or put shared/ beside the source)"
  [ "${TACHYON_REQUIRE_REFERENCE:-0}" = 1 ] && fail "$not_run, and TACHYON_REQUIRE_REFERENCE is set"
  echo "run-tests: $not_run"
  suites=(--no-suite reference)
fi

setup() {
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null || return 1
  else
    meson setup "$dir" "$@" || return 1
  fi
}

setup build || fail "meson setup build failed"
ninja -C build || fail "the build failed"
setup build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug \
  || fail "meson setup build-asan failed"
ninja -C build-asan || fail "the sanitizer build failed"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export GDK_DEBUG=gl-disable

run_suite() {
  local dir=$1; shift
  xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- \
    meson test -C "$dir" --print-errorlogs "$@"
}

run_suite build --num-processes 2 "${suites[@]}"
run_suite build-asan --num-processes 2 --timeout-multiplier 4 "${suites[@]}"

[ -n "$not_run" ] && echo "run-tests: $not_run"

python3 - "$top/build/meson-logs/testlog.json" "$top/build-asan/meson-logs/testlog.json" <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        failed += 1
        print(f"missing {path}", file=sys.stderr)
        continue
    for line in lines:
        if not line.strip():
            continue
        r = json.loads(line)["result"]
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
            print(f"skipped: {json.loads(line)['name']}", file=sys.stderr)
        else:
            failed += 1
# A skipped test hides a broken set-up: count it as a failure.
failed += skipped
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
