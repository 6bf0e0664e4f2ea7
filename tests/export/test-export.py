#!/usr/bin/env python3
"""Tests of `tachyon-viewer --export html|collapsed` and their filters
(test-export-image.py tests svg, png and pdf).

Usage: test-export.py --exe PATH --bench PATH --tool PATH GROUP

GROUP is one of:
  corpus   every valid corpus file: the JSON embedded in the page against
           --info --json, and its tree against --export collapsed
  filters  --thread, --state, --range through the model: partitions and
           subsets that must add up exactly
  args     bad arguments and files: exit 1, one line on stderr, no OUT
  hostile  names made to break out of the page, in the file and in Chromium
  browser  the page in headless Chromium: no request, the statistics,
           zoom, search, threads, inversion, light and dark
  size     a 1M-sample, 50k-node profile: at most 5 MB, interactive fast
  view     --merge, --focus, --hide, --collapse-recursion against a
           brute-force replay of the samples (the reference reader's, as
           tests/data/reference.json vouches for them) and
           --export collapsed; --zoom, --icicle and --search in the JSON
  diff     --export html --baseline: the diff object against --compare,
           and the page in Chromium (injected change, noise, warnings,
           hostile names)
  names    100 KB names on both pages in Chromium: cut in every view,
           whole in a title and on copy
  ranges   --range given several times: the page's and the collapsed
           stacks' samples against a brute-force replay of the samples in
           the ranges; overlapping and touching ranges merge
  l10n     the page's words: in German (LANGUAGE=de, po/de.po compiled),
           in the JSON and in Chromium, English where a word is missing,
           and the English words the same in the exporter and the page
  scale    10,000 threads of their own stacks: each thread's counts in the
           page; a bomb of 30M samples of one stack: the exports' peak RSS
           stays under 100 MB; a small memory budget: a clear error

Prints TAP.  The corpus and the reference reader's outputs come from
$TACH_TEST_DATA; profiles made for a test are written by tach-tool
(--tool, tests/tools).  Standard library only, plus Debian's chromium
(build-aux/install-deps.sh installs it): without it the browser tests fail.
"""

import argparse
import collections
import colorsys
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import cdp  # noqa: E402
import reference  # noqa: E402
import testlib  # noqa: E402
from testlib import Tap, parse_collapsed, strict_json  # noqa: E402

PROG = "tachyon-viewer"
MAX_BYTES = 5 * 1000 * 1000
DATA_RE = re.compile(rb'<script type="application/json" id="tachyon-data">(.*?)</script>', re.S)
STATS_KEYS = ["duration_sec", "sample_rate", "error_rate", "missed_samples"]
STATUS_KEYS = ["has_gil", "on_cpu", "unknown", "gil_requested", "has_exception", "main_thread"]
STATES = {"gil": "has_gil", "cpu": "on_cpu", "gil-wait": "gil_requested",
          "exception": "has_exception"}
# Valid for CPython, refused by the viewer on purpose (see tests/cli).
REJECTED_VALID = {"valid/compression_type_7.tach"}
INTERNAL_SUFFIX = "_sync_coordinator.py"
UNFILTERED = {"threads": None, "state": None, "range_sec": None, "ranges_sec": None, "focus": None,
              "hidden": [], "collapse_recursion": False}
DEFAULT_VIEW = {"inverted": False, "orientation": "flame", "merge": "frame", "zoom": []}
MERGES = ["function", "line", "instruction", "frame"]


class Env(testlib.ViewerEnv):
    def __init__(self, exe, bench, tool, l10n_exe=None, po_dir=None):
        super().__init__(exe, tool, bench)
        self.l10n_exe = os.path.abspath(l10n_exe) if l10n_exe else None
        self.po_dir = po_dir

    def run_in(self, language, localedir, *args):
        """The command line with the catalogues of LOCALEDIR, in LANGUAGE."""
        env = dict(self.env, LANGUAGE=language)
        p = subprocess.run([self.l10n_exe, localedir] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=600)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")

    def samples(self, path):
        """The samples and frames of PATH, for a replay: for a corpus file,
        those the reference reader decodes (checked against
        reference.json); for one a test wrote, those it wrote."""
        key = self.key(path)
        return reference.Samples(self.tool, self.expected if key in self.expected else None,
                                 key, path)


def run_parallel(tap, items):
    tap.run_parallel(items, 4)


# ---------------------------------------------------------------------------
# The page and its data
# ---------------------------------------------------------------------------

class Page:
    """An exported page: its bytes, the raw JSON text and the parsed data."""

    def __init__(self, data):
        self.bytes = data
        matches = DATA_RE.findall(data)
        if len(matches) != 1:
            raise ValueError("expected one tachyon-data element, found %d" % len(matches))
        self.raw = matches[0]
        self.data = strict_json(self.raw)
        self.template = DATA_RE.sub(b"", data)


def export_html(env, path, *extra, out_dir=None):
    """Exports PATH; returns (Page or None, problems)."""
    tmp = out_dir or tempfile.mkdtemp(prefix="tv-export-")
    try:
        out = os.path.join(tmp, "out.html")
        rc, stdout, err = env.run("--export", "html", "-o", out, *(list(extra) + [path]))
        if rc != 0:
            return None, ["--export html %s: exit %d, stderr %r" % (" ".join(extra), rc, err)]
        problems = []
        if stdout or err:
            problems.append("output on stdout/stderr: %r %r" % (stdout[:200], err[:300]))
        with open(out, "rb") as fh:
            page = Page(fh.read())
        return page, problems
    finally:
        if out_dir is None:
            shutil.rmtree(tmp, ignore_errors=True)


def tree_of(d):
    n = len(d["nodes"]) // 2 + 1
    parent = [-1] * n
    frame = [-1] * n
    for i in range(1, n):
        parent[i] = i - d["nodes"][2 * i - 2]
        frame[i] = d["nodes"][2 * i - 1]
    return n, parent, frame


def thread_pairs(t):
    node = 0
    s = t["self"]
    for k in range(0, len(s), 2):
        node += s[k]
        yield node, s[k + 1]


def node_totals(d, n, parent):
    """The samples under each of the N nodes of D's tree (tree_of ())."""
    total = [0] * n
    for t in d["threads"]:
        for node, count in thread_pairs(t):
            total[node] += count
    for i in range(n - 1, 0, -1):
        total[parent[i]] += total[i]
    return total


def check_structure(d):
    """The invariants of the schema; returns problems."""
    problems = []
    for key in ("format", "version", "generator", "source", "header", "footer", "stats",
                "decoded", "filter", "view", "seconds_per_sample", "time_source", "samples",
                "strings", "frames", "nodes", "threads"):
        if key not in d:
            problems.append("missing key %s" % key)
    if problems:
        return problems
    if d["format"] != "tachyon-viewer-flamegraph" or d["version"] != 1:
        problems.append("format/version: %r %r" % (d["format"], d["version"]))
    if list(d["stats"]) != STATS_KEYS:
        problems.append("stats keys %r" % list(d["stats"]))
    if len(d["frames"]) % 7 or len(d["nodes"]) % 2:
        problems.append("frames or nodes not whole")
        return problems
    n_frames = len(d["frames"]) // 7
    for f in range(n_frames):
        fn, fl = d["frames"][7 * f], d["frames"][7 * f + 1]
        if not (0 <= fn < len(d["strings"]) and 0 <= fl < len(d["strings"])):
            problems.append("frame %d names string %d/%d of %d" % (f, fn, fl, len(d["strings"])))
            break
    n, parent, frame = tree_of(d)
    for i in range(1, n):
        if not (0 <= parent[i] < i) or not (0 <= frame[i] < n_frames):
            problems.append("node %d: parent %d, frame %d" % (i, parent[i], frame[i]))
            break
    # Depth-first: a node's parent is the previous node or one of its
    # ancestors.
    for i in range(2, n):
        a = i - 1
        while a != -1 and a != parent[i]:
            a = parent[a]
        if a != parent[i]:
            problems.append("node %d is not in depth-first order" % i)
            break
    total = [0] * n
    used = set()
    for t in d["threads"]:
        if not isinstance(t["thread_id"], str) or not t["thread_id"].isdigit():
            problems.append("thread_id %r is not a decimal string" % t["thread_id"])
        last = -1
        s = 0
        for node, count in thread_pairs(t):
            if node <= last or not (0 <= node < n) or count <= 0:
                problems.append("thread %s: bad pair (%d, %d)" % (t["thread_id"], node, count))
                break
            last = node
            total[node] += count
            s += count
        if s != t["samples"]:
            problems.append("thread %s: samples %d, its counts add up to %d"
                            % (t["thread_id"], t["samples"], s))
        if t["samples"] > t["samples_in_file"]:
            problems.append("thread %s: more samples than in the file" % t["thread_id"])
    for i in range(n - 1, 0, -1):
        total[parent[i]] += total[i]
    if total[0] != d["samples"]:
        problems.append("the threads' counts add up to %d, samples says %d" % (total[0], d["samples"]))
    empty = [i for i in range(1, n) if total[i] == 0]
    if empty:
        problems.append("%d nodes without samples, e.g. %d" % (len(empty), empty[0]))
    used = {frame[i] for i in range(1, n)}
    if len(used) != n_frames:
        problems.append("%d frames exported, %d used" % (n_frames, len(used)))
    return problems


def check_script_safe(page):
    problems = []
    for bad in (b"<", b">", b"&", "\u2028".encode(), "\u2029".encode()):
        if bad in page.raw:
            problems.append("the embedded JSON holds %r" % bad)
    head = page.template
    # Two exact exceptions, which request nothing: the SVG namespace of the
    # image "Export SVG" writes, and that image's download link, which is
    # a blob: URL of the page's own making.
    for allowed in (b'xmlns="http://www.w3.org/2000/svg"',
                    b'var url = URL.createObjectURL(new Blob([svgImage()], { type: "image/svg+xml" }));\n'
                    b'    var a = document.createElement("a");\n    a.href = url;'):
        if head.count(allowed) != 1:
            problems.append("the page lacks %r" % allowed[:40])
        head = head.replace(allowed, b"")
    if b"Content-Security-Policy" not in head or b"default-src 'none'" not in head:
        problems.append("no Content-Security-Policy with default-src 'none'")
    for pattern in (rb"https?:", rb"\b(src|href|action|srcset|formaction)\s*=\s*[\"']",
                    rb"\.(src|href|action)\s*=", rb"url\(", rb"@import",
                    rb"\bfetch\(", rb"XMLHttpRequest", rb"WebSocket", rb"innerHTML",
                    rb"outerHTML", rb"insertAdjacentHTML", rb"document\.write", rb"\beval\("):
        m = re.search(pattern, head)
        if m:
            problems.append("the page outside the data holds %r" % m.group(0))
    return problems


def same_number(ours, ref):
    if ref is None or ours is None:
        return ours is None and ref is None
    return isinstance(ours, (int, float)) and float(ours) == float(ref)


def canonical(d, f):
    """CPython's key and text of frame F (SPEC §16), or None when hidden."""
    s = d["strings"]
    func, file, line = s[d["frames"][7 * f]], s[d["frames"][7 * f + 1]], d["frames"][7 * f + 2]
    if file.endswith(INTERNAL_SUFFIX):
        return None
    if line == -1:
        line = 0
    if file == "~" and line == 0:
        text = func
    else:
        text = "%s:%s:%d" % (file.rsplit("/", 1)[-1], func, line)
    return (file, line, func), text


def collapsed_from_page(d, tid_filter=None):
    """What `replay --collapsed` writes for the samples in the page."""
    n, parent, frame = tree_of(d)
    canon = [None] + [canonical(d, frame[i]) for i in range(1, n)]
    counts = {}
    texts = {}
    for t in d["threads"]:
        tid = int(t["thread_id"])
        for node, count in thread_pairs(t):
            keys = []
            u = node
            while u > 0:
                if canon[u] is not None:
                    keys.append(canon[u])
                u = parent[u]
            if not keys:
                continue
            keys.reverse()
            k = (tid, tuple(c[0] for c in keys))
            counts[k] = counts.get(k, 0) + count
            texts[k] = "tid:%d" % tid + "".join(";" + c[1] for c in keys)
    lines = sorted(((-c, texts[k]) for k, c in counts.items()))
    return "".join("%s %d\n" % (text, -c) for c, text in lines).encode("utf-8")


# ---------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------

def check_corpus_file(env, path):
    key = env.key(path)
    if key in REJECTED_VALID:
        tmp = tempfile.mkdtemp(prefix="tv-export-")
        try:
            out = os.path.join(tmp, "out.html")
            rc, stdout, err = env.run("--export", "html", "-o", out, path)
            problems = []
            if rc != 1 or stdout or not err.startswith(PROG + ": ") or os.listdir(tmp):
                problems.append("expected a refusal: exit %d, stdout %r, stderr %r, files %r"
                                % (rc, stdout[:100], err, os.listdir(tmp)))
            return problems
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    page, problems = export_html(env, path)
    if page is None:
        return problems
    d = page.data
    problems += check_script_safe(page)
    problems += check_structure(d)
    if problems:
        return problems

    rc, out, err = env.run("--info", "--json", path)
    if rc != 0:
        return problems + ["--info --json: exit %d %s" % (rc, err)]
    info = strict_json(out)

    for k in ("version", "python_version", "start_time_us", "sample_interval_us", "sample_count",
              "thread_count", "compression_type", "mode"):
        if d["header"][k] != info[k]:
            problems.append("header.%s: %r, --info says %r" % (k, d["header"][k], info[k]))
    for k in ("string_count", "frame_count"):
        if d["footer"][k] != info[k]:
            problems.append("footer.%s: %r, --info says %r" % (k, d["footer"][k], info[k]))
    for k in STATS_KEYS:
        if not same_number(d["stats"][k], info[k]):
            problems.append("stats.%s: %r, --info says %r" % (k, d["stats"][k], info[k]))
    src = d["source"]
    for ours, theirs in (("file_size", "file_size"), ("byte_order", "byte_order"),
                         ("compression", "compression")):
        if src[ours] != info[theirs]:
            problems.append("source.%s: %r, --info says %r" % (ours, src[ours], info[theirs]))
    # The file's own warnings, and every data-quality finding, as --info
    # gives them.
    file_warnings = [w["message"] for w in info["warnings"] if w["kind"] == "file"]
    if src["warnings"] != file_warnings:
        problems.append("source.warnings: %r, --info says %r" % (src["warnings"], file_warnings))
    findings = [{"kind": w["kind"], "severity": w["severity"], "message": w["message"]}
                for w in info["warnings"]]
    if d.get("findings") != findings:
        problems.append("findings: %r, --info says %r" % (d.get("findings"), findings))
    if src["name"] != os.path.basename(path):
        problems.append("source.name %r" % src["name"])
    for k in ("samples", "first_timestamp_us", "last_timestamp_us", "max_depth"):
        if d["decoded"][k] != info["decoded"][k]:
            problems.append("decoded.%s: %r, --info says %r" % (k, d["decoded"][k], info["decoded"][k]))
    if d["samples"] != info["decoded"]["samples"]:
        problems.append("samples %d, --info decoded %d" % (d["samples"], info["decoded"]["samples"]))

    ours = [(t["thread_id"], t["interpreter_id"], t["samples_in_file"], t["samples"],
             [t["status_counts"][s] for s in STATUS_KEYS]) for t in d["threads"]]
    theirs = [(str(t["thread_id"]), t["interpreter_id"], t["samples"], t["samples"],
               [t["status_counts"][s] for s in STATUS_KEYS]) for t in info["decoded"]["threads"]]
    if ours != theirs:
        problems.append("threads differ from --info:\n ours   %r\n theirs %r" % (ours[:4], theirs[:4]))
    if d["filter"] != UNFILTERED or d["view"] != DEFAULT_VIEW:
        problems.append("filter/view of an unfiltered export: %r %r" % (d["filter"], d["view"]))
    rate = info["sample_rate"]
    expected = 1 / rate if rate else info["sample_interval_us"] / 1e6
    if not math.isclose(d["seconds_per_sample"], expected, rel_tol=1e-12) and not (
            expected == 0 and d["seconds_per_sample"] == 0):
        problems.append("seconds_per_sample %r, expected %r" % (d["seconds_per_sample"], expected))

    # The tree, summed per stack, is the collapsed export to the byte.
    rc, collapsed, err = env.run("--export", "collapsed", "-o", "-", path)
    if rc != 0:
        return problems + ["--export collapsed: exit %d %s" % (rc, err)]
    mine = collapsed_from_page(d)
    if mine != collapsed:
        a, b = mine.splitlines(), collapsed.splitlines()
        problems.append("the page's stacks differ from --export collapsed (%d vs %d lines)"
                        % (len(a), len(b)))
        for i in range(max(len(a), len(b))):
            if i >= len(a) or i >= len(b) or a[i] != b[i]:
                problems.append("first difference at line %d:\n page: %r\n collapsed: %r"
                                % (i + 1, a[i] if i < len(a) else None, b[i] if i < len(b) else None))
                break

    # -o - writes the same page.
    rc, stdout, err = env.run("--export", "html", "-o", "-", path)
    if rc != 0 or stdout != page.bytes or err:
        problems.append("-o -: exit %d, %d bytes (expected %d), stderr %r"
                        % (rc, len(stdout), len(page.bytes), err))
    return problems


# ---------------------------------------------------------------------------
# filters
# ---------------------------------------------------------------------------

def check_filters_file(env, path):
    problems = []
    rc, out, err = env.run("--info", "--json", path)
    if rc != 0:
        return ["--info --json: exit %d %s" % (rc, err)]
    info = strict_json(out)
    threads = info["decoded"]["threads"]
    rc, full, err = env.run("--export", "collapsed", "-o", "-", path)
    if rc != 0:
        return ["--export collapsed: exit %d %s" % (rc, err)]
    full_lines = full.splitlines(True)

    # --thread: exactly the unfiltered lines of that thread, in order.
    tids = sorted({t["thread_id"] for t in threads if t["samples"] > 0})
    for tid in tids[:8]:
        rc, out, err = env.run("--export", "collapsed", "--thread", str(tid), "-o", "-", path)
        expected = b"".join(l for l in full_lines if l.startswith(b"tid:%d;" % tid))
        if rc != 0 or out != expected or err:
            problems.append("--thread %d: exit %d, %d bytes, expected %d; stderr %r"
                            % (tid, rc, len(out), len(expected), err))
    if len(tids) >= 2:
        rc, out, err = env.run("--export", "collapsed", "--thread", str(tids[0]), "--thread",
                               str(tids[-1]), "-o", "-", path)
        prefixes = (b"tid:%d;" % tids[0], b"tid:%d;" % tids[-1])
        expected = b"".join(l for l in full_lines if l.startswith(prefixes))
        if rc != 0 or out != expected:
            problems.append("two --thread: %d bytes, expected %d" % (len(out), len(expected)))

    # --range: two halves add up to the whole, in the page and in the
    # collapsed stacks.
    if info["decoded"]["samples"] > 0:
        first, last = info["decoded"]["first_timestamp_us"], info["decoded"]["last_timestamp_us"]
        middle = repr(((first + last) // 2 + 1 - info["start_time_us"]) / 1e6)
        halves = []
        for arg in ("--range=:" + middle, "--range=" + middle + ":"):
            rc, out, err = env.run("--export", "collapsed", arg, "-o", "-", path)
            if rc != 0:
                problems.append("%s: exit %d %s" % (arg, rc, err))
                continue
            halves.append(parse_collapsed(out))
        if len(halves) == 2:
            added = dict(halves[0])
            for k, v in halves[1].items():
                added[k] = added.get(k, 0) + v
            if added != parse_collapsed(full):
                problems.append("--range halves at %s do not add up to the whole" % middle)
        pages = []
        for arg in ("--range=:" + middle, "--range=" + middle + ":"):
            page, sub = export_html(env, path, arg)
            problems += ["%s: %s" % (arg, p) for p in sub]
            if page is not None:
                problems += ["%s: %s" % (arg, p) for p in check_structure(page.data)]
                pages.append(page.data)
        if len(pages) == 2:
            if pages[0]["samples"] + pages[1]["samples"] != info["decoded"]["samples"]:
                problems.append("html --range halves: %d + %d samples, expected %d"
                                % (pages[0]["samples"], pages[1]["samples"],
                                   info["decoded"]["samples"]))
            if pages[0]["filter"]["range_sec"] != [None, float(middle)]:
                problems.append("filter.range_sec %r" % pages[0]["filter"]["range_sec"])
        # A range outside the profile selects nothing, and that is no error.
        rc, out, err = env.run("--export", "collapsed", "--range", "-2e9:-1e9", "-o", "-", path)
        if rc != 0 or out != b"":
            problems.append("range before the profile: exit %d, %r" % (rc, out[:100]))

    # --state: the page holds exactly the samples in that state.
    for state, key in STATES.items():
        page, sub = export_html(env, path, "--state", state)
        problems += ["--state %s: %s" % (state, p) for p in sub]
        if page is None:
            continue
        d = page.data
        problems += ["--state %s: %s" % (state, p) for p in check_structure(d)]
        expected = sum(t["status_counts"][key] for t in threads)
        if d["samples"] != expected:
            problems.append("--state %s: %d samples, --info counts %d" % (state, d["samples"], expected))
        if d["filter"]["state"] != state:
            problems.append("--state %s: filter.state %r" % (state, d["filter"]["state"]))

    # --thread in the page: that thread's samples only, the others empty.
    if tids:
        page, sub = export_html(env, path, "--thread", str(tids[0]), "--inverted")
        problems += sub
        if page is not None:
            d = page.data
            problems += check_structure(d)
            expected = sum(t["samples"] for t in threads if t["thread_id"] == tids[0])
            others = [t for t in d["threads"] if t["thread_id"] != str(tids[0]) and t["samples"]]
            if d["samples"] != expected or others:
                problems.append("--thread %d: %d samples (expected %d), others %r"
                                % (tids[0], d["samples"], expected, others[:1]))
            if d["filter"]["threads"] != [str(tids[0])] or \
                    d["view"] != dict(DEFAULT_VIEW, inverted=True):
                problems.append("filter %r, view %r" % (d["filter"], d["view"]))
            # The tree of one thread is the collapsed stacks of that thread.
            expected = b"".join(l for l in full_lines if l.startswith(b"tid:%d;" % tids[0]))
            if collapsed_from_page(d) != expected:
                problems.append("--thread %d: the page's stacks differ from the collapsed lines"
                                % tids[0])
    return problems


# ---------------------------------------------------------------------------
# args
# ---------------------------------------------------------------------------

def check_fails(env, args, expected, out_dir):
    rc, out, err = env.run(*args)
    problems = testlib.failure_problems(rc, out, err, expected)
    left = sorted(f for f in os.listdir(out_dir) if f != "keep.html")
    if left:
        problems.append("left behind: %r" % left)
    return problems


def args_cases(env):
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    threads = os.path.join(env.data, "valid", "rec_threads.tach")
    bad = os.path.join(env.data, "invalid", "sample_count_mismatch.tach")
    tmp = tempfile.mkdtemp(prefix="tv-export-args-")
    out = os.path.join(tmp, "out.html")
    cases = []

    def fails(name, args, expected):
        def fn():
            d = tempfile.mkdtemp(dir=tmp)
            real = [a.replace("@OUT@", os.path.join(d, "out")) for a in args]
            return check_fails(env, real, expected, d)
        cases.append(("fails: " + name, fn))

    o = ["-o", "@OUT@"]
    fails("unknown format", ["--export", "xhtml"] + o + [tiny], "xhtml")
    fails("thread not a number", ["--export", "html"] + o + ["--thread", "main", tiny],
          "Invalid thread ID “main”")
    fails("negative thread", ["--export", "html"] + o + ["--thread=-1", tiny], "Invalid thread ID")
    fails("thread with a sign", ["--export", "html"] + o + ["--thread=+4242", tiny],
          "Invalid thread ID")
    fails("thread too big", ["--export", "html"] + o + ["--thread", "18446744073709551616", tiny],
          "Invalid thread ID")
    fails("empty thread", ["--export", "html"] + o + ["--thread=", tiny], "Invalid thread ID")
    fails("thread not in the profile", ["--export", "html"] + o + ["--thread", "7", tiny],
          "Thread 7 is not in this profile (its threads: 4242)")
    fails("thread not in the profile, collapsed",
          ["--export", "collapsed"] + o + ["--thread", "4242", "--thread", "7", tiny],
          "Thread 7 is not in this profile")
    fails("unknown state", ["--export", "html"] + o + ["--state", "sleeping", tiny],
          "Unknown thread state “sleeping”")
    for rng in ("1", "1:2:3", ":", "a:b", "1:x", "nan:1", "1:inf", " 1:2", "2:1", "1:1",
                "0x1:2", "0:0x1p1"):
        fails("range %r" % rng, ["--export", "html"] + o + ["--range=" + rng, tiny],
              "Invalid time range “%s”" % rng)
    fails("--inverted with collapsed", ["--export", "collapsed"] + o + ["--inverted", tiny],
          "--inverted does not apply to --export collapsed")
    fails("--thread without --export", ["--thread", "1", tiny], "can only be used with --export")
    fails("--inverted without --export", ["--inverted", tiny], "can only be used with --export")
    fails("--state with --info", ["--info", "--state", "gil", tiny], "can only be used with --export")
    fails("missing -o", ["--export", "html", tiny], "-o")
    fails("missing file", ["--export", "html"] + o + [os.path.join(tmp, "nope.tach")],
          "nope.tach")
    fails("directory as file", ["--export", "html"] + o + [tmp], None)
    fails("decode error", ["--export", "html"] + o + [bad], "Sample count mismatch")
    fails("decode error with a filter", ["--export", "collapsed"] + o + ["--state", "gil", bad],
          "Sample count mismatch")
    fails("invalid file", ["--export", "html"] + o +
          [os.path.join(env.data, "invalid", "bad_magic.tach")], "Invalid magic number")
    recursive = os.path.join(env.data, "valid", "rec_recursive.tach")
    missing = os.path.join(tmp, "nope.tach")
    invalid = os.path.join(env.data, "invalid", "bad_magic.tach")
    for fmt in ("html", "svg"):
        fails("--merge x, " + fmt, ["--export", fmt] + o + ["--merge", "lines", tiny],
              "Unknown merge key “lines”")
        fails("--focus unknown, " + fmt, ["--export", fmt] + o + ["--focus", "nosuch", tiny],
              "No function “nosuch”")
        fails("--hide unknown, " + fmt, ["--export", fmt] + o + ["--hide", "main", "--hide",
              "x.py:nosuch", recursive], "No function “x.py:nosuch”")
        fails("--zoom unknown, " + fmt, ["--export", fmt] + o + ["--zoom", "nosuch", tiny],
              "Cannot zoom into “nosuch”: the samples shown have no such frame at the root")
        fails("--zoom empty step, " + fmt, ["--export", fmt] + o + ["--zoom", "a;;b", tiny],
              "Invalid zoom “a;;b”")
        fails("--search invalid, " + fmt, ["--export", fmt] + o + ["--search", "(", tiny],
              "Invalid search “(”")
    fails("--zoom ambiguous", ["--export", "html"] + o + ["--zoom", "run_path", recursive],
          "frames at the root match it")
    fails("--focus empty", ["--export", "collapsed"] + o + ["--focus=", tiny], "empty")
    fails("--focus unknown, collapsed", ["--export", "collapsed"] + o + ["--focus", "x", tiny],
          "No function “x”")
    fails("--merge with collapsed", ["--export", "collapsed"] + o + ["--merge", "line", tiny],
          "do not apply to --export collapsed")
    fails("--zoom with collapsed", ["--export", "collapsed"] + o + ["--zoom", "main", tiny],
          "do not apply to --export collapsed")
    fails("--search with collapsed", ["--export", "collapsed"] + o + ["--search", "a", tiny],
          "do not apply to --export collapsed")
    fails("--width with html", ["--export", "html"] + o + ["--width", "800", tiny],
          "--width, --colors and --dark can only be used with --export svg, png or pdf")
    fails("--focus without --export", ["--focus", "main", tiny], "--focus can only be used with --export")
    fails("--merge without --export", ["--merge", "line", tiny], "--merge can only be used")
    fails("--baseline missing file", ["--export", "html"] + o + ["--baseline", missing, tiny],
          "nope.tach")
    fails("--baseline invalid file", ["--export", "html"] + o + ["--baseline", invalid, tiny],
          "Invalid magic number")
    fails("--baseline, NEW invalid", ["--export", "html"] + o + ["--baseline", tiny, invalid],
          "Invalid magic number")
    fails("--baseline empty", ["--export", "html"] + o + ["--baseline=", tiny], "empty")
    for fmt in ("svg", "png", "pdf", "collapsed"):
        fails("--baseline with " + fmt, ["--export", fmt] + o + ["--baseline", tiny, tiny],
              "--baseline can only be used with --export html")
    fails("--baseline with --zoom", ["--export", "html"] + o + ["--baseline", tiny, "--zoom",
          "main", tiny], "cannot be used with --baseline")
    fails("--by without --baseline", ["--export", "html"] + o + ["--by", "share", tiny],
          "--by can only be used with --compare or --baseline")
    fails("--by unknown", ["--export", "html"] + o + ["--baseline", tiny, "--by", "speed", tiny],
          "Unknown --by “speed”")
    fails("--baseline, thread only in NEW", ["--export", "html"] + o +
          ["--baseline", tiny, "--thread", str(140242736823168), recursive], "tiny.tach")

    def keeps_existing():
        d = tempfile.mkdtemp(dir=tmp)
        keep = os.path.join(d, "keep.html")
        with open(keep, "w") as fh:
            fh.write("keep me\n")
        problems = check_fails(env, ["--export", "html", "-o", keep, bad], "Sample count", d)
        with open(keep) as fh:
            if fh.read() != "keep me\n":
                problems.append("the existing OUT was changed")
        return problems
    cases.append(("a failed export keeps an existing OUT", keeps_existing))

    def out_is_directory():
        d = tempfile.mkdtemp(dir=tmp)
        os.mkdir(os.path.join(d, "out"))
        rc, stdout, err = env.run("--export", "html", "-o", os.path.join(d, "out"), tiny)
        problems = []
        if rc != 1 or stdout or "folder" not in err:
            problems.append("exit %d, stderr %r" % (rc, err))
        if os.listdir(d) != ["out"] or os.listdir(os.path.join(d, "out")):
            problems.append("files: %r" % os.listdir(d))
        return problems
    cases.append(("OUT is a directory", out_is_directory))

    def replaces_existing():
        d = tempfile.mkdtemp(dir=tmp)
        target = os.path.join(d, "page.html")
        with open(target, "w") as fh:
            fh.write("old\n" * 100)
        rc, stdout, err = env.run("--export", "html", "-o", target, "--state", "cpu",
                                  "--range", "0:10", "--inverted", threads)
        problems = []
        if rc != 0 or stdout or err:
            problems.append("exit %d, stdout %r, stderr %r" % (rc, stdout[:100], err))
        with open(target, "rb") as fh:
            d_ = Page(fh.read()).data
        if d_["filter"] != dict(UNFILTERED, state="cpu", range_sec=[0.0, 10.0]):
            problems.append("filter %r" % d_["filter"])
        if os.listdir(d) != ["page.html"]:
            problems.append("files: %r" % os.listdir(d))
        mode = os.stat(target).st_mode & 0o777
        umask = os.umask(0)
        os.umask(umask)
        if mode != 0o666 & ~umask:
            problems.append("mode %o" % mode)
        return problems
    cases.append(("an export replaces OUT, with every filter", replaces_existing))

    def help_lists_filters():
        rc, stdout, err = env.run("--help")
        text = stdout.decode("utf-8", "replace")
        return [] if rc == 0 and all(o in text for o in ("--thread", "--state", "--range",
                                                           "--inverted", "html")) else \
            ["--help: exit %d: %s" % (rc, text[:1000])]
    cases.append(("--help lists the filters", help_lists_filters))
    return cases, tmp


# ---------------------------------------------------------------------------
# hostile names
# ---------------------------------------------------------------------------

HOSTILE_FUNCS = [
    "</script><script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "\"><svg onload=alert(1)>",
    "</SCRIPT><!--<script>alert(2)//",
    "<!--",
    "]]></style><iframe src=javascript:alert(3)>",
    "${alert(4)}`'\"\\",
    "\u2028\u2029line\u2028separators",
    "\\u003cscript\\u003ealert(5)\\u003c/script\\u003e",
    "&lt;b&gt;not bold&lt;/b&gt; &amp;",
    "javascript:alert(6)",
    "\u202eevil\u202c rtl",
    "ctrl\u0001\u001b[31m\r\n\t",
    "nul\u0000byte",
    "c1\u0085next\u009bline",
    "x" * 3000,
]
HOSTILE_FILES = [
    "../../../etc/passwd",
    "..\\..\\windows\\system32",
    "/tmp/<img src=x onerror=alert(7)>.py",
    "dir/\u0007bell\u001b[2J\r\n.py",
    "\"><script>alert(8)</script>.py",
    "https://example.com/x.py",
    "~",
]


def hostile_spec():
    """A profile whose every frame has a hostile function or file name, as
    tachgen.py fromjson takes it: tests/data/make-expected.py writes it to
    tests/data/generated/hostile.tach, as the library's writer cannot
    write the NUL of "nul\u0000byte"."""
    frames = []
    for i, func in enumerate(HOSTILE_FUNCS):
        frames.append({"file": HOSTILE_FILES[i % len(HOSTILE_FILES)], "func": func,
                       "location": [i + 1, i + 2, 0, 5], "opcode": 100 + i})
    samples = []
    t = 1_000_000_000
    for k in range(len(frames) * 6):
        # Two levels: a hostile root and a hostile leaf, with weights that
        # make every frame wide enough to draw and hover.
        root = frames[k % len(frames)]
        leaf = frames[(k * 7 + 3) % len(frames)]
        samples.append({"t": t, "interpreters": [{"id": 0, "threads": [
            {"tid": 100 + k % 3, "status": 1, "frames": [leaf, root]}]}]})
        t += 1000
    return {"samples": samples, "stats": {"duration_sec": 0.25, "sample_rate": 999.5,
                                          "error_rate": 0.5, "missed_samples": 1.25}}


def hostile_profile(env, tmp, name):
    """hostile_spec()'s profile, as TMP/NAME."""
    path = os.path.join(tmp, name)
    shutil.copyfile(os.path.join(env.data, "generated", "hostile.tach"), path)
    return path


def visible(text):
    """The page's visible(): control and bidirectional characters shown."""
    out = []
    for c in text:
        code = ord(c)
        if code < 0x20:
            out.append(chr(0x2400 + code))
        elif code == 0x7f:
            out.append("\u2421")
        elif code in (0x61c, 0x200e, 0x200f, 0x2028, 0x2029) or 0x202a <= code <= 0x202e or \
                0x2066 <= code <= 0x2069 or 0x80 <= code <= 0x9f:
            out.append("[U+%X]" % code)
        else:
            out.append(c)
    return "".join(out)


HOSTILE_NAME = "\"><svg onload=alert(9)><img src=x onerror=alert(10)>.tach"


def check_hostile_file(env, tmp):
    """The names arrive intact in the data and never outside it."""
    path = hostile_profile(env, tmp, HOSTILE_NAME)
    page, problems = export_html(env, path)
    if page is None:
        return problems, None
    problems += check_script_safe(page)
    problems += check_structure(page.data)
    strings = set(page.data["strings"])
    for name in HOSTILE_FUNCS + HOSTILE_FILES:
        if name not in strings:
            problems.append("%r is not in the string table intact" % name[:60])
    if page.data["source"]["name"] != HOSTILE_NAME:
        problems.append("source.name %r" % page.data["source"]["name"])
    for needle in (b"alert(", b"onerror", b"onload", b"\xe2\x80\xa8"):
        if needle in page.template:
            problems.append("%r outside the data" % needle)
    rc, collapsed, err = env.run("--export", "collapsed", "-o", "-", path)
    if rc != 0 or collapsed_from_page(page.data) != collapsed:
        problems.append("the page's stacks differ from --export collapsed")
    out = os.path.join(tmp, "hostile.html")
    with open(out, "wb") as fh:
        fh.write(page.bytes)
    return problems, out


PAGE_CHECK = """(() => {
  const bad = document.querySelectorAll('img, svg, iframe, object, embed, frame, base, link, meta[http-equiv="refresh"], [onerror], [onload], [onclick]');
  return {
    scripts: document.scripts.length,
    bad: Array.from(bad).map(e => e.outerHTML.slice(0, 80)),
    title: document.title,
    h1: document.getElementById('title').textContent,
    ready: document.documentElement.dataset.ready === 'true',
    alerted: window.__alerted || 0
  };
})()"""


def set_control(b, element, value=None, option=None, event="change"):
    """Sets the form control of id ELEMENT to VALUE, or to the value of
    its OPTION-th option, and sends the EVENT a user's change would."""
    to = "s.options[%d].value" % option if option is not None else json.dumps(value)
    b.evaluate("(() => { const s = document.getElementById(%s); s.value = %s;"
               " s.dispatchEvent(new Event(%s)); })()"
               % (json.dumps(element), to, json.dumps(event)))


def browser_problems(browser, page_url):
    problems = []
    if browser.dialogs:
        problems.append("dialogs opened: %r" % [d.get("message") for d in browser.dialogs])
    if browser.exceptions:
        problems.append("exceptions: %r" % [e.get("exception", {}).get("description", e)
                                            for e in browser.exceptions][:3])
    if browser.console:
        problems.append("console errors: %r" % [c.get("text", c) for c in browser.console][:3])
    others = [u for u in browser.requests if u != page_url]
    if others:
        problems.append("network requests: %r" % others[:5])
    return problems


def hostile_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-hostile-")
    cases = []
    state = {}

    def in_file():
        problems, out = check_hostile_file(env, tmp)
        state["page"] = out
        return problems
    cases.append(("hostile names stay data in the file", in_file))

    @cdp.needs(browser_exe)
    def in_browser():
        if not state.get("page"):
            return ["no page to load"]
        url = "file://" + state["page"]
        problems = []
        with cdp.Browser(browser_exe) as b:
            b.navigate(url)
            before = b.evaluate(PAGE_CHECK)
            if not before["ready"]:
                problems.append("the page did not start")
            if before["scripts"] != 2 or before["bad"]:
                problems.append("injected elements: %r, %d scripts" % (before["bad"], before["scripts"]))
            if before["h1"] != HOSTILE_NAME or not before["title"].startswith(HOSTILE_NAME):
                problems.append("title %r / %r" % (before["title"], before["h1"]))
            # Hover every drawn frame: each tooltip shows its name as text.
            frames = b.evaluate("tachyon.frames()")
            seen = set()
            for f in frames:
                if f["node"] == 0 or f["width"] < 3:
                    continue
                b.mouse("mouseMoved", f["x"] + min(f["width"] / 2, 20), f["y"] + f["height"] / 2)
                tip = b.evaluate("[document.getElementById('tooltip').hidden, "
                                 "(document.querySelector('#tooltip .name') || {}).textContent]")
                label = shown(f["name"]) + (":%d" % f["line"] if f["line"] >= 0 else "")
                if tip[0] or tip[1] != shown(f["name"]) or f["label"] != label:
                    problems.append("tooltip over %r shows %r" % (f["name"][:40], tip))
                    break
                if re.search("[\x00-\x1f\u2028\u2029\u202a-\u202e]", tip[1]):
                    problems.append("control characters shown raw: %r" % tip[1][:60])
                seen.add(f["name"])
            missing = [n for n in HOSTILE_FUNCS if n not in seen]
            if missing:
                problems.append("never hovered: %r" % [m[:30] for m in missing])
            # Search for the markup, zoom into it, invert, pick a thread.
            b.evaluate("document.getElementById('search').focus()")
            b.type_text("<img")
            b.key("Enter", keycode=13)
            st = b.evaluate("tachyon.state()")
            if not st["highlighted"]:
                problems.append("searching '<img' highlights nothing: %r" % st)
            target = next((f for f in b.evaluate("tachyon.frames()")
                           if (f["name"] or "").startswith("<img") and f["depth"] == 1), None)
            if target:
                b.click(target["x"] + 5, target["y"] + 5)
                if b.evaluate("tachyon.state().zoomName") != target["name"]:
                    problems.append("clicking %r did not zoom into it" % target["name"])
            b.evaluate("document.getElementById('inverted').click()")
            set_control(b, "thread", option=1)
            after = b.evaluate(PAGE_CHECK)
            if after["scripts"] != 2 or after["bad"]:
                problems.append("injected elements after use: %r" % after["bad"])
            opts = b.evaluate("Array.from(document.querySelectorAll('#details td, #thread option,"
                              " #status, #subtitle')).map(e => e.children.length)")
            if any(opts):
                problems.append("text cells with child elements")
            problems += browser_problems(b, url)
        return problems
    cases.append(("hostile names run nothing in Chromium", in_browser))
    return cases, tmp


# ---------------------------------------------------------------------------
# browser
# ---------------------------------------------------------------------------

def round3(v):
    """tv-units.c's rounding: (value, exponent, digits) of |v| to three digits."""
    n = abs(v) * (1 + 8 * sys.float_info.epsilon)
    text = "%.2e" % n
    mantissa, exponent = text.split("e")
    return float(text), int(exponent), mantissa.replace(".", "")


def significant(v):
    if v == 0:
        return "0"
    _, x, d = round3(v)
    if x >= 3:
        plain = "{:,}".format(int(d + "0" * (x - 2)))
    elif x >= 2:
        plain = d
    elif x >= 0:
        plain = d[:x + 1] + "." + d[x + 1:]
    else:
        plain = "0." + "0" * (-x - 1) + d
    return ("-" if v < 0 else "") + plain


UNITS = [(1e9, 1000, "ns"), (1e6, 1000, "µs"), (1e3, 1000, "ms"), (1, 60, "s"),
         (1 / 60, 60, "min"), (1 / 3600, float("inf"), "h")]


def format_seconds(s):
    """The page's time, tv-units.c's rule: 812 ns, 4.20 µs, 315 ms, 1.28 s, 50.0 min."""
    if s == 0:
        return "0 s"
    u = 0
    while u + 1 < len(UNITS) and round3(s * UNITS[u][0])[0] >= UNITS[u][1]:
        u += 1
    v = s * UNITS[u][0]
    if round3(v)[0] < 1 and u > 0:
        v = -1 if v < 0 else 1
    return significant(v) + " " + UNITS[u][2]


def short3(v):
    """The page's three significant digits: JavaScript's Number(v.toPrecision(3))."""
    return js_number(float("%.3g" % v))


def js_number(v):
    """JavaScript's String(number) for the values of the corpus."""
    if v == int(v) and abs(v) < 1e21:
        return str(int(v))
    text = repr(v)
    m = re.match(r"^(-?[\d.]+)e([+-])0*(\d+)$", text)
    if m:
        text = "%se%s%s" % (m.group(1), m.group(2), m.group(3))
    return text


STAT_UNITS = {"duration_sec": " s", "sample_rate": " samples/s", "error_rate": " %",
              "missed_samples": " %"}


def check_stats_shown(b, d):
    problems = []
    shown = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('[data-stat]'))"
                       ".map(e => [e.dataset.stat, e.textContent]))")
    table = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('[data-field]'))"
                       ".map(e => [e.dataset.field, e.textContent]))")
    for k in STATS_KEYS:
        v = d["stats"][k]
        card = ("not recorded" if v is None else format_seconds(v) if k == "duration_sec"
                else short3(v) + STAT_UNITS[k])
        # The details card rounds as the header does.
        exact = card
        if shown.get(k) != card:
            problems.append("summary %s shows %r, expected %r" % (k, shown.get(k), card))
        if table.get("stats." + k) != exact:
            problems.append("details %s show %r, expected %r" % (k, table.get("stats." + k), exact))
    for k in ("version", "python_version", "sample_count", "thread_count",
              "string_table_offset", "frame_table_offset", "mode_raw"):
        if table.get("header." + k, "").split(" ")[0] != str(d["header"][k]):
            problems.append("header.%s shows %r" % (k, table.get("header." + k)))
    for k in ("string_count", "frame_count"):
        if table.get("footer." + k) != str(d["footer"][k]):
            problems.append("footer.%s shows %r" % (k, table.get("footer." + k)))
    # CPython writes no checksum: all zero is "unused", not a number.
    checksum = d["footer"]["checksum"]
    if table.get("footer.checksum") != ("unused (all zero)" if set(checksum) == {"0"} else checksum):
        problems.append("footer.checksum shows %r" % table.get("footer.checksum"))
    return problems


def browser_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-browser-")
    cases = []
    if browser_exe is None:
        cases.append(("chromium is installed", lambda: [cdp.MISSING]))
        return cases, tmp

    pages = {}

    def page_for(name, *extra):
        key = (name,) + extra
        if key not in pages:
            page, problems = export_html(env, os.path.join(env.data, "valid", name), *extra)
            if page is None:
                raise RuntimeError("; ".join(problems))
            path = os.path.join(tmp, "%d-%s.html" % (len(pages), name))
            with open(path, "wb") as fh:
                fh.write(page.bytes)
            pages[key] = (path, page.data)
        return pages[key]

    lazy = cdp.LazyBrowser(browser_exe)
    browser = lazy.get

    def load(path):
        url = "file://" + path
        return lazy.open(url), url

    def case(name, fn):
        cases.append((name, fn))

    def on_page(title, profile, *extra):
        """Makes the function it decorates, FN (B, D), the case TITLE: FN
        gets the browser on the page of PROFILE exported with EXTRA, and its
        data, and returns its problems; the browser's own problems (errors,
        dialogs, requests) are added."""
        def register(fn):
            def run():
                path, d = page_for(profile, *extra)
                b, url = load(path)
                return fn(b, d) + browser_problems(b, url)
            case(title, run)
            return fn
        return register

    def stats_files():
        problems = []
        for name in ("stats_v56_full.tach", "stats_v32.tach", "legacy_nostats.tach",
                     "stats_v56_missed_negative.tach", "rec_threads.tach"):
            path, d = page_for(name)
            b, url = load(path)
            problems += ["%s: %s" % (name, p) for p in check_stats_shown(b, d)]
            problems += ["%s: %s" % (name, p) for p in browser_problems(b, url)]
        return problems
    case("the summary shows the statistics, or 'not recorded'", stats_files)

    def quality_block():
        """The findings under the statistics, in the order --info gives
        them, and no block for a profile without one."""
        problems = []
        for name, kinds in (("rec_threads.tach", ["missed-samples"]),
                            ("stats_v56_missed_negative.tach",
                             ["impossible-statistic", "duration-mismatch"]),
                            ("tiny.tach", [])):
            path, d = page_for(name)
            b, url = load(path)
            shown = b.evaluate("(function () { var q = document.getElementById('quality');"
                               " return {hidden: q.hidden, items:"
                               " Array.prototype.map.call(q.querySelectorAll('li'), function (li)"
                               " { return [li.getAttribute('data-kind'), li.textContent]; })}; })()")
            want = [[f["kind"], f["message"]] for f in d["findings"]]
            if [f["kind"] for f in d["findings"]] != kinds:
                problems.append("%s: findings %r, expected %r" % (name, d["findings"], kinds))
            if shown["items"] != want:
                problems.append("%s: block shows %r, expected %r" % (name, shown["items"], want))
            if shown["hidden"] != (not kinds):
                problems.append("%s: block hidden %r" % (name, shown["hidden"]))
            problems += ["%s: %s" % (name, p) for p in browser_problems(b, url)]
        return problems
    case("the data-quality findings show under the statistics", quality_block)

    def no_network():
        path, d = page_for("rec_threads.tach")
        b, url = load(path)
        problems = browser_problems(b, url)
        if b.requests != [url]:
            problems.append("requests: %r" % b.requests)
        csp = b.evaluate("document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]')"
                         ".content")
        if not csp.startswith("default-src 'none'"):
            problems.append("CSP %r" % csp)
        if not b.evaluate("document.documentElement.dataset.ready === 'true'"):
            problems.append("the page did not start (its script blocked?)")
        return problems
    case("the page loads with no network request and a strict policy", no_network)

    @on_page("a click zooms, reset and Escape zoom out", "rec_threads.tach")
    def zoom(b, d):
        problems = []
        frames = b.evaluate("tachyon.frames()")
        width = max(f["width"] for f in frames)
        target = next((f for f in frames if f["depth"] >= 3 and 40 < f["width"] < width * 0.9), None)
        if target is None:
            return ["no frame to click: %r" % frames[:5]]
        b.click(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
        st = b.evaluate("tachyon.state()")
        if st["zoom"] != target["node"] or st["zoomName"] != target["name"]:
            problems.append("clicked %r (node %d), state %r" % (target["name"], target["node"], st))
        now = [f for f in b.evaluate("tachyon.frames()") if f["node"] == target["node"]]
        if not now or abs(now[0]["width"] - width) > 1:
            problems.append("the zoomed frame is not full width: %r" % now)
        status = b.evaluate("document.getElementById('status').textContent")
        if "zoomed into " + visible(target["name"]) not in status:
            problems.append("status %r" % status)
        b.evaluate("document.getElementById('reset').click()")
        if b.evaluate("tachyon.state().zoom") != 0:
            problems.append("reset did not zoom out")
        # Zoom again, then Escape.
        b.click(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
        b.key("Escape", keycode=27)
        if b.evaluate("tachyon.state().zoom") != 0:
            problems.append("Escape did not zoom out")
        return problems

    @on_page("search highlights and shows the share matched", "rec_threads.tach")
    def search(b, d):
        problems = []
        b.evaluate("document.getElementById('search').focus()")
        b.type_text("cpu_work")
        b.key("Enter", keycode=13)
        st = b.evaluate("tachyon.state()")
        text = b.evaluate("document.getElementById('match').textContent")
        # The expected share, from the data: samples under a cpu_work frame.
        n, parent, frame = tree_of(d)
        hit = [bool(re.search("cpu_work", d["strings"][d["frames"][7 * frame[i]]], re.I) or
                    re.search("cpu_work", d["strings"][d["frames"][7 * frame[i] + 1]], re.I))
               if i else False for i in range(n)]
        total = node_totals(d, n, parent)
        expected = 0
        for i in range(1, n):
            a, under = parent[i], False
            while a > 0:
                under = under or hit[a]
                a = parent[a]
            if hit[i] and not under:
                expected += total[i]
        if not st["highlighted"] or st["matched"] != expected or expected == 0:
            problems.append("search: state %r, expected %d matched samples" % (st, expected))
        pct = 100 * expected / d["samples"]
        if "matched" not in text or ("%.1f%%" % pct) not in text and ("%.2g%%" % pct) not in text:
            problems.append("match text %r, expected %.2f%%" % (text, pct))
        # An invalid expression says so and highlights nothing.
        set_control(b, "search", "(", event="input")
        b.key("Enter", keycode=13)
        st = b.evaluate("tachyon.state()")
        text = b.evaluate("document.getElementById('match').textContent")
        if st["highlighted"] or "Not a regular expression" not in text:
            problems.append("invalid regex: %r %r" % (st, text))
        return problems

    @on_page("thread filter exact, inverted toggle", "rec_threads.tach")
    def threads_and_inverted(b, d):
        problems = []
        options = b.evaluate("Array.from(document.getElementById('thread').options)"
                             ".map(o => [o.value, o.textContent])")
        with_samples = [t for t in d["threads"] if t["samples"] > 0]
        if len(options) != len(with_samples) + 1:
            problems.append("%d options for %d threads" % (len(options), len(with_samples)))
        for value, text in options[1:]:
            t = d["threads"][int(value)]
            set_control(b, "thread", value)
            st = b.evaluate("tachyon.state()")
            if st["samples"] != t["samples"] or "{:,}".format(t["samples"]) not in text:
                problems.append("thread %s: page shows %d samples (%r), expected %d"
                                % (t["thread_id"], st["samples"], text, t["samples"]))
            # Any frame's tooltip names only this thread.
            frames = [f for f in b.evaluate("tachyon.frames()") if f["depth"] == 1]
            if frames:
                f = frames[0]
                b.mouse("mouseMoved", f["x"] + 2, f["y"] + 5)
                tip = b.evaluate("document.getElementById('tooltip').textContent")
                if "Thread: " + t["thread_id"] not in tip:
                    problems.append("tooltip for thread %s: %r" % (t["thread_id"], tip))
        set_control(b, "thread", "-1")
        before = b.evaluate("tachyon.state()")
        b.evaluate("document.getElementById('inverted').click()")
        after = b.evaluate("tachyon.state()")
        if not after["inverted"] or after["samples"] != before["samples"]:
            problems.append("inverted: %r -> %r" % (before, after))
        # Inverted, the first level holds the frames where samples end:
        # their totals are the leaves' self counts, by frame.
        n, parent, frame = tree_of(d)
        leaf = {}
        for t in d["threads"]:
            for node, count in thread_pairs(t):
                if node:
                    leaf[frame[node]] = leaf.get(frame[node], 0) + count
        top = collections.Counter(f["total"] for f in b.evaluate("tachyon.frames()")
                                  if f["depth"] == 1)
        if not top or top - collections.Counter(leaf.values()):
            problems.append("inverted roots %r, leaves by frame %r" % (top, leaf))
        return problems

    @on_page("--inverted starts inverted", "rec_threads.tach", "--inverted", "--state", "gil")
    def starts_inverted(b, d):
        st = b.evaluate("tachyon.state()")
        checked = b.evaluate("document.getElementById('inverted').checked")
        problems = []
        if not st["inverted"] or not checked or st["samples"] != d["samples"]:
            problems.append("state %r, checkbox %r" % (st, checked))
        return problems

    @on_page("an empty profile says so", "empty.tach")
    def empty_profile(b, d):
        problems = []
        shown = b.evaluate("!document.getElementById('empty').hidden")
        if not shown or d["samples"] != 0:
            problems.append("the empty notice is not shown")
        return problems

    def screenshots():
        path, d = page_for("rec_threads.tach")
        problems = []
        b = browser()
        out = os.environ.get("TV_EXPORT_SCREENSHOTS")
        colors = {}
        for scheme in ("light", "dark"):
            b.color_scheme(scheme)
            b.navigate("file://" + path)
            colors[scheme] = b.evaluate("getComputedStyle(document.body).backgroundColor")
            if out:
                b.screenshot(os.path.join(out, "export-%s.png" % scheme))
        b.color_scheme("light")
        if colors["light"] == colors["dark"]:
            problems.append("the same background in light and dark: %r" % colors)
        return problems
    case("light and dark follow the system", screenshots)

    def page_of(name, stacks):
        """The page of a profile of STACKS (each innermost first, one sample
        each, thread 7), loaded in the browser: (browser, url, problems), the
        browser None when the export failed."""
        path = os.path.join(tmp, name + ".tach")
        samples = [{"t": 1_001_000 + 1000 * i, "interpreters": [{"id": 0, "threads": [{
            "tid": 7, "status": 3, "frames": [["app.py", f, 5 + j, 5 + j, 4, 9, 53]
                                              for j, f in enumerate(stack)]}]}]}
                   for i, stack in enumerate(stacks)]
        env.write_profile(path, {"samples": samples}, mode="wall")
        page, problems = export_html(env, path)
        if page is None:
            return None, None, problems
        out = os.path.join(tmp, name + ".html")
        with open(out, "wb") as fh:
            fh.write(page.bytes)
        b, url = load(out)
        return b, url, problems

    def on_stacks_page(title, name, stacks):
        """Like on_page, on the page of the profile page_of makes of
        STACKS; FN (B) gets only the browser."""
        def register(fn):
            def run():
                b, url, problems = page_of(name, stacks)
                if b is None:
                    return problems
                return problems + fn(b) + browser_problems(b, url)
            case(title, run)
            return fn
        return register

    @on_stacks_page("the tooltip says 1 sample, 2 samples", "counts",
                    [[name, "main"] for name in ["once"] + ["twice"] * 2 + ["often"] * 7])
    def tooltip_counts(b):
        """The tooltip says "1 sample" and "2 samples", "0 samples"."""
        problems = []
        want = {"once": ("Total: 1 sample, ", "Self: 1 sample, "),
                "twice": ("Total: 2 samples, ", "Self: 2 samples, "),
                "main": ("Total: 10 samples, ", "Self: 0 samples, ")}
        frames = {f["name"]: f for f in b.evaluate("tachyon.frames()") if f["name"] in want}
        for name, (total, self_) in want.items():
            f = frames.get(name)
            if f is None:
                problems.append("no frame %r drawn" % name)
                continue
            b.mouse("mouseMoved", f["x"] + f["width"] / 2, f["y"] + f["height"] / 2)
            lines = b.evaluate("Array.from(document.querySelectorAll('#tooltip div'))"
                               ".map(d => d.textContent)")
            if not any(l.startswith(total) for l in lines) or \
                    not any(l.startswith(self_) for l in lines):
                problems.append("%s: tooltip %r, expected %r and %r" % (name, lines, total, self_))
        return problems

    @on_stacks_page("one sample is \"1 sample\" in the status, subtitle and thread menu",
                    "one", [["main"]])
    def one_sample(b):
        """A profile of one sample says "1 sample" everywhere the page counts."""
        problems = []
        status = b.evaluate("document.getElementById('status').textContent")
        subtitle = b.evaluate("document.getElementById('subtitle').textContent")
        options = b.evaluate("Array.from(document.querySelectorAll('#thread option'))"
                             ".map(o => o.textContent)")
        if not status.startswith("1 sample ("):
            problems.append("status %r" % status)
        if ", 1 sample, " not in subtitle:
            problems.append("subtitle %r" % subtitle)
        if len(options) != 2 or options[0] != "All threads — 1 sample" or \
                "— 1 sample (" not in options[1]:
            problems.append("thread options %r" % options)
        return problems

    @on_page("a deep profile opens with the root on the first screen", "rec_recursive.tach")
    def deep_first_screen(b, d):
        root = next(f for f in b.evaluate("tachyon.frames()") if f["node"] == 0)
        height = b.evaluate("innerHeight")
        problems = []
        if root["y"] < 0 or root["y"] + root["height"] > height:
            problems.append("the root is at y %.0f, the window %d px tall" % (root["y"], height))
        return problems

    @on_page("a zoom keeps the clicked frame where it was", "rec_threads.tach")
    def zoom_keeps_place(b, d):
        problems = []
        target = next((f for f in b.evaluate("tachyon.frames()") if f["name"] == "cpu_worker"), None)
        if target is None:
            return ["no cpu_worker frame"]
        height = b.evaluate("document.getElementById('flamegraph').getBoundingClientRect().height")
        b.click(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
        now = next((f for f in b.evaluate("tachyon.frames()") if f["node"] == target["node"]), None)
        after = b.evaluate("document.getElementById('flamegraph').getBoundingClientRect().height")
        if b.evaluate("tachyon.state().zoom") != target["node"]:
            problems.append("the click did not zoom")
        if now is None or abs(now["y"] - target["y"]) > 0.5:
            problems.append("the clicked frame moved from y %.1f to %r" % (target["y"], now and now["y"]))
        if after < height:
            problems.append("the graph shrank from %.0f to %.0f px" % (height, after))
        return problems

    @on_page("ticking Inverted or Icicle hides the tooltip and the outline", "rec_threads.tach")
    def toggles_unhover(b, d):
        problems = []
        for box in ("inverted", "icicle"):
            f = next(f for f in b.evaluate("tachyon.frames()") if f["depth"] == 2)
            b.mouse("mouseMoved", f["x"] + 3, f["y"] + 5)
            if b.evaluate("document.getElementById('tooltip').hidden") or \
                    b.evaluate("tachyon.state().hover") != f["node"]:
                problems.append("%s: hovering showed no tooltip" % box)
            b.evaluate("document.getElementById(%s).focus()" % json.dumps(box))
            b.key(" ", code="Space", keycode=32)
            if not b.evaluate("document.getElementById(%s).checked" % json.dumps(box)):
                problems.append("%s: Space did not tick it" % box)
            if not b.evaluate("document.getElementById('tooltip').hidden") or \
                    b.evaluate("tachyon.state().hover") != -1:
                problems.append("%s: the tooltip or the outline stayed" % box)
        return problems

    @on_page("the inverted tree is built once per thread selection", "rec_threads.tach")
    def inverted_once(b, d):
        for _ in range(3):
            b.evaluate("document.getElementById('inverted').click()")
        st = b.evaluate("tachyon.state()")
        problems = []
        if st["inversions"] != 1 or not st["inverted"]:
            problems.append("three toggles built %r inverted trees" % st.get("inversions"))
        return problems

    @on_page("the match text does not move the graph", "rec_threads.tach")
    def search_keeps_toolbar(b, d):
        top = "document.getElementById('flamegraph').getBoundingClientRect().top"
        before = b.evaluate(top)
        b.evaluate("document.getElementById('search').focus()")
        b.type_text("cpu_work")
        b.key("Enter", keycode=13)
        after = b.evaluate(top)
        problems = []
        if "matched" not in b.evaluate("document.getElementById('match').textContent"):
            problems.append("no match text")
        if after != before:
            problems.append("the graph moved from %.0f to %.0f px" % (before, after))
        return problems

    @on_stacks_page("the match share is never 100 % unless all match", "almost",
                    [["hit", "main"]] * 1999 + [["miss", "main"]])
    def almost_all(b):
        problems = []
        b.evaluate("document.getElementById('search').focus()")
        b.type_text("hit")
        b.key("Enter", keycode=13)
        text = b.evaluate("document.getElementById('match').textContent")
        if "100" in text.split("matched")[0] or "99.9%" not in text:
            problems.append("1,999 of 2,000 samples matched: %r" % text)
        return problems

    long = "very_long_function_name_" * 200

    @on_stacks_page("a very long name's tooltip stays small", "long",
                    [[long, "main"], ["short", "main"]])
    def long_name_tooltip(b):
        problems = []
        frames = {f["name"]: f for f in b.evaluate("tachyon.frames()")}
        size = "(() => { const r = document.getElementById('tooltip').getBoundingClientRect();" \
               " return [r.width, r.height, innerHeight]; })()"
        f = frames[long]
        b.mouse("mouseMoved", f["x"] + f["width"] - 4, f["y"] + 5)
        w1, h1, inner = b.evaluate(size)
        f = frames["short"]
        b.mouse("mouseMoved", f["x"] + 4, f["y"] + 5)
        w2, _, _ = b.evaluate(size)
        f = frames[long]
        b.mouse("mouseMoved", f["x"] + 4, f["y"] + 5)
        w3, h3, _ = b.evaluate(size)
        if max(h1, h3) > min(inner, 300):
            problems.append("the tooltip is %.0f px tall" % max(h1, h3))
        if abs(w1 - w3) > 1:
            problems.append("the tooltip's width depends on where it was: %.0f, %.0f" % (w1, w3))
        return problems

    def narrow_threads():
        path, d = page_for("rec_threads.tach")
        problems = []
        with cdp.Browser(browser_exe, 400, 800) as b:
            b.navigate("file://" + path)
            # A text broken over lines has a box per line.
            cells = b.evaluate("Array.from(document.querySelectorAll('table.threads td'))"
                               ".map(td => { const r = document.createRange(); r.selectNodeContents(td);"
                               " return [td.textContent, r.getClientRects().length]; })")
            broken = [c for c in cells if c[1] > 1]
            if not cells or broken:
                problems.append("at 400 px, numbers break: %r" % broken[:3])
            problems += browser_problems(b, "file://" + path)
        return problems
    case("at 400 px the threads' numbers do not break", narrow_threads)

    case("chromium closes", lazy.close)
    return cases, tmp


# ---------------------------------------------------------------------------
# size
# ---------------------------------------------------------------------------

def size_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-size-")
    state = {}
    cases = []

    def generate_and_export():
        profile = os.path.join(tmp, "big.tach")
        problems = env.generate(profile, 1000000)
        if problems:
            return problems
        out = os.path.join(tmp, "big.html")
        start = time.monotonic()
        rc, stdout, err = env.run("--export", "html", "-o", out, profile)
        seconds = time.monotonic() - start
        if rc != 0:
            return ["export: exit %d %s" % (rc, err)]
        size = os.path.getsize(out)
        with open(out, "rb") as fh:
            page = Page(fh.read())
        d = page.data
        nodes = len(d["nodes"]) // 2 + 1
        print("# 1M samples, %d nodes, %d threads: %d bytes, exported in %.2f s"
              % (nodes, len(d["threads"]), size, seconds))
        problems = []
        if d["samples"] != 1000000 or nodes < 50000:
            problems.append("expected 1M samples and >= 50k nodes, got %d and %d"
                            % (d["samples"], nodes))
        if size > MAX_BYTES:
            problems.append("%d bytes, more than %d" % (size, MAX_BYTES))
        problems += check_structure(d)
        state["page"] = out
        return problems
    cases.append(("a 1M-sample, 50k-node profile exports to at most 5 MB", generate_and_export))

    @cdp.needs(browser_exe)
    def interactive():
        if "page" not in state:
            return ["no page"]
        url = "file://" + state["page"]
        problems = []
        with cdp.Browser(browser_exe) as b:
            times = []
            for _ in range(3):
                b.navigate(url)
                times.append(b.evaluate("tachyon.state().readyMs"))
            # A figure, not a bound: a busy machine changes it.  The issue
            # asks for a second on an idle one.
            print("# time to interactive: %s ms" % ", ".join("%.0f" % t for t in times))
            if not all(isinstance(t, (int, float)) and t > 0 for t in times):
                problems.append("readyMs %r" % times)
            frames = b.evaluate("tachyon.frames()")
            target = next((f for f in frames if f["depth"] == 2 and f["width"] > 20), None)
            if target:
                # A flame graph's root is at the bottom of a tall canvas.
                b.click(*b.scroll_into_view(target["x"] + 5, target["y"] + 5))
                if b.evaluate("tachyon.state().zoom") != target["node"]:
                    problems.append("click did not zoom")
            problems += browser_problems(b, url)
        return problems
    cases.append(("the big page becomes interactive: a click zooms (the time is printed)",
                  interactive))

    class Trie:
        """The model's tree from --export collapsed (threads together): each
        stack prefix of canonical frame texts, with its samples."""
        def __init__(self, env_, path, *extra):
            rc, out, err = env_.run("--export", "collapsed", "-o", "-", *(list(extra) + [path]))
            if rc != 0:
                raise RuntimeError("collapsed: %d %s" % (rc, err))
            self.total = [0]
            self.children = [{}]
            for stack, count in parse_collapsed(out).items():
                u = 0
                self.total[0] += count
                for text in stack.split(";")[1:]:
                    c = self.children[u].get(text)
                    if c is None:
                        c = self.children[u][text] = len(self.total)
                        self.total.append(0)
                        self.children.append({})
                    u = c
                    self.total[u] += count

        def of_page(self, d):
            """The trie node of each page node (None for a box or a node
            the model lacks)."""
            n, parent, frame = tree_of(d)
            at = [0] + [None] * (n - 1)
            for i in range(1, n):
                if frame[i] >= 0 and at[parent[i]] is not None:
                    at[i] = self.children[at[parent[i]]].get(canonical(d, frame[i])[1])
            return at

    def zoomed_below(profile, model, min_samples):
        # Zoomed into a frame under the threshold, 3 deep or more: the page
        # keeps the path to it, with the model's counts, where it would
        # have drawn a box.
        stack = [(0, [])]
        path = None
        while stack and path is None:
            u, texts = stack.pop()
            for text, c in model.children[u].items():
                if model.total[c] < min_samples and len(texts) >= 3:
                    path = texts + [text]
                    break
                stack.append((c, texts + [text]))
        if path is None:
            return ["no frame under the threshold to zoom into"]
        out = os.path.join(tmp, "deep-zoom.html")
        zoom = ";".join("%s:%s" % tuple(t.split(":")[1:3]) for t in path)
        rc, stdout, err = env.run("--export", "html", "--zoom", zoom, "-o", out, profile)
        if rc != 0:
            return ["export zoomed: %d %s" % (rc, err)]
        with open(out, "rb") as fh:
            d = Page(fh.read()).data
        n, parent, frame = tree_of(d)
        total = node_totals(d, n, parent)
        kids = {}
        for i in range(1, n):
            if frame[i] >= 0:
                kids.setdefault(parent[i], {})[canonical(d, frame[i])[1]] = i
        u, m = 0, 0
        for text in path:
            u, m = kids.get(u, {}).get(text), model.children[m][text]
            if u is None or total[u] != model.total[m]:
                return ["zoomed: %s is not on the page as the model has it (%r)" % (text, u)]
        if len(d["view"]["zoom"]) != len(path) or not d.get("aggregated"):
            return ["zoomed: view %r" % d["view"]]
        return []

    def aggregated():
        # A deep profile of many tiny nodes (tachyon-bench's deep shape):
        # the page draws the children of fewer than 1/20000 of the samples
        # as remainder boxes, and every count stays exact.
        problems = []
        profile = os.path.join(tmp, "deep.tach")
        problems += env.generate(profile, 30000, "--shape", "deep", "--threads", "8",
                                 "--seed", "3", timeout=120)
        if problems:
            return problems
        out = os.path.join(tmp, "deep.html")
        rc, stdout, err = env.run("--export", "html", "-o", out, profile)
        if rc != 0:
            return ["export: %d %s" % (rc, err)]
        with open(out, "rb") as fh:
            page = Page(fh.read())
        d = page.data
        agg = d.get("aggregated")
        samples = d["samples"]
        n, parent, frame = tree_of(d)
        if not agg:
            return ["a tree of many tiny nodes is not aggregated"]
        print("# %d samples, %d tree nodes: %d page nodes, %d aggregated with %d samples, %d bytes"
              % (samples, agg["tree_nodes"], n, agg["nodes"], agg["samples"], os.path.getsize(out)))
        # The threshold: at most 0.005 %, and the one the code promises.
        if agg["min_share"] > 0.00005 or agg["min_samples"] != -(-samples // 20000):
            problems.append("threshold %r for %d samples" % (agg, samples))
        # The size: the nodes emitted are bounded (at most 20000 kept nodes a
        # depth, and a box for each at most), and far fewer than the tree's.
        depth = [0] * n
        for i in range(1, n):
            depth[i] = depth[parent[i]] + 1
        boxes = [i for i in range(1, n) if frame[i] < 0]
        kept = n - len(boxes)
        if kept > 20000 * (max(depth) + 1) or len(boxes) > kept or n + agg["nodes"] != agg["tree_nodes"] + len(boxes):
            problems.append("%d nodes, %d boxes, %d aggregated of %d" % (n, len(boxes), agg["nodes"],
                                                                       agg["tree_nodes"]))
        if n * 1.1 > agg["tree_nodes"]:
            problems.append("the page has %d nodes of %d: hardly smaller" % (n, agg["tree_nodes"]))
        # Every node's total is the model's; a box holds exactly the
        # children of its parent below the threshold.
        model = Trie(env, profile)
        at = model.of_page(d)
        total = [0] * n
        for t in d["threads"]:
            for node, count in thread_pairs(t):
                total[node] += count
        own = list(total)
        for i in range(n - 1, 0, -1):
            total[parent[i]] += total[i]
        if total[0] != samples or model.total[0] != samples:
            problems.append("root %d, model %d, samples %d" % (total[0], model.total[0], samples))
        box_of = {}
        for j in range(1, n):
            if frame[j] < 0:
                box_of.setdefault(parent[j], []).append(j)
        bad = []
        for i in range(n):
            if frame[i] < 0:
                continue
            if at[i] is None or total[i] != model.total[at[i]] or \
                    total[i] < (agg["min_samples"] if i else 0):
                bad.append((i, total[i], at[i] is not None and model.total[at[i]]))
                continue
            small = sum(model.total[c] for c in model.children[at[i]].values()
                        if model.total[c] < agg["min_samples"])
            box = box_of.get(i, [])
            if (small == 0) != (not box) or (box and (len(box) != 1 or total[box[0]] != small
                                                      or own[box[0]] != small)):
                bad.append(("box", i, small, [total[j] for j in box]))
        if bad:
            problems.append("%d nodes differ from the model, e.g. %r" % (len(bad), bad[:3]))
        problems += zoomed_below(profile, model, agg["min_samples"])
        # In Chromium: every node shown is its self, its children and its
        # box; the root is the model's under a thread and a state too; the
        # boxes are drawn grey, labelled and explained; the page says the
        # threshold.
        with cdp.Browser(browser_exe, 1200, 800, timeout=60) as b:
            b.navigate("file://" + out)
            tree = b.evaluate("tachyon.tree()")
            kids = [0.0] * len(tree["total"])
            for i in range(1, len(tree["total"])):
                kids[tree["parent"][i]] += tree["total"][i]
            wrong = [i for i in range(len(tree["total"]))
                     if tree["total"][i] != tree["self"][i] + kids[i]]
            if wrong or tree["total"][0] != samples:
                problems.append("%d nodes are not self + children + box; root %r"
                                % (len(wrong), tree["total"][0]))
            note = b.evaluate("document.getElementById('aggregated').textContent")
            if "0.005%" not in note or "{:,}".format(agg["min_samples"]) not in note or \
                    b.evaluate("document.getElementById('aggregated').hidden"):
                problems.append("the page does not say what it aggregated: %r" % note)
            # The box with the largest share of its parent, zoomed into
            # that parent: wide enough to see and hover.
            box = max((j for j in range(1, n) if frame[j] < 0),
                      key=lambda j: (total[j] / total[parent[j]], total[j]))
            path = []
            u = parent[box]
            while u > 0:
                path.append(frame[u])
                u = parent[u]
            b.navigate("about:blank")
            b.navigate("file://" + out + "#zoom=" + ".".join(map(str, reversed(path))))
            shown_boxes = [f for f in b.evaluate("tachyon.frames()") if f["box"]]
            if not shown_boxes:
                problems.append("no remainder box is drawn")
            else:
                f = max(shown_boxes, key=lambda f: f["width"])
                # The graph scrolls inside its own box: bring the box's row in.
                b.evaluate("(() => { const g = document.getElementById('graph');"
                           " g.scrollTop += %r - scrollY - g.getBoundingClientRect().top"
                           " - g.clientHeight / 2; })()" % float(f["y"]))
                f = max((g for g in b.evaluate("tachyon.frames()") if g["box"]), key=lambda g: g["width"])
                if "smaller frame" not in f["label"]:
                    problems.append("box label %r" % f["label"])
                b.mouse("mouseMoved", *b.scroll_into_view(f["x"] + f["width"] / 2, f["y"] + 5))
                tip = b.evaluate("document.getElementById('tooltip').textContent")
                if "call-tree node" not in tip or "fewer than %d samples" % agg["min_samples"] not in tip:
                    problems.append("box tooltip %r" % tip[:300])
            tid = next(t for t in d["threads"] if t["samples"] > 0)
            index = d["threads"].index(tid)
            set_control(b, "thread", str(index))
            if b.evaluate("tachyon.state().samples") != tid["samples"]:
                problems.append("thread %s: %r samples" % (tid["thread_id"], b.evaluate("tachyon.state().samples")))
            thread_model = Trie(env, profile, "--thread", tid["thread_id"])
            at = thread_model.of_page(d)
            tree = b.evaluate("tachyon.tree()")
            bad = [i for i in range(n) if frame[i] >= 0 and
                   tree["total"][i] != (thread_model.total[at[i]] if at[i] is not None else 0)]
            if bad:
                problems.append("thread: %d node totals differ from the model's" % len(bad))
            for state in ("cpu", "gil"):
                set_control(b, "state", str(state))
                state_model = Trie(env, profile, "--state", state)
                at = state_model.of_page(d)
                tree = b.evaluate("tachyon.tree()")
                bad = [i for i in range(n) if frame[i] >= 0 and
                       tree["total"][i] != (state_model.total[at[i]] if at[i] is not None else 0)]
                if bad or tree["total"][0] != state_model.total[0]:
                    problems.append("state %s: %d node totals differ, root %r vs %r"
                                    % (state, len(bad), tree["total"][0], state_model.total[0]))
            b.evaluate("document.getElementById('inverted').click()")
            if b.evaluate("tachyon.state().samples") != state_model.total[0]:
                problems.append("inverted: root differs")
            problems += browser_problems(b, "file://" + out)
        return problems
    cases.append(("a deep profile's page: tiny nodes as remainder boxes, every count exact",
                  aggregated))
    return cases, tmp


# ---------------------------------------------------------------------------
# view: merge keys, transforms, zoom, orientation, search
# ---------------------------------------------------------------------------

# The frame fields (indices into the page's 7) each merge key keeps.
KEY_FIELDS = {"function": (), "line": (2,), "instruction": (2, 4, 6), "frame": (2, 3, 4, 5, 6)}


def brute_stacks(env, path, merge, focus=None, hidden=(), collapse=False, keep=None):
    """Every sample of PATH replayed (env.samples()), its stack as
    merge keys from the root, transformed as the model does: (tid, keys)
    -> samples.  A key is (function, file, the key's fields).  KEEP: a
    predicate on the timestamp, for the samples kept."""
    reader = env.samples(path)
    cache = {}

    def key(index):
        k = cache.get(index)
        if k is None:
            fn, fu, ln, eln, col, ecol, op = reader.frame_tuple(index)
            fields = {2: ln, 3: eln, 4: col, 5: ecol, 6: -1 if op == reader.OPCODE_NONE else op}
            k = cache[index] = (fu, fn) + tuple(fields[i] for i in KEY_FIELDS[merge])
        return k
    counts = collections.Counter()
    for iid, tid, ts, status, stack in reader.iter_samples():
        if keep is not None and not keep(ts):
            continue
        keys = [key(i) for i in reversed(stack)]
        if focus is not None:
            at = next((i for i, k in enumerate(keys) if k[:2] == focus), None)
            if at is None:
                continue
            keys = keys[at:]
        # The profiler's own frames are hidden from every view.
        keys = [k for k in keys if k[:2] not in hidden and not k[1].endswith(INTERNAL_SUFFIX)]
        if collapse:
            kept = []
            for k in keys:
                if not (kept and kept[-1][:2] == k[:2]):
                    kept.append(k)
            keys = kept
        counts[(tid, tuple(keys))] += 1
    return counts


def page_stacks(d, merge):
    """The page's samples per (tid, stack of keys as brute_stacks makes
    them); and the frames whose fields the key lacks are not -1."""
    n, parent, frame = tree_of(d)
    s, fr = d["strings"], d["frames"]
    problems = []
    keys = [None] * n
    for i in range(1, n):
        f = frame[i]
        fields = fr[7 * f:7 * f + 7]
        extra = [fields[j] for j in range(2, 7) if j not in KEY_FIELDS[merge] and fields[j] != -1]
        if extra and not problems:
            problems.append("frame %d has fields the key %s lacks: %r" % (f, merge, fields))
        keys[i] = (s[fields[0]], s[fields[1]]) + tuple(fields[j] for j in KEY_FIELDS[merge])
    counts = collections.Counter()
    for t in d["threads"]:
        for node, count in thread_pairs(t):
            stack = []
            u = node
            while u > 0:
                stack.append(keys[u])
                u = parent[u]
            counts[(int(t["thread_id"]), tuple(reversed(stack)))] += count
    return counts, problems


def compare_counts(ours, theirs, what):
    if ours == theirs:
        return []
    only_ours = ours - theirs
    only_theirs = theirs - ours
    return ["%s: %d stacks differ; page only %r; replay only %r"
            % (what, len(only_ours) + len(only_theirs), list(only_ours.items())[:2],
               list(only_theirs.items())[:2])]


def heaviest_functions(d):
    """(function, file) pairs by total samples, most first."""
    n, parent, frame = tree_of(d)
    total = node_totals(d, n, parent)
    by = collections.Counter()
    for i in range(1, n):
        f = frame[i]
        by[(d["strings"][d["frames"][7 * f]], d["strings"][d["frames"][7 * f + 1]])] += total[i]
    return [k for k, _ in by.most_common()]


VIEW_FILES = ["tiny.tach", "rec_recursive.tach", "rec_threads.tach", "rec_cpu_mix.tach",
              "two_interpreters.tach", "bigendian.zst.tach"]


def check_merge_file(env, path):
    """Each merge key: the page's stacks are the replayed samples'."""
    problems = []
    for merge in MERGES:
        page, sub = export_html(env, path, "--merge", merge)
        problems += ["--merge %s: %s" % (merge, p) for p in sub]
        if page is None:
            continue
        d = page.data
        problems += ["--merge %s: %s" % (merge, p) for p in check_structure(d)]
        if d["view"]["merge"] != merge:
            problems.append("--merge %s: view.merge %r" % (merge, d["view"]["merge"]))
        ours, sub = page_stacks(d, merge)
        problems += sub
        problems += compare_counts(ours, brute_stacks(env, path, merge), "--merge " + merge)
    return problems


def check_transforms_file(env, path):
    """--focus, --hide, --collapse-recursion: the page against the replay
    transformed in Python, and against --export collapsed."""
    problems = []
    page, sub = export_html(env, path, "--merge", "function")
    if page is None:
        return sub
    funcs = [f for f in heaviest_functions(page.data) if f[1] != "~"]
    if len(funcs) < 3:
        return ["too few functions: %r" % funcs]
    focus, hide = funcs[len(funcs) // 3], funcs[1]
    cases = [
        (["--focus", "%s:%s" % (focus[1], focus[0])], dict(focus=focus)),
        (["--hide", "%s:%s" % (hide[1], hide[0]), "--hide", "%s:%s" % (funcs[-1][1], funcs[-1][0])],
         dict(hidden={hide, funcs[-1]})),
        (["--collapse-recursion"], dict(collapse=True)),
        (["--focus", "%s:%s" % (focus[1], focus[0]), "--hide", "%s:%s" % (hide[1], hide[0]),
          "--collapse-recursion"], dict(focus=focus, hidden={hide}, collapse=True)),
    ]
    for args, model in cases:
        name = " ".join(args)
        for merge in ("function", "line"):
            page, sub = export_html(env, path, "--merge", merge, *args)
            problems += ["%s: %s" % (name, p) for p in sub]
            if page is None:
                continue
            d = page.data
            problems += ["%s: %s" % (name, p) for p in check_structure(d)]
            ours, sub = page_stacks(d, merge)
            problems += compare_counts(ours, brute_stacks(env, path, merge, **model),
                                       "%s --merge %s" % (name, merge))
            f = d["filter"]
            if ("focus" in model) != (f["focus"] is not None) or \
                    len(f["hidden"]) != len(model.get("hidden", ())) or \
                    f["collapse_recursion"] != model.get("collapse", False):
                problems.append("%s: filter %r" % (name, f))
        # The same options give the same stacks in the collapsed export.
        page, sub = export_html(env, path, *args)
        rc, collapsed, err = env.run("--export", "collapsed", "-o", "-", *(args + [path]))
        if page is None or rc != 0:
            problems.append("%s: collapsed exit %d %s %r" % (name, rc, err, sub))
        elif collapsed_from_page(page.data) != collapsed:
            problems.append("%s: the page's stacks differ from --export collapsed" % name)
    return problems


def view_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-view-")
    cases = []
    for name in VIEW_FILES:
        path = os.path.join(env.data, "valid", name)
        cases.append(("merge keys: %s" % name, lambda p=path: check_merge_file(env, p)))
        if name != "tiny.tach":
            cases.append(("transforms: %s" % name, lambda p=path: check_transforms_file(env, p)))

    # What `profiling.sampling run` records: its launcher at the root of
    # every stack, and here once in the middle too, with a function of the
    # same name as the script's main().
    coordinator = os.path.join(tmp, "coordinator.tach")
    launcher = "/usr/lib/python3.15/profiling/sampling/" + INTERNAL_SUFFIX
    stacks = [["work", "main"], ["parse", "work", "main"], ["main"], ["helper", "parse", "main"],
              ["work", "main", launcher]]
    samples = []
    for i in range(60):
        funcs = stacks[i % len(stacks)] + [launcher]
        frames = [[f if f == launcher else "app.py", "main" if f == launcher else f,
                   3 + j, 3 + j, 0, 4, 255] for j, f in enumerate(funcs)]
        samples.append({"t": 1_000_000 + 1000 * i, "interpreters": [{"id": 0, "threads": [
            {"tid": 7, "status": 3, "frames": frames}]}]})
    env.write_profile(coordinator, {"samples": samples}, mode="wall")

    def launcher_hidden():
        problems = check_transforms_file(env, coordinator)
        page, sub = export_html(env, coordinator, "--focus", "main")
        if page is None:
            return problems + sub
        n, parent, frame = tree_of(page.data)
        problems += ["node %d is the launcher's frame" % u for u in range(1, n)
                     if canonical(page.data, frame[u]) is None]
        f = page.data["filter"]["focus"]
        if f != "app.py:main":
            problems.append("--focus main: %r" % (f,))
        return problems
    cases.append(("the profiler's launcher is in no view", launcher_hidden))

    recursive = os.path.join(env.data, "valid", "rec_recursive.tach")
    zoom_path = "run_path;_run_module_code;_run_code;<module>"

    def zoom_json():
        problems = []
        page, sub = export_html(env, recursive, "--merge", "function", "--zoom", zoom_path,
                                "--icicle", "--search", "fib|deep")
        if page is None:
            return sub
        d = page.data
        v = d["view"]
        if v["orientation"] != "icicle" or v["search"] != "fib|deep" or v["merge"] != "function":
            problems.append("view %r" % v)
        names = [d["strings"][d["frames"][7 * f]] for f in v["zoom"]]
        if names != zoom_path.split(";"):
            problems.append("view.zoom names %r" % names)
        # FUNC:LINE picks one of the frames a finer key splits.
        page, sub = export_html(env, recursive, "--merge", "line", "--zoom",
                                "run_path:291;_run_module_code:98")
        if page is None:
            return problems + sub
        lines = [page.data["frames"][7 * f + 2] for f in page.data["view"]["zoom"]]
        if lines != [291, 98]:
            problems.append("--zoom with lines: %r" % lines)
        # Inverted, the path is the inverted tree's: from a leaf.
        page, sub = export_html(env, recursive, "--merge", "function", "--inverted",
                                "--zoom", "deep;deep")
        problems += sub
        return problems
    cases.append(("--zoom, --icicle, --search in the view", zoom_json))

    @cdp.needs(browser_exe)
    def in_browser():
        problems = []
        out = os.path.join(tmp, "zoomed.html")
        rc, _, err = env.run("--export", "html", "-o", out, "--merge", "function", "--zoom",
                             zoom_path, "--icicle", "--search", "fib", recursive)
        if rc != 0:
            return ["export: %d %s" % (rc, err)]
        url = "file://" + out
        with cdp.Browser(browser_exe) as b:
            b.navigate(url)
            st = b.evaluate("tachyon.state()")
            if st["zoom"] == 0 or st["zoomName"] != "<module>" or not st["icicle"]:
                problems.append("the page does not open zoomed, as an icicle: %r" % st)
            if not b.evaluate("document.getElementById('icicle').checked"):
                problems.append("the icicle toggle is off")
            frames = b.evaluate("tachyon.frames()")
            top = min(frames, key=lambda f: f["y"])
            if top["depth"] != 0:
                problems.append("icicle: the top row is depth %d" % top["depth"])
            zoomed = [f for f in frames if f["node"] == st["zoom"]]
            widest = max(f["width"] for f in frames)
            if not zoomed or abs(zoomed[0]["width"] - widest) > 1:
                problems.append("the zoomed frame is not full width: %r" % zoomed)
            if b.evaluate("document.getElementById('search').value") != "fib" or \
                    not st["highlighted"] or not st["matched"]:
                problems.append("the search does not apply: %r" % st)
            b.evaluate("document.getElementById('reset').click()")
            if b.evaluate("tachyon.state().zoom") != 0:
                problems.append("Reset does not go back to the root")
            # Flame: the root at the bottom.
            b.evaluate("(() => { const c = document.getElementById('icicle'); c.click(); })()")
            frames = b.evaluate("tachyon.frames()")
            bottom = max(frames, key=lambda f: f["y"])
            if bottom["depth"] != 0 or b.evaluate("tachyon.state().icicle"):
                problems.append("flame: the bottom row is depth %d" % bottom["depth"])
            # Merged by line, labels say the line.
            out2 = os.path.join(tmp, "line.html")
            env.run("--export", "html", "-o", out2, "--merge", "line", recursive)
            problems += browser_problems(b, url)
            b.requests.clear()
            b.navigate("file://" + out2)
            frames = [f for f in b.evaluate("tachyon.frames()") if f["node"] and f["width"] > 200]
            if not frames or any(f["label"] != "%s:%d" % (f["name"], f["line"]) for f in frames):
                problems.append("labels by line: %r" % [(f["name"], f["label"]) for f in frames][:3])
            f = frames[0] if frames else None
            if f:
                b.mouse("mouseMoved", *b.scroll_into_view(f["x"] + 5, f["y"] + 5))
                where = b.evaluate("document.querySelector('#tooltip .where').textContent")
                if not where.endswith(":%d" % f["line"]):
                    problems.append("tooltip location by line %r" % where)
            problems += browser_problems(b, "file://" + out2)
        return problems
    cases.append(("the page opens zoomed, as an icicle, with the search", in_browser))
    return cases, tmp


# ---------------------------------------------------------------------------
# diff: --export html --baseline
# ---------------------------------------------------------------------------

def write_profile(env, path, counts, duration):
    """main() calling each function of COUNTS that many times, a sample a
    millisecond, with a statistics block of DURATION seconds."""
    samples = []
    t = 1_000_000_000
    for name, n in counts.items():
        for _ in range(n):
            t += 1000
            samples.append({"t": t, "interpreters": [{"id": 0, "threads": [{
                "tid": 7, "status": 3,
                "frames": [{"file": "app.py", "func": name, "location": [5, 5, 4, 9], "opcode": 53},
                           {"file": "app.py", "func": "main", "location": [12, 12, 4, 10],
                            "opcode": 53}]}]}]})
    spec = {"samples": samples, "stats": {"duration_sec": duration,
                                          "sample_rate": len(samples) / duration}}
    env.write_profile(path, spec, mode="wall")


def noise_counts(seed, n):
    """N draws of one distribution over five functions."""
    import random
    rng = random.Random(seed)
    weights = {"alpha": 0.4, "beta": 0.25, "gamma": 0.2, "delta": 0.1, "epsilon": 0.05}
    counts = collections.Counter(rng.choices(list(weights), list(weights.values()), k=n))
    return {k: counts[k] for k in weights}


def export_diff(env, base, new, out, *extra):
    rc, stdout, err = env.run("--export", "html", "--baseline", base, "-o", out, *(list(extra) + [new]))
    if rc != 0 or stdout or err:
        raise RuntimeError("--baseline: exit %d, %r %r" % (rc, stdout[:100], err))
    with open(out, "rb") as fh:
        return Page(fh.read())


def diff_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-diff-")
    cases = []
    base = os.path.join(tmp, "base.tach")
    new = os.path.join(tmp, "new.tach")
    noise_a = os.path.join(tmp, "noise-a.tach")
    noise_b = os.path.join(tmp, "noise-b.tach")
    # hot() takes half again as long in NEW; steady() does not change.
    write_profile(env, base, {"hot": 2000, "steady": 2000}, 4.0)
    write_profile(env, new, {"hot": 3000, "steady": 2000}, 5.0)
    write_profile(env, noise_a, noise_counts(1, 4000), 4.0)
    write_profile(env, noise_b, noise_counts(2, 4000), 4.0)
    wall = os.path.join(env.data, "valid", "mode_wall.tach")
    cpu = os.path.join(env.data, "valid", "mode_cpu.tach")
    pages = {}

    def page(name, b, n, *extra):
        if name not in pages:
            out = os.path.join(tmp, name + ".html")
            pages[name] = (out, export_diff(env, b, n, out, *extra))
        return pages[name]

    def against_compare():
        """The diff object says what --compare --info --json says."""
        problems = []
        for by in ("time", "share"):
            for merge in ("function", "line"):
                _, p = page("injected-%s-%s" % (by, merge), base, new, "--by", by, "--merge", merge)
                d = p.data
                problems += check_script_safe(p)
                rc, out, err = env.run("--compare", "--info", "--json", "--by", by, "--merge",
                                       merge, base, new)
                ref = strict_json(out)
                D = d["diff"]
                if D["normalization"] != by or d["view"]["merge"] != merge or \
                        D["confidence"] != ref["confidence"]:
                    problems.append("%s/%s: %r %r" % (by, merge, D["normalization"], d["view"]))
                rows = D["functions"]
                mine = {}
                for k in range(0, len(rows), 10):
                    mine[d["strings"][rows[k]]] = rows[k + 2:k + 6] + [rows[k + 8], rows[k + 9]]
                signs = {"slower": 1, "faster": -1, "neutral": 0}
                theirs = {f["function"]: [f["total"]["base_samples"], f["total"]["new_samples"],
                                          f["self"]["base_samples"], f["self"]["new_samples"],
                                          signs[f["total"]["change"]], signs[f["self"]["change"]]]
                          for f in ref["functions"]}
                if mine != theirs:
                    problems.append("%s/%s functions %r, --compare %r" % (by, merge, mine, theirs))
                # The tree is NEW's, its BASE counts per node.
                n, parent, frame = tree_of(d)
                names = {i: d["strings"][d["frames"][7 * frame[i]]] for i in range(1, n)}
                hot = [i for i in names if names[i] == "hot"]
                if len(hot) != 1 or D["nodes"][7 * hot[0] + 1] != 2000 or \
                        D["nodes"][7 * hot[0]] != 3000 or D["nodes"][7 * hot[0] + 5] != (1 if by == "time" else 1):
                    problems.append("%s/%s: hot's node %r" % (by, merge, [D["nodes"][7 * i:7 * i + 7] for i in hot]))
                if D["weights"][0] <= 0 or D["warnings"] != [{"code": w["code"], "message": w["message"]}
                                                             for w in ref["warnings"]]:
                    problems.append("weights %r, warnings %r" % (D["weights"], D["warnings"]))
                if D["base"]["source"]["name"] != "base.tach" or d["source"]["name"] != "new.tach" \
                        or D["base"]["samples"] != 4000 or d["samples"] != 5000:
                    problems.append("sources %r" % D["base"]["source"])
        # What vanished: NEW without steady().
        only_hot = os.path.join(tmp, "only-hot.tach")
        write_profile(env, only_hot, {"hot": 2000}, 2.0)
        _, p = page("vanished", base, only_hot)
        D = p.data["diff"]
        stacks = [[p.data["strings"][p.data["frames"][7 * f]] for f in v[1:]] + [v[0]]
                  for v in D["vanished"]]
        if stacks != [["main", "steady", 2000]] or D["vanished_stacks"] != 1 or \
                D["vanished_samples"] != 2000:
            problems.append("vanished %r" % D)
        return problems
    cases.append(("the diff object agrees with --compare --info --json", against_compare))

    def filter_said():
        """The filter both sides were filtered by is the page's "filter"."""
        problems = []
        _, p = page("plain", base, new)
        if p.data["filter"] != UNFILTERED:
            problems.append("unfiltered: filter %r" % p.data["filter"])
        _, p = page("filtered", base, new, "--thread", "7", "--state", "gil", "--range", "0:3",
                    "--range", "2:4", "--hide", "steady", "--collapse-recursion")
        want = dict(UNFILTERED, threads=["7"], state="gil", ranges_sec=[[0.0, 4.0]],
                    hidden=["app.py:steady"], collapse_recursion=True)
        if p.data["filter"] != want:
            problems.append("filtered: filter %r, expected %r" % (p.data["filter"], want))
        _, p = page("focused", base, new, "--focus", "main", "--range", ":1")
        want = dict(UNFILTERED, focus="app.py:main", range_sec=[None, 1.0])
        if p.data["filter"] != want:
            problems.append("focused: filter %r, expected %r" % (p.data["filter"], want))
        # The filter selects what both sides compare.
        if p.data["diff"]["base"]["samples"] + p.data["samples"] == 0:
            problems.append("--range :1 left no samples to compare")
        return problems
    cases.append(("the diff page's filter says what both sides were filtered by", filter_said))

    def no_time():
        """A side whose samples stand for no time (no stats block, an
        interval of 0): the warning says so, on the page as in
        --compare --info, by time and by share."""
        no_time_path = os.path.join(tmp, "no-time.tach")
        samples = [{"t": 1_000_000_000, "interpreters": [{"id": 0, "threads": [{
            "tid": 7, "status": 3, "frames": [["app.py", name, 5, 5, 4, 9, 53],
                                               ["app.py", "main", 12, 12, 4, 10, 53]]}]}]}
                   for name in ["hot"] * 2000 + ["steady"] * 2000]
        env.write_profile(no_time_path, {"samples": samples}, mode="wall", stats=None,
                          interval_us=0)
        problems = []
        for by in ("time", "share"):
            _, p = page("no-time-" + by, no_time_path, new, "--by", by)
            warnings = p.data["diff"]["warnings"]
            rc, out, err = env.run("--compare", "--info", "--json", "--by", by, no_time_path, new)
            ref = strict_json(out)["warnings"] if rc == 0 else None
            if not warnings or warnings[-1]["code"] != 10 or \
                    not warnings[-1]["message"].startswith("BASE does not record how long a "
                                                           "sample lasts") or \
                    "--by share" not in warnings[-1]["message"] or warnings != ref:
                problems.append("by %s: warnings %r, --compare %r" % (by, warnings, ref))
        rc, out, err = env.run("--compare", "--info", new, no_time_path)
        text = out.decode("utf-8", "replace")
        if rc != 0 or "Warning: NEW does not record how long a sample lasts" not in text:
            problems.append("--compare --info: exit %d %r %r" % (rc, text[:600], err))
        return problems
    cases.append(("a side without time per sample: the warning says to compare by share",
                  no_time))

    @cdp.needs(browser_exe)
    def browser_checks():
        problems = []
        with cdp.Browser(browser_exe) as b:
            # The injected change: hot() red, +50 %, in the tooltip and the table.
            out, _ = page("injected", base, new)
            url = "file://" + out
            b.navigate(url)
            st = b.evaluate("tachyon.state()")
            frames = {f["name"]: f for f in b.evaluate("tachyon.frames()") if f["name"]}
            hot, steady = frames.get("hot"), frames.get("steady")
            if not st["diff"] or not hot or hot["change"] != 1 or not hot["color"].startswith("hsl(4,"):
                problems.append("hot is not red: %r" % hot)
            if not steady or steady["change"] != 0 or hot and steady["color"] == hot["color"]:
                problems.append("steady is coloured: %r" % steady)
            if hot:
                b.mouse("mouseMoved", hot["x"] + hot["width"] / 2, hot["y"] + 5)
                tip = b.evaluate("document.getElementById('tooltip').textContent")
                for want in ("Total: 2.00 s → 3.00 s (Δ +1.00 s, +50.0 %), slower",
                             "Total samples: 2,000 → 3,000, p = ", "exact binomial test"):
                    if want not in tip:
                        problems.append("tooltip lacks %r: %r" % (want, tip))
            row = b.evaluate("(() => { const r = document.querySelector('#functions tr[data-name=\"hot\"]');"
                             " return r && [r.className, Array.from(r.cells).map(c => c.textContent)]; })()")
            if not row or row[0] != "slower" or row[1][5] != "+50.0 %" or row[1][4] != "+1.00 s":
                problems.append("table row for hot: %r" % row)
            # Sorting by the file column, then by total Δ.
            b.evaluate("document.querySelector('#functions th[data-column=\"4\"]').click()")
            first = b.evaluate("document.querySelector('#functions tr[data-name]').dataset.name")
            if first != "hot":
                problems.append("sorted by Δ, the first row is %r" % first)
            # A p-value column sorts the most significant first.
            b.evaluate("document.querySelector('#functions th[data-column=\"6\"]').click()")
            order = b.evaluate("document.querySelector('#functions th[data-column=\"6\"]')"
                               ".getAttribute('aria-sort')")
            ps = [float(v) for v in b.evaluate("Array.from(document.querySelectorAll("
                                               "'#functions tr[data-name]')).map(r => r.cells[6].textContent)")]
            if order != "ascending" or not ps or ps != sorted(ps):
                problems.append("sorted by total p: %r, p-values %r" % (order, ps[:8]))
            # The legend: each change's swatch in the colour of its frames.
            legend = b.evaluate("(() => { const l = document.getElementById('legend');"
                                " return [l.hidden, l.textContent, Array.from(l.querySelectorAll("
                                "'span.key > i:last-of-type')).map(i => [i.dataset.change,"
                                " getComputedStyle(i).backgroundColor])]; })()")
            if legend[0] or any(w not in legend[1] for w in (
                    "more in this profile", "less", "within sampling noise", "stronger")):
                problems.append("legend %r" % legend[:2])
            swatch = dict(legend[2])
            hot_rgb = b.evaluate("(() => { const e = document.createElement('i');"
                                 " document.body.appendChild(e); e.style.color = %s;"
                                 " const c = getComputedStyle(e).color; e.remove(); return c; })()"
                                 % json.dumps(hot["color"] if hot else ""))
            if swatch.get("1") != hot_rgb:
                problems.append("the legend's red %r is not hot's %r" % (swatch.get("1"), hot_rgb))
            set_control(b, "diffmode", "self")
            frames = {f["name"]: f for f in b.evaluate("tachyon.frames()") if f["name"]}
            if frames["hot"]["change"] != 1 or frames["main"]["change"] != 0:
                problems.append("self change: hot %r, main %r" % (frames["hot"], frames["main"]))
            if not b.evaluate("document.getElementById('banner').hidden"):
                problems.append("a warning banner for two comparable profiles")
            problems += browser_problems(b, url)

            # Noise: nothing coloured.
            out, _ = page("noise", noise_a, noise_b)
            b.navigate("file://" + out)
            frames = b.evaluate("tachyon.frames()")
            coloured = [f for f in frames if f["change"] != 0]
            if coloured or not frames:
                problems.append("noise coloured: %r" % coloured[:3])
            if b.evaluate("document.querySelectorAll('#functions tr.slower, #functions tr.faster').length"):
                problems.append("noise: the table has changed rows")

            # The corpus mode files: the banner.
            out, _ = page("modes", wall, cpu)
            b.navigate("file://" + out)
            banner = b.evaluate("[document.getElementById('banner').hidden,"
                                " Array.from(document.querySelectorAll('#banner li')).map(l => [l.dataset.code, l.textContent])]")
            if banner[0] or "0" not in [c for c, _ in banner[1]] or \
                    not any("wall-clock" in t for _, t in banner[1]):
                problems.append("mode banner %r" % banner)
            stats = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('[data-field]'))"
                               ".map(e => [e.dataset.field, e.textContent]))")
            if stats.get("base.header.mode") != "wall" or stats.get("new.header.mode") != "cpu":
                problems.append("both headers: %r %r" % (stats.get("base.header.mode"),
                                                         stats.get("new.header.mode")))
            for side in ("base.", "new."):
                if not all(side + "stats." + k in stats for k in STATS_KEYS):
                    problems.append("%s statistics missing" % side)
            shots = os.environ.get("TV_EXPORT_SCREENSHOTS")
            if shots:
                out, _ = page("injected", base, new)
                for scheme in ("light", "dark"):
                    b.color_scheme(scheme)
                    b.navigate("file://" + out)
                    b.screenshot(os.path.join(shots, "diff-%s.png" % scheme), full_page=True)
                b.color_scheme("light")
        return problems
    cases.append(("diff page in Chromium: the change red, noise neutral, the mode banner",
                  browser_checks))

    @cdp.needs(browser_exe)
    def hostile():
        problems = []
        path = hostile_profile(env, tmp, HOSTILE_NAME)
        tiny = os.path.join(env.data, "valid", "tiny.tach")
        with cdp.Browser(browser_exe) as b:
            for name, bp, np in (("hostile-self", path, path), ("hostile-vanished", path, tiny),
                                 ("hostile-new", tiny, path)):
                out, p = page(name, bp, np, "--search", "<img")
                problems += ["%s: %s" % (name, x) for x in check_script_safe(p)]
                for needle in (b"alert(", b"onerror", b"onload"):
                    if needle in p.template:
                        problems.append("%s: %r outside the data" % (name, needle))
                url = "file://" + out
                b.open(url)
                check = b.evaluate(PAGE_CHECK)
                if not check["ready"] or check["scripts"] != 2 or check["bad"] or check["alerted"]:
                    problems.append("%s: %r" % (name, check))
                for f in b.evaluate("tachyon.frames()"):
                    if f["node"] and f["width"] >= 3:
                        b.mouse("mouseMoved", f["x"] + 2, f["y"] + 5)
                b.evaluate("document.querySelector('#functions th[data-column=\"0\"]').click()")
                after = b.evaluate(PAGE_CHECK)
                if after["scripts"] != 2 or after["bad"]:
                    problems.append("%s: injected after use %r" % (name, after["bad"]))
                cells = b.evaluate("Array.from(document.querySelectorAll('#functions td, #vanished li,"
                                   " #banner li, #details td')).filter(e => e.children.length).length")
                if cells:
                    problems.append("%s: %d text cells with child elements" % (name, cells))
                if name == "hostile-vanished":
                    items = b.evaluate("Array.from(document.querySelectorAll('#vanished li')).map(l => l.textContent)")
                    if not any(visible(HOSTILE_FUNCS[0]) in t for t in items):
                        problems.append("vanished stacks %r" % items[:2])
                problems += ["%s: %s" % (name, x) for x in browser_problems(b, url)]
        return problems
    cases.append(("hostile names run nothing in diff mode", hostile))
    return cases, tmp


# ---------------------------------------------------------------------------
# names: 100 KB names, cut for display in every view of both pages
# ---------------------------------------------------------------------------

SHOWN_CHARS = 200     # tv-text.h's TV_TEXT_SHOWN_CHARS, the page's SHOWN_CHARS
LONG_FUNC = "head_of_the_function_" + "inner" * 20000 + "_tail_of_the_function"
LONG_FILE = "/srv/" + "dir/" * 25000 + "long_module.py"
# Characters outside the BMP: the cut counts code points, as tv-text.c
# does, and splits no surrogate pair.
SNAKES = "\U0001f40d" * 300 + "\u202e\n"


def shown(text):
    """tv-text.c's and the page's rule: visible, and a name of more than
    SHOWN_CHARS characters keeps its first and its last SHOWN_CHARS / 2."""
    if len(text) > SHOWN_CHARS:
        text = text[:SHOWN_CHARS - SHOWN_CHARS // 2] + "\u2026" + text[len(text) - SHOWN_CHARS // 2:]
    return visible(text)


def write_stacks(env, path, stacks, duration):
    """A profile of STACKS: (count, frames innermost first, each (file,
    function)), a sample a millisecond, thread 7."""
    samples = []
    t = 1_000_000_000
    for count, frames in stacks:
        for _ in range(count):
            t += 1000
            samples.append({"t": t, "interpreters": [{"id": 0, "threads": [{
                "tid": 7, "status": 3,
                "frames": [[file, func, 5 + i, 5 + i, 4, 9, 53]
                           for i, (file, func) in enumerate(frames)]}]}]})
    spec = {"samples": samples, "stats": {"duration_sec": duration,
                                          "sample_rate": len(samples) / duration}}
    env.write_profile(path, spec, mode="wall")


# Every text node of the page but the data: none holds a name whole.
LONGEST_TEXT = """(() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let longest = 0, where = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('script')) continue;
    if (n.data.length > longest) { longest = n.data.length; where = n.parentElement.id || n.parentElement.tagName; }
  }
  const titles = [document.title.length];
  return [longest, where, document.title.length];
})()"""

# Copies the text of the element SELECTOR selects; returns what the
# clipboard would get (the browser's own text when the page does not step in).
COPY = """((selector) => {
  const cell = document.querySelector(selector);
  const range = document.createRange();
  range.selectNodeContents(cell);
  const selection = getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  const data = new DataTransfer();
  const event = new ClipboardEvent('copy', {clipboardData: data, bubbles: true, cancelable: true});
  const taken = !cell.dispatchEvent(event);
  selection.removeAllRanges();
  return [taken, data.getData('text/plain')];
})(%s)"""


def names_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-names-")
    cases = []
    base = os.path.join(tmp, "base.tach")
    new = os.path.join(tmp, "new.tach")
    main = ("app.py", "main")
    long_frame = (LONG_FILE, LONG_FUNC)
    # NEW runs the long function half again as often; a deep recursion
    # ends in a long name in BASE, in another function in NEW: BASE's
    # stack vanished, 62 frames deep.
    recursion = [("app.py", "recurse")] * 60 + [main]
    write_stacks(env, base, [(20, [long_frame, main]), (20, [("app.py", "steady"), main]),
                             (4, [("app.py", SNAKES), main]),
                             (1, [("app.py", SNAKES)] + recursion)], 0.045)
    write_stacks(env, new, [(30, [long_frame, main]), (20, [("app.py", "steady"), main]),
                            (4, [("app.py", SNAKES), main]),
                            (1, [("app.py", "other")] + recursion)], 0.055)
    pages = {}

    def page(name, *args):
        if name not in pages:
            out = os.path.join(tmp, name + ".html")
            rc, stdout, err = env.run("--export", "html", "-o", out, *args)
            if rc != 0 or stdout or err:
                raise RuntimeError("export %s: exit %d, %r %r" % (name, rc, stdout[:100], err[:300]))
            pages[name] = "file://" + out
        return pages[name]

    lazy = cdp.LazyBrowser(browser_exe)
    load = lazy.open

    def common(b, url, what, line):
        """What both pages must do with the names: start, draw the long
        frame with its label cut, its tooltip cut, nowhere the whole name."""
        problems = []
        if b.evaluate("document.documentElement.dataset.ready") != "true":
            return ["%s: the page did not start" % what]
        frames = {f["name"]: f for f in b.evaluate("tachyon.frames()") if f["name"]}
        f = frames.get(LONG_FUNC)
        if f is None:
            return ["%s: the long function is not drawn: %r" % (what, [n[:30] for n in frames])]
        if f["label"] != shown(LONG_FUNC) + line:
            problems.append("%s: label %r" % (what, f["label"][:300]))
        snakes = frames.get(SNAKES)
        if snakes is None or snakes["label"] != shown(SNAKES) + line:
            problems.append("%s: the snakes' label %r, expected %r"
                            % (what, snakes and snakes["label"], shown(SNAKES)))
        b.mouse("mouseMoved", f["x"] + f["width"] / 2, f["y"] + f["height"] / 2)
        tip = b.evaluate("[document.getElementById('tooltip').hidden,"
                         " Array.from(document.querySelectorAll('#tooltip div'))"
                         ".map(d => [d.className, d.textContent])]")
        lines = dict(tip[1])
        if tip[0] or lines.get("name") != shown(LONG_FUNC) or \
                not lines.get("where", "").startswith(shown(LONG_FILE) + line):
            problems.append("%s: tooltip %r" % (what, [(c, t[:250]) for c, t in tip[1]]))
        # The search looks at the whole name: its middle matches.
        b.evaluate("document.getElementById('search').focus()")
        b.type_text("innerinner")
        b.key("Enter", keycode=13)
        if not b.evaluate("tachyon.state().highlighted"):
            problems.append("%s: searching the middle of the name highlights nothing" % what)
        b.key("Escape", keycode=27)
        b.evaluate("document.getElementById('search').blur()")
        b.click(f["x"] + f["width"] / 2, f["y"] + f["height"] / 2)
        status = b.evaluate("document.getElementById('status').textContent")
        if b.evaluate("tachyon.state().zoomName") != LONG_FUNC or shown(LONG_FUNC) not in status:
            problems.append("%s: zoomed, the status says %r" % (what, status[:400]))
        longest, where, title = b.evaluate(LONGEST_TEXT)
        if longest > 4 * SHOWN_CHARS or title > 3 * SHOWN_CHARS:
            problems.append("%s: a text of %d characters in %s, a title of %d"
                            % (what, longest, where, title))
        return problems + ["%s: %s" % (what, p) for p in browser_problems(b, url)]

    @cdp.needs(browser_exe)
    def plain():
        url = page("plain", new)
        b = load(url)
        problems = common(b, url, "plain", ":5")
        # The filter's names in the details: cut too.
        # (An argument holds at most 128 KiB: the function alone.)
        url = page("focused", "--focus", LONG_FUNC, "--hide", SNAKES, new)
        b = load(url)
        cells = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('[data-field]'))"
                           ".map(e => [e.dataset.field, e.textContent]))")
        if cells.get("filter.focus") != shown("%s:%s" % (LONG_FILE, LONG_FUNC)) or \
                cells.get("filter.hidden") != shown("app.py:" + SNAKES):
            problems.append("focused: the filter shows %r, %r"
                            % (cells.get("filter.focus", "")[:300], cells.get("filter.hidden")))
        longest, where, _ = b.evaluate(LONGEST_TEXT)
        if longest > 4 * SHOWN_CHARS:
            problems.append("focused: a text of %d characters in %s" % (longest, where))
        return problems + ["focused: %s" % p for p in browser_problems(b, url)]
    cases.append(("a 100 KB name on the plain page: label, tooltip, status, filter cut", plain))

    @cdp.needs(browser_exe)
    def differential():
        url = page("diff", "--baseline", base, new)
        b = load(url)
        problems = common(b, url, "diff", "")
        # The function table: the cells cut, the whole names in their titles.
        rows = b.evaluate("""Array.from(document.querySelectorAll('#functions tr[data-name]')).map(r =>
          [r.dataset.name, r.cells[0].textContent, r.cells[0].title, r.cells[0].dataset.cut || '',
           r.cells[1].textContent, r.cells[1].title, r.getBoundingClientRect().height])""")
        line = b.evaluate("parseFloat(getComputedStyle(document.querySelector('#functions td')).lineHeight)")
        by_name = {r[0]: r for r in rows}
        row = by_name.get(LONG_FUNC)
        if row is None:
            problems.append("no row for the long function: %r" % [r[0][:30] for r in rows])
        else:
            if row[1] != shown(LONG_FUNC) or row[2] != LONG_FUNC or row[3] != "true":
                problems.append("the name's cell shows %r, title %r" % (row[1][:300], row[2][:80]))
            if row[4] != shown(LONG_FILE) or row[5] != visible(LONG_FILE):
                problems.append("the file's cell shows %r, title %r" % (row[4][:300], row[5][:80]))
            # Cut to 201 characters, a row is a few lines tall (thousands
            # of lines whole).
            if not line or row[6] > 12 * line:
                problems.append("the row is %.0f px tall, a line %r px" % (row[6], line))
        snakes = by_name.get(SNAKES)
        if snakes is None or snakes[1] != shown(SNAKES) or snakes[2] != visible(SNAKES):
            problems.append("the snakes' cell %r, title %r" % (snakes and snakes[1], snakes and snakes[2][:20]))
        short = by_name.get("steady")
        if short is None or short[1] != "steady" or short[2] or short[3]:
            problems.append("a short name's cell %r" % (short,))
        # Copied, a cut name is whole; a short one is the browser's business.
        taken, text = b.evaluate(COPY % json.dumps('#functions tr[data-name] td[data-cut]'))
        if not taken or text not in (LONG_FUNC, LONG_FILE, SNAKES):
            problems.append("copying a cut cell: taken %r, %d characters %r" % (taken, len(text), text[:40]))
        taken, text = b.evaluate(COPY % json.dumps('#functions th'))
        if taken:
            problems.append("copying a heading was taken over: %r" % text)
        # Sorted by name, the table is rebuilt with the cells cut again.
        b.evaluate("document.querySelector('#functions th[data-column=\"0\"]').click()")
        again = b.evaluate("Array.from(document.querySelectorAll('#functions td[data-cut]'))"
                           ".map(td => td.textContent)")
        if sorted(again) != sorted([shown(LONG_FUNC), shown(LONG_FILE), shown(SNAKES)]):
            problems.append("sorted, the cut cells are %r" % [t[:40] for t in again])
        # The vanished stack: its long leaf cut, its middle frames counted.
        items = b.evaluate("Array.from(document.querySelectorAll('#vanished li')).map(l => l.textContent)")
        # Merged by function: no lines.
        want = " → ".join(["main"] + ["recurse"] * 11 + ["… 38 more frames …"]
                          + ["recurse"] * 11 + [shown(SNAKES)])
        if len(items) != 1 or not items[0].startswith(want + " — "):
            problems.append("vanished %r, expected %r" % ([i[:400] for i in items], want[:400]))
        shots = os.environ.get("TV_EXPORT_SCREENSHOTS")
        if shots:
            for scheme in ("light", "dark"):
                b.color_scheme(scheme)
                b.navigate(url)
                b.screenshot(os.path.join(shots, "names-diff-%s.png" % scheme), full_page=True)
            b.color_scheme("light")
        return problems
    cases.append(("a 100 KB name on the differential page: the table's cells cut, their titles "
                  "whole, copied whole, the vanished stack cut", differential))

    def errors():
        """The command line's messages cut a name as the page does."""
        problems = []
        missing = "missing_" + LONG_FUNC
        rc, out, err = env.run("--export", "html", "-o", os.path.join(tmp, "x.html"),
                               "--focus", missing, new)
        want = "No function \u201c%s\u201d" % shown(missing)
        if rc != 1 or want not in err:
            problems.append("--focus: exit %d, %r (want %r)" % (rc, err[:400], want))
        return problems
    cases.append(("a long name in a message is cut by the page's rule", errors))

    cases.append(("chromium closes", lazy.close))
    return cases, tmp


# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# ranges: --range given several times
# ---------------------------------------------------------------------------

RANGE_FILES = ["rec_threads.tach", "rec_asyncio.tach", "rec_cpu_mix.zst.tach",
               "two_interpreters.tach", "bigendian.zst.tach", "mode_wall.tach"]


def range_args(ranges):
    """--range arguments for RANGES, (start, end) seconds, None open."""
    return ["--range=%s:%s" % ("" if s is None else repr(s), "" if e is None else repr(e))
            for s, e in ranges]


def merged_ranges(ranges):
    """RANGES as the filter keeps them: sorted, those that overlap or touch
    merged (None: an open end)."""
    lo = lambda v: -math.inf if v is None else v  # noqa: E731
    hi = lambda v: math.inf if v is None else v  # noqa: E731
    out = []
    for s, e in sorted(ranges, key=lambda r: lo(r[0])):
        if out and hi(out[-1][1]) >= lo(s):
            if hi(e) > hi(out[-1][1]):
                out[-1][1] = e
        else:
            out.append([s, e])
    return out


def range_predicate(start_us, ranges):
    """Whether a timestamp is in one of RANGES, with their ends rounded to
    the microsecond as the viewer does."""
    bounds = [(-math.inf if s is None else start_us + round(s * 1e6),
               math.inf if e is None else start_us + round(e * 1e6)) for s, e in ranges]
    return lambda ts: any(a <= ts < b for a, b in bounds)


def range_sets(first, last, start):
    """Range lists over the samples' span, in whole microseconds after the
    start: disjoint ones, and out-of-order, overlapping, touching and open
    ones that merge."""
    span = max(last - first, 10)
    at = lambda f: (first - start + int(span * f)) / 1e6  # noqa: E731
    return [
        [(at(0.05), at(0.2)), (at(0.4), at(0.5)), (at(0.8), at(0.9))],
        [(at(0.6), None), (at(0.1), at(0.3)), (at(0.25), at(0.35)), (at(0.35), at(0.4)),
         (None, at(0.02))],
        [(at(0.3), at(0.7)), (at(0.4), at(0.5))],
    ]


def check_ranges_file(env, path):
    """Several --range: the page's stacks and totals, and the collapsed
    stacks' total, against a replay of the samples in them (the
    reference reader's)."""
    problems = []
    rc, out, err = env.run("--info", "--json", path)
    if rc != 0:
        return ["--info --json: exit %d %s" % (rc, err)]
    info = strict_json(out)
    dec = info["decoded"]
    if not dec["samples"]:
        return ["%s has no samples" % path]
    for ranges in range_sets(dec["first_timestamp_us"], dec["last_timestamp_us"],
                             info["start_time_us"]):
        what = " ".join(range_args(ranges))
        keep = range_predicate(info["start_time_us"], ranges)
        brute = brute_stacks(env, path, "frame", keep=keep)
        expected = sum(brute.values())
        if expected == 0 or expected == dec["samples"]:
            problems.append("%s: the ranges select %d of %d samples: no test"
                            % (what, expected, dec["samples"]))
        page, sub = export_html(env, path, *range_args(ranges))
        problems += ["%s: %s" % (what, p) for p in sub]
        if page is not None:
            d = page.data
            problems += ["%s: %s" % (what, p) for p in check_structure(d)]
            if d["samples"] != expected:
                problems.append("%s: the page has %d samples, the replay %d"
                                % (what, d["samples"], expected))
            ours, sub = page_stacks(d, "frame")
            problems += sub + compare_counts(ours, brute, what)
            want = merged_ranges(ranges)
            if d["filter"]["ranges_sec"] != want or d["filter"]["range_sec"] is not None:
                problems.append("%s: filter.ranges_sec %r, range_sec %r; expected %r"
                                % (what, d["filter"]["ranges_sec"], d["filter"]["range_sec"],
                                   want))
        rc, out, err = env.run("--export", "collapsed", *(range_args(ranges) + ["-o", "-", path]))
        if rc != 0 or err:
            problems.append("collapsed %s: exit %d %s" % (what, rc, err))
            continue
        lines = parse_collapsed(out)
        by_tid = collections.Counter()
        for (tid, _), n in brute.items():
            by_tid[tid] += n
        ours_tid = collections.Counter()
        for stack, n in lines.items():
            ours_tid[int(stack.split(";", 1)[0][len("tid:"):])] += n
        if ours_tid != by_tid:
            problems.append("collapsed %s: samples per thread %r, the replay %r"
                            % (what, dict(ours_tid), dict(by_tid)))
        # The merged list selects the same samples: the same lines.
        merged = [tuple(r) for r in merged_ranges(ranges)]
        rc, again, err = env.run("--export", "collapsed", *(range_args(merged) + ["-o", "-", path]))
        if rc != 0 or again != out:
            problems.append("collapsed %s: the merged ranges %r give other lines" % (what, merged))
    return problems


def ranges_args_cases(env):
    """Bad, empty and overlapping ranges among several."""
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    threads = os.path.join(env.data, "valid", "rec_threads.tach")
    cases = []

    def fails(args, expected):
        tmp = tempfile.mkdtemp(prefix="tv-export-ranges-")
        try:
            out = os.path.join(tmp, "out.html")
            problems = check_fails(env, ["--export", "html", "-o", out] + args + [tiny],
                                   expected, tmp)
            return problems
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    for bad in ("1:2:3", "x:2", "2", "nan:1", ""):
        cases.append(("--range 0:1 --range %r is refused" % bad, lambda b=bad: fails(
            ["--range", "0:1", "--range=" + b], "Invalid time range “%s”" % b)))
    cases.append(("an empty range among several is refused", lambda: fails(
        ["--range", "0:1", "--range", "3:3"], "the start must come before the end")))
    cases.append(("a reversed range among several is refused", lambda: fails(
        ["--range", "0:1", "--range", "3:2"], "the start must come before the end")))

    def outside():
        page, problems = export_html(env, threads, "--range", "-3e9:-2e9", "--range", "-1e9:-5e8")
        if page is not None:
            problems += check_structure(page.data)
            if page.data["samples"] != 0:
                problems.append("ranges before the profile select %d samples"
                                % page.data["samples"])
            if page.data["filter"]["ranges_sec"] != [[-3e9, -2e9], [-1e9, -5e8]]:
                problems.append("filter.ranges_sec %r" % page.data["filter"]["ranges_sec"])
        return problems
    cases.append(("ranges outside the profile select nothing, and that is no error", outside))

    def touching():
        # Touching ranges merge into one, which selects what the single
        # range selects.
        one, problems = export_html(env, threads, "--range", "0.2:0.6")
        two, sub = export_html(env, threads, "--range", "0.4:0.6", "--range", "0.2:0.4")
        problems += sub
        if one is not None and two is not None:
            if two.data["filter"]["ranges_sec"] != [[0.2, 0.6]]:
                problems.append("filter.ranges_sec %r" % two.data["filter"]["ranges_sec"])
            if one.data["filter"]["range_sec"] != [0.2, 0.6] or \
                    one.data["filter"]["ranges_sec"] is not None:
                problems.append("one --range: filter %r" % one.data["filter"])
            if one.data["samples"] != two.data["samples"] or one.data["nodes"] != two.data["nodes"]:
                problems.append("0.2:0.6 gives %d samples, 0.2:0.4 and 0.4:0.6 %d"
                                % (one.data["samples"], two.data["samples"]))
        return problems
    cases.append(("touching ranges merge", touching))
    return cases


# ---------------------------------------------------------------------------
# l10n: the page's words
# ---------------------------------------------------------------------------

def compile_catalogue(env, tmp, lang):
    """po/LANG.po compiled into TMP/LANG/LC_MESSAGES: the locale folder."""
    out = os.path.join(tmp, "locale", lang, "LC_MESSAGES")
    os.makedirs(out, exist_ok=True)
    subprocess.run(["msgfmt", "-o", os.path.join(out, "tachyon-viewer.mo"),
                    os.path.join(env.po_dir, lang + ".po")], check=True)
    return os.path.join(tmp, "locale")


def l10n_cases(env, browser_exe):
    import gettext
    tmp = tempfile.mkdtemp(prefix="tv-export-l10n-")
    cases = []
    localedir = compile_catalogue(env, tmp, "de")
    german = gettext.translation("tachyon-viewer", localedir=localedir, languages=["de"])
    nostats = os.path.join(env.data, "valid", "legacy_nostats.tach")
    threads = os.path.join(env.data, "valid", "rec_threads.tach")
    pages = {}

    def export(language, name, path, *extra):
        if name not in pages:
            out = os.path.join(tmp, name + ".html")
            if language is None:
                rc, stdout, err = env.run("--export", "html", "-o", out, *(list(extra) + [path]))
            else:
                rc, stdout, err = env.run_in(language, localedir, "--export", "html", "-o", out,
                                             *(list(extra) + [path]))
            if rc != 0 or stdout or err:
                raise RuntimeError("export %s: exit %d, %r %r" % (name, rc, stdout[:100], err))
            with open(out, "rb") as fh:
                pages[name] = (out, Page(fh.read()))
        return pages[name]

    lazy = cdp.LazyBrowser(browser_exe)

    def load(path):
        url = "file://" + path
        return lazy.open(url), url

    def english_json():
        """The exporter's English words are the page's own, key for key."""
        _, p = export(None, "en", threads)
        if browser_exe is None:
            return [cdp.MISSING]
        b, url = load(pages["en"][0])
        words = b.evaluate("tachyon.words()")
        problems = browser_problems(b, url)
        ui = p.data.get("ui")
        if ui != words:
            keys = set(ui or {}) ^ set(words)
            differ = [k for k in words if ui and k in ui and ui[k] != words[k]]
            problems.append("ui differs from the page's words: keys only on one side %r, "
                            "other text %r" % (sorted(keys)[:10], differ[:10]))
        if b.evaluate("document.getElementById('reset').textContent") != "Reset zoom":
            problems.append("the English page's button reads %r"
                            % b.evaluate("document.getElementById('reset').textContent"))
        return problems
    cases.append(("English: the exporter's words are the page's", english_json))

    def german_json():
        """LANGUAGE=de: every word is its German translation, and most
        differ from the English."""
        _, en = export(None, "en", threads)
        _, de = export("de", "de", threads)
        problems = []
        ui, words = de.data.get("ui") or {}, en.data["ui"]
        if set(ui) != set(words):
            problems.append("keys differ: %r" % sorted(set(ui) ^ set(words))[:10])
        wrong = [(k, ui.get(k), german.gettext(v)) for k, v in words.items()
                 if ui.get(k) != german.gettext(v)]
        if wrong:
            problems.append("not the catalogue's translation: %r" % wrong[:5])
        same = [k for k in words if ui.get(k) == words[k]]
        if len(same) * 3 > len(words):
            problems.append("%d of %d words are English still: %r" % (len(same), len(words),
                                                                      same[:10]))
        if ui.get("not_recorded") != "nicht aufgezeichnet":
            problems.append("ui.not_recorded %r" % ui.get("not_recorded"))
        # The findings' sentences are the catalogue's; nothing else changes
        # with the language.
        en_found, de_found = en.data.get("findings") or [], de.data.get("findings") or []
        if not en_found or [(f["kind"], f["severity"]) for f in en_found] != \
                [(f["kind"], f["severity"]) for f in de_found]:
            problems.append("findings %r, in German %r" % (en_found, de_found))
        elif any(f["message"] == g["message"] for f, g in zip(en_found, de_found)):
            problems.append("findings still in English: %r" % de_found)
        en_rest = dict(en.data, ui=None, findings=None)
        de_rest = dict(de.data, ui=None, findings=None)
        if en_rest != de_rest:
            problems.append("the data besides ui differ between English and German")
        return problems
    cases.append(("German: the JSON carries the catalogue's words", german_json))

    @cdp.needs(browser_exe)
    def german_page():
        path, p = export("de", "de-nostats", nostats)
        ui = p.data["ui"]
        b, url = load(path)
        problems = browser_problems(b, url)
        shown = b.evaluate("({reset: document.getElementById('reset').textContent,"
                           " resetTitle: document.getElementById('reset').title,"
                           " search: document.querySelector('label span[data-ui=\"search\"]').textContent,"
                           " placeholder: document.getElementById('search').placeholder,"
                           " profile: document.getElementById('details-title').textContent,"
                           " status: document.getElementById('status').textContent,"
                           " stats: Array.from(document.querySelectorAll('[data-stat]')).map(e => e.textContent),"
                           " heads: Array.from(document.querySelectorAll('.card h3')).map(e => e.textContent),"
                           " option: document.querySelector('#thread option').textContent})")
        want = {"reset": ui["reset_zoom"], "resetTitle": ui["reset_tooltip"],
                "search": ui["search"], "placeholder": ui["search_placeholder"],
                "profile": ui["profile"]}
        for k, v in want.items():
            if shown[k] != v:
                problems.append("%s shows %r, expected %r" % (k, shown[k], v))
        if shown["reset"] != "Zoom zurücksetzen":
            problems.append("the button is not German: %r" % shown["reset"])
        if shown["stats"] != [ui["not_recorded"]] * 4:
            problems.append("statistics show %r, expected %r" % (shown["stats"], ui["not_recorded"]))
        for key in ("statistics", "header", "footer", "file_and_export", "warnings", "threads"):
            if ui[key] not in shown["heads"]:
                problems.append("no card %r among %r" % (ui[key], shown["heads"]))
        head = ui["status"].split("{")[1].split("}")[1].split("{")[0]
        if head.strip() and head not in shown["status"]:
            problems.append("status %r lacks %r" % (shown["status"], head))
        if not shown["option"].startswith(ui["all_threads_option"].split("{")[0]):
            problems.append("thread option %r" % shown["option"])
        # The tooltip of the widest frame but the root.
        frames = [f for f in b.evaluate("tachyon.frames()") if f["depth"] > 0]
        if frames:
            f = max(frames, key=lambda f: f["width"])
            b.mouse("mouseMoved", f["x"] + f["width"] / 2, f["y"] + f["height"] / 2)
            tip = b.evaluate("document.getElementById('tooltip').textContent")
            for key in ("tip_total", "tip_self"):
                word = ui[key].split("{")[0]
                if word not in tip:
                    problems.append("tooltip %r lacks %r" % (tip, word))
        else:
            problems.append("no frame drawn")
        shot = os.environ.get("TV_EXPORT_SCREENSHOTS")
        if shot:
            b.screenshot(os.path.join(shot, "export-de.png"))
        return problems
    cases.append(("German: Chromium shows the page's words in German", german_page))

    @cdp.needs(browser_exe)
    def missing_key():
        """A word the JSON lacks stays English: the rest stays German."""
        _, p = export("de", "de", threads)
        d = json.loads(p.raw.decode("utf-8"))
        del d["ui"]["reset_zoom"]
        raw = json.dumps(d, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
        html = p.bytes.replace(p.raw, raw.replace("&", "\\u0026").encode("utf-8"))
        path = os.path.join(tmp, "de-missing.html")
        with open(path, "wb") as fh:
            fh.write(html)
        b, url = load(path)
        problems = browser_problems(b, url)
        reset = b.evaluate("document.getElementById('reset').textContent")
        profile = b.evaluate("document.getElementById('details-title').textContent")
        if reset != "Reset zoom" or profile != d["ui"]["profile"]:
            problems.append("reset %r (expected English), profile %r (expected %r)"
                            % (reset, profile, d["ui"]["profile"]))
        return problems
    cases.append(("a word missing from the JSON stays English", missing_key))

    @cdp.needs(browser_exe)
    def german_diff():
        out = os.path.join(tmp, "diff-de.html")
        rc, stdout, err = env.run_in("de", localedir, "--export", "html", "--baseline", nostats,
                                     "-o", out, threads)
        if rc != 0:
            return ["--baseline in German: exit %d %s" % (rc, err)]
        with open(out, "rb") as fh:
            ui = Page(fh.read()).data["ui"]
        b, url = load(out)
        problems = browser_problems(b, url)
        heads = b.evaluate("Array.from(document.querySelectorAll('#functions th')).map(e => e.textContent)")
        if not heads or heads[0] != ui["function"] or ui["total_before"] not in heads:
            problems.append("function table heads %r" % heads)
        sides = b.evaluate("Array.from(document.querySelectorAll('h3.side')).map(e => e.textContent)")
        if len(sides) != 2 or not sides[0].startswith(ui["baseline"]):
            problems.append("sides %r" % sides)
        return problems
    cases.append(("German: the differential page too", german_diff))
    return cases, tmp


# ---------------------------------------------------------------------------
# scale: many threads, a sample bomb, the memory budget
# ---------------------------------------------------------------------------

SCALE_THREADS = 10000
BOMB_SAMPLES = 30 * 1000 * 1000
# A load of counts of the bomb takes some 15 MB; keeping its samples took
# nine bytes each, 270 MB.
BOMB_MAX_RSS = 100 * 1000 * 1000


# A child's peak RSS counts the pages it had before exec: a fork of this
# process would start with all of this one's.  A fresh interpreter that
# does nothing else forks the viewer and reports its rusage.
MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stdout.write("%d %d" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024))
"""


def run_measured(env, args, extra_env=None):
    """Runs the viewer; returns (exit status, stderr, peak RSS in bytes)."""
    p = subprocess.run([sys.executable, "-c", MEASURE, env.exe] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(env.env, **(extra_env or {})), timeout=600)
    rc, rss = (int(x) for x in p.stdout.decode().split())
    return rc, p.stderr.decode("utf-8", "replace"), rss


def scale_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-scale-")
    threads = os.path.join(tmp, "threads.tach")
    bomb = os.path.join(tmp, "bomb.tach")
    cases = []

    def generate():
        return (env.generate(threads, 2 * SCALE_THREADS, "--shape", "threads",
                             "--threads", str(SCALE_THREADS))
                or env.generate(bomb, BOMB_SAMPLES, "--shape", "repeat"))
    cases.append(("generate %d threads and a bomb of %d samples" % (SCALE_THREADS, BOMB_SAMPLES),
                  generate))

    def many_threads():
        rc, out, err = env.run("--info", "--json", threads)
        if rc != 0:
            return ["--info: exit %d %s" % (rc, err)]
        info = strict_json(out)
        problems = []
        for extra in ([], ["--state", "gil"], ["--focus", "main", "--merge", "function"]):
            page, problems_page = export_html(env, threads, *extra)
            problems += problems_page
            if page is None:
                continue
            d = page.data
            problems += check_structure(d)
            if len(d["threads"]) != SCALE_THREADS:
                problems.append("%s: %d threads" % (extra, len(d["threads"])))
            # Each thread's counts: its samples in the file (no filter), or
            # those --export collapsed counts for it with the same filter.
            theirs = {str(t["thread_id"]): t for t in info["decoded"]["threads"]}
            for t in d["threads"]:
                counted = sum(c for _, c in thread_pairs(t))
                if counted != t["samples"]:
                    problems.append("%s: thread %s: its pairs add up to %d, not %d"
                                    % (extra, t["thread_id"], counted, t["samples"]))
                if t["samples_in_file"] != theirs[t["thread_id"]]["samples"]:
                    problems.append("%s: thread %s: %d samples in the file, --info says %d"
                                    % (extra, t["thread_id"], t["samples_in_file"],
                                       theirs[t["thread_id"]]["samples"]))
                if not extra and t["samples"] != t["samples_in_file"]:
                    problems.append("thread %s: %d samples of %d"
                                    % (t["thread_id"], t["samples"], t["samples_in_file"]))
            if "--merge" in extra:
                continue
            rc, expected, err = env.run("--export", "collapsed", "-o", "-", *extra, threads)
            if rc != 0:
                problems.append("collapsed %s: exit %d %s" % (extra, rc, err))
            elif collapsed_from_page(d) != expected:
                problems.append("%s: the page's threads give other stacks than --export "
                                "collapsed" % extra)
            if len(problems) > 10:
                break
        return problems[:10]
    cases.append(("%d threads of their own stacks: every thread's counts in the page"
                  % SCALE_THREADS, many_threads))

    def bomb_memory():
        problems = []
        out = os.path.join(tmp, "bomb.out")
        base = ["--export", "html", "-o", out]
        for args, samples in ((base + [bomb], BOMB_SAMPLES),
                              (base + ["--state", "gil", "--range", "0:1", bomb], 9999),
                              (base + ["--baseline", bomb, bomb], None),
                              (["--export", "svg", "-o", out, bomb], None),
                              # Thread-state colours count each run's states.
                              (["--export", "svg", "-o", out, "--colors", "state", bomb], None),
                              (["--export", "collapsed", "--state", "cpu", "-o", out, bomb], None)):
            rc, err, rss = run_measured(env, args)
            print("# %s: peak RSS %.1f MB" % (" ".join(args[:2] + args[4:-1]), rss / 1e6))
            if rc != 0:
                problems.append("%s: exit %d %s" % (args, rc, err))
                continue
            if rss > BOMB_MAX_RSS:
                problems.append("%s: peak RSS %d bytes, more than %d"
                                % (args, rss, BOMB_MAX_RSS))
            if samples is not None:
                with open(out, "rb") as fh:
                    d = Page(fh.read()).data
                if d["samples"] != samples or d["threads"][0]["samples"] != samples:
                    problems.append("%s: %d samples, expected %d" % (args, d["samples"], samples))
                if d["decoded"]["samples"] != BOMB_SAMPLES:
                    problems.append("%s: decoded %d samples" % (args, d["decoded"]["samples"]))
            elif "collapsed" in args:
                with open(out, "rb") as fh:
                    lines = fh.read().decode().splitlines()
                if len(lines) != 1 or not lines[0].endswith(" %d" % BOMB_SAMPLES):
                    problems.append("collapsed --state cpu: %r" % lines[:3])
        return problems
    cases.append(("a bomb of %d samples exports in at most %d MB"
                  % (BOMB_SAMPLES, BOMB_MAX_RSS // 1000000), bomb_memory))

    def budget():
        problems = []
        for fmt in ("html", "svg", "collapsed"):
            out = os.path.join(tmp, "budget." + fmt)
            args = ["--export", fmt, "-o", out, threads]
            if fmt == "collapsed":
                args[2:2] = ["--state", "gil"]
            rc, err, _ = run_measured(env, args, {"TV_MEMORY_LIMIT_KIB": "1024"})
            if rc != 1 or "Not enough memory to load this profile" not in err \
                    or not re.search(r"more than the 1\.0\sMB", err) or err.count("\n") != 1:
                problems.append("%s with 1 MiB: exit %d, stderr %r" % (fmt, rc, err))
            if os.path.exists(out):
                problems.append("%s with 1 MiB: %s was written" % (fmt, out))
            rc, err, _ = run_measured(env, args, {"TV_MEMORY_LIMIT_KIB": str(512 * 1024)})
            if rc != 0:
                problems.append("%s with 512 MiB: exit %d %s" % (fmt, rc, err))
        return problems
    cases.append(("an export stops at the memory budget with an error that says so", budget))
    return cases, tmp


# ---------------------------------------------------------------------------
# page: search rule, the link's fragment, summary, source, SVG, theme
# ---------------------------------------------------------------------------

def svg_share(env, path, search, *extra):
    """The share of the samples the SVG export's caption says SEARCH
    matches, as its caption writes it (three significant digits, "55.8 %
    of the samples"), as a number."""
    tmp = tempfile.mkdtemp(prefix="tv-export-svg-")
    try:
        out = os.path.join(tmp, "out.svg")
        rc, _, err = env.run("--export", "svg", "-o", out, "--search", search, *(list(extra) + [path]))
        if rc != 0:
            raise RuntimeError("--export svg --search %r: %r" % (search, err))
        with open(out, encoding="utf-8") as fh:
            text = fh.read()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    m = re.search(r"(\d+(?:\.\d+)?) % of the samples", text)
    if not m:
        raise RuntimeError("the SVG's caption has no share for %r" % search)
    return float(m.group(1))


def page_share(matched, samples):
    """The page's exact share rounded as the SVG's caption rounds it."""
    return float("%.3g" % (100 * matched / samples)) if samples else 0.0


def share3(part, whole):
    """The summary panel's share: three significant digits."""
    if whole <= 0:
        return "–"
    v = 100 * part / whole
    if v > 99.9 and part < whole:
        return "> 99.9%"
    if 0 < v < 0.001:
        return "< 0.001%"
    if v == 0:
        return "0%"
    if v >= 100:
        return "100%"
    text = "%.3g" % v
    # JavaScript's toPrecision(3) keeps trailing zeros: 12.0, 1.50.
    digits = len(text.replace(".", "").lstrip("0"))
    if "." not in text and digits < 3 and v >= 1:
        text += "." + "0" * (3 - digits)
    elif "." in text and len(text.replace(".", "").lstrip("0")) < 3:
        text += "0" * (3 - len(text.replace(".", "").lstrip("0")))
    return text + "%"


SOURCE_LINES = [
    "import os",
    "# line two",
    "</script><img src=x onerror=alert(21)>",
    "def hot():  # \x1b[31m red \u202e reversed \u2028 sep",
    "    return '<!--' + \"&amp;\"",
    "x" * 1000,
    "# line seven",
]


def page_cases(env, browser_exe):
    tmp = tempfile.mkdtemp(prefix="tv-export-page-")
    cases = []
    if browser_exe is None:
        cases.append(("chromium is installed", lambda: [cdp.MISSING]))
        return cases, tmp
    lazy = cdp.LazyBrowser(browser_exe)

    def write_page(name, path, *extra):
        page, problems = export_html(env, path, *extra)
        if page is None:
            raise RuntimeError("; ".join(problems))
        out = os.path.join(tmp, name + ".html")
        with open(out, "wb") as fh:
            fh.write(page.bytes)
        return out, page

    def load(path, fragment=""):
        url = "file://" + path
        return lazy.open(url + fragment, blank_first=True), url

    def search_like_svg():
        # The issue's case: --search CLASS3 gave 55.80 % in the SVG and
        # 0.0 % in the page.  Same rule, same share, whatever the case.
        problems = []
        path = os.path.join(env.data, "valid", "mode_all.tach")
        shares = set()
        for name, merge in (("mode_all.tach", "frame"), ("mode_all.tach", "function"),
                            ("rec_threads.tach", "frame"), ("rec_threads.tach", "line")):
            path = os.path.join(env.data, "valid", name)
            out, page = write_page("all-" + name + merge, path, "--merge", merge)
            d = page.data
            # A file:line of a frame the page has, when the key has lines.
            f = next(i for i in range(len(d["frames"]) // 7)
                     if d["strings"][d["frames"][7 * i + 1]].endswith(".py"))
            base = os.path.basename(d["strings"][d["frames"][7 * f + 1]])
            line = d["frames"][7 * f + 2] if merge != "function" else 3491
            for search in ("CLASS3", "class3", "Class3\\.STEP", "%s:%d\\b" % (re.escape(base), line),
                           "<native>", "MODULE_00[0-4]\\.PY:1", "WAIT", "THREADS_MIX\\.py:1[0-9]$",
                           "Sleeper|idle"):
                svg = svg_share(env, path, search, "--merge", merge)
                b, url = load(out, "#search=" + urllib.parse.quote(search, safe=""))
                st = b.evaluate("tachyon.state()")
                if st["search"] != search or st["matched"] is None:
                    problems.append("%s %r: the fragment's search is not applied: %r" % (merge, search, st))
                    continue
                ours = page_share(st["matched"], st["samples"])
                shares.add(svg)
                if ours != svg:
                    problems.append("merge %s, search %r: page %s %%, SVG %s %%" % (merge, search, ours, svg))
                if search == "CLASS3" and name == "mode_all.tach" and float(svg) == 0:
                    problems.append("CLASS3 matches nothing in the SVG either")
                # The page's own starting search (--search) gives the same.
                problems += ["%s: %s" % (search, p) for p in browser_problems(b, url)]
            if merge == "function":
                # No line to match when merged by function, in both.
                if svg_share(env, path, ":%d$" % line, "--merge", merge) != 0.0:
                    problems.append("a line matched in a page merged by function")
        if len(shares) < 6:
            problems.append("the searches gave too few different shares to tell: %r" % shares)
        path = os.path.join(env.data, "valid", "mode_all.tach")
        out, page = write_page("all-search", path, "--search", "CLASS3")
        b, url = load(out)
        st = b.evaluate("tachyon.state()")
        if page_share(st["matched"], st["samples"]) != svg_share(env, path, "CLASS3"):
            problems.append("--search CLASS3 in the page %r differs from the SVG" % st)
        return problems
    cases.append(("the page's search is the SVG's: caseless, file:line, same share", search_like_svg))

    def fragment_round_trip():
        problems = []
        out, page = write_page("threads", os.path.join(env.data, "valid", "rec_threads.tach"))
        b, url = load(out)
        if b.evaluate("location.hash") != "":
            problems.append("the page wrote a fragment before anything changed")
        set_control(b, "thread", option=2)
        b.evaluate("document.getElementById('inverted').click()")
        b.evaluate("document.getElementById('icicle').click()")
        set_control(b, "colour", "heat")
        b.evaluate("document.getElementById('theme').click()")
        target = max((f for f in b.evaluate("tachyon.frames()") if f["depth"] == 2),
                     key=lambda f: f["width"])
        b.click(target["x"] + 3, target["y"] + 3)
        b.evaluate("document.getElementById('search').focus()")
        b.type_text("wait")
        b.key("Enter", keycode=13)
        before = b.evaluate("tachyon.state()")
        hash_ = b.evaluate("location.hash")
        if not before["zoom"] or not before["inverted"] or before["thread"] < 0:
            problems.append("the interactions did not take: %r" % before)
        if not hash_.startswith("#zoom="):
            problems.append("the fragment %r" % hash_)
        b, url = load(out, hash_)
        after = b.evaluate("tachyon.state()")
        for k in ("zoom", "zoomName", "inverted", "thread", "icicle", "search", "matched",
                  "samples", "colour", "theme"):
            if after[k] != before[k]:
                problems.append("%s: %r after the link, %r before" % (k, after[k], before[k]))
        if b.evaluate("document.getElementById('thread').value") != str(before["thread"]):
            problems.append("the thread menu does not show the link's thread")
        # A fragment changed in place (a pasted link) applies too.
        b.evaluate("location.hash = '#zoom=&search=&thread=all&inverted=0&icicle=0'")
        time.sleep(0.3)
        st = b.evaluate("tachyon.state()")
        if st["zoom"] != 0 or st["inverted"] or st["thread"] != -1 or st["search"] != "":
            problems.append("a new fragment did not apply: %r" % st)
        return problems + browser_problems(b, url)
    cases.append(("the state is kept in the URL fragment and a link restores it", fragment_round_trip))

    def hostile_fragment():
        problems = []
        out, page = write_page("threads", os.path.join(env.data, "valid", "rec_threads.tach"))
        evil = "<img src=x onerror=alert(1)></script><script>alert(2)</script>\u202e\u2028"
        q = urllib.parse.quote
        fragments = [
            ("#zoom=1.99999999.x&search=%s&thread=__proto__&inverted=constructor&icicle=1"
             "&theme=%s&colour=%s" % (q(evil, safe=""), q("</style><b>", safe=""), q('heat"', safe="")),
             {"search": evil, "icicle": True, "zoom": 0, "thread": -1, "inverted": False,
              "colour": "name"}),
            ("#zoom=" + ".".join(["0"] * 3000) + "&search=(", {"search": "(", "zoom": 0}),
            # Too long to be a link of the page's: ignored whole.
            ("#search=" + "a" * 20000, {"search": ""}),
            ("#thread=toString&zoom=-1&search=%E0%A4%A&inverted=1", {"inverted": True, "zoom": 0}),
            ("#%%%&&&==&search", {"zoom": 0, "thread": -1}),
        ]
        for fragment, expect in fragments:
            b, url = load(out, fragment)
            check = b.evaluate(PAGE_CHECK)
            if not check["ready"] or check["scripts"] != 2 or check["bad"]:
                problems.append("%r: %r" % (fragment[:50], check))
            st = b.evaluate("tachyon.state()")
            for k, v in expect.items():
                if st[k] != v:
                    problems.append("%r: %s is %r, expected %r" % (fragment[:50], k, st[k], v))
            if st["theme"] not in ("light", "dark"):
                problems.append("theme %r" % st["theme"])
            if expect.get("search") == "(" and \
                    "Not a regular expression" not in b.evaluate("document.getElementById('match').textContent"):
                problems.append("an invalid search from the fragment is not said")
            kids = b.evaluate("Array.from(document.querySelectorAll('#status, #match, #summary-line'))"
                              ".map(e => e.children.length)")
            if any(kids):
                problems.append("text with child elements after %r" % fragment[:40])
            problems += ["%r: %s" % (fragment[:40], p) for p in browser_problems(b, url)]
        return problems
    cases.append(("a hostile URL fragment is checked, shown as text and runs nothing", hostile_fragment))

    def state_filter():
        # Each state chosen in the page gives the tree of that state's
        # samples: every node's total equals the --state export's (the
        # model's tree of those samples), and the root the sum of the
        # collapsed stacks of that state.
        problems = []
        every = set()
        for name in ("rec_threads.tach", "rec_cpu_mix.tach", "mode_all.tach", "rec_asyncio.tach",
                     "mode_exception.tach"):
            path = os.path.join(env.data, "valid", name)
            out, page = write_page("state-" + name, path)
            d = page.data
            if sorted(d.get("states", {})) != sorted(STATES):
                problems.append("%s: states %r" % (name, sorted(d.get("states", {}))))
                continue
            n, parent, frame = tree_of(d)

            def frame_key(dd, f):
                fr = dd["frames"][7 * f:7 * f + 7]
                return (dd["strings"][fr[0]], dd["strings"][fr[1]]) + tuple(fr[2:])

            def paths(dd):
                nn, pp, ff = tree_of(dd)
                out = [()]
                for i in range(1, nn):
                    out.append(out[pp[i]] + (frame_key(dd, ff[i]),))
                return out
            ours = paths(d)
            b, url = load(out)
            seen = set()
            for state in STATES:
                ref, sub = export_html(env, path, "--state", state)
                problems += sub
                rd = ref.data
                rn, rparent, _ = tree_of(rd)
                rtotal = node_totals(rd, rn, rparent)
                by_path = dict(zip(paths(rd), rtotal))
                rc, coll, err = env.run("--export", "collapsed", "--state", state, "-o", "-", path)
                collapsed_sum = sum(parse_collapsed(coll).values()) if rc == 0 else None
                set_control(b, "state", state)
                st = b.evaluate("tachyon.state()")
                tree = b.evaluate("tachyon.tree()")
                if st["state"] != state or len(tree["total"]) != n:
                    problems.append("%s %s: state %r, %d nodes of %d" % (name, state, st["state"],
                                                                      len(tree["total"]), n))
                    continue
                if tree["total"][0] != rd["samples"]:
                    problems.append("%s %s: root %d, the model's %d" % (name, state, tree["total"][0],
                                                                       rd["samples"]))
                # The collapsed stacks leave out the profiler's own frames
                # only; their samples stay.
                if collapsed_sum is not None and collapsed_sum > rd["samples"]:
                    problems.append("%s %s: collapsed %d > %d" % (name, state, collapsed_sum,
                                                                 rd["samples"]))
                wrong = [i for i in range(n) if tree["total"][i] != by_path.get(ours[i], 0)]
                if wrong:
                    i = wrong[0]
                    problems.append("%s %s: %d nodes differ, e.g. node %d: %d, the model's %d"
                                    % (name, state, len(wrong), i, tree["total"][i],
                                       by_path.get(ours[i], 0)))
                if sum(1 for i in range(1, n) if tree["total"][i] > 0) < min(3, rn - 1):
                    problems.append("%s %s: too few nodes to tell" % (name, state))
                if rd["samples"] > 0:
                    seen.add(state)
                status = b.evaluate("document.getElementById('status').textContent")
                if rd["samples"] > 0 and d["ui"]["state_" + state.replace("-", "_")] not in status:
                    problems.append("%s %s: the status line %r does not say the state"
                                    % (name, state, status))
                # Inverted: the same samples.
                b.evaluate("document.getElementById('inverted').click()")
                if b.evaluate("tachyon.state().samples") != rd["samples"]:
                    problems.append("%s %s: inverted root differs" % (name, state))
                # The fragment keeps the state, and a link restores it.
                hash_ = b.evaluate("location.hash")
                if "state=" + state not in hash_:
                    problems.append("%s: the fragment %r lacks the state" % (name, hash_))
                b2, _ = load(out, hash_)
                after = b2.evaluate("tachyon.state()")
                if after["state"] != state or after["samples"] != rd["samples"] or not after["inverted"]:
                    problems.append("%s %s: the link gives %r" % (name, state, after))
                if b2.evaluate("document.getElementById('state').value") != state:
                    problems.append("%s %s: the menu does not show the link's state" % (name, state))
                b.evaluate("document.getElementById('inverted').click()")
            if name in ("rec_threads.tach", "rec_cpu_mix.tach") and len(seen) < 2:
                problems.append("%s: only %r have samples: not a mixed file" % (name, seen))
            every |= seen
            # Choosing a thread goes back to all states, and the other way round.
            b, url = load(out, "#state=cpu")
            set_control(b, "thread", option=1)
            st = b.evaluate("tachyon.state()")
            if st["state"] != "" or st["thread"] < 0:
                problems.append("%s: a thread with a state: %r" % (name, st))
            problems += browser_problems(b, url)
        if every != set(STATES):
            problems.append("no file has samples in %r" % (set(STATES) - every))
        # Hostile values of the state are ignored.
        out, page = write_page("state-hostile", os.path.join(env.data, "valid", "rec_threads.tach"))
        q = urllib.parse.quote
        for value in ("<script>alert(1)</script>", 'gil"', "9" * 400, "__proto__", "constructor",
                      "GIL", "gil wait", "toString", "-1", "1e999"):
            b, url = load(out, "#state=" + q(value, safe=""))
            check = b.evaluate(PAGE_CHECK)
            st = b.evaluate("tachyon.state()")
            if not check["ready"] or check["bad"] or st["state"] != "" or st["samples"] != page.data["samples"]:
                problems.append("state=%r: %r %r" % (value[:30], check, st))
            problems += ["state=%r: %s" % (value[:20], p) for p in browser_problems(b, url)]
        tid = page.data["threads"][0]["thread_id"]
        b, url = load(out, "#thread=%s&state=gil" % tid)
        st = b.evaluate("tachyon.state()")
        if st["state"] != "" or st["thread"] != 0:
            problems.append("a link with a thread and a state: %r" % st)
        return problems
    cases.append(("the state filter: each state's tree is the model's, kept in the link", state_filter))

    def catastrophic_search():
        # A search that would backtrack for ever against a long name: the
        # page runs it as plain text and says so, and stays responsive.
        problems = []
        long_name = "a" * 30000
        path = os.path.join(tmp, "long-a.tach")
        write_stacks(env, path, [(5, [("app.py", long_name), ("app.py", "main")]),
                                 (2, [("app.py", "(a+)+$x"), ("app.py", "main")])], 1.0)
        out, page = write_page("long-a", path)
        q = urllib.parse.quote
        for search, literal, matched in (("(a+)+$", True, 2), ("(a|aa)*b", True, 0),
                                         ("a*a*a*a*b", True, 0), ("(a+)+", True, 2),
                                         (".*x", False, 2), ("a.*b.*c", False, 0),
                                         ("^a[^]*a$", False, 5)):
            start = time.monotonic()
            b, url = load(out, "#search=" + q(search, safe=""))
            st = b.evaluate("tachyon.state()")
            took = time.monotonic() - start
            print("# search %r: %.2f s" % (search, took))
            if st["search"] != search or st["literal"] != literal or st["matched"] != matched:
                problems.append("%r: %r" % (search, {k: st[k] for k in ("search", "literal", "matched")}))
            text = b.evaluate("document.getElementById('match').textContent")
            if literal and "plain text" not in text:
                problems.append("%r: the page does not say it searched plain text: %r" % (search, text))
            problems += ["%r: %s" % (search, p) for p in browser_problems(b, url)]
        # Typed too.
        b, url = load(out)
        b.evaluate("document.getElementById('search').focus()")
        b.type_text("(a+)+$")
        b.key("Enter", keycode=13)
        st = b.evaluate("tachyon.state()")
        if not st["literal"] or st["matched"] != 2:
            problems.append("typed: %r" % st)
        return problems + browser_problems(b, url)
    cases.append(("a catastrophic search from a link or typed never hangs the page", catastrophic_search))

    def durations():
        # The page's durations follow tv-units.c: three significant digits.
        problems = []
        out, page = write_page("dur", os.path.join(env.data, "valid", "rec_threads.tach"))
        b, url = load(out)
        for s, want in ((0, "0 s"), (8.12e-7, "812 ns"), (4.2e-6, "4.20 µs"), (0.315, "315 ms"),
                        (1.276, "1.28 s"), (0.9995, "1.00 s"), (59.96, "1.00 min"), (3000, "50.0 min"),
                        (9000, "2.50 h"), (1.275, "1.28 s"), (12.5e-3, "12.5 ms"),
                        (4.5e6, "1,250 h")):
            got = b.evaluate("tachyon.duration(%r)" % s)
            if got != want or format_seconds(s) != want:
                problems.append("%r: page %r, test's rule %r, expected %r" % (s, got, format_seconds(s), want))
        status = b.evaluate("document.getElementById('status').textContent")
        sps = page.data["seconds_per_sample"]
        if format_seconds(page.data["samples"] * sps) not in status:
            problems.append("status %r lacks %r" % (status, format_seconds(page.data["samples"] * sps)))
        return problems + browser_problems(b, url)
    cases.append(("durations have three significant digits and a unit, as in the app", durations))

    def summary_shares():
        problems = []
        for name in ("mode_all.tach", "rec_threads.tach", "two_interpreters.tach"):
            path = os.path.join(env.data, "valid", name)
            out, page = write_page("sum-" + name, path)
            d = page.data
            rc, text, err = env.run("--info", "--json", path)
            info = json.loads(text)
            threads = info["decoded"]["threads"]
            in_file = sum(t["samples"] for t in threads)
            gil = sum(t["status_counts"]["has_gil"] for t in threads)
            wait = sum(t["status_counts"]["gil_requested"] for t in threads)
            exc = sum(t["status_counts"]["has_exception"] for t in threads)
            # <GC> and <native>: each sample once, from --export collapsed.
            rc, collapsed, err = env.run("--export", "collapsed", "-o", "-", path)
            shown = gc = native = 0
            for line in collapsed.decode("utf-8").splitlines():
                stack, count = line.rsplit(" ", 1)
                frames = stack.split(";")
                shown += int(count)
                gc += int(count) if "<GC>" in frames else 0
                native += int(count) if "<native>" in frames else 0
            expected = {"gil": [gil, in_file], "released": [in_file - gil, in_file],
                        "waiting": [wait, in_file], "exception": [exc, in_file],
                        "gc": [gc, shown], "native": [native, shown]}
            b, url = load(out)
            summary = b.evaluate("tachyon.summary()")
            got = {r[0]: [r[1], r[2]] for r in summary["shares"]}
            if got != expected:
                problems.append("%s: shares %r, expected %r" % (name, got, expected))
            texts = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll("
                               "'#shares .num[data-share]')).map(e => [e.dataset.share, e.textContent]))")
            for k, (part, whole) in expected.items():
                if texts.get(k) != share3(part, whole):
                    problems.append("%s: %s shows %r, expected %r" % (name, k, texts.get(k),
                                                                       share3(part, whole)))
            # Hotspots: self samples per function (name and file), brute force.
            n, parent, frame = tree_of(d)
            selfs = collections.Counter()
            functions = set()
            for t in d["threads"]:
                for node, count in thread_pairs(t):
                    f = frame[node]
                    selfs[(d["frames"][7 * f], d["frames"][7 * f + 1])] += count
            total = node_totals(d, n, parent)
            for i in range(1, n):
                if total[i] > 0:
                    functions.add((d["frames"][7 * frame[i]], d["frames"][7 * frame[i] + 1]))
            if summary["functions"] != len(functions):
                problems.append("%s: %d functions, expected %d" % (name, summary["functions"], len(functions)))
            top = sorted(selfs.values(), reverse=True)[:len(summary["hotspots"])]
            if [h["self"] for h in summary["hotspots"]] != top:
                problems.append("%s: hotspots %r, expected %r" % (name, summary["hotspots"], top))
            for h in summary["hotspots"]:
                key = (d["strings"].index(h["name"]), d["strings"].index(h["file"]))
                if selfs.get(key, -1) != h["self"] and \
                        not any(selfs[(a, c)] == h["self"] for (a, c) in selfs
                                if d["strings"][a] == h["name"] and d["strings"][c] == h["file"]):
                    problems.append("%s: hotspot %r has %d self samples" % (name, h["name"], h["self"]))
            # A click on the first hotspot finds it: the search matches its name.
            b.evaluate("document.querySelector('#hotspots button').click()")
            st = b.evaluate("tachyon.state()")
            if not st["highlighted"] or not re.fullmatch(st["search"], summary["hotspots"][0]["name"],
                                                         re.I):
                problems.append("%s: a hotspot's click searched %r" % (name, st["search"]))
            problems += ["%s: %s" % (name, p) for p in browser_problems(b, url)]
        return problems
    cases.append(("the summary's hotspots and runtime shares are exact", summary_shares))

    def source_snippet():
        problems = []
        src = os.path.join(tmp, "hostile <src>.py")
        with open(src, "w", encoding="utf-8", newline="\n") as fh:
            fh.write("\n".join(SOURCE_LINES) + "\n")
        fifo = os.path.join(tmp, "fifo.py")
        os.mkfifo(fifo)
        frames = [{"file": src, "func": "hot", "location": [4, 4, 0, 5], "opcode": 1},
                  {"file": fifo, "func": "blocked", "location": [1, 1, 0, 1], "opcode": 1},
                  {"file": src, "func": "<module>", "location": [1, 1, 0, 1], "opcode": 1}]
        samples = [{"t": 1_000_000_000 + 1000 * k, "interpreters": [{"id": 0, "threads": [
            {"tid": 5, "status": 1, "frames": frames if k % 2 else frames[1:]}]}]}
            for k in range(40)]
        path = env.write_profile(os.path.join(tmp, "snippet.tach"), {"samples": samples})
        out, page = write_page("snippet", path)
        d = page.data
        file_id = d["strings"].index(src)
        runs = [(d["sources"][k + 1], d["sources"][k + 2]) for k in range(0, len(d["sources"]), 3)
                if d["sources"][k] == file_id]
        got = {first + i: line for first, lines in runs for i, line in enumerate(lines)}
        # Lines 1 and 4 with two either side, the runs merged: 1 to 6, the
        # long line cut to 240 characters.
        want = {i + 1: l[:240] for i, l in enumerate(SOURCE_LINES[:6])}
        if got != want:
            problems.append("sources %r" % got)
        if any(d["sources"][k] == d["strings"].index(fifo) for k in range(0, len(d["sources"]), 3)):
            problems.append("a FIFO was read")
        b, url = load(out)
        hot = next(f for f in b.evaluate("tachyon.frames()") if f["name"] == "hot")
        b.mouse("mouseMoved", hot["x"] + 5, hot["y"] + 5)
        rows = b.evaluate("Array.from(document.querySelectorAll('#tooltip .snippet > div'))"
                          ".map(r => [r.querySelector('.no').textContent, r.lastChild.textContent,"
                          " r.className, r.children.length])")
        expected = [[str(n), shown(want[n]), "at" if n == 4 else "", 1] for n in range(2, 7)]
        if rows != expected:
            problems.append("the tooltip's source %r, expected %r" % (rows, expected))
        check = b.evaluate(PAGE_CHECK)
        if check["scripts"] != 2 or check["bad"]:
            problems.append("injected by the source: %r" % check)
        return problems + browser_problems(b, url)
    cases.append(("the tooltip's source lines are read at export, bounded and shown as text",
                  source_snippet))

    def svg_and_theme():
        problems = []
        out = hostile_profile(env, tmp, "hostile.tach")
        out, page = write_page("hostile", out)
        b, url = load(out)
        svg = b.evaluate("tachyon.svg()")
        try:
            root = ET.fromstring(svg)
        except ET.ParseError as e:
            return ["the SVG does not parse: %s" % e]
        ns = "{http://www.w3.org/2000/svg}"
        drawn = b.evaluate("tachyon.frames()")
        titles = [t.text for t in root.iter(ns + "title")]
        if len(titles) != len(drawn) or len(list(root.iter(ns + "rect"))) != len(drawn) + 1:
            problems.append("%d titles, %d rects for %d frames" % (len(titles), len(list(root.iter(ns + "rect"))),
                                                                  len(drawn)))
        if sorted(titles) != sorted(f["label"] for f in drawn):
            problems.append("the SVG's titles are not the frames' labels")
        if any(el.tag not in (ns + "svg", ns + "rect", ns + "g", ns + "title", ns + "text")
               for el in root.iter()) or any(k.startswith("on") for el in root.iter() for k in el.attrib):
            problems.append("the SVG holds elements or handlers of the names")
        # The theme button turns the page and the frames dark and back.
        light = b.evaluate("[tachyon.state().theme, getComputedStyle(document.body).backgroundColor]")
        b.evaluate("document.getElementById('theme').click()")
        dark = b.evaluate("[tachyon.state().theme, getComputedStyle(document.body).backgroundColor]")
        if light[0] != "light" or dark[0] != "dark" or light[1] == dark[1]:
            problems.append("the theme button: %r then %r" % (light, dark))
        legend = b.evaluate("Array.from(document.querySelectorAll('#legend i')).map(i => i.dataset.swatch)")
        if legend != ["module-0", "module-1", "module-2", "module-3", "gc", "native", "match"]:
            problems.append("legend %r" % legend)
        return problems + browser_problems(b, url)
    cases.append(("Export SVG makes an inert image of what is shown; the theme toggles", svg_and_theme))

    def app_palette():
        # The page's frames in the application's module colours: each
        # colour the page draws is one the SVG export (the application's
        # renderer) fills a frame with, light and dark.
        problems = []
        path = os.path.join(env.data, "valid", "rec_threads.tach")
        out, page = write_page("palette", path)
        b, url = load(out)
        for theme in ("light", "dark"):
            b.evaluate("(() => { if (tachyon.state().theme !== '%s') document.getElementById('theme').click(); })()" % theme)
            tmp_svg = os.path.join(tmp, "palette-%s.svg" % theme)
            rc, _, err = env.run("--export", "svg", "-o", tmp_svg, *(["--dark"] if theme == "dark" else []), path)
            if rc != 0:
                return ["--export svg: %r" % err]
            with open(tmp_svg, encoding="utf-8") as fh:
                fills = [tuple(float(v) / 100 for v in m)
                         for m in re.findall(r"fill:rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", fh.read())]
            checked = 0
            for f in b.evaluate("tachyon.frames()"):
                if f["node"] == 0 or f["width"] < 20:
                    continue
                m = re.fullmatch(r"hsl\(([\d.]+),([\d.]+)%,([\d.]+)%\)", f["color"])
                if not m:
                    problems.append("%s: %r is not in the application's palette" % (theme, f["color"]))
                    continue

                rgb = colorsys.hls_to_rgb(float(m.group(1)) / 360, float(m.group(3)) / 100,
                                          float(m.group(2)) / 100)
                if not any(all(abs(a - c) < 0.004 for a, c in zip(rgb, fill)) for fill in fills):
                    problems.append("%s: %s in %r is no colour of the SVG" % (theme, f["name"], f["color"]))
                checked += 1
            if checked < 10:
                problems.append("%s: only %d frames compared" % (theme, checked))
        return problems + browser_problems(b, url)
    cases.append(("the page's frames are in the application's module colours", app_palette))

    def gc_native_colours():
        problems = []
        frames = {"gc": {"file": "~", "func": "<GC>", "location": [0, 0, 0, 0], "opcode": 0},
                  "native": {"file": "~", "func": "<native>", "location": [0, 0, 0, 0], "opcode": 0},
                  "py": {"file": "app.py", "func": "work", "location": [3, 3, 0, 4], "opcode": 1}}
        samples = []
        for k in range(30):
            leaf = frames[("gc", "native", "py")[k % 3]]
            samples.append({"t": 1_000_000_000 + 1000 * k, "interpreters": [{"id": 0, "threads": [
                {"tid": 1, "status": 1, "frames": [leaf, frames["py"]] if leaf is not frames["py"]
                 else [frames["py"]]}]}]})
        path = env.write_profile(os.path.join(tmp, "gc.tach"), {"samples": samples})
        out, page = write_page("gc", path)
        b, url = load(out)
        for theme in ("light", "dark"):
            b.evaluate("(() => { if (tachyon.state().theme !== '%s') document.getElementById('theme').click(); })()" % theme)
            colors = {f["name"]: f["color"] for f in b.evaluate("tachyon.frames()") if f["name"]}
            want = b.evaluate("[getComputedStyle(document.documentElement).getPropertyValue('--frame-gc').trim(),"
                              " getComputedStyle(document.documentElement).getPropertyValue('--frame-native').trim()]")
            if colors.get("<GC>") != want[0] or colors.get("<native>") != want[1] or want[0] == want[1]:
                problems.append("%s: <GC> %r, <native> %r, expected %r" % (theme, colors.get("<GC>"),
                                                                             colors.get("<native>"), want))
        summary = b.evaluate("tachyon.summary()")
        got = {r[0]: [r[1], r[2]] for r in summary["shares"]}
        if got["gc"] != [10, 30] or got["native"] != [10, 30]:
            problems.append("shares %r" % got)
        return problems + browser_problems(b, url)
    cases.append(("<GC> and <native> frames have their own colours, light and dark", gc_native_colours))

    cases.append(("the browser closes", lazy.close))
    return cases, tmp



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--bench")
    ap.add_argument("--tool", required=True)
    ap.add_argument("--l10n-exe")
    ap.add_argument("--po-dir")
    ap.add_argument("group", choices=["corpus", "filters", "args", "hostile", "browser", "size",
                                      "view", "diff", "ranges", "l10n", "names", "scale", "page"])
    a = ap.parse_args()
    env = Env(a.exe, a.bench, a.tool, a.l10n_exe, a.po_dir)
    tap = Tap()
    valid = env.files("valid")
    if not valid:
        print("Bail out! empty corpus in %s" % env.data)
        return 1
    browser_exe = cdp.find_chromium()

    tmp = None
    try:
        if a.group == "corpus":
            run_parallel(tap, [("html %s" % env.key(p), lambda p=p: check_corpus_file(env, p))
                               for p in valid])
        elif a.group == "filters":
            run_parallel(tap, [("filters %s" % env.key(p), lambda p=p: check_filters_file(env, p))
                               for p in valid if env.key(p) not in REJECTED_VALID])
        elif a.group == "args":
            cases, tmp = args_cases(env)
            run_parallel(tap, cases)
        elif a.group == "view":
            cases, tmp = view_cases(env, browser_exe)
            run_parallel(tap, cases)
        elif a.group == "ranges":
            run_parallel(tap, [("ranges %s" % name, lambda n=name: check_ranges_file(
                env, os.path.join(env.data, "valid", n))) for name in RANGE_FILES]
                         + ranges_args_cases(env))
        else:
            cases, tmp = {"hostile": hostile_cases, "browser": browser_cases,
                          "size": size_cases, "diff": diff_cases,
                          "l10n": l10n_cases, "names": names_cases,
                          "scale": scale_cases, "page": page_cases}[a.group](env, browser_exe)
            # One after the other: they share a page or a browser.
            for name, fn in cases:
                tap.run(name, fn)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
