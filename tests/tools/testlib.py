"""What the Python tests of the command line share: their TAP stream, and
the viewer they run with the corpus and what the reference says about it.

The tests find it as they find reference.py, on sys.path from their own
folder (../tools).  Standard library only: CI runs them with Debian's
python3.
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import traceback

import reference
import tachprofile

PROG = "tachyon-viewer"


class Tap:
    """One TAP line a test, then the plan.  A failed test's problems follow
    it as diagnostics, the first MAX_PROBLEMS of them when that is set."""

    def __init__(self, max_problems=None):
        self.n = 0
        self.failed = 0
        self.max_problems = max_problems

    def result(self, name, problems):
        self.n += 1
        if problems:
            self.failed += 1
            print("not ok %d - %s" % (self.n, name))
            for p in problems[:self.max_problems]:
                for line in str(p).splitlines() or [""]:
                    print("#   " + line)
        else:
            print("ok %d - %s" % (self.n, name))
        sys.stdout.flush()

    def run(self, name, fn):
        """The result of FN (), the list of its problems; a test that
        raises has failed, with its reason."""
        try:
            problems = fn()
        except Exception as e:
            problems = ["%s: %s" % (type(e).__name__, e)] + traceback.format_exc().splitlines()
        self.result(name, problems)

    def run_parallel(self, items, max_workers):
        """The results of ITEMS, (name, fn) pairs, in their order, run by
        up to MAX_WORKERS threads (at least 2, at most a CPU each)."""
        workers = max(2, min(max_workers, os.cpu_count() or 2))
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [(name, pool.submit(fn)) for name, fn in items]
            for name, fut in futures:
                try:
                    problems = fut.result()
                except Exception as e:  # a crash of the test itself is a failure
                    problems = ["%s: %s" % (type(e).__name__, e)]
                self.result(name, problems)

    def finish(self):
        print("1..%d" % self.n)
        sys.stdout.flush()
        return 1 if self.failed else 0


class ViewerEnv:
    """EXE, the viewer, run as the command line runs: no display, C.UTF-8,
    without the variables of DROP, and with no LANGUAGE when LANGUAGE is
    False (an empty one otherwise); the corpus of $TACH_TEST_DATA and its
    reference.json; TOOL, tach-tool (tests/tools); BENCH, tachyon-bench,
    when given."""

    def __init__(self, exe, tool, bench=None, drop=(), language=True):
        self.exe = os.path.abspath(exe)
        self.tool = os.path.abspath(tool)
        self.bench = os.path.abspath(bench) if bench else None
        self.data = os.environ.get("TACH_TEST_DATA")
        if not self.data:
            raise SystemExit("Bail out! TACH_TEST_DATA must be set")
        self.expected = reference.load(self.data)
        self.env = dict(os.environ)
        for var in ("DISPLAY", "WAYLAND_DISPLAY") + tuple(drop):
            self.env.pop(var, None)
        self.env["LC_ALL"] = "C.UTF-8"
        if language:
            self.env["LANGUAGE"] = ""

    def files(self, kind, rejected=()):
        """The profiles of the corpus's folder KIND, less those named in
        REJECTED, sorted."""
        d = os.path.join(self.data, kind)
        return sorted(os.path.join(d, f) for f in os.listdir(d)
                      if f.endswith(".tach") and f not in rejected)

    def key(self, path):
        """PATH as reference.json names it: valid/NAME.tach."""
        return os.path.relpath(path, self.data).replace(os.sep, "/")

    def samples(self, path):
        """The samples and frames of the corpus file PATH as the reference
        reader decodes them (checked against reference.json)."""
        return reference.Samples(self.tool, self.expected, self.key(path), path)

    def write_profile(self, path, spec, **options):
        """The profile of SPEC (tachgen.py fromjson's description) at PATH,
        written by the library's writer (tests/tools/tachprofile.py)."""
        return tachprofile.write(self.tool, path, spec, **options)

    def generate(self, path, n_samples, *extra, timeout=300):
        """PATH written by tachyon-bench --generate N_SAMPLES with EXTRA: the
        problems, none when it was."""
        if self.bench is None:
            return ["no --bench"]
        args = ["--generate", str(n_samples), path, *extra]
        p = subprocess.run([self.bench, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        if p.returncode != 0:
            return ["tachyon-bench %s: exit %d, %s" % (" ".join(args), p.returncode,
                                                       p.stderr.decode("utf-8", "replace")[-500:])]
        return []

    def run(self, *args, cwd=None, timeout=600):
        """The viewer with ARGS: (exit status, stdout bytes, stderr text)."""
        p = subprocess.run([self.exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=self.env, cwd=cwd, timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def strict_json(data):
    """DATA (bytes or text) as JSON, refusing NaN and Infinity."""
    def bad_constant(name):
        raise ValueError("non-JSON constant %s" % name)
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    return json.loads(data, parse_constant=bad_constant)


def parse_collapsed(text):
    """{stack: samples} of the collapsed stacks TEXT (bytes), lines of one
    stack added up."""
    sums = {}
    for line in text.decode("utf-8").splitlines():
        stack, count = line.rsplit(" ", 1)
        sums[stack] = sums.get(stack, 0) + int(count)
    return sums


def failure_problems(rc, out, err, expected=None):
    """What is wrong with a run of the viewer that must fail, which exited
    with RC and printed OUT (bytes) and ERR (text): it exits with 1, prints
    nothing on stdout and one line on stderr, 'tachyon-viewer: ...', that
    holds EXPECTED when that is given."""
    problems = []
    if rc != 1:
        problems.append("exit status %r, expected 1" % rc)
    if out:
        problems.append("stdout not empty: %r" % out[:300])
    if not err.startswith(PROG + ": ") or err.count("\n") != 1:
        problems.append("stderr is not one '%s: ...' line: %r" % (PROG, err))
    if expected and expected not in err:
        problems.append("stderr %r does not contain %r" % (err, expected))
    return problems
