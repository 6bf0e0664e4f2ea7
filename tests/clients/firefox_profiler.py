"""Opens files in the Firefox Profiler's own code, from Python.

The npm package @firefox-devtools/profiler-cli (pinned in package-lock.json,
installed in this folder by build-aux/install-deps.sh with `npm ci`) is the
Firefox Profiler's command line: built from the profiler's source, its
daemon imports a file with the profiler's own code (the processed format's
version upgraders, the tables it derives, its call trees and marker
lists) and answers queries about what it made of it.  load(path) starts a
daemon on one file, asks it, and stops it:

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
profiler puts its zero).

The daemon is the one `profiler-cli load` starts (the CLI runs itself
with --daemon FILE --session ID, the command its own messages give for
running it in the foreground), but started here as a child: `load` gives
it half a second to come up and then fails, which a busy machine misses
(a load average of 16 on two cores did, four times in 39), while this
waits for its socket as long as the time limit allows.  The queries go
through the CLI as documented.  Each load runs in a folder of its own
(HOME and the session folder, so no other run's or user's session is
seen), every command has a time limit, and the daemon is stopped, or
killed when it does not stop, whatever happened.
"""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "@firefox-devtools/profiler-cli"
SESSION = "tv"
# The most rows `profile markers` gives.
MAX_MARKERS = 100000


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
    """One daemon, on one file, in a folder of its own."""

    def __init__(self, path, timeout):
        self.cli = cli_path()
        self.node = node()
        self.timeout = timeout
        self.daemon = None
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
        self.log = open(os.path.join(self.home, "daemon.log"), "wb")
        self.daemon = subprocess.Popen(
            [self.node, self.cli, "--daemon", os.path.abspath(path), "--session", SESSION],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            env=self.env, cwd=self.home)

    def daemon_output(self):
        with open(os.path.join(self.home, "daemon.log"), "rb") as fh:
            return fh.read().decode("utf-8", "replace").strip()

    def wait_ready(self):
        """Until the daemon answers on its socket, as the CLI's own test
        of a session does (its metadata, then a connection)."""
        meta = os.path.join(self.sessions, SESSION + ".json")
        deadline = time.monotonic() + self.timeout
        while True:
            if self.daemon.poll() is not None:
                raise HarnessError("the profiler-cli daemon exited (%d) as it started: %s"
                                   % (self.daemon.returncode, self.daemon_output()[-3000:]))
            try:
                with open(meta, encoding="utf-8") as fh:
                    sock_path = json.load(fh)["socketPath"]
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                    sock.connect(sock_path)
                return
            except (OSError, ValueError, KeyError, TypeError):
                pass
            if time.monotonic() > deadline:
                raise HarnessError("the profiler-cli daemon did not answer in %d s"
                                   % self.timeout)
            time.sleep(0.05)

    def run(self, *args):
        """The CLI's return code, standard output and error for ARGS."""
        try:
            p = subprocess.run([self.node, self.cli] + list(args) + ["--session", SESSION],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
                               cwd=self.home, timeout=self.timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise HarnessError("profiler-cli %s: no answer in %d s" % (" ".join(args), self.timeout))
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def query(self, *args):
        rc, out, err = self.run(*args, "--json")
        if rc != 0:
            raise HarnessError("profiler-cli %s failed (%d): %s"
                               % (" ".join(args), rc, (err or out)[-3000:]))
        try:
            return json.loads(out)
        except ValueError as e:
            raise HarnessError("profiler-cli %s: not JSON (%s): %r" % (" ".join(args), e, out[:500]))

    def close(self):
        if self.daemon is not None and self.daemon.poll() is None:
            try:
                self.run("stop")
            except HarnessError:
                pass
            try:
                self.daemon.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
        self.log.close()
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
    s = Session(path, timeout)
    try:
        s.wait_ready()
        # The first query waits for the file to be loaded, and gives the
        # daemon's message when it was refused.
        rc, out, err = s.run("thread", "list", "--sort", "index", "--limit", "0", "--json")
        if rc != 0:
            message = (err or out).strip()
            if "Profile load failed" in message:
                return {"error": message, "range": None, "threads": []}
            raise HarnessError("profiler-cli thread list failed (%d): %s" % (rc, message[-3000:]))
        threads = json.loads(out)
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
