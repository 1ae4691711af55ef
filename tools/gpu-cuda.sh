#!/usr/bin/env bash
# The CUDA backend on a machine with an NVIDIA GPU (the H200): run from the repository root with
# the build directory carried over (built elsewhere with the CUDA toolkit:
#   cmake -S . -B build-cuda -DVKSORT_WERROR=ON && cmake --build build-cuda -j).
#
#   1. ctest -L cuda (device-pointer sorts, Vulkan interop round trips with validation; a skip is
#      a failure here: VKSORT_TEST_REQUIRE_INTEROP=1)
#   2. the same tests under compute-sanitizer --tool memcheck (quick matrix), then racecheck and
#      synccheck when time allows
#   3. `vksort sort --backend cuda --verify` against `--backend cpu`, byte for byte, all six key
#      types (ascending, descending, a bit range; keys and payload)
#   4. the CUB baseline and the interop overhead through bench/cub_bench.h (python3 + ctypes),
#      when python3 is there
#
# Environment: STAGES (default "ctest memcheck racecheck synccheck cli bench": a subset runs only
# those, e.g. to keep each call under a time limit), BUILD_DIR (default build-cuda), OUT (when
# set: logs and the summary go there too),
# COMPUTE_SANITIZER (path; else found on PATH or under /usr/local/cuda), N (keys per CLI file,
# default 1000003), SANITIZER_TIMEOUT (seconds per sanitizer run, default 900).
# Exit status: 0 all passed; 1 something failed; 3 everything that ran passed but a step could
# not run (e.g. no compute-sanitizer on the machine).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

BUILD_DIR=${BUILD_DIR:-build-cuda}
N=${N:-1000003}
SANITIZER_TIMEOUT=${SANITIZER_TIMEOUT:-420}
STAGES=${STAGES:-ctest memcheck racecheck synccheck cli bench}
stage() { [[ " $STAGES " == *" $1 "* ]]; }
LOG_DIR=${OUT:-}
if [ -n "$LOG_DIR" ]; then
  mkdir -p "$LOG_DIR"
  exec > >(tee "$LOG_DIR/gpu-cuda.log") 2>&1
fi

failed=()
missing=()
step() { echo; echo "== $*"; }

# The Vulkan loader, driver ICD and validation layer of the GPU machine (see shared/gpu/env.sh).
if [ -f .gpu/env.sh ]; then
  # shellcheck disable=SC1091
  source .gpu/env.sh
fi

step "machine"
date -u +"%Y-%m-%dT%H:%M:%SZ"
git rev-parse --short HEAD 2>/dev/null || true
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
if [ ! -x "$BUILD_DIR/src/cli/vksort" ] || [ ! -f "$BUILD_DIR/CTestTestfile.cmake" ]; then
  echo "gpu-cuda: $BUILD_DIR is not a vksort build directory (BUILD_DIR=...)" >&2
  exit 1
fi
if [ ! -f "$BUILD_DIR/tests/cuda/CTestTestfile.cmake" ]; then
  echo "gpu-cuda: $BUILD_DIR was configured without the CUDA backend (needs the CUDA toolkit)" >&2
  exit 1
fi
"$BUILD_DIR/src/cli/vksort" sort --help >/dev/null

if stage ctest; then
step "ctest -L cuda"
ctest_log=$(mktemp)
if ! (cd "$BUILD_DIR" && VKSORT_TEST_REQUIRE_INTEROP=1 ctest -L cuda --output-on-failure) \
    | tee "$ctest_log"; then
  failed+=("ctest -L cuda")
fi
if grep -q "(Skipped)\|Not Run" "$ctest_log"; then
  failed+=("ctest -L cuda: a test was skipped (no CUDA device seen?)")
fi
rm -f "$ctest_log"
fi

if stage memcheck || stage racecheck || stage synccheck; then
step "compute-sanitizer"
san=${COMPUTE_SANITIZER:-}
if [ -z "$san" ]; then
  for c in "$(command -v compute-sanitizer 2>/dev/null)" /usr/local/cuda/bin/compute-sanitizer \
           /usr/local/cuda/compute-sanitizer/compute-sanitizer /opt/nvidia/compute-sanitizer/compute-sanitizer; do
    if [ -n "$c" ] && [ -x "$c" ]; then san=$c; break; fi
  done
fi
tests=("$BUILD_DIR/tests/cuda/test_cuda_sort")
[ -x "$BUILD_DIR/tests/cuda/test_cuda_vk_interop" ] && tests+=("$BUILD_DIR/tests/cuda/test_cuda_vk_interop")
if [ -z "$san" ]; then
  echo "compute-sanitizer NOT FOUND (set COMPUTE_SANITIZER=/path): memcheck/racecheck not run"
  missing+=("compute-sanitizer")
else
  "$san" --version | head -n 2
  for tool in memcheck racecheck synccheck; do
    stage "$tool" || continue
    for t in "${tests[@]}"; do
      echo "-- $tool: $(basename "$t")"
      extra=()
      [ "$tool" = memcheck ] && extra=(--leak-check full)
      # racecheck runs CUB's shared-memory kernels very slowly: the smallest matrix (=2).
      quick=1
      [ "$tool" = racecheck ] && quick=2
      VKSORT_TEST_CUDA_QUICK=$quick VKSORT_TEST_REQUIRE_INTEROP=1 timeout "$SANITIZER_TIMEOUT" \
        "$san" --tool "$tool" "${extra[@]}" --error-exitcode 99 "$t" > "/tmp/gpu-cuda-$tool.log" 2>&1
      rc=$?
      tail -n 4 "/tmp/gpu-cuda-$tool.log"
      [ -n "$LOG_DIR" ] && cp "/tmp/gpu-cuda-$tool.log" "$LOG_DIR/sanitizer-$tool-$(basename "$t").log"
      if [ $rc -eq 124 ]; then
        if [ "$tool" = memcheck ]; then
          failed+=("memcheck $(basename "$t"): timed out after ${SANITIZER_TIMEOUT}s")
        else
          echo "($tool timed out after ${SANITIZER_TIMEOUT}s: not counted as a failure)"
          missing+=("$tool $(basename "$t") (timeout)")
        fi
      elif [ $rc -ne 0 ]; then
        failed+=("$tool $(basename "$t") (exit $rc)")
      elif ! grep -q "ERROR SUMMARY: 0 errors" "/tmp/gpu-cuda-$tool.log"; then
        failed+=("$tool $(basename "$t"): no clean ERROR SUMMARY")
      fi
    done
  done
fi
fi

if stage cli; then
step "CLI: --backend cuda vs --backend cpu, byte for byte"
vk=$BUILD_DIR/src/cli/vksort
"$vk" run --backend cuda --type f32 --n 1M --repeat 3 || failed+=("vksort run --backend cuda")
work=$(mktemp -d)
for t in u32 i32 f32 u64 i64 f64; do
  in=$work/$t.keys
  "$vk" gen --type "$t" --n "$N" --dist bits --seed 7 --values "$work/$t.vals" "$in" || { failed+=("gen $t"); continue; }
  w=$([ "${t#?}" = 32 ] && echo 32 || echo 64)
  for opts in "" "--descending" "--bits 3:$((w - 5))" "--descending --bits 0:16"; do
    # shellcheck disable=SC2086
    for be in cpu cuda; do
      "$vk" sort --type "$t" $opts --backend "$be" --verify --values "$work/$t.vals" \
        --values-out "$work/$t.$be.vout" "$in" "$work/$t.$be.out" > "$work/$be.txt" 2>&1 ||
        { cat "$work/$be.txt"; failed+=("sort $t $opts --backend $be"); }
    done
    if cmp -s "$work/$t.cpu.out" "$work/$t.cuda.out" && cmp -s "$work/$t.cpu.vout" "$work/$t.cuda.vout"; then
      echo "ok   $t $opts: $(grep -h verified "$work/cuda.txt")"
    else
      echo "FAIL $t $opts: cuda output differs from cpu"
      failed+=("cli $t $opts")
    fi
    # keys only
    # shellcheck disable=SC2086
    if ! { "$vk" sort --type "$t" $opts --backend cpu "$in" "$work/k.cpu" >/dev/null 2>&1 &&
           "$vk" sort --type "$t" $opts --backend cuda "$in" "$work/k.cuda" >/dev/null 2>&1 &&
           cmp -s "$work/k.cpu" "$work/k.cuda"; }; then
      echo "FAIL $t $opts keys only"
      failed+=("cli keys-only $t $opts")
    fi
  done
done
rm -rf "$work"
fi

if stage bench; then
step "benchmark: CUB alone and the interop overhead (bench/cub_bench.h via ctypes)"
lib=$BUILD_DIR/cuda/libvksort_cub_bench.so
if [ ! -f "$lib" ]; then
  echo "not built ($lib missing: configure with VKSORT_BUILD_BENCH=ON)"; missing+=("cub_bench")
elif ! command -v python3 >/dev/null; then
  echo "python3 not found: the lead's GPU benchmark program runs these instead"; missing+=("cub_bench (no python3)")
else
  python3 - "$lib" <<'PY' || failed+=("cub_bench")
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.cub_bench_last_error.restype = ctypes.c_char_p
lib.cub_bench_kind_name.restype = ctypes.c_char_p
lib.cub_bench_time.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                               ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
class R(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char * 256), ("n", ctypes.c_size_t), ("frames", ctypes.c_int),
                ("frame_host_ms", ctypes.c_double), ("frame_host_vk_ms", ctypes.c_double),
                ("gap_ms", ctypes.c_double), ("gap_vk_ms", ctypes.c_double),
                ("sort_ms", ctypes.c_double), ("cub_alone_ms", ctypes.c_double),
                ("overhead_us", ctypes.c_double), ("handoff_us", ctypes.c_double)]
lib.cub_bench_interop.argtypes = [ctypes.c_size_t, ctypes.c_int, ctypes.POINTER(R)]
if lib.cub_bench_available() != 0:
    print("  error:", lib.cub_bench_last_error().decode())
    sys.exit(1)
ok = True
print("CUB DeviceRadixSort alone (DoubleBuffer, median of 50, ms):")
for kind in range(4):
    row = []
    for n in (1 << 10, 1 << 14, 1 << 16, 1 << 20, 1 << 22, 1 << 24):
        ms = ctypes.c_double()
        if lib.cub_bench_time(kind, n, 0, 0, 50, 0, ctypes.byref(ms)) != 0:
            print("  error:", lib.cub_bench_last_error().decode()); ok = False; break
        row.append("2^%d %.4f" % (n.bit_length() - 1, ms.value))
    print("  %-9s %s" % (lib.cub_bench_kind_name(kind).decode(), "  ".join(row)))
print("Vulkan keygen -> CUDA sort (f32 pairs) -> Vulkan consumer, median of 100 frames:")
for n in (1 << 10, 1 << 14, 1 << 16, 1 << 20, 1 << 22):
    r = R()
    if lib.cub_bench_interop(n, 100, ctypes.byref(r)) != 0:
        print("  error:", lib.cub_bench_last_error().decode()); ok = False; break
    print("  n=2^%-2d frame %.3f ms (vk only %.3f) | gap %.3f ms (vk only %.3f) | vksort sort %.3f"
          " | CUB alone %.3f | overhead %.1f us/frame (hand-offs %.1f us)" % (
          n.bit_length() - 1, r.frame_host_ms, r.frame_host_vk_ms, r.gap_ms, r.gap_vk_ms,
          r.sort_ms, r.cub_alone_ms, r.overhead_us, r.handoff_us))
    if n == 1 << 10:
        print("  device:", r.device.decode())
sys.exit(0 if ok else 1)
PY
fi
fi

step "summary"
status=0
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  status=1
fi
if [ ${#missing[@]} -gt 0 ]; then
  printf 'NOT RUN: %s\n' "${missing[@]}"
  [ $status -eq 0 ] && status=3
fi
[ $status -eq 0 ] && echo "gpu-cuda: all passed"
exit $status
