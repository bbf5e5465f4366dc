"""NumPy's further Generator laws, drawn from devtensor's uniform, normal and
exponential streams with devtensor's operations, so they run on every
device (how each is drawn: Note [Generators and NumPy's streams] in
_generator.py).  Distributions is a base class of Generator: its methods
use the Generator's streams and rejection loop (_uniform01, _until_done,
_binomial_flat, _poisson_flat).
"""
import math
import warnings

import numpy as np

from . import _C
from ._C import TensorBase
from ._random_params import (
    _IN_0_1, _NON_NEGATIVE, _POISSON_LAM_MAX, _POSITIVE, _POSITIVE_NOT_NAN, _any, _check, _device_of, _dt, _float_param,
    _pvals_sum_message, _random, _result_shape, _shape, _to_int64, _trial_counts,
)


class Distributions:
    """Generator's methods for NumPy's further laws."""

    def _checked(self, device, size, *specs):
        """The output shape and the parameters as float64 tensors (on device, else
        on the first tensor parameter's), after NumPy's checks in NumPy's order:
        specs are (value, name, constraint or None)."""
        dev = _device_of(device, *(spec[0] for spec in specs))
        params = []
        for value, name, kind in specs:
            p = _float_param(value, dev)
            if kind is not None:
                _check(p, name, kind)
            params.append(p)
        return _result_shape(_shape(size), *params), params

    def _normal01(self, shape, device):
        return _random()._draw(_C.GEN_NORMAL, shape, _C.float64, device, 0.0, 1.0, self._stream)

    def _exponential01(self, shape, device):
        """Standard exponential floats: -log(1 - U), finite, 0 when U = 0."""
        return -_dt().log1p(-self._uniform01(shape, _C.float64, device))

    def _open_logs(self, shape, device):
        """(log V, log(1 - V)) for V uniform on the midpoints (k + 1/2) 2^-53 of
        [0, 1): both finite.  t = min(V, 1 - V) is exact (U + 2^-54 below 1/2,
        (1 - U) - 2^-54 above), so neither log sees a rounded 0 or 1."""
        dt = _dt()
        u = self._uniform01(shape, _C.float64, device)
        low = u < 0.5
        t = dt.where(low, u + 2.0 ** -54, (1 - u) - 2.0 ** -54)
        log_t, log_1mt = dt.log(t), dt.log1p(-t)
        return dt.where(low, log_t, log_1mt), dt.where(low, log_1mt, log_t)

    def _gamma_parts(self, a):
        """A Gamma(a) draw as y * exp(boost) for a 1-D float64 a >= 0 (or NaN):
        y ~ Gamma(a) by Marsaglia-Tsang where a >= 1; below, y ~ Gamma(a + 1)
        and boost = log(U) / a (Gamma(a) = Gamma(a + 1) U^(1/a)), kept as a log
        so that beta and dirichlet can use tiny draws that underflow."""
        dt = _dt()
        small = a < 1
        u = self._uniform01(a.shape, _C.float64, a.device)
        with dt.errstate(divide="ignore", invalid="ignore"):
            boost = dt.where(small, dt.where(a > 0, dt.log1p(-u) / a, -dt.inf), 0.0)
        regular = dt.isfinite(a) & (a > 0)
        y = dt.where(regular, 0.0, dt.where(a == 0, 1.0, a))  # Gamma(0) = 0; NaN and inf stay
        where = dt.flatnonzero(regular)
        if where.shape[0]:
            y[where] = self._marsaglia_tsang(dt.take(dt.where(small, a + 1, a), where))
        return y, boost

    def _marsaglia_tsang(self, a):
        """Marsaglia and Tsang's Gamma(a) for a 1-D float64 a >= 1: d v with
        v = (1 + c z)^3, accepted by the squeeze or the log test."""
        dt = _dt()
        d = a - 1.0 / 3

        def step(s):
            z = self._normal01(s["d"].shape, s["d"].device)
            u = self._uniform01(s["d"].shape, _C.float64, s["d"].device)
            v = 1 + s["c"] * z
            positive = v > 0
            v = dt.where(positive, v * v * v, 1.0)
            z2 = z * z
            with dt.errstate(divide="ignore"):
                fits = (u < 1 - 0.0331 * z2 * z2) | (dt.log(u) < 0.5 * z2 + s["d"] * (1 - v + dt.log(v)))
            return positive & fits, s["d"] * v, s
        return self._until_done(dict(d=d, c=1 / dt.sqrt(9 * d)), step)

    def _gamma(self, a, shape, log=False):
        """Gamma(a) draws (or their logs) of shape, a broadcast to it."""
        dt = _dt()
        y, boost = self._gamma_parts(dt.broadcast_to(a, shape).reshape(-1))
        with dt.errstate(divide="ignore"):
            x = dt.log(y) + boost if log else y * dt.exp(boost)
        return x.reshape(shape)

    def standard_exponential(self, size=None, dtype=_C.float64, method="zig", out=None, *, device=None):
        """Standard exponential floats: -log(1 - U) (both of NumPy's methods draw this law)."""
        dtype = self._floating_dtype(dtype, "standard_exponential")
        size = _shape(size)
        shape = size if size is not None else (tuple(out.shape) if out is not None else ())
        where = out.device if out is not None and device is None else device
        values = self._exponential01(shape, _device_of(where)).astype(dtype, copy=False)
        return self._into(values, out, size)

    def standard_gamma(self, shape, size=None, dtype=_C.float64, out=None, *, device=None):
        """Gamma floats of scale 1 (shape may be an array)."""
        dtype = self._floating_dtype(dtype, "standard_gamma")
        dims = size if size is not None or out is None else tuple(out.shape)
        where = out.device if out is not None and device is None else device
        dims, (a,) = self._checked(where, dims, (shape, "shape", _NON_NEGATIVE))
        return self._into(self._gamma(a, dims).astype(dtype, copy=False), out, _shape(size))

    def gamma(self, shape, scale=1.0, size=None, *, device=None):
        """Gamma floats of the shape and scale (arrays too)."""
        dims, (a, theta) = self._checked(device, size, (shape, "shape", _NON_NEGATIVE),
                                         (scale, "scale", _NON_NEGATIVE))
        return self._gamma(a, dims) * theta

    def beta(self, a, b, size=None, *, device=None):
        """Beta floats: X / (X + Y) of X ~ Gamma(a), Y ~ Gamma(b), from their logs."""
        dt = _dt()
        dims, (a, b) = self._checked(device, size, (a, "a", _POSITIVE), (b, "b", _POSITIVE))
        d = self._gamma(a, dims, log=True) - self._gamma(b, dims, log=True)
        e = dt.exp(-dt.absolute(d))
        return dt.where(d >= 0, 1 / (1 + e), e / (1 + e))

    def chisquare(self, df, size=None, *, device=None):
        """Chi-square floats with df degrees of freedom: 2 Gamma(df / 2)."""
        dims, (k,) = self._checked(device, size, (df, "df", _POSITIVE))
        return 2 * self._gamma(k / 2, dims)

    def f(self, dfnum, dfden, size=None, *, device=None):
        """F floats: (X / dfnum) / (Y / dfden) of chi-squares X and Y."""
        dt = _dt()
        dims, (m, n) = self._checked(device, size, (dfnum, "dfnum", _POSITIVE), (dfden, "dfden", _POSITIVE))
        log_ratio = self._gamma(m / 2, dims, log=True) - self._gamma(n / 2, dims, log=True)
        return dt.exp(log_ratio) * (n / m)

    def standard_t(self, df, size=None, *, device=None):
        """Student's t floats: Z / sqrt(X / df) of a chi-square X."""
        dt = _dt()
        dims, (k,) = self._checked(device, size, (df, "df", _POSITIVE))
        log_g = self._gamma(k / 2, dims, log=True)
        return self._normal01(dims, k.device) * dt.exp(0.5 * (dt.log(k / 2) - log_g))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, *, device=None):
        """exp of normal floats with that mean and sigma."""
        dims, (mu, s) = self._checked(device, size, (mean, "mean", None), (sigma, "sigma", _NON_NEGATIVE))
        return _dt().exp(mu + s * self._normal01(dims, mu.device))

    def laplace(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Laplace floats: loc + scale log(2V) below V = 1/2, loc - scale log(2 - 2V) above."""
        dt = _dt()
        dims, (mu, s) = self._checked(device, size, (loc, "loc", None), (scale, "scale", _NON_NEGATIVE))
        log_v, log_1mv = self._open_logs(dims, mu.device)
        return mu + s * dt.where(log_v < log_1mv, math.log(2) + log_v, -(math.log(2) + log_1mv))

    def logistic(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Logistic floats: loc + scale log(V / (1 - V))."""
        dims, (mu, s) = self._checked(device, size, (loc, "loc", None), (scale, "scale", _NON_NEGATIVE))
        log_v, log_1mv = self._open_logs(dims, mu.device)
        return mu + s * (log_v - log_1mv)

    def gumbel(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Gumbel floats: loc - scale log(-log V)."""
        dims, (mu, s) = self._checked(device, size, (loc, "loc", None), (scale, "scale", _NON_NEGATIVE))
        log_v, _ = self._open_logs(dims, mu.device)
        return mu - s * _dt().log(-log_v)

    def weibull(self, a, size=None, *, device=None):
        """Weibull floats of shape a and scale 1: E^(1/a) (0 for a = 0, as NumPy)."""
        dt = _dt()
        dims, (k,) = self._checked(device, size, (a, "a", _NON_NEGATIVE))
        e = self._exponential01(dims, k.device)
        with dt.errstate(all="ignore"):
            return dt.where(k == 0, 0.0, dt.power(e, 1 / k))

    def pareto(self, a, size=None, *, device=None):
        """Pareto II (Lomax) floats, NumPy's law: exp(E / a) - 1."""
        dims, (k,) = self._checked(device, size, (a, "a", _POSITIVE))
        return _dt().expm1(self._exponential01(dims, k.device) / k)

    def power(self, a, size=None, *, device=None):
        """Floats in [0, 1] of CDF x^a: (1 - U)^(1/a)."""
        dt = _dt()
        dims, (k,) = self._checked(device, size, (a, "a", _POSITIVE))
        return dt.exp(dt.log1p(-self._uniform01(dims, _C.float64, k.device)) / k)

    def rayleigh(self, scale=1.0, size=None, *, device=None):
        """Rayleigh floats: scale sqrt(2E)."""
        dims, (s,) = self._checked(device, size, (scale, "scale", _NON_NEGATIVE))
        return s * _dt().sqrt(2 * self._exponential01(dims, s.device))

    def wald(self, mean, scale, size=None, *, device=None):
        """Inverse Gaussian floats by Michael, Schucany and Haas: the smaller root
        x of a chi-square(1) equation, kept with probability mean / (mean + x),
        else mean^2 / x (x in a form without cancellation)."""
        dt = _dt()
        dims, (mu, lam) = self._checked(device, size, (mean, "mean", _POSITIVE), (scale, "scale", _POSITIVE))
        z = self._normal01(dims, mu.device)
        u = self._uniform01(dims, _C.float64, mu.device)
        y = mu * z * z
        root = dt.sqrt(y + 4 * lam) + dt.sqrt(y)
        x = 4 * mu * lam / (root * root)  # = mu + mu / (2 lam) (y - sqrt(4 lam y + y^2))
        return dt.where(u <= mu / (mu + x), x, mu * mu / x)

    def triangular(self, left, mode, right, size=None, *, device=None):
        """Triangular floats by inversion of the CDF."""
        dt = _dt()
        dims, (lo, c, hi) = self._checked(device, size, (left, "left", None), (mode, "mode", None),
                                          (right, "right", None))
        for bad, message in ((lo > c, "left > mode"), (c > hi, "mode > right"), (lo == hi, "left == right")):
            if _any(bad):
                raise ValueError(message)
        base, left_base = hi - lo, c - lo
        u = self._uniform01(dims, _C.float64, lo.device)
        return dt.where(u <= left_base / base, lo + dt.sqrt(u * left_base * base),
                        hi - dt.sqrt((1 - u) * (hi - c) * base))

    def geometric(self, p, size=None, *, device=None):
        """Trials up to the first success (int64, >= 1): ceil(E / -log(1 - p)) with
        E > 0, NumPy's inversion; int64's maximum beyond it, as NumPy."""
        dt = _dt()
        dims, (q,) = self._checked(device, size, (p, "p", _IN_0_1))
        log_v, _ = self._open_logs(dims, q.device)
        with dt.errstate(divide="ignore"):
            k = dt.maximum(dt.ceil(log_v / dt.log1p(-q)), 1.0)
        return _to_int64(k)

    def negative_binomial(self, n, p, size=None, *, device=None):
        """Failures before the n-th success (int64; n may be fractional): a Poisson
        of mean Gamma(n) (1 - p) / p."""
        dt = _dt()
        dims, (r, q) = self._checked(device, size, (n, "n", _POSITIVE_NOT_NAN), (p, "p", _IN_0_1))
        if _any((1 - q) / q * (r + 10 * dt.sqrt(r)) > _POISSON_LAM_MAX):
            raise ValueError("n too large or p too small, see Generator.negative_binomial Notes")
        rate = dt.where(q < 1, self._gamma(r, dims) * ((1 - q) / q), 0.0)  # n = inf, p = 1 too
        return self._poisson_flat(rate.reshape(-1)).astype(_C.int64).reshape(dims)

    # -- multivariate laws --
    def dirichlet(self, alpha, size=None, *, device=None):
        """Dirichlet vectors (last axis): Gamma(alpha_i) draws normalised, from their
        logs (a softmax), so that small alphas whose draws underflow still work."""
        dt = _dt()
        if not isinstance(alpha, TensorBase):
            len(alpha)  # NumPy's TypeError for a scalar
        a = _float_param(alpha, _device_of(device, alpha))
        if a.ndim != 1:
            raise ValueError("object too deep for desired array")
        if _any(a < 0):
            raise ValueError("alpha < 0")
        size = _shape(size)
        dims = (size if size is not None else ()) + tuple(a.shape)
        log_g = self._gamma(a, dims, log=True)
        if log_g.size == 0:
            return log_g
        top = dt.max(log_g, axis=-1, keepdims=True)
        e = dt.exp(log_g - dt.where(top == -dt.inf, 0.0, top))
        total = dt.sum(e, axis=-1, keepdims=True)
        with dt.errstate(invalid="ignore"):
            return dt.where(total == 0, 0.0, e / total)  # every alpha 0: zeros, as NumPy

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd",
                            device=None):
        """Normal vectors mean + A z with A A^T = cov, NumPy's checks: A from an
        SVD, eigh or Cholesky factorisation of cov by devtensor.linalg on the cpu
        (the signs of singular vectors differ between LAPACK and cuSOLVER)."""
        dt = _dt()
        if method not in {"eigh", "svd", "cholesky"}:
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        dev = _device_of(device, mean, cov)
        mean, cov = dt.asarray(mean, device=dev), dt.asarray(cov, device=dev)
        if mean.dtype.kind == "c" or cov.dtype.kind == "c":
            raise TypeError("mean and cov must not be complex")
        shape = [] if size is None else [size] if isinstance(size, (int, np.integer)) else size
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        final_shape = tuple(list(shape[:]) + [mean.shape[0]])
        z = self.standard_normal(final_shape, device=dev).reshape(-1, mean.shape[0])
        cov = cov.cpu().astype(_C.float64)  # factored on the cpu: the same numbers on every device
        if method == "svd":
            u, s, vh = dt.linalg.svd(cov)
        elif method == "eigh":
            s, u = dt.linalg.eigh(cov)
        else:
            factor = dt.linalg.cholesky(cov)  # NumPy's LinAlgError when not positive definite
        if check_valid != "ignore" and method != "cholesky":
            if check_valid not in ("warn", "raise"):
                raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
            if method == "svd":
                psd = bool(dt.allclose(dt.matmul(vh.T * s, vh), cov, rtol=tol, atol=tol))
            else:
                psd = not _any(s < -tol)
            if not psd:
                if check_valid == "raise":
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                              stacklevel=2)
        if method == "svd":
            factor = u * dt.sqrt(s)
        elif method == "eigh":
            factor = u * dt.sqrt(dt.absolute(s))
        return (mean + dt.matmul(z, dt.asarray(factor.T, device=dev))).reshape(final_shape)

    def multinomial(self, n, pvals, size=None, *, device=None):
        """Counts of n trials over the categories of pvals' last axis (int64):
        category j gets Binomial(left, p_j / (1 - p_0 - ... - p_(j-1))) of the
        trials left, all samples at once; the last takes what is left."""
        dt = _dt()
        dev = _device_of(device, n, pvals)
        trials = _trial_counts(n, dev)
        p = _float_param(pvals, dev)
        d = p.shape[-1] if p.ndim else 0
        if d == 0:
            raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals "
                             "must be greater than 0.")
        if _any(~((p >= 0) & (p <= 1))):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if _any(dt.sum(p[..., :-1], axis=-1) > 1.0 + 1e-12):
            raise ValueError(_pvals_sum_message(pvals, p.ndim))
        batch = self._multinomial_batch(trials, p, size)
        if _any(trials < 0):
            raise ValueError("n < 0")
        left = dt.broadcast_to(trials, batch).reshape(-1)
        p = dt.broadcast_to(p, batch + (d,)).reshape(-1, d)
        mass_left = dt.ones(left.shape, device=dev)
        counts = []
        for j in range(d - 1):
            with dt.errstate(all="ignore"):
                q = dt.where(mass_left > 0, dt.clip(p[:, j] / mass_left, 0.0, 1.0), 0.0)
            counts.append(self._binomial_flat(left, q))
            left = left - counts[-1]
            mass_left = mass_left - p[:, j]
        counts.append(left)
        return dt.stack(counts, axis=-1).astype(_C.int64).reshape(batch + (d,))

    @staticmethod
    def _multinomial_batch(trials, p, size):
        """The samples' shape: NumPy's rules for n and pvals' leading axes and size."""
        if trials.ndim == 0 and p.ndim == 1:
            return _shape(size) or ()
        batch = np.broadcast_shapes(tuple(trials.shape), tuple(p.shape[:-1]))
        if size is None:
            return batch
        size = _shape(size)
        joint = np.broadcast_shapes(tuple(trials.shape), tuple(p.shape[:-1]), size)
        if joint != size:
            raise ValueError(f"Output size {size} is not compatible with broadcast dimensions of "
                             f"inputs {joint}.")
        return size
