"""The four exercises of D2L's "GPUs" section, timed on every device found:
bench/d2l_exercises.py prints them as a table, and `python -m devtensor`
runs a quick version.  Each exercise returns rows of
(exercise, device, measurement, value, unit); nothing here asserts a time.

Note [What the exercise figures mean]
Without a GPU every row is the CPU's (and the two-GPU exercise says it
needs two GPUs).  On emulated devices (DEVTENSOR_EMULATE_CUDA) the CUDA
backend runs on the CPU as reference loops: the rows show that the code
runs, not how fast a GPU is.  Only figures from a real GPU say anything
about GPUs.
"""
import time

from . import _C, cuda, linalg, nn
from ._creation import ones
from ._d2l import try_all_gpus
from ._manipulation import stack
from .random import rand


def _sync(dev):
    if dev.type == "cuda":
        cuda.synchronize(dev)


def _best(fn, dev, repeat=3, number=1):
    """Seconds per call of fn(): the fastest of `repeat` runs of `number`
    calls, the device synchronised before and after each run."""
    fn()  # warm-up: libraries, plans, caches
    best = float("inf")
    for _ in range(repeat):
        _sync(dev)
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        _sync(dev)
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def devices():
    found = try_all_gpus()
    return found + ([_C.device("cpu")] if found[0].type != "cpu" else [])


def exercise1(dev, quick):
    """Large matrix products against many small operations."""
    n = 200 if quick or cuda.is_emulated() and dev.type == "cuda" else 1000
    a = rand(n, n, device=dev, dtype=_C.float32)
    big = _best(lambda: [a @ a for _ in range(10)], dev)
    b = rand(10, device=dev, dtype=_C.float32)

    def small():
        x = b
        for _ in range(1000):
            x = x * 1.0001 + 0.5
    tiny = _best(small, dev)
    return [("1", str(dev), f"10 products {n}x{n} float32", 20 * n ** 3 / big / 1e9, "GFLOP/s"),
            ("1", str(dev), "2000 operations on 10 elements", tiny / 2000 * 1e6, "us/op")]


def exercise2(dev, quick):
    """Reading and writing a model's parameters on the device."""
    n = 256 if quick else 1024
    net = nn.Linear(n, n, device=dev)
    weight = net.weight
    host = net.state_dict()["weight"].cpu().copy()  # host tensors of their own (on the cpu,
    state = {"weight": host, "bias": net.bias.cpu().copy()}  # .cpu() returns the parameter)
    reps = 10 if quick else 100
    read = _best(lambda: net.weight.data.cpu(), dev, number=reps)
    first = _best(lambda: float(net.weight[0, 0]), dev, number=reps)
    write = _best(lambda: net.weight.data.__setitem__((slice(None),), 0.5), dev, number=reps)
    init = _best(lambda: nn.init.normal_(net.weight, 0, 0.01), dev, number=reps)
    load = _best(lambda: net.load_state_dict(state), dev, number=reps)
    assert net.weight is weight and weight.device == dev  # written in place, on the device
    return [("2", str(dev), f"read a {n}x{n} weight to the host (.cpu())", read * 1e6, "us"),
            ("2", str(dev), "read one element (float(w[0, 0]))", first * 1e6, "us"),
            ("2", str(dev), "write every element in place (w.data[:] = 0.5)", write * 1e6, "us"),
            ("2", str(dev), "re-initialise in place (nn.init.normal_)", init * 1e6, "us"),
            ("2", str(dev), "load_state_dict from host tensors", load * 1e6, "us")]


def exercise3(dev, quick, n=100):
    """1000 products of 100x100, the Frobenius norm logged to the host each
    step or kept on the device and moved once."""
    steps = 100 if quick else 1000
    a, b = rand(n, n, device=dev), rand(n, n, device=dev)
    logged = []
    kept = []

    def to_host_each_step():
        logged[:] = [float(linalg.norm(a @ b)) for _ in range(steps)]

    def on_device():
        kept[:] = [stack([linalg.norm(a @ b) for _ in range(steps)]).cpu()]
    host = _best(to_host_each_step, dev)
    device = _best(on_device, dev)
    assert abs(logged[-1] - float(kept[0][-1])) <= 1e-9 * logged[-1]
    return [("3", str(dev), f"{steps} steps, norm to the host each step", host * 1e3, "ms"),
            ("3", str(dev), f"{steps} steps, log kept on the device", device * 1e3, "ms"),
            ("3", str(dev), "host-each-step time / kept-on-device time", host / device, "x")]


def exercise4(quick):
    """Two products on two GPUs at once against one after the other on one."""
    if cuda.device_count() < 2:
        return [("4", "-", "needs two GPUs", float("nan"), "")]
    n = 300 if quick or cuda.is_emulated() else 4000
    d0, d1 = _C.device("cuda:0"), _C.device("cuda:1")
    x0, x1 = ones(n, n, device=d0, dtype=_C.float32), ones(n, n, device=d1, dtype=_C.float32)
    x0 @ x0, x1 @ x1

    def sync_both():
        cuda.synchronize(d0)
        cuda.synchronize(d1)

    def one():
        x0 @ x0
        x0 @ x0
        sync_both()

    def two():
        x0 @ x0
        x1 @ x1
        sync_both()
    serial = _best(one, d0)
    parallel = _best(two, d0)
    return [("4", "cuda:0", f"two {n}x{n} products, one after the other", serial * 1e3, "ms"),
            ("4", "cuda:0+1", "one product on each GPU at once", parallel * 1e3, "ms"),
            ("4", "cuda:0+1", "speed-up (2 is linear)", serial / parallel, "x")]


def run(quick=False):
    rows = []
    for dev in devices():
        rows += exercise1(dev, quick) + exercise2(dev, quick) + exercise3(dev, quick)
    return rows + exercise4(quick)


def format_table(rows):
    lines = [f"{'ex':>2}  {'device':<9} {'measurement':<52} {'value':>11}  unit"]
    for ex, dev, what, value, unit in rows:
        lines.append(f"{ex:>2}  {dev:<9} {what:<52} {value:>11.4g}  {unit}")
    return "\n".join(lines)


def meaning():
    """Note [What the exercise figures mean], for the device at hand."""
    if cuda.device_count() == 0:
        return ("No GPU: every row is the CPU's. On a GPU, exercise 1's large products run far "
                "faster than here while its small operations cost about the same launch time, "
                "and exercise 3's host logging stalls the GPU at every step.")
    if cuda.is_emulated():
        return ("Emulated CUDA devices: the CUDA backend ran on the CPU as reference loops. The "
                "rows show that the code runs on CUDA devices, not how fast a GPU is.")
    return "Measured on real GPUs."
