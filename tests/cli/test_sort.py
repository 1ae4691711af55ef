"""vksort sort: round trips for every key type, raw and .npy, with and without values,
ascending/descending, bit ranges, float specials; output compared with the Python reference
(stable sort on the encoded key), the payload (input index) proving stability."""
import os
import random

from clitest import (DESCR, SIZE, TYPES, check, finish, float_bits, npy_bytes, pack, read_array,
                     reference_sort, test_keys, tempdir, vksort, write_array)

rng = random.Random(1234)

BIT_RANGES = {4: (4, 13), 8: (27, 45)}


def sort_case(d, t, keys, values, fmt_in, fmt_out, descending, bits, verify=False, label=""):
    name = "%s-%s-%s-%s-%s-%s" % (t, fmt_in, fmt_out, "v" if values is not None else "nv",
                                  "desc" if descending else "asc",
                                  "%d_%d" % bits if bits else "all")
    ext_in = ".npy" if fmt_in == "npy" else ".bin"
    ext_out = ".npy" if fmt_out == "npy" else ".bin"
    inp = os.path.join(d, "in-" + name + ext_in)
    out = os.path.join(d, "out-" + name + ext_out)
    write_array(inp, t, keys)
    args = ["sort", "--type", t, inp, out]
    if values is not None:
        vin = os.path.join(d, "vin-" + name + ext_in)
        vout = os.path.join(d, "vout-" + name + ext_out)
        write_array(vin, "values", values)
        args += ["--values", vin, "--values-out", vout]
    if descending:
        args.append("--descending")
    if bits:
        args += ["--bits", "%d:%d" % bits]
    if verify:
        args.append("--verify")
    rc, so, se = vksort(*args)
    what = "sort %s n=%d %s" % (name, len(keys), label)
    if not check(rc == 0, "%s: exit %d, stderr %r" % (what, rc, se)):
        return
    if verify:
        check("verified: %d keys sorted" % len(keys) in so, "%s: stdout %r" % (what, so))
    exp_keys, exp_values = reference_sort(t, keys, values, descending, bits)
    got = read_array(out, t, DESCR[t])
    check(got == exp_keys, "%s: keys differ from the reference" % what)
    if values is not None:
        got_v = read_array(vout, 4, "<u4")
        check(got_v == exp_values, "%s: values differ from the reference (stability)" % what)


def explicit_float_order(d):
    """Hand-written expectation, independent of the Python encoding: IEEE totalOrder."""
    for t in ("f32", "f64"):
        tiny = 1e-45 if t == "f32" else 5e-324  # the smallest denormal
        vals = [1.0, float("nan"), -0.0, float("inf"), 0.0, -float("inf"), -1.0, tiny, -tiny]
        keys = [float_bits(t, v) for v in vals]
        neg_nan = 0xffc00000 if t == "f32" else 0xfff8000000000000
        keys.append(neg_nan)
        inp, out = os.path.join(d, "fo-%s.bin" % t), os.path.join(d, "fo-%s.out" % t)
        write_array(inp, t, keys)
        rc, _, se = vksort("sort", "--type", t, inp, out)
        if not check(rc == 0, "float order %s: %s" % (t, se)):
            continue
        expect = [neg_nan] + [float_bits(t, v) for v in
                              (-float("inf"), -1.0, -tiny, -0.0, 0.0, tiny, 1.0, float("inf"),
                               float("nan"))]
        check(read_array(out, t) == expect, "float order %s: got %s" % (
            t, [hex(k) for k in read_array(out, t)]))


def stability_by_payload(d):
    """All keys equal on the bit range: the output must be the input order, values 0..n-1."""
    for t in TYPES:
        n = 500
        w = SIZE[t] * 8
        keys = [(rng.getrandbits(w) & ~(0xff << 8)) | (0x5a << 8) for _ in range(n)]
        sort_case(d, t, keys, list(range(n)), "raw", "raw", False, (8, 16), label="stable")
        sort_case(d, t, keys, list(range(n)), "raw", "raw", True, (8, 16), label="stable")


def npy_variants(d):
    """Reader accepts format versions 2.0/3.0, the old 16-byte alignment and 'L' suffixes."""
    keys = [rng.getrandbits(32) for _ in range(100)]
    exp, _ = reference_sort("u32", keys, None)
    variants = {
        "v2": npy_bytes("<u4", pack("u32", keys), version=(2, 0)),
        "v3": npy_bytes("<u4", pack("u32", keys), version=(3, 0)),
        "align16": npy_bytes("<u4", pack("u32", keys), align=16),
        "long": npy_bytes("<u4", pack("u32", keys),
                          header="{'descr': '<u4', 'fortran_order': False, 'shape': (100L,), }"),
        "reordered": npy_bytes("<u4", pack("u32", keys),
                               header='{"shape": (100,), "fortran_order": False, "descr": "<u4"}'),
    }
    for name, blob in variants.items():
        inp, out = os.path.join(d, "var-%s.npy" % name), os.path.join(d, "var-%s.out" % name)
        with open(inp, "wb") as f:
            f.write(blob)
        rc, _, se = vksort("sort", "--type", "u32", inp, out)
        if check(rc == 0, "npy variant %s: %s" % (name, se)):
            check(read_array(out, "u32") == exp, "npy variant %s: wrong result" % name)


def in_place_and_sizes(d):
    for t in TYPES:
        for n in (0, 1, 2, 47, 49, 257):
            keys = test_keys(t, n, rng)
            sort_case(d, t, keys, list(range(n)), "npy", "npy", n % 2 == 1, None, verify=True,
                      label="size")
    # INPUT == OUTPUT: the input is read completely before the output replaces it.
    keys = test_keys("i64", 300, rng)
    p = os.path.join(d, "inplace.bin")
    write_array(p, "i64", keys)
    rc, _, se = vksort("sort", "--type", "i64", p, p)
    if check(rc == 0, "in-place sort: %s" % se):
        check(read_array(p, "i64") == reference_sort("i64", keys, None)[0], "in-place result")


def large(d):
    """Big enough for the multi-threaded radix path (and 11-bit digits from 2^20 keys)."""
    for t, n in (("u32", 150000), ("f64", 150000), ("f32", 1 << 20)):
        keys = test_keys(t, n, rng)
        sort_case(d, t, keys, list(range(n)), "raw", "npy", False, None, verify=True,
                  label="large")


def main():
    with tempdir() as d:
        for t in TYPES:
            keys = test_keys(t, 300, rng)
            values = list(range(len(keys)))
            for fmt in ("raw", "npy"):
                for with_values in (False, True):
                    for descending in (False, True):
                        for bits in (None, BIT_RANGES[SIZE[t]]):
                            sort_case(d, t, keys, values if with_values else None, fmt, fmt,
                                      descending, bits, verify=descending)
            # Mixed formats: raw in, .npy out and back.
            sort_case(d, t, keys, values, "raw", "npy", False, None)
            sort_case(d, t, keys, values, "npy", "raw", True, None)
        explicit_float_order(d)
        stability_by_payload(d)
        npy_variants(d)
        in_place_and_sizes(d)
        large(d)
        leftovers = [f for f in os.listdir(d) if "tmp" in f]
        check(not leftovers, "temporary files left: %r" % leftovers)
    finish("cli sort")


main()
