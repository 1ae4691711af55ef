"""Minimal PNG reader for the demo tests (8-bit RGB/RGBA, non-interlaced: what the demo's libpng
writer and ImageMagick's `import` produce), plus image checks. Standard library only."""
import struct
import zlib


def read_png(path):
    """Returns (width, height, channels, rows) with rows a list of bytes objects."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(color)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {color}, "
                         f"interlace {interlace})")
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
            elif ftype != 0:
                raise ValueError(f"{path}: bad filter type {ftype}")
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def rgb_pixels(path):
    """(width, height, list of (r, g, b))."""
    w, h, ch, rows = read_png(path)
    px = []
    for row in rows:
        for x in range(w):
            p = row[x * ch:x * ch + ch]
            px.append((p[0], p[1], p[2]) if ch >= 3 else (p[0], p[0], p[0]))
    return w, h, px


def differing_pixels(a, b):
    wa, ha, pa = rgb_pixels(a)
    wb, hb, pb = rgb_pixels(b)
    if (wa, ha) != (wb, hb):
        raise ValueError(f"sizes differ: {a} {wa}x{ha}, {b} {wb}x{hb}")
    return sum(1 for x, y in zip(pa, pb) if x != y)


def colour_stats(path):
    """Distinct colours and the share of 'saturated' pixels (particles: one channel well above
    another), for the not-blank checks."""
    w, h, px = rgb_pixels(path)
    distinct = len(set(px))
    saturated = sum(1 for r, g, b in px if max(r, g, b) - min(r, g, b) > 60)
    return distinct, saturated / float(w * h)
