"""What the reference reader says about the corpus, for the Python tests.

The reference reader is tachgen.py, beside the project in
../shared/tools (or wherever $TACHGEN says).  A clone has no ../shared, so
its outputs for every file of tests/data are committed there:
reference.json holds, per file, `tachgen.py info --json`, the per-thread
figures of its decoded samples, and the digests of `dump --raw` (the
samples), of the frame table and of `collapsed`.  tests/data/make-expected.py
writes it; the reference suite checks that it still says what the
reference says.

The digests are defined here, once, for the script that writes them and
for the tests that compare with them.  Standard library only.
"""

import hashlib
import json
import os
import subprocess

STATUS_KEYS = ["has_gil", "on_cpu", "unknown", "gil_requested", "has_exception", "main_thread"]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def frames_digest(frames):
    """FRAMES: (file, function, line, end line, column, end column, opcode)
    tuples, in table order."""
    text = json.dumps([list(f) for f in frames], ensure_ascii=True, separators=(",", ":"))
    return sha256(text.encode("ascii"))


def thread_figures(dump):
    """Per (thread, interpreter) figures of a `dump --raw` text: sorted
    [tid, iid, samples, first ts, last ts, [count of each status bit]]."""
    threads = {}
    for line in dump.decode("utf-8").splitlines():
        parts = line.split(" ")
        iid, tid, ts, status = int(parts[0]), int(parts[1]), int(parts[2]), int(parts[3])
        t = threads.get((tid, iid))
        if t is None:
            t = threads[(tid, iid)] = [tid, iid, 0, ts, ts, [0] * len(STATUS_KEYS)]
        t[2] += 1
        t[3] = min(t[3], ts)
        t[4] = max(t[4], ts)
        for bit in range(len(STATUS_KEYS)):
            if status & (1 << bit):
                t[5][bit] += 1
    return [threads[k] for k in sorted(threads)]


def find_tachgen():
    """The reference reader: $TACHGEN, else the default the test
    environment gives (../shared/tools/tachgen.py beside the source); None
    when there is none."""
    for path in (os.environ.get("TACHGEN"), os.environ.get("TACH_REFERENCE_DEFAULT")):
        if path:
            return os.path.abspath(path) if os.path.isfile(path) else None
    return None


def load(data_dir):
    with open(os.path.join(data_dir, "reference.json"), encoding="utf-8") as fh:
        return json.load(fh)


class Mismatch(Exception):
    """Our decoder and the committed reference outputs disagree."""


class Samples:
    """The samples and frames of a corpus file as our decoder reads them
    (tach-tool dump and frames), after checking that they are exactly what
    the reference reader decodes: the same interface as tachgen.py's
    TachReader, iter_samples() and frame_tuple(), for the tests' replays;
    and, from the reference's info, start_time_us and sample_interval_us
    (None for a file without an entry)."""

    OPCODE_NONE = 255

    def __init__(self, tool, expected, key, path):
        """EXPECTED: reference.json, whose entry for KEY the samples of PATH
        must match; None for a profile the test wrote itself, whose samples
        it knows."""
        entry = expected.get(key) if expected is not None else None
        if expected is not None and (entry is None or "samples" not in entry):
            raise Mismatch("%s has no decoded samples in reference.json" % key)
        dump = run_tool(tool, "dump", path)
        if entry is not None and sha256(dump) != entry["samples"]["sha256"]:
            raise Mismatch("%s: our decoder's samples (%d lines) are not the reference's "
                           "(%d lines)" % (key, dump.count(b"\n"), entry["samples"]["lines"]))
        self.frames = [parse_frame(line) for line in run_tool(tool, "frames", path).splitlines()]
        if entry is not None and frames_digest(self.frames) != entry["frames"]["sha256"]:
            raise Mismatch("%s: our frame table (%d frames) is not the reference's (%d)"
                           % (key, len(self.frames), entry["frames"]["count"]))
        info = entry["info"] if entry is not None else {}
        self.start_time_us = info.get("start_time_us")
        self.sample_interval_us = info.get("sample_interval_us")
        self.samples = []
        for line in dump.decode("ascii").splitlines():
            iid, tid, ts, status, stack = line.split(" ")
            self.samples.append((int(iid), int(tid), int(ts), int(status),
                                 tuple(int(i) for i in stack.split(",")) if stack else ()))

    def iter_samples(self):
        return iter(self.samples)

    def frame_tuple(self, index):
        return self.frames[index]


def run_tool(tool, *args):
    p = subprocess.run([tool] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    if p.returncode != 0:
        raise RuntimeError("tach-tool %s failed (%d): %s"
                           % (" ".join(args), p.returncode, p.stderr.decode("utf-8", "replace")))
    return p.stdout


def parse_frame(line):
    words = line.split(b" ")
    names = [b"" if w == b"-" else bytes.fromhex(w.decode("ascii")) for w in words[:2]]
    return tuple(n.decode("utf-8") for n in names) + tuple(int(w) for w in words[2:])
