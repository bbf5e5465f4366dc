"""PyTorch's keywords on NumPy's reductions, scans, sorts and joins (Note
[PyTorch's keywords] in devtensor/_torch_keywords.py), on every device:
dim=, keepdim= and unbiased= give PyTorch's results (computed here with
NumPy: var/std divide by n - 1, max/min/sort return (values, indices)),
positional arguments keep NumPy's, and mixing the two names is refused."""
import inspect

import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, to_np

A = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 9.0], [0.5, -1.0, 7.0, 2.0]])


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "amax", "amin", "any", "all", "nansum", "nanmean"])
def test_dim_and_keepdim_are_axis_and_keepdims(device, name):
    t = dt.asarray(A, device=device)
    f = getattr(dt, name)
    for dim in (0, 1, -1, (0, 1), [0, 1]):
        want = getattr(np, name)(A, axis=tuple(dim) if isinstance(dim, list) else dim, keepdims=True)
        assert_same(f(t, dim=dim, keepdim=True), want)
        if hasattr(t, name) and name not in ("nansum", "nanmean"):
            assert_same(getattr(t, name)(dim=dim), want.squeeze(axis=tuple(dim) if isinstance(dim, list) else dim))


def test_arg_reductions_counts_and_scans(device):
    t = dt.asarray(A, device=device)
    assert_same(t.argmax(dim=1, keepdim=True), np.argmax(A, axis=1, keepdims=True))
    assert_same(dt.argmin(t, dim=0), np.argmin(A, axis=0))
    assert_same(dt.count_nonzero(t - 2, dim=0), np.count_nonzero(A - 2, axis=0))
    assert_same(t.cumsum(dim=1), np.cumsum(A, axis=1))
    assert_same(dt.cumprod(t, dim=0), np.cumprod(A, axis=0))
    assert_same(t.sum(1), A.sum(1))  # positional: NumPy's axis, as before


def test_var_and_std_with_torch_keywords_divide_by_n_minus_one(device):
    t = dt.asarray(A, device=device)
    for f in ("var", "std"):
        np_f = getattr(np, f)
        assert_same(getattr(t, f)(dim=0), np_f(A, axis=0, ddof=1), exact=False, rtol=1e-14)
        assert_same(getattr(dt, f)(t, dim=1, keepdim=True), np_f(A, axis=1, ddof=1, keepdims=True),
                    exact=False, rtol=1e-14)
        assert_same(getattr(t, f)(unbiased=True), np_f(A, ddof=1), exact=False, rtol=1e-14)
        assert_same(getattr(t, f)(dim=0, unbiased=False), np_f(A, axis=0), exact=False, rtol=1e-14)
        assert_same(getattr(t, f)(dim=0, correction=0), np_f(A, axis=0), exact=False, rtol=1e-14)
        assert_same(getattr(t, f)(dim=0, ddof=2), np_f(A, axis=0, ddof=2), exact=False, rtol=1e-14)
        # a ddof the call passes is kept, 0 included (only the default means n - 1)
        assert_same(getattr(t, f)(dim=0, ddof=0), np_f(A, axis=0), exact=False, rtol=1e-14)
        assert_same(getattr(dt, f)(t, dim=1, keepdim=True, ddof=0), np_f(A, axis=1, keepdims=True),
                    exact=False, rtol=1e-14)
        assert repr(inspect.signature(getattr(dt, f)).parameters["ddof"].default) == "0"
        assert_same(getattr(t, f)(), np_f(A), exact=False, rtol=1e-14)  # no keyword: NumPy's ddof=0
        with pytest.raises(TypeError, match="unbiased with correction or ddof"):
            getattr(t, f)(dim=0, unbiased=True, correction=1)
        with pytest.raises(TypeError, match="unbiased with correction or ddof"):
            getattr(t, f)(dim=0, unbiased=False, ddof=0)
        with pytest.raises(TypeError, match="unbiased must be a bool"):
            getattr(t, f)(unbiased=1)


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_and_min_with_dim_give_values_and_indices(device, name):
    t = dt.asarray(A, device=device)
    arg = {"max": np.argmax, "min": np.argmin}[name]
    for form in (getattr(t, name), lambda **k: getattr(dt, name)(t, **k)):
        values, indices = form(dim=1)
        assert_same(values, getattr(np, name)(A, axis=1))
        assert_same(indices, arg(A, axis=1))
        r = form(dim=0, keepdim=True)
        assert type(r).__name__ == name and r._fields == ("values", "indices")
        assert_same(r.values, getattr(np, name)(A, axis=0, keepdims=True))
        assert_same(r.indices, arg(A, axis=0, keepdims=True))
    assert_same(getattr(t, name)(1), getattr(np, name)(A, axis=1))  # positional: NumPy's values only
    assert_same(getattr(t, name)(keepdim=True), getattr(np, name)(A, keepdims=True))
    for r in (getattr(t, name)(1, keepdim=True), getattr(dt, name)(t, -1, keepdim=False)):  # keepdim=: PyTorch's
        assert type(r).__name__ == name
        assert_same(r.indices, arg(A, axis=1, keepdims=r.values.ndim == 2))
    b = np.full_like(A, A.mean())  # PyTorch's max(input, other): elementwise
    want = getattr(np, {"max": "maximum", "min": "minimum"}[name])(A, b)
    assert_same(getattr(dt, name)(t, dt.asarray(b, device=device)), want, device)
    assert_same(getattr(t, name)(dt.asarray(b, device=device)), want, device)
    assert_same(getattr(t, name)(dt.asarray(1, device=device)), getattr(np, name)(A, axis=1))  # a 0-d int: an axis
    with pytest.raises(TypeError, match=r"takes one dimension, as PyTorch's"):
        getattr(t, name)(dim=(0, 1))
    with pytest.raises(TypeError, match=r"returns \(values, indices\): out=, initial= and where= are not supported"):
        getattr(dt, name)(t, dim=0, out=dt.empty(4, device=device))


def test_sort_with_dim_gives_values_and_indices_and_leaves_the_tensor(device):
    a = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]])
    t = dt.asarray(a, device=device)
    values, indices = t.sort(dim=1, descending=True)
    assert_same(values, -np.sort(-a, axis=1))
    assert_same(indices, np.argsort(-a, axis=1, kind="stable"))
    assert_same(t, a)  # not sorted in place
    r = dt.sort(t, dim=0)
    assert_same(r.values, np.sort(a, axis=0)) and assert_same(r.indices, np.argsort(a, axis=0, kind="stable"))
    assert_same(t.argsort(dim=0), np.argsort(a, axis=0, kind="stable"))
    assert t.sort() is None and to_np(t).tolist() == np.sort(a).tolist()  # NumPy's: in place
    with pytest.raises(TypeError, match="got both axis and dim"):
        dt.sort(t, 0, dim=1)


def test_joins_and_flatten(device):
    t = dt.asarray(A, device=device)
    assert_same(dt.stack([t, t], dim=1), np.stack([A, A], axis=1))
    assert_same(dt.concatenate([t, t], dim=1), np.concatenate([A, A], axis=1))
    x = dt.arange(24.0, device=device).reshape(2, 3, 4)
    assert x.flatten(1).shape == (2, 12) and x.flatten(0, 1).shape == (6, 4)
    assert x.flatten(start_dim=1, end_dim=-2).shape == (2, 3, 4) and x.flatten(end_dim=1).shape == (6, 4)
    assert_same(x.flatten(1), np.arange(24.0).reshape(2, 12))
    assert_same(x.flatten("F"), np.arange(24.0).reshape(2, 3, 4).flatten("F"))  # NumPy's order
    with pytest.raises(TypeError, match="NumPy's order or PyTorch's start_dim"):
        x.flatten("F", 1)


def test_both_names_for_one_argument_are_refused():
    t = dt.asarray(A)
    for call in (lambda: t.sum(0, dim=1), lambda: dt.mean(t, axis=0, dim=0), lambda: t.sum(keepdims=True, keepdim=True),
                 lambda: dt.stack([t, t], 1, dim=1), lambda: t.argsort(0, dim=0), lambda: t.cumsum(0, dim=0)):
        with pytest.raises(TypeError, match="got both"):
            call()


def test_review_corners(device):
    """dim=() is every dimension (PyTorch's rule, as the methods' _all_dims);
    max(dim=) refuses initial= and where=; sort(dim=)'s values are the input
    at its indices, bit for bit; Tensor.sort(descending=...) is PyTorch's
    (ndarray.sort has no descending); unbiased takes NumPy's bools."""
    x = dt.asarray(A, device=device)
    for dim in ((), []):
        assert_same(x.sum(dim=dim), A.sum())
        assert_same(dt.amax(x, dim=dim), A.max())
        assert_same(x.std(dim=dim), np.std(A, ddof=1), exact=False, rtol=1e-14)
    with pytest.raises(TypeError, match="initial= and where= are not supported"):
        x.max(dim=1, initial=100.0)
    with pytest.raises(TypeError, match="initial= and where= are not supported"):
        dt.min(x, dim=1, where=dt.asarray([[True] * 4] * 3, device=device))
    z = dt.asarray([0.0, -0.0, 0.0, -0.0] * 3, device=device)
    values, indices = z.sort(dim=0)
    assert np.array_equal(np.signbit(to_np(values)), np.signbit(to_np(z)[to_np(indices)]))
    y = dt.asarray([3.0, 1.0, 2.0], device=device)
    r = y.sort(descending=True)
    assert to_np(r.values).tolist() == [3.0, 2.0, 1.0] and to_np(r.indices).tolist() == [0, 2, 1]
    assert to_np(y).tolist() == [3.0, 1.0, 2.0]  # left as it is
    assert to_np(dt.asarray(A, device=device).sort(0, descending=False).values).tolist() == np.sort(A, 0).tolist()
    assert_same(x.var(unbiased=np.True_), np.var(A, ddof=1), exact=False, rtol=1e-14)


def test_more_pytorch_keywords(device):
    """squeeze(dim=) (a dim of another length stays, as PyTorch's), flip(dims=),
    roll(shifts=, dims=), tril/triu(diagonal=), linspace(steps=), and the
    functions is_floating_point, is_complex and numel."""
    a = np.arange(12.0).reshape(1, 3, 4)
    x = dt.asarray(a, device=device)
    assert x.squeeze(dim=0).shape == dt.squeeze(x, dim=0).shape == (3, 4)
    assert x.squeeze(dim=1).shape == (1, 3, 4) and dt.squeeze(x, dim=(0, 1)).shape == (3, 4)
    assert_same(dt.flip(x, dims=[1, 2]), np.flip(a, (1, 2)))
    assert_same(x.flip(dims=(2,)), np.flip(a, 2))
    assert_same(dt.roll(x, shifts=1, dims=2), np.roll(a, 1, 2))
    assert_same(x.roll(shifts=(1, -1), dims=(1, 2)), np.roll(a, (1, -1), (1, 2)))
    assert_same(dt.tril(x[0], diagonal=-1), np.tril(a[0], -1))
    assert_same(dt.triu(x[0], diagonal=1), np.triu(a[0], 1))
    assert_same(dt.linspace(0, 1, steps=5, device=device), np.linspace(0, 1, 5))
    assert dt.is_floating_point(x) and not dt.is_complex(x) and dt.numel(x) == 12
    assert dt.is_complex(dt.asarray([1j], device=device)) and not dt.is_floating_point(dt.arange(3))
    with pytest.raises(TypeError, match="roll\\(\\) got both shift and shifts"):
        dt.roll(x, 1, shifts=2)
    with pytest.raises(TypeError, match="squeeze\\(\\) got both axis and dim"):
        dt.squeeze(x, 0, dim=0)
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        x.squeeze(1)  # positional: NumPy's


def test_a_bool_in_numpys_dtype_or_out_place_is_pytorchs_keepdim(device):
    """x.sum(1, True), x.max(1, True), torch.max(x, -1, True), x.std(0, True,
    True): NumPy refuses a bool as dtype or out, PyTorch reads it as keepdim
    (var and std: unbiased, then keepdim)."""
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    x = dt.asarray(a, device=device)
    for name in ("sum", "prod", "mean", "nansum", "amax", "amin", "any", "all"):
        for keep in (True, False):
            got = getattr(x, name)(1, keep) if hasattr(x, name) else getattr(dt, name)(x, 1, keep)
            want = getattr(np, name)(a, 1, keepdims=keep)
            assert got.shape == want.shape, name
            np.testing.assert_allclose(to_np(got), want, rtol=1e-12)
            np.testing.assert_allclose(to_np(getattr(dt, name)(x, 1, keep)), want, rtol=1e-12)
    for name in ("argmax", "argmin"):
        got = getattr(x, name)(1, True)
        assert got.shape == (3, 1) and to_np(got).ravel().tolist() == getattr(np, name)(a, 1).tolist()
    for name in ("max", "min"):
        for got in (getattr(x, name)(1, True), getattr(dt, name)(x, -1, True)):
            assert got.values.shape == (3, 1) and got.indices.shape == (3, 1)
            np.testing.assert_array_equal(to_np(got.values), getattr(np, name)(a, 1, keepdims=True))
            assert to_np(got.indices).ravel().tolist() == getattr(np, "arg" + name)(a, 1).tolist()
        got = getattr(x, name)(0, False)
        assert got.values.shape == (4,) and got.indices.tolist() == [2 if name == "max" else 0] * 4
    for name in ("std", "var"):
        np.testing.assert_allclose(to_np(getattr(x, name)(0, True)), getattr(np, name)(a, 0, ddof=1), rtol=1e-12)
        np.testing.assert_allclose(to_np(getattr(x, name)(0, False)), getattr(np, name)(a, 0), rtol=1e-12)
        kept = getattr(dt, name)(x, 1, True, True)
        assert kept.shape == (3, 1)
        np.testing.assert_allclose(to_np(kept), getattr(np, name)(a, 1, ddof=1, keepdims=True), rtol=1e-12)
    with pytest.raises(TypeError, match="got multiple values for argument 'keepdim'"):
        x.sum(1, True, keepdim=False)
    with pytest.raises(TypeError, match="got multiple values for argument 'unbiased'"):
        x.std(0, True, unbiased=False)
    assert x.sum(1, dt.float32).dtype == dt.float32  # a dtype stays NumPy's
    assert x.sum(1, bool).dtype == dt.bool  # the type bool is a dtype, not PyTorch's keepdim


def test_size_is_numpys_count_and_pytorchs_call(device):
    """Note [A size that can be called]: t.size is the element count (an int
    that compares, hashes, formats and pickles as one) and t.size(),
    t.size(0) are PyTorch's shape and dimension (nanoGPT's B, T, C = x.size())."""
    import copy
    import json
    import pickle
    x = dt.zeros((2, 3, 4), device=device)
    assert x.size == 24 and isinstance(x.size, int) and hash(x.size) == hash(24) and f"{x.size:03d}" == "024"
    assert x.size() == (2, 3, 4) and x.size(0) == 2 and x.size(-1) == 4 and x.size(dim=1) == 3
    B, T, C = x.size()
    assert (B, T, C) == (2, 3, 4) and list(range(x.size)) == list(range(24)) and [0] * x.size == [0] * 24
    for s in (pickle.loads(pickle.dumps(x.size)), copy.deepcopy(x.size), copy.copy(x.size)):
        assert s == 24 and type(s) is int
    assert json.dumps({"n": x.size}) == '{"n": 24}' and repr(x.size) == "24"
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-3, 2\], but got 3\)"):
        x.size(3)
    s = dt.asarray(5.0, device=device)
    assert s.size == 1 and s.size() == () and s.size(0) == 1 and s.size(-1) == 1
    e = dt.zeros((0, 5), device=device)
    assert e.size == 0 and e.size(1) == 5 and not e.size
    assert (dt.ones(3, dtype=dt.float32, device=device) / x.size).dtype == dt.float32  # weak, as an int
