"""devtensor tensors as chunks of Dask arrays: the look-ups Dask's algorithms
make for a chunk type, and Dask's array backend named "devtensor".

Importing this module imports dask.array and registers everything; devtensor
does so by itself when dask.array is imported, before or after devtensor
(Note [Registering with libraries devtensor does not import] in
_after_import.py), so programs need not import it.

Dask then keeps devtensor chunks through from_array, map_blocks, blockwise
expressions, reductions, tensordot/matmul/einsum, slicing and rechunking:
its chunk functions call NumPy's functions, which NumPy hands to devtensor
(__array_function__, __array_ufunc__), so each chunk's work runs on the
chunk's device.  An array's _meta is a zero-size tensor on that device.

With dask.config.set({"array.backend": "devtensor"}), da.ones, da.zeros,
da.empty, da.full, da.arange and da.random build devtensor chunks: on the
CPU, or where `meta=devtensor.empty((), device=...)` (`like=` for arange)
says; x.to_backend("devtensor", device=...) converts an existing array.

Across processes (dask.distributed), see _dask_distributed.py: tensors
travel as their bytes, and BindDevice gives each worker one device.
"""
import functools
import threading

import dask
import dask.array as da
import numpy as np
from dask.array import backends, dispatch
from dask.array.backends import ArrayBackendEntrypoint
from dask.utils import Dispatch

import devtensor as dt
from ._C import TensorBase

__all__ = ["DevtensorBackendEntrypoint", "BindDevice", "register", "to_devtensor_dispatch"]

to_devtensor_dispatch = Dispatch("to_devtensor_dispatch")


@to_devtensor_dispatch.register(np.ndarray)
def _from_numpy(data, device=None, **kwargs):
    return dt.asarray(data, device=device)


@to_devtensor_dispatch.register(TensorBase)
def _to_device(data, device=None, **kwargs):
    return data if device is None else data.to(device)


def _to_numpy(data, **kwargs):
    return data.numpy(force=True)  # explicit: the transfer guard allows it


# Note [Dask's empty look-up]
# Dask calls empty_lookup with a chunk type only, never a chunk: for the
# small bookkeeping arrays of da.percentile (the 0 and 100 around q, the
# counts it merges), which it then concatenates or combines with tensors on
# the chunks' device.  A type says nothing about the device, so the scratch
# arrays are NumPy's: devtensor's functions move a NumPy operand to the
# device of the tensors it meets, where a CPU tensor would be refused
# beside a CUDA one (PyTorch's rule).  (np.empty takes devtensor dtypes:
# Note [np.dtype of a devtensor dtype].)


# Note [Random chunks on the creating thread's device]
# Dask makes a random array's chunks in its workers, from the bit generator's
# (or RandomState's) class and a seed, and the default device is per thread:
# a worker's is the CPU.  So the classes handed to Dask carry the default
# device of the thread that asks for them (when a Generator or RandomState
# is made, and for Dask's module functions the first time, as Dask keeps
# their RandomState): a subclass per device, the CPU's too, as Dask rebuilds
# bit generators by their type; and the chunks land where the meta says,
# with any scheduler.  The subclasses are named in this module
# (Philox_on_cuda_1), so pickles name them and a worker makes them again.
# (Dask's choice() with a RandomState looks the class up in the worker: its
# chunks follow the worker's default device.)
_BOUND = {}
_BOUND_LOCK = threading.Lock()


def _bound(cls, device):
    name = f"{cls.__name__}_on_{str(device).replace(':', '_')}"
    with _BOUND_LOCK:
        if name not in _BOUND:
            _BOUND[name] = type(name, (cls,), {"device": device, "__module__": __name__, "__qualname__": name})
        return _BOUND[name]


def _on_default_device(cls):
    return _bound(cls, dt.get_default_device())


def _with_devtensor_meta(name, *args, meta=None, **kwargs):
    meta = dt.empty(()) if meta is None else meta
    with dask.config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


class DevtensorBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array backend "devtensor" (an entry point in pyproject.toml, and
    registered by register())."""

    @classmethod
    def to_backend_dispatch(cls):
        return to_devtensor_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        device = kwargs.get("device")
        if isinstance(data._meta, TensorBase) and (device is None or data._meta.device == dt.device(device)):
            return data
        meta = dt.empty((0,) * data.ndim, dtype=data.dtype, device=device)
        return data.map_blocks(to_devtensor_dispatch, meta=meta, **kwargs)

    @property
    def RandomState(self):
        return _on_default_device(dt.random.RandomState)

    @property
    def default_bit_generator(self):
        return _on_default_device(dt.random.Philox)

    ones = staticmethod(functools.partial(_with_devtensor_meta, "ones"))
    zeros = staticmethod(functools.partial(_with_devtensor_meta, "zeros"))
    empty = staticmethod(functools.partial(_with_devtensor_meta, "empty"))
    full = staticmethod(functools.partial(_with_devtensor_meta, "full"))

    @staticmethod
    def arange(*args, like=None, **kwargs):
        like = dt.empty(()) if like is None else like
        with dask.config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)


def register():
    """Register devtensor with dask.array (idempotent)."""
    if TensorBase in dispatch.concatenate_lookup._lookup:
        return
    da.register_chunk_type(TensorBase)
    dispatch.concatenate_lookup.register(TensorBase, dt.concatenate)
    dispatch.take_lookup.register(TensorBase, dt.take)
    dispatch.tensordot_lookup.register(TensorBase, dt.tensordot)
    dispatch.einsum_lookup.register(TensorBase, dt.einsum)
    dispatch.empty_lookup.register(TensorBase, np.empty)  # Note [Dask's empty look-up]
    dispatch.percentile_lookup.register(TensorBase, backends.percentile)
    dispatch.numel_lookup.register(TensorBase, backends._numel_arraylike)
    dispatch.nannumel_lookup.register(TensorBase, backends._nannumel)
    dispatch.to_numpy_dispatch.register(TensorBase, _to_numpy)
    creation = backends.array_creation_dispatch
    if "devtensor" not in creation._lookup:
        creation.register_backend("devtensor", DevtensorBackendEntrypoint())


def __getattr__(name):
    if name == "BindDevice":
        from ._dask_distributed import BindDevice
        return BindDevice
    for cls in (dt.random.Philox, dt.random.RandomState):  # Note [Random chunks on the creating thread's device]
        prefix = cls.__name__ + "_on_"
        if name.startswith(prefix):
            return _bound(cls, dt.device(name[len(prefix):].replace("_", ":", 1)))
    raise AttributeError(f"module 'devtensor.dask' has no attribute {name!r}")


register()
