"""The CPU emulation of cuBLAS (csrc/emu/emu_blas.cpp and emu_blas_lu.cpp,
csrc/emu/include/cublas_v2.h).

Builds tests/emu_runtime/emu_blas_test.cpp, emu_blas_values.cpp and
emu_blas_lu_test.cpp with g++ (skipped without it) together with the
emulated runtime and the emulated cuBLAS, and runs each of its cases in its own process with the environment
the case needs; then once more built with AddressSanitizer (the emulated
device memory has poisoned redzones there, so a product that reads or
writes past an operand is a report).  Set DEVTENSOR_EMU_SANITIZE=address or
=thread to build the first program under that sanitizer too.

Where the CUDA toolkit's headers are installed, the declarations of our
cublas_v2.h and library_types.h are compared with the toolkit's: every
numeric value, every prototype, every _v2 macro.  Our headers must also
compile as C11 and C++17.
"""
import os
import re
import signal
import subprocess

import pytest

from emu_library import EMU, INCLUDE, ROOT, TOOLKIT, assert_passes, build, run, toolkit_or_skip
from emu_library import compiler as find_tool
from emu_library import ours as our_header

SOURCES = [os.path.join(EMU, name) for name in
           ("emu_runtime.cpp", "emu_blas.cpp", "emu_blas_lu.cpp", "emu_solver.cpp", "emu_dense.cpp")]
SOURCES += [os.path.join(ROOT, "tests", "emu_runtime", name) for name in
            ("emu_blas_test.cpp", "emu_blas_values.cpp", "emu_blas_lu_test.cpp")]
HEADERS = ["library_types.h", "cublas_v2.h"]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory, "emu_blas_test", SOURCES, os.environ.get("DEVTENSOR_EMU_SANITIZE"))


@pytest.fixture(scope="module")
def asan_program(tmp_path_factory):
    if os.environ.get("DEVTENSOR_EMU_SANITIZE") == "address":
        pytest.skip("the program under test is already built with AddressSanitizer")
    return build(tmp_path_factory, "emu_blas_test_asan", SOURCES, "address")


TWO = {"DEVTENSOR_EMULATE_CUDA": "2"}
CASES = {
    "tf32": {},
    "handles": {},
    "no_devices": {"DEVTENSOR_EMULATE_CUDA": "0"},
    "strings": {},
    "invalid_values": {},
    "not_supported": {},
    "quick_returns": {},
    "extents": {},
    "workspace": {},
    "stream_order": {"DEVTENSOR_EMULATE_DELAY_US": "200000"},
    "stream_gate": {},
    "destroy_synchronises": {},
    "enqueue": TWO,
    "sticky": TWO,
    "devices": TWO,
    "getrf_batched": {},
    "getrs_batched": {},
    "lu_batched_arguments": {},
    "lu_batched_fault": {},
    "getrs_batched_bad_pivot": {},
}
COMBOS = ["r16f_r16f_32f", "r16f_r32f_32f", "r16f_r16f_32f_pedantic", "r16bf_r16bf_32f", "r16bf_r32f_32f",
          "r32f_32f", "r32f_32f_pedantic", "r32f_32f_fast_tf32", "r64f_64f", "r64f_64f_pedantic", "c32f_32f",
          "c32f_32f_pedantic", "c32f_32f_fast_tf32", "c64f_64f", "c64f_64f_pedantic"]
CASES.update({"gemm_" + c: {} for c in COMBOS})


def test_every_case_is_listed(program):
    listed = subprocess.run([program], capture_output=True, text=True).stdout.split()
    assert sorted(listed) == sorted(list(CASES) + ["host_deref_after_gemm"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_case(program, case):
    assert_passes(program, case, CASES[case])


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_under_asan(asan_program, case):
    assert_passes(asan_program, case, CASES[case])


def test_no_device_from_a_bad_configuration(program):
    assert_passes(program, "no_devices", {"DEVTENSOR_EMULATE_CUDA": "abc"})


def test_stream_order_in_check_mode(program):
    """The product is queued, and a missing synchronisation shows, whether
    or not protection keys guard device memory."""
    res = run(program, "stream_order", DEVTENSOR_EMULATE_DELAY_US="200000", DEVTENSOR_EMULATE_CUDA_PROTECT="check")
    assert res.returncode == 0 and "stale" in res.stdout, res.stdout + res.stderr


def test_host_still_cannot_read_device_memory_after_a_product(program):
    """Planted fault: the worker that ran the product may touch device
    memory; the host thread that asked for it still may not."""
    res = run(program, "host_deref_after_gemm")
    if "protected 1" not in res.stdout:
        pytest.skip("no protection keys here: device memory is guarded by the API checks only")
    if os.environ.get("DEVTENSOR_EMU_SANITIZE"):  # the sanitizer reports the SEGV and exits
        assert res.returncode != 0 and "SEGV" in res.stderr, res.stdout + res.stderr
    else:
        assert res.returncode == -signal.SIGSEGV, res.stdout + res.stderr
    assert "without a fault" not in res.stdout
    checked = run(program, "host_deref_after_gemm", DEVTENSOR_EMULATE_CUDA_PROTECT="check")
    assert checked.returncode == 0 and "without a fault" in checked.stdout, checked.stdout + checked.stderr


# ---- the headers ----

@pytest.mark.parametrize("lang, compiler, std", [("c", "gcc", "-std=c11"), ("c++", "g++", "-std=c++17")])
def test_headers_compile(tmp_path, lang, compiler, std):
    src = tmp_path / ("use." + ("c" if lang == "c" else "cpp"))
    src.write_text("#include <cublas_v2.h>\n#include <library_types.h>\n"
                   "int f(void) { cublasHandle_t h; cudaDataType_t t = CUDA_R_16BF; cudaDataType u = t;\n"
                   "  return (int)u + (int)cublasCreate(&h) + cublasGetStatusString(CUBLAS_STATUS_SUCCESS)[0]; }\n")
    res = subprocess.run([find_tool(compiler), std, "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
                          "-I" + INCLUDE, str(src)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_values_match_the_toolkit(tmp_path):
    """Every enumerator our headers declare has the toolkit's value."""
    gxx = toolkit_or_skip("cublas_v2.h")
    ours = {}
    for name in HEADERS:
        for ident, value in re.findall(r"^\s*(CU\w+)\s*=\s*(-?\d+)", our_header(name), re.M):
            ours[ident] = int(value)
    assert len(ours) > 60
    src = tmp_path / "values.cpp"
    src.write_text("#include <cstdio>\n#include <cublas_v2.h>\n#include <library_types.h>\nint main() {\n" +
                   "".join(f'    std::printf("{k} %d\\n", (int){k});\n' for k in sorted(ours)) + "}\n")
    exe = str(tmp_path / "values")
    res = subprocess.run([gxx, "-std=c++17", "-I" + TOOLKIT, str(src), "-o", exe], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    theirs = dict(line.split() for line in subprocess.run([exe], capture_output=True, text=True,
                                                           check=True).stdout.splitlines())
    assert {k: v for k, v in ours.items() if int(theirs[k]) != v} == {}


def test_prototypes_match_the_toolkit(tmp_path):
    """Our declarations, repeated after the toolkit's inside extern "C", must
    be the same functions: a C++ compiler rejects two C functions of one
    name with different types."""
    gxx = toolkit_or_skip("cublas_v2.h")
    decls = re.findall(r"^(?:cublasStatus_t|const char \*)\s*cublas\w+\([^;]*\);", our_header("cublas_v2.h"), re.M)
    assert len(decls) == 17
    src = tmp_path / "protos.cpp"
    src.write_text('#include <cublas_v2.h>\nextern "C" {\n' + "\n".join(decls) + "\n}\n")
    res = subprocess.run([gxx, "-std=c++17", "-fsyntax-only", "-I" + TOOLKIT, str(src)], capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stderr
    # and a wrong one is caught (the check can fail)
    src.write_text('#include <cublas_v2.h>\nextern "C" {\ncublasStatus_t cublasSetStream_v2(cublasHandle_t, int);\n}\n')
    res = subprocess.run([gxx, "-std=c++17", "-fsyntax-only", "-I" + TOOLKIT, str(src)], capture_output=True,
                         text=True)
    assert res.returncode != 0


def test_v2_macros_match_the_toolkit():
    toolkit_or_skip("cublas_v2.h")
    with open(os.path.join(TOOLKIT, "cublas_v2.h")) as f:
        theirs = set(re.findall(r"^#define (cublas\w+) (cublas\w+_v2)\s*$", f.read(), re.M))
    ours = set(re.findall(r"^#define (cublas\w+) (cublas\w+_v2)\s*$", our_header("cublas_v2.h"), re.M))
    assert len(ours) == 5 and ours <= theirs
