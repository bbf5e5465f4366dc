"""The CPU thread pool: big elementwise ops and fills split across threads give
the same bits as one thread, the thread count round-trips, bad counts are
errors, and a forked child still computes (csrc/cpu/cpu_parallel.c)."""
import contextlib
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, run_python

_set = getattr(dt, "set_num_threads", None) or getattr(dt._C, "_set_num_threads", None)
_get = getattr(dt, "get_num_threads", None) or getattr(dt._C, "_get_num_threads", None)

pytestmark = pytest.mark.skipif(_set is None or _get is None,
                                reason="set_num_threads/get_num_threads not built in")

# Above the split thresholds of loops (2^17 elements) and random draws, and
# not a multiple of any chunk size; fills split from 2^19 elements.
N = (1 << 18) + 37
N_FILL = (1 << 20) + 37
MANY = 4  # more threads than this machine may have cores: chunks still disjoint


@contextlib.contextmanager
def num_threads(n):
    old = _get()
    _set(n)
    try:
        yield
    finally:
        _set(old)


def both(fn):
    """fn() run with 1 thread and with MANY threads, as NumPy arrays."""
    with num_threads(1):
        one = np.asarray(fn().cpu())
    with num_threads(MANY):
        many = np.asarray(fn().cpu())
    return one, many


def same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def _operands(rng, kind, dtype, device):
    """Big operands in several layouts; returns (x, y, numpy_x, numpy_y)."""
    if kind == "contiguous":
        a, b = rng.standard_normal(N), rng.standard_normal(N)
    elif kind == "strided":  # every other element, one of them reversed
        a, b = rng.standard_normal(2 * N)[::2], rng.standard_normal(2 * N)[::-2]
    elif kind == "transposed":  # (701, 397) read column-major
        a, b = rng.standard_normal((397, 701)).T, rng.standard_normal((701, 397))
    elif kind == "broadcast_rows":  # (3, N/3) + (N/3,): few long rows
        a, b = rng.standard_normal((3, N // 3)), rng.standard_normal(N // 3)
    else:  # "broadcast_outer": (601, 1) + (1, 523)
        a, b = rng.standard_normal((601, 1)), rng.standard_normal((1, 523))
    a = (a * 100).astype(dtype)
    b = (b * 100).astype(dtype)
    if kind in ("strided", "transposed"):
        x = dt.from_numpy(a) if device == "cpu" else dt.asarray(a).to(device)
        if kind == "transposed" and device == "cpu":
            assert not x.is_contiguous()
    else:
        x = dt.asarray(a).to(device)
    return x, dt.asarray(b).to(device), a, b


KINDS = ["contiguous", "strided", "transposed", "broadcast_rows", "broadcast_outer"]


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16"])
def test_binary_ops_same_bits(device, kind, dtype):
    rng = np.random.default_rng(0)
    x, y, a, b = _operands(rng, kind, dtype, device)
    with np.errstate(over="ignore"):  # float16 products overflow to inf, as they should
        refs = [a + b, a * b, a < b, a - b]
    for fn, ref in zip([lambda: x + y, lambda: x * y, lambda: x < y, lambda: x - y], refs):
        one, many = both(fn)
        same_bits(one, many)
        np.testing.assert_array_equal(one, ref)


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("kind", ["contiguous", "strided", "transposed"])
@pytest.mark.parametrize("to", ["float16", "int32", "complex128", "bool", "uint8"])
def test_casts_same_bits(device, kind, to):
    rng = np.random.default_rng(1)
    x, _, a, _ = _operands(rng, kind, "float64", device)
    one, many = both(lambda: x.astype(to))
    same_bits(one, many)
    with np.errstate(invalid="ignore", over="ignore"):
        np.testing.assert_array_equal(one, a.astype(to))


@pytest.mark.parametrize("device", ALL_DEVICES)
@pytest.mark.parametrize("kind", ["contiguous", "transposed", "broadcast_outer"])
def test_functions_same_bits(device, kind):
    """Unary functions, a ternary where and a 4-operand loop split like the rest."""
    rng = np.random.default_rng(2)
    x, y, _, _ = _operands(rng, kind, "float64", device)
    fns = [lambda f=getattr(dt, name): f(x) for name in ("exp", "sin", "sqrt", "negative")
           if hasattr(dt, name)]
    if hasattr(dt, "where"):
        fns.append(lambda: dt.where(x < y, x, y))
    if not fns:
        pytest.skip("no elementwise functions built in yet")
    for fn in fns:
        with np.errstate(invalid="ignore"):
            one, many = both(fn)
        same_bits(one, many)


@pytest.mark.parametrize("device", ALL_DEVICES)
def test_generation_same_bits(device):
    def draws():
        out = []
        for dtype in (dt.float32, dt.float64, dt.float16):
            dt.random.seed(1234)
            out.append(dt.rand(N, dtype=dtype, device=device))
            out.append(dt.randn(N, dtype=dtype, device=device))
        dt.random.seed(99)
        out.append(dt.randint(-1000, 1000, (N,), device=device))
        out.append(dt.arange(N, device=device))
        out.append(dt.arange(0.5, N, 1.5, dtype=dt.float32, device=device))
        out.append(dt.linspace(-3, 7, N, device=device))
        out.append(dt.full((N_FILL,), 2.5, dtype=dt.float32, device=device))
        out.append(dt.ones((N_FILL,), dtype=dt.complex128, device=device))
        return [np.asarray(t.cpu()) for t in out]

    with num_threads(1):
        one = draws()
    with num_threads(MANY):
        many = draws()
    for a, b in zip(one, many):
        same_bits(a, b)
    np.testing.assert_array_equal(one[-5], np.arange(N))
    np.testing.assert_array_equal(one[-2], np.full(N_FILL, 2.5, np.float32))
    np.testing.assert_array_equal(one[-1], np.ones(N_FILL, np.complex128))


def test_get_set_round_trip():
    old = _get()
    assert isinstance(old, int) and old >= 1
    try:
        for n in (1, 2, 3, 7, old):
            _set(n)
            assert _get() == n
    finally:
        _set(old)


@pytest.mark.parametrize("bad", [0, -1, -(2 ** 70), 2 ** 70, 100000])
def test_bad_counts_are_value_errors(bad):
    old = _get()
    with pytest.raises(ValueError, match="number of threads"):
        _set(bad)
    assert _get() == old


@pytest.mark.parametrize("bad", [2.0, "2", None, True])
def test_bad_types_are_type_errors(bad):
    old = _get()
    with pytest.raises(TypeError):
        _set(bad)
    assert _get() == old


def test_default_from_environment():
    code = ("import devtensor as dt; g = getattr(dt, 'get_num_threads', None) or "
            "dt._C._get_num_threads; print(g())")
    env = dict(os.environ, DEVTENSOR_NUM_THREADS="3")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3"
    env["DEVTENSOR_NUM_THREADS"] = "nonsense"  # ignored: the CPUs available
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert int(out.stdout) == min(expected, 1024)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_forked_child_computes():
    a = np.arange(N, dtype=np.float64)
    x = dt.asarray(a)
    with num_threads(MANY):
        np.testing.assert_array_equal(np.asarray(x + x), a + a)  # the pool now exists
        pid = os.fork()
        if pid == 0:  # the child: only this thread exists; big ops must still work
            code = 1
            try:
                ok = np.array_equal(np.asarray(x * x), a * a)
                ok = ok and np.array_equal(np.asarray(x + 1.0), a + 1.0)
                _set(MANY)
                ok = ok and np.array_equal(np.asarray(x - x), np.zeros(N))
                code = 0 if ok else 1
            finally:
                os._exit(code)
        deadline = time.monotonic() + 60
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                pytest.fail("the forked child hung")
            time.sleep(0.01)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        # the parent's pool still works
        np.testing.assert_array_equal(np.asarray(x * 3.0), a * 3.0)


def test_concurrent_python_threads():
    """Two threads running big ops at once (the GIL is released): the pool
    serves one, the other runs inline; both get the right answers."""
    a = np.arange(N, dtype=np.float32)
    x = dt.asarray(a)
    errors = []

    def work(k):
        try:
            for _ in range(20):
                got = np.asarray(x * float(k))
                if not np.array_equal(got, a * np.float32(k)):
                    errors.append(k)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    with num_threads(MANY):
        threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc/self/task")
def test_pool_starts_lazily():
    """No thread at import or for small ops; workers appear on the first big op."""
    code = """if True:
        import os
        import numpy as np
        tasks = lambda: len(os.listdir("/proc/self/task"))
        base = tasks()
        import devtensor as dt
        s = getattr(dt, "set_num_threads", None) or dt._C._set_num_threads
        s(3)
        x = dt.asarray(np.ones(1000))
        y = x + x
        small = tasks()
        x = dt.asarray(np.ones(1 << 20))
        y = x + x
        print(base, small, tasks())
    """
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    base, small, big = map(int, out.stdout.split())
    assert small == base
    assert big == base + 2


@pytest.mark.parametrize("omp, devtensor_threads, expected", [
    ("1", None, "1"), ("3,2", None, "3"), ("abc", None, "cpus"), ("0", None, "cpus"),
    ("1", "2", "2"),
])
def test_thread_count_follows_omp_num_threads(omp, devtensor_threads, expected):
    """Note [OMP_NUM_THREADS]: the default count, below DEVTENSOR_NUM_THREADS;
    a value that is not a count is OpenMP's business, ignored silently."""
    env = {"OMP_NUM_THREADS": omp}
    remove = ("DEVTENSOR_EMULATE_CUDA", "DEVTENSOR_NUM_THREADS")
    if devtensor_threads:
        env["DEVTENSOR_NUM_THREADS"] = devtensor_threads
    r = run_python("import os, warnings\nwarnings.simplefilter('error')\nimport devtensor as dt\n"
                   "print(dt.get_num_threads(), min(len(os.sched_getaffinity(0)), 1024))",
                   env_update=env, remove=remove)
    assert r.returncode == 0, r.stderr
    got, cpus = r.stdout.split()
    assert got == (cpus if expected == "cpus" else expected)
