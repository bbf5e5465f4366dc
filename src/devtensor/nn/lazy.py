"""LazyModuleMixin: what the lazy modules (LazyLinear, LazyConv*d,
LazyConvTranspose*d, LazyBatchNorm*d, LazyInstanceNorm*d) share.

Note [Lazy modules]
A lazy module is made without one size (Linear's in_features, a
convolution's in_channels, a norm's num_features); its parameters are
UninitializedParameters and its per-feature buffers UninitializedBuffers,
which have a device and dtype (Module.to() changes them) but no values.
Its first call reads the size from the input, materialises each of them
on the input's device, initialises them as the eager module does, and
turns the module into that module (LazyConv2d becomes Conv2d, as in
PyTorch).  The input is checked before anything changes, so a wrong
input leaves the module lazy.  load_state_dict materialises them from
the checkpoint instead, after the shapes have been checked against the
module's template (every dim known but the missing size).  Each lazy
class names the attribute it infers (`_lazy_attr`), the input dim it
reads (`_lazy_size`), and, per tensor, the shape with None for the
missing size, or for size // groups in a convolution's weight
(`_lazy_template`, `_lazy_per_group`).
"""
from .. import _C
from .parameter import UninitializedBuffer, UninitializedParameter, is_uninitialized


class LazyModuleMixin:
    cls_to_become = None
    _lazy_attr = ""  # the attribute the first input sets
    _lazy_per_group = False  # the template's None is the size // groups (a convolution's weight)

    def _uninitialize(self, buffers=()):
        """Replace the (empty) parameters the eager __init__ made, and the
        named buffers, by uninitialised ones of the same device and dtype."""
        for name, p in list(self._parameters.items()):
            if p is not None:
                setattr(self, name, UninitializedParameter(device=p.device, dtype=p.dtype))
        for name in buffers:
            b = self._buffers[name]
            if b is not None:
                self._buffers[name] = UninitializedBuffer(device=b.device, dtype=b.dtype)

    def has_uninitialized_params(self):
        return any(is_uninitialized(t) for t in (*self._parameters.values(), *self._buffers.values()))

    def _lazy_size(self, input):
        """The missing size read from input, after checking its dims (raise
        as the eager module would)."""
        raise NotImplementedError

    def _lazy_template(self, name):
        """The shape of tensor `name` with None for the missing size."""
        raise NotImplementedError

    def reset_parameters(self):
        if not self.has_uninitialized_params() and getattr(self, self._lazy_attr) != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        """Materialise every uninitialised tensor for input's size and
        device, initialise them, and become cls_to_become."""
        if not isinstance(input, _C.Tensor):
            raise TypeError(f"{self._get_name()}'s input must be a devtensor.Tensor, got {type(input).__name__}")
        size = self._lazy_size(input)
        setattr(self, self._lazy_attr, size)
        for name, p in self._parameters.items():
            if isinstance(p, UninitializedParameter):
                p.materialize(self._lazy_shape(name, size), device=input.device)
        for name, b in self._buffers.items():
            if isinstance(b, UninitializedBuffer):
                self._buffers[name] = b.materialize(self._lazy_shape(name, size), device=input.device)
        self.reset_parameters()
        self.__class__ = self.cls_to_become

    def _lazy_shape(self, name, size):
        dim = size // self.groups if self._lazy_per_group else size
        return tuple(dim if d is None else d for d in self._lazy_template(name))

    def forward(self, input, *args, **kwargs):
        self.initialize_parameters(input)  # the class changes: later calls come straight to forward
        return self.forward(input, *args, **kwargs)

    def _lazy_shape_error(self, name, shape, key):
        """Why a loaded tensor of this shape cannot become the tensor `name`
        (state-dict key `key`), or None if it can: PyTorch's size-mismatch
        check, made before anything is materialised."""
        template = self._lazy_template(name)
        if len(shape) == len(template) and all(t is None or t == s for t, s in zip(template, shape)):
            return None
        missing = f"{self._lazy_attr} // groups" if self._lazy_per_group else self._lazy_attr
        want = "(" + ", ".join(missing if t is None else str(t) for t in template)
        want += ",)" if len(template) == 1 else ")"
        return (f"size mismatch for {key}: copying a param with shape {tuple(shape)} from checkpoint, "
                f"{self._get_name()} needs shape {want}")

    def _after_load_state_dict(self):
        if self.has_uninitialized_params():
            return
        for name, t in (*self._parameters.items(), *self._buffers.items()):
            template = self._lazy_template(name) if t is not None else ()
            if None in template:
                dim = t.shape[template.index(None)]
                setattr(self, self._lazy_attr, dim * self.groups if self._lazy_per_group else dim)
                self.__class__ = self.cls_to_become
                return


__all__ = ["LazyModuleMixin"]
