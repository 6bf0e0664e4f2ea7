#!/usr/bin/env python3
"""Tests of tachyon-viewer's command-line modes against the reference.

Usage: test-cli.py --exe PATH --tool PATH [--bench PATH] GROUP

GROUP is one of: info, human, invalid, collapsed, args, compare, names, quality, and, for
the reference suite, generated and big.  Prints TAP.  The corpus comes
from $TACH_TEST_DATA (valid/, invalid/, manifest.json), with what the
reference implementation, tachgen.py, says about it (reference.json);
profiles made for a test are written by tach-tool (--tool, tests/tools).

generated and big run the reference itself ($TACHGEN, else
$TACH_REFERENCE_DEFAULT, see tests/tools/reference.py) on profiles made at
test time: random ones full of the corner cases of the collapsed format
(written by tachgen), and a big one of tachyon-bench --generate.  Without
the reference they are skipped (TAP's "1..0 # SKIP"); run-tests.sh then
does not run them.  Standard library only: CI runs this with Debian's python3.
"""

import argparse
import decimal
import json
import math
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import reference  # noqa: E402
import testlib  # noqa: E402
from testlib import Tap, parse_collapsed, strict_json  # noqa: E402

PROG = "tachyon-viewer"

# Keys of CPython's BinaryReader.get_info() (SPEC §12) and the viewer's own.
GET_INFO_KEYS = [
    "version", "python_version", "start_time_us", "sample_interval_us",
    "sample_count", "thread_count", "string_count", "frame_count",
    "compression_type", "mode", "duration_sec", "sample_rate", "error_rate",
    "missed_samples",
]
OUR_KEYS = GET_INFO_KEYS + ["byte_order", "file_size", "compression", "warnings", "decoded"]
DECODED_KEYS = ["samples", "first_timestamp_us", "last_timestamp_us", "max_depth", "threads"]
THREAD_KEYS = ["thread_id", "interpreter_id", "samples", "first_timestamp_us",
               "last_timestamp_us", "status_counts"]
STATUS_KEYS = [  # (our key, manifest key, bit)
    ("has_gil", "HAS_GIL", 0x01),
    ("on_cpu", "ON_CPU", 0x02),
    ("unknown", "UNKNOWN", 0x04),
    ("gil_requested", "GIL_REQUESTED", 0x08),
    ("has_exception", "HAS_EXCEPTION", 0x10),
    ("main_thread", "MAIN_THREAD", 0x20),
]
STATS_LABELS = ["Duration", "Measured sample rate", "Error rate", "Missed samples"]
NOT_RECORDED = "not recorded in this file"

# Where the viewer's format library says something other than the
# manifest's (CPython's) message, on purpose.  file -> (how to compare,
# expected text, reason).  "contains" means the whole text must occur in
# our message; "prefix" that our message starts with it.  Any file not
# listed here must carry the manifest's "error" text verbatim (the library
# appends where in the file it went wrong).
#
# Not listed because the text is the same: the zstd files fail at open in
# CPython but when the samples are decoded in the viewer; the command line
# decodes everything before printing anything, so the phase does not show.
MESSAGE_EXCEPTIONS = {
    "valid/compression_type_7.tach": (
        "contains", "compression type 7 is not supported",
        "CPython silently reads unknown compression types as raw records; the "
        "viewer rejects types >= 2 (SPEC §9.4 item 13)"),
    "invalid/bad_magic.tach": (
        "prefix", "Invalid magic number: 0x58585858",
        "the manifest adds '(as read on a little-endian host)', which only "
        "tachgen prints"),
    "invalid/future_version.tach": (
        "prefix",
        "Binary file was created with Python 3.15.0 (format version 2), ",
        "CPython goes on with 'but this is Python <running version>'; the "
        "viewer names the format version it reads instead"),
    "invalid/beta_layout_u32_samples.tach": (
        "contains", "3.15 pre-release",
        "the viewer recognises the pre-rc1 header layout (SPEC §3.2) instead of "
        "failing on the misread string-table offset"),
}

# Valid files of the corpus that the viewer rejects (see MESSAGE_EXCEPTIONS).
REJECTED_VALID = {"valid/compression_type_7.tach"}


class Env(testlib.ViewerEnv):
    def __init__(self, exe, tool, bench=None):
        super().__init__(exe, tool, bench)
        # Only the reference suite's groups run the reference itself.
        self.tachgen = reference.find_tachgen()
        with open(os.path.join(self.data, "manifest.json"), encoding="utf-8") as fh:
            self.manifest = json.load(fh)

    def is_reference_collapsed(self, data, path):
        """Whether DATA is what the reference writes for `collapsed PATH`,
        PATH a corpus file."""
        return reference.sha256(data) == self.expected[self.key(path)]["collapsed"]["sha256"]

    def tachgen_run(self, *args):
        p = subprocess.run([sys.executable, self.tachgen] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=600)
        if p.returncode != 0:
            raise RuntimeError("tachgen %s failed (%d): %s %s"
                               % (" ".join(args), p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
        return p.stdout


def same_value(ours, ref):
    """Exact equality that does not confuse 1 with 1.0 or True."""
    if ref is None or ours is None:
        return ours is None and ref is None
    if isinstance(ref, bool) or isinstance(ours, bool):
        return False
    if isinstance(ref, float):
        return isinstance(ours, float) and (ours == ref or (math.isnan(ours) and math.isnan(ref)))
    if isinstance(ref, int):
        return isinstance(ours, int) and ours == ref
    return ours == ref


def check_error_run(env, problems, rc, out, err, path, expected=None, how="contains"):
    """Common checks of a run that must fail on PATH."""
    if rc != 1:
        problems.append("exit status %r, expected 1" % rc)
    if out:
        problems.append("stdout not empty: %r" % out[:300])
    prefix = "%s: %s: " % (PROG, path)
    if not err.startswith(prefix):
        problems.append("stderr does not start with %r: %r" % (prefix, err[:500]))
    if not err.endswith("\n") or err.count("\n") != 1:
        problems.append("stderr is not exactly one line: %r" % err[:500])
    if expected is not None:
        message = err[len(prefix):] if err.startswith(prefix) else err
        if how == "prefix":
            ok = message.startswith(expected)
        else:
            ok = expected in message
        if not ok:
            problems.append("message %r does not %s %r"
                            % (message.rstrip("\n"), "start with" if how == "prefix" else "contain",
                               expected))


def expected_message(env, key):
    exc = MESSAGE_EXCEPTIONS.get(key)
    if exc:
        return exc[1], exc[0]
    entry = env.manifest.get(key)
    if entry is None or "error" not in entry:
        return None, None
    return entry["error"], "contains"


# ---------------------------------------------------------------------------
# info: --info --json of every valid file against tachgen and the manifest
# ---------------------------------------------------------------------------

def threads_by_key(figures):
    """reference.thread_figures() as {(tid, iid): {samples, first, last,
    status}}, the shape of --info --json's threads."""
    return {(tid, iid): {"samples": n, "first": first, "last": last,
                         "status": {k: counts[i] for i, (k, _, _) in enumerate(STATUS_KEYS)}}
            for tid, iid, n, first, last, counts in figures}


def manifest_from_raw_dump(text, info):
    """What the manifest says about a corpus file, for a generated one."""
    man = {"info": info, "samples_decoded": 0, "max_depth": 0, "min_ts": None,
           "max_ts": None, "status_bits": {m: 0 for _, m, _ in STATUS_KEYS}}
    threads = set()
    for line in text.decode("utf-8").splitlines():
        iid, tid, ts, status, frames = line.split(" ")
        ts, status = int(ts), int(status)
        man["samples_decoded"] += 1
        man["max_depth"] = max(man["max_depth"], len(frames.split(",")) if frames else 0)
        man["min_ts"] = ts if man["min_ts"] is None else min(man["min_ts"], ts)
        man["max_ts"] = ts if man["max_ts"] is None else max(man["max_ts"], ts)
        for _, m, bit in STATUS_KEYS:
            if status & bit:
                man["status_bits"][m] += 1
        threads.add((int(tid), int(iid)))
    man["threads_seen"] = len(threads)
    return man


def run_info(env, path, *args):
    """--info with ARGS on PATH: its problems so far, and its output, None
    where there is nothing more to check (a file the viewer refuses, whose
    message was checked, or a run that failed)."""
    key = env.key(path)
    problems = []
    rc, out, err = env.run("--info", *args, path)
    if key in REJECTED_VALID:
        text, how = expected_message(env, key)
        check_error_run(env, problems, rc, out, err, path, text, how)
        return problems, None
    if rc != 0:
        return ["exit status %d, stderr: %s" % (rc, err)], None
    if err:
        problems.append("stderr not empty: %r" % err[:500])
    return problems, out


def check_info_file(env, path, generated=False):
    key = env.key(path)
    problems, out = run_info(env, path, "--json")
    if out is None:
        return problems
    try:
        ours = strict_json(out)
    except ValueError as e:
        return problems + ["stdout is not one JSON object: %s\n%r" % (e, out[:1000])]
    if not isinstance(ours, dict):
        return problems + ["stdout is not a JSON object"]
    if list(ours.keys()) != OUR_KEYS:
        problems.append("keys %r, expected %r" % (list(ours.keys()), OUR_KEYS))

    if generated:
        # A profile made at test time: the reference reader itself.
        ref = json.loads(env.tachgen_run("info", "--json", path))
        raw_text = env.tachgen_run("dump", "--raw", path)
        man = manifest_from_raw_dump(raw_text, ref["info"])
        figures = reference.thread_figures(raw_text)
    else:
        ref = env.expected.get(key)
        man = env.manifest.get(key)
        if man is None or ref is None:
            return problems + ["%s is not in manifest.json and reference.json" % key]
        figures = ref["threads"]
    info, details = ref["info"], ref["details"]

    for k in GET_INFO_KEYS:
        if k not in ours:
            continue
        if k == "mode":
            if ours[k] != details["mode_name"]:
                problems.append("mode %r, tachgen %r" % (ours[k], details["mode_name"]))
        elif k == "python_version":
            want = "%d.%d.%d" % tuple(info[k])
            if ours[k] != want:
                problems.append("python_version %r, tachgen %r" % (ours[k], want))
        elif not same_value(ours[k], info[k]):
            problems.append("%s %r, tachgen %r" % (k, ours[k], info[k]))
        if k in info and man["info"].get(k) != info[k] and k != "python_version":
            problems.append("tachgen and manifest disagree on %s" % k)

    if ours.get("byte_order") != details["endian"]:
        problems.append("byte_order %r, tachgen %r" % (ours.get("byte_order"), details["endian"]))
    real_size = os.path.getsize(path)
    if ours.get("file_size") != real_size or details["file_size"] != real_size:
        problems.append("file_size %r, real %d" % (ours.get("file_size"), real_size))
    want_comp = {0: "none", 1: "zstd"}.get(info["compression_type"], "unknown")
    if ours.get("compression") != want_comp:
        problems.append("compression %r, expected %r" % (ours.get("compression"), want_comp))

    # The findings; the format library's own warnings are those of kind
    # "file", as many as tachgen's.
    warnings = ours.get("warnings")
    if not isinstance(warnings, list) or not all(
            isinstance(w, dict) and isinstance(w.get("kind"), str)
            and w.get("severity") in ("notice", "warning", "severe")
            and isinstance(w.get("message"), str) and w["message"] for w in warnings):
        problems.append("warnings is not a list of findings: %r" % (warnings,))
    elif len([w for w in warnings if w["kind"] == "file"]) != len(details["warnings"]):
        problems.append("warnings %r, tachgen %r" % (warnings, details["warnings"]))

    dec = ours.get("decoded")
    if not isinstance(dec, dict) or list(dec.keys()) != DECODED_KEYS:
        return problems + ["decoded is %r" % (dec,)]
    if not same_value(dec["samples"], man["samples_decoded"]):
        problems.append("decoded.samples %r, manifest %r" % (dec["samples"], man["samples_decoded"]))
    if dec["samples"] != info["sample_count"]:
        problems.append("decoded.samples %r != sample_count %r" % (dec["samples"], info["sample_count"]))
    if not same_value(dec["max_depth"], man["max_depth"]):
        problems.append("decoded.max_depth %r, manifest %r" % (dec["max_depth"], man["max_depth"]))
    if not same_value(dec["first_timestamp_us"], man["min_ts"]):
        problems.append("decoded.first_timestamp_us %r, manifest min_ts %r"
                        % (dec["first_timestamp_us"], man["min_ts"]))
    if not same_value(dec["last_timestamp_us"], man["max_ts"]):
        problems.append("decoded.last_timestamp_us %r, manifest max_ts %r"
                        % (dec["last_timestamp_us"], man["max_ts"]))

    threads = dec["threads"]
    if not isinstance(threads, list):
        return problems + ["decoded.threads is %r" % (threads,)]
    for t in threads:
        if not isinstance(t, dict) or list(t.keys()) != THREAD_KEYS or \
           list(t["status_counts"].keys()) != [k for k, _, _ in STATUS_KEYS]:
            return problems + ["malformed thread entry %r" % (t,)]
    order = [(t["thread_id"], t["interpreter_id"]) for t in threads]
    if order != sorted(order) or len(set(order)) != len(order):
        problems.append("threads not sorted by (thread_id, interpreter_id) or repeated: %r" % order)
    if len(threads) > info["thread_count"]:
        problems.append("%d threads, header declares %d" % (len(threads), info["thread_count"]))
    if sum(t["samples"] for t in threads) != dec["samples"]:
        problems.append("per-thread samples do not add up to decoded.samples")

    for k, man_k, _ in STATUS_KEYS:
        total = sum(t["status_counts"][k] for t in threads)
        if total != man["status_bits"][man_k]:
            problems.append("status %s total %d, manifest %d" % (k, total, man["status_bits"][man_k]))

    raw = threads_by_key(figures)
    seen = {}
    for t in threads:
        tk = (t["thread_id"], t["interpreter_id"])
        if t["samples"] == 0:
            if t["first_timestamp_us"] is not None or t["last_timestamp_us"] is not None or \
               any(t["status_counts"].values()):
                problems.append("thread %r has no samples but timestamps or statuses" % (tk,))
            continue
        seen[tk] = {"samples": t["samples"], "first": t["first_timestamp_us"],
                    "last": t["last_timestamp_us"], "status": t["status_counts"]}
    if seen != raw:
        for tk in sorted(set(seen) | set(raw)):
            if seen.get(tk) != raw.get(tk):
                problems.append("thread %r: ours %r, tachgen's samples %r"
                                % (tk, seen.get(tk), raw.get(tk)))
    if len(seen) != man["threads_seen"]:
        problems.append("%d threads with samples, manifest threads_seen %d"
                        % (len(seen), man["threads_seen"]))
    return problems


# ---------------------------------------------------------------------------
# human: --info without --json
# ---------------------------------------------------------------------------

def stats_lines(text):
    lines = {}
    for line in text.splitlines():
        m = re.match(r"\s*(%s):\s*(.*)$" % "|".join(map(re.escape, STATS_LABELS)), line)
        if m:
            lines[m.group(1)] = m.group(2)
    return lines


def human_size(n):
    """What tv_format_bytes() writes in the C locale: three significant
    digits, a half rounded up, in the SI unit that keeps them under 1000."""
    grouped = "{:,}".format(n)
    if n < 1000:
        return "%s byte" % grouped if n == 1 else "%s bytes" % grouped
    for k, unit in enumerate(["kB", "MB", "GB", "TB", "PB", "EB"], start=1):
        value = decimal.Decimal(n) / (decimal.Decimal(1000) ** k)
        digits = 2 - value.adjusted()
        shown = value.quantize(decimal.Decimal(1).scaleb(-digits), decimal.ROUND_HALF_UP)
        if shown < 1000 or unit == "EB":
            break
    if shown.adjusted() > value.adjusted():
        shown = shown.quantize(decimal.Decimal(1).scaleb(-max(0, digits - 1)))
    return "%s %s (%s bytes)" % (shown, unit, grouped)


def check_human_file(env, path):
    key = env.key(path)
    problems, out = run_info(env, path)
    if out is None:
        return problems
    text = out.decode("utf-8")
    man = env.manifest[key]
    info = man["info"]
    for needle in (path, "Samples decoded", "Byte order", "Maximum stack depth",
                   "%d.%d.%d" % tuple(info["python_version"])):
        if needle not in text:
            problems.append("%r missing from the output" % needle)
    m = re.search(r"Samples decoded:\s*([\d,]+)\n", text)
    if not m or m.group(1) != "{:,}".format(man["samples_decoded"]):
        problems.append("Samples decoded line wrong: %r" % (m.group(0) if m else None))

    # Sizes as people read them: three significant digits in SI units, then
    # every byte, grouped ("12.8 MB (12,800,728 bytes)").
    size = os.path.getsize(path)
    m = re.search(r"^Size:\s*(.*)$", text, re.M)
    if not m or m.group(1) != human_size(size):
        problems.append("Size line %r, expected %r" % (m.group(0) if m else None, human_size(size)))
    # The footer's checksum (the file's last 16 bytes) is reserved: all zero
    # is shown as unused, anything else in hexadecimal.
    with open(path, "rb") as f:
        f.seek(-16, os.SEEK_END)
        checksum = f.read(16)
    want = "unused (all zero)" if checksum == bytes(16) else checksum.hex()
    m = re.search(r"^Checksum:\s*(.*)$", text, re.M)
    if not m or m.group(1) != want:
        problems.append("Checksum line %r, expected %r" % (m.group(0) if m else None, want))

    lines = stats_lines(text)
    if sorted(lines) != sorted(STATS_LABELS):
        problems.append("statistics lines %r" % lines)
    present = {"Duration": info["duration_sec"], "Measured sample rate": info["sample_rate"],
               "Error rate": info["error_rate"], "Missed samples": info["missed_samples"]}
    for label, value in present.items():
        shown = lines.get(label, "")
        if value is None:
            if shown != NOT_RECORDED:
                problems.append("%s: %r, expected %r" % (label, shown, NOT_RECORDED))
        elif NOT_RECORDED in shown or not re.search(r"\d", shown):
            problems.append("%s: %r, expected a value (%r)" % (label, shown, value))
    if info["mode"] is None and not re.search(r"Profiling mode:\s*(not recorded|unknown)", text):
        problems.append("mode not reported as not recorded / unknown")
    return problems


def check_human_checksum(env):
    """A footer whose reserved checksum is not all zero: --info shows its
    bytes in hexadecimal (and the format library's warning), where an
    all-zero one reads "unused (all zero)"."""
    src = os.path.join(env.data, "valid", "rec_threads.tach")
    with open(src, "rb") as f:
        data = bytearray(f.read())
    want = bytes(range(0xa0, 0xb0))
    data[-16:] = want
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "checksum.tach")
        with open(path, "wb") as f:
            f.write(data)
        rc, out, err = env.run("--info", path)
    if rc != 0:
        return ["exit status %d: %s" % (rc, err)]
    text = out.decode("utf-8")
    problems = []
    m = re.search(r"^Checksum:\s*(.*)$", text, re.M)
    if not m or m.group(1) != want.hex():
        problems.append("Checksum line %r, expected %r" % (m.group(0) if m else None, want.hex()))
    if "unused" in text:
        problems.append("a checksum that is set is called unused")
    return problems


def check_human_specific(env):
    """legacy_nostats.tach must say 'not recorded in this file' and show no
    statistics numbers at all."""
    path = os.path.join(env.data, "valid", "legacy_nostats.tach")
    problems = []
    rc, out, err = env.run("--info", path)
    if rc != 0:
        return ["exit status %d: %s" % (rc, err)]
    text = out.decode("utf-8")
    if NOT_RECORDED not in text:
        problems.append("%r not in the output" % NOT_RECORDED)
    lines = stats_lines(text)
    for label in STATS_LABELS:
        shown = lines.get(label)
        if shown != NOT_RECORDED:
            problems.append("%s: %r" % (label, shown))
    block = text.split("Statistics", 1)[-1].split("\n\n", 1)[0]
    if re.search(r"\d", block):
        problems.append("digits in the statistics block: %r" % block)
    if re.search(r"Profiling mode:\s*not recorded", text) is None:
        problems.append("profiling mode not reported as not recorded")
    return problems


# ---------------------------------------------------------------------------
# invalid: every invalid file, in every mode
# ---------------------------------------------------------------------------

def check_invalid_file(env, path):
    key = env.key(path)
    problems = []
    text, how = expected_message(env, key)
    if text is None:
        return ["no expected message for %s in manifest.json" % key]
    for args in (["--info", "--json"], ["--info"]):
        sub = []
        rc, out, err = env.run(*(args + [path]))
        check_error_run(env, sub, rc, out, err, path, text, how)
        problems += ["%s: %s" % (" ".join(args), p) for p in sub]
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "out.txt")
        rc, out, err = env.run("--export", "collapsed", "-o", out_path, path)
        sub = []
        check_error_run(env, sub, rc, out, err, path, text, how)
        if os.listdir(tmp):
            sub.append("files left behind: %r" % os.listdir(tmp))
        problems += ["--export: %s" % p for p in sub]
    return problems


# ---------------------------------------------------------------------------
# collapsed: byte-for-byte equality with tachgen collapsed
# ---------------------------------------------------------------------------

def compare_collapsed(ours, ref):
    """Problems of OURS against the reference's collapsed stacks REF: its
    bytes (a profile made at test time, with the reference at hand) or its
    entry in reference.json (a corpus file)."""
    if isinstance(ref, dict):
        if reference.sha256(ours) == ref["sha256"]:
            return []
        return ["output differs from tachgen's (reference.json): %d vs %d bytes, %d vs %d "
                "lines; the reference suite (TACHGEN=.../tachgen.py) shows the first "
                "difference" % (len(ours), ref["bytes"], ours.count(b"\n"), ref["lines"])]
    if ours == ref:
        return []
    ol, rl = ours.splitlines(True), ref.splitlines(True)
    problems = ["output differs from tachgen: %d vs %d bytes, %d vs %d lines"
                % (len(ours), len(ref), len(ol), len(rl))]
    for i in range(max(len(ol), len(rl))):
        a = ol[i] if i < len(ol) else None
        b = rl[i] if i < len(rl) else None
        if a != b:
            problems.append("first difference at line %d:\n ours: %r\n tachgen: %r"
                            % (i + 1, a, b))
            break
    return problems


def check_collapsed_file(env, path, generated=False):
    key = env.key(path) if path.startswith(env.data) else path
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        ours_path = os.path.join(tmp, "ours.collapsed")
        rc, out, err = env.run("--export", "collapsed", "-o", ours_path, path)
        if key in REJECTED_VALID:
            text, how = expected_message(env, key)
            check_error_run(env, problems, rc, out, err, path, text, how)
            if os.listdir(tmp):
                problems.append("files left behind: %r" % os.listdir(tmp))
            return problems
        if rc != 0:
            return ["exit status %d, stderr: %s" % (rc, err)]
        if out or err:
            problems.append("output on stdout/stderr: %r %r" % (out[:200], err[:200]))
        if os.listdir(tmp) != ["ours.collapsed"]:
            problems.append("unexpected files: %r" % os.listdir(tmp))
        with open(ours_path, "rb") as fh:
            ours = fh.read()
        if generated:
            ref = env.tachgen_run("collapsed", path)
        elif key in env.expected:
            ref = env.expected[key]["collapsed"]
        else:
            return problems + ["%s is not in reference.json" % key]
        problems += compare_collapsed(ours, ref)
        # "-o -" writes the same bytes to stdout.
        rc, out, err = env.run("--export", "collapsed", "-o", "-", path)
        if rc != 0 or out != ours or err:
            problems.append("-o -: exit %d, %d bytes on stdout (expected %d), stderr %r"
                            % (rc, len(out), len(ours), err[:300]))
        mode = os.stat(ours_path).st_mode & 0o777
        umask = os.umask(0)
        os.umask(umask)
        if mode != 0o666 & ~umask:
            problems.append("OUT has mode %o, expected %o" % (mode, 0o666 & ~umask))
    return problems


# ---------------------------------------------------------------------------
# generated: profiles written by tachgen at test time, full of the corner
# cases of the collapsed format (SPEC §16) that the corpus lacks
# ---------------------------------------------------------------------------

FILES = [
    "app/mod.py", "lib/mod.py", "mod.py", "~", "pkg/_sync_coordinator.py",
    "_sync_coordinator.py", "x_sync_coordinator.py", "_sync_coordinator.pyc", "dir/",
    "/abs/sp ace;semi.py", "uni/ñandú😀.py", "nul\u0000byte.py", "tab\tnew\nline.py", "",
]
FUNCS = ["f", "g", "f g;h", "<GC>", "<native>", "ünï", "a\u0000b", "", "x" * 300, "main"]
LINES = [None, -1, 0, 1, 2, 12, 25, 123, -5, 2 ** 31 - 1, -2 ** 31]
TIDS = [0, 1, 12, 2, 2 ** 64 - 1, 123456789, 2 ** 63]


def make_frame(rnd):
    line = rnd.choice(LINES)
    fr = {"file": rnd.choice(FILES), "func": rnd.choice(FUNCS)}
    if line is None:
        fr["location"] = None
    else:
        # Columns and opcodes vary, but must not split collapsed lines.
        fr["location"] = [line, line + rnd.choice([0, 0, 1]) if line >= 0 else line,
                          rnd.choice([-1, 0, 4, 8]), rnd.choice([-1, 10, 20])]
    fr["opcode"] = rnd.choice([None, 0, 53, 254, 255, 300])
    return fr


def make_profile(seed, n_ticks):
    import random
    rnd = random.Random(seed)
    pool = [make_frame(rnd) for _ in range(40)] + [
        {"file": "~", "func": "<GC>", "location": None},
        {"file": "~", "func": "<native>", "location": [0, 0, -1, -1]},
        {"file": "~", "func": "f", "location": [3, 3, 0, 1]},
        {"file": "pkg/_sync_coordinator.py", "func": "_run", "location": [10, 10, 0, 1]},
        {"file": "x_sync_coordinator.py", "func": "x", "location": [1, 1, 0, 1]},
        {"file": "_sync_coordinator.pyc", "func": "kept", "location": [1, 1, 0, 1]},
        {"file": "dir/", "func": "nobase", "location": [4, 4, 0, 1]},
        {"file": "neg.py", "func": "n", "location": [-5, -5, 0, 1]},
    ]
    # Two frames that differ only in the directory of their file give the
    # same line text from two keys: CPython prints two lines, not one.
    twins = [{"file": "b/same.py", "func": "twin", "location": [7, 7, 0, 1]},
             {"file": "a/same.py", "func": "twin", "location": [7, 7, 0, 2]}]
    stacks = {}
    samples = []
    t = 5_000_000
    for tick in range(n_ticks):
        # Time mostly goes forward, sometimes back, once before the start
        # time: the earliest sample is not the first one.
        t += rnd.choice([1000, 1000, 999, 1001, 0, -2500])
        if tick == n_ticks // 2:
            t = 4_000_000
        interps = {}
        for tid in rnd.sample(TIDS, rnd.randint(1, len(TIDS))):
            iid = rnd.choice([0, 0, 1])
            key = (tid, iid)
            prev = stacks.get(key)
            r = rnd.random()
            if prev is not None and r < 0.4:
                stack = prev                                  # REPEAT
            elif prev and r < 0.7:
                cut = rnd.randint(0, len(prev))               # SUFFIX / POP_PUSH
                stack = [rnd.choice(pool) for _ in range(rnd.randint(0, 3))] + prev[cut:]
            elif r < 0.75:
                stack = []                                    # no Python frames
            elif r < 0.77:
                stack = [rnd.choice(pool) for _ in range(rnd.randint(250, 300))]
            else:
                stack = [rnd.choice(pool) for _ in range(rnd.randint(1, 12))]
            stack = stack[:256]
            stacks[key] = stack
            interps.setdefault(iid, []).append(
                {"tid": tid, "status": rnd.randint(0, 255), "frames": stack})
        # A thread that only runs the twins, and one that only runs the
        # launcher (all its stacks vanish).
        interps.setdefault(0, []).append(
            {"tid": 777, "status": 1, "frames": [twins[tick % 2], pool[0]]})
        interps[0].append({"tid": 778, "status": 1, "frames": [pool[43], pool[43]]})
        samples.append({"t": t, "interpreters": [{"id": i, "threads": th}
                                                 for i, th in sorted(interps.items())]})
    return {"start_time_us": 5_000_000, "interval_us": 1000, "mode": "wall",
            "samples": samples}


GENERATED = [  # (name, seed, ticks, extra tachgen fromjson arguments)
    ("gen-a", 1, 300, []),
    ("gen-b", 2, 2000, ["--compression", "zstd"]),
    ("gen-c", 3, 2000, ["--endian", "big"]),
    ("gen-d", 4, 5000, ["--endian", "big", "--compression", "zstd", "--stats", "none"]),
]


def generate(env, tmp, name, seed, ticks, extra):
    spec_path = os.path.join(tmp, name + ".json")
    out_path = os.path.join(tmp, name + ".tach")
    with open(spec_path, "w", encoding="utf-8") as fh:
        json.dump(make_profile(seed, ticks), fh)
    env.tachgen_run("fromjson", spec_path, "-o", out_path, *extra)
    return out_path


def check_generated(env, tmp, name, seed, ticks, extra):
    path = generate(env, tmp, name, seed, ticks, extra)
    problems = ["--info --json: %s" % p for p in check_info_file(env, path, generated=True)]
    problems += ["--export: %s" % p for p in check_collapsed_file(env, path, generated=True)]
    ref = env.tachgen_run("collapsed", path).decode("utf-8")
    # The corner cases must really be in the file, or the test proves nothing.
    for needle, what in ((";<GC>", "a '~' frame printed by name"),
                         ("~:", "a '~' frame with a line"),
                         (":-5 ", "a negative line"),
                         ("_sync_coordinator.pyc:", "a file named almost like the internal one"),
                         (";:", "an empty basename"),
                         ("tid:18446744073709551615;", "the largest thread id"),
                         (";same.py:twin:7", "two files with one basename")):
        if needle not in ref:
            problems.append("generated profile lacks %s (%r)" % (what, needle))
    if "_sync_coordinator.py:" in ref or "tid:778" in ref:
        problems.append("tachgen kept an internal frame?")
    lines = ref.splitlines()
    if not any(a.rsplit(" ", 1)[0] == b.rsplit(" ", 1)[0] for a, b in zip(lines, lines[1:])):
        problems.append("no two lines with the same text: keys are not shown to stay apart")
    return problems


# ---------------------------------------------------------------------------
# args: missing files, directories, bad arguments
# ---------------------------------------------------------------------------

def check_fails(env, args, expected, path=None, cwd=None):
    rc, out, err = env.run(*args, cwd=cwd)
    if path is None:
        return testlib.failure_problems(rc, out, err, expected)
    problems = []
    check_error_run(env, problems, rc, out, err, path, expected)
    return problems


def clean_run(env, *args, cwd=None):
    """Runs the viewer with ARGS: a problem unless it exits 0 and says
    nothing."""
    rc, out, err = env.run(*args, cwd=cwd)
    if rc != 0 or out or err:
        return ["exit %d, stdout %r, stderr %r" % (rc, out, err)]
    return []


KEEP = "keep me\n"


def existing_out(out_dir, name):
    """OUT_DIR/NAME, written with KEEP: an OUT that a failed export must
    leave as it is."""
    out_path = os.path.join(out_dir, name)
    with open(out_path, "w") as fh:
        fh.write(KEEP)
    return out_path


def out_kept(out_path, changed):
    """The problems, CHANGED among them, when OUT_PATH no longer holds
    KEEP or its folder holds anything else."""
    problems = []
    with open(out_path) as fh:
        if fh.read() != KEEP:
            problems.append(changed)
    left = os.listdir(os.path.dirname(out_path))
    if left != [os.path.basename(out_path)]:
        problems.append("left behind: %r" % left)
    return problems


def args_cases(env):
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    bad = os.path.join(env.data, "invalid", "sample_count_mismatch.tach")
    cases = []
    tmp = tempfile.mkdtemp(prefix="tv-cli-test-")
    missing = os.path.join(tmp, "does-not-exist.tach")

    def case(name, fn):
        cases.append((name, fn))

    for args in (["--info"], ["--info", "--json"]):
        case("missing file: %s" % " ".join(args),
             lambda a=args: check_fails(env, a + [missing], None, missing))
        case("directory: %s" % " ".join(args),
             lambda a=args: check_fails(env, a + [tmp], None, tmp))

    def export_fails(file, expected=None, by_path=True):
        out_dir = tempfile.mkdtemp(dir=tmp)
        out_path = os.path.join(out_dir, "out.collapsed")
        problems = check_fails(env, ["--export", "collapsed", "-o", out_path, file], expected,
                               file if by_path else None)
        if os.listdir(out_dir):
            problems.append("left behind in OUT's directory: %r" % os.listdir(out_dir))
        return problems

    # A FIFO without a writer: open() alone would wait for one for ever.
    fifo = os.path.join(tmp, "pipe.tach")
    os.mkfifo(fifo)

    def fifo_fails(args):
        try:
            p = subprocess.run([env.exe] + args + [fifo], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env.env, timeout=30)
        except subprocess.TimeoutExpired:
            return ["still blocked after 30 s"]
        problems = []
        check_error_run(env, problems, p.returncode, p.stdout,
                        p.stderr.decode("utf-8", "replace"), fifo,
                        "This is a FIFO (a named pipe), not a regular file")
        return problems

    fifo_out = os.path.join(tmp, "fifo-out")
    for args in (["--info"], ["--info", "--json"],
                 ["--export", "collapsed", "-o", fifo_out + ".collapsed"],
                 ["--export", "html", "-o", fifo_out + ".html"],
                 ["--compare", "--info", tiny]):
        case("FIFO: %s" % " ".join(args), lambda a=args: fifo_fails(a))

    case("export: missing file", lambda: export_fails(missing))
    case("export: directory as FILE", lambda: export_fails(tmp))
    case("export: decode error leaves no OUT",
         lambda: export_fails(bad, "Sample count mismatch"))

    def export_keeps_existing():
        out_path = existing_out(tempfile.mkdtemp(dir=tmp), "out.collapsed")
        problems = check_fails(env, ["--export", "collapsed", "-o", out_path, bad],
                               "Sample count mismatch", bad)
        return problems + out_kept(out_path, "existing OUT was modified")
    case("export: failure keeps an existing OUT", export_keeps_existing)

    def export_out_is_dir():
        parent = tempfile.mkdtemp(dir=tmp)
        out_dir = os.path.join(parent, "out")
        os.mkdir(out_dir)
        problems = check_fails(env, ["--export", "collapsed", "-o", out_dir, tiny], None, out_dir)
        if not os.path.isdir(out_dir) or os.listdir(out_dir):
            problems.append("OUT directory changed: %r" % os.listdir(out_dir))
        if os.listdir(parent) != ["out"]:
            problems.append("left behind next to OUT: %r" % os.listdir(parent))
        return problems
    case("export: OUT is a directory", export_out_is_dir)

    def export_out_dir_missing():
        out_path = os.path.join(tmp, "no-such-dir", "out.collapsed")
        return check_fails(env, ["--export", "collapsed", "-o", out_path, tiny], None, out_path)
    case("export: OUT's directory does not exist", export_out_dir_missing)

    def export_replaces():
        out_dir = tempfile.mkdtemp(dir=tmp)
        out_path = os.path.join(out_dir, "out.collapsed")
        with open(out_path, "w") as fh:
            fh.write("old contents\n" * 1000)
        problems = clean_run(env, "--export", "collapsed", "-o", out_path, tiny)
        with open(out_path, "rb") as fh:
            if not env.is_reference_collapsed(fh.read(), tiny):
                problems.append("OUT not replaced by the export")
        if os.listdir(out_dir) != ["out.collapsed"]:
            problems.append("left behind: %r" % os.listdir(out_dir))
        return problems
    case("export: replaces an existing OUT", export_replaces)

    def killed_export():
        """An export killed while it writes leaves its temporary; the next
        export to the same OUT removes it, and only what is provably a
        dead writer's temporary of that OUT."""
        import resource
        out_dir = tempfile.mkdtemp(dir=tmp)
        out_path = os.path.join(out_dir, "out.html")
        rich = os.path.join(env.data, "valid", "rec_threads.tach")

        def small_files():
            # Past 4 KiB the kernel kills the writer (SIGXFSZ), as kill -9
            # would: nothing of the viewer runs after.
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        p = subprocess.run([env.exe, "--export", "html", "-o", out_path, rich], env=env.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=small_files,
                           timeout=600)
        problems = []
        left = os.listdir(out_dir)
        if p.returncode != -signal.SIGXFSZ or len(left) != 1:
            return ["the killed export: exit %d, left %r" % (p.returncode, left)]
        m = re.match(r"^\.out\.html\.tachyon-tmp-([0-9a-f]{8})-([1-9][0-9]*)-[A-Za-z0-9]{6}$", left[0])
        if not m:
            return ["the temporary %r is not named .OUT.tachyon-tmp-HOST-PID-XXXXXX" % left[0]]
        tag = m.group(1)
        stale = os.path.join(out_dir, left[0])
        if os.path.getsize(stale) == 0:
            problems.append("the temporary is empty: the writer died before writing")

        def dead_pid():
            child = subprocess.Popen(["true"])
            child.wait()
            return child.pid
        dead = dead_pid()
        sleeper = subprocess.Popen(["sleep", "600"])
        keep = {}
        try:
            def put(name, kind="file"):
                path = os.path.join(out_dir, name)
                if kind == "file":
                    with open(path, "w") as fh:
                        fh.write("not the viewer's\n")
                elif kind == "dir":
                    os.mkdir(path)
                else:
                    os.symlink(kind, path)
                return path
            remove = [stale, put(".out.html.tachyon-tmp-%s-%d-Ab3XyZ" % (tag, dead))]
            victim = put("victim.txt")
            keep_names = [
                # A live process's temporary, and this test's own PID.
                ".out.html.tachyon-tmp-%s-%d-Ab3XyZ" % (tag, sleeper.pid),
                ".out.html.tachyon-tmp-%s-%d-Ab3XyZ" % (tag, os.getpid()),
                # Another host's or container's (its PIDs say nothing here).
                ".out.html.tachyon-tmp-%08x-%d-Ab3XyZ" % (int(tag, 16) ^ 1, dead),
                # Another output's.
                ".other.html.tachyon-tmp-%s-%d-Ab3XyZ" % (tag, dead),
                # Names of nearly that form: a user's files.
                ".out.html.tachyon-tmp-%s-%d-Ab3Xy" % (tag, dead),
                ".out.html.tachyon-tmp-%s-%d-Ab3XyZ.bak" % (tag, dead),
                ".out.html.tachyon-tmp-%s-0%d-Ab3XyZ" % (tag, dead),
                ".out.html.tachyon-tmp-%s--%d-Ab3XyZ" % (tag, dead),
                ".out.html.tachyon-tmp-%s-%d-Ab3X_Z" % (tag, dead),
                "out.html.tachyon-tmp-%s-%d-Ab3XyZ" % (tag, dead),
                # The form of the old versions, which says nothing of its writer.
                ".out.html.Ab3XyZ",
            ]
            for name in keep_names:
                keep[name] = put(name)
            # What is not a regular file of the user: a link, a folder.
            link = ".out.html.tachyon-tmp-%s-%d-Link00" % (tag, dead)
            keep[link] = put(link, victim)
            folder = ".out.html.tachyon-tmp-%s-%d-Dir000" % (tag, dead)
            keep[folder] = put(folder, "dir")
            if os.geteuid() == 0:
                # Another user's file (as root, one can make one).
                other = ".out.html.tachyon-tmp-%s-%d-Other0" % (tag, dead)
                keep[other] = put(other)
                os.chown(keep[other], 65534, 65534)
            rc, out, err = env.run("--export", "html", "-o", out_path, tiny)
            if rc != 0 or out or err:
                problems.append("the next export: exit %d, %r %r" % (rc, out, err))
            for path in remove:
                if os.path.lexists(path):
                    problems.append("a dead writer's temporary stayed: %s" % os.path.basename(path))
            for name, path in keep.items():
                if not os.path.lexists(path):
                    problems.append("removed what is not a stale temporary: %s" % name)
            with open(victim) as fh:
                if fh.read() != "not the viewer's\n":
                    problems.append("the link's target changed")
            want = sorted(["out.html", "victim.txt"] + list(keep))
            if sorted(os.listdir(out_dir)) != want:
                problems.append("the folder holds %r, expected %r" % (sorted(os.listdir(out_dir)), want))
        finally:
            sleeper.kill()
            sleeper.wait()
        return problems
    case("export: a killed export's temporary goes with the next, and only it",
         killed_export)

    def export_keeps_mode():
        out_dir = tempfile.mkdtemp(dir=tmp)
        out_path = os.path.join(out_dir, "out.collapsed")
        with open(out_path, "w") as fh:
            fh.write("old\n")
        os.chmod(out_path, 0o640)
        problems = clean_run(env, "--export", "collapsed", "-o", out_path, tiny)
        mode = stat.S_IMODE(os.stat(out_path).st_mode)
        if mode != 0o640:
            problems.append("OUT's mode became %o, was 640" % mode)
        return problems
    case("export: a replaced OUT keeps its mode", export_keeps_mode)

    def export_through_symlink():
        out_dir = tempfile.mkdtemp(dir=tmp)
        target = os.path.join(out_dir, "real.collapsed")
        with open(target, "w") as fh:
            fh.write("old\n")
        link = os.path.join(out_dir, "link.collapsed")
        os.symlink("real.collapsed", link)
        dangling = os.path.join(out_dir, "dangling.collapsed")
        os.symlink("new.collapsed", dangling)
        problems = []
        for path in (link, dangling):
            problems += ["%s: %s" % (path, p)
                         for p in clean_run(env, "--export", "collapsed", "-o", path, tiny)]
            if not os.path.islink(path):
                problems.append("%s is no longer a symbolic link" % path)
        for path in (target, os.path.join(out_dir, "new.collapsed")):
            with open(path, "rb") as fh:
                if not env.is_reference_collapsed(fh.read(), tiny):
                    problems.append("%s, where a link points, was not written" % path)
        if sorted(os.listdir(out_dir)) != ["dangling.collapsed", "link.collapsed",
                                           "new.collapsed", "real.collapsed"]:
            problems.append("files: %r" % sorted(os.listdir(out_dir)))
        return problems
    case("export: OUT is a symbolic link", export_through_symlink)

    def export_to_fifo():
        out_dir = tempfile.mkdtemp(dir=tmp)
        fifo = os.path.join(out_dir, "pipe")
        os.mkfifo(fifo)
        got = []
        # A daemon: should the export replace the pipe, the reader would wait
        # on it for ever, and must not keep the test from ending.
        reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()),
                                  daemon=True)
        reader.start()
        problems = clean_run(env, "--export", "collapsed", "-o", fifo, tiny)
        reader.join(30)
        if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
            problems.append("the pipe was replaced")
        if len(got) != 1 or not env.is_reference_collapsed(got[0], tiny):
            problems.append("the pipe's reader got %r" % (got[0][:80] if got else None))
        if os.listdir(out_dir) != ["pipe"]:
            problems.append("left behind: %r" % os.listdir(out_dir))
        return problems
    case("export: OUT is a named pipe", export_to_fifo)

    def export_read_only():
        # Root may write anything: the check runs as an unprivileged user then.
        out_dir = tempfile.mkdtemp(dir=tmp)
        os.chmod(tmp, 0o711)
        os.chmod(out_dir, 0o777)
        out_path = existing_out(out_dir, "ro.collapsed")
        os.chmod(out_path, 0o444)
        args = ["--export", "collapsed", "-o", out_path, tiny]
        if os.geteuid() == 0:
            # The program and the profile go where that user can reach them
            # wherever the build is (the program needs nothing else).
            exe = os.path.join(tmp, "tachyon-viewer")
            if not os.path.exists(exe):
                shutil.copy(env.exe, exe)
            os.chmod(exe, 0o755)
            args[-1] = os.path.join(tmp, "tiny.tach")
            shutil.copy(tiny, args[-1])
            os.chmod(args[-1], 0o644)
            os.chown(out_dir, 65534, 65534)
            os.chown(out_path, 65534, 65534)
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe] + args
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env.env)
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        else:
            rc, out, err = env.run(*args)
        problems = []
        if rc != 1 or out or "Permission denied" not in err:
            problems.append("exit %d, stdout %r, stderr %r" % (rc, out, err))
        return problems + out_kept(out_path, "the read-only OUT was replaced")
    case("export: a read-only OUT is not replaced", export_read_only)

    def export_onto_input():
        out_dir = tempfile.mkdtemp(dir=tmp)
        mine = os.path.join(out_dir, "mine.tach")
        shutil.copy(tiny, mine)
        link = os.path.join(out_dir, "link.html")
        os.symlink("mine.tach", link)
        problems = []
        for args in (["--export", "html", "-o", mine, mine],
                     ["--export", "html", "-o", link, mine],
                     ["--export", "html", "--baseline", mine, "-o", mine, tiny]):
            problems += check_fails(env, args, "is the profile being read", mine if args[-2] == mine
                                    else None)
            with open(mine, "rb") as fh, open(tiny, "rb") as orig:
                if fh.read() != orig.read():
                    problems.append("%s: the profile was overwritten" % " ".join(args))
        return problems
    case("export: OUT is the profile being read", export_onto_input)

    def export_relative():
        out_dir = tempfile.mkdtemp(dir=tmp)
        problems = clean_run(env, "--export", "collapsed", "-o", "rel.collapsed", tiny, cwd=out_dir)
        if os.listdir(out_dir) != ["rel.collapsed"]:
            problems.append("files: %r" % os.listdir(out_dir))
        return problems
    case("export: relative OUT", export_relative)

    def empty_export():
        out_dir = tempfile.mkdtemp(dir=tmp)
        out_path = os.path.join(out_dir, "out.collapsed")
        problems = clean_run(env, "--export", "collapsed", "-o", out_path,
                             os.path.join(env.data, "valid", "empty.tach"))
        if not os.path.exists(out_path) or os.path.getsize(out_path) != 0:
            problems.append("OUT is not an empty file")
        return problems
    case("export: empty profile gives an empty OUT", empty_export)

    out_path = os.path.join(tmp, "never.collapsed")
    bad_args = [
        ("no arguments after --info", ["--info"], "No FILE"),
        ("no FILE for --info --json", ["--info", "--json"], "No FILE"),
        ("two files for --info", ["--info", tiny, tiny], "one FILE"),
        ("two files for --export", ["--export", "collapsed", "-o", out_path, tiny, tiny], "one FILE"),
        ("no FILE for --export", ["--export", "collapsed", "-o", out_path], "No FILE"),
        ("unknown option", ["--info", "--frobnicate", tiny], "frobnicate"),
        # Without a command-line mode too: the window never sees it.
        ("unknown option alone", ["--frobnicate"], "Unknown option --frobnicate"),
        ("unknown option with a FILE", ["--frobnicate", tiny], "Unknown option --frobnicate"),
        ("unknown option after --demo", ["--demo", "-z"], "Unknown option -z"),
        # GOption's own messages, said as the others are (one line, names shown).
        ("unknown option with a control character", ["--info", "--a\x1bb", tiny],
         "Unknown option --a\u241bb"),
        ("option value missing at the end", ["--export", "collapsed", tiny, "-o"],
         "Missing argument for -o"),
        ("--range without its value", ["--export", "collapsed", "-o", out_path, tiny, "--range"],
         "Missing argument for --range"),
        ("--compare with one file only", ["--compare", tiny], "--compare prints the comparison"),
        ("--demo with --info", ["--demo", "--info", tiny], "--demo opens the window"),
        ("--export without a format", ["--export"], "--export"),
        ("unknown export format", ["--export", "bogus", "-o", out_path, tiny], "bogus"),
        ("missing -o", ["--export", "collapsed", tiny], "-o"),
        ("empty -o", ["--export", "collapsed", "-o", "", tiny], "empty"),
        ("--json without --info", ["--json", tiny], "--json"),
        ("--json with --export", ["--json", "--export", "collapsed", "-o", out_path, tiny], "--json"),
        ("-o without --export", ["-o", out_path, tiny], "--export"),
        ("-o with --info", ["--info", "-o", out_path, tiny], "--export"),
        ("--info with --export", ["--info", "--export", "collapsed", "-o", out_path, tiny], "together"),
        ("empty FILE", ["--info", ""], "empty"),
    ]
    # The image options are tested with the images, in tests/export.
    bad_args.append(("image option without --export", ["--dark", tiny],
                     "--dark can only be used with --export"))
    for name, args, expected in bad_args:
        def run_bad(a=args, e=expected):
            problems = check_fails(env, a, e)
            if os.path.exists(out_path):
                problems.append("OUT was created")
            return problems
        case("bad arguments: " + name, run_bad)

    def help_and_version():
        problems = []
        rc, out, err = env.run("--help")
        text = out.decode("utf-8", "replace")
        if rc != 0 or err or any(o not in text for o in ("--info", "--export", "--demo",
                                                          "--compare", "--version", "[FILE")):
            problems.append("--help: exit %d, stdout %r, stderr %r" % (rc, text[:500], err))
        rc, out, err = env.run("--version")
        if rc != 0 or not re.match(r"^%s \S+\n$" % PROG, out.decode("utf-8", "replace")):
            problems.append("--version: exit %d, stdout %r, stderr %r" % (rc, out, err))
        return problems
    case("--help and --version without a display", help_and_version)

    def help_without_locale():
        """With no locale set at all, --help and the messages show their
        "…" and "’", not "?"."""
        bare = {k: v for k, v in env.env.items()
                if k not in ("LANG", "LANGUAGE") and not k.startswith("LC_")}
        problems = []
        p = subprocess.run([env.exe, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=bare, timeout=600)
        text = p.stdout.decode("utf-8", "replace")
        if p.returncode != 0 or "[FILE\u2026]" not in text or "CPython\u2019s" not in text \
                or "?" in text:
            problems.append("--help: exit %d, stdout %r" % (p.returncode, text[:800]))
        p = subprocess.run([env.exe, "--export", "collapsed", "-o", "-", "--range", "1:x", tiny],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=bare, timeout=600)
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode != 1 or "\u201c1:x\u201d" not in err:
            problems.append("a message: exit %d, stderr %r" % (p.returncode, err))
        return problems
    case("--help and messages with no locale set", help_without_locale)

    def file_after_double_dash():
        problems = []
        dashed_dir = tempfile.mkdtemp(dir=tmp)
        dashed = os.path.join(dashed_dir, "--info")
        shutil.copy(tiny, dashed)
        rc, out, err = env.run("--info", "--json", "--", dashed)
        if rc != 0:
            problems.append("exit %d: %s" % (rc, err))
        return problems
    case("FILE after --", file_after_double_dash)

    for name in ("rec_threads.tach", "two_interpreters.tach"):
        case("--range given several times: %s" % name,
             lambda n=name: check_several_ranges(env, os.path.join(env.data, "valid", n)))
    for args, expected in ((["--range", "0:1", "--range", "1:x"], "Invalid time range “1:x”"),
                           (["--range", "0:1", "--range", "2:2"], "the start must come before")):
        case("bad range among several: %s" % " ".join(args),
             lambda a=args, e=expected: check_fails(
                 env, ["--export", "collapsed", "-o", out_path] + a + [tiny], e))

    return cases, tmp


def check_several_ranges(env, path):
    """Several --range, given out of order, overlapping and touching: the
    collapsed stacks hold, per thread, the samples the reference reader
    finds in any of the ranges, and the lines of the merged ranges, each
    exported alone, add up to them."""
    problems = []
    rc, out, err = env.run("--info", "--json", path)
    if rc != 0:
        return ["--info --json: exit %d %s" % (rc, err)]
    info = strict_json(out)
    start, dec = info["start_time_us"], info["decoded"]
    span = dec["last_timestamp_us"] - dec["first_timestamp_us"]
    at = lambda f: dec["first_timestamp_us"] - start + int(span * f)  # noqa: E731
    given = [(at(0.7), at(0.8)), (at(0.1), at(0.3)), (at(0.25), at(0.4)), (at(0.4), at(0.45))]
    merged = [(at(0.1), at(0.45)), (at(0.7), at(0.8))]
    args = lambda rs: ["--range=%r:%r" % (a / 1e6, b / 1e6) for a, b in rs]  # noqa: E731

    brute = {}
    for iid, tid, ts, status, stack in env.samples(path).iter_samples():
        if any(start + a <= ts < start + b for a, b in given):
            brute[tid] = brute.get(tid, 0) + 1

    rc, out, err = env.run("--export", "collapsed", *(args(given) + ["-o", "-", path]))
    if rc != 0 or err:
        return ["exit %d, stderr %r" % (rc, err)]
    lines = parse_collapsed(out)
    per_thread = {}
    for stack, n in lines.items():
        tid = int(stack.split(";", 1)[0][len("tid:"):])
        per_thread[tid] = per_thread.get(tid, 0) + n
    if per_thread != brute or not brute or sum(brute.values()) == dec["samples"]:
        problems.append("samples per thread %r, tachgen's reader %r (of %d)"
                        % (per_thread, brute, dec["samples"]))
    added = {}
    for r in merged:
        rc, part, err = env.run("--export", "collapsed", *(args([r]) + ["-o", "-", path]))
        for stack, n in parse_collapsed(part).items():
            added[stack] = added.get(stack, 0) + n
    if added != lines:
        problems.append("the merged ranges one by one give other lines")
    return problems


# ---------------------------------------------------------------------------

def run_parallel(tap, items):
    tap.run_parallel(items, 8)


def write_json_profile(env, path, counts, duration):
    """A profile of main() calling each function of COUNTS that many
    times, one sample per millisecond, with a stats block of DURATION."""
    samples = []
    t = 1000000
    for name, n in counts.items():
        for _ in range(n):
            t += 1000
            samples.append({"t": t, "interpreters": [{"id": 0, "threads": [{
                "tid": 7, "status": 3,
                "frames": [["app.py", name, 5, 5, 4, 9, 53],
                           ["app.py", "main", 12, 12, 4, 10, 53]]}]}]})
    doc = {"start_time_us": 1000000, "interval_us": 1000, "python_version": [3, 15, 0],
           "mode": "wall", "samples": samples}
    env.write_profile(path, doc, stats={"duration_sec": duration, "sample_rate": 1000})


# What the findings of --info are for corpus files with bad statistics
# (see the corpus README): kind -> figures it must carry, and their values.
QUALITY_CORPUS = {
    "valid/rec_threads.tach": {"missed-samples": {"missed_samples_percent": 37.7777}},
    "valid/stats_v56_missed_negative.tach": {
        "impossible-statistic": {"missed_samples_percent": -2.75},
        "duration-mismatch": {"recorded_sec": 2.5}},
    "valid/stats_v56_full.tach": {"error-rate": {"error_rate_percent": 1.25},
                                  "duration-mismatch": {"recorded_sec": 2.5}},
    "valid/encodings.tach": {"truncated-stacks": {"samples": 1, "frame_limit": 256}},
    "valid/footer_size_mismatch.tach": {"file": {}},
    "valid/tiny.tach": {},
    "valid/mode_wall.tach": {},
}


def quality_cases(env):
    """--info and --info --json: the data-quality findings, on corpus files
    and on profiles written here, one a finding and one with none."""
    cases = []
    tmp = tempfile.mkdtemp(prefix="tv-cli-quality-")

    def check(path, want):
        problems = []
        rc, out, err = env.run("--info", "--json", path)
        if rc != 0:
            return ["--json exit status %d: %s" % (rc, err)]
        found = strict_json(out)["warnings"]
        kinds = sorted(w["kind"] for w in found)
        if kinds != sorted(want):
            problems.append("kinds %r, expected %r" % (kinds, sorted(want)))
        for w in found:
            for name, value in want.get(w["kind"], {}).items():
                if not isinstance(w.get(name), (int, float)) or abs(w[name] - value) > 1e-3:
                    problems.append("%s: %s = %r, expected %r" % (w["kind"], name,
                                                                 w.get(name), value))
        rc, out, err = env.run("--info", path)
        text = out.decode("utf-8")
        section = text.split("\nWarnings", 1)[1].split("\n\n", 1)[0] if "\nWarnings" in text else None
        if section is None:
            problems.append("no Warnings section in --info")
        elif not want and section != ": none":
            problems.append("--info Warnings %r, expected none" % section)
        elif want:
            items = [line for line in section.split("\n") if line.startswith("  - ")]
            if [line[4:] for line in items] != [w["message"] for w in found]:
                problems.append("--info Warnings %r, JSON %r" % (items, found))
        return problems

    for key, want in QUALITY_CORPUS.items():
        cases.append(("quality %s" % key,
                      lambda key=key, want=want: check(os.path.join(env.data, key), want)))

    # Written here: 10 % missed is over the threshold, 4 % under it.
    def written(name, missed, want):
        path = os.path.join(tmp, name)
        samples = [{"t": 1000000 + 1000 * i, "interpreters": [{"id": 0, "threads": [{
            "tid": 7, "status": 3, "frames": [["app.py", "main", 12, 12, 4, 10, 53]]}]}]}
            for i in range(1, 1001)]
        doc = {"start_time_us": 1000000, "interval_us": 1000, "python_version": [3, 15, 0],
               "mode": "wall", "samples": samples}
        env.write_profile(path, doc, stats={"duration_sec": 1.0, "sample_rate": 1000,
                                            "error_rate": 0.0, "missed_samples": missed})
        return check(path, want)
    cases.append(("quality: 10 % missed written here",
                  lambda: written("missed.tach", 10.0,
                                  {"missed-samples": {"missed_samples_percent": 10.0,
                                                      "threshold_percent": 5.0}})))
    cases.append(("quality: 4 % missed written here, no finding",
                  lambda: written("clean.tach", 4.0, {})))
    return cases, tmp


def compare_cases(env):
    """--compare BASE NEW --info: the warnings, the verdicts and bad
    arguments."""
    tmp = tempfile.mkdtemp(prefix="tv-cli-compare-")

    def run(*args):
        rc, out, err = env.run(*args)
        return rc, out.decode("utf-8", "replace"), err
    data = env.data
    wall = os.path.join(data, "valid", "mode_wall.tach")
    cpu = os.path.join(data, "valid", "mode_cpu.tach")
    threads = os.path.join(data, "valid", "rec_threads.tach")
    base = os.path.join(tmp, "base.tach")
    new = os.path.join(tmp, "new.tach")
    # hot() takes half again as long in NEW; steady() does not change.
    write_json_profile(env, base, {"hot": 2000, "steady": 2000}, 4.0)
    write_json_profile(env, new, {"hot": 3000, "steady": 2000}, 5.0)

    def modes():
        rc, out, err = run("--compare", "--info", wall, cpu)
        problems = []
        if rc != 0 or "Warning:" not in out or "wall-clock" not in out:
            problems.append("no mode warning: rc %d\n%s%s" % (rc, out, err))
        doc = json.loads(run("--compare", "--info", "--json", wall, cpu)[1])
        if 0 not in [w["code"] for w in doc["warnings"]]:
            problems.append("JSON warnings lack the mode (code 0): %r" % doc["warnings"])
        return problems

    def itself():
        doc = json.loads(run("--compare", "--info", "--json", threads, threads)[1])
        problems = []
        if doc["warnings"]:
            problems.append("warnings comparing a file with itself: %r" % doc["warnings"])
        for f in doc["functions"]:
            for m in ("total", "self"):
                if f[m]["significant"] or f[m]["base_samples"] != f[m]["new_samples"]:
                    problems.append("%s %s changed: %r" % (f["function"], m, f[m]))
        if not doc["functions"]:
            problems.append("no functions")
        return problems

    def injected():
        problems = []
        doc = json.loads(run("--compare", "--info", "--json", base, new)[1])
        by = {f["function"]: f for f in doc["functions"]}
        if by["hot"]["total"]["change"] != "slower" or abs(by["hot"]["total"]["relative"] - 0.5) > 1e-9:
            problems.append("hot: %r" % by["hot"]["total"])
        if by["steady"]["total"]["significant"]:
            problems.append("steady changed: %r" % by["steady"]["total"])
        # By share, hot's share grows (1/2 to 3/5) and steady's shrinks.
        doc = json.loads(run("--compare", "--info", "--json", "--by", "share", base, new)[1])
        by = {f["function"]: f for f in doc["functions"]}
        if doc["normalization"] != "share" or by["steady"]["total"]["change"] != "faster":
            problems.append("by share: %r" % by["steady"]["total"])
        text = run("--compare", "--info", base, new)[1]
        if "hot (app.py)" not in text or "steady (app.py)" in text:
            problems.append("text table:\n" + text)
        return problems

    def hostile_names():
        # The text report goes to a terminal: a name's escape sequence or
        # bidirectional control is shown, never obeyed.  JSON escapes them.
        evil = "hot\u001b[2J\u202egnp.exe"
        b = os.path.join(tmp, "evil-base.tach")
        n = os.path.join(tmp, "evil-new.tach")
        write_json_profile(env, b, {evil: 2000, "steady": 2000}, 4.0)
        write_json_profile(env, n, {evil: 3000, "steady": 2000}, 5.0)
        rc, text, err = run("--compare", "--info", b, n)
        problems = []
        if rc != 0 or "\u001b" in text or "\u202e" in text:
            problems.append("rc %d, raw controls in the report:\n%r" % (rc, text))
        if "hot\u241b[2J[U+202E]gnp.exe (app.py)" not in text:
            problems.append("the name is not shown as text:\n%s" % text)
        doc = json.loads(run("--compare", "--info", "--json", b, n)[1])
        if evil not in [f["function"] for f in doc["functions"]]:
            problems.append("JSON lost the name: %r" % doc["functions"])
        return problems

    def bad(args, what):
        def check():
            rc, out, err = run(*args)
            problems = []
            if rc != 1 or out or what not in err:
                problems.append("rc %d, stdout %r, stderr %r (want %r)" % (rc, out, err, what))
            return problems
        return check

    cases = [
        ("compare: modes differ", modes),
        ("compare: a file with itself", itself),
        ("compare: an injected change", injected),
        ("compare: hostile names in the text report", hostile_names),
        ("compare: one file", bad(["--compare", "--info", wall], "needs two files")),
        ("compare: --by", bad(["--compare", "--info", "--by", "speed", wall, cpu], "Unknown --by")),
        ("compare: --merge", bad(["--compare", "--info", "--merge", "x", wall, cpu],
                                 "Unknown merge key “x”")),
        # Without options, --compare BASE NEW opens the window.
        ("compare: --json without --info", bad(["--compare", "--json", wall, cpu], "--info")),
        ("compare: with --export", bad(["--compare", "--info", "--export", "html", "-o",
                                        os.path.join(tmp, "x.html"), wall, cpu],
                                       "cannot be used together")),
        ("compare: --by alone", bad(["--by", "share", wall], "--compare")),
        ("compare: a missing file", bad(["--compare", "--info", wall,
                                         os.path.join(tmp, "none.tach")], "none.tach")),
    ]
    return cases, tmp


# ---------------------------------------------------------------------------
# names: what a terminal would obey never reaches it from a name
# ---------------------------------------------------------------------------

# A name that would forge a log line, clear the screen, ring, move the
# cursor (C1 CSI), and turn the text around.
EVIL = "evil\ntachyon-viewer: all good\x1b[2J\x07\r\x7f\x85\x9b31m\u202egnp.\u2066x\u2069\u2028"
SHOWN_CHARS = 200


def visible(text):
    """tv-text.h's rule for what is shown: C0 and DEL as Control Pictures,
    C1, bidirectional controls and separators as [U+XXXX]."""
    out = []
    for c in text:
        code = ord(c)
        if code < 0x20:
            out.append(chr(0x2400 + code))
        elif code == 0x7f:
            out.append("\u2421")
        elif 0x80 <= code <= 0x9f or code in (0x61c, 0x200e, 0x200f, 0x2028, 0x2029) \
                or 0x202a <= code <= 0x202e or 0x2066 <= code <= 0x2069:
            out.append("[U+%X]" % code)
        else:
            out.append(c)
    return "".join(out)


def shown(text):
    if len(text) > SHOWN_CHARS:
        text = text[:SHOWN_CHARS - SHOWN_CHARS // 2] + "\u2026" + text[len(text) - SHOWN_CHARS // 2:]
    return visible(text)


RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def raw_controls(data, what):
    """What of DATA (bytes printed by the viewer) a terminal would obey."""
    text = data.decode("utf-8", "replace")
    found = RAW.findall(text)
    return ["%s holds %r raw: %r" % (what, sorted(set(found)), text[:400])] if found else []


def names_cases(env):
    tmp = tempfile.mkdtemp(prefix="tv-cli-names-")
    cases = []
    evil_dir = os.path.join(tmp, "dir\n" + EVIL)
    os.mkdir(evil_dir)
    evil_file = os.path.join(evil_dir, EVIL + ".tach")
    shutil.copy(os.path.join(env.data, "valid", "tiny.tach"), evil_file)
    not_profile = os.path.join(tmp, EVIL + ".txt")
    with open(not_profile, "wb") as fh:
        fh.write(b"not a profile at all, but long enough for a header" * 4)
    missing = os.path.join(tmp, EVIL + "-missing.tach")
    # Names inside a profile: a function in two files, both hostile, and a
    # 100 KB one.
    inside = os.path.join(tmp, "inside.tach")
    long_func = "long_" + "x" * 100000 + "_end"
    samples = []
    t = 1000000
    for i, (file, func) in enumerate([("/srv/a\n" + EVIL + ".py", EVIL),
                                      ("/srv/b\x1b]0;title\x07.py", EVIL),
                                      ("/srv/long.py", long_func)] * 20):
        t += 1000
        samples.append({"t": t, "interpreters": [{"id": 0, "threads": [{
            "tid": 7, "status": 3, "frames": [[file, func, 5, 5, 4, 9, 53],
                                              ["app.py", "main", 12, 12, 4, 10, 53]]}]}]})
    env.write_profile(inside, {"start_time_us": 1000000, "interval_us": 1000,
                               "python_version": [3, 15, 0], "mode": "wall", "samples": samples},
                      stats={"duration_sec": 0.06, "sample_rate": 1000})
    base = os.path.join(tmp, "base.tach")
    write_json_profile(env, base, {"main": 10}, 0.01)

    def run(*args):
        p = subprocess.run([env.exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env.env, timeout=600)
        return p.returncode, p.stdout, p.stderr

    def fails(args, *wanted):
        """ARGS fail with one line on stderr that holds nothing raw and
        shows each of WANTED as a name is shown."""
        def check():
            rc, out, err = run(*args)
            problems = raw_controls(err, "stderr")
            text = err.decode("utf-8", "replace")
            if rc != 1 or out:
                problems.append("exit %d, stdout %r" % (rc, out[:200]))
            if not text.startswith(PROG + ": ") or text.count("\n") != 1 or not text.endswith("\n"):
                problems.append("stderr is not one line: %r" % text[:600])
            for w in wanted:
                if w not in text:
                    problems.append("stderr lacks %r: %r" % (w[:200], text[:600]))
            return problems
        return check

    def prints(args, *wanted):
        def check():
            rc, out, err = run(*args)
            problems = raw_controls(out, "stdout") + raw_controls(err, "stderr")
            text = out.decode("utf-8", "replace")
            if rc != 0 or err:
                problems.append("exit %d, stderr %r" % (rc, err[:300]))
            for w in wanted:
                if w not in text:
                    problems.append("stdout lacks %r: %r" % (w[:200], text[:600]))
            return problems
        return check

    out_html = os.path.join(tmp, "out.html")
    evil_out = os.path.join(tmp, "no such dir\n" + EVIL, "out.html")
    # The file names of the command line.
    cases += [
        ("--info: a missing file", fails(["--info", missing], shown(missing))),
        ("--info --json: a missing file", fails(["--info", "--json", missing], shown(missing))),
        ("--info: not a profile", fails(["--info", not_profile], shown(not_profile))),
        ("--info: the File row", prints(["--info", evil_file], " " + shown(evil_file) + "\n")),
        ("--info --json of a file so named", prints(["--info", "--json", evil_file])),
        ("--export: a missing FILE", fails(["--export", "html", "-o", out_html, missing],
                                           shown(missing))),
        ("--export: a missing --baseline", fails(["--export", "html", "--baseline", missing,
                                                  "-o", out_html, evil_file], shown(missing))),
        ("--export: OUT in a missing folder", fails(["--export", "html", "-o", evil_out, evil_file],
                                                    shown(evil_out))),
        ("--export: OUT is a folder", fails(["--export", "html", "-o", evil_dir, evil_file],
                                            shown(evil_dir))),
        ("--export: OUT is FILE", fails(["--export", "html", "-o", evil_file, evil_file],
                                        shown(evil_file))),
        ("--compare --info: a missing file", fails(["--compare", "--info", evil_file, missing],
                                                   shown(missing))),
        ("--compare --info: Base and New", prints(["--compare", "--info", evil_file, evil_file],
                                                  "Base: " + shown(evil_file),
                                                  "New:  " + shown(evil_file))),
        ("--compare --info --json: Base and New", prints(["--compare", "--info", "--json",
                                                          evil_file, evil_file])),
    ]
    # What the command line echoes of its arguments.
    cases += [
        ("an unknown option", fails(["--info", "--" + EVIL, evil_file])),
        ("an unknown export format", fails(["--export", EVIL, "-o", out_html, evil_file],
                                           visible(EVIL))),
        ("an unknown --by", fails(["--compare", "--info", "--by", EVIL, evil_file, evil_file],
                                  visible(EVIL))),
        ("an unknown --merge", fails(["--export", "html", "--merge", EVIL, "-o", out_html,
                                      evil_file])),
        ("an unknown --state", fails(["--export", "html", "--state", EVIL, "-o", out_html,
                                      evil_file])),
        ("a bad --range", fails(["--export", "html", "--range", EVIL, "-o", out_html, evil_file])),
        ("a bad --thread", fails(["--export", "html", "--thread", EVIL, "-o", out_html,
                                  evil_file])),
        ("a bad --width", fails(["--export", "svg", "--width", EVIL, "-o", out_html, evil_file])),
        ("a bad --search", fails(["--export", "html", "--search", "(" + EVIL, "-o", out_html,
                                  evil_file], shown("(" + EVIL))),
        ("a bad --zoom", fails(["--export", "html", "--zoom", EVIL + ";;", "-o", out_html,
                                evil_file], shown(EVIL + ";;"))),
    ]
    # The names inside a profile.
    cases += [
        ("--focus: no such function", fails(["--export", "html", "--focus", EVIL + "x", "-o",
                                             out_html, inside], shown(EVIL + "x"))),
        ("--focus: a name of two files lists them",
         fails(["--export", "html", "--focus", EVIL, "-o", out_html, inside],
               shown("/srv/a\n" + EVIL + ".py"), shown("/srv/b\x1b]0;title\x07.py"))),
        ("--hide: no such function", fails(["--export", "collapsed", "--hide", EVIL + "y", "-o",
                                            out_html, inside], shown(EVIL + "y"))),
        ("--zoom: no such frame under a hostile one",
         fails(["--export", "html", "--merge", "function", "--zoom", "main;" + long_func + ";deeper",
                "-o", out_html, inside], shown(long_func), "deeper")),
        ("--compare --info: the functions' names and files",
         prints(["--compare", "--info", base, inside],
                shown(EVIL) + " (" + shown("/srv/a\n" + EVIL + ".py") + ")\n",
                shown(long_func) + " (/srv/long.py)\n")),
        ("--compare --info --json: the names escaped, and whole",
         prints(["--compare", "--info", "--json", base, inside])),
    ]

    def json_whole():
        """JSON keeps the names whole; escaped, they read back the same."""
        rc, out, err = run("--compare", "--info", "--json", base, inside)
        doc = strict_json(out)
        names = {f["function"] for f in doc["functions"]}
        problems = []
        if EVIL not in names or long_func not in names:
            problems.append("names %r" % [n[:40] for n in names])
        rc, out, err = run("--compare", "--info", "--json", evil_file, evil_file)
        doc = strict_json(out)
        if doc["base"] != evil_file or doc["new"] != evil_file:
            problems.append("base %r new %r" % (doc["base"], doc["new"]))
        return problems
    cases.append(("--compare --info --json holds the names whole", json_whole))
    return cases, tmp


# ---------------------------------------------------------------------------
# big: a big generated profile, against the reference
# ---------------------------------------------------------------------------

BIG_SAMPLES = 1000000


def big_cases(env, tmp):
    """tachyon-bench --generate's profile (64 threads, deep stacks, zstd):
    written by our writer, read by the reference and by us alike."""
    path = os.path.join(tmp, "big.tach")
    problems = env.generate(path, BIG_SAMPLES, timeout=600)
    if problems:
        raise SystemExit("Bail out! " + " ".join(problems))

    def samples():
        ours = reference.run_tool(env.tool, "dump", path)
        theirs = env.tachgen_run("dump", "--raw", path)
        if ours == theirs:
            return []
        ol, tl = ours.splitlines(), theirs.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(ol, tl)) if a != b), min(len(ol), len(tl)))
        return ["%d samples, tachgen %d; first difference at sample %d" % (len(ol), len(tl), first)]
    return [("big: --info --json of %d generated samples" % BIG_SAMPLES,
             lambda: check_info_file(env, path, generated=True)),
            ("big: --export collapsed", lambda: check_collapsed_file(env, path, generated=True)),
            ("big: every sample, as tachgen decodes it", samples)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--bench")
    ap.add_argument("group", choices=["info", "human", "invalid", "collapsed", "generated",
                                      "big", "args", "compare", "names", "quality"])
    a = ap.parse_args()
    env = Env(a.exe, a.tool, a.bench)
    tap = Tap()
    if a.group in ("generated", "big") and env.tachgen is None:
        # Not a failure: run-tests.sh leaves the reference suite out then,
        # and says so.
        print("1..0 # SKIP the reference reader is not found: set TACHGEN to tachgen.py, or "
              "put shared/ beside the source")
        return 0
    valid = env.files("valid")
    invalid = env.files("invalid")
    if not valid or not invalid:
        print("Bail out! empty corpus in %s" % env.data)
        return 1

    if a.group == "info":
        run_parallel(tap, [("info --json %s" % env.key(p), lambda p=p: check_info_file(env, p))
                           for p in valid])
    elif a.group == "human":
        items = [("info %s" % env.key(p), lambda p=p: check_human_file(env, p)) for p in valid]
        items.append(("legacy_nostats: no statistics numbers", lambda: check_human_specific(env)))
        items.append(("a checksum that is set, in hexadecimal", lambda: check_human_checksum(env)))
        run_parallel(tap, items)
    elif a.group == "invalid":
        run_parallel(tap, [("invalid %s" % env.key(p), lambda p=p: check_invalid_file(env, p))
                           for p in invalid])
        missing = sorted(k for k in MESSAGE_EXCEPTIONS
                         if not os.path.exists(os.path.join(env.data, k)))
        tap.result("every message exception names a corpus file",
                   ["not in the corpus: %s" % k for k in missing])
    elif a.group == "collapsed":
        run_parallel(tap, [("collapsed %s" % env.key(p), lambda p=p: check_collapsed_file(env, p))
                           for p in valid])
    elif a.group == "generated":
        tmp = tempfile.mkdtemp(prefix="tv-cli-gen-")
        try:
            run_parallel(tap, [("generated %s %s" % (g[0], " ".join(g[3])),
                                lambda g=g: check_generated(env, tmp, *g)) for g in GENERATED])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    elif a.group == "big":
        tmp = tempfile.mkdtemp(prefix="tv-cli-big-")
        try:
            run_parallel(tap, big_cases(env, tmp))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    else:
        cases, tmp = {"compare": compare_cases, "quality": quality_cases, "names": names_cases,
                      "args": args_cases}[a.group](env)
        try:
            run_parallel(tap, cases)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
