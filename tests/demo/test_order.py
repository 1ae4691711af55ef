#!/usr/bin/env python3
"""Order correctness: in the `overlap` scene (large overlapping sprites of four colours, where the
draw order decides every overlapped pixel) the image rendered with sort BACKEND must equal, byte
for byte, the image rendered with the reference draw order (`--sort reference`: keys read back
and sorted on the host by libc qsort on (key, index) pairs), and must differ from `--sort none`.
Every run has the validation layer with synchronization validation on and must report no message.

Then a check that does not trust the sort keys: in the moving `fountains` scene the demo reads
the last frame's particles and draw order back (`--check-order`) and recomputes every view depth
on the host: the order must be back to front (a sort in the wrong direction, or a draw that used
an earlier frame's order, fails it), and `--sort none` must fail the same check.

With extra arguments (e.g. `--key-bits 16`) every run gets them too.

usage: test_order.py DEMO WORKDIR BACKEND [DEMO ARGS...]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import demo_png  # noqa: E402
import run_demo  # noqa: E402

COMMON = ["--headless", "--validation", "--scene", "overlap", "--size", "256x256",
          "--particles", "5000", "--frames", "3", "--seed", "7", "--quiet"]


def render(demo, workdir, sort):
    png = os.path.join(workdir, f"order_{sort}.png")
    if os.path.exists(png):
        os.remove(png)
    # Onesweep needs forward progress between workgroups: one lavapipe thread (docs/vulkan.md).
    env = {"LP_NUM_THREADS": "1"} if sort == "onesweep" else {}
    rc, out, err = run_demo.run(demo, COMMON + ["--sort", sort, "--screenshot", png], env)
    ok = rc == 0 and "validation messages: 0" in out and "VALIDATION" not in err
    if not ok or not os.path.exists(png):
        run_demo.show(f"--sort {sort}", rc, out, err)
        raise SystemExit(f"FAIL: --sort {sort} did not run cleanly (exit {rc})")
    print(f"--sort {sort}: {png}, validation messages: 0")
    return png


def main():
    demo, workdir, backend = sys.argv[1], sys.argv[2], sys.argv[3]
    COMMON.extend(sys.argv[4:])
    os.makedirs(workdir, exist_ok=True)
    ref = render(demo, workdir, "reference")
    none = render(demo, workdir, "none")
    img = render(demo, workdir, backend)
    distinct, saturated = demo_png.colour_stats(ref)
    print(f"reference: {distinct} distinct colours, {saturated:.1%} saturated pixels")
    if distinct < 50 or saturated < 0.05:
        raise SystemExit("FAIL: the reference image does not show the overlapping sprites")
    d_none = demo_png.differing_pixels(ref, none)
    print(f"reference vs none: {d_none} pixels differ")
    if d_none < 100:
        raise SystemExit("FAIL: --sort none looks like the sorted image: the scene does not "
                         "depend on the order, the test would prove nothing")
    d = demo_png.differing_pixels(ref, img)
    print(f"reference vs {backend}: {d} pixels differ")
    if d != 0:
        raise SystemExit(f"FAIL: --sort {backend} draws in another order than the reference")

    moving = ["--headless", "--validation", "--scene", "fountains", "--size", "128x128",
              "--particles", "20000", "--frames", "4", "--seed", "11", "--quiet",
              "--check-order"] + sys.argv[4:]
    for sort, must_pass in ((backend, True), ("none", False)):
        env = {"LP_NUM_THREADS": "1"} if sort == "onesweep" else {}
        rc, out, err = run_demo.run(demo, moving + ["--sort", sort], env)
        passed = rc == 0 and "drawn back to front" in out and "validation messages: 0" in out
        failed_check = rc != 0 and "order check FAILED" in err
        print(f"--check-order --sort {sort}: exit {rc}")
        if must_pass and not passed:
            run_demo.show(f"--check-order --sort {sort}", rc, out, err)
            raise SystemExit(f"FAIL: --sort {backend} did not draw back to front")
        if not must_pass and not failed_check:
            run_demo.show(f"--check-order --sort {sort}", rc, out, err)
            raise SystemExit("FAIL: the order check did not catch the unsorted draw order")
    print("ok")


if __name__ == "__main__":
    main()
