#!/usr/bin/env python3
"""SASS of the pipelines NVIDIA's Vulkan driver compiled, from its shader disk cache.

The driver gives no internal representations through VK_KHR_pipeline_executable_properties, but
it caches what it compiled. Run any program that creates the pipelines with

    __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_PATH=DIR \\
    __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 build/bench/vksort-gpu-bench ...

and bring DIR back. Its GLCache/*/*/*.bin files hold zstd frames; the frames starting with
"NVDANVVMNVuc" are compiled pipelines whose first code section (type 1: size at byte 0x4c,
offset at 0x50, counted from byte 8) is raw SM90 machine code that `nvdisasm -b SM90`
disassembles (layout seen with driver 580.159.04; not documented).

    tools/nv-sass.py DIR/GLCache/.../X.bin OUTDIR          # OUTDIR/fNN.sass, one per pipeline
    tools/nv-sass.py --live OUTDIR/fNN.sass [STEP [ADDR]]  # rough register liveness

The summary line of each pipeline (highest register used, loads, stores, shared atomics,
barriers) helps to tell them apart; so do constants such as the tile size. --live estimates the
registers live at each instruction (a backward data-flow over the branches; 64-bit addresses and
.64/.WIDE values count two): the peak, the peak per STEP instructions, and with ADDR (hex) what
is live there and where each value was last written. Rough, but it shows where a pass's register
pressure peaks and what holds it.

nvdisasm is not in CUDA 13's compiler packages here; Debian 12's non-free
nvidia-cuda-toolkit (CUDA 11.8, knows SM90) has it: `apt-get download nvidia-cuda-toolkit`
with the non-free component, `dpkg -x` the .deb, and point NVDISASM at usr/bin/nvdisasm.
Needs the zstd program.
"""
import os
import re
import struct
import subprocess
import sys

NVDISASM = os.environ.get('NVDISASM', 'nvdisasm')


def frames(path):
    data = open(path, 'rb').read()
    starts = [m.start() for m in re.finditer(re.escape(b'\x28\xb5\x2f\xfd'), data)] + [len(data)]
    for a, b in zip(starts, starts[1:]):
        r = subprocess.run(['zstd', '-d', '-c', '-q'], input=data[a:b], capture_output=True)
        yield r.stdout


def code_section(frame):
    if not frame.startswith(b'NVDANVVMNVuc') or len(frame) < 0x54:
        return None
    size = struct.unpack_from('<I', frame, 0x4c)[0]
    offset = struct.unpack_from('<I', frame, 0x50)[0] + 8
    return frame[offset:offset + size]


def extract(cache_bin, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for k, frame in enumerate(frames(cache_bin)):
        code = code_section(frame)
        if not code:
            continue
        raw = os.path.join(out_dir, f'f{k:02d}.bin')
        open(raw, 'wb').write(code)
        r = subprocess.run([NVDISASM, '-b', 'SM90', raw], capture_output=True, text=True)
        sass = os.path.join(out_dir, f'f{k:02d}.sass')
        open(sass, 'w').write(r.stdout)
        regs = [int(x) for x in re.findall(r'\bR(\d+)\b', r.stdout)]
        counts = ' '.join(f'{t}={r.stdout.count(t)}' for t in ('LDG', 'STG', 'ATOMS', 'BAR.SYNC'))
        print(f'{sass}: {len(r.stdout.splitlines())} lines, highest R{max(regs) if regs else "-"}, '
              f'{counts}{", nvdisasm errors" if r.returncode else ""}')


NO_DEST = {'ST', 'STG', 'STS', 'STL', 'BRA', 'BAR', 'EXIT', 'BSSY', 'BSYNC', 'RED', 'NOP',
           'WARPSYNC', 'MEMBAR', 'CCTL', 'ERRBAR', 'CALL', 'RET', 'YIELD', 'DEPBAR', 'ISETP',
           'FSETP', 'PLOP3', 'R2P'}
GLOBAL = {'LDG', 'STG', 'ATOMG', 'RED', 'LD', 'ST'}


def width(op):
    return 4 if '.128' in op else 2 if ('.64' in op or '.WIDE' in op) else 1


def liveness(path, step, at):
    ins = []
    for line in open(path):
        m = re.match(r'\s*/\*([0-9a-f]+)\*/\s*(@!?U?P\w+\s+)?(\S+)\s*(.*?)\s*;', line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2), m.group(3), m.group(4), line.strip()))
    index = {a[0]: i for i, a in enumerate(ins)}
    uses, defs, succ = [], [], []
    for i, (addr, pred, op, args, _) in enumerate(ins):
        base = op.split('.')[0]
        parts = [p.strip() for p in args.split(',')] if args else []
        has_dest = base not in NO_DEST and parts and re.match(r'R\d+$', parts[0])
        use, dest = set(), set()
        for k, p in enumerate(parts):
            if k == 0 and has_dest:
                r0 = int(parts[0][1:])
                dest = set(range(r0, r0 + width(op)))
                continue
            for m in re.finditer(r'\bR(\d+)(\.64|\.U32)?', p):
                r, w = int(m.group(1)), 1
                if m.group(2) == '.64' or ('[' in p and base in GLOBAL and m.group(2) != '.U32'
                                           and '+UR' not in p):
                    w = 2
                if base in GLOBAL | {'STS', 'ATOMS'} and '[' not in p and width(op) > 1:
                    w = width(op)
                use |= set(range(r, r + w))
        if pred and dest:
            use |= dest  # a predicated write keeps the old value live
        uses.append(use)
        defs.append(set() if pred else dest)
        nxt = []
        target = re.search(r'0x([0-9a-f]+)', args) if base == 'BRA' else None
        if base == 'EXIT' and not pred:
            pass
        elif base == 'BRA':
            if target and int(target.group(1), 16) in index:
                nxt.append(index[int(target.group(1), 16)])
            if pred or 'CONV' in op or 'DIV' in op:
                nxt.append(i + 1)
        else:
            nxt.append(i + 1)
        succ.append([j for j in nxt if j < len(ins)])
    live = [set() for _ in ins]
    changed = True
    while changed:
        changed = False
        for i in range(len(ins) - 1, -1, -1):
            out = set().union(*(live[j] for j in succ[i])) if succ[i] else set()
            new = (out - defs[i]) | uses[i]
            if new != live[i]:
                live[i], changed = new, True
    peak = max(range(len(ins)), key=lambda i: len(live[i]))
    print(f'{len(ins)} instructions, peak {len(live[peak])} live at {ins[peak][4][:100]}')
    for s in range(0, len(ins), step):
        m = max(range(s, min(len(ins), s + step)), key=lambda i: len(live[i]))
        print(f'  {ins[s][0]:05x}: peak {len(live[m]):3d} at {ins[m][4][:100]}')
    if at is not None:
        i = index[at]
        print(f'live at {at:x}: {len(live[i])}')
        for r in sorted(live[i]):
            j = i - 1
            while j >= 0 and r not in defs[j]:
                j -= 1
            print(f'  R{r}: {ins[j][4][:110] if j >= 0 else "(entry)"}')


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == '--live':
        liveness(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 200,
                 int(sys.argv[4], 16) if len(sys.argv) > 4 else None)
    elif len(sys.argv) == 3:
        extract(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
