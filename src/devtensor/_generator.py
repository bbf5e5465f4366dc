"""devtensor.random.Generator and default_rng: NumPy's Generator API drawing
from devtensor's counter-based Philox streams, on any device (device= on
every method; with tensor parameters, their device; else the default device,
devtensor.device(...)'s as a context).  The laws beyond
uniform, normal, exponential, integers, choice, the permutations, binomial
and poisson are in _distributions.py (a base class), the shared parameter
checks in _random_params.py.

Note [Generators and NumPy's streams]
A Generator's numbers depend only on its seed and the sequence of calls, and
are the same on every device (Note [Reproducible on every device] in
random.py) up to the last bit of log, exp and expm1, which the cpu's and a
GPU's math libraries round differently (continuous laws agree to ~1e-15;
counts exactly, unless such a bit flips an acceptance test); they are not
the numbers NumPy's PCG64 gives for that seed.  Integer seeds go through
NumPy's SeedSequence to a 64-bit Philox key, so nearby seeds give unrelated
streams.  Distributions are built from uniform (U) and normal (Z) draws with
devtensor's operations, so they run on every device:
  - exponential, standard_exponential: E = -log1p(-U); from E, weibull
    E^(1/a) (0 for a = 0, as NumPy), rayleigh scale sqrt(2E), pareto (NumPy's
    Lomax) expm1(E / a); power (1 - U)^(1/a); lognormal exp(mean + sigma Z);
    triangular by inversion of its CDF;
  - laplace, logistic, gumbel, geometric: from log V and log(1 - V) for V on
    the midpoints (k + 1/2) 2^-53 of U's grid, both exact (U + 2^-54 below
    1/2, (1 - U) - 2^-54 above), so that no log sees 0: laplace by inversion,
    logistic log V - log(1 - V), gumbel -log(-log V), geometric
    ceil(log V / log1p(-p)) (at least 1; int64's maximum from 2^63, as NumPy);
  - standard_gamma, gamma: Marsaglia-Tsang (d = a - 1/3, v = (1 + Z/sqrt(9d))^3,
    the squeeze then the log test) in rejection rounds as below; a < 1 by the
    boost Gamma(a + 1) U^(1/a), kept as a log; a = 0 gives 0;
    chisquare 2 Gamma(df / 2);
  - beta X / (X + Y), f (X / dfnum) / (Y / dfden), standard_t Z / sqrt(X / df)
    and dirichlet (a softmax over the last axis) from the logs of gamma draws,
    so that small shapes whose draws underflow to 0 do not give 0 / 0;
  - wald: Michael, Schucany and Haas: x = 4 mean scale / (sqrt(y + 4 scale) +
    sqrt(y))^2 for y = mean Z^2 (NumPy's root without its cancellation), kept
    where U <= mean / (mean + x), else mean^2 / x;
  - negative_binomial: Poisson(Gamma(n) (1 - p) / p), the Poisson below;
  - multivariate_normal: mean + z A^T with A A^T = cov from the svd
    (u sqrt(s)), eigh (u sqrt|s|) or cholesky of cov, factored on the cpu
    (LAPACK's and cuSOLVER's singular vectors differ in sign: other numbers);
  - multinomial: category j < d - 1 gets Binomial(left, p_j / (1 - p_0 - ...
    - p_(j-1))) of the trials left, for all samples at once; the last
    category takes what is left;
  - permutation, shuffle, permuted, choice without replacement: a sort of
    random 63-bit keys (ties have probability below n^2 / 2^64);
  - choice with p: a binary search of U in the normalised cumulative p; without
    replacement, the k smallest of E / p (E exponential: Efraimidis-Spirakis);
  - standard_cauchy: tan(pi W) for W = U - 1/2 + 2^-54 (exact, never +-1/2);
  - vonmises: NumPy's regimes of kappa: uniform below 1e-8, Best and Fisher's
    rejection up to 1e6, a normal of variance 1/kappa above, every angle but
    the uniform's wrapped into [-pi, pi] by NumPy's fmod (NumPy wraps its
    normal once only, so a large mu there stays outside: not here);
  - zipf and logseries: NumPy's rejection (zipf 1 for a >= 1025) and Kemp's
    method, in rejection rounds as below;
  - noncentral_chisquare: chi2(df - 1) + (Z + sqrt(nonc))^2 for df >= 1, else
    chi2(df + 2 Poisson(nonc / 2)) (NumPy's, which moves at df > 1);
    noncentral_f (X / dfnum) / (Y / dfden) of it and a chi-square;
  - hypergeometric: NumPy's two methods, an item by item draw when nsample
    or its complement is below 10 (at most 9 rounds), else Stadlober's HRUA;
    multivariate_hypergeometric: a hypergeometric per color, all samples at
    once (Note [Multivariate hypergeometric] in _distributions.py);
  - binomial: inversion below n * min(p, 1 - p) = 10, else Hormann's BTRS;
    poisson: multiplication below lam = 10, else Hormann's PTRS; every
    element is proposed and accepted or rejected at once, and each round
    carries only the elements still left (compacted: a round trip to the
    host per round for their count); log k! is exact below 10 and
    Stirling's series (error < 1e-13) above.  On this project's 2-core CPU,
    10^6 draws take 2.4 to 3.8 times NumPy's time (its loops are per element
    in C); tests/test_generator.py and tests/test_generator_more.py check the
    discrete laws by chi-square and the continuous ones by Kolmogorov-Smirnov
    against exact CDFs.

Note [Integers over the whole range]
integers() takes NumPy's bounds for every integer dtype and bool, up to the
whole range of uint64 and of int64 (2^64 values).  The kernel's draw
(GEN_RANDINT: low + the high word of 64 random bits times the range,
Lemire's multiply-shift without rejection, bias below range / 2^64) takes
int64 bounds [ilow, ihigh), so it serves every scalar range with a closed
high below 2^63 - 1.  Beyond (uint64's upper half, or 2^64 values), and for
array bounds, the same multiply-shift runs on devtensor's uint64 operations
(_mulhi in 32-bit halves): 64 random bits from two kernel draws of 32 (exact:
the high word of 64 bits times 2^32), times the span high - low (+ 1)
modulo 2^64, where 0 means all 2^64 values and the bits are the draw; low is
added modulo 2^64 and the result reinterpreted as the dtype.  Array bounds
are checked as NumPy checks them: the extremes of low and high (host data on
the host, a tensor by two reductions) against the dtype's limits, then
low >= high element by element (low > high with endpoint).

Note [NumPy's generators as seeds]
default_rng() takes NumPy's seeds too: a SeedSequence gives the same
Generator as its entropy; a NumPy bit generator (PCG64, MT19937, SFC64,
Philox, ...) or a NumPy Generator gives a SeedSequence of the words of its
current state (bit_generator.state, keys in sorted order), which is read and
not advanced: the same NumPy generator gives the same devtensor stream until
it draws, another state another stream.  devtensor.random's SeedSequence,
BitGenerator, PCG64, PCG64DXSM, MT19937 and SFC64 are NumPy's classes;
Philox is devtensor's own (a Philox4x32-10 key and counter, shared by the
Generators made from it, as NumPy's Generators share their bit generator).
"""
import math
import operator

import numpy as np

from . import _C
from ._C import TensorBase, dtype as _dtype_type
from ._distributions import Distributions
from ._random_params import (
    _POISSON_LAM_MAX, _any, _as_int, _check_int_bounds, _count, _dt, _float_param, _int_bound, _is_array,
    _log_factorial, _mulhi, _random, _result_shape, _shape, _take, _trial_counts,
)



def _size_shape(size):
    """The shape of the common size arguments (None, an int, a tuple of ints),
    or None for the others (the methods' general path checks those)."""
    if size is None:
        return ()
    if type(size) is int:
        return (size,)
    if type(size) is tuple and all(type(n) is int for n in size):
        return size
    return None


def _seed_key(seed):
    """The 64-bit Philox key of a seed (anything Philox takes, or a Philox)."""
    return (seed if isinstance(seed, Philox) else Philox(seed))._key


class Philox:
    """The bit generator behind devtensor's Generators, in NumPy's form:
    Philox(seed) from an int, a sequence of ints, a SeedSequence, a NumPy bit
    generator or Generator (Note [NumPy's generators as seeds]) or None; it
    holds the stream (key and counter), which every Generator made from it
    shares, as NumPy's Generators share their bit generator's state.
    spawn(n) gives n independent children (NumPy's SeedSequence.spawn).
    Dask's random module builds chunks from it (dask.array.random.default_rng
    with the "devtensor" backend).

    device (a devtensor addition, None by default) is where its Generators
    draw when a call names no device and has no tensor parameter; Dask's
    backend gives its chunks' bit generators the creating thread's default
    device (devtensor/dask.py)."""

    device = None

    def __init__(self, seed=None):
        if isinstance(seed, TensorBase):
            seed = seed.numpy(force=True)
        if isinstance(seed, np.random.Generator):
            seed = seed.bit_generator
        if isinstance(seed, (np.random.BitGenerator, np.random.RandomState)):
            state = seed.state if isinstance(seed, np.random.BitGenerator) else seed.get_state(legacy=False)
            seed = np.random.SeedSequence(_state_entropy(state))
        if not isinstance(seed, np.random.SeedSequence):
            seed = np.random.SeedSequence(None if seed is None else _seed_list(seed))
        self._seed_seq = seed
        self._key = int(seed.generate_state(1, np.uint64)[0])
        self._stream = _random()._Stream(self._key)

    @property
    def seed_seq(self):
        return self._seed_seq

    @property
    def lock(self):
        return self._stream.lock

    @property
    def state(self):
        """The stream's Philox4x32-10 key and next counter, a dict in NumPy's form."""
        with self._stream.lock:
            return {"bit_generator": "devtensor.Philox",
                    "state": {"key": self._stream.seed, "counter": self._stream.offset}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get("bit_generator") != "devtensor.Philox":
            raise ValueError("state must be for a devtensor.Philox PRNG")
        key, counter = operator.index(value["state"]["key"]), operator.index(value["state"]["counter"])
        if not (0 <= key < 2 ** 64 and 0 <= counter < 2 ** 64):
            raise ValueError("the key and the counter of a devtensor.Philox state are 64-bit unsigned")
        with self._stream.lock:
            self._stream.seed, self._stream.offset = key, counter

    def spawn(self, n_children):
        """n_children independent Philoxes (NumPy's BitGenerator.spawn, its int
        argument truncating floats)."""
        n_children = int(n_children) if isinstance(n_children, float) else operator.index(n_children)
        children = [type(self)(s) for s in self._seed_seq.spawn(n_children)]
        for child in children:
            child.device = self.device
        return children

    def __repr__(self):
        return "Philox [devtensor]"


def _state_entropy(state):
    """The words of a NumPy bit generator's state (nested dicts of names, ints
    and arrays), keys in sorted order, as SeedSequence entropy."""
    words = []

    def walk(value):
        if isinstance(value, dict):
            for key in sorted(value):
                walk(key)
                walk(value[key])
        elif isinstance(value, str):
            words.append(int.from_bytes(value.encode(), "little"))
        elif isinstance(value, np.ndarray):
            words.extend(int(v) % 2 ** 128 for v in value.ravel())
        else:
            words.append(int(value) % 2 ** 128)
    walk(state)
    return words


def _seed_list(seed):
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError("expected non-negative integer")
        return operator.index(seed)
    entropy = np.asarray(seed)
    if entropy.dtype.kind not in "iu" and entropy.size:  # [] is an empty sequence of ints
        raise TypeError(f"SeedSequence expects int or sequence of ints for entropy not {seed}")
    return [operator.index(v) for v in entropy.ravel()]


def default_rng(seed=None):
    """A Generator seeded by an int, a sequence of ints, a NumPy SeedSequence, a
    NumPy bit generator or Generator (from its state, which is not advanced:
    Note [NumPy's generators as seeds]), a devtensor.random.Philox (shared),
    fresh entropy (None), or the Generator itself if one is passed."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


class Generator(Distributions):
    """NumPy's Generator methods on devtensor's Philox streams (Note
    [Generators and NumPy's streams]); every method takes device=."""

    _bit_generator = None  # none behind the legacy functions' and RandomState's streams

    def __init__(self, seed=None):
        self._bit_generator = seed if isinstance(seed, Philox) else Philox(seed)
        self._stream = self._bit_generator._stream
        self._on = self._bit_generator.device

    def __repr__(self):
        return "Generator(Philox4x32-10) [devtensor]"

    @property
    def bit_generator(self):
        """The devtensor.random.Philox whose stream this Generator draws from."""
        return self._bit_generator

    def spawn(self, n_children):
        """n_children independent Generators, from the children of the bit generator's
        SeedSequence (NumPy's Generator.spawn): each call gives new ones."""
        if self._bit_generator is None:
            raise TypeError("spawn() needs a Generator made by default_rng() or Generator()")
        return [Generator(child) for child in self._bit_generator.spawn(n_children)]

    def bytes(self, length):
        """length random bytes, as NumPy's: little-endian uint32 draws (made on the cpu:
        the bytes are the host's), cut to length (C's division, as NumPy's Cython)."""
        try:
            length = int(length) if isinstance(length, (float, np.floating)) else operator.index(length)
        except TypeError:
            raise TypeError("an integer is required") from None
        words = ((length - 1) // 4 if length >= 1 else -((1 - length) // 4)) + 1
        if words < 0:
            raise ValueError("negative dimensions are not allowed")
        values = self.integers(0, 2 ** 32, size=words, dtype=_C.uint32, device="cpu")
        return values.numpy().astype("<u4").tobytes()[:length]

    # -- the two primitive draws --
    def _uniform01(self, shape, dtype, device):
        return _random()._draw(_C.GEN_UNIFORM, shape, dtype, device, 0.0, 1.0, self._stream)

    def _into(self, values, out, size):
        if out is None:
            return values
        if not isinstance(out, TensorBase):
            raise TypeError(f"out must be a devtensor.Tensor, got {type(out).__name__}")
        if size is not None and tuple(size) != tuple(out.shape):
            raise ValueError("size must match out.shape when used together")
        if out.dtype != values.dtype:
            raise TypeError(f"Supplied output array has the wrong type. Expected "
                            f"{values.dtype}, got {out.dtype}")
        out[...] = values
        return out

    def _floating_dtype(self, dtype, name):
        dtype = _dtype_type(dtype)
        if dtype not in (_C.float32, _C.float64):
            raise TypeError(f"Unsupported dtype dtype('{dtype}') for {name}")
        return dtype

    def random(self, size=None, dtype=_C.float64, out=None, *, device=None):
        """Uniform floats in [0, 1)."""
        if out is None and device is None and self._on is None and (dtype is _C.float64 or dtype is _C.float32):
            shape = _size_shape(size)  # the per-call path: no argument left to check
            if shape is not None:
                return _random()._draw(_C.GEN_UNIFORM, shape, dtype, None, 0.0, 1.0, self._stream)
        dtype = self._floating_dtype(dtype, "random")
        size = _shape(size)
        shape = size if size is not None else (tuple(out.shape) if out is not None else ())
        where = out.device if out is not None and device is None else device
        return self._into(self._uniform01(shape, dtype, self._device_for(where)), out, size)

    def standard_normal(self, size=None, dtype=_C.float64, out=None, *, device=None):
        """Standard normal floats."""
        if out is None and device is None and self._on is None and (dtype is _C.float64 or dtype is _C.float32):
            shape = _size_shape(size)
            if shape is not None:
                return _random()._draw(_C.GEN_NORMAL, shape, dtype, None, 0.0, 1.0, self._stream)
        dtype = self._floating_dtype(dtype, "standard_normal")
        size = _shape(size)
        shape = size if size is not None else (tuple(out.shape) if out is not None else ())
        where = out.device if out is not None and device is None else device
        values = _random()._draw(_C.GEN_NORMAL, shape, dtype, self._device_for(where), 0.0, 1.0,
                                 self._stream)
        return self._into(values, out, size)

    def uniform(self, low=0.0, high=1.0, size=None, *, device=None):
        """Uniform floats in [low, high) (low and high may be arrays)."""
        size = _shape(size)
        dev = self._device_for(device, low, high)
        if not _is_array(low) and not _is_array(high):
            if high < low:  # NumPy's Generator (its legacy functions allow it)
                raise ValueError("high - low < 0")
            if not math.isfinite(high - low):
                raise OverflowError("high - low range exceeds valid bounds")
            return _random()._draw(_C.GEN_UNIFORM, size or (), _C.float64, dev, float(low),
                                   float(high), self._stream)
        lo, hi = _float_param(low, dev), _float_param(high, dev)
        if bool((hi < lo).any()):
            raise ValueError("high - low < 0")
        shape = _result_shape(size, lo, hi)
        return lo + (hi - lo) * self._uniform01(shape, _C.float64, dev)

    def normal(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Normal floats with mean loc and standard deviation scale (arrays too)."""
        size = _shape(size)
        dev = self._device_for(device, loc, scale)
        if not _is_array(loc) and not _is_array(scale):
            if scale < 0:
                raise ValueError("scale < 0")
            return _random()._draw(_C.GEN_NORMAL, size or (), _C.float64, dev, float(loc),
                                   float(scale), self._stream)
        mu, sigma = _float_param(loc, dev), _float_param(scale, dev)
        if _any(sigma < 0):
            raise ValueError("scale < 0")
        shape = _result_shape(size, mu, sigma)
        z = _random()._draw(_C.GEN_NORMAL, shape, _C.float64, dev, 0.0, 1.0, self._stream)
        return mu + sigma * z

    def exponential(self, scale=1.0, size=None, *, device=None):
        """Exponential floats with mean scale: -scale * log(1 - U)."""
        dt = _dt()
        size = _shape(size)
        dev = self._device_for(device, scale)
        beta = _float_param(scale, dev) if _is_array(scale) else float(scale)
        if (_any(beta < 0) if isinstance(beta, TensorBase) else beta < 0):
            raise ValueError("scale < 0")
        shape = _result_shape(size, beta) if isinstance(beta, TensorBase) else (size or ())
        return -dt.log1p(-self._uniform01(shape, _C.float64, dev)) * beta

    def integers(self, low, high=None, size=None, dtype=_C.int64, endpoint=False, *, device=None):
        """Integers in [low, high) ([low, high] with endpoint; [0, low) without high) of
        any integer dtype or bool, over their whole range (Note [Integers over the whole
        range]); low and high may be arrays."""
        return self._integers(low, high, size, dtype, endpoint, device, "integers")

    def _integers(self, low, high, size, dtype, closed, device, name):
        """integers(), and the legacy randint() (name is the function's, for NumPy's messages)."""
        dt = _dt()
        size = _shape(size)
        dtype = _dtype_type(dtype)
        if dtype.kind not in "iub":
            raise TypeError(f"Unsupported dtype dtype('{dtype}') for {name}")
        if high is None:  # [0, low): NumPy words low > high for it as high <= 0
            low, high, message = 0, low, "high < 0" if closed else "high <= 0"
        else:
            message = "low > high" if closed else "low >= high"
        dev = self._device_for(device, low, high)
        shift = 0 if closed else 1
        if not _is_array(low) and not _is_array(high):
            low, high = _as_int(low), _as_int(high) - shift
            _check_int_bounds((low, low), (high, high), dtype, message)
            if low >= -2 ** 63 and high < 2 ** 63 - 1:  # the kernel's [ilow, ihigh) of int64s
                return _random()._draw(_C.GEN_RANDINT, size or (), dtype, dev, low, high + 1, self._stream)
            values = self._below(high - low + 1, size or (), dev) + low % 2 ** 64  # modulo 2^64
            return values.astype(_C.int64).astype(dtype)
        lo, lo_min, lo_max = _int_bound(low, dev)
        hi, hi_min, hi_max = _int_bound(high, dev)
        closed_high = [None if v is None else v - shift for v in (hi_min, hi_max)]
        shapes = (tuple(lo.shape), tuple(hi.shape))
        if _check_int_bounds((lo_min, lo_max), closed_high, dtype, message, shapes):
            wide = _C.uint64 if dtype is _C.uint64 else _C.int64  # holds every low and closed high now
            if _any(lo.astype(wide) > (hi - shift).astype(wide)):
                raise ValueError(message)
        shape = np.broadcast_shapes(*shapes) if size is None else size
        np.broadcast_shapes(*shapes, shape)  # NumPy's message, in its order of arguments
        span = dt.broadcast_to(hi - lo + (1 - shift), shape)  # modulo 2^64: 0 is 2^64
        return (self._below(span, shape, lo.device) + lo).astype(_C.int64).astype(dtype)

    def _below(self, span, shape, dev):
        """Uniform uint64 integers in [0, span) for span a uint64 tensor broadcast to
        shape or a Python int, 0 or 2^64 meaning the whole range: the high word of
        64 random bits times span (Lemire's multiply-shift, as the kernel's)."""
        halves = _random()._draw(_C.GEN_RANDINT, tuple(shape) + (2,), _C.uint64, dev, 0, 2 ** 32, self._stream)
        bits = halves[..., 0] * 2 ** 32 + halves[..., 1]
        if isinstance(span, int):
            span %= 2 ** 64
            return bits if span == 0 else _mulhi(bits, span)
        return _dt().where(span == 0, bits, _mulhi(bits, span))

    # -- sampling and permutations --
    def _keys(self, shape, dev):
        """Random 63-bit integers: sort keys for permutations."""
        s, offset = self._stream.take(math.prod(shape))
        t = _C._empty(shape, _C.int64, dev)
        if t.size:
            t._generate_(_C.GEN_RANDINT, 0, 2 ** 63 - 1, s, offset)
        return t

    def permutation(self, x, axis=0, *, device=None):
        """A permuted arange(x) for an int, else a shuffled copy of x along axis."""
        dt = _dt()
        n = _count(x)
        if n is not None:
            dev = self._device_for(device)
            return dt.argsort(self._keys((n,), dev))  # arange(n) taken in this order is the order itself
        a = dt.asarray(x, device=self._device_for(device, x))
        from numpy.lib.array_utils import normalize_axis_index
        axis = normalize_axis_index(axis, a.ndim)
        order = dt.argsort(self._keys((a.shape[axis],), a.device))
        return _take(a, order, axis=axis)

    def shuffle(self, x, axis=0):
        """Shuffle a tensor (or a list) in place along axis."""
        dt = _dt()
        if isinstance(x, list):
            order = dt.argsort(self._keys((len(x),), None)).tolist()
            x[:] = [x[i] for i in order]
            return
        if not isinstance(x, TensorBase):
            raise TypeError(f"shuffle() expects a devtensor.Tensor or a list, got "
                            f"{type(x).__name__}")
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        shuffled = self.permutation(x, axis=axis)
        x[...] = shuffled

    def permuted(self, x, axis=None, out=None):
        """Each slice along axis shuffled independently (axis None: all elements)."""
        dt = _dt()
        a = dt.asarray(x, device=x.device if isinstance(x, TensorBase) else self._device_for(None))
        if axis is None:
            flat = a.reshape(-1)
            result = _take(flat, dt.argsort(self._keys(flat.shape, a.device))).reshape(a.shape)
        else:
            from numpy.lib.array_utils import normalize_axis_index
            axis = normalize_axis_index(axis, a.ndim)
            order = dt.argsort(self._keys(a.shape, a.device), axis=axis)
            result = dt.take_along_axis(a, order, axis=axis)
        if out is None:
            return result
        out[...] = result
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *, device=None):
        """Samples of a (an int n means arange(n)), with or without replacement,
        uniformly or with probabilities p."""
        dt = _dt()
        size = _shape(size)
        dev = self._device_for(device, a, p)
        population = None
        n = _count(a)
        if n is None:
            population = dt.asarray(a, device=dev)
            if population.ndim == 0:
                raise ValueError(f"a must be a sequence or an integer, not {type(a)}")
            from numpy.lib.array_utils import normalize_axis_index
            axis = normalize_axis_index(axis, population.ndim)
            n = population.shape[axis]
        shape = size if size is not None else ()
        k = math.prod(shape)
        if n <= 0 and k > 0:
            raise ValueError("a must be a positive integer unless no samples are taken"
                             if population is None else
                             "a cannot be empty unless no samples are taken")
        probs = None
        if p is not None:
            probs = self._check_p(p, n, dev)
        if replace:
            if probs is None:
                idx = self.integers(0, max(n, 1), size=shape, device=dev)
            else:
                cdf = dt.cumsum(probs)
                cdf = cdf / cdf[-1]
                u = self._uniform01(shape, _C.float64, dev)
                idx = dt.minimum(dt.searchsorted(cdf, u, side="right"), n - 1)
        else:
            if k > n:
                raise ValueError("Cannot take a larger sample than population when replace "
                                 "is False")
            if probs is None and 0 < k and k * 8 <= n:
                idx = self._distinct_draws(n, k, dev)  # Note [A few from many]
            elif probs is None:
                idx = dt.argsort(self._keys((n,), dev))[:k]
            else:
                if int(dt.count_nonzero(probs)) < k:
                    raise ValueError("Fewer non-zero entries in p than size")
                e = -dt.log1p(-self._uniform01((n,), _C.float64, dev))
                with dt.errstate(divide="ignore"):
                    keys = dt.where(probs > 0, e / dt.where(probs > 0, probs, 1.0), dt.inf)
                idx = dt.argsort(keys, stable=True)[:k]
            idx = idx.reshape(shape)
        idx = idx.astype(_C.int64, copy=False)
        if population is None:
            return idx
        return _take(population, idx, axis=axis)

    def _distinct_draws(self, n, k, dev):
        """k distinct integers of [0, n) in random order.

        Note [A few from many]
        choice(n, k, replace=False) with k much smaller than n need not
        shuffle all n: the first k distinct values of independent uniform
        draws are a uniformly random ordered sample without replacement.
        k plus the expected number of repeats (k^2 / 2n) and a margin are
        drawn, the distinct ones kept in the order they first came (a sort
        of the draws); should fewer than k be distinct, a fresh, larger
        batch is drawn, which biases nothing, the repeats' pattern being
        independent of the values.  10^3 of 10^6: a sort of about 10^3
        draws where the shuffle sorted 10^6 keys."""
        dt = _dt()
        count = k + (k * k) // n + 16
        while True:
            draws = self.integers(0, n, size=(count,), device=dev)
            values, first = dt.unique(draws, return_index=True)
            if values.shape[0] >= k:
                return values[dt.argsort(first)][:k]
            count *= 2

    def _check_p(self, p, n, dev):
        dt = _dt()
        probs = _float_param(p, dev)
        if probs.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if probs.shape[0] != n:
            raise ValueError("a and p must have same size")
        host = probs.cpu().numpy()
        if np.isnan(host).any():
            raise ValueError("Probabilities contain NaN")
        if (host < 0).any():
            raise ValueError("Probabilities are not non-negative")
        if abs(math.fsum(host) - 1.0) > math.sqrt(np.finfo(np.float64).eps):
            raise ValueError("Probabilities do not sum to 1. See Notes section of docstring "
                             "for more information.")
        return dt.asarray(host, device=dev)

    # -- discrete distributions (Note [Generators and NumPy's streams]) --
    def binomial(self, n, p, size=None, *, device=None):
        """Successes in n trials of probability p (int64; n and p may be arrays)."""
        dt = _dt()
        size = _shape(size)
        dev = self._device_for(device, n, p)
        trials = _trial_counts(n, dev)
        prob = _float_param(p, dev)
        if _any(trials < 0):
            raise ValueError("n < 0")
        if _any((prob < 0) | (prob > 1) | dt.isnan(prob)):
            raise ValueError("p < 0, p > 1 or p is NaN")
        shape = _result_shape(size, trials, prob)
        trials = dt.broadcast_to(trials, shape).reshape(-1)
        prob = dt.broadcast_to(prob, shape).reshape(-1)
        return self._binomial_flat(trials, prob).astype(_C.int64).reshape(shape)

    def poisson(self, lam=1.0, size=None, *, device=None):
        """Poisson counts with mean lam (int64; lam may be an array)."""
        dt = _dt()
        size = _shape(size)
        dev = self._device_for(device, lam)
        rate = _float_param(lam, dev)
        if _any((rate < 0) | dt.isnan(rate)):
            raise ValueError("lam < 0 or lam is NaN")
        if _any(rate > _POISSON_LAM_MAX):
            raise ValueError("lam value too large")
        shape = _result_shape(size, rate)
        rate = dt.broadcast_to(rate, shape).reshape(-1)
        return self._poisson_flat(rate).astype(_C.int64).reshape(shape)

    def _binomial_flat(self, trials, prob):
        """Binomial draws (float64) for 1-D float64 trials and prob in [0, 1]."""
        dt = _dt()
        flip = prob > 0.5
        q = dt.where(flip, 1 - prob, prob)  # both methods take p <= 1/2
        x = self._by_method(trials * q >= 10, (trials, q), self._btrs, self._binomial_inversion)
        return dt.where(flip, trials - x, x)

    def _poisson_flat(self, rate):
        """Poisson draws (float64) for a 1-D float64 rate >= 0."""
        return self._by_method(rate >= 10, (rate,), self._ptrs, self._poisson_multiplication)

    def _by_method(self, large, params, method_large, method_small):
        """x[i] from method_large where large[i], else from method_small, each
        run on its elements only (1-D float64 tensors in, float64 out)."""
        dt = _dt()
        x = dt.zeros(large.shape, device=large.device)
        for mask, method in ((large, method_large), (~large, method_small)):
            where = dt.flatnonzero(mask)
            if where.shape[0]:
                x[where] = method(*(_take(p, where) for p in params))
        return x

    def _until_done(self, state, step):
        """Run step on the elements not done yet until none is left: state is a
        dict of 1-D tensors, step(state) -> (done, value, next state); returns
        each element's value when it was done, in element order."""
        dt = _dt()
        first = next(iter(state.values()))
        out = dt.zeros(first.shape, device=first.device)
        left = dt.arange(first.shape[0], device=first.device)
        while left.shape[0]:
            done, value, state = step(state)
            out[left[done]] = value[done]
            keep = ~done
            if not _any(keep):
                break
            left = left[keep]
            state = {k: v[keep] for k, v in state.items()}
        return out

    def _binomial_inversion(self, n, q):
        """Sequential search of the CDF from 0 (n * q < 10: a few steps)."""
        dt = _dt()
        qn = dt.exp(n * dt.log1p(-q))
        r = q / (1 - q)
        state = dict(u=self._uniform01(n.shape, _C.float64, n.device), x=dt.zeros_like(n),
                     px=qn, cdf=qn, n=n, r=r, g=r * (n + 1))

        def step(s):
            done = (s["u"] <= s["cdf"]) | (s["x"] >= s["n"])
            x = s["x"] + 1
            px = s["px"] * (s["g"] / x - s["r"])
            return done, s["x"], dict(s, x=x, px=px, cdf=s["cdf"] + px)
        return self._until_done(state, step)

    def _btrs(self, n, q):
        """Hormann's BTRS (n * q >= 10, q <= 1/2)."""
        dt = _dt()
        spq = dt.sqrt(n * q * (1 - q))
        b = 1.15 + 2.53 * spq
        m = dt.floor((n + 1) * q)
        state = dict(n=n, b=b, a=-0.0873 + 0.0248 * b + 0.01 * q, c=n * q + 0.5,
                     vr=0.92 - 4.2 / b, alpha=(2.83 + 5.1 / b) * spq, lpq=dt.log(q / (1 - q)),
                     m=m, h=_log_factorial(m) + _log_factorial(n - m))

        def step(s):
            u = self._uniform01(s["n"].shape, _C.float64, s["n"].device) - 0.5
            v = self._uniform01(s["n"].shape, _C.float64, s["n"].device)
            us = 0.5 - dt.absolute(u)
            k = dt.floor((2 * s["a"] / us + s["b"]) * u + s["c"])
            in_range = (k >= 0) & (k <= s["n"])
            kk = dt.where(in_range, k, 0.0)
            quick = in_range & (us >= 0.07) & (v <= s["vr"])
            with dt.errstate(divide="ignore", invalid="ignore"):
                lhs = dt.log(v * s["alpha"] / (s["a"] / (us * us) + s["b"]))
            rhs = (s["h"] - _log_factorial(kk) - _log_factorial(s["n"] - kk) +
                   (kk - s["m"]) * s["lpq"])
            return quick | (in_range & (lhs <= rhs)), k, s
        return self._until_done(state, step)

    def _poisson_multiplication(self, lam):
        """Count uniforms until their product falls to exp(-lam) (lam < 10)."""
        dt = _dt()
        state = dict(limit=dt.exp(-lam), x=dt.zeros_like(lam),
                     prod=self._uniform01(lam.shape, _C.float64, lam.device))

        def step(s):
            done = s["prod"] <= s["limit"]
            more = self._uniform01(s["x"].shape, _C.float64, s["x"].device)
            return done, s["x"], dict(s, x=s["x"] + 1, prod=s["prod"] * more)
        return self._until_done(state, step)

    def _ptrs(self, lam):
        """Hormann's PTRS (lam >= 10)."""
        dt = _dt()
        b = 0.931 + 2.53 * dt.sqrt(lam)
        state = dict(lam=lam, loglam=dt.log(lam), b=b, a=-0.059 + 0.02483 * b,
                     log_invalpha=dt.log(1.1239 + 1.1328 / (b - 3.4)),
                     vr=0.9277 - 3.6224 / (b - 2))

        def step(s):
            u = self._uniform01(s["lam"].shape, _C.float64, s["lam"].device) - 0.5
            v = self._uniform01(s["lam"].shape, _C.float64, s["lam"].device)
            us = 0.5 - dt.absolute(u)
            k = dt.floor((2 * s["a"] / us + s["b"]) * u + s["lam"] + 0.43)
            quick = (us >= 0.07) & (v <= s["vr"])
            rejected = (k < 0) | ((us < 0.013) & (v > us))
            kk = dt.maximum(k, 0.0)
            with dt.errstate(divide="ignore"):
                lhs = dt.log(v) + s["log_invalpha"] - dt.log(s["a"] / (us * us) + s["b"])
            rhs = -s["lam"] + kk * s["loglam"] - _log_factorial(kk)
            return quick | (~rejected & (lhs <= rhs)), k, s
        return self._until_done(state, step)


__all__ = ["Generator", "default_rng"]
