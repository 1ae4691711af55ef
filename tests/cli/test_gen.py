"""vksort gen: determinism, sizes, formats and the shape of every distribution."""
import math
import os
import struct

from clitest import (DESCR, SIZE, TYPES, check, encode, finish, read_array, tempdir, vksort)

DISTS = ["uniform", "bits", "sorted", "reversed", "constant", "few:5", "zipf", "normal"]
SEEDLESS = {"sorted", "reversed"}
N = 4096


def gen(d, name, *args):
    path = os.path.join(d, name)
    rc, so, se = vksort("gen", *args, path)
    check(rc == 0, "gen %s %r: exit %d %r" % (name, args, rc, se))
    check(so == "", "gen %s: unexpected stdout %r" % (name, so))
    return path


def read_bytes(path):
    if not os.path.exists(path):
        return b""
    with open(path, "rb") as f:
        return f.read()


def as_float(t, bits):
    fmt = ("<I", "<f") if t == "f32" else ("<Q", "<d")
    return struct.unpack(fmt[1], struct.pack(fmt[0], bits))[0]


def as_signed(t, bits):
    w = SIZE[t] * 8
    return bits - (1 << w) if t[0] == "i" and bits >> (w - 1) else bits


def check_shape(t, dist, keys):
    what = "gen %s %s" % (t, dist)
    enc = [encode(t, k) for k in keys]
    distinct = len(set(keys))
    w = SIZE[t] * 8
    if dist == "sorted":
        check(all(a < b for a, b in zip(enc, enc[1:])), what + ": not strictly ascending")
    elif dist == "reversed":
        check(all(a > b for a, b in zip(enc, enc[1:])), what + ": not strictly descending")
    elif dist == "constant":
        check(distinct == 1, what + ": %d distinct values" % distinct)
    elif dist.startswith("few:"):
        k = int(dist[4:])
        check(1 < distinct <= k, what + ": %d distinct values, want 2..%d" % (distinct, k))
    elif dist == "zipf":
        top = max(keys.count(k) for k in set(keys))
        check(distinct <= 4096 and distinct > 50, what + ": %d distinct" % distinct)
        check(top > 0.05 * len(keys), what + ": most frequent key only %d times" % top)
    elif dist == "uniform" and t[0] == "f":
        vals = [as_float(t, k) for k in keys]
        check(all(-1.0 <= v < 1.0 for v in vals), what + ": value outside [-1, 1)")
        check(abs(sum(vals) / len(vals)) < 0.1, what + ": mean far from 0")
        check(distinct > 0.9 * len(keys), what + ": only %d distinct" % distinct)
    elif dist in ("uniform", "bits"):
        high = sum(1 for k in keys if k >> (w - 1))
        low = sum(1 for k in keys if k & 1)
        check(0.4 < high / len(keys) < 0.6, what + ": top bit set in %d keys" % high)
        check(0.4 < low / len(keys) < 0.6, what + ": bit 0 set in %d keys" % low)
        if t[0] == "f" and dist == "bits":
            exp_mask = 0x7f800000 if t == "f32" else 0x7ff0000000000000
            check(any(k & exp_mask == exp_mask for k in keys) or t == "f64",
                  what + ": no NaN/inf pattern among the bit patterns")
    elif dist == "normal":
        if t[0] == "f":
            vals = [as_float(t, k) for k in keys]
            mean = sum(vals) / len(vals)
            sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / len(vals))
            check(abs(mean) < 0.1 and 0.9 < sd < 1.1, what + ": mean %g sd %g" % (mean, sd))
        else:
            vals = [as_signed(t, k) for k in keys]
            mid = 0 if t[0] == "i" else 1 << (w - 1)
            sd_want = 2 ** (w // 2) / 16
            mean = sum(vals) / len(vals)
            sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / len(vals))
            check(abs(mean - mid) < 0.1 * sd_want and 0.9 * sd_want < sd < 1.1 * sd_want,
                  what + ": mean %g sd %g (want %g, %g)" % (mean, sd, mid, sd_want))


def main():
    with tempdir() as d:
        for t in TYPES:
            for dist in DISTS:
                tag = "%s-%s" % (t, dist.replace(":", "_"))
                a = gen(d, tag + "-a.bin", "--type", t, "--n", N, "--dist", dist, "--seed", 7)
                b = gen(d, tag + "-b.bin", "--type", t, "--n", N, "--dist", dist, "--seed", 7)
                c = gen(d, tag + "-c.bin", "--type", t, "--n", N, "--dist", dist, "--seed", 8)
                ba, bb, bc = read_bytes(a), read_bytes(b), read_bytes(c)
                check(len(ba) == N * SIZE[t], "gen %s: %d bytes" % (tag, len(ba)))
                check(ba == bb, "gen %s: same seed, different bytes" % tag)
                if dist in SEEDLESS:
                    check(ba == bc, "gen %s: should not depend on the seed" % tag)
                else:
                    check(ba != bc, "gen %s: different seeds, same bytes" % tag)
                if len(ba) == N * SIZE[t]:
                    check_shape(t, dist, read_array(a, t))
            # .npy output: same keys as raw, header checked by read_array; values 0..n-1.
            raw = gen(d, t + "-u.bin", "--type", t, "--n", 1000, "--seed", 3)
            npy = gen(d, t + "-u.npy", "--type", t, "--n", 1000, "--seed", 3,
                      "--values", os.path.join(d, t + "-v.npy"))
            check(read_array(npy, t, DESCR[t]) == read_array(raw, t), "gen %s: npy != raw" % t)
            check(read_array(os.path.join(d, t + "-v.npy"), 4, "<u4") == list(range(1000)),
                  "gen %s: .npy values are not 0..n-1" % t)
        # Count syntax: plain, binary suffixes, powers of two, zero.
        for text, count in (("3", 3), ("1K", 1024), ("2k", 2048), ("2^10", 1024), ("0", 0),
                            ("1M", 1 << 20)):
            p = gen(d, "n-%s.bin" % text.replace("^", "p"), "--type", "u64", "--n", text,
                    "--values", os.path.join(d, "n-values.bin"))
            check(len(read_bytes(p)) == 8 * count, "--n %s: %d bytes" % (text, len(read_bytes(p))))
            check(len(read_bytes(os.path.join(d, "n-values.bin"))) == 4 * count,
                  "--n %s: values size" % text)
        # Default seed is fixed: two runs without --seed agree.
        a = gen(d, "def-a.bin", "--type", "f32", "--n", 100)
        b = gen(d, "def-b.bin", "--type", "f32", "--n", 100)
        check(read_bytes(a) == read_bytes(b), "gen without --seed is not deterministic")
        # gen output feeds sort --verify.
        k = gen(d, "chain.npy", "--type", "i32", "--n", "64K", "--dist", "zipf",
                "--values", os.path.join(d, "chain-v.npy"))
        rc, so, se = vksort("sort", "--type", "i32", "--verify", "--values",
                            os.path.join(d, "chain-v.npy"), "--values-out",
                            os.path.join(d, "chain-vo.npy"), k, os.path.join(d, "chain-o.npy"))
        check(rc == 0 and "verified: 65536 keys sorted" in so, "gen | sort --verify: %r" % se)
        leftovers = [f for f in os.listdir(d) if "tmp" in f]
        check(not leftovers, "temporary files left: %r" % leftovers)
    finish("cli gen")


main()
