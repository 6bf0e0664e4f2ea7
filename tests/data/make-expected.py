#!/usr/bin/env python3
"""Writes what the reference reader says about tests/data, for the tests.

Usage: make-expected.py [--check] [--tachgen PATH]

The reference reader is tachgen.py: PATH, else $TACHGEN, else
../shared/tools/tachgen.py beside the source tree.  From it, for every
file in valid/ and invalid/, this writes:

  manifest.json        tachgen's verify (and verify --strict) of each file,
                       as shared/tools/make_corpus.py writes it (the notes
                       are kept from the manifest there is)
  corpus-expected.tsv  the same for the C tests, one line a file: file, ok,
                       phase, samples, threads, max_depth, min_ts, max_ts,
                       status bits (HAS_GIL ON_CPU UNKNOWN GIL_REQUESTED
                       HAS_EXCEPTION MAIN_THREAD), records (REPEAT FULL
                       SUFFIX POP_PUSH), n_warnings, error, and the SHA-256
                       of `dump --raw` (empty for a file it rejects)
  reference.json       per valid file: `info --json`, the per-thread
                       figures of the samples, and the digests of
                       `dump --raw`, of the frame table and of `collapsed`
                       (see tests/tools/reference.py)
  generated/*.tach     profiles the tests cannot write themselves, made
                       by tachgen's `fromjson` (hostile.tach and
                       clients-hostile.tach: names with a NUL, which our
                       writer cannot take)

With --check, nothing is written: the outputs are made afresh and compared
with the files there are; it fails, naming them, when one differs.  The
reference suite runs that.  Standard library only.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(top, "tests", "tools"))
import reference  # noqa: E402

BITS = ["HAS_GIL", "ON_CPU", "UNKNOWN", "GIL_REQUESTED", "HAS_EXCEPTION", "MAIN_THREAD"]
KINDS = ["REPEAT", "FULL", "SUFFIX", "POP_PUSH"]


def find_tachgen(given):
    for path in (given, os.environ.get("TACHGEN"),
                 os.path.join(top, "..", "shared", "tools", "tachgen.py")):
        if path:
            return os.path.abspath(path) if os.path.isfile(path) else None


def load_module(name, path):
    """The Python file at PATH, imported as NAME."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Tachgen:
    def __init__(self, path):
        self.path = path
        self.module = load_module("tachgen", path)

    def run(self, *args):
        p = subprocess.run([sys.executable, self.path] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=here)
        if p.returncode != 0:
            raise RuntimeError("tachgen %s failed (%d): %s"
                               % (" ".join(args), p.returncode, p.stderr.decode()[-2000:]))
        return p.stdout


def corpus_files():
    return ["%s/%s" % (sub, name) for sub in ("valid", "invalid")
            for name in sorted(os.listdir(os.path.join(here, sub))) if name.endswith(".tach")]


def manifest_entry(tg, key, notes):
    """What make_corpus.py writes for KEY."""
    path = os.path.join(here, key)
    res = tg.module.verify_file(path)
    strict = tg.module.verify_file(path, strict=True)
    entry = dict(file=key, size=os.path.getsize(path), note=notes.get(key, ""),
                 ok=res["ok"], strict_ok=strict["ok"])
    if res["ok"]:
        s = res["summary"]
        entry.update(info=res["info"], endian=res["endian"], samples_decoded=s["samples"],
                     threads_seen=s["threads"], max_depth=s["max_depth"],
                     record_counts=s["record_counts"], status_bits=s["status_bits"],
                     min_ts=s["min_ts"], max_ts=s["max_ts"], top_leaf=s["top_leaf"][:5],
                     stats_note=res["stats_note"], warnings=res["warnings"])
    else:
        entry.update(phase=res["phase"], exc=res["exc"], error=res["error"])
        if "info" in res:
            entry["info"] = res["info"]
    if not strict["ok"] and res["ok"]:
        entry["strict_error"] = strict["error"]
    return entry


def reference_entry(tg, key):
    ref = json.loads(tg.run("info", "--json", key))
    ref["details"].pop("path")
    dump = tg.run("dump", "--raw", key)
    collapsed = tg.run("collapsed", key)
    reader = tg.module.TachReader(os.path.join(here, key))
    frames = [reader.frame_tuple(i) for i in range(len(reader.frames))]
    return {
        "info": ref["info"],
        "details": ref["details"],
        "threads": reference.thread_figures(dump),
        "samples": {"lines": dump.count(b"\n"), "sha256": reference.sha256(dump)},
        "frames": {"count": len(frames), "sha256": reference.frames_digest(frames)},
        "collapsed": {"lines": collapsed.count(b"\n"), "bytes": len(collapsed),
                      "sha256": reference.sha256(collapsed)},
    }


def tsv_line(entry, ref):
    if entry["ok"]:
        row = [entry["file"], "1", "", entry["samples_decoded"], entry["threads_seen"],
               entry["max_depth"],
               entry["min_ts"] if entry["min_ts"] is not None else -1,
               entry["max_ts"] if entry["max_ts"] is not None else -1]
        row += [entry["status_bits"][b] for b in BITS]
        row += [entry["record_counts"][k] for k in KINDS]
        row += [len(entry["warnings"]), "", ref["samples"]["sha256"]]
    else:
        row = [entry["file"], "0", entry["phase"]] + ["0"] * 16 + [entry["error"], ""]
    return "\t".join(str(x) for x in row) + "\n"


def hostile_profile(tg, out):
    """The profile of test-export.py's hostile_spec(), by tachgen."""
    module = load_module("test_export", os.path.join(top, "tests", "export", "test-export.py"))
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "hostile.json")
        with open(js, "w", encoding="utf-8") as fh:
            json.dump(module.hostile_spec(), fh)
        tg.run("fromjson", js, "-o", out, "--mode", "wall")


def clients_hostile_profile(tg, out):
    """The profile of hostile() in tests/clients/profiles.py, by tachgen."""
    module = load_module("clients_profiles", os.path.join(top, "tests", "clients", "profiles.py"))
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "clients-hostile.json")
        with open(js, "w", encoding="utf-8") as fh:
            json.dump(module.hostile(), fh)
        tg.run("fromjson", js, "-o", out)


def make(tg, out_dir):
    """Writes every output into OUT_DIR; returns their names."""
    try:
        with open(os.path.join(here, "manifest.json"), encoding="utf-8") as fh:
            notes = {k: e.get("note", "") for k, e in json.load(fh).items()}
    except FileNotFoundError:
        notes = {}
    manifest, refs = {}, {}
    for key in corpus_files():
        manifest[key] = manifest_entry(tg, key, notes)
        if manifest[key]["ok"]:
            refs[key] = reference_entry(tg, key)
    with open(os.path.join(out_dir, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1, default=list)
    with open(os.path.join(out_dir, "corpus-expected.tsv"), "w") as fh:
        for key, entry in sorted(manifest.items()):
            fh.write(tsv_line(entry, refs.get(key)))
    with open(os.path.join(out_dir, "reference.json"), "w") as fh:
        json.dump(refs, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.makedirs(os.path.join(out_dir, "generated"), exist_ok=True)
    hostile_profile(tg, os.path.join(out_dir, "generated", "hostile.tach"))
    clients_hostile_profile(tg, os.path.join(out_dir, "generated", "clients-hostile.tach"))
    return ["manifest.json", "corpus-expected.tsv", "reference.json", "generated/hostile.tach",
            "generated/clients-hostile.tach"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the files there are instead of writing them")
    ap.add_argument("--tachgen", help="the reference reader (tachgen.py)")
    a = ap.parse_args()
    path = find_tachgen(a.tachgen)
    if path is None:
        print("make-expected: the reference reader is not found: give --tachgen, set TACHGEN "
              "to tachgen.py, or put shared/ beside the source")
        # Skipped, for meson; run-tests.sh leaves the reference suite out then.
        return 77 if a.check else 1
    tg = Tachgen(path)

    if not a.check:
        for name in make(tg, here):
            print("make-expected: wrote tests/data/%s" % name)
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        differ = []
        for name in make(tg, tmp):
            with open(os.path.join(tmp, name), "rb") as fh:
                fresh = fh.read()
            try:
                with open(os.path.join(here, name), "rb") as fh:
                    committed = fh.read()
            except FileNotFoundError:
                committed = None
            if fresh != committed:
                differ.append(name)
            print("%s tests/data/%s" % ("differs:" if fresh != committed else "same:   ", name))
    if differ:
        print("make-expected: the reference reader %s no longer says what tests/data holds; "
              "if it is right, run tests/data/make-expected.py and commit the result" % tg.path)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
