#!/usr/bin/env python3
"""Window mode under Xvfb: the demo opens a GLFW window with a Vulkan swapchain (it must not fall
back to headless), and two screenshots of the X root window (ImageMagick `import`), taken after
the first and the second once-per-second status line, show the particles (many colours, enough
saturated pixels) and differ (the particles move). Then a short windowed run with validation
reads the swapchain image back (--screenshot) and must report no validation message.

Run inside an X server: `xvfb-run -a python3 test_window.py DEMO WORKDIR` (CTest does that)."""
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import demo_png  # noqa: E402
import run_demo  # noqa: E402


def wait_status_line(proc, lines):
    """Reads the demo's stdout until its next once-per-second status line."""
    for line in proc.stdout:
        lines.append(line)
        if " fps | " in line:
            return True
    return False


def check_particles(path):
    distinct, saturated = demo_png.colour_stats(path)
    print(f"{os.path.basename(path)}: {distinct} distinct colours, {saturated:.2%} saturated")
    if distinct < 50 or saturated < 0.002:
        raise SystemExit(f"FAIL: {path} looks blank (no particles visible)")


def main():
    demo, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    if not os.environ.get("DISPLAY"):
        raise SystemExit("FAIL: no DISPLAY (run under xvfb-run)")
    args = [demo, "--size", "320x240", "--particles", "3000", "--frames", "1000000",
            "--fixed-dt", "--seed", "3"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        first = proc.stdout.readline()
        lines.append(first)
        if ", window," not in first:
            raise SystemExit(f"FAIL: the demo did not open a window: {first.strip()}")
        if not wait_status_line(proc, lines):
            raise SystemExit("FAIL: no status line from the windowed demo")
        a = run_demo.snap_root(os.path.join(workdir, "window_a.png"))
        if not wait_status_line(proc, lines):
            raise SystemExit("FAIL: no second status line from the windowed demo")
        b = run_demo.snap_root(os.path.join(workdir, "window_b.png"))
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        sys.stdout.write("".join(lines))
        if err:
            sys.stdout.write("--- stderr\n" + err)
    check_particles(a)
    check_particles(b)
    d = demo_png.differing_pixels(a, b)
    print(f"window_a vs window_b: {d} pixels differ")
    if d < 100:
        raise SystemExit("FAIL: the window did not change between the two screenshots")

    shot = os.path.join(workdir, "window_swapchain.png")
    if os.path.exists(shot):
        os.remove(shot)
    rc, out, err = run_demo.run(demo, ["--size", "320x240", "--particles", "3000", "--frames", "5",
                                       "--validation", "--quiet", "--screenshot", shot])
    run_demo.show("windowed --validation --screenshot", rc, out, err)
    if rc != 0 or ", window," not in out or "validation messages: 0" not in out:
        raise SystemExit("FAIL: the windowed run with validation did not finish cleanly")
    check_particles(shot)
    print("ok")


if __name__ == "__main__":
    main()
