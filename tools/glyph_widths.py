#!/usr/bin/env python3
"""Measures how wide the letters and digits of each Unicode block draw, for the table
of src/web/drawn_width.rs: the advance width of each code point's glyph in the Noto
fonts (the widest over the fonts that have it), in ems.

    apt-get install fonts-noto-core python3-fonttools unicode-data
    /usr/bin/python3 tools/glyph_widths.py

Prints, per block with a letter wider than 1.25 em: median, 90th percentile and widest
glyph (ems), and the widest in half-ems rounded up (the unit of drawn_width.rs, where
an East Asian wide character is 2).
"""
import glob, math, re, statistics, unicodedata
from fontTools.ttLib import TTFont

widest = {}
for path in sorted(glob.glob('/usr/share/fonts/truetype/noto/*-Regular.ttf')):
    font = TTFont(path, lazy=True)
    upem = font['head'].unitsPerEm
    hmtx = font['hmtx']
    for cp, glyph in (font.getBestCmap() or {}).items():
        if unicodedata.category(chr(cp))[0] not in 'LN':
            continue
        widest[cp] = max(widest.get(cp, 0), hmtx[glyph][0] / upem)

for line in open('/usr/share/unicode/Blocks.txt'):
    m = re.match(r'([0-9A-F]+)\.\.([0-9A-F]+); (.*)', line)
    if not m:
        continue
    lo, hi, name = int(m[1], 16), int(m[2], 16), m[3]
    ems = sorted(em for cp, em in widest.items()
                 if lo <= cp <= hi and unicodedata.east_asian_width(chr(cp)) not in 'WF')
    if ems and ems[-1] > 1.25:
        print(f"U+{lo:04X}..U+{hi:04X} {name}: n={len(ems)} median {statistics.median(ems):.2f} "
              f"p90 {ems[int(len(ems) * 0.9)]:.2f} max {ems[-1]:.2f} em "
              f"= {math.ceil(ems[-1] * 2)} half-ems")
