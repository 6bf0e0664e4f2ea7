#!/usr/bin/env python3
"""Turn the corpus manifest into corpus-expected.tsv, which the C tests read.

Run it again whenever tests/data/manifest.json is refreshed from
shared/corpus.  Columns: file, ok, phase, samples, threads, max_depth,
min_ts, max_ts, status bits (HAS_GIL ON_CPU UNKNOWN GIL_REQUESTED
HAS_EXCEPTION MAIN_THREAD), records (REPEAT FULL SUFFIX POP_PUSH),
n_warnings, error.
"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
manifest = json.load(open(os.path.join(here, "manifest.json")))
bits = ["HAS_GIL", "ON_CPU", "UNKNOWN", "GIL_REQUESTED", "HAS_EXCEPTION", "MAIN_THREAD"]
kinds = ["REPEAT", "FULL", "SUFFIX", "POP_PUSH"]

with open(os.path.join(here, "corpus-expected.tsv"), "w") as out:
    for name, e in sorted(manifest.items()):
        if not os.path.exists(os.path.join(here, name)):
            continue
        if e["ok"]:
            row = [name, "1", "", e["samples_decoded"], e["threads_seen"], e["max_depth"],
                   e["min_ts"] if e["min_ts"] is not None else -1,
                   e["max_ts"] if e["max_ts"] is not None else -1]
            row += [e["status_bits"][b] for b in bits]
            row += [e["record_counts"][k] for k in kinds]
            row += [len(e["warnings"]), ""]
        else:
            row = [name, "0", e["phase"]] + ["0"] * 16 + [e["error"]]
        out.write("\t".join(str(x) for x in row) + "\n")
