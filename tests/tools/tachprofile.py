"""Profiles made at test time, by the format library's own writer.

write(tool, path, spec, ...) writes the profile SPEC describes, through
`tach-tool write` (tests/tools/tach-tool.c).  SPEC is the description that
the reference writer's `tachgen.py fromjson` takes, so that a test reads
the same with either:

  {"start_time_us": 1000000000, "interval_us": 1000, "python_version":
   [3, 15, 0], "mode": "wall", "stats": {"duration_sec", "sample_rate",
   "error_rate", "missed_samples"},
   "samples": [{"t": TS, "interpreters": [{"id": IID, "threads": [
       {"tid": TID, "status": S, "frames": [innermost first]}]}]}]}

each frame a list [file, function, line, end line, column, end column,
opcode] or a dict {"file", "func", "location": [line, end line, column,
end column] or None, "opcode"}.  The keyword arguments stand for
fromjson's options and win over SPEC, as there.  Values are converted as
CPython's writer converts its Python objects (None: absent).

The writer itself is checked against the reference writer, byte for byte,
in the reference suite (tests/format/test-writer.c --reference).

Described(spec) is what a reader must decode from the file write() makes
of SPEC, for a test that replays the profile it wrote from its own
description rather than from a reader; differences() compares two such
sources of samples.
"""

import collections
import subprocess

MODES = {"wall": 0, "cpu": 1, "gil": 2, "all": 3, "exception": 4}
LOC_NA = -1
OPCODE_NONE = 255
M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
MAX_DEPTH = 256


def to_int32(v):
    """(int32_t) PyLong_AsLong (v), -1 for None or what is not an int."""
    if isinstance(v, bool):
        v = int(v)
    if not isinstance(v, int) or not -(1 << 63) <= v < (1 << 63):
        return LOC_NA
    v &= M32
    return v - (1 << 32) if v >= (1 << 31) else v


def opcode_byte(op):
    if isinstance(op, int) and not isinstance(op, bool) and 0 <= op <= 254:
        return op
    return OPCODE_NONE


def frame_key(fr):
    if isinstance(fr, list):
        fr = dict(zip(["file", "func", "line", "end_line", "col", "end_col", "opcode"], fr))
    loc = fr.get("location", "absent")
    if loc is None:
        numbers = [LOC_NA] * 4
    elif isinstance(loc, list):
        numbers = [to_int32(x) for x in loc]
    else:
        numbers = [to_int32(fr.get(k)) for k in ("line", "end_line", "col", "end_col")]
        if fr.get("end_line", "absent") == "absent":
            numbers[1] = to_int32(fr.get("line"))
    return (fr["file"], fr["func"], *numbers, opcode_byte(fr.get("opcode")))


def hex_name(text):
    data = text.encode("utf-8", "surrogatepass")
    return data.hex() if data else "-"


def mode_raw(mode):
    if mode is None:
        return 0
    if isinstance(mode, int):
        return (mode + 1) & M32
    mode = str(mode).lower()
    if mode in ("unknown", "none", ""):
        return 0
    return (int(mode) if mode.isdigit() else MODES[mode]) + 1


def description(spec, mode=None, endian=None, compression=None, interval_us=None,
                start_time_us=None, python_version=None, stats="spec"):
    """The lines tach-tool write reads.  STATS: "spec" for SPEC's own, None
    for none, or a dict (duration_sec, sample_rate, error_rate,
    missed_samples; format "v56" or "v32")."""
    def option(name, given, default):
        return given if given is not None else spec.get(name, default)

    version = option("python_version", python_version, [3, 15, 0])
    lines = [
        "option big_endian %d" % (option("endian", endian, "little") == "big"),
        "option zstd %d" % (option("compression", compression, "none") in ("zstd", 1)),
        "option python %s" % ".".join(str(int(x)) for x in version),
        "option start_time_us %d" % option("start_time_us", start_time_us, 1_000_000_000),
        "option interval_us %d" % option("interval_us", interval_us, 1000),
        "option mode_raw %d" % mode_raw(option("mode", mode, None)),
    ]
    st = spec.get("stats") if stats == "spec" else stats
    if st:
        size = 32 if st.get("format") == "v32" else 56

        def opt(k):
            v = st.get(k)
            return "-" if v is None or size == 32 else repr(float(v))
        lines.append("stats %d %r %r %s %s" % (size, float(st["duration_sec"]),
                                               float(st["sample_rate"]),
                                               opt("error_rate"), opt("missed_samples")))
    ids = {}
    for smp in spec.get("samples", []):
        for it in smp["interpreters"]:
            for t in it["threads"]:
                stack = []
                for fr in t.get("frames", [])[:256]:
                    key = frame_key(fr)
                    i = ids.get(key)
                    if i is None:
                        i = ids[key] = len(ids)
                        lines.append("frame %d %s %s %d %d %d %d %d"
                                     % ((i, hex_name(key[0]), hex_name(key[1])) + key[2:]))
                    stack.append(str(i))
                lines.append("sample %d %d %d %d %s"
                             % (smp["t"] & ((1 << 64) - 1), it.get("id", 0), t["tid"],
                                t.get("status", 0) & 0xFF, ",".join(stack) or "-"))
    return "\n".join(lines) + "\n"


def write(tool, path, spec, **options):
    """Writes the profile SPEC describes to PATH (see description())."""
    text = description(spec, **options)
    p = subprocess.run([tool, "write", path], input=text.encode("ascii"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("tach-tool write %s failed (%d): %s"
                           % (path, p.returncode, p.stderr.decode("utf-8", "replace")))
    return path


def decoded_name(text):
    """TEXT as a reader gives it back: its UTF-8, invalid bytes replaced."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


class Described:
    """The samples and frames a reader must decode from the file that
    write() makes of SPEC: the interface of reference.Samples and of the
    reference's TachReader (frames, iter_samples(), frame_tuple(),
    start_time_us, sample_interval_us).  Frames are numbered in the order
    the writer interns them, at first use; the samples come in SPEC's
    order, which is each thread's order in the file (across threads the
    file may differ: the writer holds back a thread's repeats until its
    stack changes).  The keyword arguments are write()'s."""

    def __init__(self, spec, start_time_us=None, interval_us=None):
        self.start_time_us = (start_time_us if start_time_us is not None
                              else spec.get("start_time_us", 1_000_000_000))
        self.sample_interval_us = (interval_us if interval_us is not None
                                   else spec.get("interval_us", 1000))
        self.frames = []
        self.samples = []
        ids = {}
        for smp in spec.get("samples", []):
            for it in smp["interpreters"]:
                for t in it["threads"]:
                    stack = []
                    for fr in t.get("frames", [])[:MAX_DEPTH]:
                        key = frame_key(fr)
                        i = ids.get(key)
                        if i is None:
                            i = ids[key] = len(self.frames)
                            self.frames.append((decoded_name(key[0]), decoded_name(key[1]))
                                               + key[2:])
                        stack.append(i)
                    self.samples.append((it.get("id", 0), t["tid"], smp["t"] & M64,
                                         t.get("status", 0) & 0xFF, tuple(stack)))

    def iter_samples(self):
        return iter(self.samples)

    def frame_tuple(self, index):
        return self.frames[index]


def threads_of(source):
    """SOURCE's samples per (thread, interpreter), in order, each as
    (timestamp, status, frames innermost first as tuples)."""
    threads = collections.defaultdict(list)
    frames = {}
    for iid, tid, ts, status, stack in source.iter_samples():
        for i in stack:
            if i not in frames:
                frames[i] = tuple(source.frame_tuple(i))
        threads[(tid, iid)].append((ts, status, tuple(frames[i] for i in stack)))
    return threads


def differences(described, read, what="the file"):
    """How the samples READ from a file differ from those DESCRIBED (both
    with the interface of Described), thread by thread, and the header's
    start time and interval where both know them; WHAT names the file.
    An empty list when they agree."""
    problems = []
    for name in ("start_time_us", "sample_interval_us"):
        a, b = getattr(described, name, None), getattr(read, name, None)
        if a is not None and b is not None and a != b:
            problems.append("%s: %s %r, described %r" % (what, name, b, a))
    want, got = threads_of(described), threads_of(read)
    if sorted(want) != sorted(got):
        problems.append("%s: threads %s, described %s" % (what, sorted(got), sorted(want)))
    for key in sorted(set(want) & set(got)):
        a, b = want[key], got[key]
        if a != b:
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            problems.append("%s: thread %d (interpreter %d): %d samples, described %d; first "
                            "difference at sample %d:\n  read:      %s\n  described: %s"
                            % ((what,) + key + (len(b), len(a), i,
                                                brief(b[i] if i < len(b) else None),
                                                brief(a[i] if i < len(a) else None))))
    return problems


def brief(value, limit=400):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "... (%d characters)" % len(text)
