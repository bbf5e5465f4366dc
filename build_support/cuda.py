"""build_support/cuda.py - building the CUDA extension devtensor._cuda.

setup.py uses two names from here:

    cuda_extension(core_sources, include_dirs)
        the setuptools Extension "devtensor._cuda" (the C core sources it
        needs, csrc/cuda/*.c and csrc/cuda/*.cu), or None when no nvcc is
        found (then one line says so and nothing CUDA is built);
    BuildExt
        a build_ext that compiles .cu sources with nvcc and everything else
        (devtensor._C included) the normal way.

nvcc is looked for in $CUDA_HOME, $CUDA_PATH, then on PATH, then in
/usr/local/cuda.  DEVTENSOR_NO_CUDA=1 skips CUDA even where nvcc exists.
The GPU architectures come from DEVTENSOR_CUDA_ARCH: SASS for each, plus PTX
of the last one so newer GPUs can JIT it.  "90", "8.0", "sm_90", "90a" are
all accepted; separate entries with ';', ',' or spaces.  Unset, they are
those of the GPUs this machine has (Note [Default architectures]).

Note [Default architectures]
Every architecture is a second compilation of every kernel (nvcc spent
about 15 minutes of a 2-core CI machine on "80;90").  So without
DEVTENSOR_CUDA_ARCH the build asks nvidia-smi for the compute capability
of each GPU here and compiles for those (an H200 gets sm_90, as
tools/gpu_check.sh asks for); where it finds none (no GPU, no driver: CI,
laptops), for sm_80 with its PTX, which every GPU from Ampere on can JIT
at first use.  A wheel built for other machines names its list.

Note [Static cudart]
The runtime is linked statically (libcudart_static.a, plus -ldl -lrt
-lpthread; libstdc++ dynamically, for nvcc's host code), so devtensor._cuda imports on any machine, driver or not, and
does not clash with another library's libcudart.so: -Wl,--exclude-libs,ALL
and -fvisibility=hidden keep every symbol but PyInit__cuda local.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FALLBACK_ARCH = "80"  # Note [Default architectures]
_NO_NVCC_LINE = "devtensor: nvcc not found; building without CUDA (set CUDA_HOME to enable)"
_said_no_nvcc = False


def _is_nvcc_home(home):
    return bool(home) and os.path.isfile(os.path.join(home, "bin", "nvcc"))


def find_cuda_home():
    """The CUDA toolkit directory holding bin/nvcc, or None."""
    for var in ("CUDA_HOME", "CUDA_PATH"):
        home = os.environ.get(var)
        if _is_nvcc_home(home):
            return os.path.abspath(home)
    nvcc = shutil.which("nvcc")
    if nvcc:
        home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
        if _is_nvcc_home(home):
            return home
    if _is_nvcc_home("/usr/local/cuda"):
        return "/usr/local/cuda"
    return None


def _first_dir(home, candidates, must_hold=None):
    for rel in candidates:
        d = os.path.join(home, rel)
        if os.path.isdir(d) and (must_hold is None or os.path.exists(os.path.join(d, must_hold))):
            return d
    return None


def cuda_paths(home):
    """(include dir, library dir) of a toolkit: classic and conda layouts."""
    inc = _first_dir(home, ["include", "targets/x86_64-linux/include", "targets/sbsa-linux/include"],
                     "cuda_runtime_api.h")
    lib = _first_dir(home, ["lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"],
                     "libcudart_static.a")
    return inc, lib


_local_archs = None  # nvidia-smi's answer, asked once per build


def local_gpu_archs():
    """The architectures of this machine's GPUs, e.g. "86;90"; "" when
    nvidia-smi reports none or cannot run (asked once per build)."""
    global _local_archs
    if _local_archs is None:
        _local_archs = parse_compute_caps(_ask_nvidia_smi())
    return _local_archs


def parse_compute_caps(text):
    """nvidia-smi's compute capabilities, one a line ("9.0" -> "90"), as one
    list: each once, ascending, joined by ';'; "" for none."""
    found = {m.group(1) + m.group(2) for m in re.finditer(r"^\s*([1-9][0-9]?)\.([0-9])\s*$", text, re.M)}
    return ";".join(sorted(found, key=int))


def _ask_nvidia_smi():
    """nvidia-smi's compute capabilities, one a line; "" if it cannot say."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return ""
    try:
        proc = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout if proc.returncode == 0 else ""


def cuda_arch_list(value=None):
    """The architectures from DEVTENSOR_CUDA_ARCH, e.g. ["80", "90"]; unset,
    this machine's GPUs', else FALLBACK_ARCH (Note [Default architectures])."""
    raw = value if value is not None else os.environ.get("DEVTENSOR_CUDA_ARCH")
    if raw is None:
        raw = local_gpu_archs() or FALLBACK_ARCH
    archs = []
    for tok in re.split(r"[;,\s]+", raw.strip()):
        if not tok:
            continue
        t = tok.lower()
        for prefix in ("sm_", "compute_"):
            if t.startswith(prefix):
                t = t[len(prefix):]
        t = t.replace(".", "")
        if not re.fullmatch(r"[1-9][0-9]{1,2}[af]?", t):
            raise SystemExit(f"devtensor: bad entry {tok!r} in DEVTENSOR_CUDA_ARCH={raw!r} "
                             "(expected e.g. \"80;90\", \"9.0\" or \"90a\")")
        if t not in archs:
            archs.append(t)
    if not archs:
        raise SystemExit(f"devtensor: DEVTENSOR_CUDA_ARCH={raw!r} names no architecture")
    return archs


def gencode_flags(archs):
    """SASS for every architecture, PTX for the last (the newest) too."""
    flags = []
    for i, a in enumerate(archs):
        code = f"[sm_{a},compute_{a}]" if i == len(archs) - 1 else f"sm_{a}"
        flags += ["-gencode", f"arch=compute_{a},code={code}"]
    return flags


def cuda_extension(core_sources, include_dirs):
    """The Extension devtensor._cuda, or None (with one line) without nvcc."""
    global _said_no_nvcc
    if os.environ.get("DEVTENSOR_NO_CUDA", "") not in ("", "0"):
        print("devtensor: DEVTENSOR_NO_CUDA is set; building without CUDA", file=sys.stderr)
        return None
    home = find_cuda_home()
    inc, lib = cuda_paths(home) if home else (None, None)
    if home is None or inc is None or lib is None:
        if not _said_no_nvcc:
            line = _NO_NVCC_LINE if home is None else (
                f"devtensor: the CUDA toolkit at {home} lacks cuda_runtime_api.h or "
                "libcudart_static.a; building without CUDA")
            print(line, file=sys.stderr)
            _said_no_nvcc = True
        return None
    cuda_arch_list()  # fail early on a bad DEVTENSOR_CUDA_ARCH
    cuda_dir = os.path.join("csrc", "cuda")
    c_sources = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, cuda_dir, "*.c")))
    cu_sources = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, cuda_dir, "*.cu")))
    headers = sorted(os.path.relpath(p, ROOT) for d in list(include_dirs) + [cuda_dir]
                     for pat in ("*.h", "*.cuh") for p in glob.glob(os.path.join(ROOT, d, pat)))
    ext = Extension(
        "devtensor._cuda",
        sources=list(core_sources) + c_sources + cu_sources,
        include_dirs=list(include_dirs) + [cuda_dir, inc],
        library_dirs=[lib],
        # where cuBLAS is looked for after its soname (Note [Loading cuBLAS] in csrc/cuda/cuda_blas.c)
        define_macros=[("DT_CUDA_LIB_DIR", '"%s"' % lib)],
        # stdc++: the host code nvcc generates uses the C++ runtime (guarded statics)
        libraries=["cudart_static", "dl", "rt", "pthread", "stdc++"],
        extra_compile_args=["-std=c11", "-O2", "-Wall", "-Wextra", "-fvisibility=hidden"],
        extra_link_args=["-Wl,--exclude-libs,ALL"],  # Note [Static cudart]
        depends=headers,
    )
    ext.cuda_home = home
    return ext


class BuildExt(build_ext):
    """build_ext that compiles .cu sources with nvcc (in parallel), or, for the
    emulated backend, .cu and .cpp sources with the C++ compiler; the rest,
    and every other extension, the usual way."""

    def build_extension(self, ext):
        emulated = getattr(ext, "emulated", False)
        own = (".cu", ".cpp") if emulated else (".cu",)
        cu = [s for s in ext.sources if s.endswith(own)]
        if not cu:
            return super().build_extension(ext)
        if emulated:  # build_support/emulated.py: the host C++ compiler, no nvcc
            from build_support.emulated import compile_cxx
            objects = compile_cxx(ext, cu, self.build_temp, self.force, _is_stale)
        else:
            objects = self._compile_cu(ext, cu)
        saved = (ext.sources, ext.extra_objects, ext.depends)
        ext.sources = [s for s in ext.sources if not s.endswith(own)]
        ext.extra_objects = list(ext.extra_objects or []) + objects
        ext.depends = list(ext.depends or []) + objects  # relink when an object changed
        try:
            super().build_extension(ext)
        finally:
            ext.sources, ext.extra_objects, ext.depends = saved

    # Note [nvcc's warnings in CI]
    # Some of nvcc's warnings are device-code bugs: #20013, a constexpr host
    # function called from a __host__ __device__ one (copysign(0, y) with an
    # int 0 picked std::copysign's host-only template in expm1), compiles
    # and warns.  DEVTENSOR_NVCC_WERROR=1 makes every nvcc warning an error;
    # .ci/run sets it, so such a warning fails CI.  A user's pip install
    # does not: a newer toolkit's new warning must not stop an install.
    def _compile_cu(self, ext, sources):
        home = getattr(ext, "cuda_home", None) or find_cuda_home()
        if home is None:
            raise SystemExit(_NO_NVCC_LINE)
        nvcc = os.path.join(home, "bin", "nvcc")
        archs = cuda_arch_list()
        jobs = max(1, min(len(sources) * len(archs), os.cpu_count() or 1))
        threads = max(1, min(len(archs), (os.cpu_count() or 1) // max(1, len(sources))))
        base = [nvcc, "-O3", "-std=c++17", "--fmad=false",  # Note [Identical values], cuda_loops.cu
                "--threads", str(threads),
                "-Xcompiler", "-fPIC,-Wall,-Wextra,-fvisibility=hidden"]
        if os.environ.get("DEVTENSOR_NVCC_WERROR", "") not in ("", "0"):
            base += ["-Werror", "all-warnings"]  # Note [nvcc's warnings in CI]
        base += [f"-I{d}" for d in ext.include_dirs]
        for name, value in ext.define_macros or []:
            base.append(f"-D{name}" if value is None else f"-D{name}={value}")
        host = os.environ.get("CUDAHOSTCXX")
        if host:
            base += ["-ccbin", host]
        base += gencode_flags(archs)
        deps = list(ext.depends or [])
        # objects built with other flags (another architecture list) are stale too
        flags_path = os.path.join(self.build_temp, "nvcc_command.json")
        same_flags = _load_json(flags_path, None) == base
        todo, objects = [], []
        for src in sources:
            obj = os.path.join(self.build_temp, os.path.splitext(src)[0] + ".o")
            objects.append(obj)
            if self.force or not same_flags or _is_stale(obj, [src] + deps):
                todo.append((src, obj))
        if todo:
            # Note [Longest first]
            times_path = os.path.join(self.build_temp, "nvcc_times.json")
            times = _load_times(times_path)
            todo.sort(key=lambda so: -times.get(so[0], float("inf")))
            t0 = time.monotonic()
            with ThreadPoolExecutor(max_workers=min(jobs, len(todo))) as pool:
                results = list(pool.map(lambda so: _run_nvcc(base, *so), todo))
            for err, _ in results:
                if err:
                    raise SystemExit(err)
            times.update({src: secs for (src, _), (_, secs) in zip(todo, results)})
            _save_json(times_path, times)
            _save_json(flags_path, base)
            print(f"devtensor: nvcc for sm_{', sm_'.join(archs)} (+PTX of the last), "
                  f"{len(todo)} file(s) on {min(jobs, len(todo))} worker(s): "
                  f"{time.monotonic() - t0:.1f} s", flush=True)
        return objects


# Note [Longest first]
# The .cu files are compiled by a thread pool, one nvcc per file (the
# elementwise kernels are split by family for this: Note [Kernel files] in
# csrc/cuda/cuda_loops.cuh).  With two workers the build ends when the last
# long file does, so files start longest first, by the seconds each took
# last time (kept in build_temp/nvcc_times.json; a file never timed starts
# first).


def _load_json(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def _load_times(path):
    try:
        return {str(k): float(v) for k, v in _load_json(path, {}).items()}
    except (ValueError, TypeError, AttributeError):
        return {}


def _save_json(path, data):
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
    except OSError:
        pass


def _is_stale(target, inputs):
    if not os.path.exists(target):
        return True
    t = os.path.getmtime(target)
    return any(os.path.exists(p) and os.path.getmtime(p) > t for p in inputs)


def _run_nvcc(base, src, obj):
    os.makedirs(os.path.dirname(obj) or ".", exist_ok=True)
    cmd = base + ["-c", src, "-o", obj]
    print(" ".join(cmd), flush=True)
    t0 = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.stdout:
        print(proc.stdout, end="", flush=True)
    secs = time.monotonic() - t0
    if proc.returncode != 0:
        return f"devtensor: nvcc failed on {src} (exit {proc.returncode})", secs
    print(f"devtensor: nvcc {src}: {secs:.1f} s", flush=True)
    return None, secs
