"""PyTorch's setup and configuration names that scripts call before any
tensor work: Generator (a seeded stream object), initial_seed, Size,
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

from . import _C
from ._generator import Generator as _NumPyGenerator

# compile is not in __all__: `from devtensor import *` must not shadow Python's compile
__all__ = ["Generator", "initial_seed", "Size", "use_deterministic_algorithms",
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

    def __repr__(self):
        return f"Generator(device='{self.device}') [devtensor]"


def initial_seed():
    """The seed of the global stream (manual_seed's, or the random one at import)."""
    from . import random
    return random.get_state()[0]


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
