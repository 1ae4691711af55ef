#!/usr/bin/env python3
"""Median per-pass milliseconds from one or more `vksort-demo --timings` CSV files, skipping the
first frames (warm-up). Prints a Markdown table: sort, particles, frames, then one column per pass.

usage: summarize_timings.py [--skip N] FILE.csv..."""
import csv
import statistics
import sys


def main(argv):
    skip = 10
    if len(argv) > 2 and argv[1] == "--skip":
        skip = int(argv[2])
        argv = argv[2:]
    table, passes = {}, []
    for path in argv[1:]:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if int(row["frame"]) < skip:
                    continue
                key = (row["sort"], int(row["particles"]))
                table.setdefault(key, {}).setdefault(row["pass"], []).append(float(row["ms"]))
                if row["pass"] not in passes:
                    passes.append(row["pass"])
    print("| sort | particles | frames | " + " | ".join(passes) + " |")
    print("|---|---:|---:|" + "---:|" * len(passes))
    for (sort, n), per_pass in sorted(table.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        frames = max(len(v) for v in per_pass.values())
        cells = [f"{statistics.median(per_pass[p]):.3f}" if p in per_pass else "" for p in passes]
        print(f"| {sort} | {n} | {frames} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv)
