"""NumPy's window functions bartlett, blackman, hamming, hanning and kaiser,
and the Bessel function i0 that kaiser needs, on every device.

The windows are NumPy's formulas over n = 1 - M, 3 - M, ..., M - 1 (kaiser
over 0 .. M - 1) in float64, so their values agree with NumPy's to the
rounding of cos; device= places them (NumPy's have no device).

Note [i0 by Chebyshev series]
i0 is NumPy's (Cephes') approximation: exp(x) times a Chebyshev series in
x / 2 - 2 for |x| <= 8, and exp(x) / sqrt(x) times one in 32 / x - 2 above,
each summed by Clenshaw's recurrence in x's dtype (floats keep theirs,
integers and bool become float64, complex is NumPy's TypeError).  The
coefficients are Cephes' published ones.  Each step is one elementwise
call on the whole operand, both series are evaluated everywhere and the
right one chosen per element.
"""
import math

from ._C import TensorBase

# Cephes' Chebyshev coefficients of exp(-x) i0(x) on [0, 8] ...
_I0_SMALL = (
    -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15,
    -1.1685332877993451e-14, 7.676185498604936e-14, -4.856446783111929e-13, 2.95505266312964e-12,
    -1.726826291441556e-11, 9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07, 1.1173875391201037e-06,
    -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
    -0.0005763755745385824, 0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
    -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
    -0.3046826723431984, 0.6767952744094761,
)
# ... and of exp(-x) sqrt(x) i0(x) on (8, inf)
_I0_LARGE = (
    -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17, 3.461222867697461e-17,
    -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
    -9.554846698828307e-15, -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
    7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
    1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-09, 2.266668990498178e-08,
    2.0489185894690638e-07, 2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
    0.8044904110141088,
)


def _dt():
    import devtensor
    return devtensor


def _chebyshev(t, coefficients):
    """Clenshaw's sum of the series at t, in t's dtype."""
    b0, b1, b2 = coefficients[0], 0.0, 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = t * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x):
    """The modified Bessel function of the first kind, order 0 (NumPy's i0:
    Note [i0 by Chebyshev series])."""
    dt = _dt()
    x = x if isinstance(x, TensorBase) else dt.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(dt.float64)
    x = dt.abs(x)
    small = x <= 8.0
    with_small = dt.exp(x) * _chebyshev(x / 2.0 - 2, _I0_SMALL)
    safe = dt.where(small, 8.0, x)  # the large series only where it is used: no 32 / 0
    with_large = dt.exp(safe) * _chebyshev(32.0 / safe - 2.0, _I0_LARGE) / dt.sqrt(safe)
    return dt.where(small, with_small, with_large)


def _symmetric_window(M, device, values):
    """NumPy's window of M points (M taken as a float, through
    np.array([0.0, M])): empty for M < 1, [1.0] for M == 1, else
    values(n, M) at n = 1 - M, 3 - M, ..., M - 1 in float64 on device."""
    dt = _dt()
    M = float(M)
    if M < 1:
        return dt.zeros((0,), dtype=dt.float64, device=device)
    if M == 1:
        return dt.ones((1,), dtype=dt.float64, device=device)
    return values(dt.arange(1 - M, M, 2, dtype=dt.float64, device=device), M)


def bartlett(M, *, device=None):
    """The Bartlett (triangular) window of M points, NumPy's."""
    return _symmetric_window(M, device, lambda n, M: _dt().where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1)))


def blackman(M, *, device=None):
    """The Blackman window of M points, NumPy's."""
    cos = _dt().cos
    return _symmetric_window(M, device, lambda n, M: 0.42 + 0.5 * cos(math.pi * n / (M - 1))
                             + 0.08 * cos(2.0 * math.pi * n / (M - 1)))


def hamming(M, *, device=None):
    """The Hamming window of M points, NumPy's."""
    return _symmetric_window(M, device, lambda n, M: 0.54 + 0.46 * _dt().cos(math.pi * n / (M - 1)))


def hanning(M, *, device=None):
    """The Hann window of M points, NumPy's."""
    return _symmetric_window(M, device, lambda n, M: 0.5 + 0.5 * _dt().cos(math.pi * n / (M - 1)))


def kaiser(M, beta, *, device=None):
    """The Kaiser window of M points and shape beta, NumPy's:
    i0(beta sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta)."""
    dt = _dt()
    M, beta = float(M), float(beta)
    if M == 1:
        return dt.ones((1,), dtype=dt.float64, device=device)
    n = dt.arange(0, M, dtype=dt.float64, device=device)
    alpha = (M - 1) / 2.0
    return i0(beta * dt.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(dt.asarray(beta, device=device))


__all__ = ["i0", "bartlett", "blackman", "hamming", "hanning", "kaiser"]
