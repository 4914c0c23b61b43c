"""Build the demo screenshots' font: the glyphs lib/demo draws, cut from Noto Sans SC.

Run once when the demo's texts gain characters (needs Python with fontTools 4.66):

    python lib/demo/fonts/subset.py <unpacked @fontsource/noto-sans-sc 5.3.0 package dir>

It reads the package's per-range WOFF files (400 and 700), keeps only the characters used in
lib/demo/*.ts plus printable ASCII, merges the pieces and writes lib/demo/fonts/studio-demo-sans-<w>.ttf
under the family name "Studio Demo Sans" (a modified version may not use the original's name).
"""

import glob
import os
import re
import sys

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
DEMO = os.path.dirname(HERE)
FAMILY = "Studio Demo Sans"


def demo_chars():
    chars = {chr(c) for c in range(0x20, 0x7F)}
    for path in glob.glob(os.path.join(DEMO, "*.ts")):
        with open(path, encoding="utf-8") as f:
            chars.update(ch for ch in f.read() if ord(ch) > 0x7E)
    return chars


def ranges(css):
    """file name -> set of code points, from the package's @font-face blocks."""
    out = {}
    for block in css.split("@font-face")[1:]:
        name = re.search(r"files/([^)]+\.woff)\)", block).group(1)
        points = set()
        for part in re.search(r"unicode-range:([^;]+);", block).group(1).split(","):
            a, _, b = part.strip()[2:].partition("-")
            points.update(range(int(a, 16), int(b or a, 16) + 1))
        out[name] = points
    return out


def build(pkg, weight, chars):
    with open(os.path.join(pkg, f"{weight}.css"), encoding="utf-8") as f:
        table = ranges(f.read())
    wanted = {ord(c) for c in chars}
    pieces = []
    for name, points in sorted(table.items()):
        keep = wanted & points
        if not keep:
            continue
        font = TTFont(os.path.join(pkg, "files", name))
        opts = subset.Options()
        opts.layout_features = []
        opts.name_IDs = ["*"]
        opts.notdef_outline = True
        opts.hinting = False
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=keep)
        sub.subset(font)
        font.flavor = None
        out = os.path.join(HERE, f".piece-{weight}-{len(pieces)}.ttf")
        font.save(out)
        pieces.append(out)
        wanted -= keep
    merged = Merger().merge(pieces)
    for p in pieces:
        os.remove(p)
    for rec in merged["name"].names:
        if rec.nameID in (1, 16):
            rec.string = FAMILY
        elif rec.nameID in (4,):
            rec.string = f"{FAMILY} {'Bold' if weight >= 600 else 'Regular'}"
        elif rec.nameID == 6:
            rec.string = f"StudioDemoSans-{'Bold' if weight >= 600 else 'Regular'}"
    merged["OS/2"].usWeightClass = weight
    dest = os.path.join(HERE, f"studio-demo-sans-{weight}.ttf")
    merged.save(dest)
    missing = "".join(sorted(chr(c) for c in wanted if chr(c).strip()))
    print(f"{dest}: {os.path.getsize(dest)} bytes; not in the font: {missing!r}")


if __name__ == "__main__":
    chars = demo_chars()
    for w in (400, 700):
        build(sys.argv[1], w, chars)
