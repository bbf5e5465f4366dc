"""nn.functional.ctc_loss: the connectionist temporal classification loss
(Graves et al., 2006) with PyTorch's arguments, reductions and errors,
computed with devtensor's operations on the input's device.

Note [CTC forward recursion]
The loss of a sample is -log of the total probability of the alignments
of its target l (length S) to its T log-probability frames, computed by
the forward (alpha) recursion over the extended target l' = blank, l_1,
blank, ..., l_S, blank (2S + 1 states): alpha_t(s) = logsumexp(
alpha_{t-1}(s), alpha_{t-1}(s-1), alpha_{t-1}(s-2) where l'_s is no blank
and differs from l'_{s-2}) + log_probs[t, l'_s]; the loss is -logsumexp of
the last two states at the sample's last frame.  Every sample and state
advances together, one step per frame (T steps, each a few operations on
(N, 2 S_max + 1)); a sample whose input is shorter keeps its alphas from
then on.  The log-probabilities of the extended targets are gathered for
all frames at once.  Lengths and the target bounds are read on the host
(the shapes need them, as PyTorch's CUDA kernel reads them), and targets
outside [0, C) are refused, not read.  Targets on the CPU with
log_probs on a device (what cuDNN's path wants) are copied there, as
PyTorch does.
"""
import operator

from .. import _C
from .functional import _check_reduction, _same_device, _tensor


def _dt():
    import devtensor
    return devtensor


def _lengths(value, what, batch):
    """A length per sample, as a list of ints (from a tensor, a sequence or an int)."""
    if isinstance(value, _C.Tensor):
        if value.dtype.kind not in "iu":
            raise RuntimeError(f"ctc_loss: {what} must hold integers, got {value.dtype}")
        values = [int(v) for v in value.reshape(-1).tolist()]
    elif isinstance(value, int) or hasattr(value, "__index__"):
        values = [operator.index(value)]
    else:
        values = [operator.index(v) for v in value]
    if len(values) != batch:
        raise RuntimeError(f"{what} must be of size batch_size")
    if any(v < 0 for v in values):
        raise RuntimeError(f"ctc_loss: {what} must not be negative, got {min(values)}")
    return values


def _log_add(*terms):
    """logsumexp of the terms elementwise; -inf where all are -inf."""
    dt = _dt()
    top = terms[0]
    for t in terms[1:]:
        top = dt.maximum(top, t)
    safe = dt.where(dt.isneginf(top), 0, top)
    total = None
    for t in terms:
        e = dt.exp(t - safe)
        total = e if total is None else total + e
    return safe + dt.log(total)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """log_probs (T, N, C) (or (T, C) unbatched), targets (N, S) padded or
    their concatenation (sum(target_lengths),): Note [CTC forward
    recursion].  reduction 'mean' divides each loss by its target length
    (at least 1) and averages over the batch; zero_infinity gives the
    impossible alignments (infinite losses) 0."""
    dt = _dt()
    _check_reduction(reduction)
    _tensor(log_probs, "log_probs")
    _tensor(targets, "targets")
    if targets.device != log_probs.device and targets.device.type == "cpu":
        targets = targets.to(log_probs.device)  # CPU targets (cuDNN's form) go to the device, as PyTorch's
    _same_device(log_probs, targets)
    if log_probs.ndim not in (2, 3):
        raise RuntimeError(f"ctc_loss: log_probs must be (T, N, C) or unbatched (T, C), got "
                           f"{list(log_probs.shape)}")
    if not log_probs.dtype.is_floating_point:
        raise RuntimeError(f"ctc_loss: log_probs must be floating point, got {log_probs.dtype}")
    if targets.dtype.kind not in "iu":
        raise RuntimeError(f"ctc_loss: targets must hold integer class indices, got {targets.dtype}")
    unbatched = log_probs.ndim == 2
    lp = log_probs[:, None] if unbatched else log_probs
    frames, batch, classes = lp.shape
    blank = operator.index(blank)
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    inputs = _lengths(input_lengths, "input_lengths", batch)
    lengths = _lengths(target_lengths, "target_lengths", batch)
    if inputs and max(inputs) > frames:
        raise RuntimeError(f"Expected input_lengths to have value at most {frames}, but got value {max(inputs)} "
                           f"(while checking arguments for ctc_loss)")
    # the targets padded to (N, S_max)
    longest = max(lengths, default=0)
    if unbatched:
        if targets.ndim != 1:
            raise RuntimeError(f"ctc_loss: unbatched log_probs take 1-D targets, got {list(targets.shape)}")
        targets = targets[None]
    if targets.ndim == 2:
        if targets.shape[0] != batch:
            raise RuntimeError(f"ctc_loss: targets hold {targets.shape[0]} sequences for a batch of {batch}")
        if longest > targets.shape[1]:
            raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but got size "
                               f"{targets.shape[1]} for argument #2 'targets' (while checking arguments for "
                               f"ctc_loss)")
        padded = targets[:, :longest].astype(_C.int64)
    elif targets.ndim == 1:
        if sum(lengths) > targets.size:
            raise RuntimeError(f"ctc_loss: the target lengths add up to {sum(lengths)}, more than the "
                               f"{targets.size} concatenated targets")
        starts = [0]
        for n in lengths[:-1]:
            starts.append(starts[-1] + n)
        where = dt.asarray([[s + min(k, n - 1) if n else 0 for k in range(longest)] for s, n in zip(starts, lengths)],
                           dtype=_C.int64, device=lp.device).reshape((batch, longest))
        padded = dt.take(targets.astype(_C.int64), where) if targets.size else dt.zeros((batch, longest),
                                                                                         dtype=_C.int64,
                                                                                         device=lp.device)
    else:
        raise RuntimeError(f"ctc_loss: targets must be 1-D (concatenated) or 2-D (padded), got "
                           f"{list(targets.shape)}")
    used = dt.arange(longest, device=lp.device)[None] < dt.asarray(lengths, dtype=_C.int64,
                                                                   device=lp.device).reshape((batch, 1))
    if bool((used & ((padded < 0) | (padded >= classes))).any()):
        raise IndexError(f"ctc_loss: a target lies outside the label range [0, {classes})")
    padded = dt.where(used, padded, blank)
    states = 2 * longest + 1
    extended = dt.full((batch, states), blank, dtype=_C.int64, device=lp.device)
    extended[:, 1::2] = padded
    work = _C.float32 if lp.dtype in (_C.float16, _C.bfloat16) else lp.dtype
    # (T, N, states): each frame's log-probability of each extended state
    emit = dt.take_along_axis(lp.astype(work, copy=False), extended[None], axis=2)
    skip = dt.zeros((batch, states), dtype=_C.bool, device=lp.device)
    if states > 2:
        skip[:, 2:] = (extended[:, 2:] != blank) & (extended[:, 2:] != extended[:, :-2])
    never = dt.full((batch, states), -dt.inf, dtype=work, device=lp.device)
    alpha = never.copy()
    if frames:
        alpha[:, 0] = emit[0, :, 0]
        if states > 1:
            alpha[:, 1] = emit[0, :, 1]
    in_len = dt.asarray(inputs, dtype=_C.int64, device=lp.device).reshape((batch, 1))
    for t in range(1, frames):
        one = dt.concatenate([never[:, :1], alpha[:, :-1]], axis=1)
        two = dt.where(skip, dt.concatenate([never[:, :2], alpha[:, :-2]], axis=1), -dt.inf) if states > 2 \
            else never
        alpha = dt.where(t < in_len, _log_add(alpha, one, two) + emit[t], alpha)
    last = dt.asarray([2 * n for n in lengths], dtype=_C.int64, device=lp.device).reshape((batch, 1))
    end = dt.take_along_axis(alpha, last, axis=1)[:, 0]
    before = dt.take_along_axis(alpha, dt.maximum(last - 1, 0), axis=1)[:, 0]
    before = dt.where(last[:, 0] > 0, before, -dt.inf)
    loss = -_log_add(end, before)
    empty_input = in_len[:, 0] == 0  # no frames: only the empty target has probability 1
    loss = dt.where(empty_input, dt.where(last[:, 0] == 0, 0.0, dt.inf), loss).astype(work, copy=False)
    if zero_infinity:
        loss = dt.where(dt.isinf(loss), 0, loss)
    loss = loss.astype(log_probs.dtype, copy=False)
    if reduction == "mean":
        return dt.mean(loss / dt.asarray([max(n, 1) for n in lengths], dtype=loss.dtype, device=lp.device))
    if reduction == "sum":
        return dt.sum(loss)
    return loss[0] if unbatched else loss


__all__ = ["ctc_loss"]
