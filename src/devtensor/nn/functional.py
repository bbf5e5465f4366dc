"""devtensor.nn.functional: PyTorch's functional forms of the layers
(activations, linear, dropout, losses), computed with devtensor's own
operations on the input's device.
"""
import math
import operator
import warnings

from .. import _C
from .._C import Tensor
from .. import _reductions, _ufuncs, _index_functions
from .._torch_selection import _dim

_REDUCTIONS = ("none", "mean", "sum")


def _tensor(x, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{name} must be a devtensor.Tensor, not {type(x).__name__}")
    return x


def _same_device(*tensors):
    """PyTorch's error for operands on two devices, before any work is queued;
    a 0-d CPU tensor goes with tensors on any device, as in operators."""
    placed = [t for t in tensors if t is not None and (t.ndim or t.device.type != "cpu")]
    devices = {t.device for t in placed}
    if len(devices) > 1:
        first = placed[0].device
        other = next(t.device for t in placed if t.device != first)
        raise RuntimeError(f"Expected all tensors to be on the same device, but found at least "
                           f"two devices, {first} and {other}!")


def _reduce(loss, reduction):
    if reduction == "mean":
        return _reductions.mean(loss)
    if reduction == "sum":
        return _reductions.sum(loss)
    return loss


def _check_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


# ---- activations ----
def _wide(input):
    """input in float32 when it is float16 or bfloat16 (Note [Half precision
    computes in float32]: sigmoid of float16 -12 was 0, exp(12) having
    overflowed; tanh-GELU erred by 2000 ulp), else input itself."""
    return input.astype(_C.float32) if input.dtype in (_C.float16, _C.bfloat16) else input


def _narrow(input, r, inplace=False):
    """r in input's dtype, written into input (and input returned) when inplace."""
    if inplace:
        input[...] = r
        return input
    return r.astype(input.dtype, copy=False)


def relu(input, inplace=False):
    """max(input, 0); NaN stays NaN."""
    _tensor(input)
    return _ufuncs.maximum(input, 0, out=input) if inplace else _ufuncs.maximum(input, 0)


def sigmoid(input):
    x = _wide(_tensor(input))
    r = 1 / (1 + _ufuncs.exp(-x))
    return r if x is input else r.astype(input.dtype)


def tanh(input):
    return _ufuncs.tanh(_tensor(input))


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where it is positive, negative_slope * input elsewhere; NaN stays NaN."""
    _tensor(input)
    r = _ufuncs.where(input > 0, input, input * negative_slope)
    if inplace:
        input[...] = r
        return input
    return r.astype(input.dtype, copy=False)


def silu(input, inplace=False):
    """input * sigmoid(input) (PyTorch's SiLU, also called swish)."""
    x = _wide(_tensor(input))
    return _narrow(input, x * sigmoid(x), inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold
    (PyTorch's softplus), computed without overflow."""
    x = _wide(_tensor(input))
    bx = x * beta
    smooth = (_ufuncs.maximum(bx, 0) + _ufuncs.log1p(_ufuncs.exp(-_ufuncs.abs(bx)))) / beta
    return _ufuncs.where(bx > threshold, x, smooth).astype(input.dtype, copy=False)


def _normal_cdf(x):
    """Phi(x) = erfc(-x / sqrt(2)) / 2, in float64.

    Note [GELU's erf]
    The exact GELU is x * Phi(x) with Phi from erfc (one core op, C's erfc
    on the CPU, CUDA's on GPUs), never 1 + erf(x / sqrt(2)), which cancels
    for negative x.  It computes in float64 and rounds once to the input's
    dtype: the argument -x / sqrt(2) rounds, and erfc's relative
    sensitivity to it grows as 2 w^2, so float32 arithmetic would lose
    about 100 ulp at x = -10 (test_nn checks against math.erfc).  Before
    devtensor had erfc, this was about 200 elementwise passes of a series
    and a continued fraction."""
    x = x.astype(_C.float64, copy=False)
    return _ufuncs.erfc(x * (-1 / math.sqrt(2))) * 0.5


def gelu(input, approximate="none"):
    """x * Phi(x) (Phi the standard normal CDF; Note [GELU's erf]), or with
    approximate='tanh' 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    _tensor(input)
    if approximate == "tanh":
        x = _wide(input)
        inner = (x + 0.044715 * x * x * x) * math.sqrt(2 / math.pi)
        return (0.5 * x * (1 + _ufuncs.tanh(inner))).astype(input.dtype, copy=False)
    if approximate != "none":
        raise ValueError("approximate argument must be either none or tanh.")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise TypeError(f"gelu needs a floating point input, got {input.dtype}")
    if input.dtype.is_complex:
        raise TypeError("gelu is not defined for complex inputs")
    return (input * _normal_cdf(input)).astype(input.dtype, copy=False)


def _softmax_dim(name, ndim):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  f"to include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def _shifted(input, dim, dtype):
    x = _tensor(input) if dtype is None else _tensor(input).astype(dtype)
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        x = x.astype(_C.float32)
    axis = _dim(dim, x.ndim)
    if x.ndim == 0:
        return x - x, None
    if x.shape[axis] == 0:  # nothing to shift: an empty result, as PyTorch's
        return x, axis
    # a row's maximum, as it is: +inf or NaN there makes the row NaN, as PyTorch's
    return x - _reductions.amax(x, axis=axis, keepdims=True), axis


# Note [Half precision computes in float32]
# float16 and bfloat16 softmax, log_softmax and cross_entropy compute in
# float32 and round once at the end, as PyTorch's kernels do: in the low
# dtype itself, exp, the row sum and the log each round (float16 softmax of
# [1, 2, 3] gave 0.090088 for 0.090031, and bfloat16 log_softmax over 512
# columns erred by 0.095 where PyTorch's erred by 0.067).
_HALF = (_C.float16, _C.bfloat16)


def softmax(input, dim=None, dtype=None):
    """exp(x) / sum(exp(x)) along dim, computed with the maximum subtracted
    (in float32 for float16 and bfloat16: Note [Half precision computes in float32])."""
    if dim is None:
        dim = _softmax_dim("softmax", _tensor(input).ndim)
    half = _half_dtype(input, dtype)
    shifted, axis = _shifted(input, dim, _C.float32 if half else dtype)
    e = _ufuncs.exp(shifted)
    if axis is not None:
        e = e / _reductions.sum(e, axis=axis, keepdims=True)
    return e.astype(half) if half else e


def log_softmax(input, dim=None, dtype=None):
    """x - log(sum(exp(x))) along dim, computed with the maximum subtracted
    (in float32 for float16 and bfloat16: Note [Half precision computes in float32])."""
    if dim is None:
        dim = _softmax_dim("log_softmax", _tensor(input).ndim)
    half = _half_dtype(input, dtype)
    shifted, axis = _shifted(input, dim, _C.float32 if half else dtype)
    if axis is not None:
        shifted = shifted - _ufuncs.log(_reductions.sum(_ufuncs.exp(shifted), axis=axis, keepdims=True))
    return shifted.astype(half) if half else shifted


def _half_dtype(input, dtype):
    """float16 or bfloat16 when the result is of that dtype, else None."""
    d = _tensor(input).dtype if dtype is None else _C.dtype(dtype)
    return d if d in _HALF else None


# ---- layers ----
def _integer_input(name, input, weight):
    """PyTorch's layers refuse integer input to floating parameters (devtensor
    promotes floating dtypes only: README)."""
    return RuntimeError(f"{name}: input of {input.dtype} with parameters of {weight.dtype}: an integer or bool "
                        f"input is not converted (PyTorch refuses it too); pass input.to({weight.dtype})")


def linear(input, weight, bias=None):
    """input @ weight.T + bias, PyTorch's y = x A^T + b."""
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        _tensor(input)
        _tensor(weight, "weight")
    in_shape, w_shape = input.shape, weight.shape
    if not in_shape or len(w_shape) not in (1, 2) or in_shape[-1] != w_shape[-1]:
        if not in_shape or len(w_shape) not in (1, 2):
            raise RuntimeError(f"linear: input must have at least 1 dimension and weight 1 or "
                               f"2, got {len(in_shape)} and {len(w_shape)}")
        rows = math.prod(in_shape[:-1])
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{in_shape[-1]} "
                           f"and {w_shape[-1]}x{w_shape[0] if len(w_shape) == 2 else 1})")
    if bias is not None and not isinstance(bias, Tensor):
        _tensor(bias, "bias")
    if input.dtype is not weight.dtype and input.dtype.kind in "biu" and weight.dtype.kind in "fc":
        raise _integer_input("linear", input, weight)
    # the @ operator and .mT are C (the per-call path); matmul() parses in Python
    out = input @ (weight.mT if len(w_shape) == 2 else weight)
    if bias is None:
        return out
    return out.__iadd__(bias) if out.ndim and bias.dtype == out.dtype else out + bias


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1/(1-p)
    while training; the input itself otherwise."""
    _tensor(input)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    return _dropped(input, input.shape, p, inplace)


_SELU_SATURATION = -1.7580993408473766  # -scale * alpha of SELU: where SELU's output tends for -inf


def _alpha_dropped(name, input, keep_shape, p, training, inplace):
    """Alpha dropout (Klambauer et al., 2017): entries of a keep_shape mask
    dropped with probability p are set to SELU's saturation value, and the
    result rescaled by a, shifted by b so that a zero-mean, unit-variance
    input keeps its mean and variance."""
    _tensor(input)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if not input.dtype.is_floating_point:
        raise TypeError(f"{name}() needs a floating point input, got {input.dtype}")
    if p == 1.0:  # PyTorch's: everything dropped is zero
        return _narrow(input, input * 0, inplace)
    keep = _random().uniform(size=keep_shape, dtype=input.dtype, device=input.device) >= p
    a = ((1 - p) * (1 + p * _SELU_SATURATION ** 2)) ** -0.5
    b = -a * _SELU_SATURATION * p
    x = _wide(input)
    return _narrow(input, _ufuncs.where(keep, x, _SELU_SATURATION) * a + b, inplace)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of each element (for SELU networks), the input itself
    unless training."""
    return _alpha_dropped("alpha_dropout", input, getattr(input, "shape", ()), p, training, inplace)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels: one draw per (sample, channel) of an
    input (N, C, *spatial)."""
    _tensor(input)
    if input.ndim < 2:
        raise RuntimeError(f"feature_alpha_dropout: Expected an input of at least 2 dimensions (N, C, ...), got "
                           f"{input.ndim}D")
    return _alpha_dropped("feature_alpha_dropout", input, input.shape[:2] + (1,) * (input.ndim - 2), p, training,
                          inplace)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: negative inputs times a slope drawn from
    U(lower, upper) for each element while training, times (lower + upper)
    / 2 otherwise."""
    _tensor(input)
    if not input.dtype.is_floating_point:
        raise TypeError(f"rrelu() needs a floating point input, got {input.dtype}")
    if lower > upper:
        raise ValueError(f"rrelu: lower bound {lower} should be less than or equal to upper bound {upper}")
    x = _wide(input)
    if training:
        slope = _random().uniform(lower, upper, size=input.shape, dtype=x.dtype, device=input.device)
    else:
        slope = (lower + upper) / 2
    return _narrow(input, _ufuncs.where(x >= 0, x, x * slope), inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)


def _dropped(input, keep_shape, p, inplace):
    """input with the entries of a keep_shape mask (broadcast over input)
    zeroed with probability p and the rest scaled by 1/(1-p): dropout's
    (one entry an element) and the channel dropouts' (one a channel)."""
    if inplace and not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise TypeError(f"dropout(inplace=True) cannot write its scaled values into a tensor of "
                        f"{input.dtype} (a float result): use a floating-point tensor, or inplace=False")
    dtype = input.dtype if input.dtype.is_floating_point else _C.float32
    keep = _random().uniform(size=keep_shape, dtype=dtype, device=input.device) >= p
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    if inplace:
        input *= keep
        input *= scale
        return input
    return input * keep * scale


def _random():
    from .. import random
    return random


def flatten(input, start_dim=0, end_dim=-1):
    _tensor(input)
    start, end = _dim(start_dim, input.ndim), _dim(end_dim, input.ndim)
    if input.ndim == 0:  # its dims are [-1, 0] (_dim), as PyTorch's
        return input.reshape(1)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = input.shape
    return input.reshape(shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:])


def one_hot(tensor, num_classes=-1):
    """int64 rows of zeros with a 1 at each value of tensor (PyTorch's one_hot:
    num_classes=-1 takes the largest value + 1)."""
    _tensor(tensor, "tensor")
    if tensor.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    num_classes = operator.index(num_classes)
    if tensor.size and bool(_reductions.any(tensor < 0)):
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not tensor.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(_reductions.max(tensor)) + 1
    elif tensor.size and int(_reductions.max(tensor)) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    from .._creation import arange
    return (tensor[..., None] == arange(num_classes, device=tensor.device)).astype(_C.int64)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """input / max(||input||_p along dim, eps) (PyTorch's normalize)."""
    _tensor(input)
    from .. import linalg
    norm = linalg.vector_norm(input, ord=p, axis=_dim(dim, input.ndim), keepdims=True)
    return input / _ufuncs.maximum(norm, eps)


# ---- losses ----
def l1_loss(input, target, reduction="mean"):
    """|input - target|, reduced by 'mean', 'sum' or 'none'."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    _same_device(input, target)
    _same_size("l1_loss", input, target)
    return _reduce(_ufuncs.abs(input - target), reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    """-[p t log sigmoid(x) + (1 - t) log(1 - sigmoid(x))] (p: pos_weight, 1 by
    default), from the logits without overflow: log sigmoid(x) is
    -(max(-x, 0) + log1p(exp(-|x|)))."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    _same_device(input, target, weight, pos_weight)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({tuple(target.shape)}) must be the same as input size "
                         f"({tuple(input.shape)})")
    log_sig_neg = -(_ufuncs.maximum(input, 0) + _ufuncs.log1p(_ufuncs.exp(-_ufuncs.abs(input))))  # log(1 - s)
    log_sig = log_sig_neg + input  # log s
    pos = target if pos_weight is None else target * pos_weight
    loss = -(pos * log_sig + (1 - target) * log_sig_neg)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def mse_loss(input, target, reduction="mean"):
    """(input - target)^2, reduced by 'mean', 'sum' or 'none'."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    _same_device(input, target)
    _same_size("mse_loss", input, target)
    diff = input - target
    return _reduce(diff * diff, reduction)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """PyTorch's cross_entropy: input holds logits with the classes along
    dim 1 (dim 0 for one sample); target holds class indices (the input's
    shape without the class dim) or class probabilities (the input's shape)."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    ignore_index = _class_loss_args("cross_entropy", input, target, weight, ignore_index)
    if input.dtype in _HALF:  # Note [Half precision computes in float32]
        wide = [None if t is None else t.astype(_C.float32) if t.dtype in _HALF else t
                for t in (target, weight)]
        return cross_entropy(input.astype(_C.float32), wide[0], wide[1], ignore_index, reduction,
                             label_smoothing).astype(input.dtype)
    logp = log_softmax(input, 0 if input.ndim == 1 else 1)
    return _from_log_probs(logp, target, weight, ignore_index, reduction, label_smoothing)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """PyTorch's nll_loss: -input[n, target[n]] (input holds log-probabilities
    with the classes along dim 1, dim 0 for one sample), weighted, with
    ignore_index left out."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    ignore_index = _class_loss_args("nll_loss", input, target, weight, ignore_index)
    if target.dtype.kind not in "iu":
        raise RuntimeError(f"expected target of an integer dtype (class indices), got {target.dtype}")
    return _from_log_probs(input, target, weight, ignore_index, reduction, 0.0)


def _class_loss_args(name, input, target, weight, ignore_index):
    """cross_entropy's and nll_loss's checks of their classes, weight,
    ignore_index and devices; ignore_index as an int."""
    if input.ndim == 0:
        raise RuntimeError(f"{name}: the input must have at least one dimension (the classes)")
    if weight is not None:
        _tensor(weight, "weight")
    if isinstance(ignore_index, bool) or not hasattr(type(ignore_index), "__index__"):
        raise TypeError(f"{name}(): ignore_index must be an int, not {type(ignore_index).__name__}")
    ignore_index = operator.index(ignore_index)
    _same_device(input, target, weight)
    return ignore_index


def _from_log_probs(logp, target, weight, ignore_index, reduction, label_smoothing):
    """cross_entropy and nll_loss from the log-probabilities logp."""
    class_dim = 0 if logp.ndim == 1 else 1
    n_classes = logp.shape[class_dim]
    input = logp  # (the input's shape, for the checks and messages below)
    w_shape = [1] * input.ndim
    w_shape[class_dim] = n_classes
    if weight is not None:
        _tensor(weight, "weight")
        if tuple(weight.shape) != (n_classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {n_classes} "
                               f"classes or no classes but got weight tensor of shape: "
                               f"{tuple(weight.shape)}")
    if target.dtype.is_floating_point:
        if tuple(target.shape) != tuple(input.shape):
            raise RuntimeError(f"Expected target size {tuple(input.shape)}, got "
                               f"{tuple(target.shape)}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        terms = logp * target
        if weight is not None:
            terms = terms * weight.reshape(w_shape)
        return _reduce(-_reductions.sum(terms, axis=class_dim), reduction)
    if target.dtype.kind not in "iu":
        raise RuntimeError(f"expected target of an integer dtype (class indices) or of a "
                           f"floating dtype (class probabilities), got {target.dtype}")
    expected = tuple(input.shape[:class_dim] + input.shape[class_dim + 1:])
    if input.ndim >= 2 and target.ndim >= 1 and target.shape[0] != input.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({target.shape[0]}).")  # PyTorch's nll_loss check
    if tuple(target.shape) != expected:
        raise RuntimeError(f"Expected target size {expected}, got {tuple(target.shape)}")
    valid = target != ignore_index
    bad = valid & ((target < 0) | (target >= n_classes))
    if bool(_reductions.any(bad)):
        first = int(target[bad][0])
        raise IndexError(f"Target {first} is out of bounds.")
    safe = _ufuncs.where(valid, target, 0).astype(_C.int64, copy=False)
    picked = _index_functions.take_along_axis(
        logp, safe.reshape(expected[:class_dim] + (1,) + expected[class_dim:]), axis=class_dim)
    picked = picked.reshape(expected)
    if weight is not None:
        w_t = _ufuncs.where(valid, _index_functions.take(weight.astype(logp.dtype), safe), 0)
    else:
        w_t = valid.astype(logp.dtype)
    nll = -picked * w_t
    if reduction == "mean":
        denominator = _reductions.sum(w_t)
        nll_total = _reductions.sum(nll) / denominator
    elif reduction == "sum":
        nll_total = _reductions.sum(nll)
    else:
        nll_total = nll
    if label_smoothing == 0:
        return nll_total
    terms = logp if weight is None else logp * weight.astype(logp.dtype).reshape(w_shape)
    smooth = _ufuncs.where(valid, -_reductions.sum(terms, axis=class_dim), 0)
    if reduction == "mean":
        smooth_total = _reductions.sum(smooth) / denominator
    elif reduction == "sum":
        smooth_total = _reductions.sum(smooth)
    else:
        smooth_total = smooth
    return (1 - label_smoothing) * nll_total + smooth_total * (label_smoothing / n_classes)


# ---- more activations (PyTorch's formulas; results keep input's dtype) ----
def elu(input, alpha=1.0, inplace=False):
    """input where positive, alpha * (exp(input) - 1) elsewhere."""
    x = _wide(_tensor(input))
    return _narrow(input, _ufuncs.where(x > 0, x, _ufuncs.expm1(x) * alpha), inplace)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    """scale * elu(input, alpha), with the self-normalising constants."""
    x = _wide(_tensor(input))
    return _narrow(input, _ufuncs.where(x > 0, x, _ufuncs.expm1(x) * _SELU_ALPHA) * _SELU_SCALE, inplace)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    x = _wide(_tensor(input))
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _narrow(input, _ufuncs.where(x > 0, x, _ufuncs.expm1(x / alpha) * alpha), inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clipped to [min_val, max_val]."""
    _tensor(input)
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _narrow(input, _ufuncs.clip(input, min_val, max_val), inplace)


def relu6(input, inplace=False):
    """input clipped to [0, 6]."""
    return hardtanh(input, 0.0, 6.0, inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    x = _wide(_tensor(input))
    return _narrow(input, _ufuncs.clip(x + 3, 0, 6) / 6, inplace)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6."""
    x = _wide(_tensor(input))
    return _narrow(input, x * (_ufuncs.clip(x + 3, 0, 6) / 6), inplace)


def logsigmoid(input):
    """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)), without overflow."""
    x = _wide(_tensor(input))
    return (_ufuncs.minimum(x, 0) - _ufuncs.log1p(_ufuncs.exp(-_ufuncs.abs(x)))).astype(input.dtype, copy=False)


def mish(input, inplace=False):
    """x * tanh(softplus(x))."""
    x = _wide(_tensor(input))
    return _narrow(input, x * _ufuncs.tanh(softplus(x)), inplace)


def softsign(input):
    """x / (1 + |x|)."""
    x = _wide(_tensor(input))
    return (x / (1 + _ufuncs.abs(x))).astype(input.dtype, copy=False)


def tanhshrink(input):
    """x - tanh(x)."""
    x = _wide(_tensor(input))
    return (x - _ufuncs.tanh(x)).astype(input.dtype, copy=False)


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, 0 elsewhere."""
    _tensor(input)
    return _ufuncs.where(_ufuncs.abs(input) > lambd, input, 0).astype(input.dtype, copy=False)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""
    _tensor(input)
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    r = _ufuncs.where(input > lambd, input - lambd, _ufuncs.where(input < -lambd, input + lambd, 0))
    return r.astype(input.dtype, copy=False)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, value elsewhere."""
    _tensor(input)
    return _narrow(input, _ufuncs.where(input > threshold, input, value), inplace)


def softmin(input, dim=None, dtype=None):
    """softmax(-input) along dim."""
    if dim is None:
        dim = _softmax_dim("softmin", _tensor(input).ndim)
    return softmax(-_tensor(input), dim, dtype)


def glu(input, dim=-1):
    """a * sigmoid(b), a and b the two halves of input along dim."""
    _tensor(input)
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    axis = _dim(dim, input.ndim)
    n = input.shape[axis]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {axis} is size {n}")
    a = input[(slice(None),) * axis + (slice(0, n // 2),)]
    b = input[(slice(None),) * axis + (slice(n // 2, n),)]
    return a * sigmoid(b)


def _same_size(name, input, target):
    """PyTorch's warning when target's shape is not input's, and its
    RuntimeError when they do not broadcast (not NumPy's ValueError)."""
    a, b = tuple(input.shape), tuple(target.shape)
    if a == b:
        return
    warnings.warn(f"Using a target size ({b}) that is different to the input size ({a}). This will likely lead "
                  f"to incorrect results due to broadcasting. Please ensure they have the same size.",
                  UserWarning, stacklevel=3)
    ndim = max(len(a), len(b))
    a, b = (1,) * (ndim - len(a)) + a, (1,) * (ndim - len(b)) + b
    for d in reversed(range(ndim)):
        if a[d] != b[d] and 1 not in (a[d], b[d]):
            raise RuntimeError(f"The size of tensor a ({a[d]}) must match the size of tensor b ({b[d]}) at "
                               f"non-singleton dimension {d}")


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d^2 where |d| < delta, delta (|d| - delta / 2) elsewhere (d = input - target)."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    _same_device(input, target, weight)
    _same_size("huber_loss", input, target)
    if not delta > 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    d = _ufuncs.abs(input - target)
    loss = _ufuncs.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    return _reduce(loss if weight is None else loss * weight, reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """0.5 d^2 / beta where |d| < beta, |d| - beta / 2 elsewhere (|d| for beta 0)."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    _same_device(input, target)
    _same_size("smooth_l1_loss", input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    d = _ufuncs.abs(input - target)
    if beta == 0:
        return _reduce(d, reduction)
    return _reduce(_ufuncs.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


def kl_div(input, target, reduction="mean", log_target=False):
    """target * (log(target) - input), input the log-probabilities (0 where
    target is 0); with log_target, exp(target) * (target - input).
    reduction='batchmean' divides the sum by the batch size (the first dim)."""
    if reduction not in _REDUCTIONS + ("batchmean",):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _tensor(input)
    target = _tensor(target, "target")
    _same_device(input, target)
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    if log_target:
        loss = _ufuncs.exp(target) * (target - input)
    else:
        from .._torch_math import xlogy
        loss = xlogy(target, target) - target * input
    if reduction == "batchmean":
        total = _reductions.sum(loss)
        return total / input.shape[0] if input.ndim else total
    return _reduce(loss, reduction)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """-(t log(x) + (1 - t) log(1 - x)), each log at least -100 (PyTorch's
    clamp), for probabilities x in [0, 1]."""
    _check_reduction(reduction)
    _tensor(input)
    target = _tensor(target, "target")
    _same_device(input, target, weight)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({tuple(target.shape)}) that is different to the input size "
                         f"({tuple(input.shape)}) is deprecated. Please ensure they have the same size.")
    if input.size and bool(_reductions.any((input < 0) | (input > 1) | _ufuncs.isnan(input))):
        raise RuntimeError("all elements of input should be between 0 and 1")
    log_x = _ufuncs.maximum(_ufuncs.log(input), -100)
    log_1mx = _ufuncs.maximum(_ufuncs.log1p(-input), -100)
    loss = -(target * log_x + (1 - target) * log_1mx)
    return _reduce(loss if weight is None else loss * weight, reduction)


__all__ = ["relu", "sigmoid", "tanh", "gelu", "leaky_relu", "silu", "softplus", "softmax", "log_softmax",
           "linear", "dropout", "flatten", "one_hot", "normalize", "mse_loss", "l1_loss", "cross_entropy",
           "nll_loss", "binary_cross_entropy_with_logits", "elu", "selu", "celu", "hardtanh", "relu6",
           "hardsigmoid", "hardswish", "logsigmoid", "mish", "softsign", "tanhshrink", "hardshrink", "softshrink",
           "threshold", "softmin", "glu", "huber_loss", "smooth_l1_loss", "kl_div", "binary_cross_entropy",
           "alpha_dropout", "feature_alpha_dropout", "rrelu", "rrelu_"]

from ._layer_functions import (  # noqa: E402  (after the names they use)
    batch_norm, cosine_similarity, embedding, embedding_bag, group_norm, instance_norm, layer_norm, pad,
    pairwise_distance, rms_norm, scaled_dot_product_attention,
)

from ._conv_functions import (  # noqa: E402
    adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d, adaptive_max_pool1d, adaptive_max_pool2d,
    adaptive_max_pool3d, avg_pool1d, avg_pool2d, avg_pool3d, conv1d, conv2d, conv3d, conv_transpose1d,
    conv_transpose2d, conv_transpose3d, fold, interpolate, max_pool1d, max_pool2d, max_pool3d, max_unpool1d,
    max_unpool2d, max_unpool3d, pixel_shuffle, pixel_unshuffle, unfold, lp_pool1d, lp_pool2d, lp_pool3d,
    upsample, upsample_bilinear, upsample_nearest, fractional_max_pool2d, fractional_max_pool3d, channel_shuffle,
)

__all__ += ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
            "adaptive_max_pool2d", "adaptive_max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "conv1d",
            "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "fold", "interpolate",
            "max_pool1d", "max_pool2d", "max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d",
            "pixel_shuffle", "pixel_unshuffle", "unfold", "prelu", "lp_pool1d", "lp_pool2d", "lp_pool3d",
            "upsample", "upsample_bilinear", "upsample_nearest", "fractional_max_pool2d", "fractional_max_pool3d",
            "channel_shuffle",
            "dropout1d", "dropout2d", "dropout3d"]


from ._loss_functions import (  # noqa: E402
    bilinear, cosine_embedding_loss, gaussian_nll_loss, gumbel_softmax, hinge_embedding_loss, local_response_norm,
    margin_ranking_loss, multi_margin_loss, multilabel_soft_margin_loss, pdist, poisson_nll_loss, soft_margin_loss,
    triplet_margin_loss, multilabel_margin_loss, triplet_margin_with_distance_loss,
)

__all__ += ["bilinear", "cosine_embedding_loss", "gaussian_nll_loss", "gumbel_softmax", "hinge_embedding_loss",
            "local_response_norm", "margin_ranking_loss", "multi_margin_loss", "multilabel_soft_margin_loss", "pdist",
            "poisson_nll_loss", "soft_margin_loss", "triplet_margin_loss", "multilabel_margin_loss",
            "triplet_margin_with_distance_loss"]


def prelu(input, weight):
    """input where positive, weight * input elsewhere; weight has one value
    or one per channel (dim 1), PyTorch's prelu."""
    _tensor(input)
    _tensor(weight, "weight")
    _same_device(input, weight)
    if weight.size != 1 and (input.ndim < 2 or weight.size != input.shape[1]):
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                           f"{weight.size} and channel size = {input.shape[1] if input.ndim >= 2 else 1}.")
    w = weight.reshape(()) if weight.size == 1 else weight.reshape((-1,) + (1,) * (input.ndim - 2))
    x = _wide(input)
    return _ufuncs.where(x > 0, x, x * w).astype(input.dtype, copy=False)


def _channel_dropout(name, n, input, p, training, inplace):
    """Whole channels zeroed with probability p (the rest scaled by 1/(1-p)):
    input (N, C, *spatial) with n spatial dims, or unbatched (C, *spatial)."""
    _tensor(input)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"{name}: Expected {n + 1}D or {n + 2}D input, but received a {input.ndim}D input")
    if not training or p == 0.0:
        return input
    return _dropped(input, input.shape[:input.ndim - n] + (1,) * n, p, inplace)


def dropout1d(input, p=0.5, training=True, inplace=False):
    return _channel_dropout("dropout1d", 1, input, p, training, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    return _channel_dropout("dropout2d", 2, input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    return _channel_dropout("dropout3d", 3, input, p, training, inplace)


from ._sampling_functions import affine_grid, grid_sample  # noqa: E402
from ._ctc import ctc_loss  # noqa: E402

__all__ += ["affine_grid", "grid_sample", "ctc_loss"]

__all__ += ["batch_norm", "cosine_similarity", "embedding", "embedding_bag", "group_norm", "instance_norm",
            "layer_norm", "pad",
            "pairwise_distance", "rms_norm", "scaled_dot_product_attention"]
