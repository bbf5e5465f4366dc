"""Side-by-side benchmarks: devtensor against NumPy on the CPU and against
CuPy and PyTorch on a GPU, measured in one run and reported as ratios.

    python bench/run.py --cpu --quick            # the CPU table (~1 minute on 2 cores)
    python bench/run.py --gpu --json bench/results/gpu.json

Every number is a median of repeated timings after warm-ups (perf_counter;
on a GPU the device is synchronized before each clock read).  The ratio is
reference time / devtensor time, so > 1 means devtensor is faster; for
bandwidth rows it is devtensor's bandwidth / the reference's.  Nothing here
asserts: benchmarks report, tests decide (DESIGN.md, section 5).

Competitors are used only where importable (CuPy and PyTorch are not needed
on a CPU-only machine).  Timings on a shared or busy machine are noisy: read
ratios from one run, not across runs.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # run from a source checkout

import numpy as np  # noqa: E402

import devtensor as dt  # noqa: E402

MiB = 1 << 20
GiB = 1 << 30


# ---- thread count ----

def _thread_api():
    s = getattr(dt, "set_num_threads", None) or getattr(dt._C, "_set_num_threads", None)
    g = getattr(dt, "get_num_threads", None) or getattr(dt._C, "_get_num_threads", None)
    return s, g


def cpus_available():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


# ---- timing ----

def median_time(fn, reps, warmup=2, inner=1, sync=None):
    """Median seconds per call of fn over `reps` samples of `inner` calls."""
    for _ in range(warmup):
        fn()
    if sync:
        sync()
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        if sync:
            sync()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)


def paired_times(fa, fb, reps, warmup=2, inner=1, sync_a=None, sync_b=None):
    """Median times of fa and fb, sampled alternately so drift hits both."""
    for _ in range(warmup):
        fa()
        fb()
    if sync_a:
        sync_a()
    if sync_b:
        sync_b()
    ta, tb = [], []
    for _ in range(reps):
        for f, s, out in ((fa, sync_a, ta), (fb, sync_b, tb)):
            t0 = time.perf_counter()
            for _ in range(inner):
                f()
            if s:
                s()
            out.append((time.perf_counter() - t0) / inner)
    return statistics.median(ta), statistics.median(tb)


# ---- results ----

class Table:
    """The rows measured so far; on_row(rows) runs after each one (main writes the
    JSON then, so a run cut short by a time limit keeps what it measured)."""

    def __init__(self, on_row=None):
        self.rows = []
        self.on_row = on_row

    def add(self, section, case, threads, dt_s, ref_name, ref_s, note="", kind="time"):
        """kind 'time': seconds, ratio = ref/dt; throughputs ('GB/s', 'TFLOP/s'): ratio = dt/ref."""
        if dt_s is None or ref_s is None or dt_s <= 0 or ref_s <= 0:
            ratio = None
        else:
            ratio = ref_s / dt_s if kind == "time" else dt_s / ref_s  # a throughput
        row = dict(section=section, case=case, threads=threads, devtensor=dt_s,
                   reference=ref_name, reference_value=ref_s, ratio=ratio, unit=kind, note=note)
        self.rows.append(row)
        print(format_row(row), flush=True)
        if self.on_row is not None:
            self.on_row(self.rows)
        return row


def fmt_value(v, unit):
    if v is None:
        return "-"
    if unit != "time":  # a throughput: GB/s, TFLOP/s
        return f"{v:8.1f} {unit}"
    if v < 1e-6:
        return f"{v * 1e9:8.1f} ns"
    if v < 1e-3:
        return f"{v * 1e6:8.2f} us"
    if v < 1:
        return f"{v * 1e3:8.2f} ms"
    return f"{v:8.3f} s "


HEADER = f"{'case':<38} {'thr':>4} {'devtensor':>13} {'reference':>22} {'ratio':>7}  note"


def format_row(r):
    ref = f"{r['reference']} {fmt_value(r['reference_value'], r['unit'])}"
    ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}"
    return (f"{r['case']:<38} {str(r['threads']):>4} {fmt_value(r['devtensor'], r['unit']):>13} "
            f"{ref:>22} {ratio:>7}  {r['note']}")


def machine_info():
    info = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu_model": platform.processor() or None,
        "cpus_available": cpus_available(),
        "cpu_count": os.cpu_count(),
        "numpy": np.__version__,
        "devtensor": getattr(dt, "__version__", None),
        "env": {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
                                           "OMP_NUM_THREADS", "DEVTENSOR_NUM_THREADS")
                if k in os.environ},
    }
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        info["loadavg_at_start"] = list(os.getloadavg())
    except OSError:  # pragma: no cover
        pass
    _, get = _thread_api()
    if get is not None:
        info["devtensor_default_threads"] = get()
    return info


# ---- CPU ----

def _check(a, b, exact):
    """'' if devtensor's answer matches NumPy's, else a note for the table.
    Transcendental functions may differ from NumPy's SIMD versions in the last
    bits, so they are compared to within a few ulp.  `exact` may instead be a
    function of the two answers that writes the note itself."""
    if callable(exact):
        return exact(a, b)
    try:
        a, b = np.asarray(a), np.asarray(b)
        if np.array_equal(a, b, equal_nan=True):
            return ""
        if not exact and np.allclose(a, b, rtol=4 * np.finfo(b.dtype).eps, atol=0,
                                     equal_nan=True):
            return "within 4 ulp of NumPy"
    except Exception as e:
        return f"check failed: {type(e).__name__}"
    return "MISMATCH vs NumPy"


def bench_cpu(table, quick):
    set_threads, get_threads = _thread_api()
    default = get_threads() if get_threads else None
    allt = cpus_available()
    settings = [1, allt] if set_threads else [None]
    if set_threads and allt == 1:
        settings = [1]
    reps = 7 if quick else 21
    n = 10 ** 7
    rng = np.random.default_rng(0)
    print(f"\n== CPU: devtensor vs NumPy {np.__version__} ({allt} CPUs available) ==")
    print(HEADER)

    cases = []
    for dtype in ("float32", "float64"):
        a, b, c = (rng.random(n).astype(dtype) for _ in range(3))
        x, y, z = (dt.asarray(v) for v in (a, b, c))
        cases.append((f"a + b  10^7 {dtype}", lambda x=x, y=y: x + y, lambda a=a, b=b: a + b,
                      True))
        cases.append((f"a * b + c  10^7 {dtype}", lambda x=x, y=y, z=z: x * y + z,
                      lambda a=a, b=b, c=c: a * b + c, True))
    # complex arithmetic (the book's Mandelbrot: z * z + c, abs(z) < 2), 10^6
    for dtype in ("complex64", "complex128"):
        zc, wc = ((rng.random(10 ** 6) + 1j * rng.random(10 ** 6)).astype(dtype) for _ in range(2))
        tzc, twc = dt.asarray(zc), dt.asarray(wc)
        # NumPy's SIMD complex product fuses a multiply-add: re^2 - im^2 differs in its last bits
        cases.append((f"z * z + c  10^6 {dtype}", lambda x=tzc, y=twc: x * x + y, lambda a=zc, b=wc: a * a + b,
                      lambda got, ref: _near_numpy(got, ref, 8)))
        cases.append((f"abs(z)  10^6 {dtype}", lambda x=tzc: dt.abs(x), lambda a=zc: np.abs(a), False))
    a = rng.random(n)
    x = dt.asarray(a)
    cond_np = a > 0.5
    cond = x > 0.5
    for name in ("exp", "sin"):
        if hasattr(dt, name):
            f, g = getattr(dt, name), getattr(np, name)
            cases.append((f"{name}(a)  10^7 float64", lambda f=f: f(x), lambda g=g: g(a), False))
    if hasattr(dt, "where"):
        cases.append(("where(c, a, b)  10^7 float64", lambda: dt.where(cond, x, 0.0 - x),
                      lambda: np.where(cond_np, a, 0.0 - a), True))
    # the MIN/MAX scans (running maximum: drawdowns) and the popcount op
    cases.append(("maximum.accumulate(a)  10^7 float64", lambda: dt.maximum.accumulate(x),
                  lambda: np.maximum.accumulate(a), True))
    ints = rng.integers(-2 ** 62, 2 ** 62, n)
    tints = dt.asarray(ints)
    cases.append(("bitwise_count(a)  10^7 int64", lambda: dt.bitwise_count(tints), lambda: np.bitwise_count(ints),
                  True))
    ft = a.reshape(4000, 2500).T  # Note [Results in the inputs' order]: F-ordered operands
    xt = x.reshape(4000, 2500).T
    cases.append(("a.T + 1  2500x4000 float64 (F order)", lambda: xt + 1, lambda: ft + 1, True))
    cases.append(("exp(a.T)  2500x4000 float64 (F order)", lambda: dt.exp(xt), lambda: np.exp(ft), False))
    cases += reduction_cases(rng)
    if hasattr(dt.random, "default_rng"):  # Note [Philox in blocks]: other streams than NumPy's, by design
        g_dt, g_np = dt.random.default_rng(0), np.random.default_rng(0)
        other = lambda got, ref: "another stream than NumPy's (by design)"  # noqa: E731
        cases += [
            ("rng.random(10^7) float64", lambda: g_dt.random(n), lambda: g_np.random(n), other),
            ("rng.random(10^7) float32", lambda: g_dt.random(n, dtype=dt.float32),
             lambda: g_np.random(n, dtype=np.float32), other),
            ("rng.integers(0, 100, 10^7)", lambda: g_dt.integers(0, 100, n), lambda: g_np.integers(0, 100, n), other),
            ("rng.standard_normal(10^7)", lambda: g_dt.standard_normal(n), lambda: g_np.standard_normal(n), other),
        ]

    try:
        for threads in settings:
            if threads is not None:
                set_threads(threads)
            for name, fdt, fnp, exact in cases:
                note = _check(fdt(), fnp(), exact)
                tdt, tnp = paired_times(fdt, fnp, reps)
                table.add("cpu", name, threads or "dflt", tdt, "numpy", tnp, note)
            bench_products_cpu(table, rng, quick, threads or "dflt")
        # the per-call path: thread count plays no part below the split threshold
        for dtype in ("float64", "float32"):
            a16 = rng.random(16).astype(dtype)
            b16 = rng.random(16).astype(dtype)
            x16, y16 = dt.asarray(a16), dt.asarray(b16)
            inner = 200 if quick else 1000
            tdt, tnp = paired_times(lambda: x16 + y16, lambda: a16 + b16, 15 if quick else 41,
                                    warmup=3, inner=inner)
            table.add("cpu", f"a + b  16 {dtype} (per call)", "-", tdt, "numpy", tnp,
                      "target: devtensor <= 1.5x NumPy (ratio >= 0.67)")
        bench_per_call(table, rng, quick)
        bench_indexing_cpu(table, rng, quick)
        bench_nn(table, "cpu", 15 if quick else 41, None, _try_import("torch"), None, quick=quick)
    finally:
        if set_threads and default:
            set_threads(default)


def _near_numpy(got, ref, eps_times=50):
    """A _check function for products: BLAS sums in its own order, so the
    answer is compared to NumPy's within a float tolerance (eps_times
    machine epsilons, relative to the largest element) and the largest
    relative difference is reported."""
    got, ref = np.asarray(got), np.asarray(ref)
    diff = float(np.max(np.abs(got - ref)) / max(float(np.max(np.abs(ref))), 1e-300))
    ok = diff <= eps_times * np.finfo(ref.dtype).eps
    return f"max rel. diff {diff:.1e} vs NumPy" if ok else f"MISMATCH vs NumPy ({diff:.1e})"


def product_cases(rng):
    """Issue 11's CPU rows (name, devtensor, NumPy, check)."""
    if not hasattr(dt, "matmul"):
        return []
    cases = []
    for dtype in ("float32", "float64"):
        a, b = (rng.random((1000, 1000)).astype(dtype) for _ in range(2))
        x, y = dt.asarray(a), dt.asarray(b)
        cases.append((f"matmul 1000x1000 {dtype}", lambda x=x, y=y: x @ y, lambda a=a, b=b: a @ b,
                      _near_numpy))
    a, b = rng.random((100, 100)), rng.random((100, 100))
    x, y = dt.asarray(a), dt.asarray(b)

    def thousand(m, p):
        for _ in range(1000):
            r = m @ p
        return r
    cases.append(("1000 products 100x100 float64 (D2L ex. 3)", lambda x=x, y=y: thousand(x, y),
                  lambda a=a, b=b: thousand(a, b), _near_numpy))
    a, b = rng.random((10 ** 4, 8, 8)), rng.random((10 ** 4, 8, 8))
    x, y = dt.asarray(a), dt.asarray(b)
    cases.append(("matmul 10^4 x (8x8) float64, batched", lambda x=x, y=y: x @ y, lambda a=a, b=b: a @ b,
                  _near_numpy))
    if hasattr(dt, "einsum"):
        for spec, sa, sb in (("ij,jk->ik", (500, 400), (400, 300)),
                             ("bij,bjk->bik", (64, 50, 40), (64, 40, 30))):
            a, b = rng.random(sa), rng.random(sb)
            x, y = dt.asarray(a), dt.asarray(b)
            shape = "x".join(map(str, sa)) + "x" + str(sb[-1])
            cases.append((f"einsum('{spec}') {shape}",
                          lambda x=x, y=y, spec=spec: dt.einsum(spec, x, y, optimize=True),
                          lambda a=a, b=b, spec=spec: np.einsum(spec, a, b, optimize=True), _near_numpy))
    if hasattr(dt, "fft"):
        a = rng.random(1 << 20) + 1j * rng.random(1 << 20)
        x = dt.asarray(a)
        cases.append(("fft 2^20 complex128", lambda x=x: dt.fft.fft(x), lambda a=a: np.fft.fft(a),
                      _near_numpy))
    if hasattr(dt, "linalg"):
        a = rng.random((500, 500)) + 500 * np.eye(500)
        sym = a + a.T
        x, xs = dt.asarray(a), dt.asarray(sym)
        rhs = rng.random(500)
        y = dt.asarray(rhs)
        cases += [
            ("linalg.solve 500x500 float64", lambda x=x, y=y: dt.linalg.solve(x, y),
             lambda a=a, rhs=rhs: np.linalg.solve(a, rhs), _near_numpy),
            ("linalg.inv 500x500 float64", lambda x=x: dt.linalg.inv(x), lambda a=a: np.linalg.inv(a),
             _near_numpy),
            ("linalg.svd 500x500 float64 (values)", lambda x=x: dt.linalg.svdvals(x),
             lambda a=a: np.linalg.svd(a, compute_uv=False), _near_numpy),
            ("linalg.svd 500x500 float64 (U, S, Vh)", lambda x=x: dt.linalg.svd(x)[1],
             lambda a=a: np.linalg.svd(a)[1], _near_numpy),
            ("linalg.eigh 500x500 float64", lambda xs=xs: dt.linalg.eigh(xs)[0],
             lambda sym=sym: np.linalg.eigh(sym)[0], _near_numpy),
            ("linalg.eigvals 200x200 float64", lambda x=x: dt.linalg.eigvals(x[:200, :200]),
             lambda a=a: np.linalg.eigvals(a[:200, :200]),
             # a general matrix's eigenvalues move by their condition number times
             # the rounding: NumPy's OpenBLAS and scipy-openblas64 differ by ~1e-14
             # (45 epsilons) on this matrix, so the check allows 1000
             lambda got, ref: _near_numpy(np.sort_complex(np.asarray(got)), np.sort_complex(ref), 1000)),
        ]
    return cases


def _numpy_blas_threads(n):
    """Set the thread count of NumPy's own OpenBLAS (the copy in numpy.libs),
    so that a row's "threads" holds for both sides; returns whether it could."""
    import ctypes
    import glob
    libs = glob.glob(os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs",
                                  "libscipy_openblas*.so*"))
    for path in libs:
        lib = ctypes.CDLL(path)  # already loaded by NumPy: the same handle
        for name in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads"):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn(ctypes.c_int(n))
                return True
    return False


_POOL_SLEEP_S = 0.3  # longer than OpenBLAS's spin before its threads sleep
_MIN_SAMPLE_S = 0.005  # a timing sample of the products lasts at least this long


def bench_products_cpu(table, rng, quick, threads):
    """Matrix products, each side timed on its own.

    Note [Two OpenBLAS pools]: NumPy's OpenBLAS and devtensor's are two
    copies of the library with a thread pool each, whose threads spin for
    about 0.1 s after a call before they sleep. Alternating the two calls
    would make each wait for the other's spinning threads, a cost neither
    pays in a program that uses one; so would timing one side right after
    the other ran (on 2 cores, inv 500x500 measured 0.49x NumPy that way
    and 1.0x alone). Each side is timed in a block of its own, after a
    pause that lets the other pool's threads go to sleep."""
    reps = 5 if quick else 15
    matched = _numpy_blas_threads(threads if isinstance(threads, int) else cpus_available())
    for name, fdt, fnp, check in product_cases(rng):
        note = _check(fdt(), fnp(), check)
        t0 = time.perf_counter()
        fnp()
        inner = max(1, int(_MIN_SAMPLE_S / (time.perf_counter() - t0)))  # short calls: many per sample
        time.sleep(_POOL_SLEEP_S)
        tdt = median_time(fdt, reps, inner=inner)
        time.sleep(_POOL_SLEEP_S)
        tnp = median_time(fnp, reps, inner=inner)
        if not matched:
            note += "; NumPy's BLAS threads not matched"
        table.add("cpu", name, threads, tdt, "numpy", tnp, note)
    _numpy_blas_threads(cpus_available())


def bench_per_call(table, rng, quick):
    """The per-call cost of the calls every program makes, on 16 float64
    elements (issue 9's table), against NumPy's same call; .to() and .cpu()
    returning the tensor itself have no NumPy counterpart (target 100 ns)."""
    import operator
    a = rng.random(16)
    x = dt.asarray(a)
    m_np, positions = rng.random((50, 50)), np.arange(10)
    m, i0, j0, i0_np, j0_np = dt.asarray(m_np.copy()), dt.arange(10)[2], dt.arange(10)[3], positions[2], positions[3]
    cases = [
        ("t[3]", lambda: x[3], lambda: a[3]),
        ("t[1:5]", lambda: x[1:5], lambda: a[1:5]),
        ("t[1] = 2", lambda: operator.setitem(x, 1, 2.0), lambda: operator.setitem(a, 1, 2.0)),
        ("m[i, j]  (i, j 0-d int64 tensors)", lambda: m[i0, j0], lambda: m_np[i0_np, j0_np]),
        ("m[i, j] += 1.0  (0-d keys)", lambda: m.__setitem__((i0, j0), m[i0, j0] + 1.0),
         lambda: m_np.__setitem__((i0_np, j0_np), m_np[i0_np, j0_np] + 1.0)),
        ("float(t[0])", lambda: float(x[0]), lambda: float(a[0])),
        ("t.reshape(4, 4)", lambda: x.reshape(4, 4), lambda: a.reshape(4, 4)),
        ("asarray(ndarray)", lambda: dt.asarray(a), lambda: np.asarray(a)),
        ("exp(t)", lambda: dt.exp(x), lambda: np.exp(a)),
        ("t + 1.0", lambda: x + 1.0, lambda: a + 1.0),
        ("tensor([1., 2., 3.])", lambda: dt.tensor([1.0, 2.0, 3.0]), lambda: np.array([1.0, 2.0, 3.0])),
    ]
    if hasattr(dt, "sum"):  # issue 10's per-call row
        cases.append(("t.sum()", lambda: x.sum(), lambda: a.sum()))
    small_ops = [  # issue 10's other small operations: no target in the issue
        ("t.mean()", lambda: x.mean(), lambda: a.mean()),
        ("t.argmax()", lambda: x.argmax(), lambda: a.argmax()),
        ("t.cumsum()", lambda: x.cumsum(), lambda: a.cumsum()),
        ("t.exp()  (PyTorch's method form)", lambda: x.exp(), lambda: np.exp(a)),
        ("t.sum(dim=0, keepdim=True)  (PyTorch's keywords)", lambda: x.sum(dim=0, keepdim=True),
         lambda: a.sum(axis=0, keepdims=True)),
        ("t.std(dim=0)  (PyTorch's keywords: n - 1)", lambda: x.std(dim=0), lambda: a.std(axis=0, ddof=1)),
        ("searchsorted(t, 0.5)", lambda: dt.searchsorted(x, 0.5), lambda: np.searchsorted(a, 0.5)),
    ] if hasattr(dt, "searchsorted") else []
    if hasattr(dt, "interp"):  # issue 14's additions: no target in the issue
        xp_np, fp_np = np.linspace(0, 1, 8), np.arange(8.0)
        xp, fp, flat = dt.asarray(xp_np), dt.asarray(fp_np), dt.asarray([1, 5, 7])
        small_ops += [
            ("t ** 2", lambda: x ** 2, lambda: a ** 2),
            ("interp(t, xp, fp)  (8 points)", lambda: dt.interp(x, xp, fp), lambda: np.interp(a, xp_np, fp_np)),
            ("unravel_index(3 int64, (4, 4))", lambda: dt.unravel_index(flat, (4, 4)),
             lambda: np.unravel_index([1, 5, 7], (4, 4))),
            # the common forms of tests/test_common_forms.py
            ("unravel_index(7, (4, 4))", lambda: dt.unravel_index(7, (4, 4)),
             lambda: np.unravel_index(7, (4, 4))),
            ("outer(t, t)", lambda: dt.outer(x, x), lambda: np.outer(a, a)),
            ("repeat(t, 2)", lambda: dt.repeat(x, 2), lambda: np.repeat(a, 2)),
            # ufuncs of Python numbers only (a 0-d tensor comes back; NumPy's a scalar)
            ("sqrt(2.0)  (a Python float)", lambda: dt.sqrt(2.0), lambda: np.sqrt(2.0)),
            ("maximum(1.0, 2.0)  (Python floats)", lambda: dt.maximum(1.0, 2.0), lambda: np.maximum(1.0, 2.0)),
            ("t[range(2)]", lambda: x[range(2)], lambda: a[range(2)]),
            ("zeros(size=(4, 4))  (PyTorch's keyword)", lambda: dt.zeros(size=(4, 4)), lambda: np.zeros((4, 4))),
            # Note [A size that can be called]: an int subclass, kept by shape
            ("t.size", lambda: x.size, lambda: a.size),
            ("t.size(0)  (PyTorch's call) vs a.shape[0]", lambda: x.size(0), lambda: a.shape[0]),
            ("erfinv(t)  (PyTorch's; NumPy: none) vs sqrt", lambda: dt.erfinv(x * 0.5), lambda: np.sqrt(a * 0.5)),
            ("t.relu_()  (PyTorch's in-place) vs maximum(a, 0, out=a)", lambda: x.relu_(),
             lambda: np.maximum(a, 0, out=a)),
            ("array([1., 2., 3.])", lambda: dt.array([1.0, 2.0, 3.0]), lambda: np.array([1.0, 2.0, 3.0])),
            # Note [Conversions in C]: the first line of most library functions
            ("asarray(ndarray, dtype=float)", lambda: dt.asarray(a, dtype=float),
             lambda: np.asarray(a, dtype=float)),
            ("asarray([1., 2., 3.])", lambda: dt.asarray([1.0, 2.0, 3.0]), lambda: np.asarray([1.0, 2.0, 3.0])),
            ("array(ndarray)", lambda: dt.array(a), lambda: np.array(a)),
            ("arange(10.)", lambda: dt.arange(10.0), lambda: np.arange(10.0)),
            ("t.astype(float)", lambda: x.astype(float), lambda: a.astype(float)),
            ("float64(1.5)", lambda: dt.float64(1.5), lambda: np.float64(1.5)),
            ("issubdtype(t.dtype, floating)", lambda: dt.issubdtype(x.dtype, dt.floating),
             lambda: np.issubdtype(a.dtype, np.floating)),
            ("hstack([t, t])", lambda: dt.hstack([x, x]), lambda: np.hstack([a, a])),
            ("count_nonzero(t)", lambda: dt.count_nonzero(x), lambda: np.count_nonzero(a)),
            ("nonzero(t)", lambda: dt.nonzero(x), lambda: np.nonzero(a)),
        ]
    if hasattr(dt, "bitwise_count"):
        ints, ints_np = dt.arange(16), np.arange(16)
        small_ops += [("bitwise_count(16 int64)", lambda: dt.bitwise_count(ints), lambda: np.bitwise_count(ints_np))]
    if hasattr(dt, "addmm"):  # PyTorch's functions beside the NumPy expressions they stand for
        m16_np, c16_np = rng.random((16, 16)), rng.random((16, 16))
        m16, c16 = dt.asarray(m16_np), dt.asarray(c16_np)
        p6_np, q5_np = rng.random((6, 3)), rng.random((5, 3))
        p6, q5 = dt.asarray(p6_np), dt.asarray(q5_np)
        small_ops += [
            ("addmm(C, A, B)  (16x16, PyTorch's)", lambda: dt.addmm(c16, m16, m16), lambda: c16_np + m16_np @ m16_np),
            ("cdist(6x3, 5x3)  (PyTorch's)", lambda: dt.cdist(p6, q5),
             lambda: np.sqrt(((p6_np[:, None] - q5_np[None]) ** 2).sum(-1))),
            ("layer_norm(16x16, (16,))  (PyTorch's)", lambda: dt.nn.functional.layer_norm(m16, (16,)),
             lambda: (m16_np - m16_np.mean(-1, keepdims=True)) / np.sqrt(m16_np.var(-1, keepdims=True) + 1e-5)),
        ]
    if hasattr(dt, "median"):  # PyTorch's dim= forms beside NumPy's
        small_ops += [("median(t, dim=0)  (PyTorch's (values, indices))", lambda: dt.median(x, dim=0),
                       lambda: (np.partition(a, 7)[7], np.argpartition(a, 7)[7]))]
    if hasattr(dt, "frexp"):  # NumPy's names moved onto devices (2026-12-04): no target
        mask16, mask16_np, table3 = x > 0.5, a > 0.5, dt.asarray([0.25, 0.5, 0.75])
        small_ops += [
            ("ldexp(t, 3)", lambda: dt.ldexp(x, 3), lambda: np.ldexp(a, 3)),
            ("frexp(t)", lambda: dt.frexp(x), lambda: np.frexp(a)),
            ("isin(t, 3 values)", lambda: dt.isin(x, table3), lambda: np.isin(a, [0.25, 0.5, 0.75])),
            ("mask != 0", lambda: mask16 != 0, lambda: mask16_np != 0),
            ("0.5 in t", lambda: 0.5 in x, lambda: 0.5 in a),
        ]
    cases += [
        ("sort(t)", lambda: dt.sort(x), lambda: np.sort(a)),
        ("argsort(t, stable)", lambda: dt.argsort(x, stable=True), lambda: np.argsort(a, kind="stable")),
        ("unique(t)", lambda: dt.unique(x), lambda: np.unique(a)),
        ("median(t)", lambda: dt.median(x), lambda: np.median(a)),
    ] if hasattr(dt, "median") else []
    reps, inner = (15, 200) if quick else (41, 1000)
    for name, fdt, fnp in cases:
        tdt, tnp = paired_times(fdt, fnp, reps, warmup=3, inner=inner)
        table.add("cpu", f"{name}  16 float64 (per call)", "-", tdt, "numpy", tnp,
                  "target: devtensor <= 1.5x NumPy (ratio >= 0.67)")
    idx_np, mask_np = np.array([1, 3, 5]), a > 0.5
    idx, mask = dt.asarray(idx_np), dt.asarray(mask_np)
    advanced = [  # Note [Small advanced keys on the CPU]: no target in issue 9's table
        ("t[idx]  (3 int64)", lambda: x[idx], lambda: a[idx_np]),
        ("t[mask]", lambda: x[mask], lambda: a[mask_np]),
        ("t[idx] = 1.0  (3 int64)", lambda: operator.setitem(x, idx, 1.0),
         lambda: operator.setitem(a, idx_np, 1.0)),
    ]
    for name, fdt, fnp in advanced:
        tdt, tnp = paired_times(fdt, fnp, reps, warmup=3, inner=inner)
        table.add("cpu", f"{name}  16 float64 (per call)", "-", tdt, "numpy", tnp, "advanced key; no target")
    a2, x2 = a.copy(), x.copy()
    for name, fdt, fnp in small_ops:
        tdt, tnp = paired_times(fdt, fnp, reps, warmup=3, inner=inner)
        table.add("cpu", f"{name}  16 float64 (per call)", "-", tdt, "numpy", tnp, "no target")
    e, e_np = x[3], a[3]  # a 0-d tensor against NumPy's float64 scalar

    def loop_sum(v):  # a Python loop over the elements
        s = 0.0
        for y in v:
            s += y * 0.5
        return s
    elements = [  # Note [The 0-d fast path], Note [Iterating in C]: no target in the issues
        ("x * 1.5  (x = t[3])", lambda: e * 1.5, lambda: e_np * 1.5),
        ("x > 0.5  (x = t[3])", lambda: e > 0.5, lambda: e_np > 0.5),
        ("-x  (x = t[3])", lambda: -e, lambda: -e_np),
        ("t[2] = t[3]", lambda: operator.setitem(x2, 2, x2[3]), lambda: operator.setitem(a2, 2, a2[3])),
        ("for y in t: s += y * 0.5  (16 elements)", lambda: loop_sum(x), lambda: loop_sum(a)),
    ]
    for name, fdt, fnp in elements:
        tdt, tnp = paired_times(fdt, fnp, reps, warmup=3, inner=inner)
        table.add("cpu", f"{name}  16 float64 (per call)", "-", tdt, "numpy", tnp, "a Python loop's; no target")
    m4 = a.reshape(4, 4)
    x4, mask_t = x.reshape(4, 4), dt.asarray(mask_np)
    ac = a + 1j * a
    xc = dt.asarray(ac)
    p4 = np.empty((4, 4))
    i4 = np.array([[0, 3], [1, 1], [2, 0], [3, 2]])
    ti4 = dt.asarray(i4)
    i13 = np.array([1, 3])
    ti13 = dt.asarray(i13)
    mask_np16 = a > a.mean()
    mask_t16 = dt.asarray(mask_np16)

    def np_topk(v, k):  # NumPy's way to PyTorch's topk: a partition, then the k ordered
        part = np.argpartition(v, -k)[-k:]
        order = part[np.argsort(-v[part], kind="stable")]
        return v[order], order
    o4 = dt.asarray(p4.copy())
    everyday = [  # issue 9's creation, joins and views, and the calls beside them: no target in the issues
        ("zeros(16)", lambda: dt.zeros(16), lambda: np.zeros(16)),
        ("empty((4, 4))", lambda: dt.empty((4, 4)), lambda: np.empty((4, 4))),
        ("arange(16)", lambda: dt.arange(16), lambda: np.arange(16)),
        ("full(16, 2.0)", lambda: dt.full(16, 2.0), lambda: np.full(16, 2.0)),
        ("concatenate([t, t])", lambda: dt.concatenate([x, x]), lambda: np.concatenate([a, a])),
        ("stack([t, t])", lambda: dt.stack([x, x]), lambda: np.stack([a, a])),
        ("where(mask, t, 0.0)", lambda: dt.where(mask_t, x, 0.0), lambda: np.where(mask_np, a, 0.0)),
        ("dot(t, t)", lambda: dt.dot(x, x), lambda: np.dot(a, a)),
        ("t.std()", lambda: x.std(), lambda: a.std()),
        ("t.ravel()  (4x4)", lambda: x4.ravel(), lambda: m4.ravel()),
        ("transpose(t)  (4x4)", lambda: dt.transpose(x4), lambda: np.transpose(m4)),
        ("t.swapaxes(0, 1)  (4x4)", lambda: x4.swapaxes(0, 1), lambda: m4.swapaxes(0, 1)),
        ("expand_dims(t, 0)", lambda: dt.expand_dims(x, 0), lambda: np.expand_dims(a, 0)),
        ("t.copy()", lambda: x.copy(), lambda: a.copy()),
        ("t.astype(float32)", lambda: x.astype(dt.float32), lambda: a.astype(np.float32)),
        ("t.tolist()", lambda: x.tolist(), lambda: a.tolist()),
        ("t.flatten()  (4x4)", lambda: x4.flatten(), lambda: m4.flatten()),
        ("t2[...] = t", lambda: operator.setitem(x2, ..., x), lambda: operator.setitem(a2, ..., a)),
        ("argsort(t)", lambda: dt.argsort(x), lambda: np.argsort(a)),
        ("where(mask)", lambda: dt.where(mask_t), lambda: np.where(mask_np)),
        ("diff(t)", lambda: dt.diff(x), lambda: np.diff(a)),
        ("t.byteswap()", lambda: x.byteswap(), lambda: a.byteswap()),
        ("arange(stop=16)", lambda: dt.arange(stop=16), lambda: np.arange(stop=16)),
        ("geomspace(t[:2], 1e3, 8)", lambda: dt.geomspace(x[:2] + 1, 1e3, 8),
         lambda: np.geomspace(a[:2] + 1, 1e3, 8)),
        ("histogram(t)", lambda: dt.histogram(x), lambda: np.histogram(a)),
        ("percentile(t, [5, 50, 95])", lambda: dt.percentile(x, [5, 50, 95]),
         lambda: np.percentile(a, [5, 50, 95])),
        ("interp(t, t, t)", lambda: dt.interp(x, x, x), lambda: np.interp(a, a, a)),
        ("lexsort([t, t])", lambda: dt.lexsort([x, x]), lambda: np.lexsort([a, a])),
        ("zeros_like(t)", lambda: dt.zeros_like(x), lambda: np.zeros_like(a)),
        ("array_equal(t, t)", lambda: dt.array_equal(x, x), lambda: np.array_equal(a, a)),
        ("t.clone() vs a.copy()", lambda: x.clone(), lambda: a.copy()),
        ("real(t)  complex128", lambda: dt.real(xc), lambda: np.real(ac)),
        ("memoryview(t)", lambda: memoryview(x), lambda: memoryview(a)),
        ("linalg.det(t)  (4x4)", lambda: dt.linalg.det(x4), lambda: np.linalg.det(m4)),
        ("linalg.slogdet(t)  (4x4)", lambda: dt.linalg.slogdet(x4), lambda: np.linalg.slogdet(m4)),
        ("linalg.inv(t)  (4x4)", lambda: dt.linalg.inv(x4), lambda: np.linalg.inv(m4)),
        ("linalg.solve(t, t[0])  (4x4)", lambda: dt.linalg.solve(x4, x4[0]),
         lambda: np.linalg.solve(m4, m4[0])),
        ("linalg.norm(t)", lambda: dt.linalg.norm(x), lambda: np.linalg.norm(a)),
        ("take(t, [1, 3])", lambda: dt.take(x, [1, 3]), lambda: np.take(a, [1, 3])),
        ("take(t, index tensor)", lambda: dt.take(x, ti13), lambda: np.take(a, i13)),
        ("flip(t)", lambda: dt.flip(x), lambda: np.flip(a)),
        ("sort(t, axis=0)  (4x4)", lambda: dt.sort(x4, axis=0), lambda: np.sort(m4, axis=0)),
        ("argsort(t, axis=0)  (4x4)", lambda: dt.argsort(x4, axis=0), lambda: np.argsort(m4, axis=0)),
        ("asfortranarray(t)  (4x4)", lambda: dt.asfortranarray(x4), lambda: np.asfortranarray(m4)),
        ("t.view()", lambda: x.view(), lambda: a.view()),
        ("vdot(t, t)", lambda: dt.vdot(x, x), lambda: np.vdot(a, a)),
        ("trace(t)  (4x4)", lambda: dt.trace(x4), lambda: np.trace(m4)),
        ("atleast_2d(t)", lambda: dt.atleast_2d(x), lambda: np.atleast_2d(a)),
        ("divmod(t, t)", lambda: divmod(x, x), lambda: divmod(a, a)),
        ("result_type(t, 1.0)", lambda: dt.result_type(x, 1.0), lambda: np.result_type(a, 1.0)),
        ("logspace(0, 1, 16)", lambda: dt.logspace(0, 1, 16), lambda: np.logspace(0, 1, 16)),
        ("intersect1d(t, t[:4])", lambda: dt.intersect1d(x, x[:4]), lambda: np.intersect1d(a, a[:4])),
        ("digitize(t, [0.2, 0.5])", lambda: dt.digitize(x, [0.2, 0.5]), lambda: np.digitize(a, [0.2, 0.5])),
        ("insert(t, 1, 5.0)", lambda: dt.insert(x, 1, 5.0), lambda: np.insert(a, 1, 5.0)),
        ("list(t)  (4x4 rows)", lambda: list(x4), lambda: list(m4)),
        ("argpartition(t, 3)", lambda: dt.argpartition(x, 3), lambda: np.argpartition(a, 3)),
        ("t.gather(1, idx) vs take_along_axis  (4x4)", lambda: x4.gather(1, ti4),
         lambda: np.take_along_axis(m4, i4, axis=1)),
        ("t.topk(3) vs argpartition + argsort", lambda: x.topk(3), lambda: np_topk(a, 3)),
        ("t.masked_fill(t > 0.5, 0) vs where", lambda: x.masked_fill(x > 0.5, 0.0), lambda: np.where(a > 0.5, 0.0, a)),
        ("divide(t, t, out=o, where=m)", lambda: dt.divide(x, x, out=x2, where=mask_t16),
         lambda: np.divide(a, a, out=a2, where=mask_np16)),
        ("copyto(o, 0.0, where=m)", lambda: dt.copyto(x2, 0.0, where=mask_t16), lambda: np.copyto(a2, 0.0, where=mask_np16)),
        ("t.div(2, rounding_mode='floor')", lambda: x.div(2, rounding_mode="floor"), lambda: np.floor_divide(a, 2)),
        ("t @ t  (4x4)", lambda: x4 @ x4, lambda: m4 @ m4),
        ("matmul(t, t)  (4x4)", lambda: dt.matmul(x4, x4), lambda: np.matmul(m4, m4)),
        ("matmul(t, t, out=o)  (4x4)", lambda: dt.matmul(x4, x4, out=o4), lambda: np.matmul(m4, m4, out=p4)),
    ]
    for name, fdt, fnp in everyday:
        tdt, tnp = paired_times(fdt, fnp, reps, warmup=3, inner=inner)
        table.add("cpu", f"{name}  16 float64 (per call)", "-", tdt, "numpy", tnp, "no target")
    if hasattr(dt, "einsum"):  # issue 11: einsum's per-call path (Note [einsum's per-call path])
        m = rng.random((4, 4))
        xm = dt.asarray(m)
        for opt in (False, True):
            tdt, tnp = paired_times(lambda: dt.einsum("ij,jk->ik", xm, xm, optimize=opt),
                                    lambda: np.einsum("ij,jk->ik", m, m, optimize=opt), reps, warmup=3,
                                    inner=inner)
            table.add("cpu", f"einsum('ij,jk->ik') 4x4 float64 optimize={opt} (per call)", "-", tdt,
                      "numpy", tnp, "no target")
    if hasattr(dt.add, "at"):  # issue 12's ufunc methods, utilities and Generator: no target
        a2 = a.copy()
        y = dt.asarray(a.copy())
        bins_np = rng.integers(0, 10, 10 ** 5)
        h_np, bins = np.zeros(10, np.int64), dt.asarray(bins_np)
        h = dt.asarray(h_np.copy())
        g_np, g_dt = np.random.default_rng(0), dt.random.default_rng(0)
        issue12 = [
            ("add.reduce(t)", lambda: dt.add.reduce(x), lambda: np.add.reduce(a)),
            ("add.accumulate(t)", lambda: dt.add.accumulate(x), lambda: np.add.accumulate(a)),
            ("maximum.accumulate(t)", lambda: dt.maximum.accumulate(x), lambda: np.maximum.accumulate(a)),
            ("multiply.outer(t, t)", lambda: dt.multiply.outer(x, x), lambda: np.multiply.outer(a, a)),
            ("add.at(t, idx, 1.0)  (3 int64)", lambda: dt.add.at(y, idx, 1.0), lambda: np.add.at(a2, idx_np, 1.0)),
            ("isclose(t, t)", lambda: dt.isclose(x, x), lambda: np.isclose(a, a)),
            ("allclose(t, t)", lambda: dt.allclose(x, x), lambda: np.allclose(a, a)),
            ("default_rng().random(16)", lambda: g_dt.random(16), lambda: g_np.random(16)),
            ("default_rng().integers(0, 10, 16)", lambda: g_dt.integers(0, 10, 16),
             lambda: g_np.integers(0, 10, 16)),
        ]
        for name, fdt, fnp in issue12:
            tdt, tnp = paired_times(fdt, fnp, reps, warmup=3, inner=inner)
            table.add("cpu", f"{name}  16 float64 (per call)", "-", tdt, "numpy", tnp, "no target")
        tdt, tnp = paired_times(lambda: dt.add.at(h, bins, 1), lambda: np.add.at(h_np, bins_np, 1), reps,
                                warmup=1, inner=10)
        table.add("cpu", "add.at(h, idx, 1)  10^5 int64 into 10 bins", "-", tdt, "numpy", tnp,
                  "NumPy's at() on views (Note [at() on the CPU])")
    # issue 12: NumPy's function through __array_function__ against devtensor's own
    tnp_fn, tdt_fn = paired_times(lambda: np.sum(x), lambda: dt.sum(x), reps, warmup=3, inner=inner)
    table.add("cpu", "np.sum(t)  16 float64 (per call, __array_function__)", "-", tnp_fn,
              "dt.sum(t)", tdt_fn, f"target: within 2 us of dt.sum (here "
              f"{(tnp_fn - tdt_fn) * 1e6:.2f} us)")
    # and NumPy's ufunc through __array_ufunc__ (NumPy's override machinery costs ~0.7 us itself)
    tnp_uf, tdt_uf = paired_times(lambda: np.exp(x), lambda: dt.exp(x), reps, warmup=3, inner=inner)
    table.add("cpu", "np.exp(t)  16 float64 (per call, __array_ufunc__)", "-", tnp_uf,
              "dt.exp(t)", tdt_uf, f"{(tnp_uf - tdt_uf) * 1e6:.2f} us more")
    for name, f in [("t.to('cpu') (returns t)", lambda: x.to("cpu")), ("t.cpu() (returns t)", lambda: x.cpu())]:
        tdt = median_time(f, reps, warmup=3, inner=inner)
        table.add("cpu", f"{name} (per call)", "-", tdt, "-", None, "target: <= 100 ns")


def _against_float64(fn, a, axis=None):
    """A _check function: devtensor's and NumPy's max errors against fn in float64."""
    def errors(got, ref):
        exact = fn(a.astype(np.float64), axis=axis)
        e_dt = float(np.max(np.abs(np.asarray(got).astype(np.float64) - exact)))
        e_np = float(np.max(np.abs(np.asarray(ref).astype(np.float64) - exact)))
        return f"max error {e_dt:.1e} (NumPy {e_np:.1e}) vs float64"
    return errors


def reduction_cases(rng):
    """Issue 10's CPU rows: sum, mean, max, argmax of 10^7 float32 and
    float64, axis sums of a 4000x2500 float32 (name, devtensor, NumPy, exact)."""
    if not hasattr(dt, "sum"):
        return []
    cases = []
    for dtype in ("float32", "float64"):
        a = rng.random(10 ** 7).astype(dtype)
        x = dt.asarray(a)
        for name in ("sum", "mean", "max", "argmax", "cumsum"):
            if not hasattr(dt, name):
                continue
            f, g = getattr(dt, name), getattr(np, name)
            # sums differ in the last bits: float32 accumulates in double here
            check = _against_float64(np.cumsum, a) if name == "cumsum" else name in ("max", "argmax")
            cases.append((f"{name}(a)  10^7 {dtype}", lambda f=f, x=x: f(x), lambda g=g, a=a: g(a), check))
    m = rng.random((4000, 2500)).astype(np.float32)
    xm = dt.asarray(m)
    for axis in (0, 1):
        cases.append((f"sum(axis={axis})  4000x2500 float32", lambda axis=axis: dt.sum(xm, axis=axis),
                      lambda axis=axis: np.sum(m, axis=axis), _against_float64(np.sum, m, axis)))
    mask = rng.random(10 ** 7) > 0.5
    xmask = dt.asarray(mask)
    cases.append(("count_nonzero(mask)  10^7 bool", lambda: dt.count_nonzero(xmask),
                  lambda: np.count_nonzero(mask), True))
    return cases + sort_cases(rng)


def sort_cases(rng):
    """Issue 10's sorting rows: sort and argsort of 10^6 float32 and int64
    (NumPy's default kind: a sort that devtensor hands to NumPy on the CPU,
    runs across threads, then merged; an argsort by the radix sort, checked
    by the order it gives, since NumPy's default is not stable; and the
    stable radix sort against NumPy's stable one), the default sort of 10^6
    int8 (a counting sort, not NumPy's), unique of 10^6 int64."""
    if not hasattr(dt, "sort"):
        return []
    cases = []
    for dtype in ("float32", "int64"):
        a = (rng.standard_normal(10 ** 6) * 1e6).astype(dtype)
        x = dt.asarray(a)
        cases.append((f"sort(a)  10^6 {dtype}", lambda x=x: dt.sort(x), lambda a=a: np.sort(a), True))
        cases.append((f"sort(a, stable)  10^6 {dtype}", lambda x=x: dt.sort(x, stable=True),
                      lambda a=a: np.sort(a, kind="stable"), True))
        cases.append((f"argsort(a, stable)  10^6 {dtype}", lambda x=x: dt.argsort(x, stable=True),
                      lambda a=a: np.argsort(a, kind="stable"), True))
        cases.append((f"argsort(a)  10^6 {dtype}", lambda x=x: dt.argsort(x), lambda a=a: np.argsort(a),
                      lambda got, ref, a=a: _check(a[np.asarray(got)], a[ref], True)))
    b = rng.integers(-128, 128, 10 ** 6).astype("int8")
    xb = dt.asarray(b)
    cases.append(("sort(a)  10^6 int8", lambda: dt.sort(xb), lambda: np.sort(b), True))
    u = rng.integers(0, 10 ** 5, 10 ** 6)
    xu = dt.asarray(u)
    cases.append(("unique(a)  10^6 int64 (10^5 values)", lambda: dt.unique(xu), lambda: np.unique(u), True))
    return cases


def bench_indexing_cpu(table, rng, quick):
    """Issue 9's large rows: boolean-mask getitem, integer-array take, scatter
    setitem and concatenate on 10^7 float64, against NumPy's same call."""
    n = 10 ** 7
    a, b = rng.random(n), rng.random(n)
    x, y = dt.asarray(a), dt.asarray(b)
    mask_np = a > 0.5
    mask = dt.asarray(mask_np)
    idx_np = rng.integers(0, n, size=n)
    idx = dt.asarray(idx_np)
    reps = 5 if quick else 11
    cases = [
        ("x[mask]  10^7 float64 (half true)", lambda: x[mask], lambda: a[mask_np]),
        ("take(x, idx)  10^7 float64 random", lambda: dt.take(x, idx), lambda: np.take(a, idx_np)),
        ("x[idx] = y  10^7 float64 random", lambda: x.__setitem__(idx, y),
         lambda: a.__setitem__(idx_np, b)),
        ("x[idx] = 1.0  10^7 float64 random", lambda: x.__setitem__(idx, 1.0),
         lambda: a.__setitem__(idx_np, 1.0)),
        ("concatenate([x, y])  2x10^7 float64", lambda: dt.concatenate([x, y]),
         lambda: np.concatenate([a, b])),
    ]
    for name, fdt, fnp in cases:
        tdt, tnp = paired_times(fdt, fnp, reps)
        table.add("cpu", name, "-", tdt, "numpy", tnp, "target: ratio >= 1.0")


# ---- GPU ----


def bench_gpu_gather(table, reps, dsync, cp, csync, torch, tsync, n=1 << 26):
    """A random gather of 2^26 float32 against a same-size device copy (issue
    9's target: within 2x), and against CuPy's and PyTorch's gathers."""
    x = dt.rand(n, dtype=dt.float32, device="cuda")
    perm = np.random.default_rng(0).permutation(n)
    idx = dt.asarray(perm, device="cuda")
    dsync()
    t_gather = median_time(lambda: x[idx], reps, sync=dsync)
    t_copy = median_time(lambda: x.copy(), reps, sync=dsync)
    table.add("gpu", "x[idx] random gather 2^26 float32", "-", t_gather, "dt D2D copy", t_copy,
              "target: within 2x of the copy (ratio >= 0.5)")
    if cp is not None:
        cx, ci = cp.asarray(x.cpu().numpy()), cp.asarray(perm)
        r = median_time(lambda: cx[ci], reps, sync=csync)
        table.add("gpu", "x[idx] random gather 2^26 float32", "-", t_gather, "cupy", r)
        del cx, ci
        cp.get_default_memory_pool().free_all_blocks()
    if torch is not None:
        tx, ti = torch.as_tensor(x.cpu().numpy(), device="cuda"), torch.as_tensor(perm, device="cuda")
        r = median_time(lambda: tx[ti], reps, sync=tsync)
        table.add("gpu", "x[idx] random gather 2^26 float32", "-", t_gather, "torch", r)
        del tx, ti
        torch.cuda.empty_cache()
    m = x > 0.5
    t_mask = median_time(lambda: x[m], reps, sync=dsync)
    table.add("gpu", "x[mask] 2^26 float32 (half true)", "-", t_mask, "dt D2D copy", t_copy,
              "count, one read of the total, compaction, gather")
    del x, idx, m


def bench_nn(table, device, reps, dsync, torch, tsync, side=1024, batch=64, quick=False, d2l=100):
    """Issue 13's rows: net(X) of nn.Linear(side, side) on a batch against
    the bare X @ W.T + b it computes (target: within 1.5x, ratio >= 0.67) and
    against PyTorch's Linear; a small Linear(4, 4) per call; and D2L
    exercise 3, the norm logged to the host each step against the log kept
    on the device (devtensor/_exercises.py)."""
    from devtensor import _exercises, nn
    section = "gpu" if device != "cpu" else "cpu"
    for n, b, label in ((side, batch, "per call"), (4, 8, "small, per call")):
        lin = nn.Linear(n, n, device=device)
        X = dt.ones(b, n, dtype=dt.float32, device=device)
        W, bias = lin.weight.data, lin.bias.data
        inner = 1 if n >= 256 else 200
        t_net, t_bare = paired_times(lambda: lin(X), lambda: X @ W.mT + bias, reps, warmup=3,
                                     inner=inner, sync_a=dsync, sync_b=dsync)
        case = f"nn.Linear({n}, {n})(X) batch {b} float32 ({label})"
        table.add(section, case, "-", t_net, "bare X @ W.T + b", t_bare,
                  "target: within 1.5x (ratio >= 0.67)" if n == side else "no target")
        if torch is not None:
            tdev = "cuda" if device != "cpu" else "cpu"
            tlin = torch.nn.Linear(n, n, device=tdev)
            tX = torch.ones(b, n, device=tdev)
            with torch.no_grad():
                t_dt, t_torch = paired_times(lambda: lin(X), lambda: tlin(tX), reps, warmup=3,
                                             inner=inner, sync_a=dsync, sync_b=tsync)
            table.add(section, case, "-", t_dt, "torch (no_grad)", t_torch)
    _bench_lstm(table, section, device, reps, dsync, torch, tsync)
    _bench_grid_sample(table, section, device, reps, dsync, torch, tsync)
    rows = _exercises.exercise3(dt.device(device), quick, d2l)
    host, kept = rows[0][3] / 1e3, rows[1][3] / 1e3
    steps = 100 if quick else 1000
    table.add(section, f"D2L ex. 3: {steps} x ({d2l}x{d2l} product + norm), log kept on the "
              f"device",
              "-", kept, "norm to the host each step", host,
              "on the CPU both do the same work (there is no transfer)" if device == "cpu" else "")


def _numpy_lstm(x, w_ih, w_hh, b_ih, b_hh):
    """The LSTM's equations as a plain NumPy loop: the baseline for nn.LSTM on the CPU."""
    steps, batch, hidden = x.shape[0], x.shape[1], w_hh.shape[1]
    projected = (x.reshape(steps * batch, -1) @ w_ih.T + b_ih).reshape(steps, batch, -1)
    h = np.zeros((batch, hidden), x.dtype)
    c = np.zeros((batch, hidden), x.dtype)
    out = []
    for t in range(steps):
        g = projected[t] + h @ w_hh.T + b_hh
        i, f = 1 / (1 + np.exp(-g[:, :hidden])), 1 / (1 + np.exp(-g[:, hidden:2 * hidden]))
        cell, o = np.tanh(g[:, 2 * hidden:3 * hidden]), 1 / (1 + np.exp(-g[:, 3 * hidden:]))
        c = f * c + i * cell
        h = o * np.tanh(c)
        out.append(h)
    return np.stack(out), h, c


def _bench_lstm(table, section, device, reps, dsync, torch, tsync, steps=32, batch=16, size=128):
    """nn.LSTM's forward pass (Note [Recurrence]: one product for the inputs,
    one per step) against the same equations in NumPy on the CPU, and
    against PyTorch's LSTM (cuDNN on a GPU) where PyTorch is installed."""
    from devtensor import nn
    lstm = nn.LSTM(size, size, device=device)
    x_np = np.random.default_rng(0).standard_normal((steps, batch, size)).astype(np.float32)
    x = dt.asarray(x_np, device=device)
    case = f"nn.LSTM({size}, {size})(x) {steps} steps, batch {batch}, float32"
    if device == "cpu":
        w = [p.numpy() for p in (lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0, lstm.bias_hh_l0)]
        got, expected = lstm(x)[0].numpy(), _numpy_lstm(x_np, *w)[0]
        assert np.allclose(got, expected, rtol=1e-4, atol=1e-5), "nn.LSTM differs from its equations"
        t_dt, t_np = paired_times(lambda: lstm(x), lambda: _numpy_lstm(x_np, *w), reps, warmup=2)
        table.add(section, case, "-", t_dt, "numpy loop", t_np, "no target")
    if torch is not None:
        tdev = "cuda" if device != "cpu" else "cpu"
        tlstm = torch.nn.LSTM(size, size, device=tdev)
        tx = torch.from_numpy(x_np).to(tdev)
        with torch.no_grad():
            t_dt, t_torch = paired_times(lambda: lstm(x), lambda: tlstm(tx), reps, warmup=2, sync_a=dsync,
                                         sync_b=tsync)
        table.add(section, case, "-", t_dt, "torch (no_grad)", t_torch, "no target")


def _numpy_grid_sample(x, grid):
    """Bilinear grid sampling (zeros padding, align_corners=False) as a plain
    vectorized NumPy program: the baseline for F.grid_sample on the CPU."""
    n, c, h, w = x.shape
    ix = ((grid[..., 0] + 1) * w - 1) / 2
    iy = ((grid[..., 1] + 1) * h - 1) / 2
    x0, y0 = np.floor(ix).astype(np.int64), np.floor(iy).astype(np.int64)
    out = np.zeros((n, c) + grid.shape[1:3], x.dtype)
    b = np.arange(n)[:, None, None]
    for dy in (0, 1):
        for dx in (0, 1):
            xs, ys = x0 + dx, y0 + dy
            wgt = (1 - np.abs(ix - xs)) * (1 - np.abs(iy - ys))
            inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
            vals = x[b, :, np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]  # (n, H, W, c)
            out += np.moveaxis(np.where(inside[..., None], vals, 0) * wgt[..., None], -1, 1).astype(x.dtype)
    return out


def _bench_grid_sample(table, section, device, reps, dsync, torch, tsync, batch=32, channels=3, side=64):
    """F.grid_sample (bilinear) of an affine grid against the same sampling
    written in NumPy, and against PyTorch's where installed."""
    from devtensor.nn import functional as F
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((batch, channels, side, side)).astype(np.float32)
    theta = np.tile(np.array([[0.9, 0.1, 0.05], [-0.1, 0.9, 0.0]], np.float32), (batch, 1, 1))
    x = dt.asarray(x_np, device=device)
    grid = F.affine_grid(dt.asarray(theta, device=device), (batch, channels, side, side), align_corners=False)
    case = f"F.grid_sample bilinear ({batch}, {channels}, {side}, {side}) float32"
    if device == "cpu":
        g_np = grid.numpy()
        assert np.allclose(F.grid_sample(x, grid, align_corners=False).numpy(), _numpy_grid_sample(x_np, g_np),
                           atol=1e-5), "grid_sample differs from its NumPy program"
        t_dt, t_np = paired_times(lambda: F.grid_sample(x, grid, align_corners=False),
                                  lambda: _numpy_grid_sample(x_np, g_np), reps, warmup=1)
        table.add(section, case, "-", t_dt, "numpy program", t_np, "no target")
    if torch is not None:
        tdev = "cuda" if device != "cpu" else "cpu"
        tx, tg = torch.from_numpy(x_np).to(tdev), torch.from_numpy(grid.cpu().numpy()).to(tdev)
        with torch.no_grad():
            t_dt, t_torch = paired_times(lambda: F.grid_sample(x, grid, align_corners=False),
                                         lambda: torch.nn.functional.grid_sample(tx, tg, align_corners=False),
                                         reps, warmup=1, sync_a=dsync, sync_b=tsync)
        table.add(section, case, "-", t_dt, "torch (no_grad)", t_torch, "no target")


def _try_import(name):
    try:
        return __import__(name)
    except Exception:
        return None


def bench_gpu_reductions(table, reps, dsync, cp, csync, torch, tsync, gbps, copy_bw, n=1 << 28, side=8192):
    """Issue 10's GPU rows: sum of 2^28 float32 against the read bandwidth a
    copy reaches (target 90%) and against CuPy and PyTorch; axis sums of an
    8192x8192 float32; cumsum of 2^28 float32 (one long row: the chunked scan)."""
    if not hasattr(dt, "sum"):
        return
    x = dt.rand(n, dtype=dt.float32, device="cuda")
    m = dt.rand((side, side), dtype=dt.float32, device="cuda")
    dsync()
    t_sum = median_time(lambda: dt.sum(x), reps, sync=dsync)
    # a copy reads and writes: its read rate is half its total traffic
    table.add("gpu", f"sum 2^{n.bit_length() - 1} float32 (read bandwidth)", "-", gbps(4 * n, t_sum), "dt copy read rate",
              copy_bw / 2, "target: ratio >= 0.90", kind="GB/s")
    axis_t = {axis: median_time(lambda axis=axis: dt.sum(m, axis=axis), reps, sync=dsync) for axis in (0, 1)}
    t_cumsum = median_time(lambda: dt.cumsum(x), reps, sync=dsync)
    cumsum_case = f"cumsum 2^{n.bit_length() - 1} float32"
    host = x.cpu().numpy()
    if cp is not None:
        cx, cm = cp.asarray(host), cp.asarray(m.cpu().numpy())
        table.add("gpu", "sum 2^28 float32", "-", t_sum, "cupy", median_time(lambda: cx.sum(), reps, sync=csync))
        for axis in (0, 1):
            r = median_time(lambda axis=axis: cm.sum(axis=axis), reps, sync=csync)
            table.add("gpu", f"sum(axis={axis}) 8192x8192 float32", "-", axis_t[axis], "cupy", r)
        table.add("gpu", cumsum_case, "-", t_cumsum, "cupy", median_time(lambda: cx.cumsum(), reps, sync=csync))
        del cx, cm
        cp.get_default_memory_pool().free_all_blocks()
    if torch is not None:
        tx, tm = torch.as_tensor(host, device="cuda"), torch.as_tensor(m.cpu().numpy(), device="cuda")
        table.add("gpu", "sum 2^28 float32", "-", t_sum, "torch", median_time(lambda: tx.sum(), reps, sync=tsync))
        for axis in (0, 1):
            r = median_time(lambda axis=axis: tm.sum(dim=axis), reps, sync=tsync)
            table.add("gpu", f"sum(axis={axis}) 8192x8192 float32", "-", axis_t[axis], "torch", r)
        table.add("gpu", cumsum_case, "-", t_cumsum, "torch",
                  median_time(lambda: torch.cumsum(tx, 0), reps, sync=tsync))
        del tx, tm
        torch.cuda.empty_cache()
    if cp is None and torch is None:
        table.add("gpu", cumsum_case, "-", t_cumsum, "-", None, "no competitor importable")
    del x, m


def bench_gpu_sort(table, reps, dsync, cp, csync, torch, tsync, n=1 << 26):
    """Issue 10's GPU sort row: sort of 2^26 float32 against CuPy's and
    PyTorch's (target: no slower than CuPy)."""
    if not hasattr(dt, "sort"):
        return
    x = dt.rand(n, dtype=dt.float32, device="cuda")
    dsync()
    t_sort = median_time(lambda: dt.sort(x), reps, sync=dsync)
    t_arg = median_time(lambda: dt.argsort(x, stable=True), reps, sync=dsync)
    host = x.cpu().numpy()
    label = f"sort 2^{n.bit_length() - 1} float32"
    table.add("gpu", label, "-", t_sort, "dt D2D copy", median_time(lambda: x.copy(), reps, sync=dsync),
              "how many copies' time a sort takes")
    if cp is not None:
        cx = cp.asarray(host)
        table.add("gpu", label, "-", t_sort, "cupy", median_time(lambda: cp.sort(cx), reps, sync=csync),
                  "target: ratio >= 1.0")
        table.add("gpu", f"argsort 2^{n.bit_length() - 1} float32", "-", t_arg, "cupy",
                  median_time(lambda: cp.argsort(cx), reps, sync=csync))
        del cx
        cp.get_default_memory_pool().free_all_blocks()
    if torch is not None:
        tx = torch.as_tensor(host, device="cuda")
        table.add("gpu", label, "-", t_sort, "torch", median_time(lambda: torch.sort(tx), reps, sync=tsync))
        del tx
        torch.cuda.empty_cache()
    del x


def bench_gpu_matmul(table, reps, dsync, cp, csync, torch, tsync, side=8192, batch=(256, 512),
                     d2l=(1000, 100)):
    """Issue 11's GPU rows: matmul of side x side in float32, TF32, bfloat16
    and float16, batch[0] batched batch[1] x batch[1] float32 products, and
    D2L exercise 3 (d2l[0] = 1000 products of d2l[1] = 100 square with each
    Frobenius norm kept on the device), against PyTorch (and CuPy where it
    has the dtype), in TFLOP/s."""
    if not hasattr(dt, "matmul"):
        return
    flops = 2.0 * side ** 3
    rows = [("float32", False), ("float32", True), ("bfloat16", False), ("float16", False)]
    for dtype, tf32 in rows:
        label = f"matmul {side}^2 {'tf32' if tf32 else dtype}"
        x = dt.randn(side, side, device="cuda:0").astype(getattr(dt, dtype))
        y = dt.randn(side, side, device="cuda:0").astype(getattr(dt, dtype))
        old = dt.backends.cuda.matmul.allow_tf32
        dt.backends.cuda.matmul.allow_tf32 = tf32
        try:
            t_dt = median_time(lambda: x @ y, reps, sync=dsync)
        finally:
            dt.backends.cuda.matmul.allow_tf32 = old
        if torch is not None:
            tx = torch.randn(side, side, device="cuda").to(getattr(torch, dtype))
            ty = torch.randn(side, side, device="cuda").to(getattr(torch, dtype))
            old_t = torch.backends.cuda.matmul.allow_tf32
            torch.backends.cuda.matmul.allow_tf32 = tf32
            try:
                t_t = median_time(lambda: tx @ ty, reps, sync=tsync)
            finally:
                torch.backends.cuda.matmul.allow_tf32 = old_t
            table.add("gpu", label, "-", flops / t_dt / 1e12, "torch", flops / t_t / 1e12,
                      "target >= 0.98x PyTorch", kind="TFLOP/s")
            del tx, ty
        if cp is not None and dtype in ("float32", "float16") and not tf32:
            cx = cp.random.standard_normal((side, side)).astype(dtype)
            cy = cp.random.standard_normal((side, side)).astype(dtype)
            t_c = median_time(lambda: cx @ cy, reps, sync=csync)
            table.add("gpu", label, "-", flops / t_dt / 1e12, "cupy", flops / t_c / 1e12, kind="TFLOP/s")
            del cx, cy
        del x, y
    batch, n = batch
    x = dt.randn(batch, n, n, device="cuda:0").astype(dt.float32)
    y = dt.randn(batch, n, n, device="cuda:0").astype(dt.float32)
    t_dt = median_time(lambda: x @ y, reps, sync=dsync)
    bflops = 2.0 * batch * n ** 3
    if torch is not None:
        tx, ty = torch.randn(batch, n, n, device="cuda"), torch.randn(batch, n, n, device="cuda")
        t_t = median_time(lambda: tx @ ty, reps, sync=tsync)
        table.add("gpu", f"matmul {batch} x ({n}x{n}) float32", "-", bflops / t_dt / 1e12, "torch",
                  bflops / t_t / 1e12, "target >= 0.98x PyTorch", kind="TFLOP/s")
        del tx, ty
    del x, y
    count, size = d2l
    a = dt.randn(size, size, device="cuda:0").astype(dt.float32)
    b = dt.randn(size, size, device="cuda:0").astype(dt.float32)

    def d2l_dt():
        norms = [dt.sqrt(dt.sum((a @ b) ** 2)) for _ in range(count)]
        return norms[-1]
    t_dt = median_time(d2l_dt, max(3, reps // 3), sync=dsync)
    if torch is not None:
        ta, tb = torch.randn(size, size, device="cuda"), torch.randn(size, size, device="cuda")

        def d2l_torch():
            norms = [torch.linalg.norm(ta @ tb) for _ in range(count)]
            return norms[-1]
        t_t = median_time(d2l_torch, max(3, reps // 3), sync=tsync)
        table.add("gpu", f"D2L ex. 3: {count} x ({size}x{size} @, norm on device)", "-", t_dt, "torch", t_t,
                  "target: faster than PyTorch")


def bench_gpu_fft(table, reps, dsync, cp, csync, torch, tsync, n=1 << 24, batch=(4096, 1024)):
    """Issue 11's cuFFT rows: one complex64 transform of n points, and a
    batch of real transforms (rfft of each row), against PyTorch and CuPy
    (both cuFFT: the ratios show our per-call and plan-cache overhead), in
    GB/s of the input read."""
    if not hasattr(dt, "fft"):
        return
    x = (dt.randn(n, device="cuda:0") + 0j).astype(dt.complex64)
    dt.fft.fft(x)
    t_dt = median_time(lambda: dt.fft.fft(x), reps, sync=dsync)
    nbytes = 8 * n
    label = f"fft 2^{n.bit_length() - 1} complex64"
    if torch is not None:
        tx = torch.randn(n, dtype=torch.complex64, device="cuda")
        t_t = median_time(lambda: torch.fft.fft(tx), reps, sync=tsync)
        table.add("gpu", label, "-", nbytes / t_dt / 1e9, "torch", nbytes / t_t / 1e9,
                  "cuFFT on both sides", kind="GB/s")
        del tx
    if cp is not None:
        cx = (cp.random.standard_normal(n) + 0j).astype(cp.complex64)
        t_c = median_time(lambda: cp.fft.fft(cx), reps, sync=csync)
        table.add("gpu", label, "-", nbytes / t_dt / 1e9, "cupy", nbytes / t_c / 1e9,
                  "cuFFT on both sides", kind="GB/s")
        del cx
    if torch is None and cp is None:
        table.add("gpu", label, "-", nbytes / t_dt / 1e9, "none", None, kind="GB/s")
    del x
    rows, cols = batch
    y = dt.randn(rows, cols, device="cuda:0").astype(dt.float32)
    t_dt = median_time(lambda: dt.fft.rfft(y), reps, sync=dsync)
    nbytes = 4 * rows * cols
    label = f"rfft of {rows} rows of {cols} float32"
    if torch is not None:
        ty = torch.randn(rows, cols, device="cuda")
        t_t = median_time(lambda: torch.fft.rfft(ty), reps, sync=tsync)
        table.add("gpu", label, "-", nbytes / t_dt / 1e9, "torch", nbytes / t_t / 1e9, kind="GB/s")
        del ty
    if cp is not None:
        cy = cp.random.standard_normal((rows, cols)).astype(cp.float32)
        t_c = median_time(lambda: cp.fft.rfft(cy), reps, sync=csync)
        table.add("gpu", label, "-", nbytes / t_dt / 1e9, "cupy", nbytes / t_c / 1e9, kind="GB/s")
        del cy
    if torch is None and cp is None:
        table.add("gpu", label, "-", nbytes / t_dt / 1e9, "none", None, kind="GB/s")


def bench_gpu_eig(table, reps, dsync, cp, csync, torch, tsync, side=1024):
    """The general eigenproblem (cuSOLVER's Xgeev) of one side x side
    float64 matrix, eigenvalues only, time per call against PyTorch's
    linalg.eigvals and CuPy's (where its version has one)."""
    if not hasattr(dt, "linalg"):
        return
    x = dt.randn(side, side, device="cuda:0")
    label = f"linalg.eigvals {side}x{side} float64"
    dt.linalg.eigvals(x)
    t_dt = median_time(lambda: dt.linalg.eigvals(x), max(3, reps // 3), sync=dsync)
    rows = 0
    if torch is not None:
        tx = torch.randn(side, side, dtype=torch.float64, device="cuda")
        torch.linalg.eigvals(tx)
        t_t = median_time(lambda: torch.linalg.eigvals(tx), max(3, reps // 3), sync=tsync)
        table.add("gpu", label, "-", t_dt, "torch", t_t)
        rows += 1
    if cp is not None and hasattr(cp.linalg, "eigvals"):
        cx = cp.random.standard_normal((side, side))
        cp.linalg.eigvals(cx)
        t_c = median_time(lambda: cp.linalg.eigvals(cx), max(3, reps // 3), sync=csync)
        table.add("gpu", label, "-", t_dt, "cupy", t_c)
        rows += 1
    if rows == 0:
        table.add("gpu", label, "-", t_dt, "none", None)


def bench_gpu_batched_linalg(table, reps, dsync, cp, csync, torch, tsync, batch=10 ** 4, n=16):
    """Issue 11's batched factorizations (Note [Batched factorizations] in
    csrc/cuda/cuda_solver.c): solve, eigh and svd of `batch` n x n float32
    matrices in one call each, time per call against PyTorch and CuPy."""
    if not hasattr(dt, "linalg"):
        return
    host = np.random.default_rng(0).standard_normal((batch, n, n)).astype(np.float32)
    host += n * np.eye(n, dtype=np.float32)  # well conditioned
    sym = host + host.transpose(0, 2, 1)
    rhs = np.ones((batch, n, 1), np.float32)
    x, xs, b = (dt.asarray(h, device="cuda:0") for h in (host, sym, rhs))
    cases = [("solve", lambda: dt.linalg.solve(x, b)), ("eigh", lambda: dt.linalg.eigh(xs)[0]),
             ("svd", lambda: dt.linalg.svd(x)[1])]
    peers = []
    if torch is not None:
        tx, txs, tb = (torch.as_tensor(h, device="cuda") for h in (host, sym, rhs))
        peers.append(("torch", tsync, {"solve": lambda: torch.linalg.solve(tx, tb),
                                       "eigh": lambda: torch.linalg.eigh(txs)[0],
                                       "svd": lambda: torch.linalg.svd(tx)[1]}))
    if cp is not None:
        cx, cxs, cb = (cp.asarray(h) for h in (host, sym, rhs))
        peers.append(("cupy", csync, {"solve": lambda: cp.linalg.solve(cx, cb),
                                      "eigh": lambda: cp.linalg.eigh(cxs)[0],
                                      "svd": lambda: cp.linalg.svd(cx)[1]}))
    for name, call in cases:
        label = f"linalg.{name} {batch} x ({n}x{n}) float32, batched"
        call()
        t_dt = median_time(call, reps, sync=dsync)
        if not peers:
            table.add("gpu", label, "-", t_dt, "none", None)
        for peer, sync, calls in peers:
            calls[name]()
            table.add("gpu", label, "-", t_dt, peer, median_time(calls[name], reps, sync=sync))


def bench_gpu_ufunc_methods(table, reps, dsync, cp, csync, torch, tsync, n=1 << 20, bins=1000):
    """Issue 12's ufunc methods on a device: add.at of n float32 values into
    `bins` targets (Note [Combined at()]) against PyTorch's index_add_ and
    CuPy's scatter_add, and add.reduceat of n float32 over `bins` segments
    (Note [Segments by length]) against CuPy's, time per call."""
    rng = np.random.default_rng(0)
    idx_h, vals_h = rng.integers(0, bins, n), rng.random(n, dtype=np.float32)
    starts_h = np.sort(rng.choice(n, bins, replace=False))
    starts_h[0] = 0
    idx, vals = dt.asarray(idx_h, device="cuda:0"), dt.asarray(vals_h, device="cuda:0")
    hist = dt.zeros(bins, dtype=dt.float32, device="cuda:0")
    label = f"add.at {n} float32 into {bins} bins"
    t_at = median_time(lambda: dt.add.at(hist, idx, vals), reps, sync=dsync)
    label_r = f"add.reduceat {n} float32, {bins} segments"
    t_red = median_time(lambda: dt.add.reduceat(vals, starts_h), reps, sync=dsync)
    rows = 0
    if torch is not None:
        th, ti, tv = (torch.zeros(bins, device="cuda"), torch.as_tensor(idx_h, device="cuda"),
                      torch.as_tensor(vals_h, device="cuda"))
        table.add("gpu", label, "-", t_at, "torch", median_time(lambda: th.index_add_(0, ti, tv), reps, sync=tsync))
        rows += 1
    if cp is not None:  # CuPy's add.at where its version has one (cupyx.scatter_add before)
        ch, ci, cv = cp.zeros(bins, dtype=cp.float32), cp.asarray(idx_h), cp.asarray(vals_h)
        at = getattr(cp.add, "at", None)
        if at is not None:
            table.add("gpu", label, "-", t_at, "cupy", median_time(lambda: at(ch, ci, cv), reps, sync=csync))
            rows += 1
        if hasattr(cp.add, "reduceat"):
            cs = cp.asarray(starts_h)
            table.add("gpu", label_r, "-", t_red, "cupy", median_time(lambda: cp.add.reduceat(cv, cs), reps,
                                                                       sync=csync))
            rows += 1
    if rows == 0:
        table.add("gpu", label, "-", t_at, "none", None)
        table.add("gpu", label_r, "-", t_red, "none", None)
    # maximum.accumulate: the backend's MAX scan (PyTorch's cummax also finds the positions)
    label_s = f"maximum.accumulate {n} float32"
    t_scan = median_time(lambda: dt.maximum.accumulate(vals), reps, sync=dsync)
    rows = 0
    if cp is not None and hasattr(cp.maximum, "accumulate"):
        cv = cp.asarray(vals_h)
        table.add("gpu", label_s, "-", t_scan, "cupy", median_time(lambda: cp.maximum.accumulate(cv), reps,
                                                                    sync=csync))
        rows += 1
    if torch is not None:
        tv = torch.as_tensor(vals_h, device="cuda")
        table.add("gpu", label_s, "-", t_scan, "torch", median_time(lambda: torch.cummax(tv, 0), reps, sync=tsync),
                  "PyTorch's cummax returns the positions too")
        rows += 1
    if rows == 0:
        table.add("gpu", label_s, "-", t_scan, "none", None)


def bench_gpu(table, quick, allow_emulated=False):
    if not dt.cuda.is_available():
        print(f"\n== GPU: skipped ({dt.cuda.why_unavailable()}) ==")
        return
    if dt.cuda.is_emulated() and not allow_emulated:
        print("\n== GPU: skipped (the CUDA devices are emulated on the CPU: nothing to measure) ==")
        return
    cp = _try_import("cupy")
    torch = _try_import("torch")
    if torch is not None and not torch.cuda.is_available():
        torch = None
    reps = 5 if quick else 15
    name = dt.cuda.get_device_name(0)
    print(f"\n== GPU: {name}; CuPy {'yes' if cp else 'no'}, PyTorch {'yes' if torch else 'no'} ==")
    print(HEADER)
    dsync = dt.cuda.synchronize
    tsync = torch.cuda.synchronize if torch else None
    csync = (lambda: cp.cuda.Device().synchronize()) if cp else None

    def gbps(nbytes, seconds):
        return nbytes / seconds / 1e9

    # -- host <-> device copies, 256 MiB --
    nbytes = 256 * MiB
    host = np.ones(nbytes // 4, dtype=np.float32)
    th = dt.from_numpy(host)
    tpinned = th.pin_memory()
    tdev = th.cuda()
    dsync()
    t_h2d = median_time(lambda: th.cuda(), reps, sync=dsync)
    t_h2d_pin = median_time(lambda: tpinned.cuda(non_blocking=True), reps, sync=dsync)
    t_d2h = median_time(lambda: tdev.cpu(), reps, sync=dsync)
    ref = {}
    if cp is not None:
        rt = cp.cuda.runtime
        dbuf = cp.empty(nbytes // 4, dtype=cp.float32)
        pinned_mem = cp.cuda.alloc_pinned_memory(nbytes)
        hpin = np.frombuffer(pinned_mem, np.float32, nbytes // 4)
        hpin[...] = 1
        hout = np.empty_like(host)
        ref["h2d"] = median_time(lambda: rt.memcpy(dbuf.data.ptr, host.ctypes.data, nbytes,
                                                   rt.memcpyHostToDevice), reps, sync=csync)
        ref["h2d_pin"] = median_time(lambda: rt.memcpy(dbuf.data.ptr, hpin.ctypes.data, nbytes,
                                                       rt.memcpyHostToDevice), reps, sync=csync)
        ref["d2h"] = median_time(lambda: rt.memcpy(hout.ctypes.data, dbuf.data.ptr, nbytes,
                                                   rt.memcpyDeviceToHost), reps, sync=csync)
        del dbuf, pinned_mem, hpin, hout
    for key, label, t in (("h2d", "H2D pageable 256 MiB", t_h2d),
                          ("h2d_pin", "H2D pinned 256 MiB", t_h2d_pin),
                          ("d2h", "D2H pageable 256 MiB (new host array)", t_d2h)):
        r = ref.get(key)
        table.add("gpu", label, "-", gbps(nbytes, t), "cudaMemcpy",
                  gbps(nbytes, r) if r else None, "" if r else "CuPy not importable", kind="GB/s")
    if torch is not None:
        tt = torch.from_numpy(host)
        tt_pin = tt.pin_memory()
        tt_dev = tt.cuda()
        r1 = median_time(lambda: tt.cuda(), reps, sync=tsync)
        r2 = median_time(lambda: tt_pin.cuda(non_blocking=True), reps, sync=tsync)
        r3 = median_time(lambda: tt_dev.cpu(), reps, sync=tsync)
        table.add("gpu", "H2D pageable 256 MiB", "-", gbps(nbytes, t_h2d), "torch",
                  gbps(nbytes, r1), kind="GB/s")
        table.add("gpu", "H2D pinned 256 MiB", "-", gbps(nbytes, t_h2d_pin), "torch",
                  gbps(nbytes, r2), kind="GB/s")
        table.add("gpu", "D2H pageable 256 MiB (new host array)", "-", gbps(nbytes, t_d2h),
                  "torch", gbps(nbytes, r3), kind="GB/s")
        del tt, tt_pin, tt_dev
    del th, tpinned, tdev, host

    # -- .cuda() of a 1 GiB pageable array --
    big = np.ones(GiB // 4, dtype=np.float32)
    tb = dt.from_numpy(big)
    t1 = median_time(lambda: tb.cuda(), max(3, reps // 2), warmup=1, sync=dsync)
    r1 = None
    if torch is not None:
        ttb = torch.from_numpy(big)
        r1 = median_time(lambda: ttb.cuda(), max(3, reps // 2), warmup=1, sync=tsync)
        del ttb
    table.add("gpu", ".cuda() 1 GiB pageable", "-", t1, "torch", r1,
              "" if r1 else "PyTorch not importable")
    del tb, big

    # -- allocation/free pair from the cache (host time per pair) --
    inner = 200 if quick else 1000
    t_alloc = median_time(lambda: dt.empty(MiB, dtype=dt.uint8, device="cuda"), 11, warmup=3,
                          inner=inner)
    if torch is not None:
        r = median_time(lambda: torch.empty(MiB, dtype=torch.uint8, device="cuda"), 11,
                        warmup=3, inner=inner)
        table.add("gpu", "alloc+free 1 MiB (cached)", "-", t_alloc, "torch", r)
    if cp is not None:
        r = median_time(lambda: cp.empty(MiB, dtype=cp.uint8), 11, warmup=3, inner=inner)
        table.add("gpu", "alloc+free 1 MiB (cached)", "-", t_alloc, "cupy", r)
    if torch is None and cp is None:
        table.add("gpu", "alloc+free 1 MiB (cached)", "-", t_alloc, "-", None,
                  "no competitor importable")

    # -- a + b float32 on 2^28 elements vs copy bandwidth, CuPy, PyTorch --
    n = 1 << 28
    x = dt.ones(n, dtype=dt.float32, device="cuda")
    y = dt.ones(n, dtype=dt.float32, device="cuda")
    dsync()
    t_add = median_time(lambda: x + y, reps, sync=dsync)
    t_copy = median_time(lambda: x.copy(), reps, sync=dsync)
    add_bw = gbps(3 * 4 * n, t_add)
    copy_bw = gbps(2 * 4 * n, t_copy)
    table.add("gpu", "a + b 2^28 float32 (bandwidth)", "-", add_bw, "dt D2D copy", copy_bw,
              "target: ratio >= 0.90", kind="GB/s")
    if cp is not None:
        cx = cp.ones(n, dtype=cp.float32)
        cy = cp.ones(n, dtype=cp.float32)
        r = median_time(lambda: cx + cy, reps, sync=csync)
        rc = median_time(lambda: cx.copy(), reps, sync=csync)
        table.add("gpu", "a + b 2^28 float32", "-", t_add, "cupy", r)
        table.add("gpu", "D2D copy 1 GiB", "-", copy_bw, "cupy", gbps(2 * 4 * n, rc),
                  kind="GB/s")
        del cx, cy
        cp.get_default_memory_pool().free_all_blocks()
    if torch is not None:
        tx = torch.ones(n, dtype=torch.float32, device="cuda")
        ty = torch.ones(n, dtype=torch.float32, device="cuda")
        r = median_time(lambda: tx + ty, reps, sync=tsync)
        table.add("gpu", "a + b 2^28 float32", "-", t_add, "torch", r)
        del tx, ty
        torch.cuda.empty_cache()
    del x, y

    bench_gpu_gather(table, reps, dsync, cp, csync, torch, tsync)
    bench_gpu_reductions(table, reps, dsync, cp, csync, torch, tsync, gbps, copy_bw)
    bench_gpu_sort(table, reps, dsync, cp, csync, torch, tsync)
    bench_gpu_matmul(table, reps, dsync, cp, csync, torch, tsync)
    bench_gpu_fft(table, reps, dsync, cp, csync, torch, tsync)
    bench_gpu_eig(table, reps, dsync, cp, csync, torch, tsync)
    bench_gpu_batched_linalg(table, reps, dsync, cp, csync, torch, tsync)
    bench_gpu_ufunc_methods(table, reps, dsync, cp, csync, torch, tsync)
    bench_nn(table, "cuda:0", reps, dsync, torch, tsync, quick=quick)

    # -- a small op from Python: host time per call --
    xs = dt.ones(16, dtype=dt.float32, device="cuda")
    ys = dt.ones(16, dtype=dt.float32, device="cuda")
    inner = 500 if quick else 2000
    t_small = median_time(lambda: xs + ys, 11, warmup=3, inner=inner)
    dsync()
    if torch is not None:
        txs = torch.ones(16, device="cuda")
        tys = torch.ones(16, device="cuda")
        r = median_time(lambda: txs + tys, 11, warmup=3, inner=inner)
        torch.cuda.synchronize()
        table.add("gpu", "a + b 16 float32 (host time per call)", "-", t_small, "torch", r)
    if cp is not None:
        cxs = cp.ones(16, dtype=cp.float32)
        cys = cp.ones(16, dtype=cp.float32)
        r = median_time(lambda: cxs + cys, 11, warmup=3, inner=inner)
        cp.cuda.Device().synchronize()
        table.add("gpu", "a + b 16 float32 (host time per call)", "-", t_small, "cupy", r)
    if torch is None and cp is None:
        table.add("gpu", "a + b 16 float32 (host time per call)", "-", t_small, "-", None,
                  "no competitor importable")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cpu", action="store_true", help="CPU benchmarks vs NumPy")
    p.add_argument("--gpu", action="store_true", help="GPU benchmarks vs CuPy and PyTorch")
    p.add_argument("--quick", action="store_true", help="fewer repetitions")
    p.add_argument("--json", metavar="PATH", help="write every number and machine info")
    p.add_argument("--allow-emulated", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if not args.cpu and not args.gpu:
        args.cpu = True
    info = machine_info()

    def write_json(rows):
        if not args.json:
            return
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"machine": info, "quick": args.quick, "results": rows}, f, indent=2)
        os.replace(tmp, args.json)

    table = Table(on_row=write_json)
    print(f"devtensor {info['devtensor']}, NumPy {info['numpy']}, {info['cpu_model']}, "
          f"{info['cpus_available']} CPUs available; ratio > 1: devtensor faster")
    load = info.get("loadavg_at_start")
    if load and load[0] > 0.5:
        print(f"note: load average {load[0]:.2f} at start: other processes share the CPUs, so "
              f"multithreaded timings understate the speedup")
    if args.cpu:
        bench_cpu(table, args.quick)
    if args.gpu:
        if dt.cuda.is_available() and (not dt.cuda.is_emulated() or args.allow_emulated):
            info["gpu"] = dt.cuda.get_device_name(0)
            for mod in ("cupy", "torch"):
                m = sys.modules.get(mod) or _try_import(mod)
                if m is not None:
                    info[mod] = getattr(m, "__version__", None)
        bench_gpu(table, args.quick, args.allow_emulated)
    try:
        info["loadavg_at_end"] = list(os.getloadavg())
    except OSError:  # pragma: no cover
        pass
    if args.json:
        write_json(table.rows)
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
