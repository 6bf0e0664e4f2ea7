#!/usr/bin/env python3
"""--export pprof, read by decoders someone else wrote: the npm package
pprof-format (Datadog's), run with node through decode-pprof.mjs, and
Google's own, `go tool pprof` (Debian's golang-go).

Usage: test-pprof.py --exe PATH --tool PATH --node PATH [--go PATH] GROUP

GROUP is one of: corpus, filters, merge, args, go.  Prints TAP.

What the decoder reads is compared with the model's own exports and with
the samples the reference reader, tachgen.py, decodes (our decoder's,
through tach-tool, --tool, used once their digests are those of
tests/data/reference.json): the samples of each sample type add up to the
model's, every (thread, stack) adds up to the line of `--export collapsed`
with the same filters, the functions are the profile's, the labels count
the samples of each thread and status.  Nothing outside the repository is
needed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

PROG = "tachyon-viewer"
REJECTED_VALID = {"compression_type_7.tach"}
STATUS_NAMES = ["has_gil", "on_cpu", "unknown", "gil_requested", "has_exception",
                "main_thread"]
HERE = os.path.dirname(os.path.abspath(__file__))
# tests/tools is imported from the source tree: leave no __pycache__ there.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import testlib  # noqa: E402
from testlib import Tap  # noqa: E402


class Env(testlib.ViewerEnv):
    def __init__(self, args):
        super().__init__(args.exe, args.tool, language=False)
        self.node = args.node
        self.go = args.go
        self.tmp = tempfile.mkdtemp(prefix="tv-test-pprof-")

    def valid_files(self):
        return self.files("valid", REJECTED_VALID)

    def run(self, *args):
        return subprocess.run([self.exe, *args], capture_output=True, env=self.env, timeout=300)

    def decode(self, path):
        """What the client reads from PATH, or (None, its error)."""
        proc = subprocess.run([self.node, os.path.join(HERE, "decode-pprof.mjs"), path],
                              capture_output=True, timeout=300)
        if proc.returncode != 0:
            return None, proc.stderr.decode("utf-8", "replace")
        return json.loads(proc.stdout), None

    def export(self, path, *args):
        """--export pprof of PATH with ARGS, decoded; (profile, problems)."""
        out = os.path.join(self.tmp, os.path.basename(path) + ".pb.gz")
        proc = self.run("--export", "pprof", "-o", out, *args, path)
        if proc.returncode != 0:
            return None, ["exit %d: %s" % (proc.returncode, proc.stderr.decode())]
        profile, err = self.decode(out)
        os.unlink(out)
        if profile is None:
            return None, ["the client could not read it:\n" + err]
        return profile, []


def collapsed_lines(env, path, *filters):
    """{line text: count} of the model's collapsed export with FILTERS."""
    proc = env.run("--export", "collapsed", "-o", "-", *filters, path)
    if proc.returncode != 0:
        raise AssertionError("collapsed export failed: %s" % proc.stderr.decode())
    return testlib.parse_collapsed(proc.stdout)


def frame_text(function, line):
    """A frame as the collapsed export writes it."""
    if function["filename"] == "~" and line == 0:
        return function["name"]
    return "%s:%s:%d" % (function["filename"].rsplit("/", 1)[-1], function["name"], line)


def as_collapsed(profile):
    """The decoded samples as collapsed lines: {text: count}."""
    functions = {f["id"]: f for f in profile["functions"]}
    locations = {loc["id"]: loc for loc in profile["locations"]}
    lines = {}
    for s in profile["samples"]:
        frames = []
        for lid in reversed(s["locations"]):
            line = locations[lid]["lines"][0]
            frames.append(frame_text(functions[line["function_id"]], line["line"]))
        text = ";".join(["tid:" + s["labels"]["thread_id"]] + frames)
        lines[text] = lines.get(text, 0) + s["values"][0]
    return lines


def check_structure(profile, info):
    """What every profile must hold; INFO is --info --json."""
    problems = []
    kind = "cpu" if info["mode"] == "cpu" else "wall"
    if profile["first_string"] != "":
        problems.append("string_table[0] is %r" % profile["first_string"])
    if profile["sample_types"] != [{"type": "samples", "unit": "count"},
                                   {"type": kind, "unit": "nanoseconds"}]:
        problems.append("sample types %r" % profile["sample_types"])
    if profile["period_type"] != {"type": kind, "unit": "nanoseconds"}:
        problems.append("period type %r" % profile["period_type"])
    seconds = (1 / info["sample_rate"] if info["sample_rate"] else
               info["sample_interval_us"] / 1e6)
    if profile["period"] != round(seconds * 1e9):
        problems.append("period %d ns, one sample stands for %r s" % (profile["period"], seconds))
    function_ids = {f["id"] for f in profile["functions"]}
    location_ids = {loc["id"] for loc in profile["locations"]}
    if len(function_ids) != len(profile["functions"]) or 0 in function_ids:
        problems.append("function ids are not unique and nonzero")
    if len(location_ids) != len(profile["locations"]) or 0 in location_ids:
        problems.append("location ids are not unique and nonzero")
    # A system name makes go tool pprof "demangle" it into the name, which
    # empties "<module>".
    if any(f["system_name"] != "" or f["name"] == "" for f in profile["functions"]):
        problems.append("a function has a system name, or no name")
    for loc in profile["locations"]:
        if len(loc["lines"]) != 1 or loc["lines"][0]["function_id"] not in function_ids:
            problems.append("location %d: lines %r" % (loc["id"], loc["lines"]))
    for s in profile["samples"]:
        if any(lid not in location_ids for lid in s["locations"]) or not s["locations"]:
            problems.append("a sample with unknown locations: %r" % s["locations"])
            break
        if s["values"][1] != s["values"][0] * profile["period"] or s["values"][0] <= 0:
            problems.append("a sample's values %r" % s["values"])
            break
        if sorted(s["labels"]) != ["interpreter_id", "status", "thread_id"]:
            problems.append("a sample's labels %r" % s["labels"])
            break
    keys = [(json.dumps(s["locations"]), json.dumps(s["labels"], sort_keys=True))
            for s in profile["samples"]]
    if len(set(keys)) != len(keys):
        problems.append("two samples have the same stack and labels")
    return problems


def status_text(status):
    names = [STATUS_NAMES[b] if b < len(STATUS_NAMES) else "bit%d" % b
             for b in range(8) if status & (1 << b)]
    return ",".join(names) or "none"


def reference_counts(reader):
    """From the reference reader's samples (env.samples()), for the samples
    with a stack: the functions (file, name), and the samples per thread,
    interpreter and status."""
    functions, threads, statuses = set(), {}, {}
    for iid, tid, ts, st, stack in reader.iter_samples():
        names = [reader.frame_tuple(i)[:2] for i in stack]
        kept = [n for n in names if not n[0].endswith("_sync_coordinator.py")]
        if not kept:
            continue
        functions.update(kept)
        key = (str(tid), str(iid))
        threads[key] = threads.get(key, 0) + 1
        statuses[status_text(st)] = statuses.get(status_text(st), 0) + 1
    return functions, threads, statuses


def group_corpus(env, tap):
    for path in env.valid_files():
        name = os.path.basename(path)
        info = json.loads(env.run("--info", "--json", path).stdout)
        profile, problems = env.export(path)
        if profile is None:
            tap.result("corpus %s" % name, problems)
            continue
        problems += check_structure(profile, info)
        want = collapsed_lines(env, path)
        got = as_collapsed(profile)
        total = sum(s["values"][0] for s in profile["samples"])
        if got != want:
            missing = sorted(set(want.items()) - set(got.items()))[:3]
            extra = sorted(set(got.items()) - set(want.items()))[:3]
            problems.append("the (thread, stack) counts differ from --export collapsed:\n"
                            "  collapsed only: %r\n  pprof only: %r" % (missing, extra))
        if total != sum(want.values()):
            problems.append("%d samples, the model %d" % (total, sum(want.values())))
        if sum(s["values"][1] for s in profile["samples"]) != total * profile["period"]:
            problems.append("the time values do not add up to samples × period")
        functions, threads, statuses = reference_counts(env.samples(path))
        got_functions = {(f["filename"], f["name"]) for f in profile["functions"]}
        if got_functions != functions:
            problems.append("%d functions, the reference %d: %r" % (
                len(got_functions), len(functions),
                sorted(got_functions ^ functions)[:4]))
        got_threads, got_statuses = {}, {}
        for s in profile["samples"]:
            key = (s["labels"]["thread_id"], s["labels"]["interpreter_id"])
            got_threads[key] = got_threads.get(key, 0) + s["values"][0]
            got_statuses[s["labels"]["status"]] = got_statuses.get(
                s["labels"]["status"], 0) + s["values"][0]
        if got_threads != threads:
            problems.append("samples per thread label %r, the reference %r"
                            % (got_threads, threads))
        if got_statuses != statuses:
            problems.append("samples per status label %r, the reference %r"
                            % (got_statuses, statuses))
        tap.result("corpus %s: %d samples, %d functions, %d pprof samples"
                   % (name, total, len(got_functions), len(profile["samples"])), problems)


def group_filters(env, tap):
    path = os.path.join(env.data, "valid", "rec_threads.tach")
    info = json.loads(env.run("--info", "--json", path).stdout)
    tids = [t["thread_id"] for t in info["decoded"]["threads"]]
    for args in (["--thread", str(tids[0])], ["--thread", str(tids[1]), "--thread", str(tids[2])],
                 ["--state", "gil"], ["--state", "cpu"], ["--state", "gil-wait"],
                 ["--state", "exception"], ["--range", "0.2:0.7"],
                 ["--range", ":0.3", "--range", "0.9:"], ["--focus", "cpu_worker"],
                 ["--hide", "Condition.wait"], ["--collapse-recursion"],
                 ["--state", "gil", "--range", "0.1:", "--hide", "Thread.run"]):
        profile, problems = env.export(path, *args)
        if profile is None:
            tap.result("filters %s" % " ".join(args), problems)
            continue
        problems += check_structure(profile, info)
        want = collapsed_lines(env, path, *args)
        got = as_collapsed(profile)
        if got != want:
            problems.append("the (thread, stack) counts differ from --export collapsed with "
                            "the same filters: %r" % sorted(set(got.items())
                                                             ^ set(want.items()))[:4])
        if not want:
            problems.append("the case selects no sample: it tests nothing")
        if args[0] == "--state":
            bit = {"gil": "has_gil", "cpu": "on_cpu", "gil-wait": "gil_requested",
                   "exception": "has_exception"}[args[1]]
            if any(bit not in s["labels"]["status"].split(",") for s in profile["samples"]):
                problems.append("a sample's status lacks %s" % bit)
        tap.result("filters %s: %d samples, as --export collapsed"
                   % (" ".join(args), sum(want.values())), problems)


def group_merge(env, tap):
    path = os.path.join(env.data, "valid", "rec_cpu_mix.tach")
    info = json.loads(env.run("--info", "--json", path).stdout)
    want = collapsed_lines(env, path)
    total = sum(want.values())
    base, problems = env.export(path)
    by_line = {loc["id"]: loc["lines"][0] for loc in base["locations"]} if base else {}
    tap.result("merge (default): by line, no columns",
               problems + ([] if base and all(x["column"] == 0 for x in by_line.values())
                           and len({(x["function_id"], x["line"]) for x in by_line.values()})
                           == len(by_line) else ["locations are not one per line"]))
    for merge in ("function", "line", "instruction", "frame"):
        profile, problems = env.export(path, "--merge", merge)
        if profile is None:
            tap.result("merge %s" % merge, problems)
            continue
        problems += check_structure(profile, info)
        got_total = sum(s["values"][0] for s in profile["samples"])
        if got_total != total:
            problems.append("%d samples, the model %d" % (got_total, total))
        lines = [loc["lines"][0] for loc in profile["locations"]]
        if merge == "function":
            if any(x["line"] != 0 for x in lines) or len(lines) != len(profile["functions"]):
                problems.append("by function, a location per function without a line")
        elif merge == "line":
            if as_collapsed(profile) != want:
                problems.append("by line, the stacks are not --export collapsed's")
        else:
            if not any(x["column"] > 0 for x in lines):
                problems.append("no location has a column")
            if len(lines) < len(base["locations"]):
                problems.append("fewer locations than by line")
        tap.result("merge %s: %d locations, %d functions, %d samples"
                   % (merge, len(lines), len(profile["functions"]), got_total), problems)


def group_args(env, tap):
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    out = os.path.join(env.tmp, "out.pb.gz")
    for args, text in ((["--zoom", "main"], "--zoom, --icicle and --search"),
                       (["--icicle"], "--zoom, --icicle and --search"),
                       (["--search", "x"], "--zoom, --icicle and --search"),
                       (["--inverted"], "--inverted"),
                       (["--width", "800"], "--width"),
                       (["--sort", "name"], "--sort"),
                       (["--merge", "bytes"], "bytes"),
                       (["--thread", "99"], "99")):
        proc = env.run("--export", "pprof", "-o", out, *args, tiny)
        err = proc.stderr.decode("utf-8", "replace")
        problems = []
        if proc.returncode != 1 or text not in err:
            problems.append("exit %d, stderr %r" % (proc.returncode, err))
        if os.path.exists(out):
            problems.append("OUT was written")
            os.unlink(out)
        tap.result("args %s: refused" % " ".join(args), problems)

    proc = env.run("--export", "pprof", tiny)
    tap.result("args: pprof needs -o", [] if proc.returncode == 1
               and b"-o OUT" in proc.stderr and not proc.stdout else [proc.stderr])

    for name in sorted(os.listdir(os.path.join(env.data, "invalid"))):
        path = os.path.join(env.data, "invalid", name)
        with open(out, "wb") as fh:
            fh.write(b"before")
        proc = env.run("--export", "pprof", "-o", out, path)
        problems = []
        if proc.returncode != 1 or not proc.stderr.startswith((PROG + ": ").encode()):
            problems.append("exit %d: %r" % (proc.returncode, proc.stderr))
        with open(out, "rb") as fh:
            if fh.read() != b"before":
                problems.append("OUT was changed")
        tap.result("args invalid/%s: exit 1, OUT unchanged" % name, problems)
    os.unlink(out)

    for name in ("empty.tach", "empty.zst.tach"):
        profile, problems = env.export(os.path.join(env.data, "valid", name))
        tap.result("args %s: a profile without samples" % name,
                   problems if profile is None else
                   ([] if profile["samples"] == [] and profile["sample_types"][0]["type"]
                    == "samples" else [profile]))

    # -o - writes it to standard output.
    proc = env.run("--export", "pprof", "-o", "-", tiny)
    with open(out, "wb") as fh:
        fh.write(proc.stdout)
    profile, err = env.decode(out)
    os.unlink(out)
    tap.result("args -o -: the profile on standard output",
               [] if profile is not None and sum(s["values"][0] for s in profile["samples"]) == 4
               else [err])


def group_go(env, tap):
    """Every valid file through `go tool pprof -proto`, which parses and
    checks the profile with Google's own code (and symbolizes it, as every
    one of its reports does) and writes it again: what it wrote holds the
    same samples, stacks, functions and labels."""
    go_env = dict(env.env)
    go_env["HOME"] = env.tmp
    for path in env.valid_files():
        name = os.path.basename(path)
        out = os.path.join(env.tmp, name + ".pb.gz")
        again = os.path.join(env.tmp, name + ".go.pb.gz")
        proc = env.run("--export", "pprof", "-o", out, path)
        if proc.returncode != 0:
            tap.result("go %s" % name, [proc.stderr.decode()])
            continue
        ours, err = env.decode(out)
        with open(again, "wb") as fh:
            proc = subprocess.run([env.go, "tool", "pprof", "-proto", out], stdout=fh,
                                  stderr=subprocess.PIPE, env=go_env, timeout=300)
        if proc.returncode != 0:
            tap.result("go %s" % name, ["go tool pprof failed: %s" % proc.stderr.decode()])
            continue
        theirs, err = env.decode(again)
        os.unlink(out)
        os.unlink(again)
        if ours is None or theirs is None:
            tap.result("go %s" % name, [err])
            continue
        problems = []
        want = collapsed_lines(env, path)
        if as_collapsed(theirs) != want:
            problems.append("go tool pprof's samples are not --export collapsed's lines: %r"
                            % sorted(set(as_collapsed(theirs).items())
                                     ^ set(want.items()))[:4])
        for key in ("sample_types", "period_type", "period", "duration_nanos", "comments"):
            if theirs[key] != ours[key]:
                problems.append("%s: %r, ours %r" % (key, theirs[key], ours[key]))
        names = sorted((f["filename"], f["name"]) for f in theirs["functions"])
        if names != sorted((f["filename"], f["name"]) for f in ours["functions"]):
            problems.append("go tool pprof names the functions otherwise: %r"
                            % sorted(set(names) ^ {(f["filename"], f["name"])
                                                   for f in ours["functions"]})[:4])
        labels = sorted(json.dumps(s["labels"], sort_keys=True) for s in theirs["samples"])
        if labels != sorted(json.dumps(s["labels"], sort_keys=True) for s in ours["samples"]):
            problems.append("the labels differ")
        tap.result("go %s: %d samples, %d functions" % (name, sum(want.values()), len(names)),
                   problems)


GROUPS = {
    "corpus": group_corpus,
    "filters": group_filters,
    "merge": group_merge,
    "args": group_args,
    "go": group_go,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--node", required=True)
    ap.add_argument("--go", default="go")
    ap.add_argument("group", choices=sorted(GROUPS))
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(HERE, "node_modules", "pprof-format")):
        print("Bail out! the client pprof-format is not installed in %s/node_modules: "
              "build-aux/install-deps.sh installs it (npm ci)" % HERE)
        return 1
    if args.group == "go":
        try:
            found = subprocess.run([args.go, "tool", "pprof", "-h"],
                                   capture_output=True).returncode == 0
        except OSError:
            found = False
        if not found:
            print("Bail out! go tool pprof (%s) is missing: build-aux/install-deps.sh installs "
                  "golang-go" % args.go)
            return 1
    env = Env(args)
    tap = Tap()
    GROUPS[args.group](env, tap)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
