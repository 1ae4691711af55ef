"""Where outputs go: a symbolic link's target is replaced and the link kept, a device is written
in place (not replaced by a regular file), one file under two spellings is refused, a name too
long for the file system fails before anything is written, a replaced file keeps its permission
bits, and a command whose report cannot reach stdout writes no output."""
import os
import stat
import subprocess

from clitest import (CLI_ENV, VKSORT, check, finish, one_line_error, pack, tempdir, vksort)

SENTINEL = b"pre-existing output: must survive a failed command\n"


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    with tempdir() as d:
        keys = os.path.join(d, "k.bin")
        vals = os.path.join(d, "v.bin")
        write(keys, pack("u32", list(range(100, 0, -1))))
        write(vals, pack("u32", list(range(100))))
        sorted_keys = pack("u32", list(range(1, 101)))
        sorted_vals = pack("u32", list(range(99, -1, -1)))

        # A link: its target gets the data, the link stays a link.
        target = os.path.join(d, "target.bin")
        link = os.path.join(d, "link.bin")
        write(target, SENTINEL)
        os.symlink("target.bin", link)
        rc, _, se = vksort("sort", "--type", "u32", keys, link)
        check(rc == 0, "sort to a link failed: %r" % se)
        check(os.path.islink(link), "the link was replaced by a file")
        check(read(target) == sorted_keys, "the link's target does not hold the sorted keys")

        # A dangling link: refused, nothing created.
        dangling = os.path.join(d, "dangling.bin")
        os.symlink("nowhere/x.bin", dangling)
        before = sorted(os.listdir(d))
        rc, so, se = vksort("sort", "--type", "u32", keys, dangling)
        check(rc != 0 and one_line_error(se) and "symbolic link" in se,
              "dangling link: rc %d, stderr %r" % (rc, se))
        check(sorted(os.listdir(d)) == before, "dangling link: directory changed")

        # A device or FIFO: written in place, still what it was afterwards. A private copy of
        # /dev/null where we may create one (root), so a regression cannot replace the real one;
        # else a FIFO with a reader.
        node = os.path.join(d, "null")
        try:
            os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            rc, _, se = vksort("sort", "--type", "u32", keys, node)
            check(rc == 0, "sort to a device failed: %r" % se)
            check(stat.S_ISCHR(os.lstat(node).st_mode), "the device was replaced by a file")
        except PermissionError:
            pass
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
        rc, _, se = vksort("sort", "--type", "u32", keys, fifo)
        try:
            got = reader.communicate(timeout=20)[0]
        except subprocess.TimeoutExpired:  # nothing was written into the FIFO
            reader.kill()
            got = reader.communicate()[0]
        check(rc == 0 and got == sorted_keys, "sort to a FIFO: rc %d, %d bytes read, %r" %
              (rc, len(got), se))
        check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced by a file")

        # One file, two spellings: refused before anything is written.
        out = os.path.join(d, "out.bin")
        write(out, SENTINEL)
        spelled = os.path.join(d, ".", "out.bin")
        rc, _, se = vksort("sort", "--type", "u32", "--values", vals, "--values-out", spelled,
                           keys, out)
        check(rc == 2 and "same file" in se, "OUTPUT == ./OUTPUT: rc %d, stderr %r" % (rc, se))
        check(read(out) == SENTINEL, "OUTPUT == ./OUTPUT: the existing output was modified")
        alias = os.path.join(d, "alias.bin")
        os.symlink("out.bin", alias)
        rc, _, se = vksort("gen", "--type", "u32", "--n", "10", "--values", alias, out)
        check(rc == 2 and "same file" in se, "gen OUTPUT == a link to it: rc %d, %r" % (rc, se))
        check(read(out) == SENTINEL, "gen OUTPUT == a link to it: the existing output was modified")
        # Different files under similar names still work.
        rc, _, se = vksort("sort", "--type", "u32", "--values", vals, "--values-out",
                           os.path.join(d, "vout.bin"), keys, out)
        check(rc == 0 and read(out) == sorted_keys and
              read(os.path.join(d, "vout.bin")) == sorted_vals, "pairs sort failed: %r" % se)

        # A values name too long for the file system: refused before OUTPUT is touched.
        write(out, SENTINEL)
        long_name = os.path.join(d, "a" * 300)
        before = sorted(os.listdir(d))
        rc, _, se = vksort("sort", "--type", "u32", "--values", vals, "--values-out", long_name,
                           keys, out)
        check(rc != 0 and "too long" in se, "long values name: rc %d, stderr %r" % (rc, se))
        check(read(out) == SENTINEL, "long values name: the existing OUTPUT was modified")
        check(sorted(os.listdir(d)) == before, "long values name: directory changed")
        rc, _, se = vksort("gen", "--type", "u32", "--n", "10", "--values", long_name, out)
        check(rc != 0 and read(out) == SENTINEL, "gen long values name: OUTPUT modified (%r)" % se)

        # A replaced file keeps its permission bits (a private file stays private).
        private = os.path.join(d, "private.bin")
        write(private, SENTINEL)
        os.chmod(private, 0o600)
        rc, _, se = vksort("sort", "--type", "u32", keys, private)
        check(rc == 0 and read(private) == sorted_keys, "sort over a 0600 file failed: %r" % se)
        check(stat.S_IMODE(os.stat(private).st_mode) == 0o600,
              "mode 0600 became %o" % stat.S_IMODE(os.stat(private).st_mode))

        # stdout that cannot be written: the command fails and writes no output.
        if os.path.exists("/dev/full"):
            verified = os.path.join(d, "verified.bin")
            with open("/dev/full", "w") as full:
                p = subprocess.run([VKSORT, "sort", "--verify", "--type", "u32", keys, verified],
                                   stdout=full, stderr=subprocess.PIPE, text=True, env=CLI_ENV)
            check(p.returncode != 0 and "standard output" in p.stderr,
                  "--verify into /dev/full: rc %d, stderr %r" % (p.returncode, p.stderr))
            check(not os.path.exists(verified), "--verify into /dev/full: the output appeared")
            for args in (["--help"], ["--version"], ["help", "sort"]):
                with open("/dev/full", "w") as full:
                    p = subprocess.run([VKSORT] + args, stdout=full, stderr=subprocess.PIPE,
                                       text=True, env=CLI_ENV)
                check(p.returncode != 0, "%s into /dev/full: exit 0" % " ".join(args))

        # '-' is not a file name the CLI takes.
        p = subprocess.run([VKSORT, "sort", "--type", "u32", keys, "-"], capture_output=True,
                           text=True, env=CLI_ENV, cwd=d)
        check(p.returncode != 0 and "'-'" in p.stderr and not os.path.exists(os.path.join(d, "-")),
              "OUTPUT '-': rc %d, stderr %r" % (p.returncode, p.stderr))
    finish("cli outputs")


main()
