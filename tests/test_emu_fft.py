"""The CPU emulation of cuFFT (csrc/emu/emu_fft.cpp, csrc/emu/include/cufft.h).

Builds tests/emu_runtime/emu_fft_test.cpp with g++ (skipped without it)
together with the emulated runtime and the emulated cuFFT, and runs each of
its cases in its own process with the environment the case needs; then once
more built with AddressSanitizer (the emulated device memory has poisoned
redzones there, so a transform that reads or writes past an operand is a
report).  Where the CUDA toolkit's headers are installed, our cufft.h's
values and prototypes are compared with the toolkit's.  The transforms'
values through devtensor are tests/test_fft.py's.
"""
import os
import re

import pytest

from emu_library import (EMU, TESTS, assert_passes, build, cases_listed, compiles_alone, enumerators,
                         ours, run, same_prototypes, toolkit_values)

SOURCES = [os.path.join(EMU, "emu_runtime.cpp"), os.path.join(EMU, "emu_fft.cpp"),
           os.path.join(TESTS, "emu_fft_test.cpp")]
TWO = {"DEVTENSOR_EMULATE_CUDA": "2"}
CASES = {
    "plans": {},
    "no_devices": {"DEVTENSOR_EMULATE_CUDA": "0"},
    "exec_checks": {},
    "auto_allocation": {},
    "stream_order": {"DEVTENSOR_EMULATE_DELAY_US": "200000"},
    "devices": dict(TWO, DEVTENSOR_EMULATE_CUDA_PEER="none"),
    "values_c2c": {},
    "values_real": {},
}


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory, "emu_fft_test", SOURCES, os.environ.get("DEVTENSOR_EMU_SANITIZE"))


@pytest.fixture(scope="module")
def asan_program(tmp_path_factory):
    if os.environ.get("DEVTENSOR_EMU_SANITIZE") == "address":
        pytest.skip("the program under test is already built with AddressSanitizer")
    return build(tmp_path_factory, "emu_fft_test_asan", SOURCES, "address")


def test_every_case_is_listed(program):
    assert sorted(cases_listed(program)) == sorted(CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case(program, case):
    assert_passes(program, case, CASES[case])


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_under_asan(asan_program, case):
    assert_passes(asan_program, case, CASES[case])


def test_stream_order_shows_a_missing_synchronisation(program):
    """The transform is queued on the plan's stream, whether or not
    protection keys guard device memory."""
    for protect in ("auto", "check"):
        res = run(program, "stream_order", DEVTENSOR_EMULATE_DELAY_US="200000",
                  DEVTENSOR_EMULATE_CUDA_PROTECT=protect)
        assert res.returncode == 0 and "stale" in res.stdout, res.stdout + res.stderr


@pytest.mark.parametrize("lang", ["c", "c++"])
def test_header_compiles_alone(tmp_path, lang):
    ok, why = compiles_alone(tmp_path, "cufft.h", lang)
    assert ok, why


def test_values_match_the_toolkit(tmp_path):
    ours_ = enumerators(ours("cufft.h"))
    assert {"CUFFT_SUCCESS", "CUFFT_Z2D", "CUFFT_FORWARD", "CUFFT_INVERSE", "CUFFT_VER_MAJOR"} <= set(ours_)
    theirs = toolkit_values(tmp_path, "cufft.h", ours_)
    assert {k: v for k, v in ours_.items() if theirs[k] != v} == {}


def _declarations():
    return re.findall(r"^cufftResult\s+cufft\w+\([^;]*\);", ours("cufft.h"), re.M)


def test_declares_exactly_the_calls_made():
    names = sorted(re.match(r"cufftResult\s+(\w+)", d).group(1) for d in _declarations())
    with open(os.path.join(os.path.dirname(EMU), "cuda", "cuda_fft.c")) as f:
        called = set(re.findall(r"X\(\w+, (cufft\w+)\)", f.read()))
    assert names == sorted(called)


def test_prototypes_match_the_toolkit(tmp_path):
    decls = _declarations()
    assert len(decls) == 12
    ok, why = same_prototypes(tmp_path, "cufft.h", decls)
    assert ok, why
    # and a wrong one is caught (the check can fail)
    ok, _ = same_prototypes(tmp_path, "cufft.h", ["cufftResult cufftSetWorkArea(cufftHandle, int *);"])
    assert not ok
