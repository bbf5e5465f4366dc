"""NumPy's further Generator laws, drawn from devtensor's uniform, normal and
exponential streams with devtensor's operations, so they run on every
device (how each is drawn: Note [Generators and NumPy's streams] in
_generator.py).  Distributions is a base class of Generator: its methods
use the Generator's streams and rejection loop (_uniform01, _until_done,
_binomial_flat, _poisson_flat).

Note [Multivariate hypergeometric]
NumPy has two methods for one law: 'marginals' (a hypergeometric draw per
color of the items still to draw among those left; sum(colors) below 1e9)
and 'count' (a partial shuffle of all sum(colors) items, for totals up to
2^60 - 1 if memory allows).  Here both run the marginals' method, color by
color for all samples at once (when nsample passes half the total, the
complement is drawn, as NumPy's); 'count' keeps its own limits, raising
NumPy's MemoryError beyond 2^53, where float64 counts stop being exact.
Above 1e9 items (count, and the legacy hypergeometric, which has no bound)
HRUA's log-factorial differences lose digits: its log acceptance test is
off by about 1e-16 n log n (3e-3 at 1e12 items), the reason for NumPy's
bound.
"""
import math
import operator
import warnings

import numpy as np

from . import _C
from ._C import TensorBase
from ._random_params import (
    _ABOVE_1, _AT_LEAST_1, _IN_0_1, _IN_0_1_OPEN, _NON_NEGATIVE, _POISSON_LAM_MAX, _POSITIVE, _POSITIVE_NOT_NAN, _any,
    _check, _device_of, _dt, _float_param, _log_factorial, _pvals_sum_message, _random, _result_shape, _shape,
    _take, _to_int64, _trial_counts,
)

_INT64_MAX = 2 ** 63 - 1


class Distributions:
    """Generator's methods for NumPy's further laws."""

    _on = None  # the device draws go to when a call names none (its bit generator's; None: the default)

    def _device_for(self, device, *params):
        """The device of a draw: device, else the first tensor parameter's, else
        the bit generator's (None: the thread's default device)."""
        d = _device_of(device, *params)
        return self._on if d is None else d

    def _checked(self, device, size, *specs):
        """The output shape and the parameters as float64 tensors (on device, else
        on the first tensor parameter's), after NumPy's checks in NumPy's order:
        specs are (value, name, constraint or None)."""
        dev = self._device_for(device, *(spec[0] for spec in specs))
        params = [_float_param(spec[0], dev) for spec in specs]
        scalar = all(p.ndim == 0 for p in params)  # NumPy's wording of NaN depends on it
        for p, (_, name, kind) in zip(params, specs):
            if kind is not None:
                _check(p, name, kind, scalar)
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
            y[where] = self._marsaglia_tsang(_take(dt.where(small, a + 1, a), where))
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
        values = self._exponential01(shape, self._device_for(where)).astype(dtype, copy=False)
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

    def standard_cauchy(self, size=None, *, device=None):
        """Cauchy floats by inversion: tan(pi W) for W = U - 1/2 + 2^-54, exact and in
        (-1/2, 1/2), so that tan never sees +-pi/2."""
        dt = _dt()
        u = self._uniform01(_shape(size) or (), _C.float64, self._device_for(device))
        return dt.tan(math.pi * ((u - 0.5) + 2.0 ** -54))

    def vonmises(self, mu, kappa, size=None, *, device=None):
        """Von Mises floats on [-pi, pi]: NumPy's laws by regime of kappa (uniform below
        1e-8, Best and Fisher's rejection up to 1e6, a wrapped normal above), each
        element wrapped as NumPy wraps (the normal's too)."""
        dt = _dt()
        dims, (m, k) = self._checked(device, size, (mu, "mu", None), (kappa, "kappa", _NON_NEGATIVE))
        m, k = (dt.broadcast_to(p, dims).reshape(-1) for p in (m, k))
        u = self._uniform01(k.shape, _C.float64, k.device)  # the uniform law's, or the sign of acos(W)
        z = self._normal01(k.shape, k.device)
        tiny = k < 1e-8
        with dt.errstate(divide="ignore", invalid="ignore"):
            theta = m + dt.where(k > 1e6, z / dt.sqrt(k), 0.0)
        where = dt.flatnonzero((k >= 1e-8) & (k <= 1e6))
        if where.shape[0]:
            angle = dt.arccos(self._vonmises_w(_take(k, where)))
            theta[where] = _take(m, where) + dt.where(_take(u, where) < 0.5, -angle, angle)
        wrapped = dt.fmod(dt.absolute(theta) + math.pi, 2 * math.pi) - math.pi
        theta = dt.where(tiny, math.pi * (2 * u - 1), dt.where(theta < 0, -wrapped, wrapped))
        return dt.where(dt.isnan(k), dt.nan, theta).reshape(dims)

    def _vonmises_w(self, k):
        """Best and Fisher's W = cos(angle) for a 1-D float64 kappa in [1e-8, 1e6]
        (s from a Taylor series below 1e-5, as NumPy), clipped to [-1, 1]."""
        dt = _dt()
        r = 1 + dt.sqrt(1 + 4 * k * k)
        rho = (r - dt.sqrt(2 * r)) / (2 * k)
        s = dt.where(k < 1e-5, 1 / k + k, (1 + rho * rho) / (2 * rho))

        def step(st):
            u = self._uniform01(st["k"].shape, _C.float64, st["k"].device)
            v = self._uniform01(st["k"].shape, _C.float64, st["k"].device)
            z = dt.cos(math.pi * u)
            w = (1 + st["s"] * z) / (st["s"] + z)
            y = st["k"] * (st["s"] - w)
            with dt.errstate(divide="ignore", invalid="ignore"):
                accept = (y * (2 - y) - v >= 0) | (dt.log(y / v) + 1 - y >= 0)
            return accept, w, st
        return dt.clip(self._until_done(dict(k=k, s=s), step), -1.0, 1.0)

    def zipf(self, a, size=None, *, device=None):
        """Zipf counts (int64) by NumPy's rejection: X = floor(U^(-1/(a - 1))) for U in
        (Umin, 1], kept with probability T/b / (X (T - 1) / (b - 1)), beyond int64
        rejected; 1 for a >= 1025 (P(X > 1) < 3e-309), as NumPy."""
        dt = _dt()
        dims, (s,) = self._checked(device, size, (a, "a", _ABOVE_1))
        s = dt.broadcast_to(s, dims).reshape(-1)
        x = dt.ones(s.shape, device=s.device)
        where = dt.flatnonzero(s < 1025)
        if where.shape[0]:
            am1 = _take(s, where) - 1
            state = dict(am1=am1, b=dt.power(2.0, am1), umin=dt.power(9.223372036854775807e18, -am1))

            def step(st):
                u01 = self._uniform01(st["b"].shape, _C.float64, st["b"].device)
                v = self._uniform01(st["b"].shape, _C.float64, st["b"].device)
                value = dt.floor(dt.power(u01 * st["umin"] + (1 - u01), -1 / st["am1"]))
                inside = (value >= 1) & (value <= 9.223372036854775807e18)
                value = dt.where(inside, value, 1.0)
                t = dt.power(1 + 1 / value, st["am1"])
                return inside & (v * value * (t - 1) / (st["b"] - 1) <= t / st["b"]), value, st
            x[where] = self._until_done(state, step)
        return _to_int64(x).reshape(dims)

    def logseries(self, p, size=None, *, device=None):
        """Logarithmic series counts (int64, >= 1) by Kemp's second method, NumPy's."""
        dt = _dt()
        dims, (q,) = self._checked(device, size, (p, "p", _IN_0_1_OPEN))
        q = dt.broadcast_to(q, dims).reshape(-1)

        def step(st):
            v = self._uniform01(st["p"].shape, _C.float64, st["p"].device)
            u = self._uniform01(st["p"].shape, _C.float64, st["p"].device)
            w = -dt.expm1(st["r"] * u)
            with dt.errstate(divide="ignore", invalid="ignore"):
                count = dt.floor(1 + dt.log(v) / dt.log(w))
            low = v <= w * w
            value = dt.where(v >= st["p"], 1.0, dt.where(low, count, dt.where(v >= w, 1.0, 2.0)))
            retry = (v < st["p"]) & low & ((count < 1) | (v == 0) | dt.isnan(count))
            return ~retry, value, st
        return _to_int64(self._until_done(dict(p=q, r=dt.log1p(-q)), step)).reshape(dims)

    def noncentral_chisquare(self, df, nonc, size=None, *, device=None):
        """Noncentral chi-square floats: chi2(df - 1) + (Z + sqrt(nonc))^2 for df >= 1
        (or nonc beyond the Poisson's range), else chi2(df + 2 Poisson(nonc / 2));
        NaN for a NaN nonc, as NumPy."""
        dims, (k, lam) = self._checked(device, size, (df, "df", _POSITIVE), (nonc, "nonc", _NON_NEGATIVE))
        return self._noncentral_chisquare(k, lam, dims)

    def _noncentral_chisquare(self, k, lam, dims):
        dt = _dt()
        k, lam = (dt.broadcast_to(p, dims).reshape(-1) for p in (k, lam))
        nan = dt.isnan(lam)
        lam = dt.where(nan, 0.0, lam)
        normal = (k >= 1) | (lam > 2 * _POISSON_LAM_MAX)  # there chi2(df - 1) of Poisson's mean is lost
        x = self._by_method(normal, (k, lam), self._noncentral_by_normal, self._noncentral_by_poisson)
        return dt.where(nan, dt.nan, x).reshape(dims)

    def _noncentral_by_normal(self, k, lam):
        dt = _dt()
        shift = self._normal01(k.shape, k.device) + dt.sqrt(lam)
        return 2 * self._gamma(dt.maximum(k - 1, 0.0) / 2, k.shape) + shift * shift

    def _noncentral_by_poisson(self, k, lam):
        return 2 * self._gamma(k / 2 + self._poisson_flat(lam / 2), k.shape)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, *, device=None):
        """Noncentral F floats: (X / dfnum) / (Y / dfden) of a noncentral chi-square X
        and a chi-square Y."""
        dims, (m, n, lam) = self._checked(device, size, (dfnum, "dfnum", _POSITIVE), (dfden, "dfden", _POSITIVE),
                                          (nonc, "nonc", _NON_NEGATIVE))
        x = self._noncentral_chisquare(m, lam, dims)
        return x * n / (2 * self._gamma(n / 2, dims) * m)

    def hypergeometric(self, ngood, nbad, nsample, size=None, *, device=None):
        """Good items among nsample drawn without replacement (int64): NumPy's
        methods, a draw item by item when nsample or its complement is below 10,
        else Stadlober's ratio of uniforms (HRUA); ngood and nbad below 1e9."""
        return self._hypergeometric(ngood, nbad, nsample, size, device, legacy=False)

    def _hypergeometric(self, ngood, nbad, nsample, size, device, legacy):
        """hypergeometric() with NumPy's checks in its order (legacy: the legacy
        function's, nsample >= 1 and no bound on ngood and nbad)."""
        dt = _dt()
        dev = self._device_for(device, ngood, nbad, nsample)
        good, bad, sample = (_trial_counts(v, dev) + 0.0 for v in (ngood, nbad, nsample))  # + 0.0: no -0.0
        scalar = all(p.ndim == 0 for p in (good, bad, sample))
        if not legacy and _any((good >= 1e9) | (bad >= 1e9)):
            raise ValueError("both ngood and nbad must be less than 1000000000")
        if _any(good + bad < sample):
            raise ValueError("ngood + nbad < nsample")
        for p, name in ((good, "ngood"), (bad, "nbad")):
            _check(p, name, _NON_NEGATIVE, scalar)
        _check(sample, "nsample", _AT_LEAST_1 if legacy else _NON_NEGATIVE, scalar)
        dims = _result_shape(_shape(size), good, bad, sample)
        flat = [dt.broadcast_to(p, dims).reshape(-1) for p in (good, bad, sample)]
        return self._hypergeometric_flat(*flat).astype(_C.int64).reshape(dims)

    def _hypergeometric_flat(self, good, bad, sample):
        """Hypergeometric draws (float64) for 1-D float64 whole good, bad and sample."""
        large = (sample >= 10) & (sample <= good + bad - 10)  # NumPy's choice of method
        return self._by_method(large, (good, bad, sample), self._hrua, self._hypergeometric_by_item)

    def _hypergeometric_by_item(self, good, bad, sample):
        """NumPy's item by item draw of min(nsample, total - nsample) < 10 items, in
        that many rounds over every element."""
        dt = _dt()
        total = good + bad
        flip = sample > dt.floor(total / 2)
        left = dt.where(flip, total - sample, sample)
        items, good_left = total, good
        for _ in range(int(dt.max(left))):
            active = (left > 0) & (good_left > 0) & (items > good_left)
            picked = dt.floor(self._uniform01(good.shape, _C.float64, good.device) * items) < good_left
            good_left = dt.where(active & picked, good_left - 1, good_left)
            items, left = dt.where(active, items - 1, items), dt.where(active, left - 1, left)
        good_left = dt.where(items == good_left, good_left - left, good_left)  # only good ones left
        return dt.where(flip, good_left, good - good_left)

    def _hrua(self, good, bad, sample):
        """Stadlober's HRUA (ratio of uniforms), NumPy's constants and order."""
        dt = _dt()
        total = good + bad
        n = dt.minimum(sample, total - sample)
        few, many = dt.minimum(good, bad), dt.maximum(good, bad)
        p, q = few / total, many / total
        a = n * p + 0.5
        c = dt.sqrt((total - n) * n * p * q / (total - 1) + 0.5)
        mode = dt.floor((n + 1) * (few + 1) / (total + 2))
        state = dict(a=a, h=1.7155277699214135 * c + 0.8989161620588988, g=_hrua_log_weight(mode, few, many, n),
                     b=dt.minimum(dt.minimum(n, few) + 1, dt.floor(a + 16 * c)), few=few, many=many, n=n)

        def step(st):
            u = self._uniform01(st["a"].shape, _C.float64, st["a"].device)
            v = self._uniform01(st["a"].shape, _C.float64, st["a"].device)
            with dt.errstate(divide="ignore", invalid="ignore"):
                x = st["a"] + st["h"] * (v - 0.5) / u
                inside = (x >= 0) & (x < st["b"])
                k = dt.floor(dt.where(inside, x, 0.0))
                t = st["g"] - _hrua_log_weight(k, st["few"], st["many"], st["n"])
                accept = (u * (4 - u) - 3 <= t) | (~(u * (u - t) >= 1) & (2 * dt.log(u) <= t))
            return inside & accept, k, st
        k = self._until_done(state, step)
        k = dt.where(good > bad, n - k, k)
        return dt.where(n < sample, good - k, k)

    # -- multivariate laws --
    def dirichlet(self, alpha, size=None, *, device=None):
        """Dirichlet vectors (last axis): Gamma(alpha_i) draws normalised, from their
        logs (a softmax), so that small alphas whose draws underflow still work."""
        dt = _dt()
        if not isinstance(alpha, TensorBase):
            len(alpha)  # NumPy's TypeError for a scalar
        a = _float_param(alpha, self._device_for(device, alpha))
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
        dev = self._device_for(device, mean, cov)
        mean, cov = dt.asarray(mean, device=dev), dt.asarray(cov, device=dev)
        if mean.dtype.kind == "c" or cov.dtype.kind == "c":
            raise TypeError("mean and cov must not be complex")
        shape = _shape(size) or ()
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        final_shape = shape + (mean.shape[0],)
        z = self.standard_normal(final_shape, device=mean.device).reshape(-1, mean.shape[0])
        with dt.device("cpu"):  # factored on the cpu, whatever the default device: the same numbers everywhere
            factor = self._mvn_factor(cov.cpu().astype(_C.float64), method, check_valid, tol)
        return (mean + dt.matmul(z, dt.asarray(factor.T, device=mean.device))).reshape(final_shape)

    @staticmethod
    def _mvn_factor(cov, method, check_valid, tol):
        """A with A A^T = cov (a float64 cpu tensor) by method, after NumPy's check."""
        dt = _dt()
        if method == "svd":
            u, s, vh = dt.linalg.svd(cov)
        elif method == "eigh":
            s, u = dt.linalg.eigh(cov)
        else:
            return dt.linalg.cholesky(cov)  # NumPy's LinAlgError when not positive definite
        if check_valid != "ignore":
            if check_valid not in ("warn", "raise"):
                raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
            if method == "svd":
                psd = bool(dt.allclose(dt.matmul(vh.T * s, vh), cov, rtol=tol, atol=tol))
            else:
                psd = not _any(s < -tol)
            if not psd:
                if check_valid == "raise":
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=3)
        return u * dt.sqrt(s) if method == "svd" else u * dt.sqrt(dt.absolute(s))

    def multinomial(self, n, pvals, size=None, *, device=None):
        """Counts of n trials over the categories of pvals' last axis (int64):
        category j gets Binomial(left, p_j / (1 - p_0 - ... - p_(j-1))) of the
        trials left, all samples at once; the last takes what is left."""
        dt = _dt()
        dev = self._device_for(device, n, pvals)
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
        if math.prod(batch) == 0:  # no samples: no pass per category (2**40 of them would never end)
            return dt.zeros(batch + (d,), dtype=_C.int64, device=dev)
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

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals", *, device=None):
        """Counts of each color among nsample items drawn without replacement (int64,
        shape size + (len(colors),)): the marginals' method for both of NumPy's
        methods (Note [Multivariate hypergeometric]), with each method's limits."""
        dt = _dt()
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        try:
            nsample = operator.index(nsample)
        except TypeError:
            raise ValueError("nsample must be an integer") from None
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > _INT64_MAX:
            raise ValueError(f"nsample must not exceed {_INT64_MAX}")
        dev = self._device_for(device, colors)
        counts = _color_counts(colors)
        total = sum(counts)
        if total > _INT64_MAX:
            raise ValueError(f"sum(colors) must not exceed the maximum value of a 64 bit signed integer "
                             f"({_INT64_MAX})")
        if method == "marginals" and total >= 1000000000:
            raise ValueError('When method is "marginals", sum(colors) must be less than 1000000000.')
        if method == "count" and total > 2 ** 60 - 1:
            raise ValueError(f"When method is 'count', sum(colors) must not exceed {2 ** 60 - 1}")
        if nsample > total:
            raise ValueError("nsample > sum(colors)")
        if total > 2 ** 53:  # (only count's) NumPy's allocates 8 bytes an item; our float64 counts end here
            raise MemoryError(f"Insufficient memory for multivariate_hypergeometric with method='count' and "
                              f"sum(colors)={total}")
        size = () if size is None else (size,) if np.isscalar(size) else size  # NumPy's np.zeros(...) of it
        shape = tuple(operator.index(n) for n in size) + (len(counts),)
        n = math.prod(shape[:-1])
        if not counts or n == 0 or total == 0 or nsample == 0:
            return dt.zeros(shape, dtype=_C.int64, device=dev)
        flip = nsample > total // 2  # NumPy's: draw the smaller side, then the complement
        left = dt.full((n,), float(total - nsample if flip else nsample), device=dev)
        rest, drawn = total, []
        for count in counts[:-1]:
            rest -= count
            good, bad = dt.full((n,), float(count), device=dev), dt.full((n,), float(rest), device=dev)
            drawn.append(self._hypergeometric_flat(good, bad, left))
            left = left - drawn[-1]
        drawn.append(left)
        x = dt.stack(drawn, axis=-1).astype(_C.int64)
        if flip:
            x = dt.asarray(counts, dtype=_C.int64, device=dev) - x
        return x.reshape(shape)


def _hrua_log_weight(k, few, many, n):
    """log of HRUA's unnormalised weight of k: log k! (few - k)! (n - k)! (many - n + k)!."""
    return _log_factorial(k) + _log_factorial(few - k) + _log_factorial(n - k) + _log_factorial(many - n + k)


def _color_counts(colors):
    """multivariate_hypergeometric's colors as Python ints, after NumPy's check."""
    message = (f"colors must be a one-dimensional sequence of nonnegative integers not exceeding "
               f"{_INT64_MAX}.")
    try:
        a = colors.numpy(force=True) if isinstance(colors, TensorBase) else np.asarray(colors)
    except ValueError:
        raise ValueError(message) from None
    if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
        raise ValueError(message)
    try:
        counts = [operator.index(v) for v in a]
    except TypeError:
        raise ValueError(message) from None
    if any(v < 0 or v > _INT64_MAX for v in counts):
        raise ValueError(message)
    return counts
