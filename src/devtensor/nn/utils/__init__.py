"""devtensor.nn.utils: PyTorch's helpers that inference and training
scripts call: rnn.pad_sequence, the gradient clippers (no autograd: every
grad is None, so they clip nothing and return a norm of 0, as PyTorch's
do for parameters without gradients), parameters_to_vector and
vector_to_parameters."""
from . import rnn  # noqa: F401

__all__ = ["rnn", "clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]


def _grads(parameters):
    from ..._C import TensorBase
    params = [parameters] if isinstance(parameters, TensorBase) else list(parameters)
    return [p.grad for p in params if getattr(p, "grad", None) is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The total norm of the parameters' gradients, which are scaled down to
    max_norm when it is larger; with no gradients, 0."""
    from ... import linalg, stack, tensor
    grads = _grads(parameters)
    if not grads:
        return tensor(0.0)
    total = linalg.vector_norm(stack([linalg.vector_norm(g, ord=norm_type) for g in grads]), ord=norm_type)
    if error_if_nonfinite and not bool(total.isfinite()):
        raise RuntimeError(f"The total norm of order {float(norm_type)} for gradients from `parameters` is "
                           f"non-finite, so it cannot be clipped.")
    scale = min(1.0, float(max_norm) / (float(total) + 1e-6))
    for g in grads:
        g *= scale
    return total


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Every gradient clipped to [-clip_value, clip_value], in place."""
    from ... import clip
    for g in _grads(parameters):
        clip(g, -clip_value, clip_value, out=g)


def parameters_to_vector(parameters):
    """The parameters flattened and joined into one vector."""
    from ... import concatenate
    return concatenate([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """The slices of vec copied into the parameters, in order."""
    at = 0
    for p in parameters:
        n = p.size
        p[...] = vec[at:at + n].reshape(p.shape)
        at += n
