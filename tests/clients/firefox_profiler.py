"""Opens files in the Firefox Profiler's own code, from Python.

The npm package @firefox-devtools/profiler-cli (pinned in package-lock.json,
installed in this folder by build-aux/install-deps.sh with `npm ci`) is the
Firefox Profiler's command line: built from the profiler's source, its
daemon imports a file with the profiler's own code (the processed format's
version upgraders, the tables it derives, its call trees and marker
lists) and answers queries about what it made of it.  load(path) starts a
daemon session on one file, asks it, and stops it:

  {"error": None or the message of a file it refused,
   "range": (start, end),      # the profile's whole range, in the file's times
   "threads": [{"handle": "t-0", "index": 0, "name", "tid",
                "samples": N,                  # thread info's sampleCount
                "marker_count": N,             # thread list's count
                "markers": {(name, category): [count, total duration]},
                "marker_list": [(name, category, start, duration)],
                                               # in the profiler's order
                "functions": [(name, library, self, total)]}, ...]}

with the samples of every function counted (idle ones too), times in
milliseconds, a marker's start since the range's start (where the
profiler puts its zero).  Each call runs in a folder of its own (HOME and the session
folder, so no other run or user's session is seen), every command has a
time limit, and the daemon is stopped, or killed when it does not stop,
whatever happened.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "@firefox-devtools/profiler-cli"
SESSION = "tv"
# The most rows `profile markers` gives.
MAX_MARKERS = 100000
LOAD_TRIES = 5


class HarnessError(Exception):
    pass


def node():
    exe = shutil.which("node") or shutil.which("nodejs")
    if exe is None:
        raise HarnessError("node is not installed: run `sudo bash build-aux/install-deps.sh`")
    return exe


def cli_path():
    path = os.path.join(HERE, "node_modules", PACKAGE, "dist", "profiler-cli.js")
    if not os.path.isfile(path):
        raise HarnessError("tests/clients/node_modules/%s is missing: run "
                           "`sudo bash build-aux/install-deps.sh` (npm ci in tests/clients)"
                           % PACKAGE)
    return path


def version():
    with open(os.path.join(HERE, "node_modules", PACKAGE, "package.json"), encoding="utf-8") as fh:
        return json.load(fh)["version"]


class Session:
    """One daemon session in a folder of its own."""

    def __init__(self, timeout):
        self.cli = cli_path()
        self.node = node()
        self.timeout = timeout
        self.pids = set()             # daemons this session started
        # Short: the session folder is part of a Unix socket's path, which
        # may be 108 bytes at most.
        self.home = tempfile.mkdtemp(prefix="tvpq-", dir="/tmp")
        self.sessions = os.path.join(self.home, "s")
        os.mkdir(self.sessions)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("PROFILER_CLI_", "NODE_", "npm_"))}
        self.env.update(HOME=self.home, PROFILER_CLI_SESSION_DIR=self.sessions,
                        LC_ALL="C.UTF-8", NO_COLOR="1")
        # Where a proxy is set, the CLI would say so in its messages.
        for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
            self.env.pop(var, None)

    def run(self, *args, check=True):
        """The CLI's standard output for ARGS in this session; raises
        HarnessError with its message when it fails and CHECK is set."""
        try:
            p = subprocess.run([self.node, self.cli] + list(args) + ["--session", SESSION],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
                               cwd=self.home, timeout=self.timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise HarnessError("profiler-cli %s: no answer in %d s" % (" ".join(args), self.timeout))
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode != 0 and check:
            raise HarnessError("profiler-cli %s failed (%d): %s"
                               % (" ".join(args), p.returncode, (err or out)[-3000:]))
        return p.returncode, out, err

    def query(self, *args):
        _, out, _ = self.run(*args, "--json")
        try:
            return json.loads(out)
        except ValueError as e:
            raise HarnessError("profiler-cli %s: not JSON (%s): %r" % (" ".join(args), e, out[:500]))

    def daemon_pid(self):
        try:
            with open(os.path.join(self.sessions, SESSION + ".json"), encoding="utf-8") as fh:
                return int(json.load(fh)["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def close(self):
        pid = self.daemon_pid()
        if pid is not None:
            self.pids.add(pid)
        try:
            self.run("stop", check=False)
        except HarnessError:
            pass
        # The daemons this session started, if `stop` did not end them.
        deadline = time.monotonic() + 5
        for pid in self.pids:
            while True:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                if time.monotonic() > deadline:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    break
                time.sleep(0.1)
        shutil.rmtree(self.home, ignore_errors=True)


def thread_result(s, t, markers):
    handle = t["threadHandle"]
    info = s.query("thread", "info", "--thread", handle)
    functions = s.query("thread", "functions", "--thread", handle, "--limit", "0",
                        "--include-idle")
    if functions["filteredFunctionCount"] != len(functions["functions"]):
        raise HarnessError("%s: %d functions of %d listed" % (handle, len(functions["functions"]),
                                                               functions["filteredFunctionCount"]))
    marker_list = [(m["name"], m["category"], m["start"], m.get("duration"))
                   for m in markers if m["threadHandle"] == handle]
    by_name = {}
    for name, category, _start, duration in marker_list:
        entry = by_name.setdefault((name, category), [0, 0.0])
        entry[0] += 1
        entry[1] += duration or 0.0
    return {
        "handle": handle,
        "index": t["threadIndex"],
        "name": t["name"],
        "tid": t["tid"],
        "samples": info["sampleCount"],
        "marker_count": t["markerCount"],
        "markers": by_name,
        "marker_list": marker_list,
        "functions": [(f["name"], f.get("library"), f["selfSamples"], f["totalSamples"])
                      for f in functions["functions"]],
    }


def load(path, timeout=120):
    """What the Firefox Profiler makes of the file at PATH (see the top)."""
    for attempt in range(LOAD_TRIES):
        s = Session(timeout)
        try:
            rc, out, err = s.run("load", os.path.abspath(path), check=False)
            if rc != 0:
                message = (err or out).strip()
                # The CLI gives its daemon half a second to start, which a
                # busy machine can miss; the daemon then goes on starting.
                # A new session, once close() has ended that one, is what
                # the CLI's own message advises.
                if "did not become ready" in message and attempt + 1 < LOAD_TRIES:
                    s.pids.update(int(p) for p in re.findall(r"\bpid (\d+)", message))
                    continue
                return {"error": message, "threads": []}
            threads = s.query("thread", "list", "--sort", "index", "--limit", "0")
            if threads["totalThreadCount"] != len(threads["threads"]):
                raise HarnessError("%d threads of %d listed" % (len(threads["threads"]),
                                                                 threads["totalThreadCount"]))
            # Every thread's markers in one query: the same rows as `thread
            # markers --list`, with the thread's handle.
            markers = s.query("profile", "markers", "--limit", str(MAX_MARKERS))
            if markers["totalCount"] != len(markers["markers"]):
                raise HarnessError("%d markers of %d listed" % (len(markers["markers"]),
                                                                 markers["totalCount"]))
            root = threads["context"]["rootRange"]
            return {"error": None, "range": (root["start"], root["end"]),
                    "threads": [thread_result(s, t, markers["markers"])
                                for t in threads["threads"]]}
        finally:
            s.close()


if __name__ == "__main__":
    import sys

    for arg in sys.argv[1:]:
        result = load(arg)
        for t in result["threads"]:
            t["markers"] = [[k[0], k[1], v[0], v[1]] for k, v in sorted(t["markers"].items())]
        print(json.dumps(result, ensure_ascii=False))
