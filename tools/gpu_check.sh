#!/usr/bin/env bash
# tools/gpu_check.sh - one-shot check of devtensor on a machine with a GPU.
#
#   tools/gpu_check.sh [OUT_DIR]        (default: $OUT, else ./gpu_check_out)
#
# Steps, each under `timeout` and within one overall budget (GPU_CHECK_BUDGET
# seconds, default 540, so the whole run ends well under 10 minutes):
#   1. build devtensor in place for this GPU (DEVTENSOR_CUDA_ARCH, default 90; nvcc
#      from CUDA_HOME, PATH, /usr/local/cuda or the newest /usr/local/cuda-*);
#      GPU_CHECK_PREBUILT=DIR supplies prebuilt _C/_cuda .so files where no nvcc
#      can build them
#   1b. fail loudly unless _cuda imports and dt.cuda.is_available() (says why, and
#      when the driver is too old for the toolkit)
#   2. the test suite against real CUDA  (DEVTENSOR_TEST_DEVICES=cpu,cuda:0)
#   3. a subset covering every kernel family once more under compute-sanitizer
#      memcheck, with the caching allocator off (DEVTENSOR_CUDA_NO_CACHE=1)
#   4. bench/run.py --gpu (side by side with CuPy and PyTorch), if it exists; its
#      JSON is rewritten after every row, so a timeout keeps what was measured
# It writes OUT_DIR/{build,tests,sanitizer,bench}.log, tests.xml,
# sanitizer.xml, bench.json, nvidia-smi.txt and summary.json, and prints a
# short table last.  It installs nothing (the GPU machine has no network):
# python3, numpy, pytest (and, for the benchmarks, cupy and torch) must be
# there already; tests that need hypothesis skip without it.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
OUT_DIR="${1:-${OUT:-gpu_check_out}}"
mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"
rm -f "$OUT_DIR"/tests.xml "$OUT_DIR"/sanitizer.xml "$OUT_DIR"/bench.json  # no stale counts

PY="${PYTHON:-python3}"
BUDGET="${GPU_CHECK_BUDGET:-540}"
PYTEST_ARGS="${GPU_CHECK_PYTEST_ARGS:--q --maxfail=200}"
export DEVTENSOR_CUDA_ARCH="${DEVTENSOR_CUDA_ARCH:-90}"
export PYTHONDONTWRITEBYTECODE=1
START=$(date +%s)

# seconds left for a step: min(cap, what the budget leaves minus a reserve)
left() {
    local cap=$1 reserve=${2:-20} now remaining
    now=$(date +%s)
    remaining=$(( BUDGET - (now - START) - reserve ))
    (( remaining < cap )) && cap=$remaining
    (( cap < 1 )) && cap=1
    echo "$cap"
}

declare -A STATUS DURATION
step() {  # step NAME CAP_SECONDS LOGFILE CMD...
    local name=$1 cap=$2 log=$3 t0 rc limit
    shift 3
    limit=$(left "$cap")
    echo "== $name (limit ${limit}s) -> $log"
    t0=$(date +%s)
    timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
    rc=$?
    DURATION[$name]=$(( $(date +%s) - t0 ))
    if (( rc == 0 )); then STATUS[$name]=pass
    elif (( rc == 124 || rc == 137 )); then STATUS[$name]="timeout (${limit}s)"
    else STATUS[$name]="fail (exit $rc)"; fi
    tail -n 3 "$log" | sed 's/^/   /'
    return $rc
}

# ---- 0. the machine
{ command -v nvidia-smi >/dev/null && nvidia-smi || echo "nvidia-smi not found"; } >"$OUT_DIR/nvidia-smi.txt" 2>&1
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)

# ---- 1. build (in place, into src/devtensor; the suite imports it from there)
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
# nvcc: CUDA_HOME, PATH, /usr/local/cuda, else the newest /usr/local/cuda-*
if [[ -z "${CUDA_HOME:-}" ]] && ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
    for d in $(ls -d /usr/local/cuda-* 2>/dev/null | sort -V -r); do
        [[ -x "$d/bin/nvcc" ]] && { export CUDA_HOME="$d"; break; }
    done
fi
NVCC="$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")"
NVCC_VERSION=$("$NVCC" --version 2>/dev/null | grep -o 'release [0-9.]*' | head -n1)
BUILD_OK=0
step build 240 "$OUT_DIR/build.log" "$PY" setup.py build_ext --inplace --force -j 4 && BUILD_OK=1
# a build that could not make _cuda (no nvcc here, or it failed): fall back to a
# prebuilt sm_90 pair carried from the CPU machine (GPU_CHECK_PREBUILT, a folder
# holding _C*.so and _cuda*.so built from this same tree)
PREBUILT="${GPU_CHECK_PREBUILT:-}"
if ! ls src/devtensor/_cuda*.so >/dev/null 2>&1 && [[ -n "$PREBUILT" ]] && \
        ls "$PREBUILT"/_cuda*.so "$PREBUILT"/_C*.so >/dev/null 2>&1; then
    cp "$PREBUILT"/_C*.so "$PREBUILT"/_cuda*.so src/devtensor/ && BUILD_OK=1
    STATUS[build]="prebuilt from $PREBUILT"
fi

# ---- 1b. CUDA must really be there: fail loudly otherwise
CUDA_STATE=$(DRIVER="$DRIVER" "$PY" - 2>&1 <<'EOF'
import devtensor as dt
try:
    import devtensor._cuda  # noqa: F401
except ImportError as e:
    print(f"no _cuda extension: {e}")
    raise SystemExit(3)
if not dt.cuda.is_available():
    import os
    why, driver = dt.cuda.why_unavailable(), os.environ.get("DRIVER")
    hint = ""
    if "insufficient" in why:  # cudart says so both for no driver and for an old one
        hint = (f" -- driver {driver} is older than the CUDA runtime devtensor was built with "
                f"(the static CUDA 13 runtime needs a recent driver)") if driver else \
            " -- nvidia-smi finds no NVIDIA driver on this machine"
    print(f"CUDA unavailable: {why}{hint}")
    raise SystemExit(4)
# the CUDA libraries as their first use opens them (every symbol the backend asks for)
bad = {k: v for k, v in devtensor._cuda._libraries().items() if v}
print(f"{dt.cuda.device_count()} device(s), {dt.cuda.get_device_name(0)}; libraries: " +
      ("all loaded" if not bad else "; ".join(f"{k}: {v}" for k, v in bad.items())))
EOF
)
CUDA_RC=$?
echo "== cuda: $CUDA_STATE"
if (( BUILD_OK && CUDA_RC != 0 )); then
    STATUS[cuda]="FAIL: $CUDA_STATE"
else
    STATUS[cuda]="${CUDA_STATE:-not checked}"
fi
DURATION[cuda]=0

# ---- 2. the test suite on real CUDA
if (( BUILD_OK && CUDA_RC != 0 )); then
    STATUS[tests]="skipped (CUDA unavailable, see cuda)"; DURATION[tests]=0
elif (( BUILD_OK )); then
    # shellcheck disable=SC2086
    DEVTENSOR_TEST_DEVICES=cpu,cuda:0 step tests 200 "$OUT_DIR/tests.log" \
        "$PY" -m pytest $PYTEST_ARGS -p no:cacheprovider --junitxml="$OUT_DIR/tests.xml"
else
    STATUS[tests]="skipped (build failed)"; DURATION[tests]=0
fi

# ---- 3. compute-sanitizer memcheck, caching off
SANITIZER="$(command -v compute-sanitizer || true)"
for c in "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" \
         "${CUDA_HOME:-/usr/local/cuda}/compute-sanitizer/compute-sanitizer" \
         /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
    [[ -z "$SANITIZER" && -x "$c" ]] && SANITIZER="$c"
done
if (( BUILD_OK && CUDA_RC != 0 )); then
    STATUS[sanitizer]="skipped (CUDA unavailable)"; DURATION[sanitizer]=0
elif (( BUILD_OK )) && [[ -n "$SANITIZER" ]]; then
    # every kernel family once (elementwise contiguous and strided, casts,
    # generators, copies, streams), not the whole suite: instrumenting every
    # kernel would not fit; the deliberate out-of-memory tests' failed
    # cudaMalloc calls are API errors, not memory errors (--report-api-errors no)
    DEVTENSOR_TEST_DEVICES=cuda:0 DEVTENSOR_CUDA_NO_CACHE=1 step sanitizer 150 "$OUT_DIR/sanitizer.log" \
        "$SANITIZER" --tool memcheck --report-api-errors no --error-exitcode 99 --print-limit 50 \
        --target-processes all \
        "$PY" -m pytest -q -p no:cacheprovider --junitxml="$OUT_DIR/sanitizer.xml" \
        tests/test_cuda_api.py tests/test_movement.py tests/test_threads.py tests/test_random.py \
        tests/test_readonly.py tests/test_overlap.py
elif (( BUILD_OK )); then
    STATUS[sanitizer]="skipped (no compute-sanitizer)"; DURATION[sanitizer]=0
else
    STATUS[sanitizer]="skipped (build failed)"; DURATION[sanitizer]=0
fi

# ---- 4. benchmarks
if (( BUILD_OK )) && [[ -f bench/run.py ]]; then
    step bench 120 "$OUT_DIR/bench.log" "$PY" bench/run.py --gpu --json "$OUT_DIR/bench.json"
elif (( BUILD_OK )); then
    STATUS[bench]="skipped (no bench/run.py)"; DURATION[bench]=0
else
    STATUS[bench]="skipped (build failed)"; DURATION[bench]=0
fi

# ---- summary.json and the table
TOTAL=$(( $(date +%s) - START ))
export OUT_DIR GPU_NAME DRIVER TOTAL NVCC_VERSION
for s in build cuda tests sanitizer bench; do
    export "STATUS_$s=${STATUS[$s]:-not run}" "DURATION_$s=${DURATION[$s]:-0}"
done
"$PY" - <<'EOF'
import datetime, json, os, re, sys
import xml.etree.ElementTree as ET

out = os.environ["OUT_DIR"]

def junit(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return None
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return None
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    c = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for s in suites:
        for k in c:
            c[k] += int(s.get(k, 0))
    c["passed"] = c["tests"] - c["failures"] - c["errors"] - c["skipped"]
    return c

def sanitizer_errors():
    path = os.path.join(out, "sanitizer.log")
    if not os.path.exists(path):
        return None
    m = re.findall(r"ERROR SUMMARY: (\d+) error", open(path, errors="replace").read())
    return sum(int(x) for x in m) if m else None

def versions():
    v = {"python": sys.version.split()[0]}
    for mod in ("numpy", "cupy", "torch"):
        try:
            v[mod] = __import__(mod).__version__
        except Exception:
            v[mod] = None
    return v

steps = {}
for s in ("build", "cuda", "tests", "sanitizer", "bench"):
    steps[s] = {"status": os.environ.get(f"STATUS_{s}"), "seconds": int(os.environ.get(f"DURATION_{s}", 0))}
steps["tests"]["counts"] = junit("tests.xml")
steps["sanitizer"]["counts"] = junit("sanitizer.xml")
steps["sanitizer"]["memcheck_errors"] = sanitizer_errors()
summary = {
    "gpu": os.environ.get("GPU_NAME") or None,
    "driver": os.environ.get("DRIVER") or None,
    "nvcc": os.environ.get("NVCC_VERSION") or None,
    "cuda_arch": os.environ.get("DEVTENSOR_CUDA_ARCH"),
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "total_seconds": int(os.environ["TOTAL"]),
    "versions": versions(),
    "steps": steps,
    "bench_json": "bench.json" if os.path.exists(os.path.join(out, "bench.json")) else None,
}
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(summary, f, indent=2)

print()
print(f"devtensor GPU check: {summary['gpu'] or 'no GPU found'} (driver {summary['driver']}), "
      f"sm_{summary['cuda_arch']}, {summary['total_seconds']} s")
print(f"{'step':<10} {'status':<32} {'time':>6}  detail")
for s, info in steps.items():
    c = info.get("counts")
    detail = ""
    if c:
        detail = f"{c['passed']} passed, {c['failures'] + c['errors']} failed, {c['skipped']} skipped"
    if s == "sanitizer" and info.get("memcheck_errors") is not None:
        detail += f"; memcheck errors: {info['memcheck_errors']}"
    print(f"{s:<10} {info['status']:<32} {info['seconds']:>5}s  {detail}")
print(f"summary: {os.path.join(out, 'summary.json')}")
EOF
[[ ( "${STATUS[build]}" == pass || "${STATUS[build]}" == prebuilt* ) && "${STATUS[tests]}" == pass && \
   "${STATUS[cuda]}" != FAIL* ]]
