#!/usr/bin/env python3
"""--export pstats, read by the client it is for: Python's pstats.

Usage: test-pstats.py --exe PATH --tool PATH --client-python PATH GROUP

GROUP is one of: corpus, table, filters, args, terminal.  Prints TAP.

The expected statistics are computed here, from the samples that the
reference reader, tachgen.py, decodes (our decoder's, through tach-tool,
--tool, used once their digests are those of tests/data/reference.json),
by the rules of CPython's PstatsCollector and print_stats() (Lib/profiling/
sampling/pstats_collector.py): per location (filename, line, funcname) the samples
it was the leaf of, the samples it was on the stack of (once per sample),
the callers per adjacent pair, times in seconds of the header's interval.
The file is then loaded by the client, Debian's /usr/bin/python3 (not the
interpreter running this script), with marshal.load() and pstats.Stats().
The profile of hostile names is written by the format library's writer
(tach-tool), from its description in profiles.py.  Nothing outside the
repository is needed.
"""

import argparse
import json
import os
import pty
import select
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The modules beside this file and in tests/tools are imported from the
# source tree: leave no __pycache__ there.
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import profiles  # noqa: E402
import tachprofile  # noqa: E402
import testlib  # noqa: E402
from testlib import Tap  # noqa: E402

PROG = "tachyon-viewer"
SORTS = ["nsamples", "tottime", "cumtime", "sample-pct", "cumul-pct", "nsamples-cumul", "name"]
# Valid files of the corpus that the viewer rejects on purpose (README).
REJECTED_VALID = {"compression_type_7.tach"}

# Run by the client: loads OUT as pstats.Stats does and prints what it
# read, as JSON (keys as lists, in the dict's order).
CLIENT_SCRIPT = r"""
import json, marshal, pstats, sys
path = sys.argv[1]
with open(path, "rb") as f:
    raw = marshal.load(f)
out = {
    "raw": [[list(k), [v[0], v[1], v[2], v[3], [[list(c), n] for c, n in v[4].items()]]]
            for k, v in raw.items()],
}
# pstats.Stats refuses empty statistics, whoever wrote them.
if not raw:
    json.dump(out, sys.stdout)
    sys.exit(0)
st = pstats.Stats(path)
out.update({
    "stats_len": len(st.stats),
    "total_calls": st.total_calls,
    "prim_calls": st.prim_calls,
    "total_tt": st.total_tt,
})
st.strip_dirs().sort_stats("cumulative")
out["stripped_len"] = len(st.stats)
json.dump(out, sys.stdout)
"""


class Env(testlib.ViewerEnv):
    def __init__(self, args):
        super().__init__(args.exe, args.tool,
                         drop=("NO_COLOR", "FORCE_COLOR", "PYTHON_COLORS"), language=False)
        self.client = args.client_python
        self.tmp = tempfile.mkdtemp(prefix="tv-test-pstats-")

    def valid_files(self):
        return self.files("valid", REJECTED_VALID)

    def run(self, *args, env=None):
        return subprocess.run([self.exe, *args], capture_output=True, env=env or self.env,
                              timeout=300)

    def load_in_client(self, path):
        """What the client reads from PATH, or (None, error text)."""
        proc = subprocess.run([self.client, "-c", CLIENT_SCRIPT, path], capture_output=True,
                              timeout=300)
        if proc.returncode != 0:
            return None, proc.stderr.decode("utf-8", "replace")
        return json.loads(proc.stdout), None


# ---------------------------------------------------------------------------
# The expected statistics
# ---------------------------------------------------------------------------

def is_internal(filename):
    return filename.endswith("_sync_coordinator.py")


def samples_of(reader, keep=None):
    """(stack of locations leaf first, weight) per sample, in file order.
    READER: env.samples(); KEEP (tid, status, ts) -> bool selects samples."""
    cache = {}

    def location(index):
        if index not in cache:
            fn, fu, ln = reader.frame_tuple(index)[:3]
            cache[index] = None if is_internal(fn) else (
                fn, 0 if ln == tachprofile.LOC_NA else ln, fu)
        return cache[index]

    out = []
    for iid, tid, ts, status, stack in reader.iter_samples():
        if keep is not None and not keep(tid, status, ts):
            continue
        locs = [loc for loc in map(location, stack) if loc is not None]
        if locs:
            out.append((locs, 1))
    return out


def expected_stats(stacks, interval_us):
    """The dict PstatsCollector.create_stats() makes, in its order."""
    direct, cumulative, callers = {}, {}, {}
    for locs, w in stacks:
        for loc in dict.fromkeys(locs):
            direct.setdefault(loc, 0)
            cumulative[loc] = cumulative.get(loc, 0) + w
        direct[locs[0]] += w
        for callee, caller in zip(locs, locs[1:]):
            d = callers.setdefault(callee, {})
            d[caller] = d.get(caller, 0) + w
    sec = interval_us / 1_000_000
    return {loc: (direct[loc], cumulative[loc], direct[loc] * sec, cumulative[loc] * sec,
                  dict(callers.get(loc, {})))
            for loc in cumulative}


def as_client_json(stats):
    return [[list(k), [v[0], v[1], v[2], v[3], [[list(c), n] for c, n in v[4].items()]]]
            for k, v in stats.items()]


def unit(max_value):
    if max_value >= 1.0:
        return "s", 1.0
    if max_value >= 0.001:
        return "ms", 1000.0
    return "\u03bcs", 1000000.0


def expected_table(stats, sort, limit, summary):
    """print_stats()'s text, without colours."""
    rows = {}
    for (fn, line, func), (cc, nc, tt, ct, _) in stats.items():
        key = (os.path.basename(fn), line, func)
        if key in rows:
            a = rows[key]
            rows[key] = (a[0] + cc, a[1] + nc, a[2] + tt, a[3] + ct)
        else:
            rows[key] = (cc, nc, tt, ct)
    if not rows:
        return "No samples were collected.\n"
    lst = [(k,) + v for k, v in rows.items()]
    total = sum(r[1] for r in lst)
    keys = {
        "name": None,
        "nsamples": lambda r: r[1],
        "tottime": lambda r: r[3],
        "cumtime": lambda r: r[4],
        "sample-pct": lambda r: r[1] / total * 100,
        "cumul-pct": lambda r: r[2] / total * 100,
        "nsamples-cumul": lambda r: r[2],
    }
    if sort == "name":
        lst.sort(key=lambda r: str(r[0]))
    else:
        lst.sort(key=keys[sort], reverse=True)
    lst = lst[:limit]
    tu, ts = unit(max((r[3] for r in lst), default=0))
    cu, cs = unit(max((r[4] for r in lst), default=0))
    tw = max(12, len("tottime (%s)" % tu))
    cw = max(12, len("cumtime (%s)" % cu))
    out = ["Profile Stats:\n",
           "%15s  %8s  %*s  %8s  %*s  filename:lineno(function)\n"
           % ("nsamples", "sample%", tw, "tottime (%s)" % tu, "cumul%", cw,
              "cumtime (%s)" % cu)]
    for (b, line, func), cc, nc, tt, ct in lst:
        out.append("%15s  %8.1f  %*.3f  %8.1f  %*.3f  %s:%d(%s)\n"
                   % ("%d/%d" % (cc, nc), cc / total * 100, tw, tt * ts, nc / total * 100, cw,
                      ct * cs, b, line, func))
    out.append("\nLegend:\n"
               "  nsamples: Direct/Cumulative samples (direct executing / on call stack)\n"
               "  sample%: Percentage of total samples this function was directly executing\n"
               "  tottime: Estimated total time spent directly in this function\n"
               "  cumul%: Percentage of total samples when this function was on the call stack\n"
               "  cumtime: Estimated cumulative time (including time in called functions)\n"
               "  filename:lineno(function): Function location and name\n")
    if summary and lst:
        out.append("\nSummary of Interesting Functions:\n")
        agg = {}
        for (b, line, func), cc, nc, tt, ct in lst:
            q = "%s:%s" % (b, func)
            a = agg.setdefault(q, [0, 0])
            a[0] += cc
            a[1] += nc
        items = []
        for q, (cc, nc) in agg.items():
            fn, fu = q.rsplit(":", 1)
            items.append((fn, fu, cc, nc))

        def section(title, key, line):
            out.append("\n%s:\n" % title)
            for it in sorted(items, key=key, reverse=True)[:3]:
                text = line(*it)
                if text:
                    out.append("  %s\n" % text)

        section("Functions with Highest Direct/Cumulative Ratio (Hot Spots)",
                lambda x: x[2] / x[3] if x[3] > 0 else 0,
                lambda fn, fu, cc, nc: (
                    "%.3f direct/cumulative ratio, %.1f%% direct samples: %s:(%s)"
                    % (cc / nc, cc / total * 100, fn, fu)) if cc > 0 and nc > 0 else None)
        section("Functions with Highest Call Frequency (Indirect Calls)",
                lambda x: x[3] - x[2],
                lambda fn, fu, cc, nc: (
                    "%d indirect calls, %.1f%% total stack presence: %s:(%s)"
                    % (nc - cc, nc / total * 100, fn, fu)) if nc > cc else None)
        section("Functions with Highest Call Magnification (Cumulative/Direct)",
                lambda x: x[3] / x[2] if x[2] > 0 else 0,
                lambda fn, fu, cc, nc: (
                    "%.1fx call magnification, %d indirect calls from %d direct: %s:(%s)"
                    % (nc / cc, nc - cc, cc, fn, fu)) if cc > 0 and nc > cc else None)
    return "".join(out)


def collapsed_total(env, path, *filters):
    """The samples the model's collapsed export keeps, with FILTERS."""
    proc = env.run("--export", "collapsed", "-o", "-", *filters, path)
    if proc.returncode != 0:
        raise AssertionError("collapsed export failed: %s" % proc.stderr.decode())
    lines = proc.stdout.decode("utf-8").splitlines()
    return sum(int(line.rsplit(" ", 1)[1]) for line in lines), lines


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "first difference at %d:\n  ours:     %r\n  expected: %r" % (i, x, y)
    return "lengths differ: ours %d, expected %d" % (len(a), len(b))


def check_file(env, path, out, stats, n_samples):
    """Loads OUT in the client; returns the problems."""
    problems = []
    got, err = env.load_in_client(out)
    if got is None:
        return ["the client could not load it:\n" + err]
    want = as_client_json(stats)
    if got["raw"] != want:
        problems.append("marshal.load() gives another dict: " + first_diff(got["raw"], want))
    if not stats:
        return problems if n_samples == 0 else problems + ["no statistics"]
    if got["prim_calls"] != n_samples:
        problems.append("pstats.Stats: %d primitive calls (direct samples), the model %d"
                        % (got["prim_calls"], n_samples))
    if got["total_calls"] != sum(v[1] for v in stats.values()):
        problems.append("pstats.Stats: total_calls %d" % got["total_calls"])
    if got["stats_len"] != len(stats):
        problems.append("pstats.Stats has %d functions, expected %d"
                        % (got["stats_len"], len(stats)))
    return problems


# ---------------------------------------------------------------------------
# Groups
# ---------------------------------------------------------------------------

def group_corpus(env, tap):
    """Every valid file: the client loads the file, which holds CPython's
    dict, and its totals are the model's."""
    for path in env.valid_files():
        name = os.path.basename(path)
        out = os.path.join(env.tmp, name + ".pstats")
        problems = []
        proc = env.run("--export", "pstats", "-o", out, path)
        if proc.returncode != 0:
            tap.result("corpus %s" % name, ["exit %d: %s" % (proc.returncode,
                                                             proc.stderr.decode())])
            continue
        reader = env.samples(path)
        stacks = samples_of(reader)
        stats = expected_stats(stacks, reader.sample_interval_us)
        n_samples, _ = collapsed_total(env, path)
        if sum(w for _, w in stacks) != n_samples:
            problems.append("the reference counts %d samples, the model's collapsed export %d"
                            % (sum(w for _, w in stacks), n_samples))
        problems += check_file(env, path, out, stats, n_samples)
        os.unlink(out)
        tap.result("corpus %s: the client loads CPython's dict, %d samples, %d functions"
                   % (name, n_samples, len(stats)), problems)


def group_table(env, tap):
    """Without -o: CPython's table, for every sort key, limit and summary."""
    for path in env.valid_files():
        name = os.path.basename(path)
        reader = env.samples(path)
        stacks = samples_of(reader)
        stats = expected_stats(stacks, reader.sample_interval_us)
        big = os.path.getsize(path) > 1_000_000
        cases = [([], "nsamples", 15, True)]
        for sort in (SORTS[:2] if big else SORTS):
            cases.append((["--sort", sort], sort, 15, True))
        cases.append((["--limit", "4", "--no-summary"], "nsamples", 4, False))
        cases.append((["--limit", "0"], "nsamples", 0, True))
        if not big:
            cases.append((["--sort", "name", "--limit", "100000"], "name", 100000, True))
        problems = []
        for args, sort, limit, summary in cases:
            proc = env.run("--export", "pstats", *args, path)
            want = expected_table(stats, sort, limit, summary)
            got = proc.stdout.decode("utf-8", "replace")
            if proc.returncode != 0 or got != want:
                problems.append("%s: exit %d, %s" % (" ".join(args) or "(defaults)",
                                                     proc.returncode,
                                                     first_diff(got.splitlines(),
                                                                want.splitlines())))
        tap.result("table %s: %d cases" % (name, len(cases)), problems)


def group_filters(env, tap):
    """The filters select samples as the model does."""
    path = os.path.join(env.data, "valid", "rec_threads.tach")
    reader = env.samples(path)
    interval = reader.sample_interval_us
    tids = sorted({tid for _, tid, *_ in reader.iter_samples()})
    gil = {}
    for iid, tid, ts, st, stack in reader.iter_samples():
        gil[tid] = gil.get(tid, 0) + (1 if st & 0x01 else 0)
    busiest = max(gil, key=gil.get)
    cases = [
        (["--thread", str(tids[0])], lambda tid, st, ts: tid == tids[0]),
        (["--thread", str(tids[1]), "--thread", str(tids[2])],
         lambda tid, st, ts: tid in (tids[1], tids[2])),
        (["--state", "gil"], lambda tid, st, ts: st & 0x01),
        (["--state", "cpu"], lambda tid, st, ts: st & 0x02),
        (["--state", "gil-wait"], lambda tid, st, ts: st & 0x08),
        (["--state", "exception"], lambda tid, st, ts: st & 0x10),
    ]
    for args, keep in cases:
        stacks = samples_of(reader, keep)
        stats = expected_stats(stacks, interval)
        out = os.path.join(env.tmp, "filtered.pstats")
        proc = env.run("--export", "pstats", "-o", out, *args, path)
        problems = ["exit %d: %s" % (proc.returncode, proc.stderr.decode())] \
            if proc.returncode else []
        if not problems:
            n, _ = collapsed_total(env, path, *args)
            # Filtered, the rows come from the model's tree: same dict,
            # another order.
            got, err = env.load_in_client(out)
            if got is None:
                problems.append(err)
            else:
                want = as_client_json(stats)
                if sorted(map(json.dumps, got["raw"])) != sorted(map(json.dumps, want)):
                    problems.append("another dict than the reference's for these samples")
                if got.get("prim_calls", 0) != n:
                    problems.append("%d direct samples, the model %d"
                                    % (got.get("prim_calls", 0), n))
                if n == 0:
                    problems.append("the case selects no sample: it tests nothing")
        tap.result("filters %s: the reference's dict" % " ".join(args), problems)

    # Time ranges and the transforms: the totals of the model's collapsed
    # export with the same options, leaf by leaf.
    for args in (["--range", "0.2:0.7"], ["--range", ":0.3", "--range", "0.9:"],
                 ["--focus", "cpu_worker"], ["--hide", "Condition.wait"],
                 ["--collapse-recursion"],
                 ["--thread", str(busiest), "--state", "gil", "--range", "0.1:"]):
        out = os.path.join(env.tmp, "filtered.pstats")
        problems = []
        proc = env.run("--export", "pstats", "-o", out, *args, path)
        if proc.returncode != 0:
            tap.result("filters %s" % " ".join(args), [proc.stderr.decode()])
            continue
        n, lines = collapsed_total(env, path, *args)
        got, err = env.load_in_client(out)
        if got is None:
            tap.result("filters %s" % " ".join(args), [err])
            continue
        leaves = {}
        for line in lines:
            stack, count = line.rsplit(" ", 1)
            leaf = stack.split(";")[-1]
            leaves[leaf] = leaves.get(leaf, 0) + int(count)
        direct = {}
        for (fn, line, func), (cc, *_rest) in got["raw"]:
            if cc:
                key = "%s:%s:%d" % (os.path.basename(fn), func, line)
                direct[key] = direct.get(key, 0) + cc
        if direct != leaves:
            problems.append("direct samples per location %r, the collapsed leaves %r"
                            % (sorted(direct.items())[:5], sorted(leaves.items())[:5]))
        if got.get("prim_calls", 0) != n or n == 0:
            problems.append("%d direct samples, the model %d" % (got.get("prim_calls", 0), n))
        names = {func for (fn, line, func), _ in got["raw"]}
        if args[0] == "--hide" and args[1] in names:
            problems.append("the hidden function is still there")
        if args[0] == "--focus":
            focus = [v for (fn, line, func), v in got["raw"] if func == args[1]]
            if sum(v[1] for v in focus) < n:
                problems.append("the focused function is not on every stack")
        tap.result("filters %s: %d samples, the collapsed export's leaves"
                   % (" ".join(args), n), problems)


def group_args(env, tap):
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    out = os.path.join(env.tmp, "out.pstats")
    bad = [
        (["--sort", "calls"], "Unknown --sort"),
        (["--limit", "-1"], "Invalid --limit"),
        (["--limit", "ten"], "Invalid --limit"),
        (["--sort", "name", "-o", out], "--sort, --limit and --no-summary"),
        (["--no-summary", "-o", out], "--sort, --limit and --no-summary"),
        (["--merge", "function", "-o", out], "--merge"),
        (["--inverted", "-o", out], "--inverted"),
        (["--width", "800", "-o", out], "--width"),
        (["--thread", "99", "-o", out], "99"),
    ]
    for args, text in bad:
        proc = env.run("--export", "pstats", *args, tiny)
        err = proc.stderr.decode("utf-8", "replace")
        problems = []
        if proc.returncode != 1 or text not in err or proc.stdout:
            problems.append("exit %d, stdout %r, stderr %r" % (proc.returncode,
                                                               proc.stdout[:80], err))
        if os.path.exists(out):
            problems.append("OUT was written")
            os.unlink(out)
        tap.result("args %s: refused" % " ".join(args), problems)

    proc = env.run("--sort", "name", "--info", tiny)
    tap.result("args --sort without --export: refused",
               [] if proc.returncode == 1 and b"--sort" in proc.stderr else [proc.stderr])

    for name in ("empty.tach", "empty.zst.tach"):
        proc = env.run("--export", "pstats", os.path.join(env.data, "valid", name))
        tap.result("args %s: the table says no samples" % name,
                   [] if proc.returncode == 0 and proc.stdout == b"No samples were collected.\n"
                   else [proc.stdout, proc.stderr])
        proc = env.run("--export", "pstats", "-o", out, os.path.join(env.data, "valid", name))
        got, err = env.load_in_client(out) if proc.returncode == 0 else (None, proc.stderr)
        tap.result("args %s: an empty dict" % name,
                   [] if got is not None and got["raw"] == [] else [err])

    for name in sorted(os.listdir(os.path.join(env.data, "invalid"))):
        path = os.path.join(env.data, "invalid", name)
        with open(out, "wb") as fh:
            fh.write(b"before")
        problems = []
        for args in (["-o", out], []):
            proc = env.run("--export", "pstats", *args, path)
            if proc.returncode != 1 or proc.stdout or not proc.stderr.startswith(
                    (PROG + ": ").encode()):
                problems.append("%s: exit %d, stdout %r" % (args, proc.returncode,
                                                            proc.stdout[:80]))
        with open(out, "rb") as fh:
            if fh.read() != b"before":
                problems.append("OUT was changed")
        tap.result("args invalid/%s: exit 1, nothing written" % name, problems)
    os.unlink(out)

    # -o - writes the file to standard output.
    proc = env.run("--export", "pstats", "-o", "-", tiny)
    with open(out, "wb") as fh:
        fh.write(proc.stdout)
    got, err = env.load_in_client(out)
    tap.result("args -o -: the file on standard output",
               [] if got is not None and got["prim_calls"] == 4 else [err])
    os.unlink(out)


def run_in_terminal(env, args, extra_env=None):
    """ARGS run with standard output on a terminal; what it printed."""
    master, slave = pty.openpty()
    run_env = dict(env.env)
    run_env.update(extra_env or {})
    run_env["TERM"] = "xterm"
    proc = subprocess.Popen([env.exe, *args], stdout=slave, stderr=subprocess.PIPE, env=run_env)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            proc.kill()
            break
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    return proc.returncode, b"".join(chunks).replace(b"\r\n", b"\n")


def group_terminal(env, tap):
    """On a terminal: CPython's colours, and names that cannot steer it."""
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    code, text = run_in_terminal(env, ["--export", "pstats", tiny])
    problems = []
    if code != 0 or b"\x1b[1;34mProfile Stats:\x1b[0m" not in text \
            or b"\x1b[32mapp.py\x1b[0m:\x1b[33m7\x1b[0m(\x1b[36mwork\x1b[0m)" not in text:
        problems.append("no colours: %r" % text[:200])
    tap.result("terminal: coloured as CPython colours it", problems)

    code, text = run_in_terminal(env, ["--export", "pstats", tiny], {"NO_COLOR": "1"})
    tap.result("terminal: NO_COLOR", [] if code == 0 and b"\x1b" not in text
               and b"app.py:7(work)" in text else [text[:200]])

    # A name with an escape sequence and a newline in it.
    hostile = os.path.join(env.tmp, "terminal.tach")
    try:
        tachprofile.write(env.tool, hostile, profiles.terminal_names())
    except RuntimeError as e:
        tap.result("terminal: a hostile name", [str(e)])
        return
    code, text = run_in_terminal(env, ["--export", "pstats", hostile], {"NO_COLOR": "1"})
    problems = []
    if code != 0 or b"\x1b" in text or b"\x07" in text:
        problems.append("control characters reached the terminal: %r" % text[:300])
    if "evil\u241b[2Jname\u240anext".encode() not in text:
        problems.append("the name is not shown: %r" % text[:300])
    # Not on a terminal: CPython's bytes.
    proc = env.run("--export", "pstats", hostile)
    if b"evil\x1b[2Jname\nnext" not in proc.stdout:
        problems.append("piped, the name is not CPython's: %r" % proc.stdout[:300])
    out = os.path.join(env.tmp, "hostile.pstats")
    proc = env.run("--export", "pstats", "-o", out, hostile)
    got, err = env.load_in_client(out) if proc.returncode == 0 else (None, proc.stderr)
    if got is None or [profiles.TERMINAL_FILE, 3, profiles.TERMINAL_FUNC] not in \
            [k for k, _ in got["raw"]]:
        problems.append("the file does not hold the name as it is: %s" % err)
    tap.result("terminal: a hostile name is shown, not obeyed", problems)


GROUPS = {
    "corpus": group_corpus,
    "table": group_table,
    "filters": group_filters,
    "args": group_args,
    "terminal": group_terminal,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--client-python", required=True)
    ap.add_argument("group", choices=sorted(GROUPS))
    args = ap.parse_args()
    if not os.access(args.client_python, os.X_OK):
        print("Bail out! the client %s is missing: build-aux/install-deps.sh installs it"
              % args.client_python)
        return 1
    env = Env(args)
    tap = Tap()
    GROUPS[args.group](env, tap)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
