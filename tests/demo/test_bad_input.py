#!/usr/bin/env python3
"""Bad input: each case must exit non-zero (never crash: no signal), print a message naming the
problem on stderr, and leave no file behind where an output was asked for.

usage: test_bad_input.py DEMO WORKDIR"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_demo  # noqa: E402


def main():
    demo, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    shot = os.path.join(workdir, "never.png")
    cases = [
        (["--bogus"], "unknown option '--bogus'"),
        (["--size", "12x"], "--size"),
        (["--size", "banana"], "--size needs WxH"),
        (["--size", "0x100"], "--size (width)"),
        (["--sort", "quick"], "unknown sort 'quick'"),
        (["--frames", "-3"], "--frames"),
        (["--frames", "10abc"], "--frames"),
        (["--particles", "0"], "--particles"),
        (["--particles"], "--particles needs a value"),
        (["--seed", "99999999999"], "--seed"),
        (["--scene", "nope"], "unknown scene 'nope'"),
        (["--key-bits", "20"], "--key-bits must be 16, 24 or 32"),
        (["--key-bits", "64"], "--key-bits"),
        (["--renderdoc-capture", "x"], "--renderdoc-capture"),
        (["--frames", "3", "--renderdoc-capture", "5"], "past the last frame"),
        (["--screenshot", "out.jpg"], "ending in .png"),
        (["--headless", "--frames", "1", "--screenshot",
          os.path.join(workdir, "no", "such", "dir", "x.png")], "cannot write"),
        (["--headless", "--frames", "1", "--timings", os.path.join(workdir, "no", "dir", "t.csv")],
         "cannot write"),
        # Refused before any Vulkan work: a directory, an empty name, one file for both outputs,
        # a capture past the default 300 headless frames.
        (["--headless", "--frames", "1", "--screenshot", os.path.join(workdir, "adir.png")],
         "is a directory"),
        (["--headless", "--frames", "1", "--timings", os.path.join(workdir, "adir.png")],
         "is a directory"),
        (["--headless", "--frames", "1", "--timings", ""], "empty file name"),
        (["--headless", "--frames", "1", "--screenshot", os.path.join(workdir, "both.png"),
          "--timings", os.path.join(workdir, ".", "both.png")], "same file"),
        (["--headless", "--renderdoc-capture", "300"], "past the last frame"),
    ]
    os.makedirs(os.path.join(workdir, "adir.png"), exist_ok=True)
    failures = 0
    for args, expect in cases:
        rc, out, err = run_demo.run(demo, args + (["--screenshot", shot] if "--screenshot" not in
                                                  args and "--sort" in args else []), timeout=60)
        ok = rc == 2 and expect in err
        print(f"{'ok  ' if ok else 'FAIL'} {' '.join(args)!r}: exit {rc}, stderr: {err.strip()}")
        failures += not ok
    if os.path.exists(shot):
        print(f"FAIL: {shot} was written by a failing run")
        failures += 1
    # A run that fails after its outputs were opened (more particles than any storage buffer of
    # a device can hold: 2^29 x 64 bytes = 32 GiB) leaves neither the screenshot nor the CSV, and
    # an earlier CSV of the same name is kept as it was.
    csv = os.path.join(workdir, "kept.csv")
    with open(csv, "w") as f:
        f.write("an earlier run\n")
    for p in (shot,):
        if os.path.exists(p):
            os.remove(p)
    rc, out, err = run_demo.run(demo, ["--headless", "--frames", "2", "--particles", "512M",
                                       "--screenshot", shot, "--timings", csv], timeout=120)
    with open(csv) as f:
        kept = f.read() == "an earlier run\n"
    leftovers = [n for n in os.listdir(workdir) if "tmp" in n]
    ok = rc > 0 and "maxStorageBufferRange" in err and not os.path.exists(shot) and kept and \
        not leftovers
    print(f"{'ok  ' if ok else 'FAIL'} run-time failure: exit {rc}, screenshot written: "
          f"{os.path.exists(shot)}, earlier CSV kept: {kept}, temporaries left: {leftovers}, "
          f"stderr: {err.strip()}")
    failures += not ok
    if os.path.exists(os.path.join(workdir, "both.png")):
        print("FAIL: both.png was written by a failing run")
        failures += 1
    # A set-up failure after the device exists (the offscreen image does not fit a small address
    # space) is a message and exit 1, not a crash in the teardown. Where the image still fits,
    # the run simply succeeds.
    import resource

    def small_address_space():
        resource.setrlimit(resource.RLIMIT_AS, (1900 << 20, 1900 << 20))
    p = subprocess.run([demo, "--headless", "--frames", "1", "--particles", "1000", "--size",
                        "16384x16384", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300, preexec_fn=small_address_space)
    ok = p.returncode == 0 or (p.returncode == 1 and "vksort-demo:" in p.stderr)
    print(f"{'ok  ' if ok else 'FAIL'} set-up failure: exit {p.returncode}, stderr: "
          f"{p.stderr.strip()[-300:]}")
    failures += not ok
    # --sort cuda: a clear error where CUDA cannot sort this device's buffers (this machine has no
    # CUDA device); where it can, the run must succeed.
    rc, out, err = run_demo.run(demo, ["--headless", "--frames", "2", "--particles", "1000",
                                       "--sort", "cuda", "--quiet"], timeout=120)
    cuda_ok = (rc == 0) or (rc > 0 and "sort 'cuda' is not available:" in err)
    print(f"{'ok  ' if cuda_ok else 'FAIL'} --sort cuda: exit {rc}, stderr: {err.strip()}")
    failures += not cuda_ok
    if failures:
        raise SystemExit(f"FAIL: {failures} case(s)")
    print("ok")


if __name__ == "__main__":
    main()
