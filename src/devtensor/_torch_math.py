"""PyTorch's numerical functions that NumPy has no function of the same
name for: statistics (std_mean, var_mean, aminmax, histc), searching
(bucketize), the fused products (addmm, addbmm, baddbmm, addmv, addr),
pointwise forms (lerp, addcmul, addcdiv, logit, xlogy, frac, clamp_min,
clamp_max), distances (cdist) and sampling (multinomial), as functions
and, where PyTorch has them, as Tensor methods (aminmax, the in-place
pow_, lerp_, addcmul_, addcdiv_, addmm_).

Note [PyTorch's numerical functions]
    Each is built on devtensor's own operations, so it runs on every device
    with their kernels, and takes PyTorch's arguments and gives PyTorch's
    results: std_mean and var_mean divide by n - 1 unless correction= says
    otherwise (NumPy's std divides by n; PyTorch code calling std_mean
    expects its own rule), integer inputs of logit and xlogy give float32
    (PyTorch's default dtype), addmm's beta=0 ignores input (NaN included),
    cdist of p=2 takes the matrix-product form where PyTorch's does (more
    than 25 rows on a side), clamped at 0 (PyTorch's clamps at 1e-30, so
    its distance of a point to itself is 1e-15).  multinomial draws from
    devtensor's generators, so its numbers are not PyTorch's.
"""
import collections
import operator

from . import _C
from ._C import TensorBase
from ._torch_selection import _dim, _input_tensor

aminmax_result = collections.namedtuple("aminmax", ["min", "max"])
median_result = collections.namedtuple("median", ["values", "indices"])
nanmedian_result = collections.namedtuple("nanmedian", ["values", "indices"])
mode_result = collections.namedtuple("mode", ["values", "indices"])

__all__ = ["std_mean", "var_mean", "aminmax", "histc", "bucketize", "addmm", "addbmm", "baddbmm", "addmv",
           "addr", "lerp", "addcmul", "addcdiv", "logit", "xlogy", "frac", "clamp_min", "clamp_max", "cdist",
           "multinomial", "mode", "renorm"]


def _dt():
    import devtensor
    return devtensor


def _dims(dim, ndim):
    """PyTorch's dim (None, an int, a list or tuple; an empty one every dim) as NumPy's axis."""
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        return tuple(_dim(d, ndim) for d in dim) if dim else None
    return _dim(dim, ndim)


def _floating(name, x):
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"{name}(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {x.dtype}")


def _moments(name, input, args, dim, unbiased, keepdim, correction):
    """The divisor's correction and the axis of std_mean/var_mean, from PyTorch's
    forms (input, dim=None, *, correction=1, keepdim=False) and the older
    (input, unbiased) and (input, dim, unbiased, keepdim)."""
    _input_tensor(name, input)
    if args and isinstance(args[0], bool):  # var_mean(x, False)
        unbiased, args = args[0], args[1:]
    if args:
        dim, args = args[0], args[1:]
    if args:
        unbiased, args = args[0], args[1:]
    if args:
        keepdim, args = args[0], args[1:]
    if args:
        raise TypeError(f"{name}() takes at most 4 positional arguments")
    if unbiased is not None and correction is not None:
        raise RuntimeError(f"{name}(): cannot specify both unbiased and correction")
    _floating(name, input)
    ddof = correction if correction is not None else (0 if unbiased is False else 1)
    return _dims(dim, input.ndim), ddof, bool(keepdim)


def var_mean(input, *args, dim=None, unbiased=None, keepdim=False, correction=None):
    """(var, mean) over dim (every dim by default), the variance dividing by
    n - correction (1 by default), PyTorch's var_mean."""
    axis, ddof, keepdim = _moments("var_mean", input, args, dim, unbiased, keepdim, correction)
    dt = _dt()
    return dt.var(input, axis=axis, ddof=ddof, keepdims=keepdim), dt.mean(input, axis=axis, keepdims=keepdim)


def std_mean(input, *args, dim=None, unbiased=None, keepdim=False, correction=None):
    """(std, mean) over dim (every dim by default), the variance dividing by
    n - correction (1 by default), PyTorch's std_mean."""
    axis, ddof, keepdim = _moments("std_mean", input, args, dim, unbiased, keepdim, correction)
    dt = _dt()
    return dt.std(input, axis=axis, ddof=ddof, keepdims=keepdim), dt.mean(input, axis=axis, keepdims=keepdim)


def aminmax(input, *, dim=None, keepdim=False):
    """(min, max) of input, or along dim, as a named tuple (PyTorch's
    aminmax; NaN propagates)."""
    _input_tensor("aminmax", input)
    axis = None if dim is None else _dim(dim, input.ndim)
    n = input.size if axis is None else (input.shape[axis] if input.ndim else 1)
    if n == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                           "identity" if axis is None else
                           f"aminmax(): Expected reduction dim {dim} to have non-zero size.")
    dt = _dt()
    if axis is not None and input.ndim == 0:
        axis = None
    return aminmax_result(dt.amin(input, axis=axis, keepdims=keepdim), dt.amax(input, axis=axis, keepdims=keepdim))


def lower_median(name, input, dim, keepdim, out, skip_nan):
    """PyTorch's median (or nanmedian) along dim: (values, indices), the
    lower of the two middle elements of an even count; a slice holding NaN
    gives NaN and the place of one (median), or the median of its other
    elements (nanmedian; NaN for none)."""
    dt = _dt()
    if out is not None:
        raise TypeError(f"{name}(dim=) returns (values, indices): out= is not supported there")
    _input_tensor(name, input)
    if isinstance(dim, (tuple, list)):
        raise TypeError(f"{name}(dim=) takes one dimension, as PyTorch's, not {dim!r}")
    x = input.reshape(1) if input.ndim == 0 else input
    axis = _dim(dim, x.ndim)
    n = x.shape[axis]
    if n == 0:
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")
    order = dt.argsort(x, axis=axis, kind="stable")  # NaN sorts last
    if x.dtype.is_floating_point:
        nans = dt.sum(dt.isnan(x), axis=axis, keepdims=True)
        valid = n - nans
        if skip_nan:
            k = dt.maximum(valid - 1, 0) // 2
        else:
            k = dt.where(nans > 0, valid, (n - 1) // 2)  # the first NaN, else the lower middle
    else:
        k = dt.full((1,) * x.ndim, (n - 1) // 2, dtype=_C.int64, device=x.device)
    shape = list(x.shape)
    shape[axis] = 1
    k = dt.broadcast_to(k, tuple(shape))
    indices = dt.take_along_axis(order, k, axis=axis)
    values = dt.take_along_axis(x, indices, axis=axis)
    if not keepdim:
        values, indices = dt.squeeze(values, axis=axis), dt.squeeze(indices, axis=axis)
    if input.ndim == 0:
        values, indices = values.reshape(()), indices.reshape(())
    result = median_result if name == "median" else nanmedian_result
    return result(values, indices)


def mode(input, dim=-1, keepdim=False):
    """The most frequent value along dim (the smallest of those equally
    frequent) and the position of its last occurrence (PyTorch's mode),
    from one sort: each sorted element's run length so far is its
    position minus its run's start (a running maximum of run starts)."""
    dt = _dt()
    _input_tensor("mode", input)
    x = input.reshape(1) if input.ndim == 0 else input
    axis = _dim(dim, x.ndim)
    n = x.shape[axis]
    if n == 0:
        raise IndexError(f"mode(): Expected reduction dim {axis} to have non-zero size.")
    rows = dt.moveaxis(x, axis, -1)
    s = dt.sort(rows, axis=-1)
    j = dt.arange(n, device=x.device)
    starts = dt.concatenate([dt.ones(s.shape[:-1] + (1,), dtype=_C.bool, device=x.device),
                             s[..., 1:] != s[..., :-1]], axis=-1)
    run_start = dt.maximum.accumulate(dt.where(starts, j, 0), axis=-1)
    length = j - run_start + 1
    best = dt.argmax(length, axis=-1, keepdims=True)  # the end of the first (smallest) longest run
    values = dt.take_along_axis(s, best, axis=-1)
    hits = rows == values
    last = (n - 1) - dt.argmax(hits[..., ::-1], axis=-1, keepdims=True)
    values, last = dt.moveaxis(values, -1, axis), dt.moveaxis(last, -1, axis)
    if not keepdim:
        values, last = dt.squeeze(values, axis=axis), dt.squeeze(last, axis=axis)
    if input.ndim == 0:
        values, last = values.reshape(()), last.reshape(())
    return mode_result(values, last)


def histc(input, bins=100, min=0, max=0):
    """PyTorch's histc: counts in bins equal-width bins between min and max
    (the data's extremes when both are 0), values outside ignored, in
    input's floating dtype (float32 for integers)."""
    _input_tensor("histc", input)
    bins = operator.index(bins)
    if bins <= 0:
        raise RuntimeError("torch.histc(): bins must be > 0, but got %d for dimension 0" % bins)
    dt = _dt()
    if input.dtype.is_complex:
        raise RuntimeError("torch.histc: complex input is not supported")
    lo, hi = float(min), float(max)
    if lo > hi:
        raise RuntimeError("torch.histc(): max must be larger than min")
    if lo == hi and input.size:
        lo, hi = float(dt.min(input)), float(dt.max(input))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo != lo or hi != hi or abs(lo) == float("inf") or abs(hi) == float("inf"):
        raise RuntimeError(f"torch.histc(): range of [{lo}, {hi}] is not finite")
    counts, _ = dt.histogram(input, bins, range=(lo, hi))
    return counts.astype(input.dtype if input.dtype.is_floating_point else _C.float32)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """The bucket of each element of input among the 1-d increasing
    boundaries (PyTorch's bucketize: boundaries[i-1] < x <= boundaries[i],
    or boundaries[i-1] <= x < boundaries[i] when right=True); int64, or
    int32 with out_int32=True."""
    dt = _dt()
    if not isinstance(boundaries, TensorBase):
        raise TypeError(f"bucketize(): argument 'boundaries' must be Tensor, not {type(boundaries).__name__}")
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    r = dt.searchsorted(boundaries, input, side="right" if right else "left")
    r = r.astype(_C.int32) if out_int32 else r
    if out is not None:
        dt.copyto(out, r)
        return out
    return r


def _matrix(name, what, x, ndim):
    _input_tensor(name, x)
    if x.ndim != ndim:
        kind = {1: "a vector", 2: "a matrix", 3: "a 3D tensor"}[ndim]
        raise RuntimeError(f"{what} must be {kind}, got {x.ndim}-D tensor")


def _fused(name, input, product, beta, alpha):
    """beta * input + alpha * product, PyTorch's: input ignored (NaN too) when
    beta is 0, input broadcast to the product's shape."""
    dt = _dt()
    _input_tensor(name, input)
    if not product.dtype.is_floating_point and not product.dtype.is_complex:
        for v, w in ((beta, "beta"), (alpha, "alpha")):
            if isinstance(v, float) or isinstance(v, complex):
                raise RuntimeError(f"For integral input tensors, argument {w} must not be a floating point number.")
    fits = input.shape == product.shape
    if not fits:  # input broadcast to the product's shape, never the other way
        try:
            fits = dt.broadcast_shapes(input.shape, product.shape) == product.shape
        except ValueError:
            pass
    if not fits:
        raise RuntimeError(f"The expanded size of the tensor ({list(product.shape)}) must match the existing size "
                           f"of input {list(input.shape)}")
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:
        return dt.broadcast_to(scaled, product.shape).astype(dt.result_type(input, product), copy=False)
    return scaled + (input if beta == 1 else input * beta)


def addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat1 @ mat2), PyTorch's addmm."""
    _matrix("addmm", "mat1", mat1, 2)
    _matrix("addmm", "mat2", mat2, 2)
    return _out(_fused("addmm", input, _dt().matmul(mat1, mat2), beta, alpha), out)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (the sum over the batch of batch1[i] @
    batch2[i]), PyTorch's addbmm: one matrix product of the batches laid
    side by side."""
    _matrix("addbmm", "batch1", batch1, 3)
    _matrix("addbmm", "batch2", batch2, 3)
    b, n, m = batch1.shape
    if batch2.shape[0] != b or batch2.shape[1] != m:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
                           f"[{batch2.shape[0]}, {batch2.shape[1]}].")
    dt = _dt()
    product = dt.matmul(dt.moveaxis(batch1, 0, 1).reshape(n, b * m), batch2.reshape(b * m, batch2.shape[2]))
    return _out(_fused("addbmm", input, product, beta, alpha), out)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (batch1 @ batch2), batch by batch (PyTorch's baddbmm)."""
    return _out(_fused("baddbmm", input, _dt().bmm(batch1, batch2), beta, alpha), out)


def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * (mat @ vec), PyTorch's addmv."""
    _matrix("addmv", "mat", mat, 2)
    _matrix("addmv", "vec", vec, 1)
    return _out(_fused("addmv", input, _dt().matmul(mat, vec), beta, alpha), out)


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """beta * input + alpha * outer(vec1, vec2), PyTorch's addr."""
    _matrix("addr", "vec1", vec1, 1)
    _matrix("addr", "vec2", vec2, 1)
    return _out(_fused("addr", input, _dt().outer(vec1, vec2), beta, alpha), out)


def _out(result, out):
    if out is None:
        return result
    _dt().copyto(out, result)
    return out


def lerp(input, end, weight, *, out=None):
    """input + weight * (end - input), PyTorch's lerp."""
    return _out(_input_tensor("lerp", input).lerp(end, weight), out)


def addcmul(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 * tensor2, PyTorch's addcmul."""
    return _out(_input_tensor("addcmul", input).addcmul(tensor1, tensor2, value=value), out)


def addcdiv(input, tensor1, tensor2, *, value=1, out=None):
    """input + value * tensor1 / tensor2, PyTorch's addcdiv."""
    return _out(_input_tensor("addcdiv", input).addcdiv(tensor1, tensor2, value=value), out)


def frac(input, *, out=None):
    """input - trunc(input), with input's sign (PyTorch's frac)."""
    return _out(_input_tensor("frac", input).frac(), out)


def clamp_min(input, min, *, out=None):
    return _out(_dt().clip(_input_tensor("clamp_min", input), min, None), out)


def clamp_max(input, max, *, out=None):
    return _out(_dt().clip(_input_tensor("clamp_max", input), None, max), out)


def _as_float(x):
    """x, an integer or bool tensor in float32 (PyTorch's default dtype)."""
    return x if x.dtype.is_floating_point or x.dtype.is_complex else x.astype(_C.float32)


def logit(input, eps=None, *, out=None):
    """log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given (PyTorch's logit)."""
    dt = _dt()
    p = _as_float(_input_tensor("logit", input))
    if eps is not None:
        p = dt.clip(p, eps, 1 - eps)
    return _out(dt.log(p / (1 - p)), out)


def xlogy(input, other, *, out=None):
    """input * log(other), 0 where input is 0 and other is not NaN (PyTorch's xlogy)."""
    dt = _dt()
    if not isinstance(input, TensorBase) and not isinstance(other, TensorBase):
        raise TypeError("xlogy(): expected a tensor for input or other")
    device = (input if isinstance(input, TensorBase) else other).device
    x, y = dt.asarray(input, device=device), dt.asarray(other, device=device)
    dtype = dt.result_type(x, y) if isinstance(input, TensorBase) and isinstance(other, TensorBase) else \
        (x if isinstance(input, TensorBase) else y).dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        dtype = _C.float32
    x, y = x.astype(dtype, copy=False), y.astype(dtype, copy=False)
    r = dt.where((x == 0) & ~dt.isnan(y), dt.zeros((), dtype=dtype, device=device), x * dt.log(y))
    return _out(r, out)


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 (..., P, M) and each row of
    x2 (..., R, M): a (..., P, R) tensor (PyTorch's cdist; p may be 0, a
    count of the differing coordinates, or inf)."""
    dt = _dt()
    _input_tensor("cdist", x1)
    _input_tensor("cdist", x2)
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X{1 if x1.ndim < 2 else 2} got: "
                           f"{min(x1.ndim, x2.ndim)}D")
    for i, x in ((1, x1), (2, x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, X{i} got: {x.dtype}")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: "
                           f"{x2.shape[-1]}")
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if compute_mode not in _CDIST_MODES:
        raise RuntimeError(f"{compute_mode} is not a valid value for compute_mode")
    if x1.device != x2.device:
        from ._operands import _two_devices
        raise _two_devices(x1.device, x2.device)
    dtype = dt.result_type(x1, x2)
    x1, x2 = x1.astype(dtype, copy=False), x2.astype(dtype, copy=False)
    P, R = x1.shape[-2], x2.shape[-2]
    if p == 2 and (compute_mode == "use_mm_for_euclid_dist" or
                   (compute_mode == _CDIST_MODES[0] and (P > 25 or R > 25))):
        n1 = dt.sum(x1 * x1, axis=-1)[..., :, None]
        n2 = dt.sum(x2 * x2, axis=-1)[..., None, :]
        d2 = n1 + n2 - 2 * dt.matmul(x1, dt.swapaxes(x2, -1, -2))
        return dt.sqrt(dt.maximum(d2, 0))
    diff = dt.absolute(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:
        return dt.count_nonzero(diff, axis=-1).astype(dtype)
    if p == float("inf"):
        return dt.amax(diff, axis=-1, initial=0) if diff.shape[-1] == 0 else dt.amax(diff, axis=-1)
    if p == 1:
        return dt.sum(diff, axis=-1)
    if p == 2:
        return dt.sqrt(dt.sum(diff * diff, axis=-1))
    return dt.sum(diff ** p, axis=-1) ** (1 / p)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """num_samples category indices drawn for each row of input, a 1-d or
    2-d tensor of non-negative weights (PyTorch's multinomial): without
    replacement by the exponential race (the k largest weight / Exp(1)),
    with replacement by inverse-CDF search; int64, on input's device."""
    dt = _dt()
    _input_tensor("multinomial", input)
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {input.dtype}")
    num_samples = operator.index(num_samples)
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n = input.shape[-1]
    if not replacement and num_samples > n:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    rows = input.reshape(-1, n).astype(_C.float64)
    if n == 0 or rows.shape[0] == 0:
        if n == 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        return dt.empty(input.shape[:-1] + (num_samples,), dtype=_C.int64, device=input.device)
    if bool(dt.any(~dt.isfinite(rows) | (rows < 0))):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if bool(dt.any(dt.sum(rows, axis=1) <= 0)):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    source = generator if generator is not None else dt.random
    if generator is not None and not isinstance(generator, dt.random.Generator):
        raise TypeError(f"multinomial(): generator must be a devtensor.random.Generator, not "
                        f"{type(generator).__name__}")
    if not replacement:
        if int(dt.min(dt.count_nonzero(rows, axis=1))) < num_samples:
            raise RuntimeError("invalid multinomial distribution (with replacement=False, not enough non-negative "
                               "category to sample)")
        race = rows / source.exponential(1.0, rows.shape, device=input.device)
        picked = dt.topk(race, num_samples, dim=1).indices
    else:
        cdf = dt.cumsum(rows, axis=1)
        last = (n - 1) - dt.argmax(rows[:, ::-1] > 0, axis=1)  # the last category of non-zero weight
        picked = dt.empty((rows.shape[0], num_samples), dtype=_C.int64, device=input.device)
        u = source.random((rows.shape[0], num_samples), device=input.device) * cdf[:, -1:]
        for r in range(rows.shape[0]):  # one search per row (searchsorted takes one sorted sequence)
            picked[r] = dt.minimum(dt.searchsorted(cdf[r], u[r], side="right"), last[r])
    return picked.reshape(input.shape[:-1] + (num_samples,))


class _MathMethods:
    """Installed on devtensor.Tensor (Note [PyTorch's numerical functions])."""

    def aminmax(self, *, dim=None, keepdim=False):
        return aminmax(self, dim=dim, keepdim=keepdim)

    def histc(self, bins=100, min=0, max=0):
        return histc(self, bins, min, max)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        return addmm(self, mat1, mat2, beta=beta, alpha=alpha)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        return addmv(self, mat, vec, beta=beta, alpha=alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def logit(self, eps=None):
        return logit(self, eps)

    def xlogy(self, other):
        return xlogy(self, other)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return multinomial(self, num_samples, replacement, generator=generator)

    def mode(self, dim=-1, keepdim=False):
        return mode(self, dim, keepdim)

    def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return _dt().quantile(self, q, dim=dim, keepdim=keepdim, interpolation=interpolation)

    def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return _dt().nanquantile(self, q, dim=dim, keepdim=keepdim, interpolation=interpolation)

    def median(self, dim=None, keepdim=False):
        """PyTorch's Tensor.median: the lower of the middle two of all
        elements, or (values, indices) along dim (ndarray has no median)."""
        if dim is None:
            return lower_median("median", self.reshape(-1), 0, False, None, False).values
        return lower_median("median", self, dim, keepdim, None, False)

    def nanmedian(self, dim=None, keepdim=False):
        if dim is None:
            return lower_median("nanmedian", self.reshape(-1), 0, False, None, True).values
        return lower_median("nanmedian", self, dim, keepdim, None, True)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        """PyTorch's Tensor.unique (sorted distinct values; inverse, counts)."""
        return _dt().unique(self, return_inverse=return_inverse, return_counts=return_counts, dim=dim)

    def logcumsumexp(self, dim):
        return _dt().logcumsumexp(self, dim)

    def det(self):
        return _dt().linalg.det(self)

    def inverse(self):
        return _dt().linalg.inv(self)

    def logdet(self):
        return _dt().logdet(self)

    def floor_divide(self, other):
        return _dt().floor_divide(self, other)

    def true_divide(self, other):
        return _dt().true_divide(self, other)

    def bitwise_not(self):
        return _dt().bitwise_not(self)

    def equal(self, other):
        """Whether other has self's shape and values (PyTorch's Tensor.equal: a bool)."""
        return _dt().array_equal(self, other)

    def pow_(self, exponent):
        return _in_place(self, "pow_", _dt().power(self, exponent))

    def lerp_(self, end, weight):
        return _in_place(self, "lerp_", self.lerp(end, weight))

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return _in_place(self, "addcmul_", self.addcmul(tensor1, tensor2, value=value))

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return _in_place(self, "addcdiv_", self.addcdiv(tensor1, tensor2, value=value))

    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        return _in_place(self, "addmm_", addmm(self, mat1, mat2, beta=beta, alpha=alpha))

    def clamp_min_(self, min):
        return _in_place(self, "clamp_min_", _dt().clip(self, min, None))

    def clamp_max_(self, max):
        return _in_place(self, "clamp_max_", _dt().clip(self, None, max))


def _in_place(self, name, result):
    """result written into self, which keeps its shape and dtype (PyTorch's
    rule: a result that broadcasts wider, or of a kind self cannot hold, is
    an error), and self returned."""
    from ._torch_methods import _warn_if_element_copy
    _warn_if_element_copy(self, name)
    if result.shape != self.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                           f"{list(result.shape)}")
    if not _dt().can_cast(result.dtype, self.dtype, "same_kind"):
        raise RuntimeError(f"result type {result.dtype} can't be cast to the desired output type {self.dtype}")
    _dt().copyto(self, result, casting="same_kind")
    return self


def renorm(input, p, dim, maxnorm):
    """Each slice of input along dim whose p-norm exceeds maxnorm scaled down to it (PyTorch's renorm)."""
    return _input_tensor("renorm", input).renorm(p, dim, maxnorm)
