#!/usr/bin/env python3
# Smoke test of tachyon-bench: a small profile is generated, then decoded,
# and the JSON line of --decode must parse and count every sample.
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import subprocess
import sys
import tempfile

SAMPLES = 20000


def run(bench, *args):
    proc = subprocess.run([bench, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("tachyon-bench %s failed (%d): %s"
                 % (" ".join(args), proc.returncode, proc.stderr.strip()))
    lines = proc.stdout.splitlines()
    if len(lines) != 1:
        sys.exit("expected one line of output, got %r" % proc.stdout)
    return json.loads(lines[0])


def check_decode(bench, path, compressed):
    result = run(bench, "--decode", path, "--runs", "1")
    if result["samples"] != SAMPLES:
        sys.exit("decoded %r samples, expected %d" % (result["samples"], SAMPLES))
    if result["file_bytes"] != os.path.getsize(path):
        sys.exit("file_bytes %r, file has %d" % (result["file_bytes"], os.path.getsize(path)))
    if result["decode_seconds"] <= 0:
        sys.exit("decode_seconds %r" % result["decode_seconds"])
    if compressed:
        if result["zstd_seconds"] <= 0 or not isinstance(result["ratio"], (int, float)):
            sys.exit("compressed file: zstd_seconds %r ratio %r"
                     % (result["zstd_seconds"], result["ratio"]))
    elif result["zstd_seconds"] != 0 or result["ratio"] is not None:
        sys.exit("uncompressed file: zstd_seconds %r ratio %r"
                 % (result["zstd_seconds"], result["ratio"]))
    print(json.dumps(result))


def main():
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="tachyon-bench-") as tmp:
        a = os.path.join(tmp, "a.tach")
        b = os.path.join(tmp, "b.tach")
        raw = os.path.join(tmp, "raw.tach")
        run(bench, "--generate", str(SAMPLES), a, "--seed", "7")
        check_decode(bench, a, True)
        # The generator is deterministic for a seed.
        run(bench, "--generate", str(SAMPLES), b, "--seed", "7")
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() != fb.read():
                sys.exit("two runs with the same seed wrote different files")
        run(bench, "--generate", str(SAMPLES), raw, "--seed", "7", "--no-zstd")
        check_decode(bench, raw, False)


if __name__ == "__main__":
    main()
