"""The CLI's vulkan backend on lavapipe (CPU Vulkan, two worker threads): every algorithm gives
the CPU backend's bytes - Onesweep included, which a CPU device runs with the look-back fallback
(its plain look-back waits on workgroups lavapipe does not run alongside) - and a device index
the machine lacks is a usage error found before any input is read."""
import os
import random
import subprocess

from clitest import VKSORT, check, finish, pack, tempdir, test_keys

ENV = dict(os.environ, LP_NUM_THREADS="2")
ENV.pop("VKSORT_DISABLE_BACKENDS", None)


def run(*args):
    p = subprocess.run([VKSORT] + [str(a) for a in args], capture_output=True, text=True,
                       timeout=600, env=ENV)
    return p.returncode, p.stdout, p.stderr


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    rc, so, se = run("run", "--backend", "vulkan", "--n", "1000", "--repeat", "1")
    if rc != 0 and "not available" in se:
        print("SKIP: no Vulkan device (%s)" % se.strip())
        raise SystemExit(77)
    rng = random.Random(7)
    with tempdir() as d:
        # Uniform bit patterns (long look-back waits: what broke plain Onesweep here), and the
        # special values with repeats under a bit range.
        cases = [("u32", 1 << 20, False, None, True), ("f64", 300001, True, None, True),
                 ("i64", 70001, True, "3:40", False)]
        for t, n, pairs, bits, uniform in cases:
            keys = os.path.join(d, "k-%s.bin" % t)
            w = 32 if t == "u32" else 64
            data = [rng.getrandbits(w) for _ in range(n)] if uniform else test_keys(t, n, rng)
            with open(keys, "wb") as f:
                f.write(pack(w // 8, data))
            vals = os.path.join(d, "v-%s.bin" % t)
            with open(vals, "wb") as f:
                f.write(pack("u32", list(range(n))))
            extra = (["--bits", bits, "--descending"] if bits else [])
            outs = {}
            for backend, algo in (("cpu", None), ("vulkan", "onesweep"), ("vulkan", "portable"),
                                  ("vulkan", "auto")):
                ko = os.path.join(d, "o-%s-%s-%s.bin" % (t, backend, algo))
                vo = ko + ".values"
                args = ["sort", "--type", t, "--backend", backend] + extra
                if algo:
                    args += ["--algo", algo]
                if pairs:
                    args += ["--values", vals, "--values-out", vo]
                rc, _, se = run(*(args + [keys, ko]))
                label = "%s n=%d %s %s" % (t, n, backend, algo or "")
                if not check(rc == 0, "%s: rc %d, %r" % (label, rc, se)):
                    continue
                outs[label] = read(ko) + (read(vo) if pairs else b"")
            want = outs.get("%s n=%d cpu " % (t, n))
            for label, got in outs.items():
                check(got == want, "%s: bytes differ from the CPU backend's" % label)
        rc, _, se = run("sort", "--type", "u32", "--backend", "vulkan", "--device", "5",
                        os.path.join(d, "missing-input.bin"), os.path.join(d, "o.bin"))
        check(rc == 2 and "no device 5" in se, "--device 5: rc %d, %r" % (rc, se))
    finish("cli vulkan")


main()
