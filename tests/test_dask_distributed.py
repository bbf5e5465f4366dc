"""devtensor tensors in dask.distributed (devtensor/_dask_distributed.py):
serialisation (Note [Tensors between processes]), processes bound to one
CUDA device (Note [A process bound to one CUDA device]), and a two-worker
LocalCluster on loopback, run in a child process with a time limit."""
import pickle

import numpy as np
import pytest

from helpers import CUDA_DEVICES, requires_devices, run_python

pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import devtensor as dt  # noqa: E402
from devtensor import _pickle  # noqa: E402
from distributed.protocol import deserialize, serialize  # noqa: E402

VALUES = np.random.default_rng(2).standard_normal((5, 7))


def roundtrip(t):
    header, frames = serialize(t, serializers=("dask",))
    assert header["serializer"] == "dask"
    return deserialize(header, frames), header, frames


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint64", "bool", "complex64",
                                   "float16", "bfloat16"])
def test_tensors_travel_as_their_bytes(device, dtype):
    t = dt.asarray(VALUES * 3, device=device).astype(dt.dtype(dtype))
    back, header, frames = roundtrip(t)
    assert isinstance(back, dt.Tensor) and back.device == t.device and back.dtype == t.dtype
    assert len(frames) == 1 and header["sub-header"]["shape"] == [5, 7]
    assert header["sub-header"]["device"] == str(t.device)
    assert bool(dt.all(back == t))


def test_views_scalars_and_empty_tensors(device):
    base = dt.asarray(VALUES, device=device)
    for t in (base.T, base[::2, 1::3], base[3, 4], dt.zeros((0, 4), device=device)):
        back, _, _ = roundtrip(t)
        assert back.shape == t.shape and back.device == t.device
        np.testing.assert_array_equal(back.cpu().numpy(), t.cpu().numpy())
    back, _, _ = roundtrip(base)
    back[0, 0] = 99.0  # writable, and not the sender's memory
    assert float(base[0, 0]) == VALUES[0, 0]


def test_a_process_without_the_device_says_so():
    header, frames = serialize(dt.ones(3), serializers=("dask",))
    header = dict(header, **{"sub-header": dict(header["sub-header"], device="cuda:7")})
    with pytest.raises(RuntimeError, match="cannot load a tensor onto cuda:7 in this process"):
        deserialize(header, frames)


@requires_devices(2)
def test_a_bound_process_receives_cuda_tensors_on_its_device():
    t0, c = dt.asarray(VALUES, device="cuda:0"), dt.asarray(VALUES)
    try:
        _pickle.bind_cuda("cuda:1")
        assert pickle.loads(pickle.dumps(t0)).device == dt.device("cuda:1")
        assert roundtrip(t0)[0].device == dt.device("cuda:1")
        assert pickle.loads(pickle.dumps(c)).device == dt.device("cpu")  # CPU stays
        with dt.map_location("cuda:0"):  # map_location wins
            assert pickle.loads(pickle.dumps(t0)).device == dt.device("cuda:0")
    finally:
        _pickle.bind_cuda(None)
    assert pickle.loads(pickle.dumps(t0)).device == dt.device("cuda:0")


def test_binding_checks_its_device():
    with pytest.raises(ValueError, match="CUDA device, not cpu"):
        _pickle.bind_cuda("cpu")
    with pytest.raises(RuntimeError):
        _pickle.bind_cuda("cuda:9")
    assert _pickle._bound_cuda is None
    with pytest.raises(ValueError, match="CUDA devices, not cpu"):
        dt.dask.BindDevice(["cpu"])
    with pytest.raises(ValueError, match="at least one"):
        dt.dask.BindDevice([])


class _Worker:
    def __init__(self, name):
        self.name = name


@requires_devices(2)
def test_bind_device_picks_by_worker_number_and_needs_numbered_workers():
    plugin = dt.dask.BindDevice(["cuda:0", "cuda:1"])
    try:
        w = _Worker(3)
        plugin.setup(w)
        assert w.devtensor_device == "cuda:1" and _pickle._bound_cuda == dt.device("cuda:1")
        with pytest.raises(ValueError, match=r"needs workers named 0, 1, \.\.\. \(LocalCluster's names\); worker 'alice' is not"):
            plugin.setup(_Worker("alice"))
    finally:
        plugin.teardown(None)
    assert _pickle._bound_cuda is None


CLUSTER = r"""
import numpy as np, dask.array as da, devtensor as dt
from distributed import Client, LocalCluster
devices = {devices!r}
a = np.random.default_rng(5).standard_normal((400, 300))
with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                  dashboard_address=":0", env={env!r}) as cluster, Client(cluster) as client:
    if devices[0] != "cpu":
        client.register_plugin(dt.dask.BindDevice(devices))
        print("bound", sorted(client.run(lambda dask_worker: dask_worker.devtensor_device).values()))
    x = da.from_array(dt.asarray(a, device=devices[0]), chunks=(100, 150))
    s = x.sum().compute()
    p = (x @ x.T).compute()
    m = x.mean(axis=0).compute()
    assert isinstance(s, dt.Tensor) and isinstance(p, dt.Tensor), (type(s), type(p))
    np.testing.assert_allclose(float(s), a.sum(), rtol=1e-10)
    np.testing.assert_allclose(p.cpu().numpy(), a @ a.T, rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(m.cpu().numpy(), a.mean(axis=0), rtol=1e-10, atol=1e-12)
    where = x.map_blocks(lambda b: dt.full((1, 1), float(b.device.index if b.device.type == "cuda" else -1)),
                         chunks=(1, 1), dtype=float).compute()
    print("chunk devices", sorted(set(where.cpu().numpy().ravel().tolist())))
    workers = client.run(lambda: __import__("devtensor").__name__)
    print("workers", len(workers))
    {extra}
print("ok")
"""

MISSING = r"""
    from distributed.protocol import deserialize, serialize
    header, frames = serialize(dt.ones(4, device="cuda:1"), serializers=("dask",))
    frames = [bytes(f) for f in frames]
    try:
        client.run(lambda: deserialize(header, frames))
    except RuntimeError as e:
        print("refused:", str(e).split(":")[0])
"""


def run_cluster(devices, env, extra=""):
    code = CLUSTER.format(devices=devices, env=env, extra=extra.strip() or "pass")
    r = run_python(code, remove=(), timeout=240)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr[-4000:]
    return r.stdout


def test_two_worker_cluster_on_the_cpu():
    out = run_cluster(["cpu"], {})
    assert "chunk devices [-1.0]" in out and "workers 2" in out


@requires_devices(2)
def test_two_worker_cluster_bound_to_two_devices():
    """Workers bound to cuda:0 and cuda:1 (emulated in CI): the chunks sent
    from the client (cuda:0) land on each worker's device, results
    travel between them, and the answers are NumPy's."""
    out = run_cluster(CUDA_DEVICES[:2], {})
    assert "bound ['cuda:0', 'cuda:1']" in out
    assert "chunk devices [0.0, 1.0]" in out, out


@requires_devices(2)
def test_workers_without_the_device_refuse_its_tensors():
    """Workers with one emulated device decode a cuda:1 tensor: the error
    says so, and reaches the client (client.run).  Inside a task graph such
    a tensor stops the worker's connection instead: distributed treats
    undecodable messages so (Note [Tensors between processes])."""
    if not dt.cuda.is_emulated():
        pytest.skip("needs emulated devices, to give the workers fewer than the client")
    out = run_cluster(["cpu"], {"DEVTENSOR_EMULATE_CUDA": "1"}, MISSING)
    assert "refused: cannot load a tensor onto cuda" in out, out


def test_example_and_benchmark_run():
    """examples/dask.py and bench/dask_sum.py, small, as a user runs them."""
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {k: v for k, v in os.environ.items() if k != "DEVTENSOR_EMULATE_CUDA"}
    for args in (["examples/dask.py", "--quick"], ["bench/dask_sum.py", "--n", "2000000", "--repeat", "2"]):
        r = subprocess.run([sys.executable, *args], cwd=root, capture_output=True, text=True,
                           timeout=240, env=env)
        assert r.returncode == 0, r.stdout + r.stderr[-3000:]
        assert "devtensor chunks" in r.stdout, r.stdout
