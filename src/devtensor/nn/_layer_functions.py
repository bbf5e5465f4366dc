"""nn.functional's layer functions beyond activations and losses:
normalisation (layer_norm, rms_norm, group_norm, batch_norm, instance_norm), embedding,
embedding_bag, pad, distances (cosine_similarity, pairwise_distance) and
scaled_dot_product_attention, with PyTorch's arguments, results and
errors, computed with devtensor's operations on the input's device.

Note [Normalisation statistics]
    The statistics are the biased ones (divided by n), as PyTorch's
    normalisation layers use; batch_norm's running variance is updated with
    the unbiased one, as PyTorch's is.  float16 and bfloat16 inputs are
    normalised in float32 and rounded once (Note [Half precision computes
    in float32] in functional.py).
"""
import math
import operator

from .. import _C
from .._C import Tensor
from .. import _reductions, _ufuncs
from .._torch_selection import _dim
from .functional import _HALF, _same_device, _tensor, dropout, softmax


def _dt():
    import devtensor
    return devtensor


def _normalized(x, axes, eps):
    """(x - mean) / sqrt(var + eps) over axes, in float32 for the half dtypes."""
    wide = x.astype(_C.float32) if x.dtype in _HALF else x
    mean = _reductions.mean(wide, axis=axes, keepdims=True)
    centred = wide - mean
    var = _reductions.mean(centred * centred, axis=axes, keepdims=True)
    return centred / _ufuncs.sqrt(var + eps)


def _affine(y, weight, bias, dtype):
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y.astype(dtype, copy=False)


def _shape(normalized_shape):
    if isinstance(normalized_shape, int) or hasattr(normalized_shape, "__index__"):
        return (operator.index(normalized_shape),)
    return tuple(operator.index(n) for n in normalized_shape)


def _trailing(input, shape):
    if not shape or tuple(input.shape[input.ndim - len(shape):]) != shape or input.ndim < len(shape):
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")


def _parameter_shape(t, shape, what):
    if t is not None and tuple(t.shape) != shape:
        raise RuntimeError(f"Expected {what} to be of same shape as normalized_shape, but got {what} of shape "
                           f"{list(t.shape)} and normalized_shape = {list(shape)}")


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """input normalised over its last len(normalized_shape) dims, then
    scaled by weight and shifted by bias (PyTorch's layer_norm)."""
    _tensor(input)
    shape = _shape(normalized_shape)
    _trailing(input, shape)
    _parameter_shape(weight, shape, "weight")
    _parameter_shape(bias, shape, "bias")
    _same_device(input, weight, bias)
    axes = tuple(range(input.ndim - len(shape), input.ndim))
    return _affine(_normalized(input, axes, eps), weight, bias, input.dtype)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input / sqrt(mean(input^2) + eps) over its last dims, times weight
    (PyTorch's rms_norm; eps defaults to the dtype's machine epsilon)."""
    _tensor(input)
    shape = _shape(normalized_shape)
    _trailing(input, shape)
    _parameter_shape(weight, shape, "weight")
    _same_device(input, weight)
    wide = input.astype(_C.float32) if input.dtype in _HALF else input
    if eps is None:
        eps = _eps(input.dtype)
    axes = tuple(range(input.ndim - len(shape), input.ndim))
    y = wide / _ufuncs.sqrt(_reductions.mean(wide * wide, axis=axes, keepdims=True) + eps)
    return _affine(y, weight, None, input.dtype)


def _eps(dtype):
    from .._dtype_api import finfo
    return float(finfo(dtype).eps)


def _channels(name, t, c, what):
    if t is not None and tuple(t.shape) != (c,):
        raise RuntimeError(f"{name}: expected {what} of shape [{c}], got {list(t.shape)}")


def _per_channel_operands(name, input, running_mean, running_var, weight, bias):
    """batch_norm's and instance_norm's check: each of the four given is a
    tensor of one value per channel of input, all on input's device."""
    c = input.shape[1]
    for t, what in ((running_mean, "running_mean"), (running_var, "running_var"), (weight, "weight"),
                    (bias, "bias")):
        if t is not None:
            _tensor(t, what)
        _channels(name, t, c, what)
    _same_device(input, running_mean, running_var, weight, bias)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """input (N, C, *) normalised within each of num_groups groups of
    channels, then weight and bias per channel (PyTorch's group_norm)."""
    _tensor(input)
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.ndim}")
    n, c = input.shape[:2]
    num_groups = operator.index(num_groups)
    if num_groups <= 0 or c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input "
                           f"of shape {list(input.shape)} and num_groups={num_groups}")
    _channels("group_norm", weight, c, "weight")
    _channels("group_norm", bias, c, "bias")
    _same_device(input, weight, bias)
    grouped = input.reshape((n, num_groups, -1))
    y = _normalized(grouped, 2, eps).reshape(input.shape)
    per_channel = (c,) + (1,) * (input.ndim - 2)
    return _affine(y, None if weight is None else weight.reshape(per_channel),
                   None if bias is None else bias.reshape(per_channel), input.dtype)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5):
    """input (N, C, *) normalised per channel: by the batch's statistics
    while training (updating running_mean and running_var in place with
    momentum, the variance's unbiased), by the running ones otherwise."""
    _tensor(input)
    if input.ndim < 2:
        raise ValueError(f"expected 2D or 3D input (got {input.ndim}D input)")
    c = input.shape[1]
    _per_channel_operands("batch_norm", input, running_mean, running_var, weight, bias)
    axes = (0,) + tuple(range(2, input.ndim))
    per_channel = (c,) + (1,) * (input.ndim - 2)
    wide = input.astype(_C.float32) if input.dtype in _HALF else input
    if training:
        count = input.size // c if c else 0
        if count <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"{list(input.shape)}")
        mean = _reductions.mean(wide, axis=axes)
        centred = wide - mean.reshape(per_channel)
        var = _reductions.mean(centred * centred, axis=axes)
        if running_mean is not None:
            running_mean[...] = running_mean * (1 - momentum) + mean * momentum
        if running_var is not None:
            running_var[...] = running_var * (1 - momentum) + var * (count / (count - 1) * momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
        mean, var = running_mean, running_var
        centred = wide - mean.reshape(per_channel)
    y = centred / _ufuncs.sqrt(var.reshape(per_channel) + eps)
    return _affine(y, None if weight is None else weight.reshape(per_channel),
                   None if bias is None else bias.reshape(per_channel), input.dtype)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """input (N, C, *spatial) normalised per sample and channel over its
    spatial dims (PyTorch's instance_norm).  With use_input_stats and
    running statistics, those are updated with the batch's average of the
    per-instance mean and unbiased variance; without use_input_stats the
    running statistics normalise, as batch_norm's in eval mode."""
    _tensor(input)
    if input.ndim < 3:
        raise ValueError(f"Expected at least 3D input (got {input.ndim}D input)")
    c = input.shape[1]
    _per_channel_operands("instance_norm", input, running_mean, running_var, weight, bias)
    if not use_input_stats:
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    spatial = math.prod(input.shape[2:])
    if spatial <= 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {list(input.shape)}")
    axes = tuple(range(2, input.ndim))
    wide = input.astype(_C.float32) if input.dtype in _HALF else input
    mean = _reductions.mean(wide, axis=axes, keepdims=True)
    centred = wide - mean
    var = _reductions.mean(centred * centred, axis=axes, keepdims=True)
    if running_mean is not None:
        batch_mean = _reductions.mean(mean.reshape(input.shape[:2]), 0)
        running_mean[...] = running_mean * (1 - momentum) + batch_mean * momentum
    if running_var is not None:
        unbiased = _reductions.mean(var.reshape(input.shape[:2]), 0) * (spatial / (spatial - 1))
        running_var[...] = running_var * (1 - momentum) + unbiased * momentum
    y = centred / _ufuncs.sqrt(var + eps)
    per_channel = (c,) + (1,) * (input.ndim - 2)
    return _affine(y, None if weight is None else weight.reshape(per_channel),
                   None if bias is None else bias.reshape(per_channel), input.dtype)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows of weight at the integer indices in input (PyTorch's
    embedding); with max_norm, the rows looked up whose norm exceeds it are
    first rescaled to max_norm in weight itself, as PyTorch's are."""
    _tensor(input)
    _tensor(weight, "weight")
    if input.dtype.kind not in "iu":
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got {input.dtype} instead (while checking arguments for "
                           f"embedding)")
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _same_device(input, weight)
    if input.size and input.dtype.kind == "i" and input.min() < 0:  # PyTorch's refusal, not the last rows
        raise IndexError("index out of range in self")
    if max_norm is not None and input.size:
        from .. import linalg, unique
        rows = unique(input.reshape(-1))
        norms = linalg.vector_norm(weight[rows], ord=norm_type, axis=1, keepdims=True)
        scale = _ufuncs.where(norms > max_norm, max_norm / (norms + 1e-7), 1)
        weight[rows] = weight[rows] * scale
    return weight[input]


def _bag_offsets(input, offsets, include_last_offset):
    """(flat indices, bag starts (B,), end, whether a bag starts at the end
    of the input): a 2-D input is one bag a row."""
    dt = _dt()
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences")
        bags, length = input.shape
        return input.reshape(-1), dt.arange(bags, device=input.device) * length, input.size, length == 0
    if input.ndim != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    _tensor(offsets, "offsets")
    _same_device(input, offsets)
    if offsets.ndim != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    if offsets.dtype.kind not in "iu":
        raise RuntimeError(f"offsets must hold integers, got {offsets.dtype}")
    offsets = offsets.astype(_C.int64, copy=False)
    if include_last_offset and offsets.size == 0:
        raise RuntimeError("include_last_offset: number of offsets should be at least 1")
    if not offsets.size:
        return input, offsets, input.size, False
    # the first, the last and the next to last offsets, in one read
    first, before_last, last = dt.stack([offsets[0], offsets[max(offsets.size - 2, 0)], offsets[-1]]).tolist()
    if first != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                           f"from position 0. However, got {first}")
    if last > input.size:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {input.size}, but got {last}")
    if offsets.size > 1 and bool((offsets[1:] < offsets[:-1]).any()):
        raise RuntimeError("offsets must be non-decreasing")
    if include_last_offset:
        return input, offsets[:-1], last, offsets.size > 1 and before_last == input.size
    return input, offsets, input.size, last == input.size


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """The sum, mean or max of the embedding rows of each bag of indices:
    the rows of a 2-D input, or input[offsets[b]:offsets[b + 1]] of a 1-D
    one.  Indices equal to padding_idx are left out (of the count too);
    an empty bag gives zeros; per_sample_weights scale the rows (mode
    'sum')."""
    dt = _dt()
    _tensor(input)
    _tensor(weight, "weight")
    _same_device(input, weight)
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"mode has to be one of sum, mean or max, got {mode!r}")
    if per_sample_weights is not None:
        _tensor(per_sample_weights, "per_sample_weights")
        _same_device(input, per_sample_weights)
        if mode != "sum":
            raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                      f"supported for mode='sum' (got mode='{mode}')")
        if per_sample_weights.dtype != weight.dtype:
            raise RuntimeError(f"embedding_bag: per_sample_weights ({per_sample_weights.dtype}) must have "
                               f"weight's dtype ({weight.dtype})")
        if per_sample_weights.shape != input.shape:
            raise ValueError(f"embedding_bag: If per_sample_weights ({list(per_sample_weights.shape)}) is not None, "
                             f"then it must have the same shape as the input ({list(input.shape)})")
    if input.dtype.kind not in "iu":
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.dtype} instead (while checking arguments for embedding_bag)")
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if padding_idx is not None:
        padding_idx = operator.index(padding_idx)
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise ValueError(f"padding_idx must be within the number of embeddings ({weight.shape[0]}), got "
                             f"{padding_idx}")
        padding_idx %= weight.shape[0]
    flat, starts, end, starts_at_end = _bag_offsets(input, offsets, include_last_offset)
    rows = embedding(flat, weight, None, max_norm, norm_type)  # (M, D), out-of-range indices refused
    bags, size = starts.size, flat.size
    keep = dt.arange(size, device=input.device) < end  # past include_last_offset's end: in no bag
    if padding_idx is not None:
        keep = keep & (flat != padding_idx)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.reshape((-1, 1))
    # each bag's count of kept entries, from their running count at the bags' bounds
    running = dt.concatenate([dt.zeros(1, dtype=_C.int64, device=input.device), dt.cumsum(keep, dtype=_C.int64)])
    bounds = dt.concatenate([starts, dt.asarray([end], dtype=_C.int64, device=input.device)])
    counts = running[bounds[1:]] - running[bounds[:-1]]
    if bags == 0:
        return dt.zeros((0, weight.shape[1]), dtype=rows.dtype, device=input.device)
    # one reduction a segment (ufunc.reduceat); a row appended makes a start at the end valid
    ufunc, fill = (dt.maximum, -dt.inf) if mode == "max" else (dt.add, 0)
    if padding_idx is not None or end < size:
        rows = dt.where(keep[:, None], rows, fill).astype(rows.dtype, copy=False)
    if starts_at_end or size == 0:
        rows = dt.concatenate([rows, dt.full((1, weight.shape[1]), fill, dtype=rows.dtype, device=input.device)])
    result = ufunc.reduceat(rows, starts, axis=0)
    result = dt.where(counts[:, None] > 0, result, 0).astype(rows.dtype, copy=False)  # an empty bag: zeros
    if mode == "mean":
        result = (result / dt.maximum(counts, 1)[:, None]).astype(rows.dtype, copy=False)
    return result


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad(input, pad, mode="constant", value=None):
    """input padded by pad = (left, right) pairs from the last dim backwards
    (PyTorch's pad): constant (value, 0 by default; a negative width
    crops), reflect, replicate or circular."""
    _tensor(input)
    pad = tuple(operator.index(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {input.ndim}")
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant" and value is not None:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    widths = [(0, 0)] * input.ndim
    for i in range(len(pad) // 2):
        widths[input.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if mode == "constant":
        crop = tuple(slice(max(-lo, 0), input.shape[d] - max(-hi, 0)) for d, (lo, hi) in enumerate(widths))
        for d, (lo, hi) in enumerate(widths):
            if input.shape[d] - max(-lo, 0) - max(-hi, 0) < 0:
                raise RuntimeError(f"The input size {input.shape[d]}, plus negative padding {lo} and {hi} "
                                   f"resulted in a negative output size, which is invalid. Check dimension {d} "
                                   f"of your input.")
        from .. import pad as np_pad
        return np_pad(input[crop], [(max(lo, 0), max(hi, 0)) for lo, hi in widths], "constant",
                      constant_values=0 if value is None else value)
    for d, (lo, hi) in enumerate(widths):
        if lo < 0 or hi < 0:
            raise RuntimeError(f"Negative padding is only supported in constant mode (got {lo}, {hi} at "
                               f"dimension {d})")
        if mode == "reflect" and (lo >= input.shape[d] or hi >= input.shape[d]) and (lo or hi):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({lo}, {hi}) at dimension {d} of input "
                               f"{list(input.shape)}")
        if mode == "circular" and (lo > input.shape[d] or hi > input.shape[d]):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if mode == "replicate" and (lo or hi) and input.shape[d] == 0:
            raise RuntimeError(f"Expected a non-empty dimension {d} to pad in replicate mode")
    from .. import pad as np_pad
    return np_pad(input, widths, _PAD_MODES[mode])


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """x1 . x2 / (max(||x1||, eps) max(||x2||, eps)) along dim, x1 and x2
    broadcast (PyTorch's cosine_similarity)."""
    _tensor(x1, "x1")
    _tensor(x2, "x2")
    _same_device(x1, x2)
    from .. import broadcast_arrays, linalg
    a, b = broadcast_arrays(x1, x2)
    axis = _dim(dim, a.ndim)
    if a.dtype.kind not in "fc":
        a, b = a.astype(_C.float32), b.astype(_C.float32)
    na = _ufuncs.maximum(linalg.vector_norm(a, axis=axis), eps)
    nb = _ufuncs.maximum(linalg.vector_norm(b, axis=axis), eps)
    return _reductions.sum(a * b, axis=axis) / (na * nb)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p along the last dim (PyTorch's pairwise_distance)."""
    _tensor(x1, "x1")
    _tensor(x2, "x2")
    _same_device(x1, x2)
    from .. import linalg
    d = x1 - x2 + eps
    if d.ndim == 0:
        d = d.reshape(1)
    return linalg.vector_norm(d, ord=p, axis=-1, keepdims=keepdim)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(query @ key^T * scale + mask) @ value over the last two dims
    (PyTorch's scaled_dot_product_attention): scale 1/sqrt(E) by default, a
    bool attn_mask keeps the True positions, a float one is added,
    is_causal masks the upper triangle, enable_gqa shares each key/value
    head among query heads, dropout_p drops attention weights.  A query row
    whose every key is masked gives zeros, as PyTorch's (its nn.Multihead-
    Attention gives NaN there, and so does devtensor's)."""
    for t, what in ((query, "query"), (key, "key"), (value, "value")):
        _tensor(t, what)
        if t.ndim < 2:
            raise RuntimeError(f"scaled_dot_product_attention: {what} must have at least 2 dimensions")
    if attn_mask is not None and not isinstance(attn_mask, Tensor):
        raise TypeError(f"attn_mask must be a devtensor.Tensor, not {type(attn_mask).__name__}")
    _same_device(query, key, value, attn_mask)
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                           "is_causal=True")
    if query.shape[-1] != key.shape[-1]:
        raise RuntimeError(f"scaled_dot_product_attention: query's last dim {query.shape[-1]} differs from "
                           f"key's {key.shape[-1]}")
    if enable_gqa and query.ndim >= 3 and key.shape[-3] != query.shape[-3]:
        from .. import repeat
        heads, kv_heads = query.shape[-3], key.shape[-3]
        if heads % kv_heads:
            raise RuntimeError(f"number of heads in key/value ({kv_heads}) must divide the number of heads in "
                               f"query ({heads})")
        key = repeat(key, heads // kv_heads, axis=-3)
        value = repeat(value, heads // kv_heads, axis=-3)
    from .. import matmul, swapaxes, tril, ones
    L, S = query.shape[-2], key.shape[-2]
    factor = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = matmul(query, swapaxes(key, -1, -2)) * factor
    if is_causal:
        attn_mask = tril(ones((L, S), dtype=_C.bool, device=query.device))
    if attn_mask is not None:
        if attn_mask.dtype == _C.bool:
            scores = _ufuncs.where(attn_mask, scores, -math.inf).astype(scores.dtype, copy=False)
        else:
            scores = scores + attn_mask
    weights = softmax(scores, -1)
    if attn_mask is not None:  # PyTorch's safe softmax: a row masked whole attends to nothing (zeros), not NaN
        from .. import all as all_of
        dead = all_of(scores == -math.inf, axis=-1, keepdims=True)
        weights = _ufuncs.where(dead, 0, weights).astype(weights.dtype, copy=False)
    if dropout_p > 0:
        weights = dropout(weights, dropout_p, True)
    return matmul(weights, value)
