"""The CPU emulation of the CUDA runtime (csrc/emu/emu_runtime.cpp).

Builds tests/emu_runtime/emu_runtime_test.cpp with g++ (skipped without
it) together with the runtime, and runs each of its cases in its own
process with the environment the case needs.  The kernels there are a test
stub of the kernel half's interface.  Set DEVTENSOR_EMU_SANITIZE=address
or =thread to build and run everything under that sanitizer.
"""
import os
import signal
import subprocess

import pytest

from emu_library import ROOT, assert_passes, build, run

SOURCES = [os.path.join(ROOT, "csrc", "emu", "emu_runtime.cpp"),
           os.path.join(ROOT, "tests", "emu_runtime", "emu_runtime_test.cpp")]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory, "emu_runtime_test", SOURCES, os.environ.get("DEVTENSOR_EMU_SANITIZE"))


@pytest.fixture(scope="module")
def asan_program(tmp_path_factory):
    return build(tmp_path_factory, "emu_runtime_test_asan", SOURCES, "address")


TWO = {"DEVTENSOR_EMULATE_CUDA": "2"}
CASES = {
    "devices": TWO,
    "bad_count": {"DEVTENSOR_EMULATE_CUDA": "abc"},
    "zero_devices": {"DEVTENSOR_EMULATE_CUDA": "0"},
    "budget": {"DEVTENSOR_EMULATE_CUDA": "2", "DEVTENSOR_EMULATE_CUDA_MEMORY": "1M,2M"},
    "kinds": {},
    "d2h_unsynchronised": {"DEVTENSOR_EMULATE_DELAY_US": "200000"},
    "d2h_synchronised": {"DEVTENSOR_EMULATE_DELAY_US": "200000"},
    "worker_access": {},
    "stream_order": {},
    "legacy_stream": {},
    "events": TWO,
    "stream_handles": {},
    "peer_all": {"DEVTENSOR_EMULATE_CUDA": "3"},
    "peer_none": {"DEVTENSOR_EMULATE_CUDA": "2", "DEVTENSOR_EMULATE_CUDA_PEER": "none"},
    "peer_pairs": {"DEVTENSOR_EMULATE_CUDA": "3", "DEVTENSOR_EMULATE_CUDA_PEER": "0-1,2-0"},
    "bad_peer": {"DEVTENSOR_EMULATE_CUDA": "2", "DEVTENSOR_EMULATE_CUDA_PEER": "0-5"},
    "pinned": {"DEVTENSOR_EMULATE_CUDA_PINNED": "1M"},
    "kernels": TWO,
    "strings": {},
    "last_error_threads": {},
    "poison": {"DEVTENSOR_EMULATE_CUDA_POISON": "1"},
    "many_streams": {"DEVTENSOR_EMULATE_DELAY_US": "1000"},
}


def test_every_case_is_listed(program):
    listed = subprocess.run([program], capture_output=True, text=True).stdout.split()
    assert sorted(listed) == sorted(list(CASES) + ["protected", "host_deref", "no_bounds_check",
                                                   "kernel_after_free"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_case(program, case):
    assert_passes(program, case, CASES[case])


@pytest.mark.parametrize("protect", ["auto", "check"])
def test_unsynchronised_read_is_stale_in_every_mode(program, protect):
    res = run(program, "d2h_unsynchronised", DEVTENSOR_EMULATE_DELAY_US="200000",
              DEVTENSOR_EMULATE_CUDA_PROTECT=protect)
    assert res.returncode == 0 and "stale" in res.stdout, res.stdout + res.stderr


def test_host_dereferencing_device_memory_faults(program):
    """Planted fault: host code reading a device pointer.  With protection
    keys the process dies of SIGSEGV; without them only the API checks
    (the kinds case) catch misuse."""
    prot = run(program, "protected")
    if "protected 1" not in prot.stdout:
        pytest.skip("no protection keys here: device memory is guarded by the API checks only")
    res = run(program, "host_deref")
    if os.environ.get("DEVTENSOR_EMU_SANITIZE"):  # the sanitizer reports the SEGV and exits
        assert res.returncode != 0 and "SEGV" in res.stderr, res.stdout + res.stderr
    else:
        assert res.returncode == -signal.SIGSEGV, res.stdout + res.stderr
    assert "without a fault" not in res.stdout


def test_check_mode_does_not_fault(program):
    res = run(program, "host_deref", DEVTENSOR_EMULATE_CUDA_PROTECT="check")
    assert res.returncode == 0 and "without a fault" in res.stdout, res.stdout + res.stderr


@pytest.mark.parametrize("case, words", [
    ("no_bounds_check", "past its allocation"),
    ("kernel_after_free", "freed device memory"),
])
def test_kernel_memory_errors_are_reported_by_asan(program, asan_program, case, words):
    """Planted faults: a kernel without its bounds check, and a kernel on
    freed memory.  Built with AddressSanitizer the emulated device memory
    has poisoned redzones and freed blocks (Note [Device memory under
    AddressSanitizer]): a report naming the kernel, on the stream worker
    that ran it.  Without a sanitizer both run unseen, as on a GPU without
    compute-sanitizer: the test shows that too, so that it cannot pass by
    reporting everything."""
    res = run(asan_program, case, ASAN_OPTIONS="detect_leaks=0")
    assert res.returncode != 0, res.stdout + res.stderr
    assert "AddressSanitizer: use-after-poison" in res.stderr, res.stderr[-3000:]
    kernel = "k_fill_unchecked" if case == "no_bounds_check" else "k_fill"
    assert kernel in res.stderr, res.stderr[-3000:]
    assert words not in res.stdout
    if not os.environ.get("DEVTENSOR_EMU_SANITIZE"):
        plain = run(program, case)
        assert plain.returncode == 0 and words in plain.stdout, plain.stdout + plain.stderr
