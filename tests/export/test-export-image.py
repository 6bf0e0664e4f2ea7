#!/usr/bin/env python3
"""Tests of `tachyon-viewer --export svg|png|pdf`.

Usage: test-export-image.py --exe PATH --bench PATH --tool PATH GROUP

GROUP is one of:
  corpus   every valid corpus file in the three formats: the SVG parses and
           carries the title and the four statistics as --info --json has
           them; the PNG's width is --width and its rows of frames are the
           rows a flame graph of the model's tree has (worked out here from
           the HTML export's tree); the PDF is whole
  render   what the pixels say: frame widths proportional to samples, flame
           and icicle, search dimming, dark, the colour schemes, filters
  args     bad image options: exit 1, one line on stderr, no OUT
  hostile  names and a search made to break the SVG's XML
  size     a 1M-sample profile in each format (timed), and a graph too
           tall for one image

Prints TAP.  Standard library only: the PNGs are decoded here (zlib and
the five PNG filters).
"""

import argparse
import importlib.util
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
_spec = importlib.util.spec_from_file_location("test_export", os.path.join(HERE, "test-export.py"))
te = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(te)

SVG_NS = "{http://www.w3.org/2000/svg}"
ROW_HEIGHT = 18          # the flame graph's rows, in pixels (tv-flame-layout.c)
BOX_HEIGHT = 17          # a row less the pixel between rows
MIN_WIDTH, MAX_WIDTH = 320, 8192
MAX_HEIGHT, MAX_PIXELS = 16384, 32 * 1024 * 1024
STAT_LABELS = [("duration_sec", "Duration", " (ns|µs|ms|s|min|h) of wall time"),
               ("sample_rate", "Measured sample rate", " samples/s"),
               ("error_rate", "Error rate", " %"),
               ("missed_samples", "Missed samples", " %")]
# Seconds in each unit a duration is written in.
DURATION_UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------

class Png:
    """A decoded 8-bit RGB or RGBA PNG, non-interlaced (what cairo writes)."""

    def __init__(self, data):
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            raise ValueError("not a PNG signature: %r" % data[:8])
        pos = 8
        self.chunks = []
        idat = []
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
            if zlib.crc32(kind + body) != crc:
                raise ValueError("bad CRC in chunk %r" % kind)
            self.chunks.append((kind, body))
            if kind == b"IDAT":
                idat.append(body)
            pos += 12 + length
            if kind == b"IEND":
                break
        if self.chunks[0][0] != b"IHDR" or self.chunks[-1][0] != b"IEND":
            raise ValueError("chunks: %r" % [c[0] for c in self.chunks])
        (self.width, self.height, depth, color, _, _, interlace) = struct.unpack(
            ">IIBBBBB", self.chunks[0][1])
        if depth != 8 or color not in (2, 6) or interlace != 0:
            raise ValueError("unexpected PNG: depth %d colour type %d interlace %d"
                             % (depth, color, interlace))
        self.bpp = 3 if color == 2 else 4
        self.idat = b"".join(idat)
        self._rows = None

    def text(self):
        """The iTXt chunks, keyword -> text."""
        out = {}
        for kind, body in self.chunks:
            if kind == b"iTXt":
                keyword, rest = body.split(b"\0", 1)
                flag, method = rest[0], rest[1]
                lang, rest = rest[2:].split(b"\0", 1)
                _, text = rest.split(b"\0", 1)
                if flag != 0:
                    text = zlib.decompress(text)
                out[keyword.decode("latin-1")] = text.decode("utf-8")
        return out

    def rows(self):
        """Rows of pixels, each a list of (r, g, b)."""
        if self._rows is None:
            raw = zlib.decompress(self.idat)
            stride = self.width * self.bpp
            bpp = self.bpp
            prev = bytearray(stride)
            rows = []
            pos = 0
            for _ in range(self.height):
                kind = raw[pos]
                line = bytearray(raw[pos + 1:pos + 1 + stride])
                pos += 1 + stride
                if kind == 1:
                    for i in range(bpp, stride):
                        line[i] = (line[i] + line[i - bpp]) & 0xff
                elif kind == 2:
                    for i in range(stride):
                        line[i] = (line[i] + prev[i]) & 0xff
                elif kind == 3:
                    for i in range(stride):
                        left = line[i - bpp] if i >= bpp else 0
                        line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xff
                elif kind == 4:
                    for i in range(stride):
                        a = line[i - bpp] if i >= bpp else 0
                        b = prev[i]
                        c = prev[i - bpp] if i >= bpp else 0
                        p = a + b - c
                        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                        line[i] = (line[i] + pred) & 0xff
                elif kind != 0:
                    raise ValueError("bad filter %d" % kind)
                rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
                prev = line
            self._rows = rows
        return self._rows

    def pixel(self, x, y):
        return self.rows()[y][x]


# The title's and caption's opaque text colours (light, dim light, dim dark,
# dark): a bar "|" in the title's font can be as tall as a frame.
TEXT_GREYS = {(v, v, v) for g in (0.10, 0.36, 0.70, 0.93)
              for v in range(round(g * 255) - 1, round(g * 255) + 2)}


def box_rows(png):
    """The rows of frames: {top y: [(first x, last x) of each box]}.

    A frame is 17 pixels tall with a background pixel above and below;
    nothing else in the image (text, legend squares) makes a column of 17
    identical non-background pixels, so such columns find the rows.  A
    label breaks the columns it crosses, so a box is a run of one colour
    along its row's top line (above the text) that holds such a column."""
    rows = png.rows()
    bg = rows[0][0]
    solid = {}
    for x in range(png.width):
        y = 0
        while y < png.height:
            c = rows[y][x]
            if c == bg:
                y += 1
                continue
            top = y
            while y < png.height and rows[y][x] == c:
                y += 1
            if y - top == BOX_HEIGHT and (top == 0 or rows[top - 1][x] != c) \
                    and c not in TEXT_GREYS:
                solid.setdefault(top, set()).add(x)
    boxes = {}
    for top, xs in solid.items():
        line = rows[top]
        runs = []
        x = 0
        while x < png.width:
            c = line[x]
            start = x
            while x < png.width and line[x] == c:
                x += 1
            if c != bg and any(u in xs for u in range(start, x)):
                runs.append((start, x - 1))
        boxes[top] = runs
    return boxes


def check_row_tops(tops):
    """Problems if the rows' tops are not one every ROW_HEIGHT pixels."""
    tops = sorted(tops)
    if tops and tops != list(range(tops[0], tops[0] + ROW_HEIGHT * len(tops), ROW_HEIGHT)):
        return ["rows of frames are not %d pixels apart: %r" % (ROW_HEIGHT, tops[:12])]
    return []


class Svg:
    def __init__(self, data):
        self.root = ET.fromstring(data)
        if self.root.tag != SVG_NS + "svg":
            raise ValueError("root element %r" % self.root.tag)
        title = self.root.find(SVG_NS + "title")
        desc = self.root.find(SVG_NS + "desc")
        self.title = title.text if title is not None else None
        self.desc = desc.text if desc is not None else None
        self.width = self.root.get("width")
        self.height = self.root.get("height")


def check_pdf(data):
    problems = []
    if not data.startswith(b"%PDF-"):
        problems.append("PDF does not start with %%PDF-: %r" % data[:10])
    if not data.rstrip().endswith(b"%%EOF"):
        problems.append("PDF does not end with %%%%EOF: %r" % data[-20:])
    if b"/Title" not in data:
        problems.append("PDF has no /Title")
    return problems


def export(env, path, fmt, *extra, tmp=None):
    """Runs an export; returns (bytes or None, problems)."""
    d = tempfile.mkdtemp(prefix="tv-image-", dir=tmp)
    try:
        out = os.path.join(d, "out." + fmt)
        rc, stdout, err = env.run("--export", fmt, "-o", out, *(list(extra) + [path]))
        if rc != 0:
            return None, ["--export %s %s: exit %d, stderr %r" % (fmt, " ".join(extra), rc, err)]
        problems = []
        if stdout or err:
            problems.append("output on stdout/stderr: %r %r" % (stdout[:200], err[:300]))
        if os.listdir(d) != [os.path.basename(out)]:
            problems.append("files left: %r" % os.listdir(d))
        with open(out, "rb") as fh:
            return fh.read(), problems
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------------------
# The rows a flame graph has, worked out from the HTML export's tree
# ---------------------------------------------------------------------------

def function_tree(d):
    """The page's tree merged by function (file and name), as TV_MERGE_FUNCTION
    merges: (children: {node: [child]}, total: {node: samples})."""
    n, parent, frame = te.tree_of(d)
    s = d["strings"]
    self_count = [0] * n
    for t in d["threads"]:
        for node, count in te.thread_pairs(t):
            self_count[node] += count
    merged = [0] * n         # page node -> merged node
    keys = {}                # (merged parent, func, file) -> merged node
    children = {0: []}
    total = {0: 0}
    for i in range(1, n):
        f = frame[i]
        k = (merged[parent[i]], s[d["frames"][7 * f]], s[d["frames"][7 * f + 1]])
        m = keys.get(k)
        if m is None:
            m = keys[k] = len(children)
            children[m] = []
            total[m] = 0
            children[k[0]].append(m)
        merged[i] = m
    depth_first = [0]
    for u in depth_first:
        depth_first.extend(children[u])
    for i in range(n):
        total[merged[i]] += self_count[i]
    # Totals: add each merged node's to its ancestors, deepest first.
    parent_of = {c: p for p, cs in children.items() for c in cs}
    sums = dict(total)
    for u in reversed(depth_first):
        if u != 0:
            sums[parent_of[u]] += sums[u]
    return children, sums


def expected_rows(children, total, graph_width):
    """tv_flame_layout_new's row count with every row laid out: a child narrower
    than a pixel is merged with its narrow neighbours into a box one row up,
    and not walked into."""
    root_total = total[0]
    if root_total == 0:
        return 0
    scale = graph_width / root_total
    min_samples = 1.0 / scale
    deepest = 0
    stack = [(0, 0)]
    while stack:
        node, row = stack.pop()
        deepest = max(deepest, row + 1)
        for c in children[node]:
            if total[c] < min_samples:
                deepest = max(deepest, row + 2)
            else:
                stack.append((c, row + 1))
    return deepest


# ---------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------

def check_caption(desc, info):
    """The four statistics (or "not recorded") and the header facts."""
    problems = []
    if desc is None:
        return ["no description"]
    for key, label, unit in STAT_LABELS:
        # At most three significant digits (a duration always three), grouped
        # by thousands: the figure is --info --json's to within half a unit
        # of its third digit.
        m = re.search(re.escape(label) + r": (not recorded|-?[0-9,]+(?:\.[0-9]+)?)(" + unit
                      + ")?", desc)
        if m is None:
            problems.append("%s is not in the caption: %r" % (label, desc))
            continue
        ref = info[key]
        if ref is None:
            if m.group(1) != "not recorded":
                problems.append("%s: %r, --info says null" % (label, m.group(1)))
            continue
        if m.group(1) == "not recorded" or m.group(2) is None:
            problems.append("%s: %r, --info says %r" % (label, m.group(0), ref))
            continue
        shown = float(m.group(1).replace(",", ""))
        if key == "duration_sec":
            shown *= DURATION_UNITS[m.group(3)]
        digits = len(m.group(1).replace(",", "").replace("-", "").replace(".", "").lstrip("0"))
        if ref == 0:
            ok = shown == 0
        else:
            most = 3 if key == "duration_sec" else digits
            ok = (abs(shown - ref) <= 0.005 * abs(ref) * 1.0000001
                  and (digits == most <= 3 or (digits > 3 and "." not in m.group(1))))
        if not ok:
            problems.append("%s: %r, --info says %r" % (label, m.group(0), ref))
    facts = ["Python version: %s" % info["python_version"],
             "Samples: {:,} thread-samples (header)".format(info["sample_count"]),
             "Sample interval: {:,} µs".format(info["sample_interval_us"])]
    if info["mode"] is not None:
        facts.append("Profiling mode: %s" % info["mode"])
    elif "Profiling mode: not recorded" not in desc:
        # Not a mode CPython knows: the raw value.
        facts.append("Profiling mode: unknown (raw value 0x")
    for fact in facts:
        if fact not in desc:
            problems.append("%r is not in the caption: %r" % (fact, desc))
    return problems


def check_corpus_file(env, path, tmp):
    problems = []
    rc, out, err = env.run("--info", "--json", path)
    if rc != 0:
        return ["--info --json: exit %d %s" % (rc, err)]
    info = te.strict_json(out)
    name = os.path.basename(path)
    n = info["decoded"]["samples"]

    svg_bytes, p = export(env, path, "svg", tmp=tmp)
    problems += p
    if svg_bytes is not None:
        try:
            svg = Svg(svg_bytes)
        except (ET.ParseError, ValueError) as e:
            return problems + ["the SVG is not XML: %s" % e]
        if svg.width != "1200":
            problems.append("SVG width %r, expected the default 1200" % svg.width)
        if svg.title != name:
            problems.append("SVG title %r, expected %r" % (svg.title, name))
        problems += check_caption(svg.desc, info)
        if "{:,} of {:,} samples, ".format(n, n) not in (svg.desc or ""):
            problems.append("the caption does not say %d of %d samples" % (n, n))
        if len(svg.root) < 3:
            problems.append("the SVG draws nothing")

    # The three formats have one geometry (a PDF in points, 0.75 a pixel).
    pdf, p = export(env, path, "pdf", tmp=tmp)
    problems += p
    if pdf is not None:
        problems += check_pdf(pdf)
        box = re.search(rb"/MediaBox \[ *0 0 ([0-9.]+) ([0-9.]+) *\]", pdf)
        if box is None:
            problems.append("no /MediaBox in the PDF")
        elif svg_bytes is not None and (float(box.group(1)), float(box.group(2))) != (
                0.75 * float(svg.width), 0.75 * float(svg.height)):
            problems.append("PDF page %r, SVG %sx%s" % (box.groups(), svg.width, svg.height))
    png_bytes, p = export(env, path, "png", tmp=tmp)
    problems += p
    if png_bytes is not None and svg_bytes is not None:
        png = Png(png_bytes)
        if (png.width, png.height) != (1200, int(svg.height)):
            problems.append("PNG %dx%d, SVG %sx%s" % (png.width, png.height, svg.width,
                                                     svg.height))

    # A narrow PNG decodes fast enough here.
    width = 400
    png_bytes, p = export(env, path, "png", "--width", str(width), tmp=tmp)
    problems += p
    if png_bytes is None:
        return problems
    png = Png(png_bytes)
    if png.width != width:
        problems.append("PNG width %d, expected --width %d" % (png.width, width))
    text = png.text()
    if text.get("Title") != name:
        problems.append("PNG Title %r" % text.get("Title"))
    problems += check_caption(text.get("Description"), info)

    boxes = box_rows(png)
    tops = sorted(boxes)
    problems += check_row_tops(tops)
    page, p = te.export_html(env, path)
    if page is None:
        return problems + p
    children, total = function_tree(page.data)
    if not tops:
        if total[0] != 0:
            problems.append("no rows of frames in the PNG of %d samples" % total[0])
        return problems
    # The root's box spans the graph: the margins are its distance to the
    # image's edges (less the pixel between neighbours at its right).
    root = boxes[tops[-1]]
    left, right = root[0][0], root[-1][1]
    if len(root) != 1 or png.width - 2 - right != left:
        problems.append("the root box %r is not centred in %d pixels" % (root, png.width))
    graph_width = png.width - 2 * left
    rows = expected_rows(children, total, graph_width)
    if len(tops) != rows:
        problems.append("%d rows of frames in the PNG; a %d-pixel-wide flame graph of the "
                        "model's tree has %d" % (len(tops), graph_width, rows))
    if len(tops) > info["decoded"]["max_depth"] + 1:
        problems.append("%d rows, more than max_depth + 1 = %d"
                        % (len(tops), info["decoded"]["max_depth"] + 1))
    band = png.height - len(tops) * ROW_HEIGHT
    if not 60 <= band <= 400:
        problems.append("%d pixels of title and caption for %d rows in %d: implausible"
                        % (band, len(tops), png.height))
    return problems


# ---------------------------------------------------------------------------
# render
# ---------------------------------------------------------------------------

def frame(func, line, file="app.py"):
    return {"file": file, "func": func, "location": [line, line, 0, 4], "opcode": 100}


def sample_profile(env, tmp, name, stacks, tids=(1,), status=1):
    """A profile of (leaf-first stack, count) pairs, spread over TIDS."""
    samples = []
    t = 1_000_000_000
    k = 0
    for stack, count in stacks:
        for _ in range(count):
            samples.append({"t": t, "interpreters": [{"id": 0, "threads": [
                {"tid": tids[k % len(tids)], "status": status, "frames": stack}]}]})
            t += 1000
            k += 1
    spec = {"samples": samples, "stats": {"duration_sec": 0.1, "sample_rate": 1000.0,
                                          "error_rate": 0.0, "missed_samples": 0.0}}
    return env.write_profile(os.path.join(tmp, name), spec, mode="wall")


def luminance(c):
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def render_cases(env):
    tmp = tempfile.mkdtemp(prefix="tv-image-render-")
    cases = []
    main, a, b = frame("main", 1), frame("alpha", 10), frame("beta", 20)
    # main calls alpha for 75 samples and beta for 25.
    two = sample_profile(env, tmp, "two.tach", [([a, main], 75), ([b, main], 25)], tids=(1, 2))
    W = 820

    def layout_of(*extra):
        data, problems = export(env, two, "png", "--width", str(W), *extra, tmp=tmp)
        if data is None:
            return None, None, problems
        png = Png(data)
        boxes = box_rows(png)
        problems += check_row_tops(list(boxes))
        return png, boxes, problems

    def widths():
        png, boxes, problems = layout_of()
        if png is None:
            return problems
        tops = sorted(boxes)
        if len(tops) != 3:
            return problems + ["expected 3 rows (all, main, alpha|beta), found %d" % len(tops)]
        root, mid, top = boxes[tops[2]], boxes[tops[1]], boxes[tops[0]]
        left = root[0][0]
        graph = png.width - 2 * left
        if len(root) != 1 or root[0] != (left, png.width - left - 2):
            problems.append("root box %r in %d pixels" % (root, png.width))
        if mid != root:
            problems.append("main %r should be as wide as the root %r" % (mid, root))
        if len(top) != 2:
            return problems + ["expected two boxes above main, found %r" % top]
        (a0, a1), (b0, b1) = top
        # Each box is its share of the graph, less the pixel that separates
        # it from its right neighbour.
        if a0 != left or abs((a1 - a0 + 2) - 0.75 * graph) > 1:
            problems.append("alpha spans %r: expected 75 %% of %d pixels from %d"
                            % ((a0, a1), graph, left))
        if b0 != a1 + 2 or abs((b1 - b0 + 2) - 0.25 * graph) > 1 or b1 != root[0][1]:
            problems.append("beta spans %r: expected the last 25 %% of %d pixels"
                            % ((b0, b1), graph))
        return problems
    cases.append(("frame widths are their share of the samples", widths))

    def tiny_frames():
        # Beside alpha's 30,000 samples, 1,000 frames of one sample each,
        # under a tenth of a pixel: the tree leaves them out as it is made,
        # and they are drawn after alpha, as the window draws them, in one
        # box as wide as their samples.  A search keeps every frame: they
        # come first, in name order, and alpha after them.
        stacks = [([a, main], 30000)] + [([frame("aa%03d" % i, 5), main], 1)
                                         for i in range(1000)]
        path = sample_profile(env, tmp, "tiny.tach", stacks)
        problems = []
        for extra, first in (((), True), (("--search", "alpha"), False)):
            data, p = export(env, path, "png", "--width", str(W), *extra, tmp=tmp)
            problems += p
            if data is None:
                continue
            png = Png(data)
            boxes = box_rows(png)
            tops = sorted(boxes)
            root = boxes[tops[-1]][0]
            left, graph = root[0], png.width - 2 * root[0]
            tiny = 1000 / 31000 * graph
            alpha = max(boxes[tops[0]], key=lambda box: box[1] - box[0])
            start = left if first else left + tiny
            if abs(alpha[0] - start) > 1 or abs(alpha[1] - alpha[0] + 2 - (graph - tiny)) > 1:
                problems.append("%s: alpha spans %r, expected %d pixels from %d"
                                % (extra or "whole", alpha, graph - tiny, start))
        return problems
    cases.append(("frames under a tenth of a pixel are left out, drawn after the others",
                  tiny_frames))

    def orientation():
        png, boxes, problems = layout_of("--icicle")
        if png is None:
            return problems
        tops = sorted(boxes)
        if len(tops) != 3 or len(boxes[tops[0]]) != 1 or len(boxes[tops[2]]) != 2:
            problems.append("icicle: expected the root at the top and alpha|beta at the "
                            "bottom, found %r" % [boxes[t] for t in tops])
        flame, fboxes, p = layout_of()
        problems += p
        if flame is not None and flame.height != png.height:
            problems.append("flame %d and icicle %d pixels tall" % (flame.height, png.height))
        return problems
    cases.append(("--icicle puts the root at the top", orientation))

    def search():
        plain, pboxes, problems = layout_of()
        found, fboxes, p = layout_of("--search", "^ALPHA$")
        problems += p
        if plain is None or found is None:
            return problems
        tp, tf = sorted(pboxes)[0], sorted(fboxes)[0]
        (a0, _), (b0, _) = pboxes[tp]
        pa, pb = plain.pixel(a0 + 1, tp), plain.pixel(b0 + 1, tp)
        fa, fb = found.pixel(a0 + 1, tf), found.pixel(b0 + 1, tf)
        if fa != pa:
            problems.append("the matching frame changed colour: %r -> %r" % (pa, fa))
        if not luminance(fb) > luminance(pb) + 20:
            problems.append("the frame that does not match is not dimmed: %r -> %r" % (pb, fb))
        desc = found.text().get("Description", "")
        if "search “^ALPHA$”: 1 frame matches, 75.0 % of the samples" not in desc:
            problems.append("the caption does not give the share matched: %r" % desc)
        return problems
    cases.append(("--search dims what does not match (caseless) and says the share", search))

    def dark():
        png, boxes, problems = layout_of("--dark")
        if png is None:
            return problems
        if png.pixel(0, 0) != (0x1e, 0x1e, 0x1e):
            problems.append("dark background %r" % (png.pixel(0, 0),))
        if len(boxes) != 3:
            problems.append("dark: %d rows" % len(boxes))
        return problems
    cases.append(("--dark draws on a dark background", dark))

    def schemes():
        problems = []
        colours = {}
        for scheme in ("module", "heat", "state"):
            png, boxes, p = layout_of("--colors", scheme)
            problems += p
            if png is None:
                continue
            top = sorted(boxes)[0]
            colours[scheme] = png.pixel(boxes[top][0][0] + 1, top)
            desc = png.text().get("Description", "")
            if "Colours" not in desc:
                problems.append("%s: no legend in %r" % (scheme, desc))
        if len(set(colours.values())) != 3:
            problems.append("the schemes colour alpha alike: %r" % colours)
        return problems
    cases.append(("--colors module, heat and state colour differently", schemes))

    def thread_filter():
        problems = []
        full, fp = export(env, two, "svg", tmp=tmp)
        one, op = export(env, two, "svg", "--thread", "2", tmp=tmp)
        problems += fp + op
        if full is None or one is None:
            return problems
        if full == one:
            problems.append("--thread 2 gives the same SVG")
        desc = Svg(one).desc or ""
        if "thread 2" not in desc or "50 of 100 samples" not in desc:
            problems.append("the caption does not say thread 2, 50 of 100 samples: %r" % desc)
        png, boxes, p = layout_of("--thread", "1", "--state", "gil", "--range", "0:1",
                                  "--inverted")
        problems += p
        if png is not None:
            desc = png.text().get("Description", "")
            for want in ("Inverted flame graph", "thread 1", "holding the GIL",
                         "from 0.0 s to 1.0 s"):
                if want not in desc:
                    problems.append("%r is not in the caption %r" % (want, desc))
            # Inverted: alpha and beta at the root, main above each.
            tops = sorted(boxes)
            if len(tops) != 3 or len(boxes[tops[1]]) != 2:
                problems.append("inverted rows %r" % [boxes[t] for t in tops])
        return problems
    cases.append(("--thread, --state, --range and --inverted change the image", thread_filter))

    def transforms_said():
        """The title line says which transforms were applied."""
        problems = []
        plain, p = export(env, two, "svg", tmp=tmp)
        problems += p
        if plain is not None:
            desc = Svg(plain).desc or ""
            for word in ("focus on", "hidden", "recursion collapsed"):
                if word in desc:
                    problems.append("%r in the caption of an untransformed graph: %r"
                                    % (word, desc))
        for extra, wants in (
                (["--focus", "main", "--hide", "beta", "--collapse-recursion"],
                 ["focus on main (app.py)", "beta (app.py) hidden", "recursion collapsed",
                  "100 of 100 samples"]),
                (["--hide", "alpha", "--hide", "beta"], ["2 hidden functions"])):
            data, p = export(env, two, "svg", *extra, tmp=tmp)
            problems += p
            desc = Svg(data).desc or "" if data is not None else ""
            for want in wants:
                if want not in desc:
                    problems.append("%s: %r is not in the caption %r" % (" ".join(extra), want, desc))
        return problems
    cases.append(("the caption says focus, hidden functions and collapsed recursion",
                  transforms_said))

    def ranges_said():
        """Several --range: the samples in them, and how many ranges and
        seconds, in the caption."""
        rc, out, err = env.run("--info", "--json", two)
        if rc != 0:
            return ["--info --json: exit %d %s" % (rc, err)]
        info = te.json.loads(out)
        first = (info["decoded"]["first_timestamp_us"] - info["start_time_us"]) / 1e6
        # A sample a millisecond: [10, 30) and [50, 60) ms hold 30 of them;
        # [15, 25) merges into the first.
        at = lambda ms: repr(first + ms / 1000)  # noqa: E731
        ranges = ["--range=%s:%s" % (at(50), at(60)), "--range=%s:%s" % (at(10), at(30)),
                  "--range=%s:%s" % (at(15), at(25))]
        data, problems = export(env, two, "svg", *ranges, tmp=tmp)
        desc = Svg(data).desc or "" if data is not None else ""
        for want in ("30 of 100 samples, 30.0 ms of thread time",
                     "in 2 selected time ranges (30.0 ms of wall time)"):
            if want not in desc:
                problems.append("%r is not in the caption %r" % (want, desc))
        if "the whole recording" in desc:
            problems.append("the caption also says the whole recording: %r" % desc)
        return problems
    cases.append(("several --range: the caption gives the ranges and their seconds", ranges_said))

    def empty():
        problems = []
        path = os.path.join(env.data, "valid", "empty.tach")
        for fmt in ("svg", "png", "pdf"):
            data, p = export(env, path, fmt, tmp=tmp)
            problems += p
            if data is None:
                continue
            if fmt == "svg":
                svg = Svg(data)
                if "0 of 0 samples" not in (svg.desc or ""):
                    problems.append("empty: %r" % svg.desc)
            elif fmt == "png":
                png = Png(data)
                if box_rows(png):
                    problems.append("rows of frames in an empty profile")
            else:
                problems += check_pdf(data)
        return problems
    cases.append(("an empty profile gives an image that says so", empty))

    def stdout():
        data, problems = export(env, two, "png", tmp=tmp)
        rc, out, err = env.run("--export", "png", "-o", "-", two)
        if rc != 0 or err or out != data:
            problems.append("-o -: exit %d, %d bytes (expected %d), stderr %r"
                            % (rc, len(out), len(data or b""), err))
        return problems
    cases.append(("-o - writes the same PNG to stdout", stdout))
    return cases, tmp


# ---------------------------------------------------------------------------
# args
# ---------------------------------------------------------------------------

def args_cases(env):
    tiny = os.path.join(env.data, "valid", "tiny.tach")
    bad = os.path.join(env.data, "invalid", "sample_count_mismatch.tach")
    tmp = tempfile.mkdtemp(prefix="tv-image-args-")
    cases = []

    def fails(name, args, expected):
        def fn():
            d = tempfile.mkdtemp(dir=tmp)
            real = [a.replace("@OUT@", os.path.join(d, "out")) for a in args]
            return te.check_fails(env, real, expected, d)
        cases.append(("fails: " + name, fn))

    o = ["-o", "@OUT@"]
    for w in ("0", "319", "8193", "99999999999", "abc", "-5", "+800", "0x400", "1200px", "",
              " 800", "12.5"):
        fails("--width %r" % w, ["--export", "png"] + o + ["--width=" + w, tiny],
              "Invalid width “%s”: expected a number of pixels from %d to %d"
              % (w, MIN_WIDTH, MAX_WIDTH))
    fails("--colors", ["--export", "svg"] + o + ["--colors", "rainbow", tiny],
          "Unknown colour scheme “rainbow”")
    fails("--search not a regex", ["--export", "pdf"] + o + ["--search", "(unclosed", tiny],
          "Invalid search “(unclosed”")
    for opt in (["--width", "800"], ["--colors", "heat"], ["--dark"]):
        for fmt in ("html", "collapsed"):
            fails("%s with %s" % (opt[0], fmt), ["--export", fmt] + o + opt + [tiny],
                  "--width, --colors and --dark can only be used with --export svg, png or pdf")
        fails("%s without --export" % opt[0], opt + [tiny],
              "%s can only be used with --export" % opt[0])
    # The page draws both orientations and searches too.
    for opt in (["--icicle"], ["--search", "x"]):
        fails("%s with collapsed" % opt[0], ["--export", "collapsed"] + o + opt + [tiny],
              "do not apply to --export collapsed")
        fails("%s without --export" % opt[0], opt + [tiny],
              "%s can only be used with --export" % opt[0])
    fails("--dark with --info", ["--info", "--dark", tiny], "can only be used with --export")
    fails("thread not in the profile", ["--export", "png"] + o + ["--thread", "7", tiny],
          "Thread 7 is not in this profile (its threads: 4242)")
    fails("bad range", ["--export", "svg"] + o + ["--range", "2:1", tiny], "Invalid time range")
    for fmt in ("svg", "png", "pdf"):
        fails("decode error, %s" % fmt, ["--export", fmt] + o + [bad], "Sample count mismatch")
    fails("invalid file", ["--export", "pdf"] + o +
          [os.path.join(env.data, "invalid", "bad_magic.tach")], "Invalid magic number")
    fails("missing -o", ["--export", "svg", tiny], "-o")

    def keeps_existing():
        problems = []
        for fmt in ("svg", "png", "pdf"):
            d = tempfile.mkdtemp(dir=tmp)
            keep = os.path.join(d, "keep.html")
            with open(keep, "w") as fh:
                fh.write("keep me\n")
            problems += te.check_fails(env, ["--export", fmt, "-o", keep, bad], "Sample count", d)
            problems += te.check_fails(env, ["--export", fmt, "-o", keep, "--width", "1",
                                             tiny], "Invalid width", d)
            with open(keep) as fh:
                if fh.read() != "keep me\n":
                    problems.append("%s: the existing OUT was changed" % fmt)
        return problems
    cases.append(("a failed image export keeps an existing OUT", keeps_existing))

    def limits():
        problems = []
        for w in (MIN_WIDTH, MAX_WIDTH):
            data, p = export(env, tiny, "png", "--width", str(w), tmp=tmp)
            problems += p
            if data is not None and Png(data).width != w:
                problems.append("--width %d gave %d" % (w, Png(data).width))
        return problems
    cases.append(("--width takes its limits", limits))

    def help_lists_options():
        rc, stdout, err = env.run("--help")
        text = stdout.decode("utf-8", "replace")
        want = ("--width", "--icicle", "--colors", "--dark", "--search", "svg, png or pdf")
        missing = [w for w in want if w not in text]
        return ["--help: exit %d, missing %r" % (rc, missing)] if rc != 0 or missing else []
    cases.append(("--help lists the image options", help_lists_options))
    return cases, tmp


# ---------------------------------------------------------------------------
# hostile
# ---------------------------------------------------------------------------

HOSTILE_SEARCH = "</desc><script>alert(1)</script>|&amp;|\"'|\u202e|\u0001"


def hostile_cases(env):
    tmp = tempfile.mkdtemp(prefix="tv-image-hostile-")
    cases = []
    path = te.hostile_profile(env, tmp, te.HOSTILE_NAME)

    def svg():
        problems = []
        for extra in ([], ["--search", HOSTILE_SEARCH], ["--search", "alert", "--icicle",
                                                         "--inverted", "--dark"]):
            data, p = export(env, path, "svg", *extra, tmp=tmp)
            problems += p
            if data is None:
                continue
            try:
                svg = Svg(data)
            except (ET.ParseError, ValueError) as e:
                problems.append("%r: the SVG is not XML: %s" % (extra, e))
                continue
            if svg.title != te.visible(te.HOSTILE_NAME):
                problems.append("title %r, expected %r" % (svg.title, te.visible(te.HOSTILE_NAME)))
            if extra[:2] == ["--search", HOSTILE_SEARCH]:
                if "search “%s”" % te.visible(HOSTILE_SEARCH) not in (svg.desc or ""):
                    problems.append("the search is not shown as typed: %r" % svg.desc)
            for el in svg.root.iter():
                tag = el.tag.replace(SVG_NS, "")
                if tag in ("script", "foreignObject", "a", "iframe"):
                    problems.append("%r: a <%s> element" % (extra, tag))
                for attr in el.attrib:
                    if attr.lower().startswith("on"):
                        problems.append("%r: an %s attribute" % (extra, attr))
            info = subprocess.run(["xmllint", "--noout", "-"], input=data,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) \
                if shutil.which("xmllint") else None
            if info is not None and info.returncode != 0:
                problems.append("xmllint: %s" % info.stderr.decode()[:500])
        return problems
    cases.append(("hostile names and search keep the SVG well-formed and inert", svg))

    def png_pdf():
        problems = []
        data, p = export(env, path, "png", "--search", HOSTILE_SEARCH, tmp=tmp)
        problems += p
        if data is not None:
            text = Png(data).text()
            if text.get("Title") != te.visible(te.HOSTILE_NAME):
                problems.append("PNG Title %r" % text.get("Title"))
            desc = text.get("Description", "")
            if any(ord(c) < 0x20 and c != "\n" for c in desc) or "\u202e" in desc:
                problems.append("control characters in the PNG's text: %r" % desc)
            if len(box_rows(Png(data))) != 3:
                problems.append("expected 3 rows of frames (all and two levels)")
        data, p = export(env, path, "pdf", tmp=tmp)
        problems += p
        if data is not None:
            problems += check_pdf(data)
        return problems
    cases.append(("hostile names in a PNG and a PDF", png_pdf))

    def long_names():
        """A 100 KB name and a long search: the caption cuts them as the
        page and the viewer do."""
        long_path = os.path.join(tmp, "long.tach")
        te.write_stacks(env, long_path, [(30, [(te.LONG_FILE, te.LONG_FUNC), ("app.py", "main")]),
                                         (10, [("app.py", "main")])], 0.04)
        search = te.LONG_FUNC[:150] + "|" + te.LONG_FUNC[-150:]
        data, problems = export(env, long_path, "svg", "--merge", "function", "--zoom",
                                "main;" + te.LONG_FUNC, "--search", search, tmp=tmp)
        if data is None:
            return problems
        desc = Svg(data).desc or ""
        zoomed = "zoomed into main (app.py) › %s (long_module.py)" % te.shown(te.LONG_FUNC)
        if zoomed not in desc:
            problems.append("the zoom is not cut as a name is: %r" % desc[:1000])
        if "search “%s”" % te.shown(search) not in desc:
            problems.append("the search is not cut as a name is: %r" % desc[:1000])
        if len(desc) > 2000:
            problems.append("a caption of %d characters" % len(desc))
        return problems
    cases.append(("a 100 KB name in an image's caption is cut", long_names))
    return cases, tmp


# ---------------------------------------------------------------------------
# size
# ---------------------------------------------------------------------------

def size_cases(env):
    tmp = tempfile.mkdtemp(prefix="tv-image-size-")
    cases = []

    def big():
        profile = os.path.join(tmp, "big.tach")
        problems = env.generate(profile, 1000000)
        if problems:
            return problems
        for fmt in ("svg", "png", "pdf"):
            start = time.monotonic()
            data, p = export(env, profile, fmt, tmp=tmp)
            seconds = time.monotonic() - start
            problems += p
            if data is None:
                continue
            # A figure, not a bound: a busy machine changes it.
            print("# 1M samples to %s: %d bytes in %.2f s" % (fmt, len(data), seconds))
            if fmt == "svg":
                svg = Svg(data)
                if "1,000,000 of 1,000,000 samples" not in (svg.desc or ""):
                    problems.append("svg caption %r" % svg.desc)
            elif fmt == "png":
                png = Png(data)
                if png.width != 1200 or not 300 < png.height <= MAX_HEIGHT:
                    problems.append("PNG %dx%d" % (png.width, png.height))
            else:
                problems += check_pdf(data)
        # Inverted, the tree leaves out what is under a tenth of a pixel
        # too, turned over from the exact tree: every sample is still said.
        start = time.monotonic()
        data, p = export(env, profile, "svg", "--inverted", tmp=tmp)
        problems += p
        if data is not None:
            print("# 1M samples to an inverted svg: %d bytes in %.2f s"
                  % (len(data), time.monotonic() - start))
            desc = Svg(data).desc or ""
            for want in ("Inverted flame graph", "1,000,000 of 1,000,000 samples"):
                if want not in desc:
                    problems.append("inverted svg: %r is not in the caption %r" % (want, desc))
        return problems
    cases.append(("a 1M-sample profile in each format, and inverted", big))

    def too_tall():
        # 257 rows of 18 pixels do not fit the 4096 pixels that 32 Mi pixels
        # allow at 8192 wide.
        path = os.path.join(env.data, "valid", "rec_recursive.tach")
        problems = []
        rc, out, err = env.run("--info", "--json", path)
        depth = te.strict_json(out)["decoded"]["max_depth"]
        limit = min(MAX_HEIGHT, MAX_PIXELS // MAX_WIDTH)
        for fmt in ("png", "svg"):
            data, p = export(env, path, fmt, "--width", str(MAX_WIDTH), tmp=tmp)
            problems += p
            if data is None:
                continue
            if fmt == "png":
                png = Png(data)
                height, desc = png.height, png.text().get("Description", "")
            else:
                svg = Svg(data)
                height, desc = float(svg.height), svg.desc or ""
            m = re.search(r"Only the (\d+) rows nearest the root are shown, of (\d+): the image "
                          r"would be more than (\d+) pixels tall", desc)
            if m is None:
                problems.append("%s: the caption does not say rows were left out: %r"
                                % (fmt, desc))
                continue
            shown, rows, said = map(int, m.groups())
            if said != limit or not shown < rows <= depth + 1:
                problems.append("%s: %d of %d rows, limit %d (max_depth %d)"
                                % (fmt, shown, rows, said, depth))
            if not limit - ROW_HEIGHT < height <= limit:
                problems.append("%s: %s pixels tall, the limit is %d" % (fmt, height, limit))
        return problems
    cases.append(("a graph too tall for one image keeps the rows nearest the root, and says so",
                  too_tall))
    return cases, tmp


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", required=True)
    ap.add_argument("--bench")
    ap.add_argument("--tool", required=True)
    ap.add_argument("group", choices=["corpus", "render", "args", "hostile", "size"])
    a = ap.parse_args()
    env = te.Env(a.exe, a.bench, a.tool)
    tap = te.Tap()
    valid = [p for p in env.files("valid") if env.key(p) not in te.REJECTED_VALID]
    if not valid:
        print("Bail out! empty corpus in %s" % env.data)
        return 1

    tmp = None
    try:
        if a.group == "corpus":
            tmp = tempfile.mkdtemp(prefix="tv-image-corpus-")
            te.run_parallel(tap, [("images of %s" % env.key(p),
                                   lambda p=p: check_corpus_file(env, p, tmp)) for p in valid])
        else:
            cases, tmp = {"render": render_cases, "args": args_cases, "hostile": hostile_cases,
                          "size": size_cases}[a.group](env)
            te.run_parallel(tap, cases)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return tap.finish()


if __name__ == "__main__":
    sys.exit(main())
