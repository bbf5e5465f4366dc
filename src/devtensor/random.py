"""devtensor.random: random tensors from a counter-based generator: NumPy's
legacy functions (seed, rand, randn, randint, random, choice, shuffle, and
every law of NumPy's random module) on one module-level stream, and
default_rng()'s Generators (devtensor/_generator.py) with streams of their
own; NumPy's SeedSequence and bit generators seed them (Note [NumPy's
generators as seeds] in _generator.py).

Note [Reproducible on every device]
The generator is Philox4x32-10 (csrc/core/philox.h).  Element i of a draw is
a function of (seed, offset + i) alone, and each draw advances the offset
by its size, so one seed gives the same numbers on the cpu, on emulated
devices and on a GPU, however the work is split.
"""
import contextlib
import operator
import os
import threading
import warnings

import numpy as np

from . import _C
from ._C import dtype as _dtype_type
from ._creation import _with_size
from ._random_params import _count, _device_of, _float_param, _is_array, _result_shape


class _Stream:
    """A Philox key (seed) and the next counter (offset): draws reserve
    counters under a lock, so threads never share one."""

    def __init__(self, seed):
        self.lock = threading.Lock()
        self.seed = seed
        self.offset = 0

    def __getstate__(self):  # pickle and copy a stream's key and counter (Generators, RandomState), not its lock
        with self.lock:
            return {"seed": self.seed, "offset": self.offset}

    def __setstate__(self, state):
        self.lock = threading.Lock()
        self.seed, self.offset = state["seed"], state["offset"]

    def take(self, n):
        """Reserve n counters; returns (seed, first offset)."""
        with self.lock:
            s, offset = self.seed, self.offset
            self.offset = (offset + n) % 2 ** 64
            return s, offset


_GLOBAL = _Stream(int.from_bytes(os.urandom(8), "little"))  # the module-level functions'


def seed(seed=None):
    """Reset the generator: the same seed gives the same sequence of draws
    (NumPy's name for the argument, seed=)."""
    s = int.from_bytes(os.urandom(8), "little") if seed is None else seed
    s = operator.index(s)
    if s < 0 or s >= 2 ** 64:
        raise ValueError(f"seed must be between 0 and 2**64 - 1, got {s}")
    with _GLOBAL.lock:
        _GLOBAL.seed = s
        _GLOBAL.offset = 0


manual_seed = seed


def get_state():
    """(seed, offset): pass to set_state to replay the following draws."""
    with _GLOBAL.lock:
        return (_GLOBAL.seed, _GLOBAL.offset)


def set_state(state):
    s, offset = state
    with _GLOBAL.lock:
        _GLOBAL.seed = int(s)
        _GLOBAL.offset = int(offset)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """PyTorch's fork_rng: the global stream's state restored on leaving
    the block (devtensor has one stream for every device)."""
    if not enabled:
        yield
        return
    state = get_state()
    try:
        yield
    finally:
        set_state(state)


def _shape_of(size):
    if size is None:
        return ()
    if isinstance(size, (int, np.integer)) or getattr(size, "ndim", None) == 0:  # a 0-d array or tensor too
        return (operator.index(size),)
    return tuple(size)


def _varargs_shape(shape):
    """rand(2, 3) or rand((2, 3)); an integer may be a 0-d integer array or tensor."""
    if len(shape) == 1 and _count(shape[0]) is None and getattr(shape[0], "ndim", 1) != 0 and \
            hasattr(shape[0], "__len__"):
        shape = shape[0]
    return tuple(operator.index(n) for n in shape)


def _floating(dtype, name):
    dtype = _C.float64 if dtype is None else _dtype_type(dtype)
    if not dtype.is_floating_point:
        raise TypeError(f"{name}() needs a floating dtype (float16, bfloat16, float32 or "
                        f"float64), got {dtype}")
    return dtype


def _draw(kind, shape, dtype, device, a, b, stream=_GLOBAL):
    t = _C._empty(shape, dtype, device)
    if t.size:
        s, offset = stream.take(t.size)
        t._generate_(kind, a, b, s, offset)
    return t


def uniform(low=0.0, high=1.0, size=None, dtype=None, device=None):
    """Uniform samples in [low, high) (low and high may be arrays, which
    broadcast; as NumPy's legacy function, high < low is allowed)."""
    dtype = _floating(dtype, "uniform")
    if not _is_array(low) and not _is_array(high):
        return _draw(_C.GEN_UNIFORM, _shape_of(size), dtype, device, float(low), float(high))
    device = _device_of(device, low, high)
    lo, hi = _float_param(low, device), _float_param(high, device)
    shape = _result_shape(None if size is None else _shape_of(size), lo, hi)
    return (lo + (hi - lo) * _draw(_C.GEN_UNIFORM, shape, _C.float64, device, 0.0, 1.0)).astype(dtype, copy=False)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, device=None):
    """Normal samples with mean loc and standard deviation scale (arrays
    broadcast, as NumPy's)."""
    dtype = _floating(dtype, "normal")
    if not _is_array(loc) and not _is_array(scale):
        if scale < 0:
            raise ValueError("scale < 0")
        return _draw(_C.GEN_NORMAL, _shape_of(size), dtype, device, float(loc), float(scale))
    device = _device_of(device, loc, scale)
    mu, sigma = _float_param(loc, device), _float_param(scale, device)
    if bool((sigma < 0).any()):
        raise ValueError("scale < 0")
    shape = _result_shape(None if size is None else _shape_of(size), mu, sigma)
    return (mu + sigma * _draw(_C.GEN_NORMAL, shape, _C.float64, device, 0.0, 1.0)).astype(dtype, copy=False)


def rand(*shape, dtype=None, device=None, generator=None, size=None):
    """Uniform samples in [0, 1): rand(2, 3), rand((2, 3)) or rand(size=(2, 3));
    from a Generator's stream with generator= (PyTorch's keyword)."""
    shape = _with_size(shape, size, "rand")
    dtype = _floating(dtype, "rand")
    if generator is not None:
        return _generator(generator).random(_varargs_shape(shape), device=_placed(device)).astype(dtype, copy=False)
    return _draw(_C.GEN_UNIFORM, _varargs_shape(shape), dtype, device, 0.0, 1.0)


def randn(*shape, dtype=None, device=None, generator=None, size=None):
    """Standard normal samples: randn(2, 3), randn((2, 3)) or randn(size=(2, 3));
    from a Generator's stream with generator= (PyTorch's keyword)."""
    shape = _with_size(shape, size, "randn")
    dtype = _floating(dtype, "randn")
    if generator is not None:
        return _generator(generator).standard_normal(_varargs_shape(shape), device=_placed(device)).astype(
            dtype, copy=False)
    return _draw(_C.GEN_NORMAL, _varargs_shape(shape), dtype, device, 0.0, 1.0)


def _generator(generator):
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a devtensor.random.Generator (devtensor.Generator), not "
                        f"{type(generator).__name__}")
    return generator


def _placed(device):
    """The device a factory's draws go to: the one given, else the default
    device, never the generator's own (its stream is the same on every
    device: Note [Reproducible on every device])."""
    from ._default_device import get_default_device
    return device if device is not None else get_default_device()


def randint(low, high=None, size=None, dtype=None, device=None):
    """Integers in [low, high) (in [0, low) when high is None) of any integer dtype or
    bool, over their whole range; NumPy's signature (low and high may be arrays)."""
    return _LEGACY._integers(low, high, size, _C.int64 if dtype is None else dtype, False, device, "randint")


def random_integers(low, high=None, size=None, *, device=None):
    """Integers in [low, high] ([1, low] without high): NumPy's deprecated function."""
    if high is None:
        warnings.warn(f"This function is deprecated. Please call randint(1, {low} + 1) instead", DeprecationWarning,
                      stacklevel=2)
        low, high = 1, low
    else:
        warnings.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) instead",
                      DeprecationWarning, stacklevel=2)
    return randint(low, int(high) + 1, size, device=device)


# ---- NumPy's Generator API, and the legacy functions on the module's stream ----
from ._generator import Generator, default_rng  # noqa: E402,F401  (public)

_LEGACY = Generator.__new__(Generator)
_LEGACY._stream = _GLOBAL  # seed() reseeds these too


def random(size=None, *, device=None):
    """Uniform floats in [0, 1) (NumPy's random.random)."""
    return _LEGACY.random(size, device=device)


random_sample = ranf = sample = random


def bytes(length):
    """length random bytes (Python bytes), NumPy's random.bytes."""
    return _LEGACY.bytes(length)


def standard_normal(size=None, *, device=None):
    return _LEGACY.standard_normal(size, device=device)


def exponential(scale=1.0, size=None, *, device=None):
    return _LEGACY.exponential(scale, size, device=device)


def choice(a, size=None, replace=True, p=None, *, device=None):
    """Samples of a (an int n means arange(n)), NumPy's random.choice."""
    return _LEGACY.choice(a, size, replace, p, device=device)


def permutation(x, *, device=None):
    return _LEGACY.permutation(x, device=device)


def shuffle(x):
    """Shuffle a tensor (along its first axis) or a list in place."""
    _LEGACY.shuffle(x)


def binomial(n, p, size=None, *, device=None):
    return _LEGACY.binomial(n, p, size, device=device)


def poisson(lam=1.0, size=None, *, device=None):
    return _LEGACY.poisson(lam, size, device=device)


def standard_exponential(size=None, *, device=None):
    return _LEGACY.standard_exponential(size, device=device)


def standard_gamma(shape, size=None, *, device=None):
    return _LEGACY.standard_gamma(shape, size, device=device)


def gamma(shape, scale=1.0, size=None, *, device=None):
    return _LEGACY.gamma(shape, scale, size, device=device)


def beta(a, b, size=None, *, device=None):
    return _LEGACY.beta(a, b, size, device=device)


def chisquare(df, size=None, *, device=None):
    return _LEGACY.chisquare(df, size, device=device)


def f(dfnum, dfden, size=None, *, device=None):
    return _LEGACY.f(dfnum, dfden, size, device=device)


def standard_t(df, size=None, *, device=None):
    return _LEGACY.standard_t(df, size, device=device)


def lognormal(mean=0.0, sigma=1.0, size=None, *, device=None):
    return _LEGACY.lognormal(mean, sigma, size, device=device)


def laplace(loc=0.0, scale=1.0, size=None, *, device=None):
    return _LEGACY.laplace(loc, scale, size, device=device)


def logistic(loc=0.0, scale=1.0, size=None, *, device=None):
    return _LEGACY.logistic(loc, scale, size, device=device)


def gumbel(loc=0.0, scale=1.0, size=None, *, device=None):
    return _LEGACY.gumbel(loc, scale, size, device=device)


def weibull(a, size=None, *, device=None):
    return _LEGACY.weibull(a, size, device=device)


def pareto(a, size=None, *, device=None):
    return _LEGACY.pareto(a, size, device=device)


def power(a, size=None, *, device=None):
    return _LEGACY.power(a, size, device=device)


def rayleigh(scale=1.0, size=None, *, device=None):
    return _LEGACY.rayleigh(scale, size, device=device)


def wald(mean, scale, size=None, *, device=None):
    return _LEGACY.wald(mean, scale, size, device=device)


def triangular(left, mode, right, size=None, *, device=None):
    return _LEGACY.triangular(left, mode, right, size, device=device)


def geometric(p, size=None, *, device=None):
    return _LEGACY.geometric(p, size, device=device)


def negative_binomial(n, p, size=None, *, device=None):
    return _LEGACY.negative_binomial(n, p, size, device=device)


def dirichlet(alpha, size=None, *, device=None):
    """Dirichlet vectors; as NumPy's legacy function, every alpha must be > 0."""
    values = alpha if isinstance(alpha, _C.TensorBase) else np.asarray(alpha, dtype=np.float64)
    if values.ndim == 1 and bool((values <= 0).any()):
        raise ValueError("alpha <= 0")
    return _LEGACY.dirichlet(alpha, size, device=device)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8, *, device=None):
    return _LEGACY.multivariate_normal(mean, cov, size, check_valid, tol, device=device)


def multinomial(n, pvals, size=None, *, device=None):
    return _LEGACY.multinomial(n, pvals, size, device=device)


def standard_cauchy(size=None, *, device=None):
    return _LEGACY.standard_cauchy(size, device=device)


def vonmises(mu, kappa, size=None, *, device=None):
    return _LEGACY.vonmises(mu, kappa, size, device=device)


def zipf(a, size=None, *, device=None):
    return _LEGACY.zipf(a, size, device=device)


def logseries(p, size=None, *, device=None):
    return _LEGACY.logseries(p, size, device=device)


def noncentral_chisquare(df, nonc, size=None, *, device=None):
    return _LEGACY.noncentral_chisquare(df, nonc, size, device=device)


def noncentral_f(dfnum, dfden, nonc, size=None, *, device=None):
    return _LEGACY.noncentral_f(dfnum, dfden, nonc, size, device=device)


def hypergeometric(ngood, nbad, nsample, size=None, *, device=None):
    """Good items among nsample drawn; as NumPy's legacy function, nsample >= 1 and
    no bound on ngood and nbad (the law is exact while they stay below 2^53)."""
    return _LEGACY._hypergeometric(ngood, nbad, nsample, size, device, legacy=True)


# ---- bit generators: devtensor's Philox; NumPy's others seed default_rng (from their state) ----
from ._generator import Philox, _seed_key  # noqa: E402,F401  (public: the bit generator)
from numpy.random import BitGenerator, MT19937, PCG64, PCG64DXSM, SFC64, SeedSequence  # noqa: E402,F401


# ---- NumPy's legacy RandomState, each on a stream of its own ----
class RandomState:
    """NumPy's legacy RandomState API on a Philox stream of its own: seeded by
    an int, a sequence of ints (as NumPy's RandomState accepts; Dask seeds
    its chunks so) or None; every method takes device=.  The numbers are
    devtensor's, not NumPy's Mersenne Twister's.  device (None by default) is
    where a call that names none draws, as Philox.device is."""

    device = None

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        self._gen = Generator.__new__(Generator)
        self._gen._stream = _Stream(_seed_key(seed))
        self._gen._on = self.device

    def __repr__(self):
        return "RandomState(Philox4x32-10) [devtensor]"

    def random_sample(self, size=None, *, device=None):
        return self._gen.random(size, device=device)

    random = random_sample

    def rand(self, *shape, dtype=None, device=None):
        dtype = _floating(dtype, "rand")
        return _draw(_C.GEN_UNIFORM, _varargs_shape(shape), dtype, self._gen._device_for(device), 0.0, 1.0,
                     self._gen._stream)

    def randn(self, *shape, dtype=None, device=None):
        dtype = _floating(dtype, "randn")
        return _draw(_C.GEN_NORMAL, _varargs_shape(shape), dtype, self._gen._device_for(device), 0.0, 1.0,
                     self._gen._stream)

    def randint(self, low, high=None, size=None, dtype=int, *, device=None):
        return self._gen._integers(low, high, size, _C.int64 if dtype is int else dtype, False, device, "randint")

    def uniform(self, low=0.0, high=1.0, size=None, *, device=None):
        return self._gen.uniform(low, high, size, device=device)

    def normal(self, loc=0.0, scale=1.0, size=None, *, device=None):
        return self._gen.normal(loc, scale, size, device=device)

    def standard_normal(self, size=None, *, device=None):
        return self._gen.standard_normal(size, device=device)

    def exponential(self, scale=1.0, size=None, *, device=None):
        return self._gen.exponential(scale, size, device=device)

    def choice(self, a, size=None, replace=True, p=None, *, device=None):
        return self._gen.choice(a, size, replace, p, device=device)

    def permutation(self, x, *, device=None):
        return self._gen.permutation(x, device=device)

    def shuffle(self, x):
        self._gen.shuffle(x)

    def binomial(self, n, p, size=None, *, device=None):
        return self._gen.binomial(n, p, size, device=device)

    def poisson(self, lam=1.0, size=None, *, device=None):
        return self._gen.poisson(lam, size, device=device)


__all__ = [
    "seed", "manual_seed", "get_state", "set_state", "uniform", "normal", "rand", "randn", "randint",
    "random_integers", "random", "random_sample", "ranf", "sample", "bytes", "standard_normal", "exponential",
    "choice", "permutation", "shuffle", "binomial", "poisson", "standard_exponential", "standard_gamma", "gamma",
    "beta", "chisquare", "f", "standard_t", "lognormal", "laplace", "logistic", "gumbel", "weibull", "pareto", "power",
    "rayleigh", "wald", "triangular", "geometric", "negative_binomial", "dirichlet", "multivariate_normal",
    "multinomial", "standard_cauchy", "vonmises", "zipf", "logseries", "noncentral_chisquare", "noncentral_f",
    "hypergeometric", "Generator", "default_rng", "Philox", "BitGenerator", "MT19937", "PCG64", "PCG64DXSM", "SFC64",
    "SeedSequence", "RandomState",
]
