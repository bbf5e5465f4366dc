"""The array API standard's namespace entry points: x.__array_namespace__(),
devtensor.__array_api_version__, devtensor.__array_namespace_info__() and the
astype function.  devtensor itself is the namespace (its functions follow
NumPy's names, with the standard's names beside them)."""
from . import _C

API_VERSION = "2025.12"
_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")
# the standard's dtypes (bfloat16 is devtensor's own, outside the standard)
_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128")


def array_namespace(api_version=None):
    """What x.__array_namespace__(api_version) returns: the devtensor module."""
    if api_version is not None and api_version not in _VERSIONS:
        raise ValueError(f"Unrecognized array API version: {api_version!r}; devtensor supports "
                         f"{', '.join(_VERSIONS)}")
    import devtensor
    return devtensor


class Info:
    """The object devtensor.__array_namespace_info__() returns."""

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        """The default device: the innermost `with devtensor.device(...)`, else cpu."""
        return _C._default_device()

    def devices(self):
        """The devices there are, a tuple (as the 2025.12 conformance suite checks)."""
        from . import cuda
        return (_C.device("cpu"),) + tuple(_C.device(f"cuda:{i}")
                                           for i in range(cuda.device_count()))

    def default_dtypes(self, *, device=None):
        self._check_device(device)
        return {"real floating": _C.float64, "complex floating": _C.complex128,
                "integral": _C.int64, "indexing": _C.int64}

    def dtypes(self, *, device=None, kind=None):
        """The standard's dtypes of a kind (a kind name or a tuple of them), by name."""
        from ._dtype_api import isdtype
        self._check_device(device)
        found = {}
        for name in _DTYPES:
            d = getattr(_C, name)
            if kind is None or isdtype(d, kind):
                found[name] = d
        return found

    def _check_device(self, device):
        """A device object, or what devtensor.device() takes ("cpu", "cuda:0",
        as every device= of devtensor does), of a device there is."""
        if device is None:
            return
        try:
            d = device if isinstance(device, _C.device) else _C.device(device)
        except (TypeError, ValueError, RuntimeError):
            d = None
        if d is not None and d.type == "cuda" and d.index is None:  # "cuda": the current one
            from . import cuda
            d = _C.device(f"cuda:{cuda.current_device()}") if cuda.device_count() else None
        if d not in self.devices():
            raise ValueError(f"device {device!r} is not one of {self.devices()}")

    def __repr__(self):
        return "devtensor.__array_namespace_info__()"


def array_namespace_info():
    return Info()


def astype(x, dtype, /, *, copy=True, device=None):
    """Array API astype: x's values as dtype (a new tensor unless copy=False and
    nothing changes), on device if given."""
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"astype() expects a devtensor.Tensor, got {type(x).__name__}")
    dtype = _C.dtype(dtype)
    if device is not None:
        return x.to(device, dtype, copy=copy)
    return x.astype(dtype, copy=copy)


__all__ = ["astype"]
