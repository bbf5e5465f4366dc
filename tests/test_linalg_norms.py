"""devtensor.linalg's norms, condition numbers and products against
numpy.linalg on every device: norm (every order, axis and keepdims),
vector_norm, matrix_norm, cond (every p), matrix_power (0 and negative
powers), multi_dot (vector ends, out=), tensorinv, tensorsolve (axes=) and
the array API's aliases (diagonal, trace, matmul, outer, tensordot, vecdot,
cross, matrix_transpose), by value, with NumPy's dtypes, shapes and errors.
Helpers: linalg_helpers.py."""
import math

import numpy as np
import pytest

import devtensor as dt
from helpers import to_np
from linalg_helpers import DTYPES, LA, check, close, on, rand, same_error, well_conditioned

SQUARE, RECT, VEC = np.array([[1.0, 2.0], [3.0, 4.0]]), np.ones((2, 3)), np.ones(2)


# ---- norms, cond ----

VECTOR_ORDS = [None, 2, 1, 0, math.inf, -math.inf, -1, -2, 3, 0.5, "fro", "nuc"]
MATRIX_ORDS = [None, "fro", "f", "nuc", 1, -1, 2, -2, math.inf, -math.inf, 3, "foo"]


@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
def test_norm(device, dtype):
    v, m, s = rand(5, dtype), rand((3, 4), dtype, 1), rand((2, 3, 4), dtype, 2)
    vector_cases = [(v, None), (v, 0), (v, -1), (m, 1), (m, (0,)), (s, -2), (s, 5), (s, [0, 1])]
    matrix_cases = [(m, None), (m, (0, 1)), (m, (1, 0)), (s, (0, 2)), (s, (-1, -2)), (s, (2, 0)),
                    (s, (1, 1)), (s, (0, 3)), (s, None), (s, (0, 1, 2))]
    for cases, ords in ((vector_cases, VECTOR_ORDS), (matrix_cases, MATRIX_ORDS)):
        for i, (x, axis) in enumerate(cases):
            for j, ord in enumerate(ords):
                keepdims = (i + j) % 2 == 1  # each axis and each order with both
                check(lambda: LA.norm(on(x, device), ord, axis, keepdims),
                      lambda: np.linalg.norm(x, ord, axis, keepdims), device)


@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
def test_vector_and_matrix_norm(device, dtype):
    x = rand((2, 3, 4), dtype)
    t = on(x, device)
    for i, axis in enumerate((None, 0, -1, (0, 2), (2, 0, 1), (1, 1))):
        for j, ord in enumerate((2, 1, 0, math.inf, -math.inf, -1, 3, "fro")):
            keepdims = (i + j) % 2 == 1
            check(lambda: LA.vector_norm(t, axis=axis, keepdims=keepdims, ord=ord),
                  lambda: np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord), device)
    for ord in MATRIX_ORDS:
        for keepdims in (False, True):
            check(lambda: LA.matrix_norm(t, keepdims=keepdims, ord=ord),
                  lambda: np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord), device)
    check(lambda: LA.matrix_norm(on(x[0, 0], device)), lambda: np.linalg.matrix_norm(x[0, 0]),
          device)
    check(lambda: LA.vector_norm(on(x[0, 0, 0], device)),
          lambda: np.linalg.vector_norm(x[0, 0, 0]), device)


def test_norm_of_empty(device):
    for shape in ((0,), (0, 3), (3, 0), (2, 0, 0)):
        x = np.zeros(shape)
        for ord in (None, 1, 2, math.inf, -math.inf, "fro", "nuc", -1, -2, 0):
            for axis in (None, -1, (-2, -1)):
                check(lambda: LA.norm(on(x, device), ord, axis),
                      lambda: np.linalg.norm(x, ord, axis), device)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cond(device, dtype):
    good, zero = well_conditioned((2,), 4, dtype), np.zeros((4, 4), dtype)
    singular = np.array([[1, 2, 0, 0], [2, 4, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype)
    for p in (None, 1, -1, 2, -2, math.inf, -math.inf, "fro", "nuc", 3):
        svd_based = p in (None, 2, -2)
        cases = [good, np.stack([good[0], zero]), rand((3, 5), dtype)]
        if not svd_based:  # singular matrices: an inverse of NaN, a cond of inf
            cases.append(np.stack([good[0], singular, zero]))
        for x in cases:
            check(lambda: LA.cond(on(x, device), p), lambda: np.linalg.cond(x, p), device)
        if svd_based:  # the smallest singular value is rounding noise, or zero
            r = float(to_np(LA.cond(on(singular, device), p)))
            assert r <= 1e-6 if p == -2 else r >= 1e6


# ---- matrix_power, multi_dot, tensorinv, tensorsolve ----

@pytest.mark.parametrize("dtype", DTYPES + ["int8", "bool"])
def test_matrix_power(device, dtype):
    a = rand((2, 3, 3), "bool") if dtype == "bool" else well_conditioned((2,), 3, dtype)
    ta = on(a, device)  # int8's powers wrap, as NumPy's
    for n in (0, 1, 2, 3, 5, 8, -1, -2, -3, np.int64(2), True):
        check(lambda: LA.matrix_power(ta, n), lambda: np.linalg.matrix_power(a, n), device)
    assert LA.matrix_power(ta, 1) is ta  # NumPy's: a itself
    for n in (1.0, 2.5, "2"):
        same_error(lambda: LA.matrix_power(ta, n), lambda: np.linalg.matrix_power(a, n))


def test_multi_dot(device):
    shapes = [[(2, 3), (3, 4)], [(3,), (3, 4)], [(2, 3, 4), (4, 2)], [(5, 2), (2, 6), (6, 3)],
              [(2, 30), (30, 4), (4, 20)], [(4,), (4, 5), (5, 3), (3,)], [(4,), (4, 5), (5, 3)],
              [(6, 2), (2, 5), (5, 1), (1, 7), (7,)], [(1, 2), (2, 9), (9, 3), (3, 8), (8, 2)]]
    for i, sh in enumerate(shapes):
        xs = [rand(s, "float64" if i % 2 else "complex64", seed) for seed, s in enumerate(sh)]
        check(lambda: LA.multi_dot([on(x, device) for x in xs]), lambda: np.linalg.multi_dot(xs),
              device)
    xs = [rand(s, "int32", seed) for seed, s in enumerate([(2, 3), (3, 4), (4, 5)])]
    xs[1] = xs[1].tolist()  # on the tensors' device, int64 as NumPy converts it
    check(lambda: LA.multi_dot([on(xs[0], device), xs[1], on(xs[2], device)]),
          lambda: np.linalg.multi_dot(xs), device)


def test_multi_dot_out(device):
    xs = [rand(s, seed=seed) for seed, s in enumerate([(3,), (3, 2), (2, 4)])]
    out = dt.zeros((1, 4), device=device)
    got = LA.multi_dot([on(x, device) for x in xs], out=out)
    want_out = np.zeros((1, 4))
    close(got, np.linalg.multi_dot(xs, out=want_out), device)
    close(out, want_out, device)
    ys = [rand(s, seed=seed) for seed, s in enumerate([(2, 3), (3, 3), (3, 4), (4, 2)])]
    out = dt.zeros((2, 2), device=device)
    assert LA.multi_dot([on(y, device) for y in ys], out=out) is out
    close(out, np.linalg.multi_dot(ys), device)
    for o, t in [(np.zeros(4), dt.zeros(4, device=device)),
                 (np.zeros((1, 4), np.float32), dt.zeros((1, 4), dtype="float32", device=device))]:
        same_error(lambda: LA.multi_dot([on(x, device) for x in xs], out=t),
                   lambda: np.linalg.multi_dot(xs, out=o))


def test_tensorinv_tensorsolve(device):
    m = well_conditioned((), 24, "float64")
    for shape, ind in [((4, 6, 8, 3), 2), ((24, 8, 3), 1), ((2, 12, 4, 6), 2), ((4, 6, 8, 3), 1),
                       ((4, 6, 8, 3), 0)]:
        a = m.reshape(shape)
        check(lambda: LA.tensorinv(on(a, device), ind), lambda: np.linalg.tensorinv(a, ind),
              device)
    six = well_conditioned((), 6, "complex128")
    for a, b, axes in [(six.reshape(2, 3, 6), rand((2, 3)), None),
                       (six.reshape(2, 3, 2, 3), rand((2, 3), seed=1), None),
                       (six.reshape(2, 3, 3, 2), rand((3, 2), seed=2), (0,)),
                       (six.reshape(6, 2, 3), rand(6, seed=3), (0,)),
                       (np.eye(24).reshape(6, 4, 2, 3, 4), rand((6, 4)), None),
                       (rand((2, 3, 4)), rand((2, 3)), None)]:
        check(lambda: LA.tensorsolve(on(a, device), on(b, device), axes),
              lambda: np.linalg.tensorsolve(a, b, axes), device)


# ---- the array API's aliases; errors ----

def test_array_api_aliases(device):
    x, y = rand((2, 3, 4), "int32"), rand((2, 4, 3), "float32", 1)
    tx, ty = on(x, device), on(y, device)
    for offset in (0, 1, -1, 5):
        close(LA.diagonal(tx, offset=offset), np.linalg.diagonal(x, offset=offset), device)
        close(LA.trace(tx, offset=offset), np.linalg.trace(x, offset=offset), device)
    assert not LA.diagonal(tx).flags.writeable  # a read-only view, as NumPy's
    assert LA.diagonal(tx)._same_storage(tx)
    close(LA.trace(tx, dtype="float32"), np.linalg.trace(x, dtype="float32"), device)
    close(LA.matmul(tx, ty), np.linalg.matmul(x, y), device)
    close(LA.matrix_transpose(tx), np.linalg.matrix_transpose(x), device)
    close(LA.outer(tx[0, 0], ty[0, 0]), np.linalg.outer(x[0, 0], y[0, 0]), device)
    for axes in (2, 1, ([1, 2], [2, 1]), 0):
        check(lambda: LA.tensordot(tx, ty, axes=axes), lambda: np.linalg.tensordot(x, y, axes=axes),
              device)
    for axis in (-1, 1):
        z = x if axis == -1 else np.swapaxes(x, 1, 2)
        close(LA.vecdot(on(z, device), on(z, device), axis=axis),
              np.linalg.vecdot(z, z, axis=axis), device)
    c = rand((2, 3), "float64", 2)
    for axis in (-1, 0):
        u = c if axis == -1 else c.T
        close(LA.cross(on(u, device), on(u[::-1], device), axis=axis),
              np.linalg.cross(u, u[::-1], axis=axis), device)


ERRORS = {  # name -> call(la, A): A converts a NumPy array for la
    "diagonal of a vector": lambda la, A: la.diagonal(A(np.ones(3))),
    "trace of a vector": lambda la, A: la.trace(A(np.ones(3))),
    "outer of a matrix": lambda la, A: la.outer(A(np.ones((2, 2))), A(np.ones(2))),
    "cross of 2-vectors": lambda la, A: la.cross(A(np.ones(2)), A(np.ones(2))),
    "cross of 4-vectors": lambda la, A: la.cross(A(np.ones((4, 3))), A(np.ones((4, 3))), axis=0),
    "matrix_transpose of a vector": lambda la, A: la.matrix_transpose(A(np.ones(3))),
    "vecdot mismatch": lambda la, A: la.vecdot(A(np.ones(3)), A(np.ones(4))),
    "tensordot mismatch": lambda la, A: la.tensordot(A(RECT), A(RECT), axes=1),
    "norm matrix order": lambda la, A: la.norm(A(SQUARE), 3),
    "norm matrix order str": lambda la, A: la.norm(A(SQUARE), "foo"),
    "norm vector order str": lambda la, A: la.norm(A(VEC), "fro"),
    "norm vector order nuc": lambda la, A: la.norm(A(SQUARE), "nuc", axis=1),
    "norm duplicate axes": lambda la, A: la.norm(A(SQUARE), axis=(1, -1)),
    "norm three axes": lambda la, A: la.norm(A(np.ones((2, 2, 2))), axis=(0, 1, 2)),
    "norm 3-d with an order": lambda la, A: la.norm(A(np.ones((2, 2, 2))), 1),
    "norm axis out of range": lambda la, A: la.norm(A(SQUARE), 1, axis=(0, 2)),
    "norm axis type": lambda la, A: la.norm(A(SQUARE), axis=[0, 1]),
    "matrix_norm of a vector": lambda la, A: la.matrix_norm(A(VEC)),
    "matrix_norm order": lambda la, A: la.matrix_norm(A(SQUARE), ord=0),
    "vector_norm duplicate axes": lambda la, A: la.vector_norm(A(SQUARE), axis=(0, 0)),
    "vector_norm order": lambda la, A: la.vector_norm(A(SQUARE), ord="nuc"),
    "cond of an empty matrix": lambda la, A: la.cond(A(np.ones((0, 0)))),
    "cond of an empty stack": lambda la, A: la.cond(A(np.ones((2, 3, 0))), 1),
    "cond order": lambda la, A: la.cond(A(SQUARE), "foo"),
    "matrix_power exponent": lambda la, A: la.matrix_power(A(SQUARE), 1.5),
    "multi_dot one array": lambda la, A: la.multi_dot([A(SQUARE)]),
    "multi_dot mismatch": lambda la, A: la.multi_dot([A(SQUARE), A(RECT), A(RECT)]),
    "tensorinv ind": lambda la, A: la.tensorinv(A(SQUARE), 0),
    "tensorsolve shapes": lambda la, A: la.tensorsolve(A(np.ones((2, 3, 4))), A(np.ones((2, 3)))),
    "tensorsolve axes": lambda la, A: la.tensorsolve(A(np.ones((2, 2, 4))), A(np.ones((2, 2))),
                                                     axes=(-1,)),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors(device, case):
    call = ERRORS[case]
    same_error(lambda: call(LA, lambda a: on(a, device)), lambda: call(np.linalg, np.asarray))
