#!/usr/bin/env bash
# tools/gpu_check.sh - one-shot check of devtensor on a machine with a GPU.
#
#   tools/gpu_check.sh [OUT_DIR]        (default: $OUT, else ./gpu_check_out)
#
# Steps, each under `timeout` and within one overall budget (GPU_CHECK_BUDGET
# seconds, default 540, so the whole run ends well under 10 minutes):
#   0. wheels in .whl/ (tools/gpu_wheels.sh fetches them on a machine with
#      network: scipy-openblas64, which the build needs, and test extras) are
#      installed into a temporary folder put on PYTHONPATH
#   1. build devtensor in place for this GPU (DEVTENSOR_CUDA_ARCH, default 90; nvcc
#      from CUDA_HOME, PATH, /usr/local/cuda or the newest /usr/local/cuda-*),
#      without the CPU emulation of CUDA (not needed where CUDA is real);
#      GPU_CHECK_PREBUILT=DIR supplies prebuilt _C/_cuda .so files where no nvcc
#      can build them
#   1b. fail loudly unless _cuda imports and dt.cuda.is_available() (says why, and
#      when the driver is too old for the toolkit)
#   2. the test suite against real CUDA (DEVTENSOR_TEST_DEVICES=GPU_CHECK_TEST_DEVICES,
#      default cuda:0: CI runs the cpu), spread over the cores by pytest-xdist
#      where it is installed, one line per test in tests.log (the failing tests'
#      names survive a timeout) and a per-test limit where pytest-timeout is
#   3. compute-sanitizer memcheck, caching allocator off (DEVTENSOR_CUDA_NO_CACHE=1),
#      over test files that cover every kernel family, one file at a time (each
#      file's own ERROR SUMMARY; a timeout loses only the file it cut off)
#   4. bench/run.py --gpu (side by side with CuPy and PyTorch), if it exists; its
#      JSON is rewritten after every row, so a timeout keeps what was measured;
#      GPU_CHECK_BENCH_ARGS adds arguments (e.g. --quick)
# It writes OUT_DIR/summary.json (with the failing tests' names), bench.json,
# failures.txt and logs.tgz ({build,tests,sanitizer,bench}.log, tests.xml,
# sanitizer.xml, nvidia-smi.txt): four files, since the device tool brings
# back at most eight.  It prints a short table last.  It installs nothing from
# the network (the GPU machine has none): python3, numpy, pytest (and, for the
# benchmarks, cupy and torch) must be there; tests that need hypothesis skip
# without it.  A session's call (device tool):
#   run(command="tools/gpu_check.sh", carry=[".whl"], timeout_s=600)
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
OUT_DIR="${1:-${OUT:-gpu_check_out}}"
mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"
rm -f "$OUT_DIR"/tests.xml "$OUT_DIR"/sanitizer*.xml "$OUT_DIR"/bench.json "$OUT_DIR"/failures.txt  # no stale counts

PY="${PYTHON:-python3}"
BUDGET="${GPU_CHECK_BUDGET:-540}"
TEST_DEVICES="${GPU_CHECK_TEST_DEVICES:-cuda:0}"
# Note [The suite on a lent GPU]
# One line per test (-v: a timeout still leaves the failing tests' names in
# tests.log), workers on all but two cores where pytest-xdist is there (the
# suite on one core does not fit the budget), a per-test limit where
# pytest-timeout is, and a fixed hash seed so that every worker collects the
# same tests.
PYTEST_ARGS="${GPU_CHECK_PYTEST_ARGS:--v -rfE --maxfail=500}"
if "$PY" -c "import xdist" 2>/dev/null; then
    WORKERS=$(( $(nproc) - 2 )); (( WORKERS > 14 )) && WORKERS=14; (( WORKERS < 1 )) && WORKERS=1
    PYTEST_ARGS="$PYTEST_ARGS -n $WORKERS"
fi
"$PY" -c "import pytest_timeout" 2>/dev/null && PYTEST_ARGS="$PYTEST_ARGS --timeout=120"
export PYTHONHASHSEED=0
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

# ---- 0. the machine, and the wheels it lacks
if ls .whl/*.whl >/dev/null 2>&1; then
    SITE="$(mktemp -d)"
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$SITE" .whl/*.whl \
        >"$OUT_DIR/wheels.log" 2>&1 && export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
fi
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
DEVTENSOR_NO_EMULATION=1 step build 240 "$OUT_DIR/build.log" "$PY" setup.py build_ext --inplace --force -j 4 && \
    BUILD_OK=1
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
    DEVTENSOR_TEST_DEVICES="$TEST_DEVICES" step tests 240 "$OUT_DIR/tests.log" \
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
    # every kernel family (elementwise contiguous and strided, casts, generators,
    # copies, streams, reductions, scans, sorting, indexing, products, linear
    # algebra, FFT), one file at a time, most basic first, while time is left:
    # instrumenting the whole suite would not fit.  The deliberate
    # out-of-memory tests' failed cudaMalloc calls are API errors, not memory
    # errors (--report-api-errors no)
    san_files=(test_cuda_api test_movement test_threads test_random test_readonly test_overlap
               test_reductions test_sorting test_advanced_index test_products test_linalg test_fft
               test_searching test_sets test_ufunc_methods test_index_functions)
    : >"$OUT_DIR/sanitizer.log"
    t0=$(date +%s); SAN_RC=0; SAN_DONE=0
    for f in "${san_files[@]}"; do
        room=$(( 150 - ($(date +%s) - t0) )); limit=$(left "$room")
        (( room < 10 || limit < 10 )) && break
        echo "## tests/$f.py" >>"$OUT_DIR/sanitizer.log"
        DEVTENSOR_TEST_DEVICES=cuda:0 DEVTENSOR_CUDA_NO_CACHE=1 timeout --kill-after=10 "$limit" \
            "$SANITIZER" --tool memcheck --report-api-errors no --error-exitcode 99 --print-limit 50 \
            --target-processes all \
            "$PY" -m pytest -q -p no:cacheprovider --junitxml="$OUT_DIR/sanitizer_$f.xml" "tests/$f.py" \
            >>"$OUT_DIR/sanitizer.log" 2>&1
        rc=$?
        (( rc == 124 || rc == 137 )) && { SAN_RC=$rc; echo "## timeout in tests/$f.py" >>"$OUT_DIR/sanitizer.log"; break; }
        (( rc != 0 )) && SAN_RC=$rc
        SAN_DONE=$(( SAN_DONE + 1 ))
    done
    DURATION[sanitizer]=$(( $(date +%s) - t0 ))
    if (( SAN_RC == 0 )); then STATUS[sanitizer]="pass ($SAN_DONE/${#san_files[@]} files)"
    elif (( SAN_RC == 124 || SAN_RC == 137 )); then STATUS[sanitizer]="timeout ($SAN_DONE/${#san_files[@]} files done)"
    else STATUS[sanitizer]="fail (exit $SAN_RC; $SAN_DONE/${#san_files[@]} files)"; fi
    tail -n 3 "$OUT_DIR/sanitizer.log" | sed 's/^/   /'
elif (( BUILD_OK )); then
    STATUS[sanitizer]="skipped (no compute-sanitizer)"; DURATION[sanitizer]=0
else
    STATUS[sanitizer]="skipped (build failed)"; DURATION[sanitizer]=0
fi

# ---- 4. benchmarks
if (( BUILD_OK )) && [[ -f bench/run.py ]]; then
    # shellcheck disable=SC2086
    step bench 120 "$OUT_DIR/bench.log" "$PY" bench/run.py --gpu ${GPU_CHECK_BENCH_ARGS:-} \
        --json "$OUT_DIR/bench.json"
    # the sort's own radix passes (the emulation's reference, Note [CUB's
    # radix sort] in csrc/cuda/cuda_sort.cu) checked and timed beside CUB's
    (( CUDA_RC == 0 )) && DEVTENSOR_CUDA_OWN_SORT=1 timeout 60 "$PY" - >>"$OUT_DIR/bench.log" 2>&1 <<'PYEOF'
import time
import numpy as np
import devtensor as dt
a = np.random.default_rng(0).random(1 << 26, dtype=np.float32)
x = dt.asarray(a, device="cuda:0")
same = bool((dt.sort(x).cpu().numpy() == np.sort(a)).all())
best = float("inf")
for _ in range(3):
    dt.cuda.synchronize()
    t0 = time.perf_counter()
    dt.sort(x)
    dt.cuda.synchronize()
    best = min(best, time.perf_counter() - t0)
print(f"DEVTENSOR_CUDA_OWN_SORT=1: sort of 2^26 float32 {best * 1e3:.2f} ms, equal to NumPy's: {same}")
PYEOF
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
import datetime, glob, json, os, re, sys
import xml.etree.ElementTree as ET

out = os.environ["OUT_DIR"]

def junit(pattern):
    c = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    found = False
    for path in sorted(glob.glob(os.path.join(out, pattern))):
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        found = True
        suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
        for s in suites:
            for k in c:
                c[k] += int(s.get(k, 0))
    if not found:
        return None
    c["passed"] = c["tests"] - c["failures"] - c["errors"] - c["skipped"]
    return c

WORD = {"PASSED": "passed", "XPASS": "passed", "FAILED": "failures", "ERROR": "errors",
        "SKIPPED": "skipped", "XFAIL": "skipped"}

def verbose_log(name):
    """Counts and failing tests from pytest -v lines ("[gw3] [  5%] PASSED
    tests/x.py::t" under xdist, "tests/x.py::t PASSED" without): what a
    timeout leaves behind."""
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return None, []
    counts, failed = {"passed": 0, "failures": 0, "errors": 0, "skipped": 0}, []
    for line in open(path, errors="replace"):
        m = re.match(r"(?:\[gw\d+\] \[ *\d+%\] )?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (tests/.*\S)", line)
        if m:
            status, test = m.groups()
        else:
            m = re.match(r"(tests/.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b", line)
            if not m:
                continue
            test, status = m.groups()
        counts[WORD[status]] += 1
        if status in ("FAILED", "ERROR"):
            failed.append(test)
    counts["tests"] = sum(counts.values())
    return (counts if counts["tests"] else None), sorted(set(failed))

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
log_counts, failed = verbose_log("tests.log")
steps["tests"]["counts"] = junit("tests.xml") or log_counts
steps["tests"]["failed"] = failed[:500]
with open(os.path.join(out, "failures.txt"), "w") as f:
    f.write("".join(t + "\n" for t in failed))
steps["sanitizer"]["counts"] = junit("sanitizer*.xml")
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
# the logs in one archive: the device tool brings back at most eight files
( cd "$OUT_DIR" && shopt -s nullglob && logs=(*.log *.xml nvidia-smi.txt) && \
  tar czf logs.tgz "${logs[@]}" && rm -f "${logs[@]}" )
[[ ( "${STATUS[build]}" == pass || "${STATUS[build]}" == prebuilt* ) && "${STATUS[tests]}" == pass && \
   "${STATUS[cuda]}" != FAIL* ]]
