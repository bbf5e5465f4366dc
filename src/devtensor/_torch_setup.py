"""PyTorch's setup and configuration names that scripts call before any
tensor work: Generator (a seeded stream object, with its state),
default_generator, initial_seed, get_rng_state, set_rng_state, Size,
get_default_dtype and set_default_dtype (float64 only),
use_deterministic_algorithms, set_float32_matmul_precision, autocast and
compile.  Each does what it can honestly do in devtensor, as its
docstring says.

Note [Deterministic algorithms]
    devtensor's kernels fold in a fixed order -- reductions and scans by
    position, at() and the scatter-adds after a stable sort of their
    targets, no floating-point atomics -- so a run repeats bit for bit on
    the same device and thread count.  use_deterministic_algorithms(True)
    has nothing to switch: it is recorded and reported.
"""
import functools
import operator
import os
import struct

from . import _C
from ._generator import Generator as _NumPyGenerator

# compile is not in __all__: `from devtensor import *` must not shadow Python's compile
__all__ = ["Generator", "default_generator", "initial_seed", "get_rng_state", "set_rng_state", "Size",
           "get_default_dtype", "set_default_dtype", "use_deterministic_algorithms",
           "are_deterministic_algorithms_enabled", "set_float32_matmul_precision", "get_float32_matmul_precision",
           "autocast"]


class Generator(_NumPyGenerator):
    """PyTorch's Generator: g = Generator(device); g.manual_seed(42) (which
    returns g); g.initial_seed(); g.seed().  It is a devtensor.random
    Generator, so it also has NumPy's methods (g.random, g.normal, ...) and
    goes wherever generator= is taken (randperm, multinomial, DataLoader).
    Its numbers are devtensor's counter-based streams, the same on every
    device, not PyTorch's."""

    def __init__(self, device="cpu"):
        self.device = _C.device(device)
        self.seed()

    def manual_seed(self, seed):
        """Restart the stream from seed; returns the generator."""
        self._initial = operator.index(seed) % 2 ** 64
        _NumPyGenerator.__init__(self, self._initial)
        self._on = self.device
        return self

    def seed(self):
        """Restart from a fresh random seed, which it returns."""
        self.manual_seed(int.from_bytes(os.urandom(8), "little"))
        return self._initial

    def initial_seed(self):
        return self._initial

    def get_state(self):
        """The stream's position as a uint8 CPU tensor (Note [Generator states]),
        for set_state to replay the draws that follow."""
        with self._stream.lock:
            return _state_tensor(self._stream.seed, self._stream.offset)

    def set_state(self, new_state):
        seed, offset = _state_values(new_state)
        with self._stream.lock:
            self._stream.seed, self._stream.offset = seed, offset
        return self

    def __repr__(self):
        return f"Generator(device='{self.device}') [devtensor]"


# Note [Generator states]
#     PyTorch's get_state/get_rng_state give a uint8 tensor that set_state takes
#     back.  A devtensor stream is a Philox key and a counter, so its state is
#     their 16 little-endian bytes; any other tensor is refused.
def _state_tensor(seed, offset):
    from ._creation import tensor
    return tensor(list(struct.pack("<QQ", seed, offset)), dtype=_C.uint8)


def _state_values(state):
    if not isinstance(state, _C.TensorBase) or state.dtype != _C.uint8 or state.shape != (16,):
        raise TypeError(f"a generator state is the 16-element uint8 tensor get_state() returns, got "
                        f"{getattr(state, 'shape', type(state).__name__)}")
    return struct.unpack("<QQ", bytes(state.tolist()))


class _DefaultGenerator(Generator):
    """default_generator: the Generator interface to devtensor.random's
    global stream (what manual_seed seeds and the module's functions draw)."""

    def __init__(self):
        from . import random
        self.device = _C.device("cpu")
        _NumPyGenerator.__init__(self, 0)
        self._bit_generator._stream = self._stream = random._GLOBAL

    def manual_seed(self, seed):
        from . import random
        random.seed(operator.index(seed) % 2 ** 64)
        return self

    def seed(self):
        from . import random
        random.seed()
        return self.initial_seed()

    def initial_seed(self):
        return self._stream.seed

    def __repr__(self):
        return "devtensor default_generator (the global stream)"


default_generator = _DefaultGenerator()


def initial_seed():
    """The seed of the global stream (manual_seed's, or the random one at import)."""
    from . import random
    return random.get_state()[0]


def get_rng_state():
    """The global stream's state, a uint8 tensor (Note [Generator states])."""
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)


class Size(tuple):
    """PyTorch's Size: a tuple of dimensions (a tensor's .shape is a plain
    tuple and compares equal to it)."""

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n

    def __repr__(self):
        return f"devtensor.Size({list(self)})"


def get_default_dtype():
    """float64: devtensor's default floating dtype is NumPy's, everywhere
    (zeros, randn, tensor([1.0]), the nn layers' draws take dtype=)."""
    return _C.float64


def set_default_dtype(d):
    """Only float64, the default already, is accepted: every factory follows
    NumPy's float64, and changing that behind NumPy code's back is not
    offered.  Pass dtype= (or .float() on modules) for float32."""
    from ._C import dtype as _dtype_type
    if _dtype_type(d) != _C.float64:
        raise NotImplementedError(f"set_default_dtype({_dtype_type(d)}): devtensor's default float dtype is "
                                  f"float64 (NumPy's) and cannot be changed; pass dtype={_dtype_type(d)} to the "
                                  f"factories, or call .to({_dtype_type(d)}) on tensors and modules")


_deterministic = {"mode": False, "warn_only": False}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Recorded only: devtensor's kernels are deterministic already (Note
    [Deterministic algorithms])."""
    _deterministic["mode"], _deterministic["warn_only"] = bool(mode), bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _deterministic["mode"]


def set_float32_matmul_precision(precision):
    """PyTorch's float32 matmul precision: 'highest' keeps float32 products
    (the default), 'high' and 'medium' allow TensorFloat-32 on CUDA devices
    (backends.cuda.matmul.allow_tf32; devtensor has no bfloat16 passes)."""
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision {precision!r}: expected 'highest', 'high' or 'medium'")
    _C._allow_tf32(precision != "highest")


def get_float32_matmul_precision():
    return "high" if _C._allow_tf32() else "highest"


class autocast:
    """PyTorch's autocast context manager and decorator, accepted and
    changing nothing: devtensor computes in the dtypes it is given (no
    automatic mixed precision), so results are the full-precision ones."""

    def __init__(self, device_type="cuda", dtype=None, enabled=True, cache_enabled=None):
        self.device_type, self.fast_dtype, self.enabled = device_type, dtype, enabled

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return run


def compile(model=None, **options):
    """PyTorch's compile: devtensor has no graph compiler, so the model or
    function is returned as it is (it runs devtensor's kernels unchanged);
    used as @compile or @compile(...) too."""
    if model is None:
        return lambda fn: fn
    return model
