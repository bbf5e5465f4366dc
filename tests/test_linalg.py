"""devtensor.linalg's factorizations and solvers against numpy.linalg on
every device: solve, inv, det, slogdet, cholesky, qr, eigh, eigvalsh, eig,
eigvals, svd, svdvals, pinv, lstsq and matrix_rank over float32, float64,
complex64, complex128 and integer input (computed in float64, as NumPy's),
batch shapes (), (3,) and (2, 3), transposed, strided and reversed views as
input, empty matrices and 1x1, NaN, and NumPy's errors (LinAlgError itself,
TypeError for float16, ValueError).  Norms, cond and the products are
test_linalg_norms.py; the shared helpers linalg_helpers.py.

Where NumPy's answer is unique it is compared by value (solve, inv, det,
eigenvalues, singular values, cholesky, pinv, lstsq, matrix_rank);
factorizations unique only up to signs or phases are checked through their
defining properties (Q R = A with orthonormal Q and upper R, A V = V
diag(w), U S V^H = A) and their dtypes and shapes against NumPy's.  NumPy
computes float32 in double and devtensor in float32 (Note [Linalg dtypes]
in devtensor/linalg.py), hence the tolerances by dtype.  Matrices are small
(n <= 6) and well conditioned unless a test says."""
import math

import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, given, settings, st, to_np
from linalg_helpers import (
    BATCHES, DTYPES, FLOATS, LA, LAYOUTS, check, close, eye_like, hermitian, is_cuda, laid_out, mH,
    near, on, positive_definite, rand, same_error, same_meta, same_result, well_conditioned,
)


# ---- LU: solve, inv, det, slogdet ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_lu_family(device, dtype, batch):
    a = well_conditioned(batch, 5, dtype)
    b, B = rand(5, dtype, 1), rand(tuple(batch) + (5, 2), dtype, 2)
    ta = on(a, device)
    close(LA.solve(ta, on(b, device)), np.linalg.solve(a, b), device)
    close(LA.solve(ta, on(B, device)), np.linalg.solve(a, B), device)
    close(LA.inv(ta), np.linalg.inv(a), device)
    close(LA.det(ta), np.linalg.det(a), device)
    same_result(LA.slogdet(ta), np.linalg.slogdet(a), device)
    same_result(LA.slogdet(-ta), np.linalg.slogdet(-a), device)  # odd n: negative dets


def test_solve_broadcasting_and_promotion(device):
    a, b = well_conditioned((3,), 3, "float32"), rand((2, 1, 3, 2), "complex64", 1)
    close(LA.solve(on(a, device), on(b, device)), np.linalg.solve(a, b), device)
    a64, b32 = well_conditioned((), 3), rand(3, "float32", 1)
    close(LA.solve(on(a64, device), on(b32, device)), np.linalg.solve(a64, b32), device)
    close(LA.solve(on(a64, device), [1, 2, 3]), np.linalg.solve(a64, [1, 2, 3]), device)
    i8 = well_conditioned((), 3, "int8")
    close(LA.solve(on(i8, device), on(rand(3, "int8"), device)),
          np.linalg.solve(i8, rand(3, "int8")), device)


def test_det_of_singular_and_permuted(device):
    p = np.eye(4)[[2, 0, 3, 1]]  # an odd permutation: det -1
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    for a in (p, singular, np.zeros((2, 2)), np.stack([p, p[::-1]])):
        close(LA.det(on(a, device)), np.linalg.det(a), device)
        same_result(LA.slogdet(on(a, device)), np.linalg.slogdet(a), device)
    c = singular.astype("complex128")
    same_result(LA.slogdet(on(c, device)), np.linalg.slogdet(c), device)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_slogdet_sums_the_diagonal_in_order(device, dtype):
    # Note [Determinants from LU] in csrc/core/linalg.c: an upper-triangular
    # matrix is its own LU without row swaps; log|det| is the sum of
    # log|d_i| in order (NumPy's), the sign the product of d_i / |d_i|
    d = np.array([3.0, -1e-3, 7.5, 2.0**-20, -1e5, 0.3, 11.0, 1e10, -1.5], dtype)
    if dtype == "complex128":
        d = d * np.exp(1j * np.arange(1, 10))
    a = np.triu(np.full((9, 9), 0.25, dtype), 1) + np.diag(d)
    logdet, sign = 0.0, np.ones((), dtype)
    for x in d:
        logdet += np.log(abs(x))
        sign = sign * (x / abs(x))
    got = LA.slogdet(on(a, device))
    same_result(got, np.linalg.slogdet(a), device)
    close(got.sign, sign, device)
    if device == "cpu":  # a GPU's log may differ from the C library's in the last place
        assert got.logabsdet.item() == logdet
        assert LA.det(on(a, device)).item() == np.linalg.det(a)


def test_slogdet_of_nan(device):
    # NumPy's real sign ignores a NaN pivot (a NaN is not below zero): (1,
    # nan), det nan; a complex one is NaN
    for a in (np.full((2, 2), np.nan), np.array([[1.0, np.nan], [0.0, -2.0]]),
              np.array([[np.nan, 1j], [0, 2]])):
        with np.errstate(invalid="ignore"):
            want, want_det = np.linalg.slogdet(a), np.linalg.det(a)
        got = LA.slogdet(on(a, device))
        close(got.logabsdet, want.logabsdet, device)
        close(got.sign, want.sign, device)
        close(LA.det(on(a, device)), want_det, device)


# ---- cholesky ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_cholesky(device, dtype, batch):
    a = positive_definite(batch, 4, dtype if dtype != "int64" else "float64")
    if dtype == "int64":
        a = np.round(a * 4).astype("int64") + 8 * np.eye(4, dtype="int64")
    ta = on(a, device)
    L = LA.cholesky(ta)
    close(L, np.linalg.cholesky(a), device)  # unique: LAPACK's real positive diagonal
    near(to_np(L) @ mH(to_np(L)), a, L.dtype)
    U = LA.cholesky(ta, upper=True)
    close(U, np.linalg.cholesky(a, upper=True), device)
    near(mH(to_np(U)) @ to_np(U), a, U.dtype)


def test_cholesky_reads_one_triangle(device):
    a = positive_definite((2,), 3, "complex128")
    lower, upper = np.tril(a), np.triu(a)  # the other triangle is not read
    close(LA.cholesky(on(lower, device)), np.linalg.cholesky(lower), device)
    close(LA.cholesky(on(upper, device), upper=True), np.linalg.cholesky(upper, upper=True),
          device)


# ---- qr ----

def assert_qr(q, r, a, mode, device):
    want_q, want_r = np.linalg.qr(a, mode)
    same_meta(q, want_q, device)
    same_meta(r, want_r, device)
    Q, R = to_np(q), to_np(r)
    near(Q[..., :, :R.shape[-2]] @ R, a.astype(Q.dtype), q.dtype)
    near(mH(Q) @ Q, eye_like(Q, Q.shape[-1]), q.dtype)
    assert not np.tril(R, -1).any()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("mn", [(5, 3), (3, 5), (4, 4)], ids=str)
def test_qr(device, dtype, batch, mn):
    a = rand(tuple(batch) + mn, dtype)
    ta = on(a, device)
    for mode in ("reduced", "complete"):
        q, r = LA.qr(ta, mode)
        assert type(LA.qr(ta, mode)).__name__ == "QRResult"
        assert_qr(q, r, a, mode, device)
    r = LA.qr(ta, "r")
    same_meta(r, np.linalg.qr(a, "r"), device)
    near(np.abs(to_np(r)), np.abs(np.linalg.qr(a, "r")), r.dtype)  # unique up to row phases


def test_qr_deprecated_modes(device):
    a = rand((4, 3))
    with pytest.warns(DeprecationWarning, match="The 'full' option is deprecated"):
        q, r = LA.qr(on(a, device), "full")
    assert_qr(q, r, a, "reduced", device)
    with pytest.warns(DeprecationWarning, match="The 'economic' option is deprecated"), \
            pytest.raises(NotImplementedError):
        LA.qr(on(a, device), "economic")
    with pytest.raises(NotImplementedError, match="raw"):
        LA.qr(on(a, device), "raw")


# ---- eigh, eigvalsh ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_eigh(device, dtype, batch):
    a = hermitian(batch, 5, dtype)
    ta = on(a, device)
    for uplo in ("L", "U", "l", "u"):
        garbage = np.tril(a) if uplo.upper() == "L" else np.triu(a)  # the other side unread
        w, v = LA.eigh(on(garbage, device), uplo)
        want_w, want_v = np.linalg.eigh(garbage, uplo)
        close(w, want_w, device)
        same_meta(v, want_v, device)
        V = to_np(v)
        near(a @ V, V * to_np(w)[..., None, :], v.dtype)  # A V = V diag(w)
        near(mH(V) @ V, eye_like(V, 5), v.dtype)
        close(LA.eigvalsh(on(garbage, device), UPLO=uplo), np.linalg.eigvalsh(garbage, uplo),
              device)
    assert type(LA.eigh(ta)).__name__ == "EighResult"
    assert LA.eigh(ta)._fields == np.linalg.eigh(a)._fields


# ---- eig, eigvals (LAPACK's geev; cuSOLVER's Xgeev on CUDA devices) ----

def _as_complex(x):
    x = np.asarray(x)
    return x if x.dtype.kind == "c" else x.astype(np.result_type(x.dtype, np.complex64))


def np_eigvals(a):
    """NumPy 2.5's eigvals, complex always (NumPy 2.4 and older gave real
    eigenvalues when every one was real; devtensor follows 2.5 and the
    array API)."""
    return _as_complex(np.linalg.eigvals(a))


def np_eig(a):
    """NumPy 2.5's eig, complex always (as np_eigvals)."""
    r = np.linalg.eig(a)
    return type(r)(_as_complex(r.eigenvalues), _as_complex(r.eigenvectors))


def sorted_eigenvalues(w):
    return np.sort_complex(np.asarray(w)) if np.iscomplexobj(w) else np.sort(np.asarray(w))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_eig(device, dtype, batch):
    a = rand(tuple(batch) + (4, 4), dtype)
    ta = on(a, device)
    w, v = LA.eig(ta)
    want_w, want_v = np_eig(a)
    same_meta(w, want_w, device)
    same_meta(v, want_v, device)
    W, V = to_np(w), to_np(v)
    near(sorted_eigenvalues(W), sorted_eigenvalues(want_w), w.dtype)
    near(a @ V, V * W[..., None, :], v.dtype)  # A V = V diag(w), unit columns
    near(np.linalg.norm(V, axis=-2), np.ones(W.shape), v.dtype)
    e = LA.eigvals(ta)
    same_meta(e, np_eigvals(a), device)
    near(sorted_eigenvalues(to_np(e)), sorted_eigenvalues(np_eigvals(a)), e.dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_eig_complex_when_every_eigenvalue_is_real(device, dtype):
    """NumPy 2.5's rule and the array API's: complex results of real input
    whatever the values."""
    t = np.triu(rand((2, 4, 4), dtype)) + np.diag([1, 2, 3, 4]).astype(dtype)  # real eigenvalues
    rot = np.array([[0, -1], [1, 0]], dtype)  # eigenvalues +-i
    cases = [t, t[0], rot, np.stack([t[0][:2, :2], rot]), np.zeros((0, 3, 3), dtype),
             np.zeros((0, 0), dtype)]
    for a in cases:
        w, v = LA.eig(on(a, device))
        want_w, want_v = np_eig(a)
        same_meta(w, want_w, device)
        same_meta(v, want_v, device)
        near(sorted_eigenvalues(to_np(w)), sorted_eigenvalues(want_w), w.dtype)
        same_meta(LA.eigvals(on(a, device)), np_eigvals(a), device)


def assert_same_eigenvalues(got, want, tol):
    """Each matrix's eigenvalues equal want's as multisets: each of want's
    matched with the nearest of got's not matched yet (sorting would pair
    a conjugate pair's members by the rounding of their real parts)."""
    got, want = np.asarray(got).reshape(-1, np.shape(got)[-1]), np.asarray(want).reshape(-1, np.shape(want)[-1])
    for g, w in zip(got, want):
        left = list(g)
        for x in w:
            k = int(np.argmin([abs(x - y) for y in left]))
            assert abs(x - left.pop(k)) <= tol, (g, w)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_eig_pairs_and_larger_matrices(device, dtype):
    """Real matrices with several conjugate pairs among real eigenvalues
    (each pair's vector unpacked from LAPACK's two real columns), a
    40 x 40 one, a defective one, and a batch where one matrix's
    eigenvalues are all real and the next's are not."""
    rng = np.random.default_rng(5)
    blocks = np.zeros((7, 7))
    blocks[:2, :2] = [[1, -2], [2, 1]]  # 1 +- 2i
    blocks[2:4, 2:4] = [[-3, 0.5], [-0.5, -3]]  # -3 +- 0.5i
    blocks[4, 4], blocks[5, 5], blocks[6, 6] = 4, -1, 0.25
    s_ = rng.standard_normal((7, 7)) + 7 * np.eye(7)
    mixed = s_ @ blocks @ np.linalg.inv(s_)
    big = rng.standard_normal((40, 40))
    defective = np.array([[2.0, 1.0], [0.0, 2.0]])
    batch = np.stack([np.diag([1.0, 2.0, 3.0]) + np.triu(rng.standard_normal((3, 3)), 1),
                      rng.standard_normal((3, 3))])
    close_pair = np.array([[1.0, 1e-9], [-1e-9, 1.0]])  # 1 +- 1e-9 i: a pair, not a double root
    for a in (mixed, big, batch, defective, close_pair):
        a = a.astype(dtype)
        w, v = LA.eig(on(a, device))
        want = np_eigvals(a)
        same_meta(w, want, device)
        W, V = to_np(w), to_np(v)
        eps = np.finfo(dtype).eps
        scale = np.abs(a).max() * a.shape[-1]
        tol = (np.sqrt(eps) if a is defective else 100 * eps) * scale  # a double root: sqrt(eps)
        assert_same_eigenvalues(W, want, tol)
        assert_same_eigenvalues(to_np(LA.eigvals(on(a, device))), want, tol)
        assert np.abs(a @ V - V * W[..., None, :]).max() <= 100 * eps * scale
        assert np.abs(np.linalg.norm(V, axis=-2) - 1).max() <= 100 * eps


def test_eig_of_defective_real_matrices(device):
    """A defective eigenvalue of a real matrix (np.roots of (x - 1)^3) comes
    out as a cluster of radius ~eps^(1/n); the result is still conjugate
    pairs and real values, as LAPACK's (Note [Real matrices in the general
    eigenproblem] for the emulated device)."""
    rng = np.random.default_rng(11)
    cases = [np.array([[3.0, -3.0, 1.0], [1, 0, 0], [0, 1, 0]])]  # companion of (x - 1)^3
    for n in (3, 4, 5):
        jordan = 2 * np.eye(n) + np.eye(n, k=1)
        for _ in range(6):
            s_ = rng.standard_normal((n, n))
            cases.append(s_ @ jordan @ np.linalg.inv(s_))
    for a in cases:
        n = a.shape[0]
        root = 1.0 if a is cases[0] else 2.0
        w = to_np(LA.eigvals(on(a, device)))
        assert w.dtype == np.complex128 and w.shape == (n,)
        assert np.array_equal(np.sort_complex(w), np.sort_complex(w.conj()))  # exact pairs
        assert np.abs(w - root).max() <= 50 * np.finfo(float).eps ** (1 / n) * np.abs(a).max()
    for coeffs in ([1.0, -3.0, 3.0, -1.0], [1.0, -5, 10, -10, 5, -1], [1.0, 0, -2, 0, 1]):
        got, want = to_np(dt.roots(on(np.array(coeffs), device))), np.roots(coeffs)
        assert got.shape == want.shape and np.array_equal(np.sort_complex(got), np.sort_complex(got.conj()))
        tol = 50 * np.finfo(float).eps ** (1 / (len(coeffs) - 1))
        assert all(np.abs(want - g).min() <= tol for g in got), (got, want)


# ---- svd, svdvals ----

def assert_svd(usv, a, full, device):
    want = np.linalg.svd(a, full_matrices=full)
    u, s, vh = usv
    assert usv._fields == want._fields
    for got, w in zip(usv, want):
        same_meta(got, w, device)
    close(s, want.S, device)
    U, S, VH = to_np(u), to_np(s), to_np(vh)
    k = S.shape[-1]
    near((U[..., :, :k] * S[..., None, :]) @ VH[..., :k, :], a.astype(U.dtype), u.dtype)
    near(mH(U) @ U, eye_like(U, U.shape[-1]), u.dtype)
    near(VH @ mH(VH), eye_like(VH, VH.shape[-2]), u.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("mn", [(5, 3), (3, 5), (4, 4)], ids=str)
def test_svd(device, dtype, batch, mn):
    a = rand(tuple(batch) + mn, dtype)
    ta = on(a, device)
    for full in (True, False):
        assert_svd(LA.svd(ta, full_matrices=full), a, full, device)
    close(LA.svd(ta, compute_uv=False), np.linalg.svd(a, compute_uv=False), device)
    close(LA.svdvals(ta), np.linalg.svdvals(a), device)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mn", [(1, 1), (2, 3), (3, 2), (32, 32), (32, 5), (5, 32), (33, 32), (32, 33)], ids=str)
def test_svd_batches_either_side_of_the_batched_routine(device, dtype, mn):
    # Note [Batched factorizations] in csrc/cuda/cuda_solver.c: batches of
    # two or more matrices of at most 32 rows and columns take gesvdjBatched
    # on CUDA devices (all of U and V, then U's first columns and V^H),
    # larger ones gesvd one matrix at a time
    m, n = mn
    a = rand((3, m, n), dtype, 7)
    a[1] = 0  # a zero matrix: every singular value 0, U and V still unitary
    a[2, :, -1] = a[2, :, 0]  # rank deficient
    ta = on(a, device)
    for full in (True, False):
        assert_svd(LA.svd(ta, full_matrices=full), a, full, device)
    close(LA.svd(ta, compute_uv=False), np.linalg.svd(a, compute_uv=False), device)
    close(LA.svdvals(ta), np.linalg.svdvals(a), device)
    close(LA.matrix_rank(ta), np.linalg.matrix_rank(a), device)
    close(LA.pinv(ta, rtol=1e-4), np.linalg.pinv(a, rtol=1e-4), device)  # NumPy's default cuts at 1e-15


@pytest.mark.parametrize("dtype", DTYPES)
def test_svd_hermitian(device, dtype):
    a = hermitian((2,), 4, dtype)
    a[1, :, 0] = a[1, 0, :] = 0  # a zero eigenvalue keeps its vector
    ta = on(a, device)
    want = np.linalg.svd(a, hermitian=True)
    u, s, vh = LA.svd(ta, hermitian=True)
    close(s, want.S, device)
    for got, w in zip((u, vh), (want.U, want.Vh)):
        same_meta(got, w, device)
    U, S, VH = to_np(u), to_np(s), to_np(vh)
    near((U * S[..., None, :]) @ VH, a.astype(U.dtype), u.dtype)
    near(mH(U) @ U, eye_like(U, 4), u.dtype)
    close(LA.svd(ta, compute_uv=False, hermitian=True),
          np.linalg.svd(a, compute_uv=False, hermitian=True), device)


# ---- pinv, lstsq, matrix_rank ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_pinv(device, dtype, batch):
    for mn in ((5, 3), (3, 5)):
        a = rand(tuple(batch) + mn, dtype)
        close(LA.pinv(on(a, device)), np.linalg.pinv(a), device)
    h = hermitian(batch, 4, dtype)
    close(LA.pinv(on(h, device), hermitian=True), np.linalg.pinv(h, hermitian=True), device)
    sq = well_conditioned(batch, 3, dtype)
    check(lambda: LA.pinv(on(sq, device), rtol=None), lambda: np.linalg.pinv(sq, rtol=None),
          device)  # NumPy: finfo of a's own dtype, an error for integers


def test_pinv_cutoffs(device):
    a = np.diag([1.0, 1e-3, 1e-9])  # the cut-off decides how many values are inverted
    for kw in ({}, {"rcond": 1e-6}, {"rcond": 1e-2}, {"rtol": 1e-6}, {"rtol": None},
               {"rcond": np.array([1e-2, 1e-6])}):
        b = np.stack([a, a]) if "rcond" in kw and np.ndim(kw["rcond"]) else a
        close(LA.pinv(on(b, device), **kw), np.linalg.pinv(b, **kw), device)
    same_error(lambda: LA.pinv(on(a, device), rcond=1e-3, rtol=None),
               lambda: np.linalg.pinv(a, rcond=1e-3, rtol=None))


@pytest.mark.parametrize("dtype", DTYPES)
def test_lstsq(device, dtype):
    deficient = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1], [0, 1, 1]], dtype)  # rank 2
    for a, b in [(rand((6, 3), dtype), rand(6, dtype, 1)),
                 (rand((6, 3), dtype), rand((6, 2), dtype, 1)),
                 (rand((3, 5), dtype), rand((3, 2), dtype, 1)),
                 (well_conditioned((), 4, dtype), rand(4, dtype)),
                 (deficient, rand(4, dtype, 2)), (rand((4, 3), dtype), rand((4, 0), dtype))]:
        if dtype in ("float32", "complex64") and a is deficient:
            continue  # float32's rank-deficient singular values are rounding noise
        x, res, rank, s = LA.lstsq(on(a, device), on(b, device))
        want = np.linalg.lstsq(a, b)
        close(x, want[0], device)
        close(res, want[1], device)
        assert type(rank) is np.int32 and rank == want[2]  # NumPy's type
        close(s, want[3], device)
    a, b = rand((5, 3)), rand(5, "float32")
    same_result(LA.lstsq(on(a, device), on(b, device), rcond=0.5),
                np.linalg.lstsq(a, b, rcond=0.5), device)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_rank(device, dtype):
    full = rand((2, 3, 4, 5), dtype)
    check(lambda: LA.matrix_rank(on(full, device)), lambda: np.linalg.matrix_rank(full), device)
    h = hermitian((3,), 4, dtype)
    check(lambda: LA.matrix_rank(on(h, device), hermitian=True),
          lambda: np.linalg.matrix_rank(h, hermitian=True), device)
    for v in (rand(4, dtype), np.zeros(3, dtype), np.array(0, dtype)):
        check(lambda: LA.matrix_rank(on(v, device)), lambda: np.linalg.matrix_rank(v), device)
    scaled = np.diag([4.0, 2.0, 0.5, 1e-3]).astype(dtype) if dtype != "int64" else \
        np.diag([40, 20, 5, 1])
    for kw in ({}, {"tol": 1.0}, {"tol": np.array([1.0, 3.0])}, {"rtol": 0.1},
               {"rtol": np.array([0.1, 0.6])}):
        a = np.stack([scaled, scaled]) if any(np.ndim(v) for v in kw.values()) else scaled
        check(lambda: LA.matrix_rank(on(a, device), **kw),
              lambda: np.linalg.matrix_rank(a, **kw), device)


@pytest.mark.parametrize("dtype", ["float64", "complex128", "int64"])  # exact only in double
def test_rank_deficient(device, dtype):
    d = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], dtype)
    check(lambda: LA.svdvals(on(d, device)), lambda: np.linalg.svdvals(d), device)
    check(lambda: LA.matrix_rank(on(d, device)), lambda: np.linalg.matrix_rank(d), device)


NAN = np.array([[[np.nan, 0.0], [0.0, 1.0]], [[2.0, 1.0], [1.0, 3.0]]])  # a NaN; a good one
SVD_NAN_CASES = {  # Note [NaN in the SVD]: LinAlgError, as NumPy's LAPACK
    "svd": lambda la, x: la.svd(x), "svdvals": lambda la, x: la.svdvals(x),
    "svd values": lambda la, x: la.svd(x, compute_uv=False), "pinv": lambda la, x: la.pinv(x),
    "matrix_rank": lambda la, x: la.matrix_rank(x), "norm 2": lambda la, x: la.norm(x, 2, (1, 2)),
    "norm nuc": lambda la, x: la.norm(x, "nuc", (1, 2)), "cond": lambda la, x: la.cond(x),
    "lstsq": lambda la, x: la.lstsq(x[0], x[1, 0]),
    "lstsq inf": lambda la, x: la.lstsq(x[1] * math.inf, x[1, 0]),
    "eig": lambda la, x: la.eig(x), "eigvals": lambda la, x: la.eigvals(x),
    "cond nuc of a singular matrix": lambda la, x: la.cond(x[1:] * 0, "nuc"),
}


@pytest.mark.parametrize("name", SVD_NAN_CASES)
def test_nan_refused(device, name):
    case = SVD_NAN_CASES[name]
    same_error(lambda: case(LA, on(NAN, device)), lambda: case(np.linalg, NAN))


def test_nan_propagates(device):
    for call in (lambda la, x: la.inv(x), lambda la, x: la.solve(x, x[:, 0]),
                 lambda la, x: la.det(x), lambda la, x: la.slogdet(x)[1],
                 lambda la, x: la.lstsq(x[1], x[0, 0])[0], lambda la, x: la.cond(x, 1),
                 lambda la, x: la.cond(x, math.inf), lambda la, x: la.cond(x, "fro")):
        with np.errstate(invalid="ignore"):
            want = call(np.linalg, NAN)
        got = call(LA, on(NAN, device))
        same_meta(got, want, device)
        assert np.isnan(to_np(got)[0]).any() and np.isnan(want[0]).any()
        near(to_np(got)[1:], want[1:], got.dtype)  # the good matrix: NumPy's answer


# ---- errors: NumPy's types (LinAlgError itself) and words ----

SQUARE = np.array([[1.0, 2.0], [3.0, 4.0]])
SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])
NOT_PD = np.array([[1.0, 2.0], [2.0, 1.0]])
RECT, VEC = np.ones((2, 3)), np.ones(2)
HALF = np.eye(2, dtype=np.float16)
SQUARE_ONLY = ["solve", "inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "eig", "eigvals",
               "matrix_power", "cond 1", "svd hermitian", "tensorinv"]
STACKED = SQUARE_ONLY + ["qr", "svd", "svdvals", "pinv", "cond", "lstsq", "multi_dot"]
CALLS = {  # name -> call(la, x): each function given x as its matrix
    "solve": lambda la, x: la.solve(x, x), "inv": lambda la, x: la.inv(x),
    "det": lambda la, x: la.det(x), "slogdet": lambda la, x: la.slogdet(x),
    "cholesky": lambda la, x: la.cholesky(x), "eigh": lambda la, x: la.eigh(x),
    "eigvalsh": lambda la, x: la.eigvalsh(x), "eig": lambda la, x: la.eig(x),
    "eigvals": lambda la, x: la.eigvals(x), "matrix_power": lambda la, x: la.matrix_power(x, 2),
    "cond 1": lambda la, x: la.cond(x, 1), "svd hermitian": lambda la, x: la.svd(x, hermitian=True),
    "tensorinv": lambda la, x: la.tensorinv(x, 1), "qr": lambda la, x: la.qr(x),
    "svd": lambda la, x: la.svd(x), "svdvals": lambda la, x: la.svdvals(x),
    "pinv": lambda la, x: la.pinv(x), "cond": lambda la, x: la.cond(x),
    "lstsq": lambda la, x: la.lstsq(x, x), "multi_dot": lambda la, x: la.multi_dot([x, x, x]),
    "matrix_rank": lambda la, x: la.matrix_rank(x), "norm 2": lambda la, x: la.norm(x, 2),
    "norm nuc": lambda la, x: la.norm(x, "nuc"),
}
ERRORS = {
    **{f"{n} of a non-square matrix": (n, RECT) for n in SQUARE_ONLY},
    **{f"{n} of a vector": (n, VEC) for n in STACKED},
    **{f"{n} of a 0-d array": (n, np.float64(2)) for n in ("solve", "inv", "svd", "lstsq")},
    **{f"{n} of float16": (n, HALF) for n in CALLS if n not in ("matrix_power", "multi_dot")},
    "solve of a singular matrix": ("solve", SINGULAR),
    "solve of a singular batch": ("solve", np.stack([SQUARE, SINGULAR])),
    "inv of a singular matrix": ("inv", SINGULAR),
    "inv of a singular batch": ("inv", np.stack([SINGULAR, SQUARE])),
    "cholesky of a non-positive-definite": ("cholesky", NOT_PD),
    "cholesky of a non-positive-definite batch": ("cholesky", np.stack([np.eye(2), -np.eye(2)])),
    "cholesky upper of a non-positive-definite": ("cholesky upper", NOT_PD),
    "multi_dot of a 3-d middle": ("multi_dot 3-d", np.ones((2, 2, 2))),
}
CALLS.update({
    "cholesky upper": lambda la, x: la.cholesky(x, upper=True),
    "multi_dot 3-d": lambda la, x: la.multi_dot([np.ones((2, 2)), x, np.ones((2, 2))]),
})


@pytest.mark.parametrize("case", ERRORS)
def test_linalg_errors(device, case):
    name, x = ERRORS[case]
    call = CALLS[name]
    same_error(lambda: call(LA, on(x, device)), lambda: call(np.linalg, x))


ARGUMENT_ERRORS = {  # name -> call(la, A): A converts a NumPy array for la
    "qr mode": lambda la, A: la.qr(A(SQUARE), "bad"),
    "eigh UPLO": lambda la, A: la.eigh(A(SQUARE), "X"),
    "eigvalsh UPLO": lambda la, A: la.eigvalsh(A(SQUARE), UPLO="lower"),
    "matrix_rank tol and rtol": lambda la, A: la.matrix_rank(A(SQUARE), tol=1, rtol=1),
    "pinv rcond and rtol": lambda la, A: la.pinv(A(SQUARE), rcond=1e-3, rtol=1e-3),
    "lstsq incompatible": lambda la, A: la.lstsq(A(RECT), A(np.ones(3))),
    "lstsq 3-d b": lambda la, A: la.lstsq(A(SQUARE), A(np.ones((1, 2, 2)))),
    "solve1 mismatch": lambda la, A: la.solve(A(SQUARE), A(np.ones(3))),
    "solve mismatch": lambda la, A: la.solve(A(SQUARE), A(np.ones((3, 2)))),
    # (A (3, 2, 2) with b (3, 2), refused by NumPy 2, is PyTorch's batch of vectors: test_torch_names)
    "solve batch broadcast": lambda la, A: la.solve(A(np.stack([SQUARE] * 3)),
                                                    A(np.ones((2, 2, 1)))),
    "solve 0-d b": lambda la, A: la.solve(A(SQUARE), A(np.float64(1))),
}


@pytest.mark.parametrize("case", ARGUMENT_ERRORS)
def test_argument_errors(device, case):
    call = ARGUMENT_ERRORS[case]
    same_error(lambda: call(LA, lambda a: on(a, device)), lambda: call(np.linalg, np.asarray))


# ---- layouts: views as input give the answers of their contiguous copies ----

LAYOUT_CASES = {  # name -> call(la, x) of a (2, 4, 4) stack x
    "solve": lambda la, x: la.solve(x, x[..., ::-1]),
    "solve vector": lambda la, x: la.solve(x, x[0, 1]),
    "inv": lambda la, x: la.inv(x), "det": lambda la, x: la.det(x),
    "slogdet": lambda la, x: la.slogdet(x), "eigvalsh": lambda la, x: la.eigvalsh(x, "U"),
    "svdvals": lambda la, x: la.svdvals(x), "pinv": lambda la, x: la.pinv(x[..., :3]),
    "lstsq": lambda la, x: la.lstsq(x[0], x[1, :, :2]),
    "norm nuc": lambda la, x: la.norm(x, "nuc", (1, 2)),
    "norm 1": lambda la, x: la.norm(x, 1, (2, 1)), "norm": lambda la, x: la.norm(x),
    "matrix_norm inf": lambda la, x: la.matrix_norm(x, ord=math.inf),
    "vector_norm": lambda la, x: la.vector_norm(x, axis=(0, 2), ord=3),
    "cond 1": lambda la, x: la.cond(x, 1), "cond": lambda la, x: la.cond(x),
    "matrix_power": lambda la, x: la.matrix_power(x, 3),
    "matrix_power -2": lambda la, x: la.matrix_power(x, -2),
    "matrix_rank": lambda la, x: la.matrix_rank(x),
    "multi_dot": lambda la, x: la.multi_dot([x[0], x[1], x[0, 0]]),
    "tensorinv": lambda la, x: la.tensorinv(x[0].reshape(2, 2, 2, 2)),
    "tensorsolve": lambda la, x: la.tensorsolve(x[1].reshape(2, 2, 4), x[0, 0].reshape(2, 2)),
    "trace": lambda la, x: la.trace(x, offset=1),
    "diagonal": lambda la, x: la.diagonal(x, offset=-1),
}


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_layouts(device, layout, dtype):
    a = well_conditioned((2,), 4, dtype)
    na, ta = laid_out(a, layout, device)
    for name, call in LAYOUT_CASES.items():
        check(lambda: call(LA, ta), lambda: call(np.linalg, na), device)
    nh, th = laid_out(hermitian((2,), 4, dtype), layout, device)
    for upper in (False, True):  # positive definite
        close(LA.cholesky(th + on(5 * np.eye(4), device), upper=upper),
              np.linalg.cholesky(nh + 5 * np.eye(4), upper=upper), device)
    w, v = LA.eigh(th)
    close(w, np.linalg.eigvalsh(nh), device)
    near(nh @ to_np(v), to_np(v) * to_np(w)[..., None, :], v.dtype)
    q, r = LA.qr(ta[..., :3])
    assert_qr(q, r, na[..., :3], "reduced", device)
    assert_svd(LA.svd(ta[..., :3, :], full_matrices=True), na[..., :3, :], True, device)
    if not is_cuda(device):
        near(sorted_eigenvalues(to_np(LA.eigvals(ta))), sorted_eigenvalues(np_eigvals(na)),
             ta.dtype)


# ---- empty matrices, batches of none, 1x1 ----

EDGE_SHAPES = [(0, 0), (2, 0, 0), (0, 3, 3), (0, 3), (3, 0), (2, 0, 3), (1, 1), (2, 1, 1)]
EDGE_CALLS = {  # name -> call(la, x, A): A converts another NumPy array for la
    "solve": lambda la, x, A: la.solve(x, x),
    "solve vector": lambda la, x, A: la.solve(x, A(np.ones(x.shape[-1]))),
    "inv": lambda la, x, A: la.inv(x), "det": lambda la, x, A: la.det(x),
    "slogdet": lambda la, x, A: la.slogdet(x), "cholesky": lambda la, x, A: la.cholesky(x),
    "cholesky upper": lambda la, x, A: la.cholesky(x, upper=True),
    "eigh": lambda la, x, A: la.eigh(x), "eigvalsh": lambda la, x, A: la.eigvalsh(x),
    "svdvals": lambda la, x, A: la.svdvals(x),
    "svd values": lambda la, x, A: la.svd(x, compute_uv=False),
    "svd hermitian values": lambda la, x, A: la.svd(x, compute_uv=False, hermitian=True),
    "pinv": lambda la, x, A: la.pinv(x),
    "pinv hermitian": lambda la, x, A: la.pinv(x, hermitian=True),
    "matrix_rank": lambda la, x, A: la.matrix_rank(x), "cond": lambda la, x, A: la.cond(x),
    "cond inf": lambda la, x, A: la.cond(x, math.inf), "norm": lambda la, x, A: la.norm(x),
    "norm 2": lambda la, x, A: la.norm(x, 2, (-2, -1)),
    "norm -2": lambda la, x, A: la.norm(x, -2, (-2, -1)),
    "norm nuc": lambda la, x, A: la.norm(x, "nuc", (-2, -1)),
    "norm 1": lambda la, x, A: la.norm(x, 1, (-2, -1)),
    "norm -inf": lambda la, x, A: la.norm(x, -math.inf, (-1, -2)),
    "matrix_power 0": lambda la, x, A: la.matrix_power(x, 0),
    "matrix_power 3": lambda la, x, A: la.matrix_power(x, 3),
    "matrix_power -1": lambda la, x, A: la.matrix_power(x, -1),
}


@pytest.mark.parametrize("name", EDGE_CALLS)
def test_edge_shapes(device, name):
    call = EDGE_CALLS[name]
    for shape in EDGE_SHAPES:
        x = 2 + rand(shape) / 4  # a 1x1 matrix is positive definite
        check(lambda: call(LA, on(x, device), lambda a: on(a, device)),
              lambda: call(np.linalg, x, np.asarray), device)


def test_factorization_edge_shapes(device):
    for shape in EDGE_SHAPES:
        x = (2 + rand(shape, "complex128") / 4).astype("complex128")
        tx = on(x, device)
        if 0 in shape[-2:]:  # Note [Empty matrices]: NumPy's zeros and identities
            for mode in ("reduced", "complete", "r"):
                check(lambda: LA.qr(tx, mode), lambda: np.linalg.qr(x, mode), device)
            for full in (True, False):
                check(lambda: LA.svd(tx, full), lambda: np.linalg.svd(x, full), device)
        else:
            for mode in ("reduced", "complete"):
                assert_qr(*LA.qr(tx, mode), x, mode, device)
            for full in (True, False):
                assert_svd(LA.svd(tx, full), x, full, device)
        if is_cuda(device):
            continue
        check(lambda: LA.eigvals(tx), lambda: np_eigvals(x), device)
        check(lambda: LA.eig(tx.real), lambda: np_eig(x.real), device)


def test_lstsq_edge_shapes(device):
    for m, n in [(0, 0), (0, 3), (3, 0), (1, 1)]:
        for b_shape in [(m,), (m, 2), (m, 0)]:
            a, b = 2 + rand((m, n)), rand(b_shape, seed=1)
            check(lambda: LA.lstsq(on(a, device), on(b, device)), lambda: np.linalg.lstsq(a, b),
                  device)


# ---- other dtypes, devices, properties ----

@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "float16"])
def test_other_input_dtypes(device, dtype):
    """Integers and bool computed in float64, float16 refused with NumPy's TypeError."""
    a = np.triu(rand((2, 3, 3), dtype)) | np.eye(3, dtype=dtype) if dtype == "bool" else \
        well_conditioned((2,), 3, dtype)
    h = (a | a.swapaxes(-1, -2)) if dtype == "bool" else a + a.swapaxes(-1, -2)
    for call in (lambda la, x: la.solve(x, x), lambda la, x: la.inv(x), lambda la, x: la.det(x),
                 lambda la, x: la.slogdet(x), lambda la, x: la.eigvalsh(x),
                 lambda la, x: la.svdvals(x), lambda la, x: la.pinv(x),
                 lambda la, x: la.matrix_rank(x), lambda la, x: la.cond(x, 1),
                 lambda la, x: la.norm(x), lambda la, x: la.norm(x, -1, (1, 2)),
                 lambda la, x: la.vector_norm(x, ord=0), lambda la, x: la.matrix_power(x, 2),
                 lambda la, x: la.matrix_power(x, -1), lambda la, x: la.lstsq(x[0], x[1]),
                 lambda la, x: la.tensorsolve(x[0], x[1, 0]), lambda la, x: la.trace(x),
                 lambda la, x: la.multi_dot([x[0], x[1], x[0]])):
        check(lambda: call(LA, on(a, device)), lambda: call(np.linalg, a), device)
    check(lambda: LA.cholesky(on(h, device) + 9), lambda: np.linalg.cholesky(h + 9), device)
    if not is_cuda(device):
        check(lambda: LA.eigvals(on(a, device)), lambda: np_eigvals(a), device)


@pytest.mark.parametrize("fn", ["solve", "lstsq", "multi_dot", "tensorsolve"])
def test_cross_device(fn):
    if not CUDA_DEVICES:
        pytest.skip("needs a CUDA device (real or emulated)")
    a, b = dt.eye(3, device=CUDA_DEVICES[0]), dt.ones((3, 3))
    args = {"multi_dot": ([a, b, a],), "tensorsolve": (a.reshape(3, 3, 1), b[0])}.get(fn, (a, b))
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device, "
                       "but found at least two devices, cuda:0 and cpu!"):
        getattr(LA, fn)(*args)


def test_results_stay_on_the_device(device):
    a = on(well_conditioned((), 3), device)
    for r in (LA.solve(a, [1, 2, 3]), LA.lstsq(a, [1.0, 2.0, 3.0])[0], LA.inv(a), LA.det(a),
              LA.qr(a).Q, LA.svd(a).Vh, LA.eigh(a + a.mT).eigenvectors, LA.pinv(a),
              LA.matrix_rank(a), LA.cond(a, 1), LA.norm(a, "nuc"), LA.matrix_power(a, -2)):
        assert r.device == dt.device(device)


@settings(max_examples=20, deadline=None)
@given(batch=st.lists(st.integers(0, 3), max_size=2), n=st.integers(0, 5),
       dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2 ** 16))
def test_lu_property(device, batch, n, dtype, seed):
    a = well_conditioned(tuple(batch), n, dtype, seed)
    b = rand(tuple(batch) + (n, 2), dtype, seed + 1)
    for call in (lambda la, x, y: la.solve(x, y), lambda la, x, y: la.inv(x),
                 lambda la, x, y: la.det(x), lambda la, x, y: la.slogdet(x),
                 lambda la, x, y: la.svdvals(y), lambda la, x, y: la.pinv(y)):
        check(lambda: call(LA, on(a, device), on(b, device)), lambda: call(np.linalg, a, b),
              device)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 32, 33])
def test_lu_batches_either_side_of_the_batched_routine(device, dtype, n):
    # Note [Batched factorizations] in csrc/cuda/cuda_solver.c: n <= 32 in
    # batches of two or more take cuBLAS's getrfBatched and getrsBatched on
    # CUDA devices, larger n cuSOLVER's loop
    a = well_conditioned((4,), n, dtype, 7)
    b = rand((4, n, 3), dtype, 8)
    ta, tb = on(a, device), on(b, device)
    close(LA.solve(ta, tb), np.linalg.solve(a, b), device)
    close(LA.inv(ta), np.linalg.inv(a), device)
    unit = (a / (3 * n + 1)).astype(dtype)  # det near 1
    close(LA.det(on(unit, device)), np.linalg.det(unit), device)
    # 97**32 overflows float32: inf in the sign's direction, as NumPy's
    # (Note [Determinants from LU] in csrc/core/linalg.c)
    close(LA.det(ta), np.linalg.det(a), device)
    same_result(LA.slogdet(ta), np.linalg.slogdet(a), device)
    p = np.eye(n, dtype=dtype)[::-1]  # a row permutation: the pivots must be applied
    perm = np.stack([a[0] @ p, p @ a[1]])
    close(LA.solve(on(perm, device), on(b[:2], device)), np.linalg.solve(perm, b[:2]), device)
    close(LA.det(on(perm / (3 * n + 1), device)), np.linalg.det(perm / (3 * n + 1)), device)
    bad = a.copy()
    bad[2] = 0  # one matrix of the batch is singular
    close(LA.det(on(bad, device)), np.linalg.det(bad), device)
    same_result(LA.slogdet(on(bad, device)), np.linalg.slogdet(bad), device)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        LA.solve(on(bad, device), tb)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        LA.inv(on(bad, device))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [1, 2, 32, 33])
def test_eigh_batches_either_side_of_the_batched_routine(device, dtype, n):
    # Note [Batched factorizations] in csrc/cuda/cuda_solver.c: n <= 32 in
    # batches of two or more take syevjBatched on CUDA devices, larger n
    # syevd one matrix at a time
    a = hermitian((3,), n, dtype, 5)
    a[1] = np.diag(np.arange(n, 0, -1)).astype(dtype)  # already diagonal, descending
    ta = on(a, device)
    w, v = LA.eigh(ta)
    close(w, np.linalg.eigvalsh(a), device)
    close(LA.eigvalsh(ta), np.linalg.eigvalsh(a), device)
    close(LA.eigh(ta, UPLO="U").eigenvalues, np.linalg.eigh(a, UPLO="U").eigenvalues, device)
    same_meta(v, np.linalg.eigh(a).eigenvectors, device)
    V = to_np(v)
    near(a @ V, V * to_np(w)[..., None, :], v.dtype)  # A V = V diag(w)
    near(mH(V) @ V, eye_like(V, n), v.dtype)


@pytest.mark.parametrize("n", [1, 32, 33])
def test_cholesky_batches_either_side_of_the_batched_routine(device, n):
    # Note [Batched factorizations] in csrc/cuda/cuda_solver.c: n <= 32 in
    # batches of two or more take potrfBatched on CUDA devices, larger n the loop
    a = positive_definite((5,), n, "float64")
    close(LA.cholesky(on(a, device)), np.linalg.cholesky(a), device)
    bad = a.copy()
    bad[3] = -np.eye(n)  # one matrix of the batch is not positive definite
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        LA.cholesky(on(bad, device))
