#!/usr/bin/env python3
# Smoke test of tachyon-bench: a small profile is generated, then decoded,
# loaded into the model, filtered, drawn as a flame graph and as a
# timeline, and a bigger one cancelled while it loads; the JSON line of each measuring mode must parse, hold its keys
# and count every sample.  Each shape of --generate is written small and
# uncompressed, its printed figures held against its records (read here
# from the bytes) and against what `tachyon-viewer --info --json` reads;
# --stages goes through the page's stages on the small profile, and the
# exports it times must be those of `tachyon-viewer --export`.
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

SAMPLES = 20000


def run(bench, *args):
    proc = subprocess.run([bench, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("tachyon-bench %s failed (%d): %s"
                 % (" ".join(args), proc.returncode, proc.stderr.strip()))
    lines = proc.stdout.splitlines()
    if len(lines) != 1:
        sys.exit("expected one line of output, got %r" % proc.stdout)
    return json.loads(lines[0])


def check_decode(bench, path, compressed):
    result = run(bench, "--decode", path, "--runs", "1")
    if result["samples"] != SAMPLES:
        sys.exit("decoded %r samples, expected %d" % (result["samples"], SAMPLES))
    if result["file_bytes"] != os.path.getsize(path):
        sys.exit("file_bytes %r, file has %d" % (result["file_bytes"], os.path.getsize(path)))
    if result["decode_seconds"] <= 0:
        sys.exit("decode_seconds %r" % result["decode_seconds"])
    if compressed:
        if result["zstd_seconds"] <= 0 or not isinstance(result["ratio"], (int, float)):
            sys.exit("compressed file: zstd_seconds %r ratio %r"
                     % (result["zstd_seconds"], result["ratio"]))
    elif result["zstd_seconds"] != 0 or result["ratio"] is not None:
        sys.exit("uncompressed file: zstd_seconds %r ratio %r"
                 % (result["zstd_seconds"], result["ratio"]))
    print(json.dumps(result))


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_keys(mode, result, keys):
    missing = [k for k in keys if k not in result]
    if missing:
        sys.exit("--%s: missing keys %s in %r" % (mode, ", ".join(missing), result))
    if result["samples"] != SAMPLES:
        sys.exit("--%s: %r samples, expected %d" % (mode, result["samples"], SAMPLES))


def check_load(bench, path):
    result = run(bench, "--load", path, "--runs", "3")
    check_keys("load", result, ["samples", "load_seconds", "zstd_seconds", "ratio",
                                "peak_rss_bytes", "bytes_per_sample", "decode_seconds",
                                "decode_cpu_seconds", "populate_seconds", "processors",
                                "floor_ratio", "scan_seconds", "read_floor_ratio"])
    for key in ("load_seconds", "zstd_seconds", "ratio", "decode_seconds",
                "decode_cpu_seconds", "populate_seconds", "floor_ratio", "scan_seconds",
                "read_floor_ratio"):
        if not is_number(result[key]) or result[key] <= 0:
            sys.exit("--load: %s %r" % (key, result[key]))
    # Reading alone can be no slower than the load, which reads too; and no
    # design does better than max(libzstd, reading) on one processor each.
    if result["read_floor_ratio"] < 1 or result["scan_seconds"] > result["load_seconds"]:
        sys.exit("--load: read_floor_ratio %r scan_seconds %r load_seconds %r"
                 % (result["read_floor_ratio"], result["scan_seconds"],
                    result["load_seconds"]))
    if not isinstance(result["processors"], int) or result["processors"] < 1:
        sys.exit("--load: processors %r" % result["processors"])
    if not isinstance(result["peak_rss_bytes"], int) or result["peak_rss_bytes"] <= 0:
        sys.exit("--load: peak_rss_bytes %r" % result["peak_rss_bytes"])
    if not is_number(result["bytes_per_sample"]):
        sys.exit("--load: bytes_per_sample %r" % result["bytes_per_sample"])
    print(json.dumps(result))


def check_filter(bench, path):
    result = run(bench, "--filter", path, "--runs", "3")
    check_keys("filter", result, ["samples", "range_ms", "state_ms", "range_fraction",
                                  "state_fraction", "baseline_ms", "inverted_ms"])
    for key in ("range_ms", "state_ms", "baseline_ms", "inverted_ms"):
        if not is_number(result[key]) or result[key] < 0:
            sys.exit("--filter: %s %r" % (key, result[key]))
    # A tenth of the time span holds about a tenth of the samples.
    if not 0.05 <= result["range_fraction"] <= 0.2:
        sys.exit("--filter: range_fraction %r, expected about 0.1" % result["range_fraction"])
    if not 0 < result["state_fraction"] < 1:
        sys.exit("--filter: state_fraction %r" % result["state_fraction"])
    print(json.dumps(result))


def check_render(bench, path):
    result = run(bench, "--render", path, "--runs", "3")
    check_keys("render", result, ["nodes", "width", "height", "redraw_ms", "layout_ms",
                                  "boxes"])
    if result["width"] != 1920 or result["height"] != 1080:
        sys.exit("--render: %rx%r, expected 1920x1080" % (result["width"], result["height"]))
    if not isinstance(result["nodes"], int) or result["nodes"] < 2:
        sys.exit("--render: nodes %r" % result["nodes"])
    # The root and at least one frame are drawn.
    if not isinstance(result["boxes"], int) or result["boxes"] < 2:
        sys.exit("--render: boxes %r" % result["boxes"])
    for key in ("redraw_ms", "layout_ms"):
        if not is_number(result[key]) or result[key] <= 0:
            sys.exit("--render: %s %r" % (key, result[key]))
    print(json.dumps(result))


def check_timeline(bench, path):
    result = run(bench, "--timeline", path, "--runs", "3", "--zooms", "6")
    check_keys("timeline", result, ["lanes", "build_ms", "draw_ms", "select_ms", "draw_max_ms",
                                    "draw_cpu_ms", "select_cpu_ms", "memory_bytes",
                                    "heatmap_build_ms", "heatmap_first_draw_ms",
                                    "heatmap_draw_ms", "heatmap_select_ms"])
    # The generator's default: 64 threads.
    if result["lanes"] != 64:
        sys.exit("--timeline: lanes %r, expected 64" % result["lanes"])
    for key in ("build_ms", "draw_ms", "select_ms", "draw_max_ms", "draw_cpu_ms",
                "select_cpu_ms", "heatmap_build_ms", "heatmap_first_draw_ms",
                "heatmap_draw_ms", "heatmap_select_ms"):
        if not is_number(result[key]) or result[key] <= 0:
            sys.exit("--timeline: %s %r" % (key, result[key]))
    if result["draw_max_ms"] < result["draw_ms"]:
        sys.exit("--timeline: draw_max_ms %r below draw_ms %r"
                 % (result["draw_max_ms"], result["draw_ms"]))
    if not isinstance(result["memory_bytes"], int) or result["memory_bytes"] <= 0:
        sys.exit("--timeline: memory_bytes %r" % result["memory_bytes"])
    print(json.dumps(result))


def check_compare(bench, base, other):
    # A profile against itself: the same trees, no change, nothing vanished.
    result = run(bench, "--compare", base, base, "--runs", "1")
    missing = [k for k in ("base_samples", "new_samples", "trees_ms", "diff_ms", "base_nodes",
                           "new_nodes", "functions", "significant", "vanished_stacks")
               if k not in result]
    if missing:
        sys.exit("--compare: missing keys %s in %r" % (", ".join(missing), result))
    if result["base_samples"] != SAMPLES or result["new_samples"] != SAMPLES:
        sys.exit("--compare: samples %r %r" % (result["base_samples"], result["new_samples"]))
    if result["base_nodes"] != result["new_nodes"] or result["functions"] <= 0:
        sys.exit("--compare: nodes %r %r, functions %r"
                 % (result["base_nodes"], result["new_nodes"], result["functions"]))
    if result["significant"] != 0 or result["vanished_stacks"] != 0:
        sys.exit("--compare of a file with itself: %r significant, %r vanished"
                 % (result["significant"], result["vanished_stacks"]))
    for key in ("trees_ms", "diff_ms"):
        if not is_number(result[key]) or result[key] <= 0:
            sys.exit("--compare: %s %r" % (key, result[key]))
    print(json.dumps(result))
    result = run(bench, "--compare", base, other, "--runs", "1")
    if result["new_samples"] != SAMPLES * 2:
        sys.exit("--compare: new_samples %r" % result["new_samples"])
    print(json.dumps(result))


def read_uvarint(data, pos):
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


KINDS = ("repeat", "full", "suffix", "pop_push")


def record_figures(path):
    """Samples and bytes of each record kind of an uncompressed file, read
    here from the bytes (SPEC section 4), not by the library that wrote
    them; and the deepest stack."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"HCAT":
        sys.exit("%s: not a little-endian TACH file" % path)
    (string_table_offset,) = struct.unpack_from("<Q", data, 40)
    (compression,) = struct.unpack_from("<I", data, 56)
    if compression != 0:
        sys.exit("%s: expected an uncompressed sample region" % path)
    samples = dict.fromkeys(KINDS, 0)
    sizes = dict.fromkeys(KINDS, 0)
    depths = {}
    max_depth = 0
    pos, end = 64, string_table_offset
    while pos < end:
        start = pos
        thread = data[pos:pos + 12]
        kind = KINDS[data[pos + 12]]
        pos += 13
        if kind == "repeat":
            count, pos = read_uvarint(data, pos)
            for _ in range(count):
                _, pos = read_uvarint(data, pos)
                pos += 1
            samples[kind] += count
        else:
            _, pos = read_uvarint(data, pos)
            pos += 1
            a, pos = read_uvarint(data, pos)
            if kind == "full":
                depth = push = a
            else:
                b, pos = read_uvarint(data, pos)
                push = b
                depth = a + b if kind == "suffix" else depths[thread] - a + b
            for _ in range(push):
                _, pos = read_uvarint(data, pos)
            depths[thread] = depth
            max_depth = max(max_depth, depth)
            samples[kind] += 1
        sizes[kind] += pos - start
    return samples, sizes, end - 64, max_depth


def check_shape(bench, viewer, tmp, shape, extra, bytes_range, depth_range):
    """A shape generated small and uncompressed: its printed figures against
    the records of the file, and the viewer's reading of it."""
    path = os.path.join(tmp, "shape-%s.tach" % shape)
    printed = run(bench, "--generate", str(SAMPLES), path, "--shape", shape, "--no-zstd",
                  *extra)
    samples, sizes, total, max_depth = record_figures(path)
    n = sum(samples.values())
    if n != SAMPLES or printed["samples"] != SAMPLES:
        sys.exit("--shape %s: %d samples in the records, %r printed, expected %d"
                 % (shape, n, printed["samples"], SAMPLES))
    if printed["decompressed_bytes"] != total:
        sys.exit("--shape %s: %r bytes printed, the records take %d"
                 % (shape, printed["decompressed_bytes"], total))
    if abs(printed["bytes_per_sample"] - total / n) > 0.001:
        sys.exit("--shape %s: bytes_per_sample %r, the file has %.3f"
                 % (shape, printed["bytes_per_sample"], total / n))
    if not bytes_range[0] <= printed["bytes_per_sample"] <= bytes_range[1]:
        sys.exit("--shape %s: %r bytes a sample, expected %r"
                 % (shape, printed["bytes_per_sample"], bytes_range))
    for key, counts, whole in (("sample_share_pct", samples, n),
                               ("byte_share_pct", sizes, total)):
        shares = printed[key]
        if set(shares) != set(KINDS) or abs(sum(shares.values()) - 100) > 0.01:
            sys.exit("--shape %s: %s %r does not add up to 100" % (shape, key, shares))
        for kind in KINDS:
            if abs(shares[kind] - 100 * counts[kind] / whole) > 0.001:
                sys.exit("--shape %s: %s of %s %r, the file has %.3f"
                         % (shape, key, kind, shares[kind], 100 * counts[kind] / whole))
    if not depth_range[0] <= max_depth <= depth_range[1]:
        sys.exit("--shape %s: deepest stack %d, expected %r" % (shape, max_depth, depth_range))

    proc = subprocess.run([viewer, "--info", "--json", path], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("tachyon-viewer --info %s failed: %s" % (path, proc.stderr.strip()))
    info = json.loads(proc.stdout)
    decoded = info["decoded"]
    if decoded["samples"] != SAMPLES or decoded["max_depth"] != max_depth:
        sys.exit("--shape %s: the viewer reads %r samples, %r deep; expected %d, %d"
                 % (shape, decoded["samples"], decoded["max_depth"], SAMPLES, max_depth))
    if len(decoded["threads"]) != printed["threads"] or info["frame_count"] < 1:
        sys.exit("--shape %s: %d threads read, %r printed"
                 % (shape, len(decoded["threads"]), printed["threads"]))
    print(json.dumps(printed))
    return path, printed, info


def check_shapes(bench, viewer, tmp):
    _, deep, _ = check_shape(bench, viewer, tmp, "deep", [], (40, 60), (150, 256))
    if deep["threads"] != 64 or deep["byte_share_pct"]["full"] < 50:
        sys.exit("--shape deep: %r threads, %r %% of the bytes in FULL records"
                 % (deep["threads"], deep["byte_share_pct"]["full"]))
    _, wide, info = check_shape(bench, viewer, tmp, "wide", [], (1, 60), (8, 32))
    if wide["functions"] != 10000:
        sys.exit("--shape wide: %r functions" % wide["functions"])
    _, threads, _ = check_shape(bench, viewer, tmp, "threads", ["--threads", "2000"],
                                (1, 60), (3, 3))
    if threads["threads"] != 2000:
        sys.exit("--shape threads --threads 2000: %r threads" % threads["threads"])


STAGE_SECONDS = ("zstd_cpu_s", "decode_cpu_s", "load_cpu_s", "load_wall_s",
                 "first_view_cpu_s", "html_cpu_s", "svg_cpu_s")
STAGE_MS = ("zoom_ms", "callers_callees_ms", "search_ms", "range_ms", "thread_ms",
            "on_cpu_ms", "inverted_ms", "merge_line_ms", "inverted_zoom_ms",
            "inverted_exact_ms", "zoom_detail_ms", "exact_ms", "merge_line_cold_ms",
            "zoom_detail_cold_ms", "inverted_cold_ms")
STAGE_COUNTS = ("samples", "peak_rss_bytes", "nodes", "view_nodes", "function_nodes",
                "html_bytes", "svg_bytes", "decompressed_bytes")


def export(viewer, fmt, path, out):
    proc = subprocess.run([viewer, "--export", fmt, "-o", out, path],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("tachyon-viewer --export %s failed: %s" % (fmt, proc.stderr.strip()))
    with open(out, "rb") as f:
        return f.read()


def check_stages(bench, viewer, tmp, path):
    html = os.path.join(tmp, "stages.html")
    svg = os.path.join(tmp, "stages.svg")
    result = run(bench, "--stages", path, "--runs", "2", "--html", html, "--svg", svg)
    missing = [k for k in STAGE_SECONDS + STAGE_MS + STAGE_COUNTS
               + ("kept_bytes_per_sample", "range_fraction", "zoom_depth") if k not in result]
    if missing:
        sys.exit("--stages: missing keys %s in %r" % (", ".join(missing), result))
    for key in STAGE_SECONDS:
        if not is_number(result[key]) or result[key] <= 0:
            sys.exit("--stages: %s %r" % (key, result[key]))
    # Every interaction has a model API today: none may be null.
    for key in STAGE_MS:
        if not is_number(result[key]) or result[key] < 0:
            sys.exit("--stages: %s %r" % (key, result[key]))
    for key in STAGE_COUNTS:
        if not isinstance(result[key], int) or result[key] <= 0:
            sys.exit("--stages: %s %r" % (key, result[key]))
    if result["samples"] != SAMPLES or result["decoded_samples"] != SAMPLES:
        sys.exit("--stages: %r samples, %r decoded, expected %d"
                 % (result["samples"], result["decoded_samples"], SAMPLES))
    # The first view starts with the load and comes after it.
    if result["first_view_cpu_s"] < result["load_cpu_s"]:
        sys.exit("--stages: first_view_cpu_s %r below load_cpu_s %r"
                 % (result["first_view_cpu_s"], result["load_cpu_s"]))
    if not is_number(result["kept_bytes_per_sample"]) \
            or result["peak_rss_bytes"] < result["kept_bytes"]:
        sys.exit("--stages: kept %r bytes, peak %r" % (result["kept_bytes"],
                                                       result["peak_rss_bytes"]))
    if result["view_nodes"] > result["nodes"] or result["zoom_depth"] != 3:
        sys.exit("--stages: %r view nodes of %r, zoom at depth %r"
                 % (result["view_nodes"], result["nodes"], result["zoom_depth"]))
    # The whole tree by function has every node the view shows, and no
    # more than the exact tree.
    if not result["view_nodes"] <= result["function_nodes"] <= result["nodes"]:
        sys.exit("--stages: %r nodes by function, %r in the view, %r exact"
                 % (result["function_nodes"], result["view_nodes"], result["nodes"]))
    if not 0.05 <= result["range_fraction"] <= 0.2:
        sys.exit("--stages: range_fraction %r, expected about 0.1" % result["range_fraction"])
    # The exports measured are the command line's, byte for byte (an SVG
    # names its cairo surface by a counter of the process).
    with open(html, "rb") as f:
        page = f.read()
    if len(page) != result["html_bytes"] or page != export(viewer, "html", path, html + ".cli"):
        sys.exit("--stages: html_bytes %r, its page %d bytes, not the --export html page"
                 % (result["html_bytes"], len(page)))
    with open(svg, "rb") as f:
        image = f.read()
    surface = re.compile(rb'id="surface[0-9]+"')
    if len(image) != result["svg_bytes"] \
            or surface.sub(b"", image) != surface.sub(b"", export(viewer, "svg", path, svg + ".cli")):
        sys.exit("--stages: svg_bytes %r, its image %d bytes, not the --export svg image"
                 % (result["svg_bytes"], len(image)))
    print(json.dumps(result))


def check_cancel(bench, path, samples):
    result = run(bench, "--cancel", path, "--runs", "2")
    missing = [k for k in ("samples", "runs", "cancelled_at", "cancel_ms", "cancel_min_ms",
                           "cancel_max_ms", "cancel_cpu_ms") if k not in result]
    if missing:
        sys.exit("--cancel: missing keys %s in %r" % (", ".join(missing), result))
    # Cancelled at the first progress report past a third of the samples.
    if result["samples"] != samples or not samples / 3 <= result["cancelled_at"] < samples:
        sys.exit("--cancel: samples %r, cancelled at %r" % (result["samples"],
                                                            result["cancelled_at"]))
    if not (0 <= result["cancel_min_ms"] <= result["cancel_ms"] <= result["cancel_max_ms"]) \
            or result["cancel_cpu_ms"] < 0:
        sys.exit("--cancel: %r" % result)
    print(json.dumps(result))


def main():
    bench = sys.argv[1]
    viewer = sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="tachyon-bench-") as tmp:
        a = os.path.join(tmp, "a.tach")
        b = os.path.join(tmp, "b.tach")
        raw = os.path.join(tmp, "raw.tach")
        run(bench, "--generate", str(SAMPLES), a, "--seed", "7")
        check_decode(bench, a, True)
        check_load(bench, a)
        check_filter(bench, a)
        check_render(bench, a)
        check_timeline(bench, a)
        c = os.path.join(tmp, "c.tach")
        run(bench, "--generate", str(SAMPLES * 2), c, "--seed", "8")
        check_compare(bench, a, c)
        # The generator is deterministic for a seed.
        run(bench, "--generate", str(SAMPLES), b, "--seed", "7")
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() != fb.read():
                sys.exit("two runs with the same seed wrote different files")
        run(bench, "--generate", str(SAMPLES), raw, "--seed", "7", "--no-zstd")
        check_decode(bench, raw, False)
        # Progress comes every 65536 samples: a cancel needs a few of them.
        big = os.path.join(tmp, "big.tach")
        run(bench, "--generate", str(SAMPLES * 15), big, "--seed", "9")
        check_cancel(bench, big, SAMPLES * 15)
        check_shapes(bench, viewer, tmp)
        check_stages(bench, viewer, tmp, a)


if __name__ == "__main__":
    main()
