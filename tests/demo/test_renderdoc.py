#!/usr/bin/env python3
"""RenderDoc: `renderdoccmd capture` runs the demo with `--renderdoc-capture 2` (the demo finds
RenderDoc's in-application API and captures frame 2), then the capture is opened and replayed with
the `renderdoc` Python module, and the action tree must hold the labelled passes in frame order:
simulate, depth_keys, "sort BACKEND" (with the sorter's own pass labels nested inside, the names of
src/vk/labels.c and radix.c), draw (with grid and sprites inside).

usage: test_renderdoc.py DEMO WORKDIR RENDERDOCCMD BACKEND   (a Python that can import renderdoc)"""
import glob
import os
import subprocess
import sys

# What the library's sorter labels inside its node (prefixes; pass numbers and levels vary).
SORTER_LABELS = {
    "portable": ["vksort portable radix sort", "radix_prepare", "histogram",
                 "upsweep pass", "downsweep pass"],
    "onesweep": ["vksort onesweep radix sort", "radix_prepare", "histogram",
                 "onesweep pass"],
    "bitonic": ["vksort bitonic sort", "local_sort", "global_merge", "local_merge"],
}


def capture(demo, workdir, rdcmd, backend):
    stem = os.path.join(workdir, f"demo_{backend}")
    for old in glob.glob(stem + "*.rdc"):
        os.remove(old)
    env = dict(os.environ)
    if backend == "onesweep":
        env["LP_NUM_THREADS"] = "1"
    cmd = [rdcmd, "capture", "-w", "-c", stem, demo, "--headless", "--frames", "4",
           "--renderdoc-capture", "2", "--scene", "overlap", "--size", "256x256",
           "--particles", "5000", "--sort", backend, "--quiet"]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=300)
    print(p.stdout)
    if "RenderDoc capture of frame 2 written" not in p.stdout:
        raise SystemExit("FAIL: the demo did not report a RenderDoc capture of frame 2")
    files = glob.glob(stem + "*.rdc")
    if len(files) != 1:
        raise SystemExit(f"FAIL: expected one capture file {stem}*.rdc, found {files}")
    return files[0]


def action_tree(path):
    import renderdoc as rd
    rd.InitialiseReplay(rd.GlobalEnvironment(), [])
    cap = rd.OpenCaptureFile()
    try:
        result = cap.OpenFile(path, "", None)
        if result != rd.ResultCode.Succeeded:
            raise SystemExit(f"FAIL: cannot open {path}: {result}")
        if cap.LocalReplaySupport() != rd.ReplaySupport.Supported:
            raise SystemExit(f"FAIL: {path} cannot be replayed here")
        result, ctl = cap.OpenCapture(rd.ReplayOptions(), None)
        if result != rd.ResultCode.Succeeded:
            raise SystemExit(f"FAIL: cannot replay {path}: {result}")
        sf = ctl.GetStructuredFile()

        def walk(actions):
            return [(a.GetName(sf), walk(a.children)) for a in actions]
        tree = walk(ctl.GetRootActions())
        ctl.Shutdown()
        return tree
    finally:
        cap.Shutdown()
        rd.ShutdownReplay()


def flatten(tree):
    out = []
    for name, children in tree:
        out.append(name)
        out.extend(flatten(children))
    return out


def print_tree(tree, depth=0):
    for name, children in tree:
        if not name.startswith("vkCmd"):
            print("  " * depth + name)
        print_tree(children, depth + 1)


def main():
    demo, workdir, rdcmd, backend = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    tree = action_tree(capture(demo, workdir, rdcmd, backend))
    print_tree(tree)
    top = [name for name, _ in tree]
    # The host sort is an external pass: its label marks where the frame leaves Vulkan.
    sort_label = "sort cpu (host)" if backend == "cpu" else f"sort {backend}"
    frame_passes = ["simulate", "depth_keys", sort_label, "draw"]
    positions = []
    for label in frame_passes:
        if label not in top:
            raise SystemExit(f"FAIL: no '{label}' region at the top of the captured frame")
        positions.append(top.index(label))
    if positions != sorted(positions):
        raise SystemExit(f"FAIL: the passes are not in frame order: {frame_passes} at {positions}")
    sort_names = flatten(dict(tree)[sort_label])
    for prefix in SORTER_LABELS.get(backend, []):
        if not any(n.startswith(prefix) for n in sort_names):
            raise SystemExit(f"FAIL: no sorter pass label '{prefix}...' inside '{sort_label}'")
    draw_names = flatten(dict(tree)["draw"])
    for label in ("grid", "sprites"):
        if label not in draw_names:
            raise SystemExit(f"FAIL: no '{label}' label inside 'draw'")
    print("ok")


if __name__ == "__main__":
    main()
