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
