"""Build devtensor's extensions: devtensor._C (C core, CPU backend, CPython
wrapper) always; devtensor._cuda where nvcc is found (build_support/cuda.py);
devtensor._cuda_emu, the same CUDA backend executed on the CPU, where a C++
compiler is found (build_support/emulated.py)."""
import os
import platform
import sys
from glob import glob

import numpy
from setuptools import Extension, setup

try:  # OpenBLAS's headers (cblas.h); the library is opened at run time (csrc/cpu/cpu_blas.c)
    import scipy_openblas64
except ImportError:
    sys.exit("devtensor: building needs the scipy-openblas64 package (pip install scipy-openblas64)")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from build_support.cuda import BuildExt, cuda_extension  # noqa: E402
from build_support.emulated import emulated_extension  # noqa: E402


def sources(*folders):
    return sorted(p for f in folders for p in glob(os.path.join("csrc", f, "*.c")))


# DEVTENSOR_SANITIZE=1 builds with AddressSanitizer and UBSan (see .ci/run).
sanitize = os.environ.get("DEVTENSOR_SANITIZE") == "1"
# -fno-math-errno: devtensor never reads errno, and GCC vectorizes libm calls
# only without it (Note [Vector math] in csrc/cpu/cpu_vecmath.h).
# -fvisibility=hidden: _C exports PyInit__C alone (nothing links against
# it: the CUDA backends compile their own copies of the core files they
# use), so calls between its files go straight to their targets instead of
# through the PLT: 3-15% off the per-call cost of small operations
# (t[3] 138 -> 113 ns, t.sum() 300 -> 252 ns on the 2-core CI machine).
extra_compile = ["-std=c11", "-O2", "-ffp-contract=off", "-fno-math-errno", "-pthread", "-Wall",
                 "-Wextra", "-Wno-unused-parameter", "-Wno-missing-field-initializers",
                 "-fvisibility=hidden"]
extra_link = ["-pthread"]
macros = [("_POSIX_C_SOURCE", "200809L")]
libraries = ["m", "dl"]
# glibc's vector math library, on x86-64 Linux with glibc
if sys.platform.startswith("linux") and platform.machine() == "x86_64" and \
        platform.libc_ver()[0] == "glibc":
    macros.append(("DT_HAVE_LIBMVEC", "1"))
    libraries.insert(0, "mvec")
if sanitize:
    extra_compile += ["-O1", "-g", "-fno-omit-frame-pointer",
                      "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    extra_link += ["-fsanitize=address,undefined"]

core_ext = Extension(
    "devtensor._C",
    sources=sources("core", "cpu", "python"),
    include_dirs=["csrc/core", "csrc/cpu", "csrc/python", numpy.get_include(),
                  scipy_openblas64.get_include_dir()],
    define_macros=macros,
    libraries=libraries,
    extra_compile_args=extra_compile,
    extra_link_args=extra_link,
    # an incremental build (build_ext --inplace) recompiles when a header changed
    depends=sorted(p for f in ("core", "cpu", "python") for p in glob(os.path.join("csrc", f, "*.h"))),
)

ext_modules = [core_ext]
# The sanitizer build (.ci/run) instruments the C core and the emulated CUDA
# backend; the nvcc-built one is left out (its device code is not host code).
# the core files the CUDA backends share with devtensor._C
cuda_core_sources = ["csrc/core/error.c", "csrc/core/dtype.c", "csrc/core/env.c",
                     "csrc/core/library.c"]
cuda_ext = None if sanitize else cuda_extension(cuda_core_sources, ["csrc/core"])
if cuda_ext is not None:
    ext_modules.append(cuda_ext)
# the same CUDA backend executed on the CPU (DEVTENSOR_EMULATE_CUDA=N), for CI
emu_ext = emulated_extension(cuda_core_sources, ["csrc/core"], sanitize=sanitize)
if emu_ext is not None:
    ext_modules.append(emu_ext)

setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildExt})
