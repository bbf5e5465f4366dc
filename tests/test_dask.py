"""devtensor tensors as Dask chunks (devtensor/dask.py): chunk types kept
through Dask's algorithms, NumPy's answers (Dask with NumPy chunks as the
oracle where Dask's own algorithm is approximate), the "devtensor" array
backend, registration in either import order.  What Dask relies on in
devtensor is tested beside its kind: np.dtype of a devtensor dtype in
test_dtype.py, like= and interp in test_numpy_functions.py."""
import numpy as np
import pytest

from helpers import run_python

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import devtensor as dt  # noqa: E402

A = np.random.default_rng(7).standard_normal((12, 10))


def chunked(device, a=A, chunks=(5, 4)):
    return da.from_array(dt.asarray(a, device=device), chunks=chunks)


def check(result, expected, device, rtol=1e-12):
    """result: a Dask array of devtensor chunks on `device`; its value NumPy's."""
    assert isinstance(result._meta, dt.Tensor), type(result._meta)
    value = result.compute()
    assert isinstance(value, dt.Tensor), type(value)
    assert value.device == dt.device(device)
    np.testing.assert_allclose(value.cpu().numpy(), expected, rtol=rtol, atol=1e-12)


def test_from_array_keeps_tensor_chunks_and_meta_on_the_device(device):
    x = chunked(device)
    assert isinstance(x._meta, dt.Tensor) and x._meta.device == dt.device(device)
    assert x.dtype == np.float64 and x.numblocks == (3, 3)
    block = x.blocks[1, 2].compute()
    assert isinstance(block, dt.Tensor) and block.device == dt.device(device)
    np.testing.assert_array_equal(block.cpu().numpy(), A[5:10, 8:])


@pytest.mark.parametrize("name, fn, expected", [
    ("sum", lambda x: x.sum(), A.sum()),
    ("sum axis 0", lambda x: x.sum(axis=0), A.sum(axis=0)),
    ("mean axis 1", lambda x: x.mean(axis=1), A.mean(axis=1)),
    ("std", lambda x: x.std(), A.std()),
    ("var ddof", lambda x: x.var(axis=0, ddof=1), A.var(axis=0, ddof=1)),
    ("argmax", lambda x: x.argmax(), A.argmax()),
    ("argmin axis 1", lambda x: x.argmin(axis=1), A.argmin(axis=1)),
    ("max axis 0", lambda x: x.max(axis=0), A.max(axis=0)),
    ("prod", lambda x: (x / 2 + 1).prod(axis=1), (A / 2 + 1).prod(axis=1)),
    ("nanmean", lambda x: da.nanmean(x, axis=0), A.mean(axis=0)),
    ("any", lambda x: (x > 2.5).any(axis=1), (A > 2.5).any(axis=1)),
    ("cumsum", lambda x: x.cumsum(axis=0), A.cumsum(axis=0)),
])
def test_reductions_give_numpys_answers(device, name, fn, expected):
    check(fn(chunked(device)), expected, device)


@pytest.mark.parametrize("name, fn, expected", [
    ("matmul", lambda x: x @ x.T, A @ A.T),
    ("tensordot", lambda x: da.tensordot(x, x, axes=((0,), (0,))), np.tensordot(A, A, axes=((0,), (0,)))),
    ("einsum", lambda x: da.einsum("ij,kj->ik", x, x), A @ A.T),
    ("dot vector", lambda x: x.dot(x[0]), A @ A[0]),
])
def test_products_give_numpys_answers(device, name, fn, expected):
    check(fn(chunked(device)), expected, device, rtol=1e-10)


@pytest.mark.parametrize("name, fn, expected", [
    ("slice", lambda x: x[2:11:3, ::-2], A[2:11:3, ::-2]),
    ("integer index", lambda x: x[[0, 7, 3]], A[[0, 7, 3]]),
    ("mask", lambda x: x[x[:, 0] > 0], A[A[:, 0] > 0]),
    ("rechunk", lambda x: x.rechunk((12, 3)), A),
    ("transpose reshape", lambda x: x.T.reshape(5, 2, 12), A.T.reshape(5, 2, 12)),
    ("concatenate", lambda x: da.concatenate([x, x[:3]], axis=0), np.concatenate([A, A[:3]])),
    ("stack", lambda x: da.stack([x, -x]), np.stack([A, -A])),
    ("expression", lambda x: (x * 2 + 1) ** 2 - abs(x), (A * 2 + 1) ** 2 - abs(A)),
    ("numpy ufunc", lambda x: np.exp(x) + np.sin(x), np.exp(A) + np.sin(A)),
    ("devtensor ufunc", lambda x: dt.exp(x) + dt.sin(x), np.exp(A) + np.sin(A)),
    ("map_blocks", lambda x: x.map_blocks(dt.exp), np.exp(A)),
    ("where", lambda x: da.where(x > 0, x, 0.0), np.where(A > 0, A, 0.0)),
    ("clip", lambda x: x.clip(-1, 1), A.clip(-1, 1)),
])
def test_elementwise_slicing_and_rechunking(device, name, fn, expected):
    check(fn(chunked(device)), expected, device)


def test_devtensor_ufuncs_stay_lazy_on_dask_arrays(device):
    """Note [Operands that override ufuncs]: dt.sin(dask array) is a Dask
    array (NumPy's ufuncs behave so), not a computed tensor."""
    x = chunked(device)
    for y in (dt.sin(x), dt.add(x, 1.0), dt.multiply(2.0, x), dt.maximum(x, x.T.T)):
        assert isinstance(y, da.Array) and isinstance(y._meta, dt.Tensor)
    check(dt.hypot(x, 1.0), np.hypot(A, 1.0), device)


def test_mixing_dask_arrays_and_tensors(device):
    """A tensor beside a Dask array of tensors joins it (registered chunk type)."""
    x = chunked(device)
    row = dt.asarray(A[0], device=device)
    y = x + row
    assert isinstance(y, da.Array)
    check(y, A + A[0], device)


def test_percentile_matches_dask_with_numpy_chunks(device):
    x = chunked(device).ravel()
    got = da.percentile(x, [5, 50, 95])
    expected = da.percentile(da.from_array(A, chunks=(5, 4)).ravel(), [5, 50, 95]).compute()
    check(got, expected, device)


def test_reduction_errors_and_empty_arrays_as_with_numpy_chunks(device):
    x = chunked(device)
    with pytest.raises(ValueError):
        x.sum(axis=2)
    e = da.from_array(dt.zeros((0, 3), device=device), chunks=2)
    n = da.from_array(np.zeros((0, 3)), chunks=2)
    for f in (lambda a: a.sum(axis=0), lambda a: a.max(axis=0), lambda a: a.mean(axis=1)):
        got, expected = f(e).compute(), f(n).compute()
        assert isinstance(got, dt.Tensor) and got.shape == expected.shape


def test_to_numpy_and_from_numpy_backends(device):
    x = chunked(device)
    back = x.to_backend("numpy")
    assert isinstance(back._meta, np.ndarray)
    np.testing.assert_array_equal(back.compute(), A)
    y = da.from_array(A, chunks=(5, 4)).to_backend("devtensor", device=device)
    assert isinstance(y._meta, dt.Tensor) and y._meta.device == dt.device(device)
    check(y.sum(axis=1), A.sum(axis=1), device)
    assert x.to_backend("devtensor") is x


def test_the_devtensor_array_backend(device):
    meta = dt.empty((), device=device)
    with dask.config.set({"array.backend": "devtensor"}):
        ones = da.ones((7, 5), chunks=3)
        assert isinstance(ones._meta, dt.Tensor) and ones._meta.device == dt.device("cpu")
        check(ones.sum(axis=0), np.full(5, 7.0), "cpu")
        check(da.zeros((4, 6), chunks=(2, 3), meta=meta, dtype="int32"), np.zeros((4, 6)), device)
        full = da.full((5,), 2.5, chunks=2, meta=meta)
        check(full * 2, np.full(5, 5.0), device)
        check(da.arange(3, 20, 2, chunks=4, like=meta), np.arange(3, 20, 2), device)
        assert da.empty((3, 3), chunks=2, meta=meta).compute().shape == (3, 3)


def test_dask_random_with_the_devtensor_backend():
    with dask.config.set({"array.backend": "devtensor"}):
        rng = da.random.default_rng(42)
        x = rng.random((1000,), chunks=100)
        v = x.compute()
        assert isinstance(v, dt.Tensor) and v.shape == (1000,)
        w = v.numpy()
        assert 0 <= w.min() and w.max() < 1 and abs(w.mean() - 0.5) < 0.05
        # the same seed gives the same chunks; chunks are independent streams
        again = da.random.default_rng(42).random((1000,), chunks=100).compute().numpy()
        np.testing.assert_array_equal(w, again)
        assert not np.array_equal(w[:100], w[100:200])
        n = da.random.default_rng(1).standard_normal((400, 50), chunks=(100, 50)).compute().numpy()
        assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
        legacy = da.random.RandomState(3).normal(10.0, 2.0, size=(500,), chunks=100).compute()
        assert isinstance(legacy, dt.Tensor) and abs(float(legacy.mean()) - 10) < 0.5
        ints = da.random.RandomState(3).randint(0, 5, size=(200,), chunks=50).compute().numpy()
        assert set(np.unique(ints)) <= set(range(5))


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_dask_random_chunks_on_the_creating_threads_default_device(scheduler):
    """Note [Random chunks on the creating thread's device]: with a default
    device set, random chunks made in Dask's worker threads land there too."""
    from helpers import CUDA_DEVICES
    if not CUDA_DEVICES:
        pytest.skip("needs CUDA devices (real or emulated)")
    device = CUDA_DEVICES[-1]
    with dt.device(device), dask.config.set({"array.backend": "devtensor"}, scheduler=scheduler, num_workers=4):
        for r in (da.random.default_rng(0).standard_normal((40, 4), chunks=(10, 4)),
                  da.random.RandomState(0).normal(size=(40, 4), chunks=(10, 4))):
            assert r._meta.device == dt.device(device)
            out = (r + dt.ones(4)).sum(axis=0).compute()
            assert out.device == dt.device(device)
        on_device = da.random.default_rng(5).random(30, chunks=10).compute()
    with dask.config.set({"array.backend": "devtensor"}, scheduler=scheduler):
        on_cpu = da.random.default_rng(5).random(30, chunks=10).compute()
    assert on_device.device == dt.device(device) and on_cpu.device == dt.device("cpu")
    np.testing.assert_array_equal(on_device.cpu().numpy(), on_cpu.numpy())  # one seed, one stream
    import pickle  # the per-device classes are named in devtensor.dask: pickles name them
    from devtensor import dask as dtdask
    bound = dtdask._bound(dt.random.Philox, dt.device(device))
    assert pickle.loads(pickle.dumps(bound)) is bound and bound.device == dt.device(device)
    assert getattr(dtdask, "RandomState_on_" + device.replace(":", "_")).device == dt.device(device)


def test_random_bit_generator_and_legacy_state():
    """devtensor.random.Philox (Dask's default_bit_generator) and RandomState."""
    p = dt.random.Philox(5)
    a = dt.random.default_rng(p).random(4)
    np.testing.assert_array_equal(a.numpy(), dt.random.default_rng(dt.random.Philox(5)).random(4).numpy())
    kids = p.spawn(2)
    assert kids[0]._seed_seq.spawn_key == (0,) and kids[1]._seed_seq.spawn_key == (1,)
    assert not np.array_equal(dt.random.default_rng(kids[0]).random(4).numpy(),
                              dt.random.default_rng(kids[1]).random(4).numpy())
    # NumPy's default_rng and RandomState take sequences of ints too
    s = dt.random.default_rng([1, 2, 3]).random(3).numpy()
    np.testing.assert_array_equal(s, dt.random.default_rng(np.array([1, 2, 3], np.uint32)).random(3).numpy())
    rs = dt.random.RandomState(np.arange(624, dtype=np.uint32))
    assert rs.random_sample((2, 3)).shape == (2, 3) and rs.rand(2, 2).shape == (2, 2)
    rs.seed(9)
    first = rs.randn(5).numpy()
    rs.seed(9)
    np.testing.assert_array_equal(first, rs.randn(5).numpy())
    with pytest.raises(TypeError, match="sequence of ints"):
        dt.random.RandomState([0.5])
    with pytest.raises(ValueError, match="non-negative"):
        dt.random.Philox(-1)


REGISTERS = """
import sys
{first}
from dask.array import dispatch
import devtensor as dt
assert dispatch.concatenate_lookup.dispatch(dt.Tensor) is dt.concatenate
x = da.from_array(dt.arange(10.0), chunks=3)
print(type(x.sum().compute()).__name__)
"""


@pytest.mark.parametrize("dask_first", [True, False])
def test_registration_in_either_import_order(dask_first):
    first = ("import dask.array as da\nimport devtensor" if dask_first else
             "import devtensor\nassert 'dask' not in sys.modules\nimport dask.array as da")
    r = run_python(REGISTERS.format(first=first))  # no import of devtensor.dask: automatic
    assert r.returncode == 0 and r.stdout.strip() == "Tensor", r.stdout + r.stderr


def test_importing_devtensor_does_not_import_dask():
    r = run_python("import sys, devtensor\nprint(sorted(m for m in sys.modules if m.split('.')[0] in "
                   "('dask', 'distributed')))")
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr
