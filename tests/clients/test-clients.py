#!/usr/bin/env python3
"""Tests of `tachyon-viewer --export speedscope|gecko`: the files opened in
the real clients that read them (speedscope in headless Chromium, the
Firefox Profiler's own code through its command line), and what those
show compared with an independent replay of the samples and with the
model's own outputs (--info --json, --export collapsed).  The replay of a
corpus file has the samples the reference reader decodes (our decoder's,
used once their digests are those of tests/data/reference.json).  The
profiles made for a test (profiles.py) are written by the format library's
writer (tach-tool, --tool), or, the one with a NUL in a name, copied from
tests/data/generated, and replayed from their own descriptions.  Only the
group profiles, of the reference suite, needs anything outside the
repository: the reference itself, tachgen.py.

Usage: test-clients.py --exe PATH --bench PATH --tool PATH GROUP

GROUP is one of:
  speedscope-corpus   every valid corpus file opened in speedscope: its
                      profiles, per thread the samples, each function's
                      self and total, and the stacks in time order (what
                      Time Order and Sandwich show) against the replay
  speedscope-filters  --thread, --state, --range, --focus, --hide,
                      --collapse-recursion and --merge, in speedscope,
                      against the replay and --export collapsed
  speedscope-hostile  names made to break the JSON, and a profile of
                      every state, in speedscope: the names as they are
  gecko-corpus        every valid corpus file opened in the Firefox
                      Profiler: per thread its samples, each function's
                      self and total and the markers (name, category,
                      start, duration; count and total per name) against
                      the replay, which finds the markers as CPython's
                      gecko collector does, and the samples and functions
                      against --info and --export collapsed; the file's
                      own tables well formed, and each sample's time and
                      stack as replayed
  gecko-filters       the filters and transforms, the same way
  gecko-hostile       hostile names, every state (GIL, CPU, GIL wait,
                      exception, <GC> frames, two interpreters, a 64-bit
                      thread id), two files of one base name
  gecko-broken        files broken on purpose (a wrong stack, times out of
                      order, a missing column, a late marker...): each
                      must fail the checks above
  size                1M samples (tachyon-bench --generate) in both formats: valid JSON, every sample,
                      and no more memory than the loaded model needs
                      beyond a bounded margin (the files are streamed)
  args                what the formats refuse: exit 1, a message, no OUT
  profiles            (the reference suite) the reference reader reads back
                      from the reference writer's file of each profile of
                      profiles.py what its description says, and the
                      library's writer writes the same bytes: the tests
                      replay and open the very files the reference makes

The clients are npm packages pinned in tests/clients/package-lock.json,
which build-aux/install-deps.sh installs: speedscope, driven in Debian's
chromium by playwright-core (speedscope.mjs), and the Firefox Profiler's
command line @firefox-devtools/profiler-cli (firefox_profiler.py), whose
daemon loads a file with the profiler's own import and processing code
(speedscope cannot read the Firefox Profiler's format: it imports only
Firefox's old DevTools recordings).  Prints TAP.
"""

import argparse
import collections
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The harnesses beside this file are imported from the source tree: leave
# no __pycache__ there.
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import firefox_profiler  # noqa: E402
import profiles  # noqa: E402
import reference  # noqa: E402
import speedscope  # noqa: E402
import tachprofile  # noqa: E402
import testlib  # noqa: E402
from testlib import strict_json  # noqa: E402

INTERNAL_SUFFIX = "_sync_coordinator.py"
REJECTED_VALID = {"compression_type_7.tach"}
# Too big for a Python replay in every run: the size group takes it.
BIG = {"synth_1m.zst.tach"}
STATE_BITS = {"gil": 0x01, "cpu": 0x02, "gil-wait": 0x08, "exception": 0x10}
MAIN_THREAD = 0x20
MAX_SAFE = 1 << 53

GECKO_META_KEYS = [
    "interval", "startTime", "profilingStartTime", "profilingEndTime", "abi", "misc", "oscpu", "platform", "processType", "categories",
    "stackwalk", "toolkit", "version", "preprocessedProfileVersion", "appBuildID",
    "physicalCPUs", "logicalCPUs", "CPUName", "product", "symbolicated", "markerSchema",
    "importedFrom", "extensions"]
GECKO_THREAD_KEYS = [
    "name", "isMainThread", "processStartupTime", "processShutdownTime", "registerTime",
    "unregisterTime", "pausedRanges", "pid", "tid", "processType", "processName", "samples",
    "stackTable", "frameTable", "funcTable", "resourceTable", "nativeSymbols", "markers"]
GECKO_TABLES = {
    "samples": ["stack", "time", "eventDelay"],
    "stackTable": ["frame", "category", "subcategory", "prefix"],
    "frameTable": ["address", "category", "subcategory", "func", "innerWindowID",
                   "implementation", "optimizations", "line", "column", "inlineDepth",
                   "nativeSymbol"],
    "funcTable": ["name", "isJS", "relevantForJS", "resource", "fileName", "lineNumber",
                  "columnNumber"],
    "resourceTable": ["lib", "name", "host", "type"],
    "nativeSymbols": ["libIndex", "address", "name", "functionSize"],
    "markers": ["data", "name", "startTime", "endTime", "phase", "category"],
}
CATEGORIES = ["Other", "Python", "Native", "GC", "GIL", "CPU", "Code Type", "Opcodes",
              "Exception"]
MARKERS = [  # name, category, in the collector's order of closing at the end
    ("Has GIL", 4), ("No GIL", 4), ("On CPU", 5), ("Off CPU", 5), ("Python Code", 6),
    ("Native Code", 6), ("Waiting for GIL", 4), ("GC Collecting", 3), ("Has Exception", 8),
    ("No Exception", 8)]
MARKER_INDEX = {name: i for i, (name, _) in enumerate(MARKERS)}


class Env(testlib.ViewerEnv):
    def __init__(self, exe, bench, tool):
        super().__init__(exe, tool, bench)
        # The samples of the files read so far, and those of the profiles
        # made here, from their descriptions.
        self.read = {}
        self.described = {}
        self.tmp = tempfile.mkdtemp(prefix="tv-clients-")

    def valid_files(self):
        return self.files("valid", REJECTED_VALID)

    def run(self, *args):
        return super().run(*args, timeout=900)

    def export(self, fmt, path, *extra, out=None):
        out = out or os.path.join(self.tmp, "%s.%s.json" % (os.path.basename(path), fmt))
        rc, _, err = self.run("--export", fmt, "-o", out, *extra, path)
        if rc != 0:
            raise AssertionError("--export %s %s failed: %s" % (fmt, " ".join(extra), err))
        return out

    def info(self, path):
        rc, out, err = self.run("--info", "--json", path)
        if rc != 0:
            raise AssertionError("--info failed: " + err)
        return json.loads(out)

    def collapsed(self, path, *extra):
        rc, out, err = self.run("--export", "collapsed", "-o", "-", *extra, path)
        if rc != 0:
            raise AssertionError("--export collapsed failed: " + err)
        return out.decode("utf-8")

    def samples(self, path):
        """The samples and frames of PATH for a replay: a profile made here,
        those of its description; a corpus file, those the reference
        reader decodes (checked against reference.json, which must hold
        the file)."""
        path = os.path.abspath(path)
        if path in self.described:
            return self.described[path]
        if path not in self.read:
            self.read[path] = super().samples(path)
        return self.read[path]

    def profile(self, name):
        """The profile NAME of profiles.PROFILES, in the temporary folder:
        written by the library's writer, or copied from tests/data when
        only the reference writer can write it; in either case checked to
        hold what its description says, as our decoder reads it."""
        describe, stored = profiles.PROFILES[name]
        spec = describe()
        path = os.path.join(self.tmp, name)
        if stored:
            shutil.copyfile(os.path.join(self.data, stored), path)
        else:
            tachprofile.write(self.tool, path, spec)
        described = tachprofile.Described(spec)
        problems = tachprofile.differences(
            described, reference.Samples(self.tool, None, name, path), name)
        if problems:
            raise AssertionError("\n".join(
                ["%s does not hold what profiles.%s() describes%s" % (
                    stored or "the library's writer's " + name, describe.__name__,
                    ": run tests/data/make-expected.py" if stored else "")] + problems))
        self.described[path] = described
        return path


# ---------------------------------------------------------------------------
# The replay: the samples as the reference reader decodes them (or as a
# profile made here describes them), selected and transformed as the
# filters say
# ---------------------------------------------------------------------------

class Filter:
    def __init__(self, threads=None, state=None, ranges=None, focus=None, hide=(),
                 collapse=False, merge=None):
        self.threads = threads          # thread ids, or None
        self.state = state              # "gil", ... or None
        self.ranges = ranges            # [(start_s, end_s)] or None
        self.focus = focus              # (filename, funcname) or None
        self.hide = set(hide)           # function names: every function of the name
        self.collapse = collapse
        self.merge = merge

    def args(self, focus_name=None):
        a = []
        for t in self.threads or ():
            a += ["--thread", str(t)]
        if self.state:
            a += ["--state", self.state]
        for s, e in self.ranges or ():
            a += ["--range", "%s:%s" % (s, e)]
        if self.focus:
            a += ["--focus", focus_name or self.focus[1]]
        for h in sorted(self.hide):
            a += ["--hide", h]
        if self.collapse:
            a.append("--collapse-recursion")
        if self.merge:
            a += ["--merge", self.merge]
        return a

    def describe(self):
        return " ".join(self.args()) or "no filter"


class Replay:
    def __init__(self, env, path):
        r = env.samples(path)
        self.start = r.start_time_us
        self.frames = [r.frame_tuple(i) for i in range(len(r.frames))]
        self.threads = collections.OrderedDict()
        for iid, tid, ts, status, stack in r.iter_samples():
            self.threads.setdefault((tid, iid), []).append((ts, status, stack))
        for key in self.threads:
            # Time order, equal timestamps in file order, as the export walks.
            self.threads[key].sort(key=lambda s: s[0])
        all_ts = [s[0] for samples in self.threads.values() for s in samples]
        self.first = min(all_ts) if all_ts else 0

    def selected(self, flt, key):
        """The samples of thread KEY that FLT selects, in time order."""
        tid, _ = key
        if flt.threads is not None and tid not in flt.threads:
            return []
        out = []
        for ts, status, stack in self.threads[key]:
            if flt.state and not status & STATE_BITS[flt.state]:
                continue
            if flt.ranges is not None and not any(
                    self.start + s * 1e6 <= ts < self.start + e * 1e6 for s, e in flt.ranges):
                continue
            out.append((ts, status, stack))
        return out

    def view(self, flt, stack):
        """The transformed stack, root first, as frame indices; None when
        the focus drops it.  The model's order: focus on the recorded
        stack, then hidden and the profiler's own frames out, then
        recursion collapsed."""
        frames = list(reversed(stack))
        if flt.focus is not None:
            for i, fi in enumerate(frames):
                if (self.frames[fi][0], self.frames[fi][1]) == flt.focus:
                    frames = frames[i:]
                    break
            else:
                return None
        out = []
        for fi in frames:
            filename, funcname = self.frames[fi][0], self.frames[fi][1]
            if filename.endswith(INTERNAL_SUFFIX) or funcname in flt.hide:
                continue
            if flt.collapse and out and self.frames[out[-1]][:2] == (filename, funcname):
                continue
            out.append(fi)
        return out

    def has_gc(self, stack):
        return any(self.frames[fi][1] == "<GC>" and not self.frames[fi][0].endswith(INTERNAL_SUFFIX)
                   for fi in stack)


def seconds_per_sample(info):
    rate = info.get("sample_rate")
    if rate:
        return 1.0 / rate
    return info["sample_interval_us"] / 1e6


# ---------------------------------------------------------------------------
# speedscope
# ---------------------------------------------------------------------------

def speedscope_key(replay, fi, merge):
    """A frame as speedscope shows it: name, file, line, 1-based column."""
    filename, funcname, ln, _eln, col, _ecol, _op = replay.frames[fi]
    merge = merge or "function"
    line = ln if merge != "function" and ln > 0 else None
    column = col + 1 if merge in ("instruction", "frame") and ln != -1 and col >= 0 else None
    return (funcname, filename, line, column)


def shown_key(frame):
    return (frame["name"], frame.get("file", "~"), frame.get("line"), frame.get("col"))


def profile_name(tid, iid, main):
    if iid:
        return "Thread %d (interpreter %d%s)" % (tid, iid, ", main" if main else "")
    return "Thread %d%s" % (tid, " (main)" if main else "")


def expected_speedscope(replay, flt):
    """Per profile, in order: name, count, {key: [self, total]}, timeline."""
    out = []
    for key in sorted(replay.threads):
        tid, iid = key
        main = any(s[1] & MAIN_THREAD for s in replay.threads[key])
        weights = collections.defaultdict(lambda: [0, 0])
        timeline = []
        count = 0
        for ts, status, stack in replay.selected(flt, key):
            view = replay.view(flt, stack)
            if not view:
                continue
            keys = [speedscope_key(replay, fi, flt.merge) for fi in view]
            count += 1
            weights[keys[-1]][0] += 1
            for k in set(keys):
                weights[k][1] += 1
            if timeline and timeline[-1][0] == keys:
                timeline[-1][1] += 1
            else:
                timeline.append([keys, 1])
        if count:
            out.append({"name": profile_name(tid, iid, main), "count": count,
                        "weights": dict(weights), "timeline": timeline})
    return out


def to_count(weight, w, what, problems):
    c = weight / w
    n = round(c)
    if abs(c - n) > 1e-6 * max(1.0, c):
        problems.append("%s: weight %r is not a whole number of samples of %r" % (what, weight, w))
    return n


def compare_speedscope(result, expected, w, where):
    problems = []
    if not expected:
        # Nothing to show: speedscope says so, and opens nothing.
        if "it's empty" not in (result.get("error") or ""):
            problems.append("%s: no samples, and speedscope said %r" % (where, result.get("error")))
        return problems
    if result.get("error"):
        return ["%s: speedscope failed: %s" % (where, result["error"])]
    if result.get("importer") != "Importing as speedscope json file":
        problems.append("%s: imported as %r" % (where, result.get("importer")))
    for view, errors in result.get("views", {}).items():
        if errors:
            problems.append("%s: the %s view raised %s" % (where, view, errors))
    names = [p["name"] for p in result["profiles"]]
    want_names = [e["name"] for e in expected]
    if names != want_names:
        problems.append("%s: profiles %s, expected %s" % (where, names, want_names))
        return problems
    for p, e in zip(result["profiles"], expected):
        what = "%s: %s" % (where, p["name"])
        n = to_count(p["totalWeight"], w, what, problems)
        if n != e["count"]:
            problems.append("%s: %d samples in speedscope, %d replayed" % (what, n, e["count"]))
        shown = {}
        for f in p["frames"]:
            k = shown_key(f)
            if k in shown:
                problems.append("%s: frame %r twice" % (what, k))
            shown[k] = [to_count(f["self"], w, what, problems),
                        to_count(f["total"], w, what, problems)]
        if shown != e["weights"]:
            for k in sorted(set(shown) | set(e["weights"]), key=repr):
                if shown.get(k) != e["weights"].get(k):
                    problems.append("%s: %r self/total %s in speedscope, %s replayed"
                                    % (what, k, shown.get(k), e["weights"].get(k)))
        if "timeline" in p:
            frames = [shown_key(f) for f in p["frames"]]
            got = [[[frames[i] for i in stack], to_count(weight, w, what, problems)]
                   for stack, weight in p["timeline"]]
            if got != e["timeline"]:
                for i, (a, b) in enumerate(zip(got, e["timeline"])):
                    if a != b:
                        problems.append("%s: time order differs at run %d: %r, replayed %r"
                                        % (what, i, a, b))
                        break
                else:
                    problems.append("%s: %d runs in time order, %d replayed"
                                    % (what, len(got), len(e["timeline"])))
    return problems


def file_checks(out, info, flt, source_name):
    """What the file says besides its samples."""
    problems = []
    with open(out, "rb") as fh:
        d = strict_json(fh.read())
    if d.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
        problems.append("$schema is %r" % d.get("$schema"))
    if d.get("name") != source_name:
        problems.append("name %r, expected %r" % (d.get("name"), source_name))
    w = seconds_per_sample(info) * 1000.0
    unit = "milliseconds" if w > 0 else "none"
    for p in d["profiles"]:
        if p["type"] != "sampled" or p["unit"] != unit:
            problems.append("%s: type %s, unit %s" % (p["name"], p["type"], p["unit"]))
        if len(p["samples"]) != len(p["weights"]):
            problems.append("%s: %d samples, %d weights" % (p["name"], len(p["samples"]),
                                                             len(p["weights"])))
        if unit == "milliseconds" and any(x != w for x in p["weights"]):
            problems.append("%s: weights are not %r ms" % (p["name"], w))
        if abs(p["endValue"] - p["startValue"] - len(p["samples"]) * (w if w > 0 else 1)) > 1e-6 * max(1, p["endValue"]):
            problems.append("%s: endValue %r for %d samples" % (p["name"], p["endValue"],
                                                                len(p["samples"])))
    mains = [i for i, p in enumerate(d["profiles"]) if "main)" in p["name"]]
    if d["profiles"] and d["activeProfileIndex"] != (mains[0] if mains else 0):
        problems.append("activeProfileIndex %r, main thread at %r" % (d["activeProfileIndex"], mains))
    return problems, (w if w > 0 else 1.0)


def collapsed_counts(text):
    """Per thread id: samples; per (tid, leaf frame text): self samples."""
    per_tid = collections.Counter()
    leaves = collections.Counter()
    for line in text.split("\n"):
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        parts = stack.split(";")
        tid = int(parts[0][4:])
        per_tid[tid] += int(count)
        leaves[(tid, parts[-1])] += int(count)
    return per_tid, leaves


def check_against_collapsed(env, path, flt, result, w):
    """speedscope's per-thread samples and (with --merge line) per-line self
    samples against the model's --export collapsed with the same filters."""
    problems = []
    args = [a for a in flt.args() if a not in ("--merge", flt.merge)]
    per_tid, leaves = collapsed_counts(env.collapsed(path, *args))
    got = collections.Counter()
    got_leaves = collections.Counter()
    for p in result["profiles"]:
        tid = int(p["name"].split()[1])
        got[tid] += to_count(p["totalWeight"], w, p["name"], problems)
        for f in p["frames"]:
            if flt.merge == "line" and f["self"] > 0:
                file = f.get("file", "~")
                text = f["name"] if file == "~" and "line" not in f else \
                    "%s:%s:%d" % (file.rsplit("/", 1)[-1], f["name"], f.get("line", 0))
                got_leaves[(tid, text)] += to_count(f["self"], w, p["name"], problems)
    if got != per_tid:
        problems.append("samples per thread: speedscope %s, collapsed %s"
                        % (dict(got), dict(per_tid)))
    if flt.merge == "line" and got_leaves != leaves:
        diff = set(got_leaves.items()) ^ set(leaves.items())
        problems.append("self samples per line differ from collapsed: %s" % sorted(diff)[:10])
    return problems


def speedscope_cases(env, items, timeline=True, collapsed=True):
    """ITEMS: (name, path, Filter).  One browser for all.  COLLAPSED: check
    against --export collapsed too (whose lines cannot hold a newline)."""
    outs = []
    for name, path, flt in items:
        outs.append(env.export("speedscope", path, *flt.args(),
                               out=os.path.join(env.tmp, "%d.speedscope.json" % len(outs))))
    results = speedscope.load(outs, timeline=timeline)
    cases = []
    for (name, path, flt), out, result in zip(items, outs, results):
        def case(path=path, flt=flt, out=out, result=result):
            info = env.info(path)
            problems, w = file_checks(out, info, flt, os.path.basename(path))
            replay = Replay(env, path)
            problems += compare_speedscope(result, expected_speedscope(replay, flt), w,
                                           os.path.basename(path))
            if collapsed and not result.get("error"):
                problems += check_against_collapsed(env, path, flt, result, w)
            return problems
        cases.append((name, case))
    return cases


# ---------------------------------------------------------------------------
# gecko
# ---------------------------------------------------------------------------

def is_python_file(filename):
    return not filename.startswith("<") or filename in ("<stdin>", "<string>")


def library_of(filename):
    """The resource of a file, which the Firefox Profiler shows as a
    function's library: the base name of a path (as the collector), the
    whole of a name in angle brackets (unlike the collector, which takes
    what follows a '/' there too).  The function's file name is the whole
    path, where the collector writes its base name: the Firefox Profiler
    would make one function of two files' with one base name."""
    if is_python_file(filename) and "/" in filename:
        return filename.rsplit("/", 1)[-1]
    return filename


def gecko_frame_key(replay, fi, merge):
    """A frame as the export makes it: function name, file (of Python
    code), resource name, whether Python, line, column."""
    filename, funcname, ln, _eln, col, _ecol, _op = replay.frames[fi]
    merge = merge or "frame"
    python = is_python_file(filename)
    line = ln if merge != "function" else -1
    column = col if merge in ("instruction", "frame") and line != -1 and col >= 0 else None
    # Unlike the collector, the whole path (see library_of()).
    return (funcname, filename if python else None, library_of(filename), python,
            None if line in (-1, 0) else line, column)


def expected_markers(replay, samples, end, base):
    """The markers the collector's collect() and _finalize_markers() make
    from one thread's samples (time order), as (name, start, end)."""
    markers = []
    start = {}
    initialized = False

    def t_of(ts):
        return (ts - base) / 1000

    def close(name, t):
        if name in start:
            markers.append((name, start.pop(name), t))

    def track(cond, active, inactive, t):
        if not initialized:
            start[active if cond else inactive] = t
            return
        if cond:
            start.setdefault(active, t)
            close(inactive, t)
        else:
            start.setdefault(inactive, t)
            close(active, t)

    for ts, status, stack in samples:
        t = t_of(ts)
        gil, cpu = bool(status & 0x01), bool(status & 0x02)
        track(gil, "Has GIL", "No GIL", t)
        track(cpu, "On CPU", "Off CPU", t)
        if gil:
            track(True, "Python Code", "Native Code", t)
        elif cpu:
            track(True, "Native Code", "Python Code", t)
        elif initialized:
            close("Python Code", t)
            close("Native Code", t)
        if status & 0x08:
            start.setdefault("Waiting for GIL", t)
        else:
            close("Waiting for GIL", t)
        track(bool(status & 0x10), "Has Exception", "No Exception", t)
        if replay.has_gc(stack):
            start.setdefault("GC Collecting", t)
        else:
            close("GC Collecting", t)
        initialized = True
    for name, _ in MARKERS:
        close(name, t_of(end))
    return markers


def check_gecko_tables(d):
    problems = []
    if list(d) != ["meta", "libs", "threads", "pages", "shared"]:
        problems.append("top-level keys %s" % list(d))
    meta = d["meta"]
    if list(meta) != GECKO_META_KEYS:
        problems.append("meta keys %s" % list(meta))
    if meta.get("version") != 32 or meta.get("preprocessedProfileVersion") != 57:
        problems.append("versions %r %r" % (meta.get("version"), meta.get("preprocessedProfileVersion")))
    if [c["name"] for c in meta["categories"]] != CATEGORIES:
        problems.append("categories %s" % [c["name"] for c in meta["categories"]])
    strings = d["shared"]["stringArray"]
    if not strings or strings[0] != "(root)":
        problems.append("the string array does not start with (root)")
    if len(set(strings)) != len(strings):
        problems.append("a string is in the string array twice")
    for t in d["threads"]:
        where = t.get("name")
        if list(t) != GECKO_THREAD_KEYS:
            problems.append("%s: keys %s" % (where, list(t)))
            continue
        for table, columns in GECKO_TABLES.items():
            tab = t[table]
            for c in columns:
                if len(tab[c]) != tab["length"]:
                    problems.append("%s: %s.%s has %d entries, length %d"
                                    % (where, table, c, len(tab[c]), tab["length"]))
        st, fr, fu, rs, mk, sm = (t["stackTable"], t["frameTable"], t["funcTable"],
                                  t["resourceTable"], t["markers"], t["samples"])
        for i in range(st["length"]):
            p = st["prefix"][i]
            if not (p is None or 0 <= p < i) or not 0 <= st["frame"][i] < fr["length"]:
                problems.append("%s: stack %d: prefix %r, frame %r" % (where, i, p, st["frame"][i]))
            elif st["category"][i] != fr["category"][st["frame"][i]]:
                problems.append("%s: stack %d's category is not its frame's" % (where, i))
        for i in range(fr["length"]):
            f = fr["func"][i]
            if not 0 <= f < fu["length"]:
                problems.append("%s: frame %d: func %r" % (where, i, f))
            elif fr["category"][i] != (1 if fu["isJS"][f] else 2):
                problems.append("%s: frame %d's category" % (where, i))
        for i in range(fu["length"]):
            if not 0 <= fu["name"][i] < len(strings) or not 0 <= fu["resource"][i] < rs["length"]:
                problems.append("%s: func %d: name or resource out of range" % (where, i))
            fn = fu["fileName"][i]
            if (fn is None) == fu["isJS"][i] or (fn is not None and not 0 <= fn < len(strings)):
                problems.append("%s: func %d: fileName %r, isJS %r" % (where, i, fn, fu["isJS"][i]))
            if fu["isJS"][i] != fu["relevantForJS"][i]:
                problems.append("%s: func %d: isJS and relevantForJS differ" % (where, i))
        if any(not 0 <= n < len(strings) for n in rs["name"]):
            problems.append("%s: a resource name out of range" % where)
        if any(not 0 <= s < st["length"] for s in sm["stack"]):
            problems.append("%s: a sample's stack out of range" % where)
        if any(a > b for a, b in zip(sm["time"], sm["time"][1:])):
            problems.append("%s: the samples are not in time order" % where)
        for i in range(mk["length"]):
            name = strings[mk["name"][i]]
            data = mk["data"][i]
            if name not in MARKER_INDEX or mk["category"][i] != MARKERS[MARKER_INDEX[name]][1] \
                    or mk["phase"][i] != 1 or data["type"] != name.replace(" ", "") \
                    or data["tid"] != t["tid"] or mk["startTime"][i] > mk["endTime"][i] \
                    or data["duration"] != mk["endTime"][i] - mk["startTime"][i]:
                problems.append("%s: marker %d: %r %r" % (where, i, name, data))
    return problems


def gecko_stack(t, strings, index):
    st, fr, fu, rs = t["stackTable"], t["frameTable"], t["funcTable"], t["resourceTable"]
    out = []
    while index is not None:
        f = st["frame"][index]
        fn = fr["func"][f]
        file_name = fu["fileName"][fn]
        out.append((strings[fu["name"][fn]], None if file_name is None else strings[file_name],
                    strings[rs["name"][fu["resource"][fn]]], fu["isJS"][fn], fr["line"][f],
                    fr["column"][f]))
        index = st["prefix"][index]
    return out[::-1]


def tid_json(tid):
    return tid if tid <= MAX_SAFE else str(tid)


def expected_in_profiler(replay, key, samples, flt, end):
    """What the Firefox Profiler should show of one thread: its samples,
    each function's self and total (a function per file and name, as the
    model has them), and its markers as (name, category, start,
    duration)."""
    weights = collections.defaultdict(lambda: [0, 0])
    count = 0
    for ts, status, stack in samples:
        view = replay.view(flt, stack)
        if not view:
            continue
        count += 1
        funcs = [(replay.frames[fi][0], replay.frames[fi][1]) for fi in view]
        weights[funcs[-1]][0] += 1
        for f in set(funcs):
            weights[f][1] += 1
    functions = sorted((name, library_of(filename), s, t)
                       for (filename, name), (s, t) in weights.items())
    markers = sorted((name, CATEGORIES[MARKERS[MARKER_INDEX[name]][1]], s, e - s)
                     for name, s, e in expected_markers(replay, samples, end, replay.first))
    tid, iid = key
    return {"name": "Thread-%d" % tid + (" (interpreter %d)" % iid if iid else ""), "tid": tid,
            "samples": count, "functions": functions, "markers": markers,
            "first": (samples[0][0] - replay.first) / 1000 if samples else None,
            "last": (samples[-1][0] - replay.first) / 1000 if samples else None}


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def same_markers(got, want):
    return len(got) == len(want) and all(
        g[:2] == w[:2] and close(g[2], w[2]) and g[3] is not None and close(g[3], w[3])
        for g, w in zip(got, want))


def compare_profiler(result, expected, interval):
    """The Firefox Profiler's RESULT (firefox_profiler.load()) against
    EXPECTED: per thread what expected_in_profiler() gives.  INTERVAL: the
    time a sample stands for."""
    if result["error"]:
        return ["the Firefox Profiler refused the file: " + result["error"]]
    problems = []
    # The time profiled (meta.profilingStartTime and profilingEndTime):
    # from the first sample selected to the time the last one stands for.
    # The profiler's times start there.
    zero, end = result["range"]
    want = (min(e["first"] for e in expected), max(e["last"] for e in expected) + interval)
    if not (close(zero, want[0]) and close(end, want[1])):
        problems.append("the Firefox Profiler's range is %r, expected %r" % (result["range"], want))
    names = [t["name"] for t in result["threads"]]
    if names != [e["name"] for e in expected]:
        return problems + ["threads in the Firefox Profiler %s, expected %s"
                           % (names, [e["name"] for e in expected])]
    for got, want in zip(result["threads"], expected):
        where = "Firefox Profiler, " + got["name"]
        if str(got["tid"]) != str(want["tid"]):
            problems.append("%s: tid %r, expected %r" % (where, got["tid"], want["tid"]))
        if got["samples"] != want["samples"]:
            problems.append("%s: %d samples, %d replayed" % (where, got["samples"], want["samples"]))
        functions = sorted(tuple(f) for f in got["functions"])
        if functions != want["functions"]:
            extra = sorted(set(functions) - set(want["functions"]))
            missing = sorted(set(want["functions"]) - set(functions))
            problems.append("%s: functions (name, library, self, total) differ: shown but not "
                            "replayed %s; replayed but not shown %s"
                            % (where, extra[:8], missing[:8]))
        markers = sorted((name, category, start + zero, duration)
                         for name, category, start, duration in got["marker_list"])
        if not same_markers(markers, want["markers"]):
            problems.append("%s: %d markers, %d expected" % (where, len(markers),
                                                             len(want["markers"])))
            for i, (a, b) in enumerate(zip(markers, want["markers"])):
                if not same_markers([a], [b]):
                    problems.append("%s: marker %d: %r, expected %r" % (where, i, a, b))
                    break
        # The profiler's own summary: per name and category, how many and
        # how long in all.
        summary = {}
        for name, category, _s, duration in want["markers"]:
            entry = summary.setdefault((name, category), [0, 0.0])
            entry[0] += 1
            entry[1] += duration
        shown = {tuple(k): v for k, v in got["markers"].items()}
        if set(shown) != set(summary) or any(
                shown[k][0] != summary[k][0] or not close(shown[k][1], summary[k][1])
                for k in summary):
            problems.append("%s: markers by name and category %s, expected %s"
                            % (where, sorted(shown.items()), sorted(summary.items())))
        if got["marker_count"] != len(want["markers"]):
            problems.append("%s: thread list says %d markers, %d expected"
                            % (where, got["marker_count"], len(want["markers"])))
    return problems


def collapsed_functions(text):
    """Per (thread id, name, library): [self, total], from --export
    collapsed (a frame is "basename:funcname:line", or "funcname" for a
    "~" frame; the names must hold no ':' or ';')."""
    out = collections.defaultdict(lambda: [0, 0])
    for line in text.split("\n"):
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        parts = stack.split(";")
        tid = int(parts[0][4:])
        funcs = []
        for frame in parts[1:]:
            fields = frame.split(":")
            funcs.append((fields[0], "~") if len(fields) == 1 else (fields[1], fields[0]))
        out[(tid,) + funcs[-1]][0] += int(count)
        for f in set(funcs):
            out[(tid,) + f][1] += int(count)
    return dict(out)


NO_SAMPLES = "No samples to export: the Firefox Profiler cannot open a profile without samples"


def check_gecko(env, path, flt, collapsed=True, mutate=None):
    """The problems of --export gecko of PATH with the filters FLT: the file
    itself, what the Firefox Profiler shows of it, against the replay and
    the model.  MUTATE: a function that breaks the file's JSON first, to
    show that the checks see it."""
    replay = Replay(env, path)
    out = os.path.join(env.tmp, os.path.basename(path) + ".gecko.json")
    if not any(replay.selected(flt, key) for key in replay.threads):
        # The Firefox Profiler refuses a profile without threads: so does
        # the export, before it writes anything.
        rc, stdout, err = env.run("--export", "gecko", "-o", out, *flt.args(), path)
        if rc != 1 or NO_SAMPLES not in err or stdout or os.path.exists(out):
            return ["nothing selected: exit %d, stderr %r, OUT %s" % (rc, err, os.path.exists(out))]
        return []
    out = env.export("gecko", path, *flt.args(), out=out)
    with open(out, "rb") as fh:
        d = strict_json(fh.read())
    if mutate is not None:
        mutate(d)
        with open(out, "w", encoding="utf-8") as fh:
            json.dump(d, fh, ensure_ascii=False)
    problems = []
    try:
        problems += check_gecko_tables(d)
    except (KeyError, IndexError, TypeError) as e:
        problems.append("the file's tables are malformed: %s: %s" % (type(e).__name__, e))
    info = env.info(path)
    strings = d["shared"]["stringArray"]
    w = seconds_per_sample(info) * 1000.0
    if d["meta"]["interval"] != (w if w > 0 else 1.0):
        problems.append("interval %r, expected %r" % (d["meta"]["interval"], w))

    selected = {key: replay.selected(flt, key) for key in sorted(replay.threads)}
    selected = {k: v for k, v in selected.items() if v}
    end = max((s[0] for v in selected.values() for s in v), default=0)
    if d["meta"]["startTime"] != replay.first / 1000:
        problems.append("startTime %r, expected %r" % (d["meta"]["startTime"], replay.first / 1000))
    # The time profiled: from the first sample selected to the time the
    # last one stands for (the Firefox Profiler shows only that).
    first = min(s[0] for v in selected.values() for s in v)
    profiled = ((first - replay.first) / 1000, (end - replay.first) / 1000 + (w if w > 0 else 1.0))
    if (d["meta"]["profilingStartTime"], d["meta"]["profilingEndTime"]) != profiled:
        problems.append("profiling start and end %r, expected %r"
                        % ((d["meta"]["profilingStartTime"], d["meta"]["profilingEndTime"]),
                           profiled))
    names = [t["name"] for t in d["threads"]]
    want = ["Thread-%d" % tid + (" (interpreter %d)" % iid if iid else "") for tid, iid in selected]
    if names != want:
        return problems + ["threads %s, expected %s" % (names, want)]
    for t, (key, samples) in zip(d["threads"], selected.items()):
        try:
            problems += check_gecko_thread(replay, flt, strings, end, t, key, samples)
        except (KeyError, IndexError, TypeError) as e:
            problems.append("%s: malformed: %s: %s" % (t["name"], type(e).__name__, e))
    # What the Firefox Profiler's own code makes of the file.
    result = firefox_profiler.load(out)
    expected = [expected_in_profiler(replay, key, samples, flt, end)
                for key, samples in selected.items()]
    problems += compare_profiler(result, expected, w if w > 0 else 1.0)
    return problems + check_gecko_model(env, path, flt, info, replay, selected, d, result,
                                        collapsed)


def check_gecko_thread(replay, flt, strings, end, t, key, samples):
    """One thread of the file against the replay."""
    problems = []
    where = t["name"]
    if t["tid"] != tid_json(key[0]):
        problems.append("%s: tid %r" % (where, t["tid"]))
    if t["isMainThread"] != bool(samples[0][1] & MAIN_THREAD):
        problems.append("%s: isMainThread %r" % (where, t["isMainThread"]))
    want_samples = []
    for ts, status, stack in samples:
        view = replay.view(flt, stack)
        if view:
            want_samples.append(((ts - replay.first) / 1000,
                                 [gecko_frame_key(replay, fi, flt.merge) for fi in view]))
    got = [(time, gecko_stack(t, strings, s))
           for time, s in zip(t["samples"]["time"], t["samples"]["stack"])]
    if got != want_samples:
        problems.append("%s: %d samples, %d replayed" % (where, len(got), len(want_samples)))
        for i, (a, b) in enumerate(zip(got, want_samples)):
            if a != b:
                problems.append("%s: sample %d: %r, replayed %r" % (where, i, a, b))
                break
    mk = t["markers"]
    got_markers = [(strings[n], s, e) for n, s, e in zip(mk["name"], mk["startTime"],
                                                        mk["endTime"])]
    want_markers = expected_markers(replay, samples, end, replay.first)
    if got_markers != want_markers:
        problems.append("%s: %d markers, %d expected" % (where, len(got_markers),
                                                         len(want_markers)))
        for i, (a, b) in enumerate(zip(got_markers, want_markers)):
            if a != b:
                problems.append("%s: marker %d: %r, expected %r" % (where, i, a, b))
                break
    # Every stack once: the collector shares stacks by (frame, prefix).
    st = t["stackTable"]
    pairs = list(zip(st["frame"], st["prefix"]))
    if len(set(pairs)) != len(pairs):
        problems.append("%s: a stack is in the stack table twice" % where)
    frames = list(zip(t["frameTable"]["func"], t["frameTable"]["line"],
                      t["frameTable"]["column"]))
    if len(set(frames)) != len(frames):
        problems.append("%s: a frame is in the frame table twice" % where)
    return problems


def check_gecko_model(env, path, flt, info, replay, selected, d, result, collapsed):
    """What the Firefox Profiler shows against the model's own counts."""
    problems = []
    if result["error"]:
        return problems
    if not flt.args():
        # The model's count of each thread's samples: those without frames
        # are not in the file.
        counts = {(t["thread_id"], t["interpreter_id"]): t["samples"]
                  for t in info["decoded"]["threads"]}
        for got, (key, samples) in zip(result["threads"], selected.items()):
            empty = sum(1 for s in samples if not replay.view(flt, s[2]))
            if got["samples"] + empty != counts.get(key):
                problems.append("%s: %d samples in the Firefox Profiler and %d without frames, "
                                "--info says %r" % (got["name"], got["samples"], empty,
                                                    counts.get(key)))
    if not collapsed:
        return problems
    # The model's own counts, per thread id: the samples with a stack, and
    # each function's self and total.
    text = env.collapsed(path, *[a for a in flt.args() if a not in ("--merge", flt.merge)])
    per_tid, _ = collapsed_counts(text)
    got = collections.Counter()
    for t in d["threads"]:
        got[int(str(t["tid"]))] += len(t["samples"]["stack"])
    if +got != per_tid:
        problems.append("samples per thread %s, collapsed %s" % (dict(got), dict(per_tid)))
    # Per thread id, name and library: the self samples, and the totals of
    # the functions shown so (one per file: collapsed, which names a file
    # by its base name, counts a sample once for all of them).
    shown = collections.defaultdict(lambda: [0, []])
    profiler_counts = collections.Counter()
    for t in result["threads"]:
        tid = int(str(t["tid"]))
        profiler_counts[tid] += t["samples"]
        for name, library, s, total in t["functions"]:
            shown[(tid, name, library)][0] += s
            shown[(tid, name, library)][1].append(total)
    if +profiler_counts != per_tid:
        problems.append("samples per thread in the Firefox Profiler %s, collapsed %s"
                        % (dict(profiler_counts), dict(per_tid)))
    model = collapsed_functions(text)
    diff = []
    for k in sorted(set(shown) | set(model), key=repr):
        if k not in shown or k not in model:
            diff.append((k, shown.get(k), model.get(k)))
            continue
        s, totals = shown[k]
        ms, mt = model[k]
        if s != ms or not (max(totals) <= mt <= sum(totals)) or (len(totals) == 1 and mt != totals[0]):
            diff.append((k, shown[k], model[k]))
    if diff:
        problems.append("self/total per function in the Firefox Profiler and in --export "
                        "collapsed (key, profiler, collapsed): %s" % diff[:8])
    return problems


# ---------------------------------------------------------------------------
# Profiles made for the tests
# ---------------------------------------------------------------------------

def hostile_profile(env):
    return env.profile("hostile.tach")


def states_profile(env):
    return env.profile("states.tach")


def base_names_profile(env):
    return env.profile("base_names.tach")


def filter_items(env):
    threads = os.path.join(env.data, "valid", "rec_threads.tach")
    two = os.path.join(env.data, "valid", "two_interpreters.tach")
    recursive = os.path.join(env.data, "valid", "rec_recursive.tach")
    states = states_profile(env)
    replay = Replay(env, threads)
    tids = sorted({k[0] for k in replay.threads})
    info = env.info(threads)
    start = info["start_time_us"]
    first = (info["decoded"]["first_timestamp_us"] - start) / 1e6
    last = (info["decoded"]["last_timestamp_us"] - start) / 1e6
    mid = round((first + last) / 2, 3)
    items = [
        ("one thread", threads, Filter(threads=[tids[0]])),
        ("two threads", threads, Filter(threads=[tids[1], tids[-1]])),
        ("a thread id in two interpreters", two, Filter(threads=[sorted(Replay(env, two).threads)[0][0]])),
        ("a range", threads, Filter(ranges=[(round(first, 3), mid)])),
        ("two ranges", threads, Filter(ranges=[(round(first, 3), round(first + 0.2, 3)),
                                               (mid, round(last + 1, 3))])),
        ("focus", threads, Filter(focus=most_common_function(replay))),
        ("hide", threads, Filter(hide=[most_common_function(replay)[1]])),
        ("collapse recursion", recursive, Filter(collapse=True)),
        ("merge by line", threads, Filter(merge="line")),
        ("merge by instruction", states, Filter(merge="instruction")),
        ("merge by frame with a state", states, Filter(merge="frame", state="gil")),
    ]
    for state in STATE_BITS:
        items.append(("--state %s" % state, states, Filter(state=state)))
    # Nothing: speedscope says so, the gecko export refuses.
    items.append(("a state no sample has", os.path.join(env.data, "valid", "tiny.tach"),
                  Filter(state="gil-wait")))
    items.append(("everything at once", states,
                  Filter(threads=[11], state="cpu", ranges=[(0.05, 0.3)], hide=["compress"],
                         focus=("/srv/app/main.py", "main"), collapse=True, merge="line")))
    return items


def most_common_function(replay):
    """The (file, name) on the most stacks, not the launcher."""
    counter = collections.Counter()
    for samples in replay.threads.values():
        for _, _, stack in samples:
            for fi in set(stack):
                f = replay.frames[fi]
                if not f[0].endswith(INTERNAL_SUFFIX):
                    counter[(f[0], f[1])] += 1
    # Not the outermost frames: a function in the middle tests more.
    ranked = counter.most_common()
    return ranked[min(3, len(ranked) - 1)][0]


# ---------------------------------------------------------------------------
# Groups
# ---------------------------------------------------------------------------

def group_speedscope_corpus(env, tap):
    items = [(os.path.basename(p), p, Filter()) for p in env.valid_files()
             if os.path.basename(p) not in BIG]
    for name, fn in speedscope_cases(env, items):
        tap.run("speedscope shows what %s holds" % name, fn)


def group_speedscope_filters(env, tap):
    items = filter_items(env)
    for name, fn in speedscope_cases(env, items):
        tap.run("speedscope: %s" % name, fn)


def group_speedscope_hostile(env, tap):
    hostile = hostile_profile(env)
    items = [("hostile names", hostile, Filter()),
             ("hostile names by instruction", hostile, Filter(merge="instruction")),
             ("every state", states_profile(env), Filter())]
    for name, fn in speedscope_cases(env, items, collapsed=False):
        tap.run("speedscope: %s" % name, fn)

    def names_as_they_are():
        out = env.export("speedscope", hostile)
        with open(out, "rb") as fh:
            d = strict_json(fh.read())
        names = {f["name"] for f in d["shared"]["frames"]}
        missing = set(profiles.HOSTILE_FUNCS) - {"<GC>"} - names
        return ["names changed or lost: %r" % sorted(missing)[:5]] if missing else []
    tap.run("speedscope: every hostile name in the file, unchanged", names_as_they_are)


def group_gecko_corpus(env, tap):
    for path in env.valid_files():
        if os.path.basename(path) in BIG:
            continue
        tap.run("gecko: %s" % os.path.basename(path), lambda path=path: check_gecko(env, path, Filter()))


def group_gecko_filters(env, tap):
    for name, path, flt in filter_items(env):
        tap.run("gecko: %s (%s)" % (name, flt.describe()),
                lambda path=path, flt=flt: check_gecko(env, path, flt))


def group_gecko_hostile(env, tap):
    hostile = hostile_profile(env)
    states = states_profile(env)
    tap.run("gecko: hostile names", lambda: check_gecko(env, hostile, Filter(), collapsed=False))
    tap.run("gecko: every state", lambda: check_gecko(env, states, Filter()))
    # Collapsed names a file in angle brackets by what follows its '/'.
    tap.run("gecko: two files of one base name, in the Firefox Profiler apart",
            lambda: check_gecko(env, base_names_profile(env), Filter(), collapsed=False))

    def names():
        out = env.export("gecko", hostile)
        with open(out, "rb") as fh:
            d = strict_json(fh.read())
        missing = set(profiles.HOSTILE_FUNCS) - set(d["shared"]["stringArray"])
        return ["names changed or lost: %r" % sorted(missing)[:5]] if missing else []
    tap.run("gecko: every hostile name in the string array, unchanged", names)

    def every_marker():
        out = env.export("gecko", states)
        with open(out, "rb") as fh:
            d = strict_json(fh.read())
        strings = d["shared"]["stringArray"]
        seen = {strings[n] for t in d["threads"] for n in t["markers"]["name"]}
        missing = {m for m, _ in MARKERS} - seen
        tids = [t["tid"] for t in d["threads"]]
        problems = ["markers never made: %s" % sorted(missing)] if missing else []
        if str(2 ** 64 - 1) not in tids:
            problems.append("the 64-bit thread id is not a string: %r" % tids)
        return problems
    tap.run("gecko: every kind of marker, and a 64-bit thread id", every_marker)


def busiest(d):
    return max(d["threads"], key=lambda t: t["samples"]["length"])


def other_leaf_stack(d):
    """A sample's stack made another one, of another leaf function."""
    t = busiest(d)
    st, fr = t["stackTable"], t["frameTable"]
    first = t["samples"]["stack"][0]
    leaf = fr["func"][st["frame"][first]]
    for i in range(st["length"]):
        if fr["func"][st["frame"][i]] != leaf:
            t["samples"]["stack"][0] = i
            return
    raise AssertionError("no stack of another leaf")


def swap_times(d):
    time = busiest(d)["samples"]["time"]
    time[0], time[1] = time[1], time[0]


def late_time(d):
    time = busiest(d)["samples"]["time"]
    time[len(time) // 2] = time[-1] + 1000.0


def drop_column(d):
    del busiest(d)["frameTable"]["line"]


def drop_sample(d):
    samples = busiest(d)["samples"]
    for column in ("stack", "time", "eventDelay"):
        del samples[column][-1]
    samples["length"] -= 1


def later_marker_end(d):
    markers = busiest(d)["markers"]
    markers["endTime"][0] += 1.0


def cut_prefix(d):
    st = busiest(d)["stackTable"]
    i = max(i for i in range(st["length"]) if st["prefix"][i] is not None)
    st["prefix"][i] = None


def renamed_function(d):
    fu = busiest(d)["funcTable"]
    fu["name"][0] = 0               # "(root)"


def wrong_tid(d):
    busiest(d)["tid"] += 1


BROKEN = [
    ("a sample's stack is another stack", other_leaf_stack, True),
    # Within the time profiled, the Firefox Profiler does not mind the
    # order; the file's checks do.
    ("two samples' times swapped", swap_times, False),
    ("a sample a second after the last", late_time, True),
    ("the frame table without its line column", drop_column, True),
    ("a thread's last sample left out", drop_sample, True),
    ("a marker that ends a millisecond late", later_marker_end, True),
    ("a stack without its prefix", cut_prefix, True),
    ("a function with another name", renamed_function, True),
    ("a thread with another id", wrong_tid, True),
]


def group_gecko_broken(env, tap):
    """Each way of breaking the file must fail the checks, and where the
    Firefox Profiler can see it, its part of them."""
    path = os.path.join(env.data, "valid", "rec_threads.tach")
    for name, mutate, profiler_sees in BROKEN:
        def case(mutate=mutate, profiler_sees=profiler_sees):
            problems = check_gecko(env, path, Filter(), mutate=mutate)
            if not problems:
                return ["the checks found nothing wrong"]
            if profiler_sees and not any("Firefox Profiler" in p for p in problems):
                return ["only the file's checks saw it, not the Firefox Profiler's:"] + problems
            seen = [p for p in problems if "Firefox Profiler" in p] or problems
            print("# caught: %s" % seen[0].splitlines()[0][:300])
            return []
        tap.run("gecko: %s fails the checks" % name, case)


def peak_rss_of(env, args):
    """The peak resident size of one run, in bytes (its own rusage: the
    parent stays small while it runs, since a child's count starts with the
    parent's pages it was forked from)."""
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env.env)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode("utf-8", "replace")
    p.stderr.close()
    if p.returncode != 0:
        raise AssertionError("%s failed: %s" % (" ".join(args), err))
    return usage.ru_maxrss * 1024


def group_size(env, tap):
    big = os.path.join(env.tmp, "big.tach")
    subprocess.run([env.bench, "--generate", "1000000", big], check=True, timeout=900,
                   stdout=subprocess.DEVNULL)
    # First every measurement, while this process is small.
    load_rss = peak_rss_of(env, [env.exe, "--export", "html", "-o", os.devnull, big])
    outs, rss = {}, {}
    for fmt in ("speedscope", "gecko"):
        outs[fmt] = os.path.join(env.tmp, "big." + fmt + ".json")
        rss[fmt] = peak_rss_of(env, [env.exe, "--export", fmt, "-o", outs[fmt], big])
    info = env.info(big)
    per_tid, _ = collapsed_counts(env.collapsed(big))
    # What the per-sample exports may take beyond an export of the loaded
    # model that keeps nothing per sample (the HTML page): the node map and
    # the tables, which do not grow with the samples, while the files do.
    # Less than either file: one built in memory would not fit.  (12 MB
    # was too tight once the libraries the viewer links (json-glib,
    # GtkSourceView) and the shared tables grew: 12.4 MB measured.)
    margin = 16 * 1024 * 1024

    for fmt in ("speedscope", "gecko"):
        def case(fmt=fmt):
            out = outs[fmt]
            size = os.path.getsize(out)
            problems = []
            print("# --export %s of %d samples: %d MB, peak RSS %d MB (--export html %d MB)"
                  % (fmt, info["sample_count"], size >> 20, rss[fmt] >> 20, load_rss >> 20))
            if rss[fmt] > load_rss + margin:
                problems.append("peak RSS %d MB, --export html %d MB: not streamed?"
                                % (rss[fmt] >> 20, load_rss >> 20))
            with open(out, "rb") as fh:
                d = strict_json(fh.read())
            os.unlink(out)
            got = collections.Counter()
            if fmt == "speedscope":
                for prof in d["profiles"]:
                    got[int(prof["name"].split()[1])] += len(prof["samples"])
            else:
                for t in d["threads"]:
                    got[int(str(t["tid"]))] += t["samples"]["length"]
            del d
            if got != per_tid:
                problems.append("samples per thread %s, collapsed %s" % (dict(got), dict(per_tid)))
            return problems
        tap.run("--export %s streams 1M samples" % fmt, case)


def group_args(env, tap):
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    out = os.path.join(env.tmp, "refused.json")
    cases = [
        (["--inverted"], "--inverted does not apply to --export"),
        (["--zoom", "main"], "--zoom, --icicle and --search do not apply"),
        (["--icicle"], "--zoom, --icicle and --search do not apply"),
        (["--search", "main"], "--zoom, --icicle and --search do not apply"),
        (["--width", "400"], "--width, --colors and --dark"),
        (["--thread", "5"], "Thread 5 is not in this profile"),
        (["--focus", "nosuchfunction"], "nosuchfunction"),
        (["--merge", "nonsense"], "nonsense"),
        (["--baseline", tiny], "--baseline can only be used with --export html"),
    ]
    for fmt in ("speedscope", "gecko"):
        for extra, message in cases:
            def case(fmt=fmt, extra=extra, message=message):
                rc, stdout, err = env.run("--export", fmt, "-o", out, *extra, tiny)
                problems = []
                if rc != 1 or message not in err or stdout or os.path.exists(out):
                    problems.append("exit %d, stderr %r, stdout %r, OUT %s"
                                    % (rc, err, stdout[:100], os.path.exists(out)))
                return problems
            tap.run("--export %s %s: refused" % (fmt, " ".join(extra)), case)

        def existing_kept(fmt=fmt):
            with open(out, "w") as fh:
                fh.write("keep me")
            rc, _, err = env.run("--export", fmt, "-o", out, "--thread", "99",
                                 os.path.join(env.data, "valid", "tiny.tach"))
            with open(out) as fh:
                kept = fh.read()
            os.unlink(out)
            return [] if rc == 1 and kept == "keep me" else ["exit %d, OUT now %r" % (rc, kept[:50])]
        tap.run("--export %s that fails leaves an existing OUT as it was" % fmt, existing_kept)

        def to_stdout(fmt=fmt):
            rc, stdout, err = env.run("--export", fmt, "-o", "-", tiny)
            file_out = env.export(fmt, tiny)
            with open(file_out, "rb") as fh:
                same = fh.read() == stdout
            return [] if rc == 0 and same else ["exit %d, stdout differs from OUT: %s" % (rc, err)]
        tap.run("--export %s -o - writes the same bytes to standard output" % fmt, to_stdout)


def group_profiles(env, tap):
    """The reference suite: each profile of profiles.py written by the
    reference writer, tachgen.py fromjson, is what its description says as
    the reference reader reads it, and the very file the tests open: the
    library's writer writes the same bytes, and tests/data holds them for
    the one that only the reference can write."""
    spec = importlib.util.spec_from_file_location("tachgen", env.tachgen)
    tachgen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tachgen)
    for name, (describe, stored) in sorted(profiles.PROFILES.items()):
        def case(name=name, describe=describe, stored=stored):
            desc = describe()
            js = os.path.join(env.tmp, name + ".json")
            with open(js, "w", encoding="utf-8") as fh:
                json.dump(desc, fh)
            theirs = os.path.join(env.tmp, "reference-" + name)
            p = subprocess.run([sys.executable, env.tachgen, "fromjson", js, "-o", theirs],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
            if p.returncode != 0:
                return ["tachgen fromjson failed: " + p.stderr.decode("utf-8", "replace")]
            problems = tachprofile.differences(tachprofile.Described(desc),
                                               tachgen.TachReader(theirs),
                                               "the reference's " + name)
            with open(theirs, "rb") as fh:
                theirs_bytes = fh.read()
            if stored:
                with open(os.path.join(env.data, stored), "rb") as fh:
                    if fh.read() != theirs_bytes:
                        problems.append("tests/data/%s is not what the reference writes of "
                                        "profiles.%s(): run tests/data/make-expected.py"
                                        % (stored, describe.__name__))
            else:
                ours = tachprofile.write(env.tool, os.path.join(env.tmp, name), desc)
                with open(ours, "rb") as fh:
                    ours_bytes = fh.read()
                if ours_bytes != theirs_bytes:
                    at = next((i for i, (x, y) in enumerate(zip(ours_bytes, theirs_bytes))
                               if x != y), min(len(ours_bytes), len(theirs_bytes)))
                    problems.append("the library's writer writes %d bytes, the reference %d; "
                                    "they differ from byte %d" % (len(ours_bytes),
                                                                  len(theirs_bytes), at))
            return problems
        tap.run("profiles: %s, as the reference writes and reads it" % name, case)


GROUPS = {
    "speedscope-corpus": group_speedscope_corpus,
    "speedscope-filters": group_speedscope_filters,
    "speedscope-hostile": group_speedscope_hostile,
    "gecko-corpus": group_gecko_corpus,
    "gecko-filters": group_gecko_filters,
    "gecko-hostile": group_gecko_hostile,
    "gecko-broken": group_gecko_broken,
    "size": group_size,
    "args": group_args,
    "profiles": group_profiles,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("group", choices=sorted(GROUPS))
    a = ap.parse_args()
    env = Env(a.exe, a.bench, a.tool)
    if a.group == "profiles":
        env.tachgen = reference.find_tachgen()
        if env.tachgen is None:
            # Not a failure: run-tests.sh leaves the reference suite out
            # then, and says so.
            print("1..0 # SKIP the reference reader is not found: set TACHGEN to tachgen.py, "
                  "or put shared/ beside the source")
            return 0
    tap = testlib.Tap(max_problems=40)
    if a.group.startswith("gecko"):
        try:
            print("# the Firefox Profiler: %s %s" % (firefox_profiler.PACKAGE,
                                                   firefox_profiler.version()))
        except OSError:
            pass                    # each test says what is missing
    try:
        GROUPS[a.group](env, tap)
    except speedscope.HarnessError as e:
        tap.result("speedscope can be started", [str(e)])
    except firefox_profiler.HarnessError as e:
        tap.result("the Firefox Profiler can be started", [str(e)])
    except (AssertionError, RuntimeError) as e:
        # A profile of profiles.py that could not be made, or is not what
        # it describes.
        tap.result("the group's profiles can be made", [str(e)])
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
