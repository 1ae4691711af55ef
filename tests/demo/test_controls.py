#!/usr/bin/env python3
"""Live controls in a real window under Xvfb, driven with xdotool (XTEST input events):
  - key 3 switches the sort to bitonic, key - halves the particle count (the demo says so on
    stdout: "vksort-demo: sort bitonic, 1500 particles");
  - space pauses: two screenshots of the window taken a status line apart are identical;
  - a left-button drag orbits the camera and a wheel step zooms: each changes the image while
    the simulation stays paused;
  - q quits: the demo exits with status 0.

Run inside an X server: `xvfb-run -a python3 test_controls.py DEMO WORKDIR` (CTest does that)."""
import os
import queue
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import demo_png  # noqa: E402
import run_demo  # noqa: E402

TIMEOUT = 60.0


class Demo:
    """The windowed demo with its stdout read on a thread (lines with a deadline)."""

    def __init__(self, demo):
        args = [demo, "--size", "320x240", "--particles", "3000", "--frames", "1000000",
                "--fixed-dt", "--seed", "5", "--sort", "portable"]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.lines = queue.Queue()
        self.log = []
        self.err = []
        threading.Thread(target=self._read, daemon=True).start()
        # stderr drained too: a full pipe would block the demo
        threading.Thread(target=lambda: self.err.extend(self.proc.stderr), daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text):
        """Reads stdout until a line containing `text`; fails after TIMEOUT seconds."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.log.append(line)
            if text in line:
                return line
        raise SystemExit(f"FAIL: no stdout line with {text!r}")

    def status_line(self):
        return self.wait_for(" fps | ")


def xdotool(*args, check=True):
    return subprocess.run(["xdotool"] + list(args), check=check, timeout=30,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True).stdout.strip()


def main():
    demo, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    if not os.environ.get("DISPLAY"):
        raise SystemExit("FAIL: no DISPLAY (run under xvfb-run)")
    d = Demo(demo)
    try:
        first = d.wait_for("vksort-demo:")
        if ", window," not in first:
            raise SystemExit(f"FAIL: the demo did not open a window: {first.strip()}")
        d.status_line()
        win = xdotool("search", "--sync", "--name", " particles").split()[0]
        xdotool("windowfocus", "--sync", win)

        xdotool("key", "--window", win, "3")
        d.wait_for("vksort-demo: sort bitonic, 3000 particles")
        if "| bitonic |" not in d.status_line():
            raise SystemExit("FAIL: the status line does not show the bitonic sort")
        xdotool("key", "--window", win, "minus")
        d.wait_for("vksort-demo: sort bitonic, 1500 particles")
        print("keys: 3 -> bitonic, - -> 1500 particles")

        xdotool("key", "--window", win, "space")
        d.status_line()
        d.status_line()
        a = run_demo.snap_root(os.path.join(workdir, "paused_a.png"))
        d.status_line()
        b = run_demo.snap_root(os.path.join(workdir, "paused_b.png"))
        same = demo_png.differing_pixels(a, b)
        distinct, _ = demo_png.colour_stats(b)
        print(f"paused: {same} pixels differ between two screenshots, {distinct} colours")
        if same != 0:
            raise SystemExit("FAIL: the image still changes while paused")
        if distinct < 50:
            raise SystemExit("FAIL: the paused window looks blank")

        xdotool("mousemove", "--window", win, "100", "120")
        xdotool("mousedown", "1")
        for x in (130, 160, 190, 220):
            xdotool("mousemove", "--window", win, str(x), "120")
            time.sleep(0.05)
        xdotool("mouseup", "1")
        d.status_line()
        c = run_demo.snap_root(os.path.join(workdir, "orbited.png"))
        orbit = demo_png.differing_pixels(b, c)
        print(f"drag: {orbit} pixels differ")
        if orbit < 100:
            raise SystemExit("FAIL: dragging with the left button did not orbit the camera")

        xdotool("click", "--window", win, "4")
        xdotool("click", "--window", win, "4")
        d.status_line()
        z = run_demo.snap_root(os.path.join(workdir, "zoomed.png"))
        zoom = demo_png.differing_pixels(c, z)
        print(f"wheel: {zoom} pixels differ")
        if zoom < 100:
            raise SystemExit("FAIL: the mouse wheel did not zoom")

        # The demo may quit on the key press, before xdotool sends the release to its window
        # (BadWindow): xdotool's own status says nothing here, the demo's exit status does.
        xdotool("key", "--window", win, "q", check=False)
        rc = d.proc.wait(timeout=TIMEOUT)
        if rc != 0:
            raise SystemExit(f"FAIL: q did not quit cleanly (exit {rc})")
    finally:
        if d.proc.poll() is None:
            d.proc.kill()
            d.proc.wait()
        sys.stdout.write("".join(d.log))
        time.sleep(0.2)
        err = "".join(d.err)
        if err:
            sys.stdout.write("--- stderr\n" + err)
    print("ok")


if __name__ == "__main__":
    main()
