#!/bin/sh
# run-fuzzer.sh [SECONDS] [TARGET]
#
# Builds the libFuzzer binary of TARGET (reader or roundtrip; default reader)
# from format/*.c with clang, AddressSanitizer and UndefinedBehaviorSanitizer,
# then fuzzes it for SECONDS (default 60) in libFuzzer's fork mode, one
# worker per CPU (at most 2 unless FUZZ_WORKERS says otherwise).
#
# Everything goes under FUZZ_WORKDIR (default /tmp/fuzz-TARGET):
#   build/fuzz-TARGET   the binary; run it on one file to reproduce a crash
#   corpus/             the working corpus, kept between runs and seeded from
#                       tests/fuzz/corpus/TARGET (and, for the reader, the
#                       files of tests/data up to FUZZ_MAX_LEN bytes)
#   artifacts/          crash-*, leak-*, timeout-*, oom-* inputs
#   fuzz.log            libFuzzer's output
#
# Other settings, from the environment:
#   FUZZ_WORKERS         parallel workers (default: CPUs, at most 2)
#   FUZZ_MAX_LEN         -max_len (default 65536)
#   FUZZ_TIMEOUT         seconds per input before it counts as a hang (30)
#   FUZZ_RSS_MB          memory limit per worker (3072; the decoder may
#                        legitimately inflate a zstd region to 1 GiB)
#   FUZZ_IGNORE_CRASHES  1: keep fuzzing after a crash (default 0: stop)
#   FUZZ_ARGS            more libFuzzer options
#   FUZZ_CFLAGS          more compiler options (e.g. -DFUZZ_NO_KIND_CHECK)
#   CC                   compiler (default clang)
#
# Exit status: 0 no finding; 1 a crash or leak was found (the reproducers are
# listed); 2 usage or build error; 3 only timeouts or out-of-memory inputs.
set -u

usage ()
{
  echo "usage: $0 [SECONDS] [reader|roundtrip]" >&2
  exit 2
}

seconds=${1:-60}
target=${2:-reader}
case $seconds in
  ''|*[!0-9]*) usage ;;
esac
case $target in
  reader|roundtrip) ;;
  *) usage ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${FUZZ_WORKDIR:-/tmp/fuzz-$target}
cc=${CC:-clang}
max_len=${FUZZ_MAX_LEN:-65536}
timeout=${FUZZ_TIMEOUT:-30}
rss_mb=${FUZZ_RSS_MB:-3072}
ignore_crashes=${FUZZ_IGNORE_CRASHES:-0}
workers=${FUZZ_WORKERS:-$(nproc 2>/dev/null || echo 2)}
if [ -z "${FUZZ_WORKERS:-}" ] && [ "$workers" -gt 2 ]; then
  workers=2
fi

mkdir -p "$work/build" "$work/corpus" "$work/artifacts" "$work/tmp" || exit 2
bin=$work/build/fuzz-$target

echo "run-fuzzer: building $bin"
# shellcheck disable=SC2086
"$cc" -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -D_GNU_SOURCE -DTACH_COMPILATION -I"$top/format" ${FUZZ_CFLAGS:-} \
  "$top"/format/*.c "$here/fuzz-$target.c" -lzstd -lm -pthread -o "$bin" || exit 2

# Seeds.  Larger files would be cut to max_len, which ruins them (the
# footer is at the end), so they are left out.
seed ()
{
  dir=$1
  prefix=$2
  [ -d "$dir" ] || return 0
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    size=$(wc -c < "$f")
    if [ "$size" -le "$max_len" ]; then
      cp -f "$f" "$work/corpus/$prefix-$(basename "$f")"
    fi
  done
}

seed "$here/corpus/$target" seed
dict=
if [ "$target" = reader ]; then
  seed "$top/tests/data/valid" valid
  seed "$top/tests/data/invalid" invalid
  dict=-dict=$here/tach.dict
fi

# libFuzzer's fork mode drops seeds that crash without a word, so run each
# seed once on its own first.
: > "$work/seeds.log"
seed_crashes=0
for f in "$work"/corpus/seed-* "$work"/corpus/valid-* "$work"/corpus/invalid-*; do
  [ -f "$f" ] || continue
  if ! "$bin" -runs=1 "$f" >> "$work/seeds.log" 2>&1; then
    seed_crashes=$((seed_crashes + 1))
    echo "run-fuzzer: CRASH on seed $f (log: $work/seeds.log)"
  fi
done

touch "$work/.start"
echo "run-fuzzer: fuzzing $target for ${seconds}s with $workers workers in $work"

# The roundtrip target writes a file per input, under TMPDIR: memory if
# possible.
tmp=$work/tmp
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  tmp=/dev/shm/tach-fuzz-$target
  mkdir -p "$tmp" || tmp=$work/tmp
fi
# shellcheck disable=SC2086
(cd "$work" && TMPDIR="$tmp" "$bin" \
   -fork="$workers" \
   -max_total_time="$seconds" \
   -max_len="$max_len" \
   -timeout="$timeout" \
   -rss_limit_mb="$rss_mb" \
   -use_value_profile=1 \
   -ignore_crashes="$ignore_crashes" \
   -artifact_prefix="$work/artifacts/" \
   $dict ${FUZZ_ARGS:-} \
   "$work/corpus" > "$work/fuzz.log" 2>&1)
status=$?

echo "run-fuzzer: libFuzzer exited with status $status; log in $work/fuzz.log"
last=$(grep -E '^#[0-9]+: cov:' "$work/fuzz.log" | tail -n 1)
echo "run-fuzzer: final stats: ${last:-(none)}"
echo "run-fuzzer: corpus: $(find "$work/corpus" -type f | wc -l) inputs in $work/corpus"

# Artifacts of this run; only the first ten are named.
found=0
hangs=0
for f in $(find "$work/artifacts" -type f -newer "$work/.start" | sort); do
  case $(basename "$f") in
    crash-*|leak-*|deadly*|ub-*)
      found=$((found + 1))
      if [ "$found" -le 10 ]; then
        echo "run-fuzzer: CRASH: $f"
      fi ;;
    timeout-*|slow-unit-*|oom-*)
      hangs=$((hangs + 1))
      if [ "$hangs" -le 10 ]; then
        echo "run-fuzzer: hang or out of memory: $f"
      fi ;;
  esac
done

if [ "$seed_crashes" -gt 0 ]; then
  echo "run-fuzzer: $seed_crashes seed(s) crash; first report:"
  grep -m 1 -A 20 -E '^==[0-9]+==ERROR|invariant broken|roundtrip check failed|runtime error' \
    "$work/seeds.log" | grep -v -E '^ +#[0-9]+ .* in fuzzer::' || true
fi
if [ "$found" -gt 0 ]; then
  echo "run-fuzzer: $found crash(es) found; reproduce one with: $bin ARTIFACT"
  echo "run-fuzzer: distinct failures (count, first line):"
  grep -E 'invariant broken|roundtrip check failed|runtime error|ERROR: (Address|Leak)Sanitizer' \
    "$work/fuzz.log" | sed -e 's/==[0-9]*==//' | sort | uniq -c | sort -rn | head -n 20
  echo "run-fuzzer: first report:"
  grep -m 1 -A 40 -E '^==[0-9]+==ERROR|invariant broken|roundtrip check failed|runtime error' \
    "$work/fuzz.log" | grep -v -E '^ +#[0-9]+ .* in fuzzer::' || true
  exit 1
fi
if [ "$seed_crashes" -gt 0 ]; then
  exit 1
fi
# In fork mode a crash can also be reported without an artifact we saw.
if [ "$status" -ne 0 ] && [ "$hangs" -eq 0 ]; then
  echo "run-fuzzer: libFuzzer failed (status $status) without artifacts; see $work/fuzz.log"
  exit 1
fi
if [ "$hangs" -gt 0 ]; then
  echo "run-fuzzer: $hangs timeout/out-of-memory input(s), no crash"
  exit 3
fi
echo "run-fuzzer: no crash"
exit 0
