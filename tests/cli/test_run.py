"""vksort run (generate, sort, verify, time in memory), --help and --version."""
import os
import re

from clitest import check, finish, one_line_error, vksort

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include",
                      "vksort", "vksort.h")


def header_version():
    with open(HEADER) as f:
        text = f.read()
    parts = [re.search(r"#define VKSORT_VERSION_%s (\d+)" % p, text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def check_run(*args):
    rc, so, se = vksort("run", *args)
    what = "run %s" % " ".join(args)
    if not check(rc == 0, "%s: exit %d, stderr %r" % (what, rc, se)):
        return
    m = re.search(r"^throughput: +([0-9.]+) M keys/s$", so, re.M)
    check(m is not None and float(m.group(1)) > 0, "%s: no throughput line in %r" % (what, so))
    check(re.search(r"^backend: +cpu", so, re.M) is not None, "%s: backend line %r" % (what, so))
    n = args[args.index("--n") + 1]
    check(re.search(r"^keys: +%s %s" % (n, args[args.index("--type") + 1]), so, re.M)
          is not None, "%s: keys line %r" % (what, so))
    check(re.search(r"^time: +[0-9.]+ ms per sort, median of \d+", so, re.M) is not None,
          "%s: time line %r" % (what, so))
    check(re.search(r"^verified: ", so, re.M) is not None, "%s: no verified line" % what)


def main():
    check_run("--n", "100000", "--type", "u32")
    check_run("--n", "100000", "--type", "f64")
    check_run("--n", "100000", "--type", "i32", "--dist", "few:3", "--repeat", "2",
              "--backend", "cpu", "--threads", "1", "--seed", "9")
    check_run("--n", "1", "--type", "u64", "--repeat", "1")

    rc, so, se = vksort("run", "--n", "1000", "--backend", "cuda")
    check(rc != 0 and one_line_error(se) and
          se.startswith("vksort: backend 'cuda' not available: "),
          "run --backend cuda: exit %d, stderr %r" % (rc, se))

    rc, so, _ = vksort("--version")
    check(rc == 0 and so == "vksort %s\n" % header_version(), "--version: %r" % so)
    rc, so, _ = vksort("--help")
    check(rc == 0 and "usage: vksort" in so and all(c in so for c in ("sort", "gen", "run")),
          "--help: %r" % so)
    for cmd, must in (("sort", "--values-out"), ("gen", "--dist"), ("run", "--repeat")):
        for args in ((cmd, "--help"), (cmd, "-h"), ("help", cmd), (cmd, "--type", "bogus",
                                                                   "--help")):
            rc, so, se = vksort(*args)
            check(rc == 0 and so.startswith("usage: vksort %s" % cmd) and must in so
                  and se == "", "%s: exit %d %r" % (" ".join(args), rc, so[:80]))
    finish("cli run/usage")


main()
