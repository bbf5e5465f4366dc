"""Normalisation modules: LayerNorm, RMSNorm, GroupNorm, BatchNorm1d/2d/3d
and InstanceNorm1d/2d/3d (and their lazy forms), with PyTorch's parameters, buffers
(running_mean, running_var, num_batches_tracked: PyTorch's state-dict keys), defaults and repr."""
from .. import _C
from .._creation import ones, tensor, zeros
from . import functional as F
from ._layer_functions import _shape
from .module import Module
from .lazy import LazyModuleMixin
from .parameter import Parameter


def _dtype(dtype):
    return _C.float32 if dtype is None else dtype


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ones(self.normalized_shape, dtype=_dtype(dtype), device=device))
            if bias:
                self.bias = Parameter(zeros(self.normalized_shape, dtype=_dtype(dtype), device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _shape(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ones(self.normalized_shape, dtype=_dtype(dtype), device=device))
        else:
            self.register_parameter("weight", None)

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        if affine:
            self.weight = Parameter(ones(num_channels, dtype=_dtype(dtype), device=device))
            self.bias = Parameter(zeros(num_channels, dtype=_dtype(dtype), device=device))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class _BatchNorm(Module):
    """Batch normalisation over the channel dim (1): batch statistics while
    training (and without running statistics), running ones in eval mode;
    momentum None is PyTorch's cumulative average."""
    _dims = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        dtype = _dtype(dtype)
        if affine:
            self.weight = Parameter(ones(num_features, dtype=dtype, device=device))
            self.bias = Parameter(zeros(num_features, dtype=dtype, device=device))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=dtype, device=device))
            self.register_buffer("running_var", ones(num_features, dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", tensor(0, dtype=_C.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean[...] = 0
            self.running_var[...] = 1
            self.num_batches_tracked[...] = 0

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            self.weight[...] = 1
            self.bias[...] = 0

    def _check_input_dim(self, input):
        """The dim holding the channels, after checking input's dims."""
        if input.ndim not in self._dims:
            want = " or ".join(f"{d}D" for d in self._dims)
            raise ValueError(f"expected {want} input (got {input.ndim}D input)")
        return 1

    def forward(self, input):
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked += 1
            if self.momentum is None:
                momentum = 1.0 / int(self.num_batches_tracked)
        use_batch = self.training or not self.track_running_stats  # running statistics None when untracked
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias, use_batch, momentum,
                            self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    _dims = (4,)


class BatchNorm3d(_BatchNorm):
    _dims = (5,)


class _InstanceNorm(_BatchNorm):
    """Instance normalisation: each sample's channels normalised over their
    spatial dims.  PyTorch's defaults differ from batch norm's (affine and
    track_running_stats False); an input without a batch dim is one sample."""
    _spatial = 0

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def _check_input_dim(self, input):
        n = self._spatial
        if input.ndim not in (n + 1, n + 2):
            raise ValueError(f"expected {n + 1}D or {n + 2}D input (got {input.ndim}D input)")
        return 1 if input.ndim == n + 2 else 0

    def forward(self, input):
        batched = self._check_input_dim(input) == 1
        x = input if batched else input[None]
        if x.shape[1] != self.num_features and self.affine:
            raise ValueError(f"expected input's size at dim={1 if batched else 0} to match num_features "
                             f"({self.num_features}), but got: {x.shape[1]}.")
        use_input_stats = self.training or not self.track_running_stats
        momentum = 0.0 if self.momentum is None else self.momentum  # PyTorch's: None leaves the statistics
        y = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias, use_input_stats,
                            momentum, self.eps)
        return y if batched else y[0]


class InstanceNorm1d(_InstanceNorm):
    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    _spatial = 3


class _LazyNorm(LazyModuleMixin):
    """A batch or instance norm whose num_features is read from its first
    input's channel dim (Note [Lazy modules] in lazy.py); PyTorch's
    arguments without num_features."""
    _lazy_attr = "num_features"

    def __init__(self, eps=1e-5, momentum=0.1, affine=None, track_running_stats=None, device=None, dtype=None):
        flags = {k: v for k, v in (("affine", affine), ("track_running_stats", track_running_stats)) if v is not None}
        self.cls_to_become.__init__(self, 0, eps, momentum, device=device, dtype=dtype, **flags)
        self._uninitialize(buffers=("running_mean", "running_var"))

    def _lazy_size(self, input):
        return input.shape[self._check_input_dim(input)]

    def _lazy_template(self, name):
        return () if name == "num_batches_tracked" else (None,)


class LazyBatchNorm1d(_LazyNorm, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNorm, BatchNorm2d):
    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNorm, BatchNorm3d):
    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNorm, InstanceNorm1d):
    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNorm, InstanceNorm2d):
    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNorm, InstanceNorm3d):
    cls_to_become = InstanceNorm3d


class LocalResponseNorm(Module):
    """Each channel divided by (k + alpha / size * the sum of squares of size
    neighbouring channels)^beta (PyTorch's LocalResponseNorm)."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


__all__ = ["LocalResponseNorm", "LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d",
           "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"]
