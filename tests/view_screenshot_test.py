#!/usr/bin/env python3
"""`quark view` output rendered by headless Chromium (ctest: view_screenshot_test).

    python3 tests/view_screenshot_test.py BUILD/quark/quark PAGE.html OUT_DIR

Writes OUT_DIR/view.html with `quark view PAGE.html`, has headless Chromium
take a 1200x1400 screenshot of it (OUT_DIR/screenshot.png, kept so a person can
look at it), decodes the PNG (a small decoder below: no imaging library is a
project dependency) and checks that the view rendered: the legend bar is there,
and below it every block type's outline colour (view.cc: content #d62728,
related links #2ca02c, navigation #1f77b4, noise #8c6d9f) covers at least
MIN_PIXELS pixels, so each type is drawn as an outlined box on the page rather
than only named in the legend.

Chromium is a project dependency (deploy/install-deps.sh installs it); the
test fails, not skips, without it.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

QUARK = PAGE = OUT_DIR = None  # from the command line

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")
WIDTH, HEIGHT = 1200, 1400

# Outline colours of quark/view.cc, by block type.
COLOURS = {
    "content": (0xd6, 0x27, 0x28),
    "related links": (0x2c, 0xa0, 0x2c),
    "navigation": (0x1f, 0x77, 0xb4),
    "noise": (0x8c, 0x6d, 0x9f),
}
LEGEND_BORDER = (0x99, 0x99, 0x99)  # #quark-legend's border-bottom
TOLERANCE = 12  # per channel
MIN_PIXELS = 200


# --- a minimal PNG decoder ---------------------------------------------------

def decode_png(data):
    """Decodes a non-interlaced 8-bit RGB or RGBA PNG.

    Returns (width, height, rows), each row a bytes of width*3 RGB values
    (alpha, if any, is dropped: screenshots are opaque).
    """
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos = 8
    idat = []
    width = height = None
    channels = None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            (width, height, depth, colour_type, _compression, _filter,
             interlace) = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour_type not in (2, 6) or interlace != 0:
                raise ValueError(
                    "unsupported PNG: bit depth %d, colour type %d, interlace %d"
                    % (depth, colour_type, interlace))
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if width is None:
        raise ValueError("PNG without IHDR")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    if len(raw) != height * (stride + 1):
        raise ValueError("PNG data is %d bytes, expected %d"
                         % (len(raw), height * (stride + 1)))
    rows = []
    prior = bytearray(stride)
    bpp = channels
    for y in range(height):
        start = y * (stride + 1)
        filter_type = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if filter_type == 0:  # None
            pass
        elif filter_type == 1:  # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xff
        elif filter_type == 2:  # Up
            for i in range(stride):
                line[i] = (line[i] + prior[i]) & 0xff
        elif filter_type == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prior[i]) >> 1)) & 0xff
        elif filter_type == 4:  # Paeth
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prior[i]
                c = prior[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                if pa <= pb and pa <= pc:
                    pred = a
                elif pb <= pc:
                    pred = b
                else:
                    pred = c
                line[i] = (line[i] + pred) & 0xff
        else:
            raise ValueError("bad PNG filter type %d in row %d"
                             % (filter_type, y))
        prior = line
        if channels == 4:
            rgb = bytearray(width * 3)
            rgb[0::3] = line[0::4]
            rgb[1::3] = line[1::4]
            rgb[2::3] = line[2::4]
            rows.append(bytes(rgb))
        else:
            rows.append(bytes(line))
    return width, height, rows


def near(pixel, colour):
    return all(abs(p - c) <= TOLERANCE for p, c in zip(pixel, colour))


def count_colours(rows, first_row, colours):
    """Pixels near each colour in rows[first_row:], by colour name."""
    counts = {name: 0 for name in colours}
    for row in rows[first_row:]:
        for x in range(0, len(row), 3):
            r, g, b = row[x], row[x + 1], row[x + 2]
            if r == g == b:  # greys, white and black: the bulk of the page
                continue
            for name, (cr, cg, cb) in colours.items():
                if (abs(r - cr) <= TOLERANCE and abs(g - cg) <= TOLERANCE
                        and abs(b - cb) <= TOLERANCE):
                    counts[name] += 1
                    break
    return counts


def legend_bottom(rows, width):
    """Index of the legend's bottom border row (a full-width #999 line)."""
    for y, row in enumerate(rows[:200]):
        grey = sum(1 for x in range(0, len(row), 3)
                   if near(row[x:x + 3], LEGEND_BORDER))
        if grey >= 0.9 * width:
            return y
    return None


def find_chromium():
    for c in CHROMIUM_CANDIDATES:
        path = shutil.which(c)
        if path:
            return path
    return None


def encode_png(width, height, rows, channels, filters):
    """Encodes rows (bytes of width*channels) with the given filter per row;
    the decoder's self-test uses it to cover all five filter types."""
    bpp = channels
    out = bytearray()
    prior = bytes(width * channels)
    for y, line in enumerate(rows):
        f = filters[y % len(filters)]
        enc = bytearray()
        for i, v in enumerate(line):
            a = line[i - bpp] if i >= bpp else 0
            b = prior[i]
            c = prior[i - bpp] if i >= bpp else 0
            if f == 0:
                pred = 0
            elif f == 1:
                pred = a
            elif f == 2:
                pred = b
            elif f == 3:
                pred = (a + b) >> 1
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            enc.append((v - pred) & 0xff)
        out.append(f)
        out += enc
        prior = line

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2 if channels == 3 else 6,
                       0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(bytes(out))) + chunk(b"IEND", b""))


class PngDecoderTest(unittest.TestCase):

    def test_every_filter_type(self):
        import random
        rng = random.Random(7)
        for channels in (3, 4):
            width, height = 13, 10
            rows = [bytes(rng.randrange(256) for _ in range(width * channels))
                    for _ in range(height)]
            png = encode_png(width, height, rows, channels, [0, 1, 2, 3, 4])
            w, h, decoded = decode_png(png)
            self.assertEqual((w, h), (width, height))
            for y in range(height):
                want = rows[y] if channels == 3 else bytes(
                    v for i, v in enumerate(rows[y]) if i % 4 != 3)
                self.assertEqual(decoded[y], want, "row %d, %d channels"
                                 % (y, channels))


class ViewScreenshotTest(unittest.TestCase):

    def test_view_renders_every_block_type(self):
        chromium = find_chromium()
        self.assertIsNotNone(
            chromium,
            "chromium not found (looked for %s); it is a project dependency: "
            "deploy/install-deps.sh installs it" % ", ".join(CHROMIUM_CANDIDATES))
        os.makedirs(OUT_DIR, exist_ok=True)
        view = os.path.join(OUT_DIR, "view.html")
        png = os.path.join(OUT_DIR, "screenshot.png")
        for stale in (view, png):
            if os.path.exists(stale):
                os.remove(stale)

        run = subprocess.run([QUARK, "view", PAGE, "--output", view],
                             capture_output=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr.decode(errors="replace"))
        with open(view, encoding="utf-8") as f:
            html = f.read()
        for label in COLOURS:
            self.assertIn(label, html)

        with tempfile.TemporaryDirectory(prefix="quark-chromium.") as profile:
            cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-quic", "--no-first-run",
                   "--disable-background-networking",
                   "--disable-component-update", "--disable-sync",
                   "--hide-scrollbars",
                   "--user-data-dir=" + profile,
                   "--screenshot=" + png,
                   "--window-size=%d,%d" % (WIDTH, HEIGHT),
                   "file://" + os.path.abspath(view)]
            run = subprocess.run(cmd, capture_output=True, timeout=180)
        self.assertTrue(
            os.path.exists(png),
            "chromium wrote no screenshot (exit %d):\n%s"
            % (run.returncode, run.stderr.decode(errors="replace")[-3000:]))

        with open(png, "rb") as f:
            width, height, rows = decode_png(f.read())
        self.assertEqual((width, height), (WIDTH, HEIGHT))

        legend = legend_bottom(rows, width)
        self.assertIsNotNone(legend, "no legend bar at the top of %s" % png)
        counts = count_colours(rows, legend + 1, COLOURS)
        print("screenshot %s: legend ends at row %d; pixels below it: %s"
              % (png, legend, counts))
        for name, n in counts.items():
            self.assertGreaterEqual(
                n, MIN_PIXELS,
                "%s outline (#%02x%02x%02x): %d pixels below the legend in %s"
                % ((name,) + COLOURS[name] + (n, png)))
        # The page text was drawn too: plenty of dark pixels.
        dark = sum(1 for row in rows[legend + 1:]
                   for x in range(0, len(row), 3)
                   if row[x] < 80 and row[x + 1] < 80 and row[x + 2] < 80)
        self.assertGreater(dark, 5000, "hardly any text in %s" % png)


def main():
    global QUARK, PAGE, OUT_DIR
    if len(sys.argv) < 4:
        sys.exit("usage: view_screenshot_test.py PATH/TO/quark PAGE.html OUT_DIR")
    QUARK = os.path.abspath(sys.argv.pop(1))
    PAGE = os.path.abspath(sys.argv.pop(1))
    OUT_DIR = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
