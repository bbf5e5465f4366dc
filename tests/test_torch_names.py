"""PyTorch's top-level names (devtensor/_torch_names.py): seeding on every
device, the autograd switches as no-ops, is_tensor, as_tensor, randperm."""
import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, assert_same, to_np


def test_manual_seed_gives_the_same_numbers_on_every_device(device):
    dt.manual_seed(7)
    a = dt.rand(5, device=device)
    dt.manual_seed(7)
    b = dt.rand(5)
    assert a.device == dt.device(device) and to_np(a).tolist() == to_np(b).tolist()


def test_autograd_switches_change_nothing():
    x = dt.ones(2)
    with dt.no_grad():
        y = x * 2
    with dt.enable_grad(), dt.inference_mode(), dt.set_grad_enabled(False):
        y = y + 1

    @dt.no_grad()
    def step(t):
        return t - 1

    assert step(y).tolist() == [2.0, 2.0] and dt.is_grad_enabled()


def test_grad_mode_is_pytorchs():
    """Note [Grad mode without autograd]: is_grad_enabled() as PyTorch's,
    so code branching on it (D2L's batch_norm) takes PyTorch's branch."""
    import threading
    assert dt.is_grad_enabled()
    with dt.no_grad():
        assert not dt.is_grad_enabled()
        with dt.enable_grad():
            assert dt.is_grad_enabled()
        assert not dt.is_grad_enabled()
        seen = []
        worker = threading.Thread(target=lambda: seen.append(dt.is_grad_enabled()))
        worker.start()
        worker.join()
        assert seen == [True]  # a new thread starts with grad mode on, as PyTorch's
    assert dt.is_grad_enabled()
    with dt.inference_mode():
        assert not dt.is_grad_enabled()
    with dt.inference_mode(False):
        assert dt.is_grad_enabled()

    @dt.no_grad()
    def inner(n):
        return dt.is_grad_enabled() if n == 0 else inner(n - 1)  # re-entered: a block a call
    assert inner(3) is False and dt.is_grad_enabled()
    dt.set_grad_enabled(False)  # a call sets the mode at once
    assert not dt.is_grad_enabled()
    dt.set_grad_enabled(True)
    with dt.set_grad_enabled(False):
        assert not dt.is_grad_enabled()
    assert dt.is_grad_enabled()

    @dt.set_grad_enabled(False)
    def off():
        return dt.is_grad_enabled()
    assert dt.is_grad_enabled() and off() is False and dt.is_grad_enabled()
    with pytest.raises(KeyError), dt.no_grad():
        raise KeyError
    assert dt.is_grad_enabled()


def test_grad_mode_instances_shared_across_threads_and_generators():
    """One no_grad() entered in two threads at once (the restore stack is per
    thread and task); a decorated generator runs each step under the mode."""
    import threading
    shared = dt.no_grad()
    entered, leave, seen = threading.Event(), threading.Event(), []

    def worker():
        with shared:
            entered.set()
            leave.wait()
            seen.append(dt.is_grad_enabled())
        seen.append(dt.is_grad_enabled())
    with shared:
        thread = threading.Thread(target=worker)
        thread.start()
        entered.wait()
    assert dt.is_grad_enabled()  # left before the thread's block did
    leave.set()
    thread.join()
    assert seen == [False, True]

    @dt.no_grad()
    def steps():
        sent = yield dt.is_grad_enabled()
        yield sent, dt.is_grad_enabled()
    g = steps()
    assert next(g) is False and dt.is_grad_enabled()
    assert g.send(7) == (7, False) and dt.is_grad_enabled()


@pytest.mark.parametrize("name", ["no_grad", "enable_grad", "inference_mode"])
def test_autograd_switches_as_bare_decorators(name):
    """@dt.no_grad without parentheses, as PyTorch 2 accepts: the function
    runs and returns its result, keeping its name."""
    switch = getattr(dt, name)

    @switch
    def double(t, k=1):
        return t * 2 * k

    assert double(3) == 6 and double(dt.ones(2), k=2).tolist() == [4.0, 4.0]
    assert double.__name__ == "double"
    assert isinstance(switch(), type(switch(False)))  # called: a context manager still


def test_is_tensor_as_tensor_and_randperm(device):
    t = dt.arange(3, device=device)
    assert dt.is_tensor(t) and dt.is_tensor(dt.nn.Parameter(dt.ones(1))) and not dt.is_tensor(np.ones(2))
    assert dt.as_tensor(t) is t and dt.as_tensor(t, device=device) is t
    a = np.arange(3.0)
    shared = dt.as_tensor(a)
    a[0] = 5
    assert shared.tolist()[0] == 5.0  # a CPU NumPy array is shared, as PyTorch's
    moved = dt.as_tensor([1, 2], dtype=dt.float32, device=device)
    assert (moved.dtype, moved.device) == (dt.float32, dt.device(device))
    p = dt.randperm(10, device=device)
    assert p.device == dt.device(device) and p.dtype == dt.int64 and sorted(to_np(p).tolist()) == list(range(10))
    assert dt.randperm(4, dtype=dt.int32).dtype == dt.int32
    g1, g2 = dt.random.default_rng(3), dt.random.default_rng(3)
    assert to_np(dt.randperm(8, generator=g1)).tolist() == to_np(dt.randperm(8, generator=g2)).tolist()
    with pytest.raises(TypeError):
        dt.randperm(4, 1)


def test_cuda_manual_seed_is_the_one_generator():
    dt.cuda.manual_seed(11)
    a = dt.rand(4)
    dt.cuda.manual_seed_all(11)
    assert dt.rand(4).tolist() == a.tolist()


def test_cat_is_concatenate_along_dim(device):
    a, b = dt.arange(6.0, device=device).reshape(2, 3), dt.ones((2, 1), device=device)
    r = dt.cat([a, b], dim=1)
    assert r.device == dt.device(device)
    np.testing.assert_array_equal(to_np(r), np.concatenate([to_np(a), to_np(b)], axis=1))
    np.testing.assert_array_equal(to_np(dt.cat((a, a))), np.concatenate([to_np(a)] * 2))
    out = dt.empty((2, 4), device=device)
    assert dt.cat([a, b], 1, out=out) is out
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 0"):
        dt.cat([a, b])  # shapes that do not join on dim 0: PyTorch's error (concatenate's is NumPy's)
    with pytest.raises(ValueError, match="all the input array dimensions except for the concatenation axis"):
        dt.concatenate([a, b])
    for other in CUDA_DEVICES:
        if other != device:
            with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
                dt.cat([a, dt.ones((2, 3), device=other)])


def test_randint_takes_pytorchs_high_and_size(device):
    """devtensor.randint(high, size) is PyTorch's (the shape second);
    devtensor.random.randint keeps NumPy's array high."""
    dt.manual_seed(3)
    r = dt.randint(5, (6,), device=device)
    assert r.shape == (6,) and r.dtype == dt.int64 and r.device == dt.device(device)
    assert 0 <= int(r.min()) and int(r.max()) < 5
    assert dt.randint(2, [2, 3], device=device).shape == (2, 3)
    assert dt.randint(3, 7, (4,), device=device).shape == (4,)
    n = dt.random.randint(5, [6, 7], device=device)  # NumPy's: high per element
    assert n.shape == (2,) and n[0].item() == 5 and n[1].item() in (5, 6)


def test_transpose_swaps_two_dims_as_pytorchs(device):
    """Note [PyTorch's transpose]: two dims of a tensor of other than two
    dimensions, dim0=/dim1=, and the function form transpose(x, 1, 2) swap;
    so do a matrix's transpose(0, 1) and transpose(-2, -1) (a causal mask's
    (triu(ones) == 1).transpose(0, 1)); a permutation in a tuple is NumPy's."""
    a = np.arange(120.0).reshape(2, 3, 4, 5)
    x = dt.asarray(a, device=device)
    for got in (x.transpose(1, 2), x.transpose(dim0=1, dim1=2), dt.transpose(x, 1, 2),
                dt.transpose(x, dim0=-3, dim1=2)):
        np.testing.assert_array_equal(to_np(got), np.swapaxes(a, 1, 2))
    assert x.transpose(1, 2)._same_storage(x)
    np.testing.assert_array_equal(to_np(dt.transpose(x, (3, 2, 1, 0))), np.transpose(a, (3, 2, 1, 0)))
    m = dt.asarray(a[0, 0], device=device)
    for pair in [(0, 1), (1, 0), (-2, -1), (-1, 0), (0, -1)]:
        got = m.transpose(*pair)
        np.testing.assert_array_equal(to_np(got), a[0, 0].T)
        assert got._same_storage(m)
    np.testing.assert_array_equal(to_np(m.transpose(1, 1)), a[0, 0])  # PyTorch: the same dim, no change
    np.testing.assert_array_equal(to_np(m.transpose((0, 1))), a[0, 0])  # a tuple: NumPy's permutation
    np.testing.assert_array_equal(to_np(m.transpose([1, 0])), a[0, 0].T)
    np.testing.assert_array_equal(to_np(m.transpose()), a[0, 0].T)
    mask = (dt.triu(dt.ones((3, 3), device=device)) == 1).transpose(0, 1)
    assert mask.tolist() == np.tril(np.ones((3, 3), dtype=bool)).tolist()
    with pytest.raises(np.exceptions.AxisError):
        m.transpose(0, 2)
    with pytest.raises(np.exceptions.AxisError):
        dt.arange(3.0, device=device).transpose(0, 1)
    np.testing.assert_array_equal(to_np(dt.transpose(m, 0, 1)), a[0, 0].T)  # the function: PyTorch's swap
    with pytest.raises(TypeError, match="dim0= and dim1= together"):
        x.transpose(1, dim0=2)


def test_factories_take_pytorchs_size_keyword(device):
    """D2L writes torch.rand(size=(2, 4)): PyTorch's size= for the shape."""
    for name in ("zeros", "ones", "empty"):
        t = getattr(dt, name)(size=(2, 4), device=device)
        assert t.shape == (2, 4) and t.device == dt.device(device) and t.dtype == dt.float64
        assert getattr(dt, name)(size=3, dtype=dt.int32, device=device).shape == (3,)
        with pytest.raises(TypeError, match=f"{name}\\(\\) got multiple values for argument 'size'"):
            getattr(dt, name)(2, size=(2, 4))
        with pytest.raises(TypeError, match=f"{name}\\(\\) missing required argument 'shape'"):
            getattr(dt, name)(device=device)
    assert dt.zeros(size=(2, 2), device=device).tolist() == [[0, 0], [0, 0]]
    assert dt.zeros(size=[2, 3], dtype=dt.int8, device=device).dtype == dt.int8
    assert dt.empty(shape=(0, 2), device=device).shape == (0, 2)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        dt.zeros(size=(2, -1))
    with pytest.raises(TypeError, match="got multiple values for argument 'size'"):
        dt.zeros(size=(2,), shape=(2,))
    with pytest.raises(TypeError, match="shape must be an int or a sequence of ints, got float"):
        dt.ones(size=2.0)
    assert dt.ones(size=(2,), device=device).tolist() == [1, 1]
    for name in ("rand", "randn"):
        t = getattr(dt, name)(size=(2, 4), device=device)
        assert t.shape == (2, 4) and t.device == dt.device(device)
        with pytest.raises(TypeError, match=f"{name}\\(\\) got multiple values for argument 'size'"):
            getattr(dt, name)(2, size=(3,))
    full = dt.full(size=(2,), fill_value=1.5, device=device)
    assert full.tolist() == [1.5, 1.5] and full.device == dt.device(device)
    assert dt.full(shape=(2,), fill_value=7).tolist() == [7, 7]
    with pytest.raises(TypeError, match="full\\(\\) missing required argument 'fill_value'"):
        dt.full(size=(2,))


def test_pytorch_forms_found_by_user_rounds(device):
    """In-place methods (tril_, relu_, clip_, ...), methods of functions
    (count_nonzero, rot90, take_along_dim, argwhere, bincount), concat(dim=),
    manual_seed's generator, version.cuda, and PyTorch's keywords on linalg,
    fft, cov and scatter, against NumPy's results."""
    a = np.arange(12.0).reshape(3, 4) - 5.5
    x = dt.asarray(a, device=device)
    for name, args, want in [("tril_", (), np.tril(a)), ("triu_", (1,), np.triu(a, 1)),
                             ("relu_", (), np.maximum(a, 0)), ("clip_", (-1, 2), np.clip(a, -1, 2)),
                             ("sigmoid_", (), 1 / (1 + np.exp(-a))), ("round_", (), np.round(a)),
                             ("fmod_", (2,), np.fmod(a, 2)), ("remainder_", (2,), np.remainder(a, 2)),
                             ("log1p_", (), np.log1p(np.abs(a))), ("lerp_", (x * 0, 0.25), a * 0.75)]:
        y = x.clone() if name != "log1p_" else dt.abs(x)
        assert getattr(y, name)(*args) is y
        np.testing.assert_allclose(to_np(y), want, rtol=1e-15, atol=1e-15)
    with pytest.raises(TypeError, match="Cannot cast"):
        dt.arange(3, device=device).sigmoid_()  # a float result into int64, refused as PyTorch's
    i = dt.asarray([[0], [3], [1]], device=device)
    assert int(x.count_nonzero()) == np.count_nonzero(a) and x.count_nonzero(dim=0).tolist() == [3, 3, 3, 3]
    assert_same(x.rot90(), np.rot90(a), device)
    assert_same(x.rot90(1, [1, 0]), np.rot90(a, 1, (1, 0)), device)
    assert_same(dt.rot90(x, 2, dims=(0, 1)), np.rot90(a, 2), device)
    assert_same(x.take_along_dim(i, 1), np.take_along_axis(a, i.cpu().numpy(), 1), device)
    assert_same(x.argwhere(), np.argwhere(a), device)
    assert_same(dt.asarray([1, 3, 3], device=device).bincount(minlength=5), np.bincount([1, 3, 3], minlength=5),
                device)
    assert_same(dt.concat([x, x], dim=1), np.concatenate([a, a], axis=1), device)
    assert_same(dt.permute_dims(x), a.T, device)
    g = dt.manual_seed(7)
    assert g is dt.default_generator and g.initial_seed() == 7
    assert dt.version.version == dt.__version__ and (dt.version.cuda is None or dt.version.cuda.count(".") == 1)
    assert_same(dt.fft.fftshift(x, dim=1), np.fft.fftshift(a, axes=1), device)
    assert_same(dt.fft.ifftshift(x, dim=(0, 1)), np.fft.ifftshift(a), device)
    v = dt.asarray(np.arange(6.0).reshape(2, 3), device=device)
    assert_same(dt.linalg.cross(dt.ones((2, 3), device=device), v, dim=1), np.cross(np.ones((2, 3)), v.cpu().numpy()),
                device)
    np.testing.assert_allclose(to_np(dt.linalg.vector_norm(x, 1)), np.abs(a).sum(), rtol=1e-15)
    assert dt.linalg.vector_norm(x, 2, 1, True).shape == (3, 1)
    np.testing.assert_allclose(to_np(dt.linalg.matrix_norm(x, "nuc")), np.linalg.norm(a, "nuc"), rtol=1e-12)
    np.testing.assert_allclose(to_np(dt.cov(x, correction=0)), np.cov(a, ddof=0), rtol=1e-12)
    with pytest.raises(TypeError, match="both ddof and correction"):
        dt.cov(x, ddof=1, correction=0)
    m = dt.asarray([[1.0, 0.0], [0.0, 1e-3]], device=device)
    assert [int(dt.linalg.matrix_rank(m, atol=t)) for t in (1e-2, 1e-4)] == [1, 2]
    assert int(dt.linalg.matrix_rank(m, atol=1e-4, rtol=0.5)) == 1
    with pytest.raises(ValueError, match="`tol` and `atol` can't be both set."):
        dt.linalg.matrix_rank(m, 1e-3, atol=1e-4)
    with pytest.raises(TypeError, match=r"rot90\(\) got both axes and dims"):
        dt.rot90(x, 1, (1, 0), dims=(0, 1))
    with pytest.raises(TypeError, match=r"cross\(\) got both axis and dim"):
        dt.linalg.cross(v, v, axis=0, dim=1)
    with pytest.raises(TypeError, match=r"concat\(\) got both axis and dim"):
        dt.concat([x, x], axis=1, dim=0)
    with pytest.raises(TypeError, match=r"fftshift\(\) got both axis and dim"):
        dt.fft.fftshift(x, axes=0, dim=1)
    added = dt.scatter(x, 1, dt.asarray([[0], [1], [0]], device=device), dt.ones((3, 1), device=device), reduce="add")
    want = a.copy()
    want[[0, 1, 2], [0, 1, 0]] += 1
    assert_same(added, want, device)


def test_stack_sizes_and_batched_vector_solve(device):
    """A PyTorch stack (dim=, default_collate) of unequal shapes gives
    PyTorch's RuntimeError naming the entries (NumPy's call keeps its
    ValueError); solve of A (*, n, n) and B (*, n), which NumPy 2 refuses,
    is PyTorch's batch of vectors, while B that NumPy reads as matrices
    stays NumPy's."""
    from devtensor.utils.data import default_collate
    a, b = dt.zeros(2, device=device), dt.zeros(3, device=device)
    for call in (lambda: dt.stack([a, a, b], dim=0), lambda: default_collate([a, a, b])):
        with pytest.raises(RuntimeError, match=r"stack expects each tensor to be equal size, but got \[2\] at "
                                               r"entry 0 and \[3\] at entry 2"):
            call()
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        dt.stack([a, b])
    A = np.random.default_rng(1).standard_normal((2, 3, 3)) + 3 * np.eye(3)
    B = np.arange(6.0).reshape(2, 3)
    got = dt.linalg.solve(dt.asarray(A, device=device), dt.asarray(B, device=device))
    np.testing.assert_allclose(to_np(got), np.linalg.solve(A, B[..., None])[..., 0], rtol=1e-12)
    A3 = np.random.default_rng(2).standard_normal((3, 3, 3)) + 3 * np.eye(3)
    B3 = np.arange(9.0).reshape(3, 3)  # NumPy 2 reads it as one 3x3 matrix for every batch
    np.testing.assert_allclose(to_np(dt.linalg.solve(dt.asarray(A3, device=device), dt.asarray(B3, device=device))),
                               np.linalg.solve(A3, B3), rtol=1e-12)
    with pytest.raises(ValueError):
        dt.linalg.solve(dt.asarray(A, device=device), dt.ones((2, 4), device=device))


def test_erfinv(device):
    """erfinv (torch.erfinv, torch.special.erfinv, the method and erfinv_):
    erf of it is the input to rounding across (-1, 1), the tails included
    (Note [erfinv by Newton's method]); known values; +-1, |y| > 1, NaN,
    -0.0; float32 stays float32, integers compute in float32."""
    y = np.concatenate([np.linspace(-0.999999, 0.999999, 2001), [1 - 1e-15, -1 + 1e-12, 1e-300, -0.0]])
    got = to_np(dt.erfinv(dt.asarray(y, device=device)))
    import math
    back = np.array([math.erf(v) for v in got[:-4]])
    np.testing.assert_allclose(back, y[:-4], rtol=0, atol=4e-16)
    tails = np.array([math.erfc(abs(v)) for v in got[-4:-2]])  # 1 - |y|, exact in float64, is erfc(|x|)
    np.testing.assert_allclose(tails, 1 - np.abs(y[-4:-2]), rtol=1e-13)
    assert got[-2] == 1e-300 * math.sqrt(math.pi) / 2 and np.signbit(got[-1])
    known = to_np(dt.special.erfinv(dt.asarray([0.5, 0.99, -0.3], device=device)))
    np.testing.assert_allclose(known, [0.4769362762044699, 1.8213863677184494, -0.2724627147267543], rtol=1e-15)
    edges = dt.asarray([1.0, -1.0, 1.5, -2.0, np.nan], device=device).erfinv()
    assert edges.tolist()[:2] == [np.inf, -np.inf] and np.isnan(to_np(edges)[2:]).all()
    f = dt.asarray(np.float32([0.25, -0.75]), device=device)
    assert f.erfinv().dtype == dt.float32 and f.clone().erfinv_().tolist() == f.erfinv().tolist()
    np.testing.assert_allclose(to_np(f.erfinv()), np.float32([0.2253121, -0.8134198]), rtol=1e-6)
    assert dt.erfinv(dt.asarray([0, 0], device=device)).dtype == dt.float32
