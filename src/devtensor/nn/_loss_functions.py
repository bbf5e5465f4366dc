"""nn.functional's margin, embedding and likelihood losses and a few
layer functions PyTorch programs call beside them: margin_ranking_loss,
hinge_embedding_loss, soft_margin_loss, cosine_embedding_loss,
triplet_margin_loss, triplet_margin_with_distance_loss, poisson_nll_loss,
gaussian_nll_loss, multilabel_soft_margin_loss, multi_margin_loss,
multilabel_margin_loss; bilinear, pdist,
gumbel_softmax and local_response_norm.  Each follows the formula in
PyTorch's documentation with its arguments, defaults and errors, and is
computed with devtensor's operations on the input's device.
"""
import math
import operator

from .. import _C, _reductions, _ufuncs
from .functional import (_check_reduction, _reduce, _same_device, _tensor, _wide, logsigmoid, pairwise_distance,
                         softmax)


def _dt():
    import devtensor
    return devtensor


def _pair(name, input, target):
    _tensor(input)
    _tensor(target, "target")
    _same_device(input, target)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin), target holding 1 or -1."""
    _check_reduction(reduction)
    _tensor(input1, "input1")
    _tensor(input2, "input2")
    _tensor(target, "target")
    _same_device(input1, input2, target)
    if not (input1.ndim == input2.ndim == target.ndim):
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {list(input1.shape)}, input2: {list(input2.shape)}, target: "
                           f"{list(target.shape)} ")
    return _reduce(_ufuncs.maximum(-target * (input1 - input2) + margin, 0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, reduction="mean"):
    """input where target is 1, max(0, margin - input) where it is -1."""
    _check_reduction(reduction)
    _pair("hinge_embedding_loss", input, target)
    dt = _dt()
    beyond = dt.where(target != 1, _ufuncs.maximum(margin - input, 0), 0)
    return _reduce(beyond + dt.where(target != -1, input, 0), reduction)


def soft_margin_loss(input, target, reduction="mean"):
    """log(1 + exp(-target * input)) (target 1 or -1), computed as softplus."""
    _check_reduction(reduction)
    _pair("soft_margin_loss", input, target)
    return _reduce(-logsigmoid(target * input), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where
    it is -1; the cosine along the last dim (rows of 2-d inputs)."""
    _check_reduction(reduction)
    _tensor(input1, "input1")
    _tensor(input2, "input2")
    _tensor(target, "target")
    _same_device(input1, input2, target)
    if input1.ndim not in (1, 2) or input1.shape != input2.shape:
        raise RuntimeError(f"cosine_embedding_loss: expected input1 and input2 of the same 1-D or 2-D shape, "
                           f"got {list(input1.shape)} and {list(input2.shape)}")
    if target.ndim != input1.ndim - 1:
        raise RuntimeError(f"{input1.ndim - 1}D target tensor expected, {target.ndim}D target tensor given")
    eps = 1e-12  # PyTorch's, added to each squared magnitude
    dot = _reductions.sum(input1 * input2, axis=-1)
    cos = dot / _ufuncs.sqrt((_reductions.sum(input1 * input1, axis=-1) + eps) *
                             (_reductions.sum(input2 * input2, axis=-1) + eps))
    dt = _dt()
    loss = dt.where(target == 1, 1 - cos, 0) + dt.where(target == -1, _ufuncs.maximum(cos - margin, 0), 0)
    return _reduce(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the
    p-norm distance (pairwise_distance); with swap, the nearer of the
    negative to the anchor and to the positive."""
    _check_reduction(reduction)
    for t, what in ((anchor, "anchor"), (positive, "positive"), (negative, "negative")):
        _tensor(t, what)
    _same_device(anchor, positive, negative)
    if not (anchor.ndim == positive.ndim == negative.ndim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and negative "
                           f"{negative.ndim}D inputs")
    if margin <= 0:
        raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
    near = pairwise_distance(anchor, positive, p, eps)
    far = pairwise_distance(anchor, negative, p, eps)
    if swap:
        far = _ufuncs.minimum(far, pairwise_distance(positive, negative, p, eps))
    return _reduce(_ufuncs.maximum(margin + near - far, 0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """exp(input) - target * input (log_input), or input - target * log(input
    + eps); full adds Stirling's target log(target) - target + log(2 pi
    target) / 2 where target > 1."""
    _check_reduction(reduction)
    _pair("poisson_nll_loss", input, target)
    if log_input:
        loss = _ufuncs.exp(input) - target * input
    else:
        loss = input - target * _ufuncs.log(input + eps)
    if full:
        t = _wide(target)
        stirling = t * _ufuncs.log(t) - t + 0.5 * _ufuncs.log(2 * math.pi * t)
        loss = loss + _dt().where(t > 1, stirling, 0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """(log(max(var, eps)) + (input - target)^2 / max(var, eps)) / 2 (plus
    log(2 pi) / 2 with full); var of input's shape, or of it with its last
    dim 1 or dropped (one variance per sample)."""
    _check_reduction(reduction)
    _pair("gaussian_nll_loss", input, target)
    _tensor(var, "var")
    _same_device(input, var)
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var[..., None]
        elif not (input.shape[:-1] == var.shape[:-1] and var.shape[-1:] == (1,)):
            raise ValueError("var is of incorrect size")
    if var.size and bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = _ufuncs.maximum(var, eps)
    loss = 0.5 * (_ufuncs.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):
    """-(target log sigmoid(input) + (1 - target) log sigmoid(-input)),
    times weight, averaged over the classes (the last dim) of each sample."""
    _check_reduction(reduction)
    _pair("multilabel_soft_margin_loss", input, target)
    _same_device(input, weight)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return _reduce(_reductions.mean(loss, axis=-1), reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, reduction="mean"):
    """Per sample, the sum over the other classes i of max(0, margin -
    input[y] + input[i])^p, over the number of classes; weight[y] scales."""
    _check_reduction(reduction)
    _pair("multi_margin_loss", input, target)
    _same_device(input, weight)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if input.ndim not in (1, 2) or target.ndim != input.ndim - 1:
        raise RuntimeError(f"multi_margin_loss: expected a 1-D or 2-D input and a target with one class per "
                           f"sample, got input {list(input.shape)} and target {list(target.shape)}")
    dt = _dt()
    x = input if input.ndim == 2 else input[None]
    y = (target if input.ndim == 2 else target[None]).astype(_C.int64)
    classes = x.shape[1]
    if y.size and (bool((y < 0).any()) or bool((y >= classes).any())):
        raise IndexError(f"multi_margin_loss: target out of range for {classes} classes")
    right = dt.take_along_axis(x, y[:, None], axis=1)
    gap = _ufuncs.maximum(margin - right + x, 0)
    if p == 2:
        gap = gap * gap
    if weight is not None:
        gap = gap * dt.take(weight, y)[:, None]
    own = dt.arange(classes, device=x.device)[None] == y[:, None]
    loss = _reductions.sum(dt.where(own, 0, gap), axis=1) / classes
    return _reduce(loss if input.ndim == 2 else loss[0], reduction)


def multilabel_margin_loss(input, target, reduction="mean"):
    """Per sample, the sum over its target classes j (target's entries
    before the first negative one) and its other classes i of max(0, 1 -
    (input[j] - input[i])), over the number of classes."""
    _check_reduction(reduction)
    _pair("multilabel_margin_loss", input, target)
    if input.ndim not in (1, 2) or target.shape != input.shape:
        raise RuntimeError(f"multilabel_margin_loss: expected a 1-D or 2-D input and a target of its shape, got "
                           f"input {list(input.shape)} and target {list(target.shape)}")
    if target.dtype.is_floating_point or target.dtype.is_complex or target.dtype == _C.bool:
        raise TypeError(f"multilabel_margin_loss: target must hold integer class indices, got {target.dtype}")
    dt = _dt()
    x = _wide(input if input.ndim == 2 else input[None])
    y = (target if target.ndim == 2 else target[None]).astype(_C.int64)
    classes = x.shape[1]
    listed = dt.cumprod(y >= 0, axis=1).astype(_C.bool)  # the entries before the first negative one
    if bool((listed & (y >= classes)).any()):
        raise IndexError(f"multilabel_margin_loss: target out of range for {classes} classes")
    slots = int(listed.sum(axis=1).max()) if y.size else 0
    rows = x.shape[0]
    # is_target: a column past the classes takes the writes of unlisted entries
    is_target = dt.zeros((rows, classes + 1), dtype=_C.bool, device=x.device)
    dt.put_along_axis(is_target, dt.where(listed, y, classes), True, axis=1)
    others = ~is_target[:, :classes]
    y, listed = y[:, :slots], listed[:, :slots]
    right = dt.take_along_axis(x, dt.where(listed, y, 0), axis=1)  # (N, slots)
    gaps = _ufuncs.maximum(1 - right[:, :, None] + x[:, None, :], 0)  # (N, slots, C)
    gaps = dt.where(listed[:, :, None] & others[:, None, :], gaps, 0)
    loss = (_reductions.sum(gaps, axis=(1, 2)) / classes).astype(input.dtype, copy=False)
    return _reduce(loss if input.ndim == 2 else loss[0], reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) for any
    distance function d (pairwise_distance by default); with swap, the
    nearer of the negative to the anchor and to the positive."""
    _check_reduction(reduction)
    for t, what in ((anchor, "anchor"), (positive, "positive"), (negative, "negative")):
        _tensor(t, what)
    _same_device(anchor, positive, negative)
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} "
                         f"instead")
    if not (anchor.ndim == positive.ndim == negative.ndim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and negative "
                           f"{negative.ndim}D inputs")
    distance = pairwise_distance if distance_function is None else distance_function
    near, far = distance(anchor, positive), distance(anchor, negative)
    if swap:
        far = _ufuncs.minimum(far, distance(positive, negative))
    return _reduce(_ufuncs.maximum(margin + near - far, 0), reduction)


def bilinear(input1, input2, weight, bias=None):
    """y_k = input1 W_k input2 + b_k over the last dims (weight (out, in1, in2))."""
    _tensor(input1, "input1")
    _tensor(input2, "input2")
    _tensor(weight, "weight")
    _same_device(input1, input2, weight, bias)
    if weight.ndim != 3 or input1.shape[-1] != weight.shape[1] or input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(f"bilinear: expected weight (out, {input1.shape[-1]}, {input2.shape[-1]}), got "
                           f"{list(weight.shape)}")
    if input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(f"bilinear: input1 and input2 must have the same leading dims, got "
                           f"{list(input1.shape)} and {list(input2.shape)}")
    y = _dt().einsum("...i,kij,...j->...k", input1, weight, input2, optimize=True)
    return y if bias is None else y + bias


def pdist(input, p=2):
    """The p-norm distances between the rows of the 2-d input, each pair
    i < j once, in row-major order (the condensed form)."""
    _tensor(input)
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    dt = _dt()
    n = input.shape[0]
    rows, cols = dt.triu_indices(n, 1, device=input.device)
    diff = input[rows] - input[cols]
    return dt.linalg.vector_norm(diff, ord=p, axis=-1)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + g) / tau) along dim, g standard Gumbel draws; hard
    gives the one-hot of its maximum (no gradient to pass straight through)."""
    _tensor(logits, "logits")
    dt = _dt()
    u = dt.random.random(logits.shape, device=logits.device)
    gumbels = -_ufuncs.log(-_ufuncs.log(u + eps) + eps)  # eps keeps both logs finite at u = 0
    y = softmax((logits + gumbels.astype(logits.dtype)) / tau, dim)
    if not hard:
        return y
    axis = operator.index(dim) % y.ndim
    one_hot = dt.zeros_like(y)
    dt.put_along_axis(one_hot, dt.argmax(y, axis=axis, keepdims=True), 1, axis=axis)
    return one_hot


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha / size * sum of squares over size neighbouring
    channels)^beta, the window centred (size // 2 before, (size - 1) // 2
    after, zeros past the edges)."""
    _tensor(input)
    if input.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.ndim} dimensions)")
    if input.size == 0:
        return input
    dt = _dt()
    x = _wide(input)
    squares = x * x
    before, after = size // 2, (size - 1) // 2
    widths = ((0, 0), (before, after)) + ((0, 0),) * (input.ndim - 2)
    padded = dt.pad(squares, widths)
    channels = input.shape[1]
    total = padded[:, 0:channels]
    for shift in range(1, size):
        total = total + padded[:, shift:shift + channels]
    div = (k + (alpha / size) * total) ** beta
    return (x / div).astype(input.dtype, copy=False)


__all__ = ["margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss", "cosine_embedding_loss",
           "triplet_margin_loss", "poisson_nll_loss", "gaussian_nll_loss", "multilabel_soft_margin_loss",
           "multi_margin_loss", "bilinear", "pdist", "gumbel_softmax", "local_response_norm"]
