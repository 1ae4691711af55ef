"""Every bad-input case of the CLI: non-zero exit, exactly one stderr line starting with
'vksort: ', no output file appears, a pre-existing output is left untouched, and no temporary
file is left behind."""
import os
import struct

from clitest import (check, finish, npy_bytes, one_line_error, pack, tempdir, vksort)

SENTINEL = b"pre-existing output: must survive a failed command\n"


def listing(d):
    return sorted(os.listdir(d))


def expect_failure(d, label, args, outputs=(), message=None):
    """Runs args twice: outputs absent, then outputs pre-existing (with SENTINEL bytes)."""
    for preexisting in (False, True):
        if preexisting and not outputs:
            break
        for o in outputs:
            if os.path.isfile(o):
                os.remove(o)
            if preexisting and os.path.isdir(os.path.dirname(o)):
                with open(o, "wb") as f:
                    f.write(SENTINEL)
        before = listing(d)
        rc, so, se = vksort(*args)
        what = "%s%s" % (label, " (outputs pre-existing)" if preexisting else "")
        check(rc != 0, "%s: exit code 0" % what)
        check(one_line_error(se), "%s: stderr is not one 'vksort: ' line: %r" % (what, se))
        if message:
            check(message in se, "%s: stderr %r lacks %r" % (what, se, message))
        check(so == "", "%s: unexpected stdout %r" % (what, so))
        for o in outputs:
            if not preexisting:
                check(not os.path.exists(o), "%s: output %s appeared" % (what, o))
            elif os.path.isdir(os.path.dirname(o)):
                with open(o, "rb") as f:
                    check(f.read() == SENTINEL, "%s: pre-existing %s was modified" % (what, o))
        check(listing(d) == before, "%s: directory changed: %r -> %r" % (what, before, listing(d)))
    for o in outputs:
        if os.path.isfile(o):
            os.remove(o)


def write(d, name, data):
    p = os.path.join(d, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


def main():
    with tempdir() as d:
        out = os.path.join(d, "out.bin")
        vout = os.path.join(d, "vout.bin")
        outs = (out, vout)
        k100 = write(d, "k100.bin", pack("u32", list(range(100, 0, -1))))
        k100_64 = write(d, "k100_64.bin", pack("u64", list(range(100))))
        v100 = write(d, "v100.bin", pack("u32", list(range(100))))
        v99 = write(d, "v99.bin", pack("u32", list(range(99))))
        knpy = write(d, "k.npy", npy_bytes("<u4", pack("u32", list(range(100)))))
        os.mkdir(os.path.join(d, "adir"))
        adir = os.path.join(d, "adir")

        def sort(*extra, inp=k100, t="u32", output=out):
            return ["sort", "--type", t] + list(extra) + [inp, output]

        def sortv(*extra, inp=k100, vals=v100, t="u32"):
            return sort("--values", vals, "--values-out", vout, *extra, inp=inp, t=t)

        # Input files.
        expect_failure(d, "missing input", sort(inp=os.path.join(d, "nope.bin")), outs,
                       "nope.bin")
        expect_failure(d, "input is a directory", sort(inp=adir), outs, "is a directory")
        if hasattr(os, "geteuid") and os.geteuid() != 0:
            locked = write(d, "locked.bin", pack("u32", [1, 2]))
            os.chmod(locked, 0)
            expect_failure(d, "unreadable input", sort(inp=locked), outs, "locked.bin")
            os.chmod(locked, 0o644)
        expect_failure(d, "size not a multiple (u32)", sort(inp=write(d, "k10.bin", b"x" * 10)),
                       outs, "multiple")
        expect_failure(d, "size not a multiple (u64)", sort(inp=write(d, "k12.bin", b"x" * 12),
                                                            t="u64"), outs, "multiple")
        expect_failure(d, "values count mismatch", sortv(vals=v99), outs, "99 values")
        expect_failure(d, "values size not a multiple",
                       sortv(vals=write(d, "v402.bin", b"v" * 402)), outs, "multiple")
        expect_failure(d, "missing values file", sortv(vals=os.path.join(d, "nov.bin")), outs,
                       "nov.bin")
        # Types and bit ranges.
        expect_failure(d, "unknown type", sort(t="u16"), outs, "unknown key type 'u16'")
        expect_failure(d, "unknown type (case)", sort(t="F32"), outs, "unknown key type")
        expect_failure(d, "missing --type", ["sort", k100, out], outs, "--type")
        for bits, t in (("0:33", "u32"), ("0:65", "u64"), ("32:33", "f32"), ("8", "u32"),
                        ("a:b", "u32"), ("8:4", "u32"), ("4:4", "i32"), ("-1:8", "u32"),
                        ("1:2:3", "u32"), ("", "u32"), (":8", "u32"), ("8:", "u32"),
                        ("0:0", "u64"), (" 1:8", "u32")):
            expect_failure(d, "--bits %r %s" % (bits, t),
                           sort("--bits", bits, t=t, inp=k100_64 if t[1:] == "64" else k100),
                           outs, "--bits")
        # .npy inputs.
        data = pack("u32", list(range(100)))
        bad_npy = {
            "wrong dtype": (npy_bytes("<f4", data), "dtype '<f4'"),
            "wrong dtype i4": (npy_bytes("<i4", data), "dtype '<i4'"),
            "big-endian": (npy_bytes(">u4", data), "dtype '>u4'"),
            "bytes dtype": (npy_bytes("|u1", data, shape=(100,)), "dtype '|u1'"),
            "2-D": (npy_bytes("<u4", data, shape=(10, 10)), "1-D"),
            "2-D column": (npy_bytes("<u4", data, shape=(100, 1)), "1-D"),
            "0-D": (npy_bytes("<u4", data[:4], shape=()), "1-D"),
            "fortran order": (npy_bytes("<u4", data, fortran=True), "fortran"),
            "bad magic": (b"\x93NUMPX" + npy_bytes("<u4", data)[6:], "magic"),
            "not npy at all": (data, "magic"),
            "empty file": (b"", "magic"),
            "truncated header": (npy_bytes("<u4", data)[:40], "truncated"),
            "truncated prefix": (b"\x93NUMPY\x01\x00\x76", "truncated"),
            "truncated data": (npy_bytes("<u4", data)[:-4], "truncated data"),
            "trailing data": (npy_bytes("<u4", data) + b"\0\0\0\0", "trailing"),
            "version 4.0": (npy_bytes("<u4", data, version=(4, 0)), "version 4.0"),
            "structured": (npy_bytes("<u4", data, header="{'descr': [('a', '<u4')], "
                                     "'fortran_order': False, 'shape': (100,), }"),
                           "structured"),
            "malformed dict": (npy_bytes("<u4", data, header="{'descr': '<u4', "
                                         "'fortran_order': Maybe, 'shape': (100,), }"),
                               "malformed"),
            "missing key": (npy_bytes("<u4", data, header="{'descr': '<u4', 'shape': (100,)}"),
                            "fortran_order"),
            "extra key": (npy_bytes("<u4", data, header="{'descr': '<u4', 'fortran_order': "
                                    "False, 'shape': (100,), 'x': 1}"), "'x'"),
            "shape mismatch": (npy_bytes("<u4", data, shape=(200,)), "truncated data"),
        }
        for label, (blob, msg) in bad_npy.items():
            p = write(d, "bad-%s.npy" % label.replace(" ", "_"), blob)
            expect_failure(d, ".npy " + label, sort(inp=p), outs, msg)
        expect_failure(d, ".npy values of dtype <i4",
                       sortv(vals=write(d, "vbad.npy", npy_bytes("<i4", data))), outs, "<i4")
        expect_failure(d, ".npy u64 data given as u32", sort(inp=knpy, t="u64"), outs, "dtype")
        # Options.
        expect_failure(d, "unknown backend", sort("--backend", "opencl"), outs,
                       "unknown backend 'opencl'")
        expect_failure(d, "unknown algo", sort("--algo", "quick"), outs, "unknown algo 'quick'")
        expect_failure(d, "--values without --values-out",
                       sort("--values", v100), outs, "--values-out")
        expect_failure(d, "--values-out without --values",
                       sort("--values-out", vout), outs, "--values")
        expect_failure(d, "cuda unavailable", sortv("--backend", "cuda"), outs,
                       "vksort: backend 'cuda' not available: ")
        expect_failure(d, "vulkan unavailable", sortv("--backend", "vulkan"), outs,
                       "vksort: backend 'vulkan' not available: ")
        expect_failure(d, "algo on cpu", sort("--backend", "cpu", "--algo", "onesweep"), outs,
                       "applies to the vulkan backend")
        expect_failure(d, "algo without backend", sort("--algo", "bitonic"), outs,
                       "backend 'vulkan' not available")
        expect_failure(d, "bad --threads", sort("--threads", "abc"), outs, "--threads")
        expect_failure(d, "negative --device", sort("--device", "-1"), outs, "--device")
        expect_failure(d, "unknown option", sort("--frobnicate"), outs, "--frobnicate")
        expect_failure(d, "short option", sort("-x"), outs, "-x")
        expect_failure(d, "option twice", sort("--descending", "--descending"), outs,
                       "more than once")
        expect_failure(d, "flag with value", sort("--verify=yes"), outs, "--verify")
        expect_failure(d, "missing OUTPUT", ["sort", "--type", "u32", k100], outs, "OUTPUT")
        expect_failure(d, "three positionals", sort(out), outs, "unexpected argument")
        expect_failure(d, "option value missing", ["sort", k100, out, "--type"], outs, "--type")
        expect_failure(d, "OUTPUT == --values-out",
                       ["sort", "--type", "u32", "--values", v100, "--values-out", out, k100,
                        out], (out,), "same file")
        # Output locations.
        expect_failure(d, "output directory missing",
                       sort(output=os.path.join(d, "nodir", "o.bin")), (), "nodir")
        expect_failure(d, "values-out directory missing",
                       ["sort", "--type", "u32", "--values", v100, "--values-out",
                        os.path.join(d, "nodir", "v.bin"), k100, out], (out,), "nodir")
        expect_failure(d, "OUTPUT is a directory", sort(output=adir), (), "is a directory")
        expect_failure(d, "--values-out is a directory",
                       ["sort", "--type", "u32", "--values", v100, "--values-out", adir, k100,
                        out], (out,), "is a directory")
        check(os.listdir(adir) == [], "directory output: directory content changed")
        # gen.
        g = os.path.join(d, "g.bin")
        gv = os.path.join(d, "gv.bin")
        expect_failure(d, "gen unknown dist", ["gen", "--type", "u32", "--n", "10", "--dist",
                                               "gauss", g], (g,), "gauss")
        expect_failure(d, "gen few:0", ["gen", "--type", "u32", "--n", "10", "--dist", "few:0",
                                        g], (g,), "few:K")
        for bad_n in ("12Q", "-5", "1.5", "", "2^64", "99999999999999999999", "K"):
            expect_failure(d, "gen --n %r" % bad_n, ["gen", "--type", "u32", "--n", bad_n, g],
                           (g,), "--n")
        expect_failure(d, "gen missing --type", ["gen", "--n", "10", g], (g,), "--type")
        expect_failure(d, "gen missing --n", ["gen", "--type", "f32", g], (g,), "--n")
        expect_failure(d, "gen unknown type", ["gen", "--type", "f16", "--n", "10", g], (g,),
                       "f16")
        expect_failure(d, "gen missing OUTPUT", ["gen", "--type", "f32", "--n", "10"], (), "OUTPUT")
        expect_failure(d, "gen --values == OUTPUT",
                       ["gen", "--type", "f32", "--n", "10", "--values", g, g], (g,), "same")
        expect_failure(d, "gen values too many", ["gen", "--type", "u32", "--n", "2^33",
                                                  "--values", gv, g], (g, gv), "2^32")
        expect_failure(d, "gen output directory missing",
                       ["gen", "--type", "u32", "--n", "10", os.path.join(d, "nodir", "g")], (),
                       "nodir")
        expect_failure(d, "gen values directory missing",
                       ["gen", "--type", "u32", "--n", "10", "--values",
                        os.path.join(d, "nodir", "v"), g], (g,), "nodir")
        # run and dispatch.
        expect_failure(d, "run cuda", ["run", "--n", "1000", "--backend", "cuda"], (),
                       "vksort: backend 'cuda' not available: ")
        expect_failure(d, "run --n 0", ["run", "--n", "0"], (), "--n")
        expect_failure(d, "run unknown type", ["run", "--type", "x"], (), "unknown key type")
        expect_failure(d, "run --repeat 0", ["run", "--repeat", "0"], (), "--repeat")
        expect_failure(d, "run positional", ["run", "extra"], (), "unexpected argument")
        expect_failure(d, "unknown command", ["srot"], (), "unknown command 'srot'")
        expect_failure(d, "no command", [], (), "missing command")
        expect_failure(d, "help unknown command", ["help", "srot"], (), "srot")
        # A successful sort replaces a pre-existing OUTPUT (sanity of the fixture above).
        with open(out, "wb") as f:
            f.write(SENTINEL)
        rc, _, se = vksort(*sort())
        check(rc == 0, "good sort failed: %r" % se)
        with open(out, "rb") as f:
            check(f.read() == pack("u32", list(range(1, 101))), "good sort: wrong OUTPUT")
    finish("cli errors")


main()
