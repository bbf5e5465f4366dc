"""tests/test_emu_kernels.py - CUDA kernels run on the CPU (csrc/emu,
DESIGN.md section 7).

The kernels of tests/emu/emu_kernels.cu are compiled as host C++ through
csrc/emu/emu_device.h, with the fiber scheduler, into a driver
(tests/emu/emu_driver.cpp) that runs one case per process and prints PASS
or FAIL; each case runs here in a subprocess, so a crash fails one test and
nothing else.  Three builds: the x86-64 context switch (asm), the ucontext
fallback, and AddressSanitizer (the x86-64 switch, each switch told to
ASan).  The thread orders
CI runs are forward and a seeded random one; the missing-barrier test runs
all three kinds.

Also: each real csrc/cuda/cuda_loops*.cu compiles with g++ and the header.

Skipped, with the reason, without g++ or off Linux.  No CUDA toolkit is
needed: csrc/emu/include declares what the kernels use.
"""
import os
import platform
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EMU = os.path.join(ROOT, "csrc", "emu")
TESTS = os.path.join(ROOT, "tests", "emu")
GXX = shutil.which("g++")
ORDERS = ["forward", "random:20240601"]  # what CI runs
ALL_ORDERS = ["forward", "reverse", "random:1", "random:2", "random:3", ORDERS[1]]


CUDA_INC = os.path.join(EMU, "include")  # our own runtime headers: no CUDA toolkit needed
pytestmark = [
    pytest.mark.skipif(GXX is None, reason="g++ not found: the emulated kernels are built with it"),
    pytest.mark.skipif(platform.system() != "Linux", reason="the fiber scheduler is for Linux"),
]

FLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Wno-unknown-pragmas"]
VARIANTS = {
    "asm": ["-O2"],
    "ucontext": ["-O2", "-DDT_EMU_UCONTEXT"],
    "asan": ["-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer"],
}
# (source, compiled as a .cu through the header?)
RUNTIME = [
    (os.path.join(EMU, "emu_fiber.cpp"), False),
    (os.path.join(EMU, "emu_launch.cpp"), False),
    (os.path.join(TESTS, "emu_runtime_stub.cpp"), False),
]
DRIVER = [
    (os.path.join(TESTS, "emu_driver.cpp"), False),
    (os.path.join(TESTS, "emu_kernels.cu"), True),
]
REAL = [
    (os.path.join(TESTS, "emu_real_kernels.cu"), True),
    (os.path.join(ROOT, "csrc", "cuda", "cuda_loops_arith.cu"), True),
]
REAL_FLAGS = ["-O1", "-I" + os.path.join(ROOT, "csrc", "core"), "-I" + os.path.join(ROOT, "csrc", "cuda")]


def _compile_cmd(src, as_cu, extra, out):
    cmd = [GXX] + FLAGS + extra + ["-I" + CUDA_INC, "-I" + EMU]
    if as_cu:
        cmd += ["-include", os.path.join(EMU, "emu_device.h"), "-x", "c++"]
    return cmd + ["-c", src, "-o", out]


def _run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


@pytest.fixture(scope="session")
def build(tmp_path_factory):
    """build(variant, what) -> the path of an executable: what is "driver"
    (emu_driver + emu_kernels.cu) or "real" (emu_real_kernels.cu +
    cuda_loops_arith.cu).  Each object is compiled once per session, one
    source file per g++ call."""
    objects, exes = {}, {}
    root = tmp_path_factory.mktemp("emu")

    def obj(variant, src, as_cu, extra):
        key = (variant, src)
        if key not in objects:
            out = str(root / f"{variant}-{os.path.basename(src)}.o")
            p = _run(_compile_cmd(src, as_cu, VARIANTS[variant] + extra, out))
            if p.returncode != 0:
                if variant == "asan" and "asan" in p.stdout.lower():
                    pytest.skip("AddressSanitizer is not available: " + p.stdout[-300:])
                pytest.fail(f"g++ failed on {src}:\n{p.stdout}")
            objects[key] = out
        return objects[key]

    def get(variant, what="driver"):
        key = (variant, what)
        if key not in exes:
            srcs, extra = (DRIVER, []) if what == "driver" else (REAL, REAL_FLAGS)
            objs = [obj(variant, s, cu, []) for s, cu in RUNTIME] + [obj(variant, s, cu, extra) for s, cu in srcs]
            exe = str(root / f"{variant}-{what}")
            p = _run([GXX] + VARIANTS[variant] + objs + ["-o", exe])
            if p.returncode != 0:
                if variant == "asan":
                    pytest.skip("cannot link with AddressSanitizer: " + p.stdout[-300:])
                pytest.fail("linking failed:\n" + p.stdout)
            exes[key] = exe
        return exes[key]

    return get


@pytest.fixture(scope="session")
def driver(build):
    return lambda variant: build(variant, "driver")


def run_case(exe, case, order=None, env=None, timeout=120):
    cmd = [exe] + ([case] if case else []) + ([order] if order else [])
    e = dict(os.environ)
    e.pop("DEVTENSOR_EMULATE_ORDER", None)
    e.setdefault("ASAN_OPTIONS", "detect_leaks=0")
    if env:
        e.update(env)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e, timeout=timeout)


def info(proc):
    """the driver's `info KEY=VALUE` lines as a dict"""
    out = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"info (\w+)=(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def assert_pass(proc):
    assert proc.returncode == 0 and "PASS" in proc.stdout, (
        f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")


# ---------------------------------------------------------------------------
# Kernels that must give the right answer in every order.

CORRECT_CASES = ["axpb", "builtins", "reduce_shfl", "reduce_tree", "dyn_shared", "sync_reduce",
                 "early_exit", "shuffles", "votes", "syncwarp_exited", "atomics"]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("case", CORRECT_CASES)
def test_kernel_asm(driver, case, order):
    assert_pass(run_case(driver("asm"), case, order))


@pytest.mark.parametrize("case", ["axpb", "reduce_shfl", "shuffles", "votes", "atomics"])
def test_kernel_ucontext(driver, case):
    assert_pass(run_case(driver("ucontext"), case, "random:7"))


@pytest.mark.parametrize("case", ["axpb", "reduce_shfl", "dyn_shared", "shuffles", "early_exit"])
def test_kernel_asan(driver, case):
    """fibers and AddressSanitizer together: no false reports"""
    assert_pass(run_case(driver("asan"), case, "forward"))


def test_missing_barrier_changes_the_result(driver):
    """The tree reduction without its first __syncthreads is wrong in at
    least one order (forward: thread 0 reads s[128] before thread 128 has
    stored it); with the barrier it is right in all."""
    exe = driver("asm")
    good = {o: info(run_case(exe, "reduce_tree", o)) for o in ALL_ORDERS}
    bad = {o: info(run_case(exe, "reduce_tree_nobarrier", o)) for o in ALL_ORDERS}
    assert all(v.get("correct") == "1" for v in good.values()), good
    caught = [o for o, v in bad.items() if v.get("correct") == "0"]
    print("missing __syncthreads: wrong blocks of 64 by order:",
          {o: int(v["wrong_blocks"]) for o, v in bad.items()})
    assert "forward" in caught
    assert any(o.startswith("random") for o in caught)
    assert set(ORDERS) <= set(caught)  # both of CI's orders catch it


def test_order_from_environment(driver):
    exe = driver("asm")
    fwd = run_case(exe, "reduce_tree_nobarrier", env={"DEVTENSOR_EMULATE_ORDER": "forward"})
    rev = run_case(exe, "reduce_tree_nobarrier", env={"DEVTENSOR_EMULATE_ORDER": "reverse"})
    assert info(fwd)["correct"] == "0" and info(rev)["correct"] == "1", (fwd.stdout, rev.stdout)
    bad = run_case(exe, "axpb", env={"DEVTENSOR_EMULATE_ORDER": "sideways"})
    assert_pass(bad)
    assert "ignoring DEVTENSOR_EMULATE_ORDER=sideways" in bad.stderr


# ---------------------------------------------------------------------------
# Faults: the launch fails with CUDA's error and the process carries on
# (the driver launches again after the fault and checks the result).

FAULTS = {
    "divergent_barrier": (715, "divergent __syncthreads"),
    "shfl_exited": (715, "has exited"),
    "shfl_absent": (715, "only 16 lanes"),
    "syncwarp_self": (715, "does not name its own lane"),
    "warp_vs_barrier": (715, "waits at __syncthreads"),
    "stack_overflow": (700, "stack overflow"),
}


@pytest.mark.parametrize("variant", ["asm", "ucontext"])
@pytest.mark.parametrize("case", sorted(FAULTS))
def test_fault(driver, case, variant):
    p = run_case(driver(variant), case, "forward")
    assert_pass(p)
    code, words = FAULTS[case]
    got = info(p)
    assert got["error"] == str(code) and words in got["fault"], got


@pytest.mark.parametrize("case", ["divergent_barrier", "shfl_exited"])
def test_fault_asan(driver, case):
    assert_pass(run_case(driver("asan"), case, "random:3"))


def test_launch_configuration(driver):
    """1025 threads, a block or grid dimension over CUDA's limit, a zero
    dimension: cudaErrorInvalidConfiguration (9); more than 48 KiB of
    dynamic shared memory: cudaErrorInvalidValue (1); an address that is
    not a kernel: cudaErrorInvalidDeviceFunction (98)."""
    assert_pass(run_case(driver("asm"), "config"))


def test_static_shared_overrun_is_caught_by_asan(driver):
    p = run_case(driver("asan"), "shared_overrun", "forward")
    assert p.returncode != 0, p.stdout
    assert "AddressSanitizer: global-buffer-overflow" in p.stderr, p.stderr[-2000:]
    assert "k_shared_overrun" in p.stderr


def test_registry_counts_launches(driver):
    p = run_case(driver("asm"), "registry")
    assert_pass(p)
    assert "info kernel k_axpb launches=3" in p.stdout


def test_speed(driver):
    """Note [Emulation speed] in tests/emu/emu_driver.cpp: 1e6 elements,
    256 threads per block, forward order (figures printed with -s)."""
    for variant in ("asm", "ucontext"):
        p = run_case(driver(variant), "bench", "forward", timeout=300)
        assert_pass(p)
        got = info(p)
        print(f"{variant}: y=a*x+b {got['axpb_ms']} ms, shuffle+shared reduction {got['reduce_ms']} ms")
        if variant == "asm":
            assert float(got["axpb_ms"]) < 5000  # tens of ms; generous for loaded CI machines


# ---------------------------------------------------------------------------
# The real kernels.

def test_real_arith_kernels_run(build):
    """cuda_loops_arith.cu's k_contig (float32 add) and k_strided (int32
    multiply by a host scalar, strided output) launched from its KernelSets
    through cudaLaunchKernel: the registry on the backend's kernels."""
    p = run_case(build("asm", "real"), None)
    assert_pass(p)
    assert "info launched {anonymous}::k_contig<Op_ADD_f32, 4> 1" in p.stdout, p.stdout
    assert int(info(p)["registered"]) > 500

LOOP_FILES = sorted(f for f in os.listdir(os.path.join(ROOT, "csrc", "cuda"))
                    if f.startswith("cuda_loops") and f.endswith(".cu"))


@pytest.mark.parametrize("name", LOOP_FILES)
def test_real_kernels_compile_as_host_cxx(name):
    src = os.path.join(ROOT, "csrc", "cuda", name)
    cmd = ([GXX] + FLAGS + ["-fsyntax-only", "-include", os.path.join(EMU, "emu_device.h"), "-x", "c++",
                            "-I" + CUDA_INC, "-I" + EMU, "-I" + os.path.join(ROOT, "csrc", "core"),
                            "-I" + os.path.join(ROOT, "csrc", "cuda"), src])
    p = _run(cmd)
    assert p.returncode == 0, p.stdout[-4000:]


# CUDA library headers csrc/cuda might include (Note [CUDA libraries on the CPU]
# in csrc/emu/emu_runtime.h)
LIBRARY_INCLUDE = re.compile(
    r'^\s*#\s*include\s*[<"]((?:cublas|cusolver|cufft|curand|cusparse|cudnn|nccl|cub/|thrust/)[^>"]*)[>"]',
    re.M)


def test_every_cuda_library_has_an_emulated_header():
    """A call into a CUDA library from the backend must run in CI too: its
    header must exist in csrc/emu/include (with a reference implementation
    beside the emulated runtime), or the emulated build would silently use
    the toolkit's declarations with nothing behind them."""
    cuda = os.path.join(ROOT, "csrc", "cuda")
    used = {}
    for name in sorted(os.listdir(cuda)):
        with open(os.path.join(cuda, name)) as f:
            for header in LIBRARY_INCLUDE.findall(f.read()):
                used.setdefault(header, []).append(name)
    assert LIBRARY_INCLUDE.findall('#include <cublas_v2.h>\n  # include "cub/device/device_reduce.cuh"') == [
        "cublas_v2.h", "cub/device/device_reduce.cuh"]  # the pattern finds what it must
    missing = {h: files for h, files in used.items() if not os.path.isfile(os.path.join(EMU, "include", h))}
    assert not missing, f"CUDA library headers without an emulated counterpart: {missing}"
