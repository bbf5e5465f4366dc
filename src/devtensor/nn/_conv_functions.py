"""nn.functional's convolutions and pooling: conv1d/2d/3d,
conv_transpose1d/2d/3d, fold, max_pool1d/2d/3d
(return_indices, ceil_mode), avg_pool1d/2d/3d (count_include_pad,
divisor_override), max_unpool1d/2d/3d, adaptive_avg_pool1d/2d/3d, adaptive_max_pool1d/2d/3d
(return_indices), and interpolate (nearest, nearest-exact, linear,
bilinear, bicubic, trilinear, area), with
PyTorch's arguments, shapes and errors, on the input's device.

Note [Convolution as a matrix product]
    A convolution reads every window of the (padded) input through one
    strided view, (N, C, *out, *kernel), copies it once into rows of
    C/groups * prod(kernel) values (im2col) and multiplies them by the
    weight reshaped to a matrix, one product per group (a batched matmul:
    BLAS on the CPU, cuBLAS on CUDA).  Pooling reduces the same window view
    with amax or sum, without the copy.  Memory is prod(kernel) times the
    output's, as in every im2col convolution.

Note [Depthwise convolution]
    With one input channel per group (MobileNet's depthwise layers) the
    per-group products are (N * P) x K times K x m: too thin for a matrix
    product to pay for the im2col copy.  Instead each kernel tap multiplies
    its strided slice of the window view by its per-channel weights and adds
    into the output: prod(kernel) elementwise passes, no copy.

Note [Transposed convolution]
    A transposed convolution (and fold) is the adjoint: one matrix product
    gives every input position's contribution to each kernel tap, (N, O,
    *kernel, *input), and col2im adds each tap's slab into the output
    through one strided view, prod(kernel) in-place adds in all.  No zeros
    are stuffed between inputs, so a stride-s layer does no s^n-fold
    wasted multiplications; padding crops the full result.
"""
import itertools
import math
import operator
import warnings

import numpy as np

from .. import _C
from .functional import _same_device, _tensor


def _dt():
    import devtensor
    return devtensor


def _tuple(value, n, name):
    if isinstance(value, (tuple, list)):
        if len(value) == 1:
            value = tuple(value) * n
        if len(value) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match "
                               f"the convolution dimensions, but got {name}={list(value)}")
        return tuple(operator.index(v) for v in value)
    return (operator.index(value),) * n


def _batched(name, input, n):
    """input with a batch dim (and whether it had one): (C, *spatial) is one sample."""
    _tensor(input)
    if input.ndim == n + 1:
        return input[None], False
    if input.ndim != n + 2:
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input of "
                           f"size: {list(input.shape)}")
    return input, True


def _windows(x, kernel, stride, dilation):
    """The view (N, C, *out, *kernel) of every window of the contiguous x."""
    n = len(kernel)
    spatial = x.shape[2:]
    out = tuple((spatial[d] - dilation[d] * (kernel[d] - 1) - 1) // stride[d] + 1 for d in range(n))
    st = x.strides
    shape = x.shape[:2] + out + tuple(kernel)
    strides = st[:2] + tuple(st[2 + d] * stride[d] for d in range(n)) + tuple(st[2 + d] * dilation[d]
                                                                               for d in range(n))
    return x._as_strided(shape, strides, 0), out


def _pad_spatial(x, pads, value):
    """x padded by pads[d] = (before, after) on each spatial dim, with value."""
    if not any(lo or hi for lo, hi in pads):
        return _dt().ascontiguousarray(x)
    return _dt().pad(x, ((0, 0), (0, 0)) + tuple(pads), constant_values=value)


def _operands(name, n, input, weight, bias):
    """A convolution's input (with a batch dim), whether it had one, and the
    three operands in their common dtype (promoted, as linear's), checked
    to be tensors on one device."""
    x, batched = _batched(name, input, n)
    _tensor(weight, "weight")
    _same_device(x, weight, bias)
    if weight.ndim != n + 2:
        raise RuntimeError(f"weight of {name} must be {n + 2}-dimensional, got {list(weight.shape)}")
    if x.dtype.kind in "biu" and weight.dtype.kind in "fc":
        from .functional import _integer_input
        raise _integer_input(name, x, weight)
    common = _dt().result_type(*(t for t in (x, weight, bias) if t is not None))
    bias = None if bias is None else bias.astype(common, copy=False)
    return x.astype(common, copy=False), batched, weight.astype(common, copy=False), bias, common


def _conv(n, input, weight, bias, stride, padding, dilation, groups):
    name = f"conv{n}d"
    dt = _dt()
    x, batched, weight, bias, common = _operands(name, n, input, weight, bias)
    groups = operator.index(groups)
    out_channels, per_group = weight.shape[:2]
    if groups <= 0 or out_channels % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size {list(weight.shape)} instead" if groups > 0 else
                           "non-positive groups is not supported")
    if x.shape[1] != per_group * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
                           f"{list(x.shape if batched else x.shape[1:])} to have {per_group * groups} channels, but "
                           f"got {x.shape[1]} channels instead")
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
                           f"{out_channels} elements, but got bias of size {list(bias.shape)} instead")
    kernel = weight.shape[2:]
    stride, dilation = _tuple(stride, n, "stride"), _tuple(dilation, n, "dilation")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if isinstance(padding, str):
        if padding == "valid":
            pads = ((0, 0),) * n
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [dilation[d] * (kernel[d] - 1) for d in range(n)]
            pads = tuple((t // 2, t - t // 2) for t in total)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        p = _tuple(padding, n, "padding")
        if any(v < 0 for v in p):
            raise RuntimeError("negative padding is not supported")
        pads = tuple((v, v) for v in p)
    padded = tuple(x.shape[2 + d] + sum(pads[d]) for d in range(n))
    if any(padded[d] < dilation[d] * (kernel[d] - 1) + 1 for d in range(n)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(str(dilation[d] * (kernel[d] - 1) + 1) for d in range(n))}). "
                           f"Kernel size can't be greater than actual input size")
    if per_group == 1 and groups > 1:  # half precision adds in float32, as the matrix products do
        wide = common in (_C.float16, _C.bfloat16)
        windows, out = _windows(_pad_spatial(x.astype(_C.float32) if wide else x, pads, 0), kernel, stride,
                                dilation)
        y = _depthwise(windows, weight.astype(_C.float32) if wide else weight, kernel, out)
        if bias is not None:
            y = y + bias.reshape((out_channels,) + (1,) * n)
        y = y.astype(common, copy=False)
        return y if batched else y[0]
    windows, out = _windows(_pad_spatial(x, pads, 0), kernel, stride, dilation)
    batch = x.shape[0]
    positions, taps = math.prod(out), per_group * math.prod(kernel)
    # (N, g, C/g, *out, *k) -> (g, N, *out, C/g, *k): each row one window of one group
    w = windows.reshape((batch, groups, per_group) + out + tuple(kernel))
    order = (1, 0) + tuple(range(3, 3 + n)) + (2,) + tuple(range(3 + n, 3 + 2 * n))
    rows = dt.ascontiguousarray(dt.permute_dims(w, order)).reshape(groups, batch * positions, taps)
    mats = weight.reshape(groups, out_channels // groups, taps)
    y = dt.matmul(rows, dt.swapaxes(mats, -1, -2))  # (g, N * P, O/g)
    y = y.reshape((groups, batch) + out + (out_channels // groups,))
    y = dt.permute_dims(y, (1, 0, n + 2) + tuple(range(2, 2 + n))).reshape((batch, out_channels) + out)
    if bias is not None:
        y = y + bias.reshape((out_channels,) + (1,) * n)
    y = dt.ascontiguousarray(y)
    return y if batched else y[0]


def _depthwise(windows, weight, kernel, out):
    """A depthwise convolution (one input channel per group, m outputs
    each) from the window view (N, C, *out, *kernel): one multiply-add per
    kernel tap over the whole output (Note [Depthwise convolution])."""
    batch, channels = windows.shape[:2]
    n = len(kernel)
    m = weight.shape[0] // channels
    taps = weight.reshape((channels, m, math.prod(kernel)))
    y = None
    for t, tap in enumerate(itertools.product(*(range(k) for k in kernel))):
        x = windows[(slice(None), slice(None)) + (slice(None),) * n + tap]  # (N, C, *out), strided
        term = x[:, :, None] * taps[:, :, t].reshape((channels, m) + (1,) * n)
        if y is None:
            y = term
        else:
            y += term
    return y.reshape((batch, channels * m) + tuple(out))


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 1-d cross-correlation of input (N, C, L) with weight (O, C/groups, k)."""
    return _conv(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 2-d cross-correlation of input (N, C, H, W) with weight (O, C/groups, kh, kw)."""
    return _conv(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 3-d cross-correlation of input (N, C, D, H, W) with weight (O, C/groups, kd, kh, kw)."""
    return _conv(3, input, weight, bias, stride, padding, dilation, groups)


def _col2im(cols, kernel, blocks, stride, dilation, full):
    """The sum, into zeros (N, C, *full), of cols (N, C, *kernel, *blocks):
    tap t of block b lands at b * stride + t * dilation.  One strided
    in-place add per kernel tap (Note [Transposed convolution])."""
    out = _dt().zeros(cols.shape[:2] + tuple(full), dtype=cols.dtype, device=cols.device)
    for tap in itertools.product(*(range(k) for k in kernel)):
        where = (slice(None), slice(None)) + tuple(
            slice(t * d, t * d + (b - 1) * s + 1, s) for t, d, b, s in zip(tap, dilation, blocks, stride))
        view = out[where]
        view += cols[(slice(None), slice(None)) + tap]
    return out


def _conv_transpose(n, input, weight, bias, stride, padding, output_padding, groups, dilation):
    name = f"conv_transpose{n}d"
    dt = _dt()
    x, batched, weight, bias, _ = _operands(name, n, input, weight, bias)
    groups = operator.index(groups)
    in_channels, per_group = weight.shape[:2]
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if in_channels % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size {list(weight.shape)} instead")
    if x.shape[1] != in_channels:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
                           f"{list(x.shape if batched else x.shape[1:])} to have {in_channels} channels, but got "
                           f"{x.shape[1]} channels instead")
    out_channels = per_group * groups
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected bias to be "
                           f"1-dimensional with {out_channels} elements, but got bias of size {list(bias.shape)} "
                           f"instead")
    kernel = weight.shape[2:]
    if isinstance(padding, str):
        raise TypeError(f"{name}: padding must be an int or a tuple of ints ('same' and 'valid' are "
                        f"conv{n}d's), got {padding!r}")
    stride, dilation = _tuple(stride, n, "stride"), _tuple(dilation, n, "dilation")
    pad, extra = _tuple(padding, n, "padding"), _tuple(output_padding, n, "output_padding")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if any(p < 0 for p in pad):
        raise RuntimeError("negative padding is not supported")
    if any(e < 0 or (e >= s and e >= d) for e, s, d in zip(extra, stride, dilation)):
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got "
                           f"output_padding={extra}, stride={stride}, dilation={dilation}")
    blocks = tuple(x.shape[2:])
    full = tuple((b - 1) * s + d * (k - 1) + 1 + e for b, s, d, k, e in zip(blocks, stride, dilation, kernel, extra))
    out = tuple(f - 2 * p for f, p in zip(full, pad))
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, blocks))}). Calculated output "
                           f"size per channel: ({' x '.join(map(str, out))}). Output size is too small")
    batch, positions, taps = x.shape[0], math.prod(blocks), math.prod(kernel)
    # (N, g, C/g, P) -> (g, N * P, C/g) times (g, C/g, O/g * K) -> (N, O, *K, *blocks)
    rows = dt.permute_dims(x.reshape(batch, groups, in_channels // groups, positions), (1, 0, 3, 2))
    rows = rows.reshape(groups, batch * positions, in_channels // groups)
    cols = dt.matmul(rows, weight.reshape(groups, in_channels // groups, per_group * taps))
    cols = cols.reshape((groups, batch) + blocks + (per_group,) + tuple(kernel))
    order = (1, 0, n + 2) + tuple(range(n + 3, 2 * n + 3)) + tuple(range(2, n + 2))
    cols = dt.permute_dims(cols, order).reshape((batch, out_channels) + tuple(kernel) + blocks)
    y = _col2im(cols, kernel, blocks, stride, dilation, full)
    y = y[(slice(None), slice(None)) + tuple(slice(p, f - p) for p, f in zip(pad, full))]
    if bias is not None:
        y = y + bias.reshape((out_channels,) + (1,) * n)
    y = dt.ascontiguousarray(y)
    return y if batched else y[0]


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The 1-d transposed convolution of input (N, C, L) with weight (C, O/groups, k)."""
    return _conv_transpose(1, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The 2-d transposed convolution of input (N, C, H, W) with weight (C, O/groups, kh, kw)."""
    return _conv_transpose(2, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The 3-d transposed convolution of input (N, C, D, H, W) with weight (C, O/groups, kd, kh, kw)."""
    return _conv_transpose(3, input, weight, bias, stride, padding, output_padding, groups, dilation)


# ---- pooling ----
def _pool_geometry(n, name, x, kernel_size, stride, padding, dilation, ceil_mode):
    """kernel, stride, dilation, the (before, after) pads (after grown for
    ceil_mode) and the output's spatial shape of a pooling."""
    kernel = _tuple(kernel_size, n, "kernel_size")
    stride = kernel if stride is None or (isinstance(stride, (tuple, list)) and not stride) else \
        _tuple(stride, n, "stride")
    pad = _tuple(padding, n, "padding")
    dilation = _tuple(dilation, n, "dilation")
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"{name}: kernel_size must be greater than zero, but got {list(kernel)}")
    if any(s <= 0 for s in stride):
        raise RuntimeError(f"{name}: stride must be greater than zero, but got {list(stride)}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"{name}: dilation must be greater than zero, but got {list(dilation)}")
    pads, out = [], []
    for d in range(n):
        effective = dilation[d] * (kernel[d] - 1) + 1
        if pad[d] > kernel[d] // 2 or pad[d] < 0:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pad[d]}, "
                               f"kernel_size={kernel[d]} and dilation={dilation[d]}")
        length = x.shape[2 + d]
        span = length + 2 * pad[d] - effective
        o = (-(-span // stride[d]) if ceil_mode else span // stride[d]) + 1
        if ceil_mode and (o - 1) * stride[d] >= length + pad[d]:
            o -= 1  # the last window must start inside the input or the left padding
        after = max((o - 1) * stride[d] + effective - length - pad[d], pad[d])
        pads.append((pad[d], after))
        out.append(o)
    if min(out, default=1) <= 0:  # every dim's size in the message, as PyTorch's
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, x.shape[1:]))}). Calculated output size: "
                           f"({'x'.join(str(v) for v in (x.shape[1],) + tuple(out))}). Output size is too small")
    return kernel, stride, dilation, tuple(pads), tuple(out)


def _crop(windows, out):
    """windows cut to the output's positions (the view may hold one more)."""
    n = len(out)
    return windows[(slice(None), slice(None)) + tuple(slice(0, o) for o in out) + (Ellipsis,)] \
        if windows.shape[2:2 + n] != out else windows


def _max_pool(n, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    name = f"max_pool{n}d"
    dt = _dt()
    x, batched = _batched(name, input, n)
    kernel, stride, dilation, pads, out = _pool_geometry(n, name, x, kernel_size, stride, padding, dilation,
                                                         ceil_mode)
    if x.dtype.is_complex:
        raise RuntimeError(f"{name}: complex input is not supported")
    low = -math.inf if x.dtype.is_floating_point else (False if x.dtype == _C.bool else int(dt.iinfo(x.dtype).min))
    windows, _ = _windows(_pad_spatial(x, pads, low), kernel, stride, dilation)
    windows = _crop(windows, out)
    flat = windows.reshape(x.shape[:2] + out + (math.prod(kernel),))  # not -1: the batch may be empty
    values = dt.amax(flat, axis=-1)
    if not return_indices:
        return values if batched else values[0]
    arg = dt.argmax(flat, axis=-1)  # the first maximum, NaN first
    index = dt.zeros(arg.shape, dtype=_C.int64, device=x.device)
    taps = dt.unravel_index(arg, kernel)
    for d in range(n):
        at = dt.arange(out[d], device=x.device).reshape((out[d],) + (1,) * (n - 1 - d)) * stride[d] - pads[d][0]
        index = index * x.shape[2 + d] + (at + taps[d] * dilation[d])
    return (values, index) if batched else (values[0], index[0])


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each window of input (N, C, L); return_indices adds
    each maximum's position in its channel."""
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each window of input (N, C, H, W); return_indices adds
    each maximum's flat position in its channel's H x W."""
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def _max_unpool(n, input, indices, kernel_size, stride, padding, output_size):
    """max_pool's partial inverse: input's values placed at indices (their
    positions in the flattened spatial dims of the output, as max_pool's
    return_indices gives), zeros elsewhere."""
    name = f"max_unpool{n}d"
    dt = _dt()
    x, batched = _batched(name, input, n)
    _tensor(indices, "indices")
    _same_device(x, indices)
    where = indices if batched else indices[None]
    if tuple(where.shape) != tuple(x.shape) or where.dtype != _C.int64:
        raise RuntimeError(f"{name}: expected indices of the input's shape {list(input.shape)} and dtype int64, "
                           f"got {list(indices.shape)} and {indices.dtype}")
    kernel = _tuple(kernel_size, n, "kernel_size")
    stride = kernel if stride is None else _tuple(stride, n, "stride")
    pad = _tuple(padding, n, "padding")
    if output_size is None:
        out = tuple((x.shape[2 + d] - 1) * stride[d] - 2 * pad[d] + kernel[d] for d in range(n))
    else:
        out = tuple(operator.index(v) for v in output_size)[-n:]
        if len(out) != n:
            raise ValueError(f"{name}: output_size must have {n} or {n + 2} elements, got {list(output_size)}")
    total = math.prod(out)
    flat_index = where.reshape(x.shape[:2] + (math.prod(x.shape[2:]),))
    if flat_index.size and (bool((flat_index < 0).any()) or bool((flat_index >= total).any())):
        raise RuntimeError(f"{name}: found an invalid max index (an index outside the output of size "
                           f"{list(out)})")
    y = dt.zeros(x.shape[:2] + (total,), dtype=x.dtype, device=x.device)
    dt.put_along_axis(y, flat_index, x.reshape(flat_index.shape), axis=2)
    y = y.reshape(x.shape[:2] + out)
    return y if batched else y[0]


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The (N, C, H, W) tensor of zeros with input's values at indices (max_pool2d's)."""
    return _max_unpool(2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(3, input, indices, kernel_size, stride, padding, output_size)


# Note [Fractional max pooling]
# Graham's (2014) pooling: each (sample, channel) plane draws u in [0, 1)
# per spatial dim (_random_samples (N, C, n): u[0] for W and u[1] for H in
# 2-D, u[0] for D, u[1] for H, u[2] for W in 3-D, as PyTorch's kernels read
# them), and window i along a dim of length L starts at int((i + u) alpha)
# - int(u alpha), alpha = (L - k) / (o - 1) in the input's dtype, the last
# at L - k.  The windows are gathered one dim at a time (take_along_axis
# with each plane's starts) and reduced with argmax; indices are flat
# positions in the plane, as max_pool's.
def _fractional_max_pool(n, input, kernel_size, output_size, output_ratio, return_indices, _random_samples):
    dt = _dt()
    name = f"fractional_max_pool{n}d"
    x, batched = _batched(name, input, n)
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"\"{name}\" not implemented for '{x.dtype}'")
    kernel = _tuple(kernel_size, n, "kernel_size")
    spatial = x.shape[2:]
    if output_size is None:
        if output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        ratio = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * n
        if len(ratio) != n or not all(0 < r < 1 for r in ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")
        out = tuple(int(length * r) for length, r in zip(spatial, ratio))
    else:
        out = _tuple(output_size, n, "output_size")
    for d in range(n):
        if kernel[d] <= 0 or out[d] <= 0 or out[d] + kernel[d] - 1 > spatial[d]:
            raise RuntimeError(f"{name}(): a pool size of {kernel[d]} and an output size of {out[d]} need an "
                               f"input of at least {out[d] + kernel[d] - 1} along spatial dim {d}, got "
                               f"{spatial[d]}")
    batch, channels = x.shape[:2]
    if _random_samples is None:
        from .functional import _random
        samples = _random().uniform(size=(batch, channels, n), dtype=x.dtype, device=x.device)
    else:
        _tensor(_random_samples, "_random_samples")
        if tuple(_random_samples.shape) != (batch, channels, n):
            raise RuntimeError(f"{name}(): expected _random_samples of shape {[batch, channels, n]}, got "
                               f"{list(_random_samples.shape)}")
        _same_device(x, _random_samples)
        samples = _random_samples.astype(x.dtype, copy=False)
    order = (1, 0) if n == 2 else (0, 1, 2)  # the sample of each spatial dim (the Note)
    y, flat = x, None
    starts_of = []
    for d in range(n):
        length, k, o = spatial[d], kernel[d], out[d]
        u = samples[..., order[d]][..., None]  # (N, C, 1)
        if o > 1:
            alpha = dt.asarray(length - k, dtype=x.dtype) / dt.asarray(o - 1, dtype=x.dtype)
            i = dt.arange(o, dtype=x.dtype, device=x.device)
            starts = ((i + u) * alpha).astype(_C.int64) - (u * alpha).astype(_C.int64)
            starts[..., -1] = length - k
        else:
            starts = dt.full((batch, channels, 1), length - k, dtype=_C.int64, device=x.device)
        starts_of.append(starts)
        rows = (starts[..., None] + dt.arange(k, device=x.device)).reshape((batch, channels, o * k))
        y = dt.take_along_axis(y, rows.reshape((batch, channels) + (1,) * d + (o * k,) + (1,) * (n - 1 - d)),
                               axis=2 + d)
    # y: (N, C, o0 k0, o1 k1, ...) -> (N, C, o0, o1, ..., k0 k1 ...)
    y = y.reshape((batch, channels) + tuple(v for d in range(n) for v in (out[d], kernel[d])))
    y = dt.moveaxis(y, [3 + 2 * d for d in range(n)], [2 + n + d for d in range(n)])
    windows = y.reshape((batch, channels) + out + (math.prod(kernel),))
    local = dt.argmax(windows, axis=-1)
    values = dt.take_along_axis(windows, local[..., None], axis=-1)[..., 0]
    if not return_indices:
        return values if batched else values[0]
    for d in range(n):  # the flat position in the plane of each window's maximum
        inner = math.prod(kernel[d + 1:])
        offset = (local // inner) % kernel[d]
        start = starts_of[d].reshape((batch, channels) + tuple(out[e] if e == d else 1 for e in range(n)))
        position = start + offset
        flat = position if flat is None else flat * spatial[d] + position
    return (values, flat) if batched else (values[0], flat[0])


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """The maximum of each pseudo-random window (Note [Fractional max pooling])."""
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def channel_shuffle(input, groups):
    """(N, C, *) with its channels regrouped: channel g * (C / groups) + j
    moves to j * groups + g (ShuffleNet's)."""
    _tensor(input)
    groups = operator.index(groups)
    if input.ndim < 3:
        raise RuntimeError(f"channel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} channels and "
                           f"{groups} groups.")
    lead, rest = input.shape[:1], input.shape[2:]
    x = input.reshape(lead + (groups, channels // groups) + rest)
    return _dt().ascontiguousarray(_dt().swapaxes(x, 1, 2)).reshape(input.shape)


def _avg_pool(n, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    name = f"avg_pool{n}d"
    dt = _dt()
    x, batched = _batched(name, input, n)
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"\"{name}\" not implemented for '{x.dtype}'")
    kernel, stride, _, pads, out = _pool_geometry(n, name, x, kernel_size, stride, padding, 1, ceil_mode)
    ones = (1,) * n
    windows, _ = _windows(_pad_spatial(x, pads, 0), kernel, stride, ones)
    sums = dt.sum(_crop(windows, out).reshape(x.shape[:2] + out + (-1,)), axis=-1)
    if divisor_override:
        y = sums / divisor_override
    else:
        # each window's divisor: its elements inside the input, and inside the
        # padding too with count_include_pad (never the ceil_mode extension)
        inside = dt.ones((1, 1) + x.shape[2:], dtype=x.dtype, device=x.device)
        if count_include_pad:
            inside = dt.pad(inside, ((0, 0), (0, 0)) + tuple((lo, lo) for lo, _ in pads), constant_values=1)
            extra = tuple((0, hi - lo) for lo, hi in pads)
        else:
            extra = pads
        counts, _ = _windows(_pad_spatial(inside, extra, 0), kernel, stride, ones)
        y = sums / dt.sum(_crop(counts, out).reshape((1, 1) + out + (-1,)), axis=-1)
    y = y.astype(x.dtype, copy=False)
    return y if batched else y[0]


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The mean of each window of input (N, C, L)."""
    return _avg_pool(1, input, kernel_size, stride, padding, ceil_mode, count_include_pad, None)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each window of input (N, C, H, W)."""
    return _avg_pool(2, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def _lp_pool(n, input, norm_type, kernel_size, stride, ceil_mode):
    """(sum of x^p over each window)^(1/p): the window mean of x^p times the
    window size, the sign kept where an odd p gives a negative sum
    (PyTorch's lp_pool)."""
    dt = _dt()
    _tensor(input)
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"\"lp_pool{n}d\" not implemented for '{input.dtype}'")
    if isinstance(norm_type, (int, float)):
        if norm_type == 0:
            raise ValueError(f"norm_type must be a non-zero value, but got {norm_type}")
        if math.isinf(norm_type):  # PyTorch's: the largest |x| of a window (its smallest for -inf)
            pool = {1: max_pool1d, 2: max_pool2d, 3: max_pool3d}[n]
            if norm_type > 0:
                return pool(dt.abs(input), kernel_size, stride, 0, 1, ceil_mode)
            return -pool(-dt.abs(input), kernel_size, stride, 0, 1, ceil_mode)
    kernel = _tuple(kernel_size, n, "kernel_size")
    out = _avg_pool(n, dt.power(input, norm_type), kernel, stride, 0, ceil_mode, True, None)
    return (dt.sign(out) * dt.maximum(dt.abs(out), 0) * math.prod(kernel)) ** (1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


def _adaptive(n, name, input, output_size, reduce):
    """input's spatial dims each cut into output_size ranges [floor(i L / o),
    ceil((i + 1) L / o)) and reduced, one dim at a time (both reductions
    are separable)."""
    dt = _dt()
    x, batched = _batched(name, input, n)
    sizes = _tuple(tuple(x.shape[2 + d] if s is None else s for d, s in enumerate(output_size))
                   if isinstance(output_size, (tuple, list)) else output_size, n, "output_size")
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to 0 but received "
                           f"{list(sizes)}")
    for d, o in enumerate(sizes):
        axis, length = 2 + d, x.shape[2 + d]
        if length == 0 and o > 0:
            raise RuntimeError(f"{name}: input's spatial dimensions must be non-empty, got {list(x.shape)}")
        parts = []
        for i in range(o):
            lo, hi = (i * length) // o, -(-((i + 1) * length) // o)
            parts.append(reduce(x[(slice(None),) * axis + (slice(lo, hi),)], axis))
        x = dt.concatenate(parts, axis=axis) if parts else x[(slice(None),) * axis + (slice(0, 0),)]
    return x if batched else x[0]


def adaptive_avg_pool1d(input, output_size):
    return _adaptive(1, "adaptive_avg_pool1d", input, output_size,
                     lambda part, axis: _dt().mean(part, axis=axis, keepdims=True))


def adaptive_avg_pool2d(input, output_size):
    """The mean of output_size[0] x output_size[1] nearly equal ranges of input's H x W."""
    return _adaptive(2, "adaptive_avg_pool2d", input, output_size,
                     lambda part, axis: _dt().mean(part, axis=axis, keepdims=True))


def adaptive_avg_pool3d(input, output_size):
    return _adaptive(3, "adaptive_avg_pool3d", input, output_size,
                     lambda part, axis: _dt().mean(part, axis=axis, keepdims=True))


def _adaptive_max_with_indices(n, name, input, output_size):
    """The maxima of adaptive max pooling and their positions in the
    flattened spatial dims of input, one output cell at a time."""
    dt = _dt()
    x, batched = _batched(name, input, n)
    sizes = _tuple(tuple(x.shape[2 + d] if s is None else s for d, s in enumerate(output_size))
                   if isinstance(output_size, (tuple, list)) else output_size, n, "output_size")
    spatial = x.shape[2:]
    if any(s <= 0 for s in sizes) or any(v == 0 for v in spatial):
        raise RuntimeError(f"{name}: output_size and input's spatial dimensions must be positive to return "
                           f"indices, got output_size={list(sizes)} and input of size {list(x.shape)}")
    values, indices = [], []
    for cell in itertools.product(*(range(o) for o in sizes)):
        ranges = [((i * length) // o, -(-((i + 1) * length) // o)) for i, length, o in zip(cell, spatial, sizes)]
        part = x[(slice(None), slice(None)) + tuple(slice(lo, hi) for lo, hi in ranges)]
        flat = part.reshape(part.shape[:2] + (math.prod(part.shape[2:]),))  # not -1: the batch may be empty
        local = dt.argmax(flat, axis=2)
        values.append(dt.take_along_axis(flat, local[..., None], axis=2)[..., 0])
        index, rest = 0, local  # local's row-major position in the window, as one in the whole input
        for d in range(n):
            widths = [hi - lo for lo, hi in ranges]
            inner = math.prod(widths[d + 1:])
            index = index * spatial[d] + (rest // inner + ranges[d][0])
            rest = rest % inner
        indices.append(index)
    shape = x.shape[:2] + sizes
    y, where = dt.stack(values, axis=-1).reshape(shape), dt.stack(indices, axis=-1).reshape(shape)
    return (y, where) if batched else (y[0], where[0])


def _adaptive_max(n, input, output_size, return_indices):
    name = f"adaptive_max_pool{n}d"
    if return_indices:
        return _adaptive_max_with_indices(n, name, input, output_size)
    return _adaptive(n, name, input, output_size, lambda part, axis: _dt().amax(part, axis=axis, keepdims=True))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    return _adaptive_max(1, input, output_size, return_indices)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The maxima of output_size[0] x output_size[1] nearly equal ranges of
    input's H x W (with return_indices, and their positions in H * W)."""
    return _adaptive_max(2, input, output_size, return_indices)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    return _adaptive_max(3, input, output_size, return_indices)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """PyTorch's unfold (im2col): every kernel_size window of input (N, C, H,
    W) as a column of C * kh * kw values, (N, C * kh * kw, L) with L the
    windows in row-major order."""
    dt = _dt()
    x, batched = _batched("unfold", input, 2)
    kernel, stride = _tuple(kernel_size, 2, "kernel_size"), _tuple(stride, 2, "stride")
    dilation, pad = _tuple(dilation, 2, "dilation"), _tuple(padding, 2, "padding")
    windows, out = _windows(_pad_spatial(x, tuple((p, p) for p in pad), 0), kernel, stride, dilation)
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input with spatial size {tuple(x.shape[2:])}, kernel_size={kernel}, "
                           f"dilation={dilation}, padding={pad}, calculated shape of the array of sliding blocks "
                           f"as {out}, but its components must be at least one.")
    # (N, C, oh, ow, kh, kw) -> (N, C, kh, kw, oh, ow) -> (N, C * kh * kw, oh * ow)
    cols = dt.ascontiguousarray(dt.permute_dims(windows, (0, 1, 4, 5, 2, 3)))
    cols = cols.reshape(x.shape[0], x.shape[1] * kernel[0] * kernel[1], out[0] * out[1])
    return cols if batched else cols[0]


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """PyTorch's fold (col2im), unfold's adjoint: columns (N, C * kh * kw, L)
    summed into (N, C, *output_size), overlapping windows adding up."""
    _tensor(input)
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                           f"non-zero dimensions for input, but got: {list(input.shape)}")
    batched = input.ndim == 3
    x = input if batched else input[None]
    size, kernel = _tuple(output_size, 2, "output_size"), _tuple(kernel_size, 2, "kernel_size")
    dilation, pad = _tuple(dilation, 2, "dilation"), _tuple(padding, 2, "padding")
    stride = _tuple(stride, 2, "stride")
    if any(v <= 0 for v in kernel + dilation + stride) or any(p < 0 for p in pad):
        raise RuntimeError(f"fold: kernel_size, dilation and stride must be positive and padding non-negative, "
                           f"got kernel_size={kernel}, dilation={dilation}, padding={pad}, stride={stride}")
    taps = kernel[0] * kernel[1]
    if x.shape[1] % taps:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                           f"but got input.size(1)={x.shape[1]} and kernel_size={kernel}")
    full = tuple(o + 2 * p for o, p in zip(size, pad))
    blocks = tuple((f - d * (k - 1) - 1) // s + 1 for f, d, k, s in zip(full, dilation, kernel, stride))
    if any(b <= 0 for b in blocks) or blocks[0] * blocks[1] != x.shape[2]:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={pad}, "
                           f"stride={stride}, expected size of input's dimension 2 to match the calculated number "
                           f"of sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={x.shape[2]}.")
    cols = x.reshape((x.shape[0], x.shape[1] // taps) + kernel + blocks)
    y = _col2im(cols, kernel, blocks, stride, dilation, full)
    y = _dt().ascontiguousarray(y[:, :, pad[0]:pad[0] + size[0], pad[1]:pad[1] + size[1]])
    return y if batched else y[0]


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r), PyTorch's pixel_shuffle."""
    _tensor(input)
    r = operator.index(upscale_factor)
    if input.ndim < 3 or input.shape[-3] % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                           f"of upscale_factor, but input.size(-3)={input.shape[-3] if input.ndim >= 3 else None} "
                           f"is not divisible by {r * r}")
    *lead, c, h, w = input.shape
    x = input.reshape(tuple(lead) + (c // (r * r), r, r, h, w))
    n = len(lead)
    x = _dt().permute_dims(x, tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return x.reshape(tuple(lead) + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W), pixel_shuffle's inverse."""
    _tensor(input)
    r = operator.index(downscale_factor)
    *lead, c, h, w = input.shape
    if h % r or w % r:
        raise RuntimeError(f"pixel_unshuffle expects height and width to be divisible by downscale_factor, but got "
                           f"{h} and {w} for downscale_factor={r}")
    x = input.reshape(tuple(lead) + (c, h // r, r, w // r, r))
    n = len(lead)
    x = _dt().permute_dims(x, tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return x.reshape(tuple(lead) + (c * r * r, h // r, w // r))


# ---- interpolate ----
_LINEAR = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
_CUBIC_A = -0.75  # PyTorch's (and OpenCV's) cubic convolution parameter


def _cubic_weights(t):
    """The weights of the taps at floor(src) - 1 .. floor(src) + 2 for the
    fraction t (Keys' cubic convolution with a = -0.75)."""
    a = _CUBIC_A

    def near(v):  # |v| <= 1
        return ((a + 2) * v - (a + 3)) * v * v + 1

    def far(v):  # 1 < |v| < 2
        return ((a * v - 5 * a) * v + 8 * a) * v - 4 * a
    return far(t + 1), near(t), near(1 - t), far(2 - t)


def _cubic_along(x, axis, length, src, shape):
    """x resampled along axis at the float64 positions src, the four taps
    clamped to the edge as PyTorch's bicubic upsampling does."""
    dt = _dt()
    base = dt.floor(src)
    weights = _cubic_weights(src - base)
    base = base.astype(_C.int64)
    wide = x.astype(_C.float32) if x.dtype in (_C.float16, _C.bfloat16) else x
    total = None
    for k, w in zip(range(-1, 3), weights):
        tap = dt.take(wide, dt.clip(base + k, 0, length - 1), axis=axis) * w.astype(wide.dtype).reshape(shape)
        total = tap if total is None else total + tap
    return total


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """input (N, C, *spatial) resized to size (or by scale_factor): nearest,
    nearest-exact, linear/bilinear/trilinear or bicubic interpolation, with
    PyTorch's index arithmetic (align_corners=False maps pixel centres), or
    area (adaptive average pooling to the new size)."""
    dt = _dt()
    _tensor(input)
    n = input.ndim - 2
    if n < 1:
        raise ValueError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the "
                         f"modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact")
    if mode not in ("nearest", "nearest-exact", "area") + tuple(_LINEAR):
        raise NotImplementedError(f"interpolate: mode '{mode}' is not implemented in devtensor (nearest, "
                                  f"nearest-exact, linear, bilinear, bicubic, trilinear and area are)")
    if mode in _LINEAR and _LINEAR[mode] != n:
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {_LINEAR[mode] + 2}D input")
    if align_corners is not None and mode not in _LINEAR:
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear "
                         "| bicubic | trilinear")
    if mode in tuple(_LINEAR) + ("area",) and not input.dtype.is_floating_point:
        raise RuntimeError(f"\"upsample_{mode}{n}d\" is not implemented for '{input.dtype}'")
    if antialias:
        raise NotImplementedError("interpolate(antialias=True) is not implemented in devtensor")
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined")
    spatial = input.shape[2:]
    if size is not None:
        out = _tuple(size, n, "size")
        scales = [spatial[d] / out[d] if out[d] else 0.0 for d in range(n)]
        near = [np.float32(spatial[d]) / np.float32(out[d]) if out[d] else np.float32(0) for d in range(n)]
    else:
        factors = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * n
        if len(factors) != n:
            raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got "
                             f"input with spatial dimensions of {list(spatial)} and scale_factor of shape "
                             f"{list(factors)}.")
        out = tuple(int(math.floor(spatial[d] * factors[d])) for d in range(n))
        scales = [spatial[d] / out[d] if recompute_scale_factor and out[d] else 1.0 / factors[d] for d in range(n)]
        near = [np.float32(spatial[d]) / np.float32(out[d]) if recompute_scale_factor and out[d] else
                np.float32(1.0 / factors[d]) for d in range(n)]
    if mode == "area":
        return _adaptive(n, f"adaptive_avg_pool{n}d", input, out,
                         lambda part, axis: dt.mean(part, axis=axis, keepdims=True))
    x = input
    for d in range(n):
        axis, length, o = 2 + d, spatial[d], out[d]
        if mode in ("nearest", "nearest-exact"):  # PyTorch's float32 index arithmetic, on the host
            pos = np.arange(o, dtype=np.float32) + (np.float32(0.5) if mode == "nearest-exact" else np.float32(0))
            src = np.minimum(np.floor(pos * near[d]).astype(np.int64), length - 1)
            if length and o % length == 0 and np.array_equal(src, np.arange(o) // (o // length)):
                x = dt.repeat(x, o // length, axis=axis)  # an integer upscale: each element repeated, no gather
            else:
                x = dt.take(x, dt.asarray(src, device=input.device), axis=axis)
            continue
        dst = dt.arange(o, dtype=_C.float64, device=input.device)
        if align_corners:
            src = dst * ((length - 1) / (o - 1)) if o > 1 else dst * 0
        elif mode == "bicubic":
            src = (dst + 0.5) * scales[d] - 0.5
        else:
            src = dt.maximum((dst + 0.5) * scales[d] - 0.5, 0)
        if mode == "bicubic":
            x = _cubic_along(x, axis, length, src, (o,) + (1,) * (n - 1 - d)).astype(input.dtype, copy=False)
            continue
        lo = dt.minimum(dt.floor(src).astype(_C.int64), length - 1)
        hi = dt.minimum(lo + 1, length - 1)
        frac = (src - lo).astype(x.dtype)
        shape = (o,) + (1,) * (n - 1 - d)
        frac = frac.reshape(shape)
        a, b = dt.take(x, lo, axis=axis), dt.take(x, hi, axis=axis)
        x = (a + (b - a) * frac).astype(input.dtype, copy=False)
    return x



def _deprecated(name):
    warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=3)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
    """interpolate's old name (deprecated in PyTorch, with a warning)."""
    _deprecated("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def upsample_nearest(input, size=None, scale_factor=None):
    """interpolate(mode='nearest') (deprecated in PyTorch, with a warning)."""
    _deprecated("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """interpolate(mode='bilinear', align_corners=True) (deprecated in
    PyTorch, with a warning)."""
    _deprecated("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
