"""devtensor.random beyond tests/test_generator.py: the laws NumPy's Generator
has besides (standard_cauchy, vonmises, zipf, logseries, noncentral_chisquare,
noncentral_f, hypergeometric, multivariate_hypergeometric) against their
exact laws, integers() over every dtype's whole range, bytes, spawn,
bit_generator, NumPy's seeds, the default device as a context, and the
legacy module's functions; NumPy's errors throughout (fixed seeds)."""
import math
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, CUDA_DEVICES, same_error, to_np
from test_generator import (
    beta_cdf, chi_square_ok, gamma_cdf, ks_ok, normal_cdf, rng, same_numbers_on_every_device, sample_count,
)


def chi_square_tail_ok(samples, pmf, support):
    """chi_square_ok for laws with long tails: the samples beyond support are
    one more bin (of the mass the support leaves), not an error."""
    x = np.asarray(samples).ravel()
    n = x.size
    counts = np.bincount(x[(x >= support.start) & (x < support.stop)] - support.start,
                         minlength=len(support)).astype(float)
    expected = np.array([pmf(k) for k in support]) * n
    keep = expected >= 20
    obs = np.append(counts[keep], n - counts[keep].sum())
    exp = np.append(expected[keep], n - expected[keep].sum())
    if exp[-1] < 20:
        obs, exp = obs[:-1], exp[:-1]
    stat = float(((obs - exp) ** 2 / exp).sum())
    df = len(obs) - 1
    assert stat < df + 8 * math.sqrt(2 * df) + 20, (stat, df)


# ---- the laws' exact CDFs and PMFs ----
def vonmises_cdf(mu, kappa):
    """x -> the von Mises CDF on [-pi, pi] by the trapezoid rule on 400001 points."""
    t = np.linspace(-np.pi, np.pi, 400001)
    density = np.exp(kappa * (np.cos(t - mu) - 1))
    cdf = np.concatenate([[0.0], np.cumsum((density[1:] + density[:-1]) / 2)])
    cdf /= cdf[-1]
    return lambda x: float(np.interp(x, t, cdf))


def wrapped_normal_cdf(mu, sigma):
    def cdf(x):
        return sum(normal_cdf((x - mu + 2 * math.pi * j) / sigma) -
                   normal_cdf((-math.pi - mu + 2 * math.pi * j) / sigma) for j in (-1, 0, 1))
    return cdf


def poisson_weights(mean):
    """(j, P(Poisson(mean) = j)) over all j of weight above 1e-17."""
    if mean == 0:
        return [(0, 1.0)]
    top = int(mean + 12 * math.sqrt(mean) + 40)
    pairs = [(j, math.exp(-mean + j * math.log(mean) - math.lgamma(j + 1))) for j in range(top)]
    return [(j, w) for j, w in pairs if w > 1e-17]


def noncentral_chisquare_cdf(k, lam):
    weights = poisson_weights(lam / 2)
    return lambda x: sum(w * gamma_cdf(k / 2 + j, x / 2) for j, w in weights) if x > 0 else 0.0


def noncentral_f_cdf(m, n, lam):
    weights = poisson_weights(lam / 2)
    return lambda x: sum(w * beta_cdf(m / 2 + j, n / 2, m * x / (m * x + n)) for j, w in weights) if x > 0 else 0.0


def zeta(a):
    """Riemann's zeta for a > 1: 1000 terms and Euler-Maclaurin's tail (error < 1e-14)."""
    n = 1000
    return (math.fsum(k ** -a for k in range(1, n)) + n ** (1 - a) / (a - 1) + n ** -a / 2 + a * n ** (-a - 1) / 12
            - a * (a + 1) * (a + 2) * n ** (-a - 3) / 720)


def hypergeometric_pmf(good, bad, n):
    def log_comb(a, b):
        return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)
    total = log_comb(good + bad, n)

    def pmf(k):
        if not max(0, n - bad) <= k <= min(n, good):
            return 0.0
        return math.exp(log_comb(good, k) + log_comb(bad, n - k) - total)
    return pmf


def hypergeometric_support(good, bad, n):
    mean = n * good / (good + bad)
    sd = math.sqrt(max(mean * (bad / (good + bad)) * (good + bad - n) / max(good + bad - 1, 1), 0.0))
    return range(max(0, n - bad, int(mean - 10 * sd) - 2), min(n, good, int(mean + 10 * sd) + 2) + 1)


# ---- continuous laws: Kolmogorov-Smirnov ----
CONTINUOUS = [
    ("standard_cauchy", lambda g, n, d: g.standard_cauchy(n, device=d), lambda x: 0.5 + math.atan(x) / math.pi),
    ("vonmises_1_2", lambda g, n, d: g.vonmises(1.0, 2.0, n, device=d), vonmises_cdf(1.0, 2.0)),
    ("vonmises_small", lambda g, n, d: g.vonmises(-2.5, 0.3, n, device=d), vonmises_cdf(-2.5, 0.3)),
    ("vonmises_taylor", lambda g, n, d: g.vonmises(3.0, 5e-6, n, device=d), vonmises_cdf(3.0, 5e-6)),
    ("vonmises_uniform", lambda g, n, d: g.vonmises(0.5, 1e-9, n, device=d), lambda x: (x + math.pi) / (2 * math.pi)),
    ("vonmises_wrapped_mu", lambda g, n, d: g.vonmises(10.0, 50.0, n, device=d), vonmises_cdf(10.0, 50.0)),
    ("vonmises_1e5", lambda g, n, d: g.vonmises(0.2, 1e5, n, device=d), vonmises_cdf(0.2, 1e5)),
    ("vonmises_normal_regime", lambda g, n, d: g.vonmises(math.pi - 1e-4, 1e7, n, device=d),
     wrapped_normal_cdf(math.pi - 1e-4, 1e7 ** -0.5)),
    ("noncentral_chisquare_3_5", lambda g, n, d: g.noncentral_chisquare(3.0, 5.0, n, device=d),
     noncentral_chisquare_cdf(3.0, 5.0)),
    ("noncentral_chisquare_0.5_2", lambda g, n, d: g.noncentral_chisquare(0.5, 2.0, n, device=d),
     noncentral_chisquare_cdf(0.5, 2.0)),
    ("noncentral_chisquare_1_0.7", lambda g, n, d: g.noncentral_chisquare(1.0, 0.7, n, device=d),
     noncentral_chisquare_cdf(1.0, 0.7)),
    ("noncentral_chisquare_4_0", lambda g, n, d: g.noncentral_chisquare(4.0, 0.0, n, device=d),
     noncentral_chisquare_cdf(4.0, 0.0)),
    ("noncentral_f_5_20_3", lambda g, n, d: g.noncentral_f(5.0, 20.0, 3.0, n, device=d),
     noncentral_f_cdf(5.0, 20.0, 3.0)),
    ("noncentral_f_0.7_3_6", lambda g, n, d: g.noncentral_f(0.7, 3.0, 6.0, n, device=d),
     noncentral_f_cdf(0.7, 3.0, 6.0)),
]


@pytest.mark.parametrize("name,draw,cdf", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_law(device, name, draw, cdf):
    x = draw(rng(len(name)), 200000 if device == "cpu" else 10000, device)  # KS finds a 3% scale error
    assert x.device == dt.device(device) and x.dtype == dt.float64 and x.shape == (x.shape[0],)
    ks_ok(to_np(x), cdf)


def test_vonmises_stays_on_the_circle(device):
    g = rng(30)
    mu = dt.asarray([[0.0], [3.1], [-20.0], [np.nan]], device=device)
    x = to_np(g.vonmises(mu, [1e-9, 1e-3, 4.0, 1e8], size=(4, 4)))
    assert np.isnan(x[3, 1:]).all() and not np.isnan(x[:3]).any() and np.abs(x[:3]).max() <= math.pi
    assert abs(x[3, 0]) <= math.pi  # below kappa 1e-8 NumPy's law is uniform, whatever mu
    assert np.isnan(to_np(g.vonmises(0.0, np.nan, 3, device=device))).all()  # NumPy's NaN too
    assert np.abs(to_np(g.vonmises(1.0, np.inf, 3, device=device)) - 1.0).max() < 1e-15  # NumPy: mu itself


def test_noncentral_edges(device):
    g = rng(31)
    assert np.isnan(to_np(g.noncentral_chisquare(1.0, [np.nan, 1.0], device=device)))[0]
    assert np.isnan(to_np(g.noncentral_chisquare(np.nan, 1.0, 2, device=device))).all()
    assert np.isinf(to_np(g.noncentral_chisquare([0.5, 3.0], np.inf, device=device))).all()
    assert np.isnan(to_np(g.noncentral_f(1.0, 2.0, np.nan, 2, device=device))).all()
    huge = to_np(g.noncentral_chisquare(0.5, 1e20, 1000, device=device))  # beyond the Poisson's range
    assert abs(huge.mean() / 1e20 - 1) < 1e-8


# ---- discrete laws: chi-square ----
@pytest.mark.parametrize("a", [1.5, 2.0, 3.5, 30.0])
def test_zipf_law(device, a):
    x = to_np(rng(int(10 * a)).zipf(a, sample_count(device), device=device))
    assert x.dtype == np.int64 and x.min() >= 1
    chi_square_tail_ok(x, lambda k: k ** -a / zeta(a), range(1, 400))


def test_zipf_edges(device):
    g = rng(32)
    assert to_np(g.zipf([1025.0, 5000.0, np.inf], device=device)).tolist() == [1, 1, 1]  # NumPy's 1
    near_one = to_np(g.zipf(1.0 + 1e-3, 2000, device=device))  # truncated at int64's maximum, as NumPy
    assert near_one.min() >= 1 and near_one.max() <= 2 ** 63 - 1 and (near_one > 2 ** 40).any()


def logseries_pmf(p):
    return lambda k: -p ** k / (k * math.log1p(-p))


@pytest.mark.parametrize("p", [0.0, 0.3, 0.9, 0.999])
def test_logseries_law(device, p):
    x = to_np(rng(int(1000 * p)).logseries(p, sample_count(device), device=device))
    assert x.dtype == np.int64 and x.min() >= 1
    if p == 0:
        assert (x == 1).all()
    else:
        chi_square_tail_ok(x, logseries_pmf(p), range(1, 2000))


HYPERGEOMETRIC = [(5, 20, 5), (20, 15, 30), (7, 3, 9), (100, 300, 50), (500, 400, 600), (40, 10, 25),
                  (10 ** 6, 2 * 10 ** 6, 1000), (3, 0, 2), (0, 5, 3), (4, 6, 0), (12, 12, 12)]


@pytest.mark.parametrize("good,bad,n", HYPERGEOMETRIC, ids=[str(c) for c in HYPERGEOMETRIC])
def test_hypergeometric_law(device, good, bad, n):
    x = to_np(rng(good + n).hypergeometric(good, bad, n, sample_count(device), device=device))
    assert x.dtype == np.int64 and x.min() >= max(0, n - bad) and x.max() <= min(n, good)
    support = hypergeometric_support(good, bad, n)
    if len(support) == 1:
        assert (x == support[0]).all()
    else:
        chi_square_ok(x, hypergeometric_pmf(good, bad, n), support)


def test_hypergeometric_array_parameters_keep_their_elements(device):
    g = rng(33)
    n = sample_count(device) // 4
    good = dt.asarray([5, 500, 30], device=device)
    x = to_np(g.hypergeometric(good, [20, 400, 30], [[5], [20]], size=(n, 2, 3)))
    assert x.shape == (n, 2, 3)
    for i, sample in enumerate((5, 20)):  # the item by item method and HRUA side by side
        for j, (gd, bd) in enumerate([(5, 20), (500, 400), (30, 30)]):
            chi_square_ok(x[:, i, j], hypergeometric_pmf(gd, bd, sample), hypergeometric_support(gd, bd, sample))


def multivariate_hypergeometric_pmf(colors, n):
    total = math.comb(sum(colors), n)

    def pmf(code):
        a, b = divmod(code, n + 1)
        c = n - a - b
        if c < 0 or a > colors[0] or b > colors[1] or c > colors[2]:
            return 0.0
        return math.comb(colors[0], a) * math.comb(colors[1], b) * math.comb(colors[2], c) / total
    return pmf


@pytest.mark.parametrize("method", ["marginals", "count"])
@pytest.mark.parametrize("n", [6, 9])  # 9 > 12 // 2: NumPy's complement
def test_multivariate_hypergeometric_law(device, method, n):
    colors = [3, 4, 5]
    samples = sample_count(device) // 2
    x = rng(n).multivariate_hypergeometric(colors, n, samples, method=method, device=device)
    assert x.dtype == dt.int64 and x.shape == (samples, 3) and x.device == dt.device(device)
    h = to_np(x)
    assert (h.sum(axis=-1) == n).all() and (h <= colors).all() and (h >= 0).all()
    chi_square_ok(h[:, 0] * (n + 1) + h[:, 1], multivariate_hypergeometric_pmf(colors, n), range((n + 1) ** 2))


def test_multivariate_hypergeometric_marginals(device):
    colors = [10, 200, 30, 0, 760]
    x = to_np(rng(34).multivariate_hypergeometric(dt.asarray(colors, device=device), 300, (sample_count(device) // 4,)))
    assert (x.sum(axis=-1) == 300).all() and (x[:, 3] == 0).all()
    for i, c in enumerate(colors):  # each color's count is hypergeometric, the last one's too
        if c:
            chi_square_ok(x[:, i], hypergeometric_pmf(c, 1000 - c, 300), hypergeometric_support(c, 1000 - c, 300))


def test_multivariate_hypergeometric_shapes(device):
    g = rng(35)
    assert g.multivariate_hypergeometric([3, 4], 2, device=device).shape == (2,)
    assert g.multivariate_hypergeometric([3, 4], 2, (2, 3), device=device).shape == (2, 3, 2)
    assert g.multivariate_hypergeometric([], 0, 2, device=device).shape == (2, 0)
    assert g.multivariate_hypergeometric([3, 4], 2, 0, device=device).shape == (0, 2)
    assert to_np(g.multivariate_hypergeometric([3, 4], 0, 2, device=device)).tolist() == [[0, 0], [0, 0]]
    assert to_np(g.multivariate_hypergeometric([3, 4], 7, 2, device=device)).tolist() == [[3, 4], [3, 4]]
    big = to_np(g.multivariate_hypergeometric([2 * 10 ** 9, 10 ** 9], 10 ** 9, 4, method="count", device=device))
    assert (big.sum(axis=-1) == 10 ** 9).all() and np.abs(big[:, 0] - 2 * 10 ** 9 / 3).max() < 10 ** 5


# ---- integers over every dtype's whole range (Note [Integers over the whole range]) ----
INT_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def uniform_buckets_ok(values, low, high):
    """Python ints values uniform on [low, high]: the top 4 and the low 4 bits of
    value - low each uniform over 16 buckets (chi-square)."""
    span = high - low + 1
    offsets = [v - low for v in values]
    assert min(offsets) >= 0 and max(offsets) < span
    for buckets in ([o * 16 // span for o in offsets], [o % 16 for o in offsets]):
        chi_square_ok(np.array(buckets), lambda k: 1 / 16, range(16))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integers_whole_range(device, dtype):
    info = np.iinfo(dtype)
    g = rng(len(dtype))
    n = sample_count(device) // 2
    closed = g.integers(int(info.min), int(info.max), n, dtype=dtype, endpoint=True, device=device)
    opened = g.integers(int(info.min), int(info.max) + 1, n, dtype=dtype, device=device)
    for x in (closed, opened):
        assert x.dtype == dt.dtype(dtype) and x.shape == (n,) and x.device == dt.device(device)
        uniform_buckets_ok(to_np(x).tolist(), int(info.min), int(info.max))


@pytest.mark.parametrize("low,high,dtype", [
    (2 ** 64 - 5, 2 ** 64, "uint64"), (2 ** 63 - 3, 2 ** 63, "int64"), (-2 ** 63, -2 ** 63 + 3, "int64"),
    (2 ** 63 - 2, 2 ** 63 + 2, "uint64"), (250, 256, "uint8"), (-128, -125, "int8"), (0, 2, "bool"),
])
def test_integers_at_the_limits(device, low, high, dtype):
    x = to_np(rng(3).integers(low, high, 4000, dtype=dtype, device=device))
    assert x.dtype == np.dtype(dtype)
    chi_square_ok(np.array([int(v) - low for v in x.tolist()]), lambda k: 1 / (high - low), range(high - low))


def test_integers_array_bounds(device):
    g = rng(36)
    n = sample_count(device) // 2
    low = dt.asarray([-2 ** 63, 0, -3], device=device)
    x = g.integers(low, [2 ** 63 - 1, 10, 3], size=(n, 3), endpoint=True)
    assert x.dtype == dt.int64 and x.device == dt.device(device)
    h = to_np(x)
    uniform_buckets_ok(h[:, 0].tolist(), -2 ** 63, 2 ** 63 - 1)
    chi_square_ok(h[:, 1], lambda k: 1 / 11, range(11))
    chi_square_ok(h[:, 2] + 3, lambda k: 1 / 7, range(7))
    u = to_np(g.integers([0, 2 ** 64 - 3], [2 ** 64, 2 ** 64], size=(n, 2), dtype=np.uint64, device=device))
    uniform_buckets_ok(u[:, 0].tolist(), 0, 2 ** 64 - 1)
    chi_square_ok(u[:, 1] - np.uint64(2 ** 64 - 3), lambda k: 1 / 3, range(3))
    big = to_np(g.integers(np.array([0, 2 ** 40]), np.array([2 ** 62, 2 ** 60]), size=(n, 2), device=device))
    uniform_buckets_ok(big[:, 0].tolist(), 0, 2 ** 62 - 1)  # beyond the 2^53 the float path had
    b = to_np(g.integers([0, 1], 2, size=(n, 2), dtype=bool, device=device))
    assert b[:, 1].all() and 0.45 < b[:, 0].mean() < 0.55
    u8 = g.integers(dt.asarray([250], dtype=dt.uint8, device=device), dt.asarray([256], device=device), size=n,
                    dtype=np.uint8)
    chi_square_ok(to_np(u8) - 250, lambda k: 1 / 6, range(6))


INTEGER_CASES = [
    (0, 2 ** 64, "uint64", False), (0, 2 ** 64 - 1, "uint64", True), (-2 ** 63, 2 ** 63, "int64", False),
    (-2 ** 63, 2 ** 63 - 1, "int64", True), (-1, 5, "uint8", False), (0, 257, "uint8", False), (0, 256, "uint8", False),
    (0, 256, "uint8", True), (0, 255, "uint8", True), (5, 5, "int64", True), (5, 4, "int64", True),
    (5, 5, "int64", False), (0, 2, "bool", False), (0, 1, "bool", True), (0, 3, "bool", False), (-1, 1, "bool", False),
    (0, 2, "float64", False), (0, 2, "complex128", False), (-129, 0, "int8", False), (-128, 128, "int8", False),
    (2 ** 63, 2 ** 64, "uint64", False), (2 ** 64 - 1, 2 ** 64, "uint64", False), (0, 2 ** 65, "uint64", False),
    (-2 ** 64, 0, "int64", False), (300, 200, "uint8", False), (5, 3, "uint8", True), (0.5, 3.7, "int64", False),
    (-32769, 0, "int16", False), (0, 65536, "uint16", True), (0, 2 ** 31 + 1, "int32", False),
    (-2 ** 31, 2 ** 31, "int32", False), (0, 2 ** 32, "uint32", False), (0, 2 ** 32, "uint32", True),
    ([0, 1], [300, 5], "uint8", False), ([-1, 1], [3, 5], "uint8", False), ([3, 1], [3, 5], "int64", False),
    ([3, 1], [2, 5], "int64", True), ([0, 0], [2 ** 64, 5], "uint64", False), ([0, 0], [2 ** 63, 5], "int64", False),
    ([0, 0], [2 ** 63 + 2048, 5], "int64", False), ([0, 0], [2, 1], "bool", False), ([0, 0], [2, 5], "float32", False),
    ([0, 0], [2 ** 64 - 1, 2 ** 64 - 1], "uint64", True), ([0, 0], [2 ** 64, 1], "uint64", True),
    ([[5], [1]], [3, 6], "int64", False), ([], [], "int64", False), ([0, 1], [], "int64", False),
    (np.array([-5]), np.array([5], dtype=np.uint64), "int64", False), (-5, np.uint64(5), "int64", False),
    (True, 5, "int64", False), (0, np.int8(5), "int64", False), (np.array(3), 10, "int16", False),
    ([0.5, 1.5], [3.2, 4.9], "int64", False), (5, None, "uint8", False), (0, None, "int64", False),
    (-3, None, "int64", True), (256, None, "uint8", True),
]


@pytest.mark.parametrize("low,high,dtype,endpoint", INTEGER_CASES, ids=range(len(INTEGER_CASES)))
def test_integers_bounds_are_numpys(low, high, dtype, endpoint):
    """NumPy's errors, or NumPy's dtype and shape and values within NumPy's range."""
    def call(g):
        return g.integers(low, high, size=(300, 2) if np.ndim(low) or np.ndim(high) else 300, dtype=dtype,
                          endpoint=endpoint)
    try:
        want = call(np.random.default_rng(0))
    except Exception:
        same_error(lambda: call(np.random.default_rng(0)), lambda: call(rng(0)))
        return
    got = to_np(call(rng(0)))
    assert got.dtype == want.dtype and got.shape == want.shape
    lo, hi = (0, low) if high is None else (low, high)
    whole = np.vectorize(int, otypes=[object])  # Python ints; NumPy truncates float bounds
    lo = whole(np.broadcast_to(np.array(lo, dtype=object), got.shape))
    hi = whole(np.broadcast_to(np.array(hi, dtype=object), got.shape)) - (0 if endpoint else 1)
    values = np.array(got.tolist(), dtype=object)
    assert (values >= lo).all() and (values <= hi).all()


def test_integers_legacy_names_and_seed_errors():
    same_error(lambda: np.random.randint(0, 2, dtype=float), lambda: dt.random.randint(0, 2, dtype=float))
    same_error(lambda: np.random.randint(5, 5), lambda: dt.random.randint(5, 5))
    same_error(lambda: np.random.randint(-1, 5, dtype=np.uint64), lambda: dt.random.randint(-1, 5, dtype=np.uint64))
    for f in (dt.random.randint, dt.random.RandomState(1).randint):
        x = to_np(f(0, 2 ** 64, 4000, dtype=np.uint64))
        assert x.dtype == np.uint64 and (x >= 2 ** 63).mean() > 0.45
        y = to_np(f(-2 ** 63, 2 ** 63, 4000, dtype=np.int64))
        assert (y < 0).mean() > 0.45
        assert to_np(f(0, 2, 100, dtype=bool)).dtype == np.bool_


# ---- reproducibility ----
LAWS = [
    ("standard_cauchy", lambda g, d: g.standard_cauchy(20, device=d)),
    ("vonmises", lambda g, d: g.vonmises([0.5, 4.0, -1.0, 2.0], [1e-9, 2.0, 5e-6, 1e7], (5, 4), device=d)),
    ("zipf", lambda g, d: g.zipf([1.5, 3.0], (10, 2), device=d)),
    ("logseries", lambda g, d: g.logseries([0.3, 0.99], (10, 2), device=d)),
    ("noncentral_chisquare", lambda g, d: g.noncentral_chisquare([0.5, 3.0], 2.0, (10, 2), device=d)),
    ("noncentral_f", lambda g, d: g.noncentral_f(3.0, [0.5, 7.0], 2.0, (10, 2), device=d)),
    ("hypergeometric", lambda g, d: g.hypergeometric([5, 500], [20, 400], [5, 600], (10, 2), device=d)),
    ("multivariate_hypergeometric", lambda g, d: g.multivariate_hypergeometric([10, 200, 30], 100, 8, device=d)),
    ("multivariate_hypergeometric_count",
     lambda g, d: g.multivariate_hypergeometric([10, 20, 30], 40, 8, method="count", device=d)),
    ("integers_uint64", lambda g, d: g.integers(0, 2 ** 64, 20, dtype=np.uint64, device=d)),
    ("integers_int64_closed", lambda g, d: g.integers(-2 ** 63, 2 ** 63 - 1, 20, endpoint=True, device=d)),
    ("integers_arrays", lambda g, d: g.integers([0, -5], [2 ** 62, 5], (10, 2), device=d)),
    ("integers_bool", lambda g, d: g.integers(0, 2, 20, dtype=bool, device=d)),
    ("spawn", lambda g, d: g.spawn(2)[1].standard_normal(20, device=d)),
]


@pytest.mark.parametrize("name,draw", LAWS, ids=[d[0] for d in LAWS])
def test_same_numbers_on_every_device(name, draw):
    continuous = name in ("standard_cauchy", "vonmises", "noncentral_chisquare", "noncentral_f", "spawn")
    same_numbers_on_every_device(draw, rtol=1e-12 if continuous else 0.0)


def test_bytes_like_numpys():
    g = rng(37)
    for length in (0, 1, 3, 4, 5, 17, 2.5, -1, -2, -4, -5):
        b, want = g.bytes(length), np.random.default_rng(0).bytes(length)
        assert type(b) is bytes and len(b) == len(want), length
    many = np.frombuffer(rng(38).bytes(64000), dtype=np.uint8)
    chi_square_ok(many, lambda k: 1 / 256, range(256))
    first = rng(39).bytes(40)
    assert rng(39).bytes(40) == first != rng(40).bytes(40) and rng(39).bytes(37) == first[:37]
    with dt.device(ALL_DEVICES[-1]):
        assert rng(39).bytes(40) == first  # host bytes, the same under any default device


# ---- spawn, bit_generator, NumPy's seeds ----
def test_spawn_and_bit_generator():
    g = rng(41)
    kids = g.spawn(3)
    assert len(kids) == 3 and all(isinstance(k, dt.random.Generator) for k in kids)
    draws = [to_np(k.random(8)) for k in kids] + [to_np(g.random(8))]
    assert len({d.tobytes() for d in draws}) == 4
    again = rng(41).spawn(3)
    np.testing.assert_array_equal(to_np(again[1].random(8)), draws[1])  # deterministic
    later = g.spawn(1)[0]  # NumPy's: each spawn gives new children
    assert not any(np.array_equal(to_np(later.random(8)), d) for d in draws)
    bitgen = g.bit_generator
    assert isinstance(bitgen, dt.random.Philox) and bitgen.seed_seq.entropy == 41
    assert len(g.spawn(1.5)) == 1 and bitgen.seed_seq.n_children_spawned == 5  # NumPy's SeedSequence.spawn
    state = bitgen.state
    first = to_np(g.random(5))
    bitgen.state = state  # replays
    np.testing.assert_array_equal(to_np(g.random(5)), first)
    shared = dt.random.default_rng(bitgen)  # the same stream, as NumPy's Generators share a bit generator
    a, b = to_np(shared.random(3)), to_np(g.random(3))
    bitgen.state = state
    np.testing.assert_array_equal(to_np(g.random(11))[5:], np.concatenate([a, b]))
    with pytest.raises(ValueError, match="devtensor.Philox"):
        bitgen.state = np.random.PCG64(0).state
    with pytest.raises(TypeError, match="SeedSequence expects int or sequence of ints"):
        dt.random.Philox(object())


@pytest.mark.parametrize("make", [
    lambda: np.random.default_rng(5), lambda: np.random.PCG64(5), lambda: np.random.MT19937(5),
    lambda: np.random.SFC64(5), lambda: np.random.Philox(5), lambda: np.random.PCG64DXSM(5),
    lambda: np.random.RandomState(5),
], ids=["Generator", "PCG64", "MT19937", "SFC64", "Philox", "PCG64DXSM", "RandomState"])
def test_numpy_generators_seed_default_rng(make):
    """NumPy's default_rng takes them all (Note [NumPy's generators as seeds])."""
    source = make()
    np.random.default_rng(source)
    state = (source.get_state(legacy=False) if isinstance(source, np.random.RandomState) else
             (source.bit_generator if isinstance(source, np.random.Generator) else source).state)
    a = to_np(dt.random.default_rng(source).random(6))
    np.testing.assert_array_equal(to_np(dt.random.default_rng(source).random(6)), a)  # deterministic
    now = source.get_state(legacy=False) if isinstance(source, np.random.RandomState) else \
        (source.bit_generator if isinstance(source, np.random.Generator) else source).state
    assert str(now) == str(state)  # read, not advanced
    np.testing.assert_array_equal(to_np(dt.random.default_rng(make()).random(6)), a)  # the same state, the same stream
    source.random() if not isinstance(source, np.random.BitGenerator) else source.random_raw()
    assert not np.array_equal(to_np(dt.random.default_rng(source).random(6)), a)  # another state, another stream
    assert not np.array_equal(to_np(dt.random.default_rng(5).random(6)), a)


def test_numpys_classes_in_devtensor_random():
    for name in ("SeedSequence", "BitGenerator", "PCG64", "PCG64DXSM", "MT19937", "SFC64"):
        assert getattr(dt.random, name) is getattr(np.random, name)
    np.testing.assert_array_equal(to_np(dt.random.default_rng(dt.random.SeedSequence(9)).random(3)),
                                  to_np(rng(9).random(3)))
    assert isinstance(dt.random.default_rng(dt.random.PCG64(1)), dt.random.Generator)
    same_error(lambda: np.random.default_rng("seed"), lambda: dt.random.default_rng("seed"))
    same_error(lambda: np.random.default_rng(-1), lambda: dt.random.default_rng(-1))


def test_every_numpy_name_is_here():
    """NumPy's Generator methods, and its random module's names but the ones
    about its own legacy machinery (mtrand, test, the bit_generator module, and
    get/set_bit_generator of the global RandomState)."""
    public = {n for n in dir(np.random.Generator) if not n.startswith("_")}
    assert public <= set(dir(dt.random.Generator)), public - set(dir(dt.random.Generator))
    module = {n for n in dir(np.random) if not n.startswith("_")} - {
        "mtrand", "test", "bit_generator", "get_bit_generator", "set_bit_generator"}
    assert module <= set(dir(dt.random)), module - set(dir(dt.random))


# ---- the default device as a context, and tensor parameters' device ----
CALLS = [
    ("random", lambda g, t: g.random(3)), ("standard_normal", lambda g, t: g.standard_normal(3)),
    ("standard_exponential", lambda g, t: g.standard_exponential(3)),
    ("standard_cauchy", lambda g, t: g.standard_cauchy(3)), ("permutation_int", lambda g, t: g.permutation(5)),
    ("choice_int", lambda g, t: g.choice(5, 3)), ("choice_nr", lambda g, t: g.choice(5, 3, replace=False)),
    ("uniform", lambda g, t: g.uniform(t([0.0, 1.0]), 2.0)), ("normal", lambda g, t: g.normal(t([0.0, 1.0]), 1.0)),
    ("exponential", lambda g, t: g.exponential(t([1.0, 2.0]))), ("integers", lambda g, t: g.integers(t([0, 1]), 5)),
    ("integers_wide", lambda g, t: g.integers(t([0, 1]), 2 ** 64, dtype=np.uint64)),
    ("permutation", lambda g, t: g.permutation(t([1, 2, 3]))), ("permuted", lambda g, t: g.permuted(t([1, 2, 3]))),
    ("choice", lambda g, t: g.choice(t([1, 2, 3]), 3)),
    ("choice_p", lambda g, t: g.choice(3, 3, p=t([0.2, 0.3, 0.5]))),
    ("choice_nr_p", lambda g, t: g.choice(3, 2, replace=False, p=t([0.2, 0.3, 0.5]))),
    ("binomial", lambda g, t: g.binomial(t([5, 50]), 0.5)), ("poisson", lambda g, t: g.poisson(t([3.0, 30.0]))),
    ("standard_gamma", lambda g, t: g.standard_gamma(t([0.5, 2.0]))), ("gamma", lambda g, t: g.gamma(t([2.0]), 1.0)),
    ("beta", lambda g, t: g.beta(t([1.0]), 2.0)), ("chisquare", lambda g, t: g.chisquare(t([2.0]))),
    ("f", lambda g, t: g.f(t([2.0]), 3.0)), ("standard_t", lambda g, t: g.standard_t(t([3.0]))),
    ("lognormal", lambda g, t: g.lognormal(t([0.0]))), ("laplace", lambda g, t: g.laplace(t([0.0]))),
    ("logistic", lambda g, t: g.logistic(t([0.0]))), ("gumbel", lambda g, t: g.gumbel(t([0.0]))),
    ("weibull", lambda g, t: g.weibull(t([2.0]))), ("pareto", lambda g, t: g.pareto(t([2.0]))),
    ("power", lambda g, t: g.power(t([2.0]))), ("rayleigh", lambda g, t: g.rayleigh(t([1.0]))),
    ("wald", lambda g, t: g.wald(t([1.0]), 1.0)), ("triangular", lambda g, t: g.triangular(t([0.0]), 1.0, 2.0)),
    ("geometric", lambda g, t: g.geometric(t([0.3]))),
    ("negative_binomial", lambda g, t: g.negative_binomial(t([2.0]), 0.5)),
    ("dirichlet", lambda g, t: g.dirichlet(t([1.0, 2.0]), 3)),
    ("multivariate_normal", lambda g, t: g.multivariate_normal(t([0.0, 0.0]), [[1.0, 0.0], [0.0, 1.0]], 3)),
    ("multivariate_normal_cov", lambda g, t: g.multivariate_normal([0.0, 0.0], t([[1.0, 0.0], [0.0, 1.0]]), 3)),
    ("multivariate_normal_eigh", lambda g, t: g.multivariate_normal(t([0.0, 0.0]), np.eye(2), method="eigh")),
    ("multivariate_normal_cholesky", lambda g, t: g.multivariate_normal(t([0.0, 0.0]), np.eye(2), method="cholesky")),
    ("multinomial", lambda g, t: g.multinomial(t([5, 6]), [0.5, 0.5])),
    ("multinomial_p", lambda g, t: g.multinomial(5, t([0.5, 0.5]), 3)),
    ("vonmises", lambda g, t: g.vonmises(t([0.0, 1.0]), [1e-9, 2.0])), ("zipf", lambda g, t: g.zipf(t([2.0]))),
    ("logseries", lambda g, t: g.logseries(t([0.5]))),
    ("noncentral_chisquare", lambda g, t: g.noncentral_chisquare(t([0.5, 3.0]), 1.0)),
    ("noncentral_f", lambda g, t: g.noncentral_f(t([3.0]), 2.0, 1.0)),
    ("hypergeometric", lambda g, t: g.hypergeometric(t([5, 500]), [5, 400], [3, 600])),
    ("multivariate_hypergeometric", lambda g, t: g.multivariate_hypergeometric(t([3, 4]), 2, 3)),
    ("legacy_multivariate_normal", lambda g, t: dt.random.multivariate_normal(t([0.0, 0.0]), np.eye(2))),
    ("legacy_hypergeometric", lambda g, t: dt.random.hypergeometric(t([5]), 5, 3)),
    ("legacy_randint", lambda g, t: dt.random.randint(t([0]), 2 ** 64, dtype=np.uint64)),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_default_device_context_and_tensor_parameters(name, call):
    """Without device=, the default device (a context) holds the result; a tensor
    parameter's device beats it."""
    devices = ALL_DEVICES
    context, other = devices[-1], devices[0]
    g = rng(42)
    with dt.device(context):
        assert call(g, lambda x: x).device == dt.device(context)
        if name in ("random", "standard_normal", "standard_exponential", "standard_cauchy", "permutation_int",
                    "choice_int", "choice_nr"):
            return
        assert call(g, lambda x: dt.asarray(x, device=other)).device == dt.device(other)
    if len(devices) > 2:
        with dt.device(devices[1]):
            assert call(g, lambda x: dt.asarray(x, device=context)).device == dt.device(context)


def test_shuffle_under_a_device_context():
    with dt.device(ALL_DEVICES[-1]):
        x = dt.arange(10, device=ALL_DEVICES[0])
        rng(43).shuffle(x)
        assert x.device == dt.device(ALL_DEVICES[0]) and sorted(to_np(x).tolist()) == list(range(10))
        items = list(range(6))
        rng(43).shuffle(items)
        assert sorted(items) == list(range(6))


# ---- NumPy's errors ----
ERRORS = [
    lambda g: g.zipf(1), lambda g: g.zipf(np.nan), lambda g: g.zipf([2, 0.5]), lambda g: g.zipf([2, np.nan]),
    lambda g: g.zipf(0.5, size=3), lambda g: g.zipf([2, 3], size=3),
    lambda g: g.logseries(1), lambda g: g.logseries(-0.1), lambda g: g.logseries(np.nan),
    lambda g: g.logseries([0.5, 1]),
    lambda g: g.vonmises(0, -1), lambda g: g.vonmises(0, [1, -1]), lambda g: g.vonmises([0, 1], [1, 2], size=3),
    lambda g: g.noncentral_chisquare(0, 1), lambda g: g.noncentral_chisquare(1, -1),
    lambda g: g.noncentral_chisquare([1, 0], 1), lambda g: g.noncentral_chisquare(1, [1, -0.0]),
    lambda g: g.noncentral_f(0, 1, 1), lambda g: g.noncentral_f(1, 0, 1), lambda g: g.noncentral_f(1, 1, -1),
    lambda g: g.noncentral_f(1, [1, -1], 1),
    lambda g: g.hypergeometric(-1, 5, 2), lambda g: g.hypergeometric(1, -5, 2), lambda g: g.hypergeometric(1, 5, -2),
    lambda g: g.hypergeometric(1, 5, 10), lambda g: g.hypergeometric(-1, 5, 10),
    lambda g: g.hypergeometric(10 ** 9, 5, 10),
    lambda g: g.hypergeometric(5, 10 ** 9, 10), lambda g: g.hypergeometric([3, 4], [5, -1], 2),
    lambda g: g.hypergeometric([3, 4], [5, 1], 6), lambda g: g.hypergeometric([3, 10 ** 9], [5, 1], 6),
    lambda g: g.hypergeometric([3, 4], [5, 1], [-1, 2]), lambda g: g.hypergeometric(np.nan, 5, 2),
    lambda g: g.hypergeometric(3, np.inf, 2), lambda g: g.hypergeometric([3, 4], 5, 2, size=3),
    lambda g: g.multivariate_hypergeometric([3, 4], 2, method="x"),
    lambda g: g.multivariate_hypergeometric([3, 4], 2.0), lambda g: g.multivariate_hypergeometric([3, 4], -1),
    lambda g: g.multivariate_hypergeometric([3, 4], 8), lambda g: g.multivariate_hypergeometric([[3, 4]], 2),
    lambda g: g.multivariate_hypergeometric([3.0, 4], 2), lambda g: g.multivariate_hypergeometric([3, -4], 2),
    lambda g: g.multivariate_hypergeometric([2 ** 63, 4], 2),
    lambda g: g.multivariate_hypergeometric([2 ** 62, 2 ** 62], 2),
    lambda g: g.multivariate_hypergeometric([10 ** 9, 4], 2),
    lambda g: g.multivariate_hypergeometric([2 ** 62, 4], 2, method="count"),
    lambda g: g.multivariate_hypergeometric([2 ** 53, 4], 2, method="count"),
    lambda g: g.multivariate_hypergeometric([3, 4], 2 ** 64), lambda g: g.multivariate_hypergeometric(3, 2),
    lambda g: g.multivariate_hypergeometric(["a"], 2), lambda g: g.multivariate_hypergeometric([], 1),
    lambda g: g.multivariate_hypergeometric([True, False], 1), lambda g: g.multivariate_hypergeometric([3, 4], 1, 2.0),
    lambda g: g.spawn(-1), lambda g: g.bytes("3"), lambda g: g.bytes(-10),
    lambda g: g.integers([0, 1], [], size=(300, 2)), lambda g: g.integers([], [0, 1]),
    lambda g: g.integers([0, 1], [5, 6, 7]), lambda g: g.integers([0, 1], 5, size=3),
    lambda g: g.hypergeometric([np.nan, 3], 5, 2), lambda g: g.hypergeometric(3, [5, np.inf], 2),
]


@pytest.mark.parametrize("call", ERRORS, ids=range(len(ERRORS)))
def test_errors_are_numpys(call):
    same_error(lambda: call(np.random.default_rng(0)), lambda: call(rng(0)))


def test_numpys_accepted_corners():
    g = rng(44)
    for call in (lambda r: r.hypergeometric(3.5, 5, 2, 3), lambda r: r.hypergeometric([3.5, 4], [5, 1], 2),
                 lambda r: r.hypergeometric(3, 5, 0, 3), lambda r: r.multivariate_hypergeometric([3, 4], np.int8(2)),
                 lambda r: r.multivariate_hypergeometric(np.array([3, 4], np.uint64), 1),
                 lambda r: r.multivariate_hypergeometric([3, 4], True), lambda r: r.logseries(0, 3),
                 lambda r: r.zipf(2000, 3), lambda r: r.standard_cauchy(), lambda r: r.vonmises(0, 1)):
        want, got = np.asarray(call(np.random.default_rng(0))), to_np(call(g))
        assert got.dtype == want.dtype and got.shape == want.shape


# ---- the legacy module's functions ----
LEGACY = {"standard_cauchy": (), "vonmises": (1.0, 2.0), "zipf": (2.0,), "logseries": (0.5,),
          "noncentral_chisquare": (2.0, 1.0), "noncentral_f": (2.0, 3.0, 1.0), "hypergeometric": (10, 20, 5)}


def test_legacy_functions_follow_seed(device):
    def draw_all():
        dt.random.seed(45)
        return [to_np(getattr(dt.random, name)(*args, size=3, device=device)) for name, args in LEGACY.items()] + \
            [np.frombuffer(dt.random.bytes(7), np.uint8), to_np(dt.random.randint(0, 2 ** 64, 3, dtype=np.uint64,
                                                                               device=device))]
    first, again = draw_all(), draw_all()
    for name, a, b in zip(list(LEGACY) + ["bytes", "randint"], first, again):
        assert hasattr(np.random, name) and len(a) in (3, 7), name
        np.testing.assert_array_equal(a, b)
    assert dt.random.ranf is dt.random.random and dt.random.sample is dt.random.random


LEGACY_ERRORS = [
    lambda r: r.hypergeometric(3, 5, 0), lambda r: r.hypergeometric(3, 5, [1, 0]), lambda r: r.hypergeometric(-1, 5, 2),
    lambda r: r.hypergeometric(1, 5, 10), lambda r: r.zipf(1), lambda r: r.logseries([0.5, 1]),
    lambda r: r.vonmises(0, -1), lambda r: r.noncentral_chisquare(0, 1), lambda r: r.noncentral_f(1, 1, -1),
    lambda r: r.randint(-1, 5, dtype="uint8"), lambda r: r.randint(0), lambda r: r.randint([0, 3]),
    lambda r: r.randint(0, 2 ** 65, dtype="uint64"), lambda r: r.randint(0, 2, dtype="float32"),
]


@pytest.mark.parametrize("call", LEGACY_ERRORS, ids=range(len(LEGACY_ERRORS)))
def test_legacy_errors_are_numpys(call):
    same_error(lambda: call(np.random), lambda: call(dt.random))


def test_legacy_hypergeometric_has_no_bound():
    x = to_np(dt.random.hypergeometric(2 * 10 ** 9, 10 ** 9, 3 * 10 ** 8, 2000))
    assert abs(x.mean() / (2 * 10 ** 8) - 1) < 1e-3


def test_random_integers_is_numpys_deprecated_function():
    for args in ((5,), (3, 7)):
        with pytest.warns(DeprecationWarning) as got:
            x = to_np(dt.random.random_integers(*args, size=4000))
        with warnings.catch_warnings(record=True) as want:
            warnings.simplefilter("always")
            np.random.random_integers(*args)
        assert str(got[0].message) == str(want[0].message)
        low, high = (1, args[0]) if len(args) == 1 else args
        assert x.min() == low and x.max() == high  # both ends, every value
        chi_square_ok(x - low, lambda k: 1 / (high - low + 1), range(high - low + 1))


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs CUDA devices (real or emulated)")
def test_bit_generator_draws_on_every_device():
    """One Philox's stream serves every device: the counters advance across them."""
    g = rng(46)
    first = to_np(g.random(4, device=CUDA_DEVICES[0]))
    second = to_np(g.random(4, device="cpu"))
    np.testing.assert_array_equal(np.concatenate([first, second]), to_np(rng(46).random(8)))


def test_zero_d_integer_tensors_are_sizes():
    """NumPy takes a 0-d integer array as a size (rng.random(np.asarray(3)))."""
    rng = dt.random.default_rng(0)
    assert rng.random(dt.asarray(3)).shape == (3,) and rng.normal(size=dt.asarray(2)).shape == (2,)
    assert dt.random.random(dt.asarray(4)).shape == (4,)
    with pytest.raises(TypeError):
        rng.random(dt.asarray(2.5))


def test_a_few_from_many_without_replacement(device):
    """Note [A few from many]: choice(n, k, replace=False) with k * 8 <= n
    keeps the first k distinct of uniform draws: the ordered pairs of 2 of
    16 are uniform (chi-square over the 240 of them, on the CPU: 6000 calls),
    and 10^3 of 10^6 are distinct and the same numbers on every device."""
    if device == "cpu":
        g = dt.random.default_rng(11)
        draws = np.array([g.choice(16, 2, replace=False).tolist() for _ in range(6000)])
        assert (draws[:, 0] != draws[:, 1]).all()
        support = [a * 16 + b for a in range(16) for b in range(16) if a != b]
        chi_square_ok(draws[:, 0] * 16 + draws[:, 1], lambda c: 1 / 240, support)
    big = dt.random.default_rng(3).choice(10 ** 6, 1000, replace=False, device=device)
    assert big.shape == (1000,) and len(set(big.tolist())) == 1000 and big.device == dt.device(device)
    assert big.tolist() == dt.random.default_rng(3).choice(10 ** 6, 1000, replace=False).tolist()
