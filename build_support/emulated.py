"""build_support/emulated.py - building devtensor._cuda_emu, the CUDA backend
executed on the CPU (Note [Two builds of one backend] in csrc/cuda/cuda_module.c).

setup.py uses one name from here:

    emulated_extension(core_sources, include_dirs, sanitize=False)
        the setuptools Extension "devtensor._cuda_emu": the C core sources it
        needs, csrc/cuda/*.c and *.cu, and the emulation csrc/emu/*.cpp; or
        None where no C++ compiler is found or DEVTENSOR_NO_EMULATION=1.
        sanitize: built with AddressSanitizer and UBSan (DEVTENSOR_SANITIZE=1;
        Note [Device memory under AddressSanitizer] in csrc/emu/emu_runtime.cpp).

No CUDA toolkit is needed: csrc/emu/include declares the runtime API that
csrc/emu/emu_runtime.cpp implements.  The .cu files compile as C++17 with
csrc/emu/emu_device.h force-included (CUDA's device-side names on CPU
fibers), the .cpp files as C++17, both by build_support.cuda.BuildExt, which
calls compile_cxx below for an extension marked `emulated`.
"""
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from glob import glob

from setuptools import Extension

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_cxx():
    """The C++ compiler: $CXX, else g++, else c++ on PATH; None if none."""
    cxx = os.environ.get("CXX")
    if cxx:
        return cxx
    return shutil.which("g++") or shutil.which("c++")


def _rel(pattern):
    return sorted(os.path.relpath(p, ROOT) for p in glob(os.path.join(ROOT, pattern)))


SANITIZE_FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
                  "-fno-sanitize-recover=undefined"]


def emulated_extension(core_sources, include_dirs, sanitize=False):
    """The Extension devtensor._cuda_emu, or None (with one line) without a C++ compiler."""
    if os.environ.get("DEVTENSOR_NO_EMULATION", "") not in ("", "0"):
        print("devtensor: DEVTENSOR_NO_EMULATION is set; building without the CUDA emulation",
              file=sys.stderr)
        return None
    cxx = find_cxx()
    if cxx is None:
        print("devtensor: no C++ compiler found; building without the CUDA emulation "
              "(devtensor._cuda_emu)", file=sys.stderr)
        return None
    emu, cuda = os.path.join("csrc", "emu"), os.path.join("csrc", "cuda")
    headers = [h for d in list(include_dirs) + [cuda, emu, os.path.join(emu, "include")]
               for pat in ("*.h", "*.cuh") for h in _rel(os.path.join(d, pat))]
    ext = Extension(
        "devtensor._cuda_emu",
        sources=list(core_sources) + _rel(os.path.join(cuda, "*.c")) +
        _rel(os.path.join(cuda, "*.cu")) + _rel(os.path.join(emu, "*.cpp")),
        # our declarations of the runtime come first: no toolkit headers
        include_dirs=[os.path.join(emu, "include"), emu] + list(include_dirs) + [cuda],
        define_macros=[("DEVTENSOR_EMULATED", "1")],
        libraries=["stdc++", "pthread"],
        extra_compile_args=["-std=c11", "-O2", "-Wall", "-Wextra", "-fvisibility=hidden",
                            "-D_POSIX_C_SOURCE=200809L"] + (SANITIZE_FLAGS if sanitize else []),
        extra_link_args=["-pthread"] + (["-fsanitize=address,undefined"] if sanitize else []),
        depends=headers,
    )
    ext.emulated = True
    ext.cxx = cxx
    ext.cxx_flags = SANITIZE_FLAGS if sanitize else []
    return ext


def compile_cxx(ext, sources, build_temp, force, is_stale):
    """Compile the .cu and .cpp sources of an emulated extension with the C++
    compiler, in parallel; returns the object files."""
    base = [ext.cxx, "-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden", "-pthread",
            "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-unknown-pragmas"]
    base += list(getattr(ext, "cxx_flags", []))  # after -O2: the sanitizer build's -O1 wins
    base += [f"-I{d}" for d in ext.include_dirs]
    for name, value in ext.define_macros or []:
        base.append(f"-D{name}" if value is None else f"-D{name}={value}")
    device_header = os.path.join("csrc", "emu", "emu_device.h")
    todo, objects = [], []
    for src in sources:
        obj = os.path.join(build_temp, "emu", os.path.splitext(src)[0] + ".o")
        objects.append(obj)
        if force or is_stale(obj, [src] + list(ext.depends or [])):
            cmd = base + (["-include", device_header, "-x", "c++"] if src.endswith(".cu") else [])
            todo.append((cmd + ["-c", src, "-o", obj], src, obj))
    if todo:
        t0 = time.monotonic()
        with ThreadPoolExecutor(max_workers=max(1, min(len(todo), os.cpu_count() or 1))) as pool:
            errors = [e for e in pool.map(_run, todo) if e]
        if errors:
            raise SystemExit(errors[0])
        print(f"devtensor: {len(todo)} emulated CUDA file(s) compiled: "
              f"{time.monotonic() - t0:.1f} s", flush=True)
    return objects


def _run(job):
    cmd, src, obj = job
    os.makedirs(os.path.dirname(obj) or ".", exist_ok=True)
    print(" ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.stdout:
        print(proc.stdout, end="", flush=True)
    if proc.returncode != 0:
        return f"devtensor: the C++ compiler failed on {src} (exit {proc.returncode})"
    return None
