#!/usr/bin/env python3
"""Timings: a headless run with --timings writes a CSV (frame,sort,particles,pass,ms) with a row
per pass of the frame (simulate, depth_keys, sort <backend>, draw) for every frame (the last
frames' timestamps are collected at exit), with non-negative milliseconds; the cpu backend adds
its host-timed "sort cpu (host ms)" row. No duration is asserted.

usage: test_timings.py DEMO WORKDIR"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_demo  # noqa: E402


def main():
    demo, workdir = sys.argv[1], sys.argv[2]
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "timings.csv")
    frames = 8
    for sort in ("bitonic", "cpu"):
        rc, out, err = run_demo.run(demo, ["--headless", "--frames", str(frames), "--particles",
                                           "2000", "--size", "128x128", "--sort", sort,
                                           "--timings", path])
        run_demo.show(f"--sort {sort} --timings", rc, out, err)
        if rc != 0:
            raise SystemExit("FAIL: the run failed")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows or list(rows[0].keys()) != ["frame", "sort", "particles", "pass", "ms"]:
            raise SystemExit(f"FAIL: {path} has no rows or the wrong header")
        passes = {}
        for r in rows:
            if r["sort"] != sort or r["particles"] != "2000" or float(r["ms"]) < 0.0:
                raise SystemExit(f"FAIL: bad row {r}")
            passes.setdefault(r["pass"], set()).add(int(r["frame"]))
        print(f"{sort}: passes {sorted(passes)}")
        sort_pass = "sort bitonic" if sort == "bitonic" else "sort cpu (host ms)"
        for name in ("simulate", "depth_keys", sort_pass, "draw"):
            got = passes.get(name, set())
            want = set(range(frames))
            if not want <= got:
                raise SystemExit(f"FAIL: pass '{name}' has rows for frames {sorted(got)}, "
                                 f"expected at least {sorted(want)}")
    print("ok")


if __name__ == "__main__":
    main()
