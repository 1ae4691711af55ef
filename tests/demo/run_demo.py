"""Shared helper: runs the demo, returns (returncode, stdout, stderr), prints both on failure."""
import os
import subprocess
import sys


def run(demo, args, env_extra=None, timeout=120, cwd=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    cmd = [demo] + list(args)
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def snap_root(path):
    """Screenshot of the X root window (ImageMagick `import`) to `path` (removed first)."""
    if os.path.exists(path):
        os.remove(path)
    subprocess.run(["import", "-window", "root", path], check=True, timeout=60)
    return path


def show(cmd_desc, rc, out, err):
    sys.stdout.write(f"--- {cmd_desc}: exit {rc}\n{out}")
    if err:
        sys.stdout.write(f"--- stderr\n{err}")
