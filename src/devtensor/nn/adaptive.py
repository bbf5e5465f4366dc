"""AdaptiveLogSoftmaxWithLoss: Grave et al.'s (2017) adaptive softmax for
large vocabularies, with PyTorch's parameters (head, tail), results
(output, loss), log_prob and predict.

Note [Adaptive softmax]
The classes below cutoffs[0] (the shortlist) are scored by the head, which
also scores one entry per cluster [cutoffs[i], cutoffs[i + 1]); a class in
a cluster gets the cluster's head log-probability plus its own within the
cluster, from the cluster's two bias-free projections (in_features ->
in_features // div_value^(i + 1) -> cluster size).  forward scores each
row's target only (the rows of each cluster through its projections);
log_prob gives every class's; predict the most likely class.
"""
import collections
import operator

from .. import _C
from . import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

_ASMoutput = collections.namedtuple("_ASMoutput", ["output", "loss"])


def _dt():
    import devtensor
    return devtensor


class AdaptiveLogSoftmaxWithLoss(Module):
    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False, device=None, dtype=None):
        super().__init__()
        cutoffs = [operator.index(c) for c in cutoffs]
        n_classes = operator.index(n_classes)
        if (cutoffs != sorted(cutoffs) or len(set(cutoffs)) != len(cutoffs) or not cutoffs
                or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted in an increasing "
                             "order, where each value is between 1 and n_classes-1")
        self.in_features, self.n_classes = operator.index(in_features), n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value, self.head_bias = div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        factory = {"device": device, "dtype": dtype}
        self.head = Linear(self.in_features, self.head_size, bias=head_bias, **factory)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(self.in_features // (div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(self.in_features, hidden, bias=False, **factory),
                                        Linear(hidden, size, bias=False, **factory)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for projections in self.tail:
            for layer in projections:
                layer.reset_parameters()

    def _rows(self, input, name):
        if not isinstance(input, _C.Tensor):
            raise TypeError(f"{name}: input must be a devtensor.Tensor, got {type(input).__name__}")
        if input.ndim not in (1, 2) or input.shape[-1] != self.in_features:
            raise RuntimeError(f"{name}: Input should be 1D or 2D with {self.in_features} features, got "
                               f"{list(input.shape)}")
        return input if input.ndim == 2 else input[None]

    def forward(self, input, target):
        """(output, loss): each row's log-probability of its target, and
        their negative mean."""
        dt = _dt()
        x = self._rows(input, "forward")
        if not isinstance(target, _C.Tensor) or target.dtype.kind not in "iu":
            raise TypeError("forward: target must be a tensor of integer class indices")
        y = target if target.ndim == 1 else target.reshape(-1)
        if target.ndim != input.ndim - 1 or y.shape[0] != x.shape[0]:
            raise RuntimeError(f"Input and target should have the same size in the batch dimension, got input "
                               f"{list(input.shape)} and target {list(target.shape)}")
        y = y.astype(_C.int64)
        if y.size and bool(((y < 0) | (y >= self.n_classes)).any()):
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                               f"[{int(y.min())}, {int(y.max())}] were found. ")
        head = F.log_softmax(self.head(x), dim=1)
        cluster = dt.searchsorted(dt.asarray(self.cutoffs, device=y.device), y, side="right")  # 0: shortlist
        column = dt.where(cluster == 0, y, self.shortlist_size + cluster - 1)
        output = dt.take_along_axis(head, column[:, None], axis=1)[:, 0]
        for i in range(self.n_clusters):
            rows = dt.flatnonzero(cluster == i + 1)
            if rows.size == 0:
                continue
            local = F.log_softmax(self.tail[i](x[rows]), dim=1)
            within = (y[rows] - self.cutoffs[i])[:, None]
            output[rows] = output[rows] + dt.take_along_axis(local, within, axis=1)[:, 0]
        loss = dt.mean(-output)
        return _ASMoutput(output if input.ndim == 2 else output[0], loss)

    def log_prob(self, input):
        """Every class's log-probability: (N, n_classes) (or (n_classes,))."""
        dt = _dt()
        x = self._rows(input, "log_prob")
        head = F.log_softmax(self.head(x), dim=1)
        parts = [head[:, :self.shortlist_size]]
        for i in range(self.n_clusters):
            cluster = head[:, self.shortlist_size + i][:, None]
            parts.append(F.log_softmax(self.tail[i](x), dim=1) + cluster)
        out = dt.concatenate(parts, axis=1)
        return out if input.ndim == 2 else out[0]

    def predict(self, input):
        """The most likely class of each row (of the row of a 1-D input)."""
        return _dt().argmax(self.log_prob(input), axis=-1)


__all__ = ["AdaptiveLogSoftmaxWithLoss"]
