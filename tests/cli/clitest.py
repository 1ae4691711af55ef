"""Shared helpers for the vksort CLI tests (Python standard library only).

Everything the CLI does is re-derived here independently: the key encodings, a stable reference
sort, and .npy reading/writing (headers built and parsed by hand, never through numpy).
"""
import ast
import os
import random
import struct
import subprocess
import sys
import tempfile

if len(sys.argv) < 2:
    sys.exit("usage: %s path/to/vksort" % sys.argv[0])
VKSORT = os.path.abspath(sys.argv[1])

TYPES = ["u32", "i32", "f32", "u64", "i64", "f64"]
SIZE = {"u32": 4, "i32": 4, "f32": 4, "u64": 8, "i64": 8, "f64": 8}
DESCR = {"u32": "<u4", "i32": "<i4", "f32": "<f4", "u64": "<u8", "i64": "<i8", "f64": "<f8"}

FAILURES = []


def check(cond, what):
    """Records a failed assertion (the test keeps going, so one run shows every failure)."""
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)
    return cond


def finish(name):
    if FAILURES:
        print("%s: %d failure(s)" % (name, len(FAILURES)))
        sys.exit(1)
    print("%s: all checks passed" % name)
    sys.exit(0)


# The CLI tests pin the CPU backend and the "not available" paths whatever GPUs this machine
# has: the GPU backends are hidden (the GPU suites test them through the CLI separately).
CLI_ENV = dict(os.environ, VKSORT_DISABLE_BACKENDS="vulkan,cuda")


def vksort(*args, timeout=120):
    """Runs the CLI; returns (returncode, stdout, stderr) as text."""
    p = subprocess.run([VKSORT] + [str(a) for a in args], capture_output=True, text=True,
                       timeout=timeout, env=CLI_ENV)
    return p.returncode, p.stdout, p.stderr


# ---- keys as bit patterns -------------------------------------------------------------------

def width(t):
    return SIZE[t] * 8


def encode(t, bits):
    """The order-preserving unsigned encoding of DESIGN.md section 2."""
    w = width(t)
    sign = 1 << (w - 1)
    allb = (1 << w) - 1
    if t[0] == "i":
        return bits ^ sign
    if t[0] == "f":
        return bits ^ allb if bits & sign else bits ^ sign
    return bits


def order_key(t, bits, descending, lo, hi):
    e = encode(t, bits)
    if descending:
        e ^= (1 << width(t)) - 1
    return (e >> lo) & ((1 << (hi - lo)) - 1)


def reference_sort(t, keys, values, descending=False, bits=None):
    """Stable sort (Python's sorted is stable) of (key, value) on the encoded key range."""
    lo, hi = bits if bits else (0, width(t))
    idx = sorted(range(len(keys)), key=lambda i: order_key(t, keys[i], descending, lo, hi))
    return [keys[i] for i in idx], ([values[i] for i in idx] if values is not None else None)


def float_bits(t, x):
    if t == "f32":
        return struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<Q", struct.pack("<d", x))[0]


F32_SPECIALS = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff800123,  # +-NaN with payload bits
                0x7f800000, 0xff800000,                          # +-inf
                0x00000000, 0x80000000,                          # +-0
                0x00000001, 0x80000001, 0x007fffff, 0x807fffff,  # denormals
                0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff]
F64_SPECIALS = [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000abc,
                0x7ff0000000000000, 0xfff0000000000000, 0x0000000000000000, 0x8000000000000000,
                0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff, 0x800fffffffffffff,
                0x3ff0000000000000, 0xbff0000000000000, 0x7fefffffffffffff, 0xffefffffffffffff]


def test_keys(t, n, rng):
    """Random bit patterns mixed with the type's special values and many repeats (stability)."""
    w = width(t)
    if t == "f32":
        specials = F32_SPECIALS
    elif t == "f64":
        specials = F64_SPECIALS
    else:
        specials = [0, 1, (1 << w) - 1, 1 << (w - 1), (1 << (w - 1)) - 1, 0x80, 0xff, 12345]
    pool = [rng.getrandbits(w) for _ in range(8)]
    keys = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            keys.append(rng.choice(specials))
        elif r < 0.6:
            keys.append(rng.choice(pool))
        else:
            keys.append(rng.getrandbits(w))
    return keys


# ---- files ------------------------------------------------------------------------------------

def pack(t_or_size, items):
    size = SIZE[t_or_size] if isinstance(t_or_size, str) else t_or_size
    return struct.pack("<%d%s" % (len(items), "I" if size == 4 else "Q"), *items)


def unpack(t_or_size, data):
    size = SIZE[t_or_size] if isinstance(t_or_size, str) else t_or_size
    assert len(data) % size == 0, "data length %d not a multiple of %d" % (len(data), size)
    return list(struct.unpack("<%d%s" % (len(data) // size, "I" if size == 4 else "Q"), data))


def npy_bytes(descr, data, shape=None, fortran=False, version=(1, 0), align=64, header=None):
    """A .npy file built by hand. header overrides the dict text (for malformed cases)."""
    if header is None:
        if shape is None:
            size = int(descr[-1]) if descr[-1].isdigit() else 1
            shape = (len(data) // size,)
        shape_text = "(%s)" % ("".join("%d," % d for d in shape) if len(shape) == 1
                               else ", ".join(str(d) for d in shape))
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
            descr, "True" if fortran else "False", shape_text)
    prefix = 10 if version[0] == 1 else 12
    text = header.encode("utf-8" if version[0] >= 3 else "latin1")
    pad = (-(prefix + len(text) + 1)) % align
    text += b" " * pad + b"\n"
    head = b"\x93NUMPY" + bytes(version)
    head += struct.pack("<H" if version[0] == 1 else "<I", len(text))
    return head + text + data


def parse_npy(blob):
    """Returns (version, header dict, data offset, data) of a .npy file, checked strictly."""
    assert blob[:6] == b"\x93NUMPY", "bad magic"
    major, minor = blob[6], blob[7]
    if major == 1:
        hlen = struct.unpack("<H", blob[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", blob[8:12])[0]
        start = 12
    text = blob[start:start + hlen].decode("latin1")
    header = ast.literal_eval(text)
    return (major, minor), header, start + hlen, text, blob[start + hlen:]


def write_array(path, t_or_descr_size, items):
    """Writes items raw or as .npy by the path's name."""
    if isinstance(t_or_descr_size, str) and t_or_descr_size in SIZE:
        size, descr = SIZE[t_or_descr_size], DESCR[t_or_descr_size]
    else:
        size, descr = 4, "<u4"
    data = pack(size, items)
    with open(path, "wb") as f:
        f.write(npy_bytes(descr, data) if path.endswith(".npy") else data)


def read_array(path, t_or_size, expect_descr=None):
    """Reads a raw or .npy array written by the CLI; checks the .npy header is what numpy's
    writer would produce (version 1.0, 64-byte aligned data, newline-terminated)."""
    size = SIZE[t_or_size] if isinstance(t_or_size, str) else t_or_size
    with open(path, "rb") as f:
        blob = f.read()
    if not path.endswith(".npy"):
        return unpack(size, blob)
    version, header, offset, text, data = parse_npy(blob)
    check(version == (1, 0), "%s: npy version %r" % (path, version))
    check(offset % 64 == 0, "%s: data offset %d not 64-byte aligned" % (path, offset))
    check(text.endswith("\n"), "%s: header does not end in a newline" % path)
    check(header.get("fortran_order") is False, "%s: fortran_order %r" % (path, header))
    check(set(header) == {"descr", "fortran_order", "shape"}, "%s: keys %r" % (path, header))
    if expect_descr:
        check(header.get("descr") == expect_descr,
              "%s: descr %r, expected %r" % (path, header.get("descr"), expect_descr))
    check(header.get("shape") == (len(data) // size,),
          "%s: shape %r for %d data bytes" % (path, header.get("shape"), len(data)))
    return unpack(size, data)


def tempdir():
    return tempfile.TemporaryDirectory(prefix="vksort-cli-test-")


def one_line_error(stderr):
    """The CLI's error contract: exactly one line, starting with 'vksort: '."""
    lines = stderr.splitlines()
    return len(lines) == 1 and lines[0].startswith("vksort: ") and stderr.endswith("\n")
