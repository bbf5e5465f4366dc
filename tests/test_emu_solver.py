"""The CPU emulation of cuSOLVER's dense API (csrc/emu/emu_solver.cpp,
emu_solver_routines.cpp, emu_dense.cpp; csrc/emu/include/cusolverDn.h,
cusolver_common.h, cuComplex.h).

Builds tests/emu_runtime/emu_solver_test.cpp, emu_solver_values.cpp and
emu_solver_oracle.cpp with g++ (skipped without it) together with the
emulated runtime, the emulated
cuSOLVER and the emulated cuBLAS (one case uses both), and runs each of its
cases in its own process with the environment the case needs; then once
more built with AddressSanitizer (the emulated device memory has poisoned
redzones there, so a routine that reads or writes past an operand is a
report).  Set DEVTENSOR_EMU_SANITIZE=address or =thread to build the first
program under that sanitizer too.  NumPy's LAPACK judges the oracle cases'
output: geqrf's reflectors and tau, getrf's pivots and factors, potrf's
factor, the eigenvalues and the singular values.

Where the CUDA toolkit's headers are installed, our declarations are
compared with the toolkit's: every numeric value, every prototype, every
typedef.  Our headers must also compile as C11 and C++17, alone and
together with cublas_v2.h.
"""
import os
import re
import subprocess

import pytest

from emu_library import EMU, INCLUDE, ROOT, TOOLKIT, assert_passes, build, run, toolkit_or_skip
from emu_library import compiler as find_tool
from emu_library import ours as our_header

SOURCES = [os.path.join(EMU, name) for name in
           ("emu_runtime.cpp", "emu_solver.cpp", "emu_solver_routines.cpp", "emu_dense.cpp", "emu_blas.cpp")]
SOURCES += [os.path.join(ROOT, "tests", "emu_runtime", name) for name in
            ("emu_solver_test.cpp", "emu_solver_values.cpp", "emu_solver_oracle.cpp")]
HEADERS = ["cusolver_common.h", "cusolverDn.h", "cuComplex.h"]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory, "emu_solver_test", SOURCES, os.environ.get("DEVTENSOR_EMU_SANITIZE"))


@pytest.fixture(scope="module")
def asan_program(tmp_path_factory):
    if os.environ.get("DEVTENSOR_EMU_SANITIZE") == "address":
        pytest.skip("the program under test is already built with AddressSanitizer")
    return build(tmp_path_factory, "emu_solver_test_asan", SOURCES, "address")


TWO = {"DEVTENSOR_EMULATE_CUDA": "2"}
CASES = {
    "handles": {},
    "no_devices": {"DEVTENSOR_EMULATE_CUDA": "0"},
    "buffer_sizes": {},
    "invalid_values": {},
    "extents": {},
    "quick_returns": {},
    "workspace": {},
    "stream_order": {"DEVTENSOR_EMULATE_DELAY_US": "200000"},
    "stream_gate": {},
    "destroy_does_not_wait": {},
    "sticky": TWO,
    "bad_pivot": {},
    "devices": TWO,
    "with_cublas": {},
    "potrf_batched": {},
    "potrf_batched_fault": {},
    "syevj_batched": {},
    "gesvdj_batched": {},
    "geev_arguments": {},
}
ROUTINES = ["getrf", "getrs", "potrf", "qr", "syevd", "gesvd", "geev"]
CASES.update({f"{r}_{t}": {} for r in ROUTINES for t in "sdcz"})


ORACLES = [f"oracle_{t}" for t in "sdcz"]


def test_every_case_is_listed(program):
    listed = subprocess.run([program], capture_output=True, text=True).stdout.split()
    assert sorted(listed) == sorted(list(CASES) + ORACLES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case(program, case):
    assert_passes(program, case, CASES[case])


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_under_asan(asan_program, case):
    assert_passes(asan_program, case, CASES[case])


def test_no_device_from_a_bad_configuration(program):
    assert_passes(program, "no_devices", {"DEVTENSOR_EMULATE_CUDA": "abc"})


def test_stream_order_in_check_mode(program):
    """The work is queued, and a missing synchronisation shows, whether or
    not protection keys guard device memory."""
    res = run(program, "stream_order", DEVTENSOR_EMULATE_DELAY_US="200000", DEVTENSOR_EMULATE_CUDA_PROTECT="check")
    assert res.returncode == 0 and "stale" in res.stdout, res.stdout + res.stderr


# ---- NumPy's LAPACK as the oracle ----

def _arrays(text):
    """{name: complex128 array} from the oracle cases' lines."""
    import numpy as np
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3 or not parts[1].isdigit():
            continue
        rows, cols = int(parts[1]), int(parts[2])
        nums = [float.fromhex(x) if "0x" in x or "inf" in x or "nan" in x else float(x) for x in parts[3:]]
        values = np.array(nums[0::2]) + 1j * np.array(nums[1::2])
        out[parts[0]] = values.reshape(cols, rows).T  # column-major
    return out


def _lu(a):
    """Partial pivoting as LAPACK's getf2: the first largest |re| + |im|."""
    import numpy as np
    a = a.copy()
    n = a.shape[0]
    piv = []
    for j in range(n):
        size = np.abs(a[j:, j].real) + np.abs(a[j:, j].imag)
        p = j + int(np.argmax(size))  # argmax: the first of equals
        piv.append(p + 1)
        a[[j, p]] = a[[p, j]]
        a[j + 1:, j] /= a[j, j]
        a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return a, piv


@pytest.mark.parametrize("t", "sdcz")
def test_results_agree_with_numpy_lapack(program, t):
    np = pytest.importorskip("numpy")
    res = run(program, "oracle_" + t)
    assert res.returncode == 0 and ("PASS oracle_" + t) in res.stdout, res.stdout + res.stderr
    got = _arrays(res.stdout)
    eps = 2.0 ** -24 if t in "sc" else 2.0 ** -53
    real = t in "sd"

    def close(x, y, scale, what):
        err = np.max(np.abs(np.asarray(x) - np.asarray(y))) if np.size(x) else 0.0
        assert err <= 200 * eps * scale, f"{what}: {err} > {200 * eps * scale}"

    a = got["geqrf_in"]
    h, tau = np.linalg.qr(a.real if real else a, mode="raw")  # LAPACK's geqrf
    close(got["geqrf_a"], h.T, np.abs(a).max() * a.shape[0], "geqrf's R and reflectors")
    close(got["geqrf_tau"][:, 0], tau, 2, "geqrf's tau")

    a = got["getrf_in"]
    lu, piv = _lu(a)
    assert [int(p.real) for p in got["getrf_ipiv"][:, 0]] == piv
    close(got["getrf_lu"], lu, np.abs(lu).max() * a.shape[0], "getrf's L and U")

    a = got["potrf_in"]
    full = np.tril(a) + np.tril(a, -1).conj().T
    close(np.tril(got["potrf_l"]), np.linalg.cholesky(full), np.abs(full).max(), "potrf's L")

    a = got["syevd_in"]
    full = np.tril(a) + np.tril(a, -1).conj().T
    close(got["syevd_w"][:, 0], np.linalg.eigvalsh(full), np.abs(full).max() * a.shape[0], "eigenvalues")

    a = got["gesvd_in"]
    s = np.linalg.svd(a, compute_uv=False)
    close(got["gesvd_s"][:, 0], s, s[0] * a.shape[0], "singular values")

    a = got["geev_in"]
    w = np.sort_complex(np.linalg.eigvals(a.real if real else a))
    mine = got["geev_w"][:, 0]
    close(np.sort_complex(mine), w, np.abs(a).max() * a.shape[0], "general eigenvalues")
    if real:  # LAPACK's layout: exact conjugate pairs, the positive imaginary part first
        pairs = np.flatnonzero(mine.imag > 0)
        assert len(pairs) * 2 == np.count_nonzero(mine.imag) and len(pairs) > 0
        assert all(mine[j + 1] == np.conj(mine[j]) for j in pairs)


# ---- the headers ----

USE = """#include <cusolverDn.h>
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cusolver_common.h>
#include <library_types.h>
int f(void) {
  cusolverDnHandle_t h; cublasHandle_t b; cuComplex c = {1, 2}; cuDoubleComplex z = {1, 2};
  cuFloatComplex d = c; cublasFillMode_t fill = CUBLAS_FILL_MODE_FULL; cublasOperation_t op = CUBLAS_OP_C;
  cusolverEigMode_t mode = CUSOLVER_EIG_MODE_VECTOR; cusolverStatus_t st = CUSOLVER_STATUS_INVALID_WORKSPACE;
  int lwork = 0; signed char job = 'A';
  (void)d; (void)z; (void)job;
  return (int)cusolverDnCreate(&h) + (int)cublasCreate(&b) + (int)fill + (int)op + (int)mode + (int)st +
         (int)cusolverDnCgesvd_bufferSize(h, 3, 2, &lwork) + (int)sizeof(cuDoubleComplex);
}
"""


@pytest.mark.parametrize("lang, compiler, std", [("c", "gcc", "-std=c11"), ("c++", "g++", "-std=c++17")])
@pytest.mark.parametrize("first", ["cusolverDn.h", "cublas_v2.h"])
def test_headers_compile(tmp_path, lang, compiler, std, first):
    """Alone, and in one translation unit with cublas_v2.h in either order
    (one definition of cublasOperation_t and cublasFillMode_t)."""
    src = tmp_path / ("use." + ("c" if lang == "c" else "cpp"))
    src.write_text(f"#include <{first}>\n" + USE)
    res = subprocess.run([find_tool(compiler), std, "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
                          "-I" + INCLUDE, str(src)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    for name in HEADERS:  # each alone
        src.write_text(f"#include <{name}>\n")
        res = subprocess.run([find_tool(compiler), std, "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
                              "-I" + INCLUDE, str(src)], capture_output=True, text=True)
        assert res.returncode == 0, name + ": " + res.stderr


def test_values_match_the_toolkit(tmp_path):
    """Every enumerator our cuSOLVER headers declare (and cublasFillMode_t's,
    declared in cublas_v2.h for them) has the toolkit's value."""
    gxx = toolkit_or_skip("cusolverDn.h")
    ours = {}
    for name in HEADERS + ["cublas_v2.h"]:
        for ident, value in re.findall(r"^\s*(CU\w+)\s*=\s*(-?\d+)", our_header(name), re.M):
            ours[ident] = int(value)
    assert {"CUSOLVER_STATUS_INVALID_WORKSPACE", "CUSOLVER_EIG_MODE_VECTOR", "CUBLAS_FILL_MODE_FULL"} <= set(ours)
    assert len([k for k in ours if k.startswith("CUSOLVER_STATUS_")]) == 25  # all of them
    src = tmp_path / "values.cpp"
    src.write_text("#include <cstdio>\n#include <cusolverDn.h>\nint main() {\n" +
                   "".join(f'    std::printf("{k} %d\\n", (int){k});\n' for k in sorted(ours)) + "}\n")
    exe = str(tmp_path / "values")
    res = subprocess.run([gxx, "-std=c++17", "-I" + TOOLKIT, str(src), "-o", exe], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    theirs = dict(line.split() for line in subprocess.run([exe], capture_output=True, text=True,
                                                           check=True).stdout.splitlines())
    assert {k: v for k, v in ours.items() if int(theirs[k]) != v} == {}
    # and every cusolverStatus_t value of the toolkit is ours
    with open(os.path.join(TOOLKIT, "cusolver_common.h")) as f:
        status = re.search(r"typedef\s+enum\s*\{([^}]*)\}\s*cusolverStatus_t", f.read()).group(1)
    assert set(re.findall(r"(CUSOLVER_STATUS_\w+)\s*=", status)) == {k for k in ours if k.startswith("CUSOLVER_ST")}


def _declarations():
    return re.findall(r"^cusolverStatus_t\s+cusolverDn\w+\([^;]*\);", our_header("cusolverDn.h"), re.M)


def test_declares_exactly_the_calls_made():
    """The helpers and 18 calls per type (bufferSize and routine for potrf,
    getrf, geqrf, orgqr/ungqr, syevd/heevd, syevjBatched/heevjBatched,
    gesvd, gesvdjBatched; getrs; potrfBatched) with the syevjInfo and
    gesvdjInfo objects, and of the generic API Xgeev and its bufferSize,
    with the params object."""
    names = sorted(re.match(r"cusolverStatus_t\s+(\w+)", d).group(1) for d in _declarations())
    want = ["cusolverDnCreate", "cusolverDnDestroy", "cusolverDnGetStream", "cusolverDnSetStream",
            "cusolverDnCreateParams", "cusolverDnDestroyParams", "cusolverDnXgeev", "cusolverDnXgeev_bufferSize",
            "cusolverDnCreateSyevjInfo", "cusolverDnDestroySyevjInfo", "cusolverDnCreateGesvdjInfo",
            "cusolverDnDestroyGesvdjInfo"]
    for t in "SDCZ":
        qr, ev = ("orgqr", "syevd") if t in "SD" else ("ungqr", "heevd")
        for r in ("potrf", "getrf", "geqrf", qr, ev, ev[:-1] + "jBatched", "gesvd", "gesvdjBatched"):
            want += [f"cusolverDn{t}{r}", f"cusolverDn{t}{r}_bufferSize"]
        want += [f"cusolverDn{t}getrs", f"cusolverDn{t}potrfBatched"]
    assert names == sorted(want)


def test_prototypes_match_the_toolkit(tmp_path):
    """Our declarations, repeated after the toolkit's inside extern "C", must
    be the same functions: a C++ compiler rejects two C functions of one
    name with different types."""
    gxx = toolkit_or_skip("cusolverDn.h")
    decls = _declarations()
    assert len(decls) == 84
    src = tmp_path / "protos.cpp"
    src.write_text('#include <cusolverDn.h>\nextern "C" {\n' + "\n".join(decls) + "\n}\n")
    res = subprocess.run([gxx, "-std=c++17", "-fsyntax-only", "-I" + TOOLKIT, str(src)], capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stderr
    # and a wrong one is caught (the check can fail)
    src.write_text('#include <cusolverDn.h>\nextern "C" {\ncusolverStatus_t cusolverDnDgesvd_bufferSize('
                   'cusolverDnHandle_t, int, int, long *);\n}\n')
    res = subprocess.run([gxx, "-std=c++17", "-fsyntax-only", "-I" + TOOLKIT, str(src)], capture_output=True,
                         text=True)
    assert res.returncode != 0


def test_typedefs_match_the_toolkit(tmp_path):
    """Our typedefs, repeated after the toolkit's, name the same types (C++
    allows a typedef again only to the same type), and the complex types
    have the toolkit's size and alignment."""
    gxx = toolkit_or_skip("cusolverDn.h")
    typedefs = re.findall(r"^typedef (?:float2|double2|cuFloatComplex) \w+;", our_header("cuComplex.h"), re.M)
    typedefs += re.findall(r"^typedef struct (?:cusolverDnContext \*cusolverDnHandle_t|cusolverDnParams \*cusolverDnParams_t);",
                           our_header("cusolverDn.h"), re.M)
    assert len(typedefs) == 5
    checks = "".join(f"static_assert({e}, \"{e}\");\n" for e in (
        "sizeof(cuComplex) == 8", "alignof(cuComplex) == 8", "sizeof(cuDoubleComplex) == 16",
        "alignof(cuDoubleComplex) == 16", "offsetof(cuComplex, y) == 4", "offsetof(cuDoubleComplex, y) == 8"))
    src = tmp_path / "typedefs.cpp"
    for include in (TOOLKIT, INCLUDE):  # the same facts hold for both
        src.write_text("#include <cstddef>\n#include <cusolverDn.h>\n" +
                       ("\n".join(typedefs) + "\n" if include == TOOLKIT else "") + checks)
        res = subprocess.run([gxx, "-std=c++17", "-fsyntax-only", "-I" + include, str(src)], capture_output=True,
                             text=True)
        assert res.returncode == 0, include + ": " + res.stderr
