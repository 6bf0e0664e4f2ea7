"""The profiles the clients tests make, as descriptions: the JSON that
tachgen.py fromjson takes, which tests/tools/tachprofile.py writes with
the format library's writer (tach-tool write).

The tests write each profile at test time and replay it from its
description (tachprofile.Described), not from a reader.  The hostile one
holds a NUL in a name, which the library's writer cannot write (it takes
C strings): tests/data/make-expected.py writes that one with the
reference writer, to tests/data/generated/clients-hostile.tach, and the
tests copy it.  The reference suite (`test-clients.py profiles`) checks
that the reference reader reads back from the reference writer's file
what each description says, and that both writers write the same bytes.

PROFILES maps a file name to (description, the file in tests/data that
holds it, or None when the tests write it themselves).  Standard library
only.
"""

import collections

HOSTILE_FUNCS = [
    "\"quoted\" \\back\\slash\\", "</script><script>alert(1)</script>", "ctrl\u0001\u001b[31m\r\n\t",
    "nul\u0000byte", "\u2028\u2029separators", "\u202eevil\u202c rtl", "emoji \U0001F525 \u4e2d\u6587",
    "{\"json\": [1, 2]}", "x" * 5000, "<GC>", "<module>",
]
HOSTILE_FILES = ["/tmp/\"q\".py", "C:\\dir\\file.py", "dir/\u0007bell\r\n.py", "<frozen os>", "~",
                 "<string>", "/srv/app/main.py"]


def hostile():
    """Names made to break the JSON, in every state, one in four frames
    without a location."""
    frames = []
    for i, func in enumerate(HOSTILE_FUNCS):
        frames.append({"file": HOSTILE_FILES[i % len(HOSTILE_FILES)], "func": func,
                       "location": [i + 1, i + 2, i % 5, 20] if i % 4 else None})
    samples = []
    t = 5_000_000
    for k in range(200):
        stack = [frames[(k * 7 + j) % len(frames)] for j in range(1 + k % 5)]
        samples.append({"t": t, "interpreters": [{"id": 0, "threads": [
            {"tid": 7 + k % 2, "status": [1, 3, 2, 8, 0x11, 0x21][k % 6], "frames": stack}]}]})
        t += 997
    return {"start_time_us": 4_999_000, "mode": "wall", "samples": samples,
            "stats": {"duration_sec": 0.2, "sample_rate": 1003.0,
                      "error_rate": 0.0, "missed_samples": 0.0}}


def states():
    """Every state and its changes, <GC> frames, an internal launcher
    frame, two interpreters with one thread id, a 64-bit thread id, a
    repeated timestamp and a stack that is only the launcher."""
    launcher = {"file": "/usr/lib/python3.15/profiling/sampling/_sync_coordinator.py",
                "func": "main", "location": [10, 10, 0, 4]}
    main = {"file": "/srv/app/main.py", "func": "main", "location": [3, 3, 0, 8]}
    work = {"file": "/srv/app/main.py", "func": "work", "location": [9, 9, 4, 12]}
    work2 = {"file": "/srv/app/main.py", "func": "work", "location": [11, 11, 2, 7]}
    gc = {"file": "~", "func": "<GC>", "location": None}
    native = {"file": "<native>", "func": "compress", "location": None}
    stacks = [[work, main, launcher], [work2, work, main, launcher], [gc, work, main, launcher],
              [native, main, launcher], [launcher], [main, launcher]]
    statuses = [0x21, 0x23, 0x22, 0x08, 0x0a, 0x30, 0x31, 0x00, 0x02, 0x01, 0x19, 0x04]
    samples = []
    t = 10_000_000
    for k in range(360):
        threads = []
        for j, (tid, iid) in enumerate([(11, 0), (11, 1), (2 ** 64 - 1, 0), (42, 0)]):
            if (k + j) % 3 == 2 and j:
                continue
            threads.append((iid, {"tid": tid, "status": statuses[(k * (j + 1) + k // 7) % len(statuses)],
                                  "frames": stacks[(k // (j + 1) + j) % len(stacks)]}))
        interps = collections.OrderedDict()
        for iid, th in threads:
            interps.setdefault(iid, []).append(th)
        samples.append({"t": t, "interpreters": [{"id": i, "threads": ths}
                                                 for i, ths in interps.items()]})
        t += 1000 if k % 11 else 0
    return {"start_time_us": 9_999_000, "mode": "wall", "samples": samples,
            "stats": {"duration_sec": 0.36, "sample_rate": 997.5,
                      "error_rate": 0.0, "missed_samples": 0.0}}


def base_names():
    """Two files of one base name with a function of one name first seen
    at one line (two packages' __init__.py, two util.py), and two names in
    angle brackets that end alike after a '/', in two threads, sometimes on
    one stack: the Firefox Profiler must keep each function apart."""
    a_init = {"file": "/srv/a/__init__.py", "func": "<module>", "location": [1, 1, 0, 6]}
    b_init = {"file": "/srv/b/__init__.py", "func": "<module>", "location": [1, 1, 0, 6]}
    a_util = {"file": "/srv/a/util.py", "func": "helper", "location": [5, 5, 4, 9]}
    b_util = {"file": "/srv/b/util.py", "func": "helper", "location": [5, 5, 4, 9]}
    a_frozen = {"file": "<frozen a/x>", "func": "load", "location": None}
    b_frozen = {"file": "<frozen b/x>", "func": "load", "location": None}
    stacks = [[a_util, a_init], [b_util, b_init], [b_util, b_init, a_util, a_init],
              [a_frozen, a_init], [b_frozen, b_init], [a_frozen, b_frozen, a_util, b_init],
              [a_util, b_init]]
    samples = []
    t = 2_000_000
    for k in range(120):
        threads = [{"tid": 5, "status": 0x21, "frames": stacks[k % len(stacks)]}]
        if k % 3:
            threads.append({"tid": 6, "status": 0x03, "frames": stacks[(k * 5 + 1) % len(stacks)]})
        samples.append({"t": t, "interpreters": [{"id": 0, "threads": threads}]})
        t += 1000
    return {"start_time_us": 1_999_000, "mode": "wall", "samples": samples,
            "stats": {"duration_sec": 0.12, "sample_rate": 1000.0,
                      "error_rate": 0.0, "missed_samples": 0.0}}


# The names of terminal_names(), as the file holds them.
TERMINAL_FILE = "app\x1b]0;owned\x07.py"
TERMINAL_FUNC = "evil\x1b[2Jname\nnext"


def terminal_names():
    """A file name with an escape sequence and a bell, a function name
    with one and a newline: test-pstats.py's table must show them, not
    obey them."""
    return {
        "interval_us": 1000, "start_time_us": 1000000, "mode": "wall",
        "samples": [{"t": 1000000 + 1000 * (i + 1), "interpreters": [{"id": 0, "threads": [
            {"tid": 7, "status": 1, "frames": [
                [TERMINAL_FILE, TERMINAL_FUNC, 3, 3, 0, 1, None],
                ["app.py", "main", 1, 1, 0, 1, None]]}]}]} for i in range(3)],
    }


PROFILES = {
    "hostile.tach": (hostile, "generated/clients-hostile.tach"),
    "states.tach": (states, None),
    "base_names.tach": (base_names, None),
    "terminal.tach": (terminal_names, None),
}
