"""The CUDA backend's vtable, called directly through ctypes.

devtensor._cuda exports a dt_backend_iface (csrc/core/backend.h) in the
capsule _BACKEND_API.  These tests read it without devtensor._C:

* everywhere: the ABI version and name, importing prints nothing and does
  not probe CUDA, and on a machine without a driver or device every slot
  fails cleanly (device_count() is 0, the reason names the driver, nothing
  crashes);
* everywhere: the op ids follow backend.h's DT_OP_LIST, and the CUDA
  backend has a kernel for exactly the (op, dtype) loops of the CPU
  backend's table (csrc/cpu/cpu_loops.c, parsed here): on a machine without
  a device each such loop passes validation and is refused only for the
  missing device, every other one is a TypeError;
* where a real CUDA device exists (tools/gpu_check.sh): smoke tests of the
  allocator, copies, kernels and generators, and every op on every dtype
  compared with NumPy (contiguous, strided, with a host scalar), each named
  *cuda* so that `-k cuda` selects them for compute-sanitizer.

The ctypes structures below must follow backend.h (Note [Backend ABI]).
Skipped when devtensor._cuda was not built (no nvcc).
"""
import ctypes
import math
import os
import re
import subprocess
import sys
import threading

import numpy as np
import pytest

# On emulated devices (DEVTENSOR_EMULATE_CUDA=N) the same tests read the same
# table from devtensor._cuda_emu, the backend built from the same sources and
# executed on the CPU: the device tests below then launch its kernels.
EMULATED = os.environ.get("DEVTENSOR_EMULATE_CUDA", "") not in ("", "0")
MODULE = "devtensor._cuda_emu" if EMULATED else "devtensor._cuda"
_cuda = pytest.importorskip(MODULE, reason=f"{MODULE} was not built")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAPSULE_NAME = b"devtensor._cuda._BACKEND_API"
EXPECTED_ABI = 14

# ---- backend.h, mirrored -------------------------------------------------

DT_OK, DT_ERR_VALUE, DT_ERR_TYPE, DT_ERR_RUNTIME, DT_ERR_INDEX = 0, 1, 2, 3, 4
DT_ERR_OVERFLOW, DT_ERR_NOMEM, DT_ERR_DEVICE_OOM, DT_ERR_NOT_IMPLEMENTED = 5, 6, 7, 8
DT_MAX_NDIM, DT_MAX_OPERANDS = 64, 4
# DT_OP_LIST: (ID, NumPy name, inputs), in id order (test_cuda_op_ids_match_backend_h)
OPS = [
    ("COPY", "copy", 1), ("ADD", "add", 2), ("SUB", "subtract", 2), ("MUL", "multiply", 2),
    ("DIV", "divide", 2), ("EQ", "equal", 2), ("NE", "not_equal", 2), ("LT", "less", 2),
    ("LE", "less_equal", 2), ("GT", "greater", 2), ("GE", "greater_equal", 2),
    ("FLOOR_DIVIDE", "floor_divide", 2), ("REMAINDER", "remainder", 2), ("POW", "power", 2),
    ("MAXIMUM", "maximum", 2), ("MINIMUM", "minimum", 2), ("ATAN2", "arctan2", 2),
    ("HYPOT", "hypot", 2), ("COPYSIGN", "copysign", 2), ("NEXTAFTER", "nextafter", 2),
    ("LOGADDEXP", "logaddexp", 2), ("BITWISE_AND", "bitwise_and", 2),
    ("BITWISE_OR", "bitwise_or", 2), ("BITWISE_XOR", "bitwise_xor", 2),
    ("LEFT_SHIFT", "left_shift", 2), ("RIGHT_SHIFT", "right_shift", 2),
    ("LOGICAL_AND", "logical_and", 2), ("LOGICAL_OR", "logical_or", 2),
    ("LOGICAL_XOR", "logical_xor", 2),
    ("NEGATIVE", "negative", 1), ("POSITIVE", "positive", 1), ("ABS", "absolute", 1),
    ("SQUARE", "square", 1), ("SQRT", "sqrt", 1), ("RECIPROCAL", "reciprocal", 1),
    ("SIGN", "sign", 1), ("EXP", "exp", 1), ("EXPM1", "expm1", 1), ("LOG", "log", 1),
    ("LOG1P", "log1p", 1), ("LOG2", "log2", 1), ("LOG10", "log10", 1), ("SIN", "sin", 1),
    ("COS", "cos", 1), ("TAN", "tan", 1), ("ASIN", "arcsin", 1), ("ACOS", "arccos", 1),
    ("ATAN", "arctan", 1), ("SINH", "sinh", 1), ("COSH", "cosh", 1), ("TANH", "tanh", 1),
    ("ASINH", "arcsinh", 1), ("ACOSH", "arccosh", 1), ("ATANH", "arctanh", 1),
    ("FLOOR", "floor", 1), ("CEIL", "ceil", 1), ("TRUNC", "trunc", 1), ("RINT", "rint", 1),
    ("INVERT", "invert", 1), ("LOGICAL_NOT", "logical_not", 1), ("ISNAN", "isnan", 1),
    ("ISINF", "isinf", 1), ("ISFINITE", "isfinite", 1), ("SIGNBIT", "signbit", 1),
    ("CONJ", "conjugate", 1), ("REAL", "real", 1), ("IMAG", "imag", 1), ("ANGLE", "angle", 1),
    ("WHERE", "where", 3), ("FMOD", "fmod", 2), ("FMAX", "fmax", 2), ("FMIN", "fmin", 2),
    ("GCD", "gcd", 2), ("LCM", "lcm", 2), ("HEAVISIDE", "heaviside", 2),
    ("LOGADDEXP2", "logaddexp2", 2), ("EXP2", "exp2", 1), ("CBRT", "cbrt", 1),
    ("DEG2RAD", "deg2rad", 1), ("RAD2DEG", "rad2deg", 1), ("FABS", "fabs", 1),
    ("LDEXP", "ldexp", 2), ("BITWISE_COUNT", "bitwise_count", 1), ("ERF", "erf", 1), ("ERFC", "erfc", 1),
    ("LGAMMA", "lgamma", 1),
]
OP = {ident: i for i, (ident, _, _) in enumerate(OPS)}
OP_NAME = {i: name for i, (_, name, _) in enumerate(OPS)}
OP_NIN = {i: nin for i, (_, _, nin) in enumerate(OPS)}
DT_OP_COPY, DT_OP_ADD, DT_OP_SUB, DT_OP_MUL, DT_OP_DIV = (OP[k] for k in ("COPY", "ADD", "SUB", "MUL", "DIV"))
DT_OP_EQ, DT_OP_NE, DT_OP_LT, DT_OP_LE, DT_OP_GT, DT_OP_GE = (OP[k] for k in ("EQ", "NE", "LT", "LE", "GT", "GE"))
DT_OP_WHERE = OP["WHERE"]
BOOL_OPS = {OP[k] for k in ("EQ", "NE", "LT", "LE", "GT", "GE", "LOGICAL_AND", "LOGICAL_OR",
                            "LOGICAL_XOR", "LOGICAL_NOT", "ISNAN", "ISINF", "ISFINITE", "SIGNBIT")}
REAL_OF_COMPLEX_OPS = {OP[k] for k in ("ABS", "REAL", "IMAG", "ANGLE")}
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
CODE = {name: i for i, name in enumerate(DTYPES)}
DT_GEN_FILL, DT_GEN_AFFINE, DT_GEN_UNIFORM, DT_GEN_NORMAL, DT_GEN_RANDINT = range(5)
H2D, D2H, D2D = 0, 1, 2

c_status = ctypes.c_int
vp = ctypes.c_void_p


class DtError(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("msg", ctypes.c_char * 512)]


class Scalar16(ctypes.Union):
    _fields_ = [("bytes", ctypes.c_ubyte * 16), ("align_", ctypes.c_double)]


class DtLoop(ctypes.Structure):
    _fields_ = [
        ("op", ctypes.c_int), ("nop", ctypes.c_int), ("ndim", ctypes.c_int),
        ("device_index", ctypes.c_int), ("numel", ctypes.c_int64),
        ("host_scalar_mask", ctypes.c_uint), ("stream", vp),
        ("dtypes", ctypes.c_int * DT_MAX_OPERANDS), ("data", vp * DT_MAX_OPERANDS),
        ("shape", ctypes.c_int64 * DT_MAX_NDIM),
        ("strides", (ctypes.c_int64 * DT_MAX_NDIM) * DT_MAX_OPERANDS),
        ("scalar", Scalar16 * DT_MAX_OPERANDS),
    ]


class DtIndexLoop(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int), ("ndim", ctypes.c_int), ("device_index", ctypes.c_int),
        ("itemsize", ctypes.c_int), ("aligned", ctypes.c_int), ("accumulate", ctypes.c_int),
        ("direct", ctypes.c_int), ("nblocks", ctypes.c_int), ("chunk", ctypes.c_int64),
        ("numel", ctypes.c_int64), ("stream", vp), ("data", vp * 3), ("axis_len", ctypes.c_int64),
        ("axis_stride", ctypes.c_int64), ("flag", vp), ("bad", vp), ("claim_base", vp),
        ("slots", ctypes.c_int64),
        ("shape", ctypes.c_int64 * DT_MAX_NDIM), ("strides", (ctypes.c_int64 * DT_MAX_NDIM) * 3),
    ]


DT_IDX_OFFSETS, DT_IDX_GATHER, DT_IDX_CLAIM, DT_IDX_SCATTER, DT_IDX_COUNT, DT_IDX_COMPACT = range(6)


class DtReduceLoop(ctypes.Structure):
    _fields_ = [
        ("op", ctypes.c_int), ("device_index", ctypes.c_int), ("stream", vp),
        ("in_dtype", ctypes.c_int), ("out_dtype", ctypes.c_int),
        ("kept_ndim", ctypes.c_int), ("red_ndim", ctypes.c_int),
        ("n_out", ctypes.c_int64), ("n_red", ctypes.c_int64), ("in_", vp), ("out", vp), ("work", vp),
        ("kept_shape", ctypes.c_int64 * DT_MAX_NDIM), ("kept_in_strides", ctypes.c_int64 * DT_MAX_NDIM),
        ("kept_out_strides", ctypes.c_int64 * DT_MAX_NDIM), ("red_shape", ctypes.c_int64 * DT_MAX_NDIM),
        ("red_strides", ctypes.c_int64 * DT_MAX_NDIM),
    ]


class DtScanLoop(ctypes.Structure):
    _fields_ = [
        ("op", ctypes.c_int), ("device_index", ctypes.c_int), ("stream", vp),
        ("in_dtype", ctypes.c_int), ("out_dtype", ctypes.c_int), ("outer_ndim", ctypes.c_int),
        ("reserved", ctypes.c_int), ("n_rows", ctypes.c_int64), ("len", ctypes.c_int64), ("in_", vp),
        ("out", vp), ("work", vp), ("in_stride", ctypes.c_int64), ("out_stride", ctypes.c_int64),
        ("outer_shape", ctypes.c_int64 * DT_MAX_NDIM), ("outer_in_strides", ctypes.c_int64 * DT_MAX_NDIM),
        ("outer_out_strides", ctypes.c_int64 * DT_MAX_NDIM),
    ]


class DtSearchLoop(ctypes.Structure):
    _fields_ = [
        ("device_index", ctypes.c_int), ("right", ctypes.c_int), ("stream", vp), ("dtype", ctypes.c_int),
        ("ndim", ctypes.c_int), ("n", ctypes.c_int64), ("sorted_stride", ctypes.c_int64),
        ("numel", ctypes.c_int64), ("sorted", vp), ("values", vp), ("out", vp),
        ("shape", ctypes.c_int64 * DT_MAX_NDIM), ("value_strides", ctypes.c_int64 * DT_MAX_NDIM),
    ]


class DtSortLoop(ctypes.Structure):
    _fields_ = [
        ("device_index", ctypes.c_int), ("descending", ctypes.c_int), ("arg", ctypes.c_int),
        ("reserved", ctypes.c_int), ("stream", vp), ("dtype", ctypes.c_int), ("n_rows", ctypes.c_int64),
        ("len", ctypes.c_int64), ("in_", vp), ("out", vp), ("work", vp),
    ]


class DtMatmulLoop(ctypes.Structure):
    _fields_ = [
        ("device_index", ctypes.c_int), ("allow_tf32", ctypes.c_int), ("stream", vp), ("dtype", ctypes.c_int),
        ("batch_ndim", ctypes.c_int), ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("a", vp), ("b", vp), ("out", vp), ("a_rs", ctypes.c_int64), ("a_cs", ctypes.c_int64),
        ("b_rs", ctypes.c_int64), ("b_cs", ctypes.c_int64), ("batch_shape", ctypes.c_int64 * DT_MAX_NDIM),
        ("batch_strides", (ctypes.c_int64 * DT_MAX_NDIM) * 3),
    ]


class DtLinalgLoop(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int), ("device_index", ctypes.c_int), ("stream", vp), ("dtype", ctypes.c_int),
        ("vectors", ctypes.c_int), ("full", ctypes.c_int), ("reserved", ctypes.c_int), ("count", ctypes.c_int64),
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("nrhs", ctypes.c_int64), ("a", vp), ("b", vp),
        ("piv", vp), ("w", vp), ("q", vp), ("vt", vp), ("info", vp),
    ]


class DtFftLoop(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int), ("device_index", ctypes.c_int), ("stream", vp), ("dtype", ctypes.c_int),
        ("inverse", ctypes.c_int), ("rank", ctypes.c_int), ("count", ctypes.c_int64),
        ("shape", ctypes.c_int64 * 3), ("in_", vp), ("out", vp),
    ]


class DtGen(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int), ("dtype", ctypes.c_int), ("device_index", ctypes.c_int),
        ("stream", vp), ("data", vp), ("n", ctypes.c_int64), ("value", Scalar16),
        ("istart", ctypes.c_int64), ("istep", ctypes.c_int64),
        ("start", ctypes.c_double), ("step", ctypes.c_double),
        ("seed", ctypes.c_uint64), ("offset", ctypes.c_uint64),
        ("low", ctypes.c_double), ("high", ctypes.c_double),
        ("ilow", ctypes.c_int64), ("ihigh", ctypes.c_int64),
    ]


class DeviceProps(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 256), ("total_memory", ctypes.c_uint64),
                ("multi_processor_count", ctypes.c_int), ("major", ctypes.c_int),
                ("minor", ctypes.c_int), ("reserved", ctypes.c_int)]


class MemoryStats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in ("allocated", "max_allocated", "reserved",
                                               "max_reserved", "alloc_count", "device_alloc_count")]


E = ctypes.POINTER(DtError)
F = ctypes.CFUNCTYPE
SLOTS = [
    ("device_count", F(ctypes.c_int)),
    ("unavailable_reason", F(ctypes.c_char_p)),
    ("get_device", F(c_status, ctypes.POINTER(ctypes.c_int), E)),
    ("set_device", F(c_status, ctypes.c_int, E)),
    ("device_props", F(c_status, ctypes.c_int, ctypes.POINTER(DeviceProps), E)),
    ("can_access_peer", F(c_status, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int), E)),
    ("synchronize", F(c_status, ctypes.c_int, E)),
    ("alloc", F(c_status, ctypes.c_int, ctypes.c_size_t, vp, ctypes.POINTER(vp), ctypes.POINTER(vp), E)),
    ("free", F(None, ctypes.c_int, vp, vp)),
    ("record_stream", F(c_status, ctypes.c_int, vp, vp, vp, E)),
    ("memory_stats", F(c_status, ctypes.c_int, ctypes.POINTER(MemoryStats), E)),
    ("reset_peak_stats", F(c_status, ctypes.c_int, E)),
    ("empty_cache", F(c_status, ctypes.c_int, E)),
    ("mem_get_info", F(c_status, ctypes.c_int, ctypes.POINTER(ctypes.c_size_t),
                       ctypes.POINTER(ctypes.c_size_t), E)),
    ("host_alloc_pinned", F(c_status, ctypes.c_size_t, ctypes.POINTER(vp), E)),
    ("host_free_pinned", F(None, vp)),
    ("host_is_pinned", F(ctypes.c_int, vp)),
    ("copy", F(c_status, ctypes.c_int, vp, ctypes.c_int, vp, ctypes.c_int, ctypes.c_size_t, vp,
               ctypes.c_int, E)),
    ("run_loop", F(c_status, ctypes.POINTER(DtLoop), E)),
    ("generate", F(c_status, ctypes.POINTER(DtGen), E)),
    ("stream_create", F(c_status, ctypes.c_int, ctypes.c_int, ctypes.POINTER(vp), E)),
    ("stream_destroy", F(None, ctypes.c_int, vp)),
    ("stream_synchronize", F(c_status, ctypes.c_int, vp, E)),
    ("stream_query", F(c_status, ctypes.c_int, vp, ctypes.POINTER(ctypes.c_int), E)),
    ("stream_wait_event", F(c_status, ctypes.c_int, vp, vp, E)),
    ("get_stream", F(vp, ctypes.c_int)),
    ("set_stream", F(c_status, ctypes.c_int, vp, E)),
    ("event_create", F(c_status, ctypes.c_int, ctypes.c_int, ctypes.POINTER(vp), E)),
    ("event_destroy", F(None, ctypes.c_int, vp)),
    ("event_record", F(c_status, ctypes.c_int, vp, vp, E)),
    ("event_synchronize", F(c_status, vp, E)),
    ("event_query", F(c_status, vp, ctypes.POINTER(ctypes.c_int), E)),
    ("event_elapsed_ms", F(c_status, vp, vp, ctypes.POINTER(ctypes.c_float), E)),
    ("run_index", F(c_status, ctypes.POINTER(DtIndexLoop), E)),
    ("run_reduce", F(c_status, ctypes.POINTER(DtReduceLoop), E)),
    ("run_scan", F(c_status, ctypes.POINTER(DtScanLoop), E)),
    ("run_search", F(c_status, ctypes.POINTER(DtSearchLoop), E)),
    ("run_sort", F(c_status, ctypes.POINTER(DtSortLoop), E)),
    ("run_matmul", F(c_status, ctypes.POINTER(DtMatmulLoop), E)),
    ("run_linalg", F(c_status, ctypes.POINTER(DtLinalgLoop), E)),
    ("run_fft", F(c_status, ctypes.POINTER(DtFftLoop), E)),
    ("pointer_device", F(c_status, vp, vp, ctypes.POINTER(ctypes.c_int), E)),
    ("stream_native", F(c_status, ctypes.c_int, vp, ctypes.POINTER(ctypes.c_size_t), E)),
    ("wait_native_stream", F(c_status, ctypes.c_int, vp, ctypes.c_size_t, E)),
]


class Iface(ctypes.Structure):
    _fields_ = [("abi_version", ctypes.c_int), ("name", ctypes.c_char_p)] + SLOTS


def _iface():
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    ptr = get(_cuda._BACKEND_API, CAPSULE_NAME)
    assert ptr
    return Iface.from_address(ptr)


IFACE = _iface()
N_DEVICES = IFACE.device_count()
# cuda_alloc.c's alloc_init: caching is off when the variable is set, non-empty and not "0"
NO_CACHE = os.environ.get("DEVTENSOR_CUDA_NO_CACHE", "") not in ("", "0")
needs_gpu = pytest.mark.skipif(N_DEVICES == 0, reason="no CUDA device")
needs_no_gpu = pytest.mark.skipif(N_DEVICES > 0, reason="a CUDA device is present")


def _driver_present():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def err():
    return DtError()


# ---- the op table of the CPU backend, which the CUDA backend must match -----

TAG_DTYPE = {"b": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
             "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
             "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
             "c64": "complex64", "c128": "complex128"}
_SRC = {"backend.h": os.path.join(ROOT, "csrc", "core", "backend.h"),
        "cpu_loops.c": os.path.join(ROOT, "csrc", "cpu", "cpu_loops.c")}
needs_source = pytest.mark.skipif(not all(os.path.exists(p) for p in _SRC.values()),
                                  reason="the C sources are not next to the tests")


def _read(name):
    with open(_SRC[name]) as f:
        return f.read().replace("\\\n", " ")


def _cpu_loop_table():
    """{op id: set of loop dtypes} from cpu_loops.c's op_loops table (DT_TAGS_* families)."""
    src = _read("cpu_loops.c")
    fams = dict(re.findall(r"#define (DT_TAGS_\w+)\(M, FN\)([^\n]*)", src))

    def expand(fam):
        out = []
        for tag, sub in re.findall(r"M\(FN, (\w+)\)|(DT_TAGS_\w+)\(M, FN\)", fams[fam]):
            out += [TAG_DTYPE[tag]] if tag else expand(sub)
        return out

    table = {}
    for op, f1, f2 in re.findall(r"\[DT_OP_(\w+)\] = DT_ROW2?\((DT_TAGS_\w+), (?:(DT_TAGS_\w+), )?\w+\)", src):
        table[OP[op]] = set(expand(f1)) | (set(expand(f2)) if f2 else set())
    assert re.search(r"\[DT_OP_WHERE\] = \{DT_FOR_EACH_DTYPE", src)
    table[DT_OP_WHERE] = set(DTYPES)
    return table


def _out_dtype(op, d):
    """The output dtype of op's loop of dtype d (backend.h's DT_OP_LIST comment)."""
    if op in BOOL_OPS:
        return "bool"
    if op in REAL_OF_COMPLEX_OPS and d.startswith("complex"):
        return {"complex64": "float32", "complex128": "float64"}[d]
    if op == OP["BITWISE_COUNT"]:
        return "uint8"
    return d


def _loop_dtypes(op, d):
    if op == DT_OP_WHERE:
        return [d, "bool", d, d]
    return [_out_dtype(op, d)] + [d] * OP_NIN[op]


# ---- everywhere ------------------------------------------------------------

def test_cuda_capsule_abi():
    assert IFACE.abi_version == EXPECTED_ABI == _cuda.ABI_VERSION
    assert IFACE.name == b"cuda"
    for name, _ in SLOTS:  # every slot is filled
        assert ctypes.cast(getattr(IFACE, name), ctypes.c_void_p).value, name


def test_cuda_ctypes_layout_sizes():
    # offsets that a C compiler gives these structs on LP64 (backend.h)
    assert ctypes.sizeof(DtLoop) == 2712
    assert DtLoop.scalar.offset == 2648
    assert ctypes.sizeof(DtGen) == 136
    assert ctypes.sizeof(DtIndexLoop) == 2176
    assert DtIndexLoop.shape.offset == 128
    assert ctypes.sizeof(DtReduceLoop) == 2632
    assert DtReduceLoop.kept_shape.offset == 72
    assert ctypes.sizeof(DtScanLoop) == 1624
    assert DtScanLoop.outer_shape.offset == 88
    assert ctypes.sizeof(DtSearchLoop) == 1096
    assert DtSearchLoop.shape.offset == 72
    assert ctypes.sizeof(DtSortLoop) == 72
    assert DtSortLoop.n_rows.offset == 32
    assert ctypes.sizeof(DtMatmulLoop) == 2152
    assert DtMatmulLoop.batch_shape.offset == 104
    assert ctypes.sizeof(DtLinalgLoop) == 120
    assert DtLinalgLoop.count.offset == 32
    assert ctypes.sizeof(Iface) == 8 + 8 + 8 * len(SLOTS)


def test_cuda_import_is_silent_and_lazy():
    # a fresh interpreter: importing prints nothing and does not load the driver
    code = ("import sys, devtensor._cuda as m\n"
            "maps = open('/proc/self/maps').read()\n"
            "print('LIBCUDA' if 'libcuda.so' in maps else 'NOLIBCUDA')\n")
    env = dict(os.environ)
    for retired in ("DEVTENSOR_SIMULATE_CUDA", "DEVTENSOR_SIMULATE_CUDA_MEMORY"):
        env.pop(retired, None)  # import would warn about them
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout == "NOLIBCUDA\n"


def test_cuda_libraries_load_with_every_symbol():
    """_libraries() of both builds: the emulated one links the reference
    libraries; the real one opens cuBLAS, cuSOLVER (and Xgeev) and cuFFT as
    a first product, factorization or transform would, and finds every
    symbol the backend asks for, without a driver, so that a misspelt or
    missing name shows here and not first on a GPU.  The real check is
    skipped where devtensor._cuda or the toolkit's libraries are missing."""
    import json
    emu = pytest.importorskip("devtensor._cuda_emu")
    assert emu._libraries() == {"cuBLAS": None, "cuSOLVER": None, "cuSOLVER Xgeev": None, "cuFFT": None}
    code = "import json, devtensor._cuda as m; print(json.dumps(m._libraries()))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    if res.returncode != 0 and "ModuleNotFoundError" in res.stderr:
        pytest.skip("devtensor._cuda was not built")
    assert res.returncode == 0, res.stderr
    libs = json.loads(res.stdout)
    assert sorted(libs) == ["cuBLAS", "cuFFT", "cuSOLVER", "cuSOLVER Xgeev"]
    absent = {k: v for k, v in libs.items() if v and "could not be loaded" in v}
    if absent:
        pytest.skip(f"CUDA libraries not installed here: {absent}")
    assert {k: v for k, v in libs.items() if v} == {}


def test_cuda_probe_is_consistent_across_threads():
    counts, reasons = [], []

    def probe():
        counts.append(IFACE.device_count())
        reasons.append(IFACE.unavailable_reason())

    threads = [threading.Thread(target=probe) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counts == [N_DEVICES] * 8
    assert len(set(reasons)) == 1
    if N_DEVICES > 0:
        assert reasons[0] is None
    else:
        assert reasons[0]


def test_cuda_null_handles_are_harmless():
    IFACE.free(0, None, None)
    IFACE.host_free_pinned(None)
    assert IFACE.host_is_pinned(None) == 0
    e = err()
    assert IFACE.event_synchronize(None, e) == DT_ERR_VALUE
    assert IFACE.event_query(None, ctypes.pointer(ctypes.c_int()), e) == DT_ERR_VALUE
    IFACE.stream_destroy(0, None)
    IFACE.event_destroy(0, None)


# ---- a machine without a driver or a device ---------------------------------

@needs_source
def test_cuda_op_ids_match_backend_h():
    src = _read("backend.h")
    body = src[src.index("#define DT_OP_LIST(X)"):src.index("typedef enum dt_op")]
    listed = [(i, n, int(k)) for i, n, k in re.findall(r'X\((\w+), "(\w+)", (\d)\)', body)]
    assert listed == OPS
    assert re.search(r"#define DT_BACKEND_ABI_VERSION %d\b" % EXPECTED_ABI, src)
    assert re.search(r"#define DT_MAX_OPERANDS %d\b" % DT_MAX_OPERANDS, src)


@needs_no_gpu
@needs_source
def test_cuda_nodriver_loop_table_matches_cpu():
    """Every (op, dtype) loop of the CPU table has CUDA kernels (it passes
    validation and is refused only for the missing device); every other
    one is refused as a TypeError before CUDA is touched."""
    table = _cpu_loop_table()
    assert set(table) == set(range(1, len(OPS))), "every op but copy has loops"
    e = err()
    buf = (ctypes.c_char * 64)()
    p = ctypes.addressof(buf)

    def status(op, dtypes):
        lp = _loop(op, dtypes, [p] * len(dtypes), (1,), [(0,)] * len(dtypes))
        e.status, e.msg = 0, b""
        return IFACE.run_loop(ctypes.byref(lp), e)

    missing, extra = [], []
    for op in range(1, len(OPS)):
        for d in DTYPES:
            st = status(op, _loop_dtypes(op, d))
            if d in table[op]:
                if st != DT_ERR_RUNTIME or not e.msg.startswith(b"CUDA is not available"):
                    missing.append((OP_NAME[op], d, st, e.msg))
            elif st != DT_ERR_TYPE:
                extra.append((OP_NAME[op], d, st, e.msg))
    assert not missing, missing
    assert not extra, extra
    # a wrong output dtype, mixed inputs, a non-bool condition: TypeErrors
    assert status(OP["ABS"], ["complex64", "complex64"]) == DT_ERR_TYPE
    assert b"no CUDA kernel for absolute complex64" in e.msg
    assert status(OP["EXP"], ["float64", "float32"]) == DT_ERR_TYPE
    assert status(OP["HYPOT"], ["float32", "float32", "float64"]) == DT_ERR_TYPE
    assert status(DT_OP_WHERE, ["float32", "int8", "float32", "float32"]) == DT_ERR_TYPE
    assert status(DT_OP_WHERE, ["float32", "bool", "float32", "float64"]) == DT_ERR_TYPE
    # the exact int64/uint64 comparisons, either order; no other mixed pair
    for op in (DT_OP_EQ, DT_OP_NE, DT_OP_LT, DT_OP_LE, DT_OP_GT, DT_OP_GE):
        assert status(op, ["bool", "int64", "uint64"]) == DT_ERR_RUNTIME, e.msg
        assert status(op, ["bool", "uint64", "int64"]) == DT_ERR_RUNTIME, e.msg
        assert status(op, ["bool", "int32", "uint64"]) == DT_ERR_TYPE
        assert status(op, ["int64", "int64", "uint64"]) == DT_ERR_TYPE
    # every cast
    for a in DTYPES:
        for b in DTYPES:
            assert status(DT_OP_COPY, [b, a]) == DT_ERR_RUNTIME, (a, b, e.msg)


@needs_no_gpu
def test_cuda_nodriver_reports_zero_devices_and_why():
    assert IFACE.device_count() == 0
    reason = IFACE.unavailable_reason().decode()
    if not _driver_present():
        assert "driver" in reason and "cudaGetDeviceCount" in reason, reason
    else:
        assert "device" in reason or "driver" in reason, reason


@needs_no_gpu
def test_cuda_nodriver_every_slot_fails_cleanly():
    reason = IFACE.unavailable_reason().decode()
    e = err()
    i = ctypes.c_int(-7)
    ptr, ctx = vp(), vp()
    checks = [
        ("get_device", lambda: IFACE.get_device(ctypes.byref(i), e)),
        ("set_device", lambda: IFACE.set_device(0, e)),
        ("device_props", lambda: IFACE.device_props(0, ctypes.byref(DeviceProps()), e)),
        ("can_access_peer", lambda: IFACE.can_access_peer(0, 1, ctypes.byref(i), e)),
        ("synchronize", lambda: IFACE.synchronize(0, e)),
        ("alloc", lambda: IFACE.alloc(0, 1024, None, ctypes.byref(ptr), ctypes.byref(ctx), e)),
        ("memory_stats", lambda: IFACE.memory_stats(0, ctypes.byref(MemoryStats()), e)),
        ("reset_peak_stats", lambda: IFACE.reset_peak_stats(0, e)),
        ("empty_cache", lambda: IFACE.empty_cache(0, e)),
        ("mem_get_info", lambda: IFACE.mem_get_info(0, ctypes.byref(ctypes.c_size_t()),
                                                    ctypes.byref(ctypes.c_size_t()), e)),
        ("host_alloc_pinned", lambda: IFACE.host_alloc_pinned(64, ctypes.byref(ptr), e)),
        ("copy", lambda: IFACE.copy(H2D, None, 0, None, -1, 16, None, 0, e)),
        ("stream_create", lambda: IFACE.stream_create(0, 0, ctypes.byref(ptr), e)),
        ("stream_synchronize", lambda: IFACE.stream_synchronize(0, None, e)),
        ("set_stream", lambda: IFACE.set_stream(0, None, e)),
        ("event_create", lambda: IFACE.event_create(0, 1, ctypes.byref(ptr), e)),
        ("pointer_device", lambda: IFACE.pointer_device(1 << 30, (1 << 30) + 7, ctypes.byref(i), e)),
        ("stream_native", lambda: IFACE.stream_native(0, None, ctypes.byref(ctypes.c_size_t(5)), e)),
        ("wait_native_stream", lambda: IFACE.wait_native_stream(0, None, 1, e)),
    ]
    for name, call in checks:
        e.status, e.msg = 0, b""
        st = call()
        assert st == DT_ERR_RUNTIME, (name, st, e.msg)
        assert e.status == st
        assert e.msg.decode().startswith("CUDA is not available: "), (name, e.msg)
        assert reason in e.msg.decode()
    assert not ptr.value and not ctx.value
    assert IFACE.get_stream(0) is None
    buf = (ctypes.c_char * 64)()
    assert IFACE.host_is_pinned(ctypes.addressof(buf)) == 0
    # kernels: validated first, then refused for lack of a device
    loop = _loop(DT_OP_ADD, ["float32"] * 3, [ctypes.addressof(buf)] * 3, (4,), [(4,)] * 3)
    assert IFACE.run_loop(ctypes.byref(loop), e) == DT_ERR_RUNTIME, e.msg
    gen = DtGen(kind=DT_GEN_FILL, dtype=CODE["float32"], device_index=0, data=ctypes.addressof(buf), n=4)
    assert IFACE.generate(ctypes.byref(gen), e) == DT_ERR_RUNTIME, e.msg
    gather = _index_loop(DT_IDX_GATHER, ctypes.addressof(buf))
    assert IFACE.run_index(ctypes.byref(gather), e) == DT_ERR_RUNTIME, e.msg
    total = _reduce_loop(ctypes.addressof(buf))
    assert IFACE.run_reduce(ctypes.byref(total), e) == DT_ERR_RUNTIME, e.msg
    running = _scan_loop(ctypes.addressof(buf))
    assert IFACE.run_scan(ctypes.byref(running), e) == DT_ERR_RUNTIME, e.msg
    find = _search_loop(ctypes.addressof(buf))
    assert IFACE.run_search(ctypes.byref(find), e) == DT_ERR_RUNTIME, e.msg
    order = _sort_loop(ctypes.addressof(buf))
    assert IFACE.run_sort(ctypes.byref(order), e) == DT_ERR_RUNTIME, e.msg
    for dtype in ("float32", "int32"):  # cuBLAS, and our kernel
        product = _matmul_loop(ctypes.addressof(buf), dtype)
        assert IFACE.run_matmul(ctypes.byref(product), e) == DT_ERR_RUNTIME, e.msg
        assert e.msg.decode().startswith("CUDA is not available: "), e.msg
    lu = _linalg_loop(ctypes.addressof(buf))
    assert IFACE.run_linalg(ctypes.byref(lu), e) == DT_ERR_RUNTIME, e.msg
    assert e.msg.decode().startswith("CUDA is not available: "), e.msg
    transform = _fft_loop(ctypes.addressof(buf))
    assert IFACE.run_fft(ctypes.byref(transform), e) == DT_ERR_RUNTIME, e.msg
    assert e.msg.decode().startswith("CUDA is not available: "), e.msg


@needs_no_gpu
def test_cuda_nodriver_bad_loops_are_rejected():
    e = err()
    buf = (ctypes.c_char * 64)()
    p = ctypes.addressof(buf)
    bad = _loop(DT_OP_ADD, ["float32"] * 3, [p] * 3, (4,), [(4,)] * 3)
    bad.op = 10_000
    assert IFACE.run_loop(ctypes.byref(bad), e) == DT_ERR_VALUE
    bad = _loop(DT_OP_ADD, ["float32"] * 3, [p] * 3, (4,), [(4,)] * 3)
    bad.numel = 5
    assert IFACE.run_loop(ctypes.byref(bad), e) == DT_ERR_VALUE
    bad = _loop(DT_OP_ADD, ["float32", "float32", "float64"], [p] * 3, (4,), [(4,)] * 3)
    assert IFACE.run_loop(ctypes.byref(bad), e) == DT_ERR_TYPE
    bad = _loop(DT_OP_DIV, ["int32"] * 3, [p] * 3, (4,), [(4,)] * 3)
    assert IFACE.run_loop(ctypes.byref(bad), e) == DT_ERR_TYPE
    assert b"divide int32" in e.msg
    bad = _loop(DT_OP_COPY, ["float32"] * 2, [p] * 2, (4,), [(4,)] * 2)
    bad.host_scalar_mask = 1
    assert IFACE.run_loop(ctypes.byref(bad), e) == DT_ERR_VALUE
    assert IFACE.run_loop(None, e) == DT_ERR_VALUE
    gen = DtGen(kind=DT_GEN_FILL, dtype=99, device_index=0, data=p, n=4)
    assert IFACE.generate(ctypes.byref(gen), e) == DT_ERR_VALUE
    # index loops: checked before any CUDA call
    assert IFACE.run_index(None, e) == DT_ERR_VALUE
    for change in ({"kind": 99}, {"numel": 0}, {"numel": 5}, {"itemsize": 3}, {"ndim": 0},
                   {"ndim": 65}, {"kind": DT_IDX_OFFSETS, "bad": None},
                   {"kind": DT_IDX_GATHER, "direct": 1, "bad": None}, {"kind": DT_IDX_CLAIM, "flag": None},
                   {"kind": DT_IDX_SCATTER, "claim_base": None},
                   {"kind": DT_IDX_COUNT, "nblocks": 0}, {"kind": DT_IDX_COUNT, "nblocks": 1025},
                   {"kind": DT_IDX_COUNT, "chunk": 1}):
        bad = _index_loop(DT_IDX_GATHER, p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_index(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_index" in e.msg
    # reduction loops: checked before any CUDA call
    assert IFACE.run_reduce(None, e) == DT_ERR_VALUE
    for change in ({"op": 8}, {"in_dtype": 99}, {"red_ndim": 0}, {"n_red": 5}, {"n_out": 2}, {"work": None},
                   {"in_": None}):
        bad = _reduce_loop(p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_reduce(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_reduce" in e.msg
    bad = _reduce_loop(p)
    bad.red_ndim = 25  # more axes than the kernels take, after the core merged what it could
    for d in range(25):
        bad.red_shape[d] = 1
    assert IFACE.run_reduce(ctypes.byref(bad), e) == DT_ERR_NOT_IMPLEMENTED
    # scan loops too
    assert IFACE.run_scan(None, e) == DT_ERR_VALUE
    for change in ({"op": 2}, {"in_dtype": 99}, {"len": 0}, {"n_rows": 2}, {"work": None}, {"out": None}):
        bad = _scan_loop(p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_scan(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_scan" in e.msg
    assert IFACE.run_search(None, e) == DT_ERR_VALUE
    for change in ({"dtype": 99}, {"n": 0}, {"numel": 3}, {"ndim": 0}, {"out": None}):
        bad = _search_loop(p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_search(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_search" in e.msg
    assert IFACE.run_sort(None, e) == DT_ERR_VALUE
    for change in ({"dtype": 99}, {"n_rows": 0}, {"len": 0}, {"len": 1 << 62}, {"work": None}, {"out": None}):
        bad = _sort_loop(p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_sort(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_sort" in e.msg
    assert IFACE.run_matmul(None, e) == DT_ERR_VALUE
    for change in ({"dtype": 99}, {"m": 0}, {"k": -1}, {"a": None}, {"out": None}, {"batch_ndim": 65},
                   {"a_cs": 8}, {"b_rs": 4}, {"a_rs": 6}, {"batch_ndim": 1}):
        bad = _matmul_loop(p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_matmul(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_matmul" in e.msg
    bad = _matmul_loop(p)
    bad.batch_ndim, bad.batch_shape[0], bad.batch_strides[0][0] = 1, 2, 6  # not a multiple of 4
    assert IFACE.run_matmul(ctypes.byref(bad), e) == DT_ERR_VALUE
    assert IFACE.run_linalg(None, e) == DT_ERR_VALUE
    for change in ({"kind": 8}, {"kind": -1}, {"count": 0}, {"n": 0}, {"m": -1}, {"a": None}, {"info": None}):
        bad = _linalg_loop(p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_linalg(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_linalg" in e.msg
    for change in ({"piv": None}, {"q": None}, {"w": None}):  # LU_DET's slogdet: all three read
        bad = _linalg_loop(p, kind=7)
        bad.q, bad.w = p + 40, p + 48
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_linalg(ctypes.byref(bad), e) == DT_ERR_VALUE, change
    bad = _linalg_loop(p)
    bad.dtype = CODE["int32"]
    assert IFACE.run_linalg(ctypes.byref(bad), e) == DT_ERR_TYPE
    assert IFACE.run_fft(None, e) == DT_ERR_VALUE
    for change in ({"kind": 3}, {"kind": -1}, {"rank": 0}, {"rank": 4}, {"count": 0}, {"in_": None},
                   {"out": None}, {"dtype": CODE["float32"]}, {"dtype": 99}):
        bad = _fft_loop(p)
        for k, v in change.items():
            setattr(bad, k, v)
        assert IFACE.run_fft(ctypes.byref(bad), e) == DT_ERR_VALUE, change
        assert b"run_fft" in e.msg
    for shape in ((0, 1, 1), (4, -1, 1), (1 << 40, 1 << 40, 1)):
        bad = _fft_loop(p)
        bad.rank = 3
        bad.shape[:] = shape
        assert IFACE.run_fft(ctypes.byref(bad), e) == DT_ERR_VALUE, shape


def _fft_loop(p):
    """A valid 4-point complex64 transform in buffer p: in at p, out at p + 32."""
    loop = DtFftLoop(kind=0, device_index=0, dtype=CODE["complex64"], rank=1, count=1, in_=p, out=p + 32)
    loop.shape[:] = (4, 1, 1)
    return loop


def _matmul_loop(p, dtype="float32"):
    """A valid 2 x 2 product of dtype (4 bytes) in buffer p: a at p, b at p + 16, out at p + 32."""
    return DtMatmulLoop(device_index=0, dtype=CODE[dtype], m=2, n=2, k=2, a=p, b=p + 16, out=p + 32,
                        a_rs=8, a_cs=4, b_rs=8, b_cs=4)


def _linalg_loop(p, kind=0):
    """A valid LU (kind 0) of one 2 x 2 float32 in buffer p: a at p, piv at p + 16, info at p + 32."""
    return DtLinalgLoop(kind=kind, device_index=0, dtype=CODE["float32"], count=1, m=2, n=2, a=p,
                        piv=p + 16, info=p + 32)


def _sort_loop(p):
    """A valid sort of 4 float32 in buffer p (work p too)."""
    return DtSortLoop(device_index=0, dtype=CODE["float32"], n_rows=1, len=4, in_=p, out=p + 16, work=p)


def _search_loop(p):
    """A valid search of 2 float32 values in 4 sorted ones, all in buffer p."""
    loop = DtSearchLoop(device_index=0, dtype=CODE["float32"], ndim=1, n=4, sorted_stride=4, numel=2, sorted=p,
                        values=p, out=p + 32)
    loop.shape[0] = 2
    loop.value_strides[0] = 4
    return loop


def _scan_loop(p):
    """A valid cumsum of 4 float32 over buffer p into itself."""
    return DtScanLoop(op=0, device_index=0, in_dtype=CODE["float32"], out_dtype=CODE["float32"], outer_ndim=0,
                      n_rows=1, len=4, in_=p, out=p, work=p, in_stride=4, out_stride=4)


def _reduce_loop(p):
    """A valid sum of 4 float32 over buffer p into its first element."""
    loop = DtReduceLoop(op=0, device_index=0, in_dtype=CODE["float32"], out_dtype=CODE["float32"], kept_ndim=0,
                        red_ndim=1, n_out=1, n_red=4, in_=p, out=p, work=p)
    loop.red_shape[0] = 4
    loop.red_strides[0] = 4
    return loop


def _index_loop(kind, p):
    """A valid 1-D index loop of 4 float32 over buffer p (offsets 0)."""
    lp = DtIndexLoop(kind=kind, ndim=1, device_index=0, itemsize=4, aligned=1, numel=4,
                     nblocks=1, chunk=4, flag=p, bad=p, claim_base=p)
    lp.data[0] = lp.data[1] = lp.data[2] = p
    lp.shape[0] = 4
    lp.strides[0][0] = lp.strides[1][0] = 4
    lp.strides[2][0] = 0
    return lp


# ---- helpers for loops -------------------------------------------------------

def _loop(op, dtypes, data, shape, strides, device=0, scalars=None):
    """A DtLoop; strides are in bytes, per operand; scalars: {k: bytes}."""
    lp = DtLoop()
    lp.op, lp.nop, lp.ndim, lp.device_index = op, len(dtypes), len(shape), device
    lp.numel = int(np.prod(shape))
    for k, d in enumerate(dtypes):
        lp.dtypes[k] = CODE[d]
        lp.data[k] = data[k]
        for j, s in enumerate(strides[k]):
            lp.strides[k][j] = s
    for j, n in enumerate(shape):
        lp.shape[j] = n
    for k, raw in (scalars or {}).items():
        lp.host_scalar_mask |= 1 << k
        ctypes.memmove(lp.scalar[k].bytes, raw, len(raw))
        lp.data[k] = ctypes.addressof(lp.scalar[k])
        for j in range(len(shape)):
            lp.strides[k][j] = 0
    return lp


# ---- a real GPU: smoke tests through the vtable ------------------------------

class Dev:
    """Device memory from the backend's allocator, freed on close."""

    def __init__(self, nbytes, device=0):
        self.ptr, self.ctx, self.device, self.nbytes = vp(), vp(), device, nbytes
        e = err()
        st = IFACE.alloc(device, nbytes, None, ctypes.byref(self.ptr), ctypes.byref(self.ctx), e)
        assert st == DT_OK, e.msg

    def put(self, arr):
        arr = np.ascontiguousarray(arr)
        e = err()
        st = IFACE.copy(H2D, self.ptr, self.device, arr.ctypes.data, -1, arr.nbytes, None, 0, e)
        assert st == DT_OK, e.msg

    def get(self, dtype, count):
        out = np.empty(count, dtype=dtype)
        e = err()
        st = IFACE.copy(D2H, out.ctypes.data, -1, self.ptr, self.device, out.nbytes, None, 0, e)
        assert st == DT_OK, e.msg
        return out

    def close(self):
        IFACE.free(self.device, self.ptr, self.ctx)


def _np(name):
    return np.dtype("uint16") if name == "bfloat16" else np.dtype(name)


@needs_gpu
def test_cuda_device_props_and_peer():
    e = err()
    props = DeviceProps()
    assert IFACE.device_props(0, ctypes.byref(props), e) == DT_OK, e.msg
    assert props.name and props.total_memory > 0 and props.major >= 7 and props.reserved == 0
    ok = ctypes.c_int()
    assert IFACE.can_access_peer(0, 0, ctypes.byref(ok), e) == DT_OK and ok.value == 1
    assert IFACE.set_device(N_DEVICES, e) == DT_ERR_RUNTIME
    assert b"invalid CUDA device index" in e.msg
    cur = ctypes.c_int(-1)
    assert IFACE.get_device(ctypes.byref(cur), e) == DT_OK and 0 <= cur.value < N_DEVICES


@needs_gpu
def test_cuda_alloc_cache_reuses_and_counts():
    e = err()
    # other tests of this process may hold blocks: use a size of its own
    assert IFACE.empty_cache(0, e) == DT_OK, e.msg
    size = (200 << 20) + 1000
    s0 = MemoryStats()
    assert IFACE.memory_stats(0, ctypes.byref(s0), e) == DT_OK
    a = Dev(size)
    assert a.ptr.value % 256 == 0
    s1 = MemoryStats()
    IFACE.memory_stats(0, ctypes.byref(s1), e)
    # DEVTENSOR_CUDA_NO_CACHE (the sanitizer run): exact sizes, one cudaMalloc each
    assert s1.allocated == s0.allocated + (size if NO_CACHE else (size + 511) // 512 * 512)
    assert s1.reserved >= s0.reserved + size
    a.close()
    b = Dev(size)  # same size, same stream: the cached block comes back
    s2 = MemoryStats()
    IFACE.memory_stats(0, ctypes.byref(s2), e)
    if not NO_CACHE:
        assert b.ptr.value == a.ptr.value
        assert s2.device_alloc_count == s1.device_alloc_count  # no cudaMalloc for it
    b.close()
    z = Dev(0)
    assert not z.ptr.value
    z.close()
    s2 = MemoryStats()
    IFACE.memory_stats(0, ctypes.byref(s2), e)
    assert s2.allocated == s0.allocated and s2.max_allocated >= s1.allocated
    assert IFACE.empty_cache(0, e) == DT_OK
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    assert IFACE.mem_get_info(0, ctypes.byref(free), ctypes.byref(total), e) == DT_OK
    assert 0 < free.value <= total.value


@needs_gpu
def test_cuda_alloc_oom_is_clean():
    e = err()
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    IFACE.mem_get_info(0, ctypes.byref(free), ctypes.byref(total), e)
    ptr, ctx = vp(), vp()
    st = IFACE.alloc(0, total.value * 4, None, ctypes.byref(ptr), ctypes.byref(ctx), e)
    assert st == DT_ERR_DEVICE_OOM, e.msg
    assert b"out of memory" in e.msg and b"cached" in e.msg
    a = Dev(1 << 20)  # still usable
    a.put(np.arange(1 << 18, dtype=np.float32))
    assert (a.get(np.float32, 1 << 18) == np.arange(1 << 18, dtype=np.float32)).all()
    a.close()


@needs_gpu
@pytest.mark.parametrize("nbytes", [1, 4097, 3 << 20, 37 << 20 | 5])
def test_cuda_copy_roundtrip_pageable_and_pinned(nbytes):
    src = np.random.default_rng(nbytes).integers(0, 256, nbytes, dtype=np.uint8)
    d = Dev(nbytes)
    d.put(src)
    assert (d.get(np.uint8, nbytes) == src).all()
    d2 = Dev(nbytes)
    e = err()
    assert IFACE.copy(D2D, d2.ptr, 0, d.ptr, 0, nbytes, None, 0, e) == DT_OK, e.msg
    pinned = vp()
    assert IFACE.host_alloc_pinned(nbytes, ctypes.byref(pinned), e) == DT_OK, e.msg
    assert IFACE.host_is_pinned(pinned) == 1
    assert IFACE.copy(D2H, pinned, -1, d2.ptr, 0, nbytes, None, 1, e) == DT_OK, e.msg
    assert IFACE.stream_synchronize(0, IFACE.get_stream(0), e) == DT_OK
    got = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(pinned.value))
    assert (got == src).all()
    IFACE.host_free_pinned(pinned)
    d.close()
    d2.close()


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64", "complex64", "complex128",
                                   "float16"])
def test_cuda_binary_ops_match_numpy(dtype):
    n = 1003
    rng = np.random.default_rng(0)
    npd = _np(dtype)
    a = (rng.standard_normal(n) * 10).astype(npd) if npd.kind in "fc" else rng.integers(-50, 50, n).astype(npd)
    b = (rng.standard_normal(n) * 10 + 0.5).astype(npd) if npd.kind in "fc" else rng.integers(1, 50, n).astype(npd)
    A, B, O = Dev(a.nbytes), Dev(b.nbytes), Dev(a.nbytes)
    A.put(a)
    B.put(b)
    e = err()
    ops = [(DT_OP_ADD, np.add), (DT_OP_SUB, np.subtract), (DT_OP_MUL, np.multiply)]
    if npd.kind in "fc":
        ops.append((DT_OP_DIV, np.divide))
    it = npd.itemsize
    for op, ref in ops:
        lp = _loop(op, [dtype] * 3, [O.ptr.value, A.ptr.value, B.ptr.value], (n,), [(it,)] * 3)
        assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
        got = O.get(npd, n)
        with np.errstate(all="ignore"):
            want = ref(a, b)
        if npd.kind in "iu":
            assert (got == want).all(), op
        else:
            np.testing.assert_allclose(got, want, rtol=1e-6 if it >= 8 else 1e-3, err_msg=str(op))
    # strided, reversed, with a host scalar: out[i] = a[::-2][i] * 3
    m = (n + 1) // 2
    three = np.array(3, dtype=npd).tobytes()
    lp = _loop(DT_OP_MUL, [dtype] * 3, [O.ptr.value, A.ptr.value + (n - 1) * it, None], (m,),
               [(it,), (-2 * it,), (0,)], scalars={2: three})
    assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
    got = O.get(npd, m)
    want = a[::-1][::2] * np.array(3, dtype=npd)
    if npd.kind in "iu":
        assert (got == want).all()
    else:
        np.testing.assert_allclose(got, want, rtol=1e-3)
    # comparisons (greater runs as less with the inputs swapped)
    ob = Dev(n)
    for op, ref in [(DT_OP_EQ, np.equal), (DT_OP_NE, np.not_equal), (DT_OP_LT, np.less),
                    (DT_OP_LE, np.less_equal), (DT_OP_GT, np.greater), (DT_OP_GE, np.greater_equal)]:
        if npd.kind == "c" and op not in (DT_OP_EQ, DT_OP_NE):
            continue
        lp = _loop(op, ["bool", dtype, dtype], [ob.ptr.value, A.ptr.value, A.ptr.value], (n,),
                   [(1,), (it,), (0,)])  # a == a[0] broadcast
        assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
        assert (ob.get(np.bool_, n) == ref(a, a[0])).all(), op
    for d in (A, B, O, ob):
        d.close()


@needs_gpu
def test_cuda_casts_match_numpy():
    e = err()
    src = np.array([0, 1, -1, 2.5, -2.5, 100.75, 65504, 1e-3], dtype=np.float64)
    S = Dev(src.nbytes)
    S.put(src)
    for to in ["bool", "int8", "int32", "int64", "uint8", "float16", "float32", "complex64", "complex128"]:
        npd = _np(to)
        O = Dev(npd.itemsize * src.size)
        lp = _loop(DT_OP_COPY, [to, "float64"], [O.ptr.value, S.ptr.value], (src.size,),
                   [(npd.itemsize,), (8,)])
        assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
        got = O.get(npd, src.size)
        with np.errstate(all="ignore"):
            want = src.astype(npd) if npd.kind != "u" else src.astype(np.int64).astype(npd)
        if to in ("uint8",):
            keep = (src >= 0) & (src < 256)  # out of range is undefined (Note [Casts])
            assert (got[keep] == want[keep]).all(), to
        elif to in ("int8",):
            keep = np.abs(src) < 128
            assert (got[keep] == want[keep]).all(), to
        else:
            assert (got == want).all(), to
        O.close()
    S.close()


@needs_gpu
def test_cuda_many_dims_and_64bit_paths():
    e = err()
    # 26 non-mergeable dims (transposed strides): more than the kernel's 24,
    # so it runs as one launch per index of the 2 outer dims
    shape = (2,) * 20 + (1,) * 6
    n = 1 << 20
    a = np.arange(n, dtype=np.int32).reshape(shape[::-1])
    A, O = Dev(a.nbytes), Dev(a.nbytes)
    A.put(a)
    t = a.transpose(tuple(range(25, -1, -1)))  # t.shape == shape, its strides not mergeable
    assert t.shape == shape
    lp = _loop(DT_OP_COPY, ["int32", "int32"], [O.ptr.value, A.ptr.value], shape,
               [np.empty(shape, np.int32).strides, t.strides])
    assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
    assert (O.get(np.int32, n) == np.ascontiguousarray(t).ravel()).all()
    A.close()
    O.close()
    # byte offsets beyond int32: the 64-bit offset calculator
    far = 3 << 30
    big, out = Dev(far + 16), Dev(16)
    for off, v in ((0, 11), (far, 22), (2 * 8, 33)):
        val = np.array([v], dtype=np.int64)
        assert IFACE.copy(H2D, big.ptr.value + off, 0, val.ctypes.data, -1, 8, None, 0, e) == DT_OK
    lp = _loop(DT_OP_COPY, ["int64", "int64"], [out.ptr.value, big.ptr.value], (2,), [(8,), (far,)])
    assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
    assert list(out.get(np.int64, 2)) == [11, 22]
    lp = _loop(DT_OP_ADD, ["int64"] * 3, [out.ptr.value, big.ptr.value, big.ptr.value + 16], (2,),
               [(8,), (far,), (0,)])
    assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
    assert list(out.get(np.int64, 2)) == [44, 55]
    big.close()
    out.close()


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "uint8", "complex64"])
def test_cuda_generate_fill_and_arange(dtype):
    e = err()
    npd = _np(dtype)
    n = 1029
    O = Dev(npd.itemsize * n)
    g = DtGen(kind=DT_GEN_FILL, dtype=CODE[dtype], device_index=0, data=O.ptr.value, n=n)
    val = np.array(7, dtype=npd).tobytes()
    ctypes.memmove(g.value.bytes, val, len(val))
    assert IFACE.generate(ctypes.byref(g), e) == DT_OK, e.msg
    assert (O.get(npd, n) == np.full(n, 7, dtype=npd)).all()
    if npd.kind in "iub":
        g = DtGen(kind=DT_GEN_AFFINE, dtype=CODE[dtype], device_index=0, data=O.ptr.value, n=n,
                  istart=-5, istep=3)
        want = (np.arange(n, dtype=np.int64) * 3 - 5).astype(npd)
    else:
        g = DtGen(kind=DT_GEN_AFFINE, dtype=CODE[dtype], device_index=0, data=O.ptr.value, n=n,
                  start=-1.5, step=0.25)
        want = (-1.5 + np.arange(n, dtype=np.float64) * 0.25).astype(npd)
    assert IFACE.generate(ctypes.byref(g), e) == DT_OK, e.msg
    assert (O.get(npd, n) == want).all()
    O.close()


@needs_gpu
def test_cuda_generate_random_ranges():
    e = err()
    n = 100_000
    O = Dev(8 * n)
    g = DtGen(kind=DT_GEN_UNIFORM, dtype=CODE["float64"], device_index=0, data=O.ptr.value, n=n,
              seed=42, offset=0, low=2.0, high=3.0)
    assert IFACE.generate(ctypes.byref(g), e) == DT_OK, e.msg
    u = O.get(np.float64, n)
    assert (u >= 2).all() and (u < 3).all() and abs(u.mean() - 2.5) < 0.01
    g.kind, g.low, g.high = DT_GEN_NORMAL, 1.0, 2.0
    assert IFACE.generate(ctypes.byref(g), e) == DT_OK, e.msg
    z = O.get(np.float64, n)
    assert abs(z.mean() - 1.0) < 0.05 and abs(z.std() - 2.0) < 0.05
    g = DtGen(kind=DT_GEN_RANDINT, dtype=CODE["int64"], device_index=0, data=O.ptr.value, n=n,
              seed=1, offset=5, ilow=-3, ihigh=4)
    assert IFACE.generate(ctypes.byref(g), e) == DT_OK, e.msg
    r = O.get(np.int64, n)
    assert r.min() == -3 and r.max() == 3
    g.ihigh = -3
    assert IFACE.generate(ctypes.byref(g), e) == DT_ERR_VALUE
    g = DtGen(kind=DT_GEN_NORMAL, dtype=CODE["int32"], device_index=0, data=O.ptr.value, n=n)
    assert IFACE.generate(ctypes.byref(g), e) == DT_ERR_TYPE
    O.close()


@needs_gpu
def test_cuda_streams_events_and_record_stream():
    e = err()
    s, ev0, ev1 = vp(), vp(), vp()
    assert IFACE.stream_create(0, 0, ctypes.byref(s), e) == DT_OK, e.msg
    assert IFACE.event_create(0, 1, ctypes.byref(ev0), e) == DT_OK
    assert IFACE.event_create(0, 1, ctypes.byref(ev1), e) == DT_OK
    assert IFACE.set_stream(0, s, e) == DT_OK
    assert IFACE.get_stream(0) == s.value
    assert IFACE.event_record(0, ev0, None, e) == DT_OK  # the current stream: s
    a = Dev(64 << 20)  # allocated on s
    g = DtGen(kind=DT_GEN_FILL, dtype=CODE["float32"], device_index=0, data=a.ptr.value, n=16 << 20)
    assert IFACE.generate(ctypes.byref(g), e) == DT_OK, e.msg
    assert IFACE.event_record(0, ev1, None, e) == DT_OK
    assert IFACE.event_synchronize(ev1, e) == DT_OK
    ms = ctypes.c_float(-1)
    assert IFACE.event_elapsed_ms(ev0, ev1, ctypes.byref(ms), e) == DT_OK and ms.value >= 0
    done = ctypes.c_int(-1)
    assert IFACE.stream_query(0, s, ctypes.byref(done), e) == DT_OK and done.value == 1
    assert IFACE.set_stream(0, None, e) == DT_OK
    assert IFACE.record_stream(0, a.ptr, a.ctx, None, e) == DT_OK  # also used on the default stream
    a.close()
    b = Dev(64 << 20)  # on the default stream now: must not get a's block at once unless idle
    b.close()
    IFACE.stream_destroy(0, s)
    assert IFACE.stream_synchronize(0, s, e) == DT_ERR_RUNTIME  # destroyed
    IFACE.event_destroy(0, ev0)
    IFACE.event_destroy(0, ev1)
    nt = vp()
    IFACE.event_create(0, 0, ctypes.byref(nt), e)
    assert IFACE.event_elapsed_ms(nt, nt, ctypes.byref(ms), e) == DT_ERR_RUNTIME
    IFACE.event_destroy(0, nt)
    assert IFACE.synchronize(0, e) == DT_OK


# ---- a real GPU: every op, every dtype, against NumPy --------------------------

import warnings  # noqa: E402

FLOATS = ("float16", "bfloat16", "float32", "float64")
# ops whose values are exact on both sides (IEEE arithmetic, rounding, sign
# manipulation, comparisons): compared to a few ulps at most (NumPy's SIMD
# complex loops may fuse a*b+c); every other float op calls a libm function
# and is compared to a tolerance (Note [Device libm], cuda_loops_complex.cu)
EXACT_OPS = {OP[k] for k in (
    "ADD", "SUB", "MUL", "DIV", "FLOOR_DIVIDE", "REMAINDER", "MAXIMUM", "MINIMUM", "COPYSIGN",
    "NEXTAFTER", "NEGATIVE", "POSITIVE", "SQUARE", "RECIPROCAL", "SIGN", "FLOOR", "CEIL",
    "TRUNC", "RINT", "CONJ", "REAL", "IMAG", "SQRT", "LDEXP")}
EPS = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23, "float64": 2.0 ** -52,
       "complex64": 2.0 ** -23, "complex128": 2.0 ** -52}
TOL = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 1e-5, "float64": 1e-12,
       "complex64": 1e-5, "complex128": 1e-11}


def _bf16_bits(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    r[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return r


def _bf16_values(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def _storage(d, values):
    """values (float32 for bfloat16) -> what device memory holds"""
    return _bf16_bits(values) if d == "bfloat16" else np.ascontiguousarray(values, dtype=_np(d))


def _values_of(d, stored):
    return _bf16_values(stored) if d == "bfloat16" else stored


def _inputs(op, d, n, rng):
    """NumPy-safe inputs of op's loop dtype d, as values (float32 for bfloat16)."""
    nin = OP_NIN[op]
    npd = np.dtype("float32") if d == "bfloat16" else _np(d)
    out = []
    for k in range(nin):
        if d == "bool":
            v = rng.integers(0, 2, n).astype(bool)
        elif npd.kind in "iu":
            bits = npd.itemsize * 8
            if op in (OP["LEFT_SHIFT"], OP["RIGHT_SHIFT"]) and k == 1:
                v = rng.integers(0, bits + 2, n)
            elif op == OP["POW"] and k == 1:
                v = rng.integers(0, 5, n)
            else:
                v = rng.integers(-100 if npd.kind == "i" else 0, 100, n)
                if op == OP["RECIPROCAL"]:
                    v[v == 0] = 1  # 1 // 0 is the platform's in NumPy
            v = v.astype(npd)
        elif npd.kind == "f" and op == OP["LDEXP"] and k == 1:
            v = rng.integers(-40, 40, n).astype(npd)  # the power: integer values (ldexp's int operand)
        elif npd.kind == "f":
            v = rng.standard_normal(n) * 3
            v[:12] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.5, -2.5, 3.0, -3.0][:12]
            v = np.roll(v, k * 5)  # specials meet other values in binary ops
            v = v.astype(npd)
            if d == "bfloat16":
                v = _bf16_values(_bf16_bits(v))
        else:
            v = (rng.standard_normal(n) * 1.5 + 1j * rng.standard_normal(n) * 1.5).astype(npd)
        out.append(v)
    return out


def _math_lgamma(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole
        return math.inf


_MATH_ONLY = {"erf": math.erf, "erfc": math.erfc, "lgamma": _math_lgamma}


def _reference(op, d, vals):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if op == DT_OP_SUB and d == "bool":
            want = np.not_equal(*vals)  # ops.h: bool - is xor (NumPy refuses it)
        elif op == OP["LDEXP"]:  # NumPy's power is an int; the loop's is integer-valued
            want = np.ldexp(vals[0], vals[1].astype(np.int32))
        elif OP_NAME[op] in _MATH_ONLY:  # no NumPy ufunc: Python's math, element by element
            want = np.array([_MATH_ONLY[OP_NAME[op]](float(v)) for v in vals[0].astype(np.float64)])
        else:
            want = getattr(np, OP_NAME[op])(*vals)
        out = _out_dtype(op, d)
        if out == "bfloat16":
            return _bf16_values(_bf16_bits(np.asarray(want, dtype=np.float32)))
        return np.asarray(want).astype(_np(out))


def _assert_close(op, d, got, want, what):
    out = _out_dtype(op, d)
    if out == "bool" or np.dtype(_np(out) if out != "bfloat16" else "f4").kind in "iub":
        assert np.array_equal(got, want), (what, got[got != want][:5], want[got != want][:5])
        return
    tol = 4 * EPS[d] if op in EXACT_OPS else TOL[d]
    g = got.astype(np.complex128 if np.iscomplexobj(got) else np.float64)
    w = want.astype(g.dtype)
    with np.errstate(all="ignore"):
        ok = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= tol * np.maximum(np.abs(w), 1))
    assert ok.all(), (what, g[~ok][:5], w[~ok][:5])


def _put(dev, arr):
    dev.put(np.ascontiguousarray(arr))


@needs_gpu
@needs_source
@pytest.mark.parametrize("dtype", DTYPES)
def test_cuda_every_op_matches_numpy(dtype):
    """Every (op, dtype) loop of the CPU table, through the vector path
    (contiguous, aligned), the strided path (reversed inputs, misaligned
    output) and with a host scalar as the last input."""
    table = _cpu_loop_table()
    n = 1003  # not a multiple of any vector width: the tail runs too
    rng = np.random.default_rng(CODE[dtype])
    it = _np(dtype).itemsize
    bufs = [Dev(16 * (n + 2)) for _ in range(4)]  # out, in1, in2, (in3 unused here)
    O, A, B = bufs[0], bufs[1], bufs[2]
    e = err()
    try:
        for op in range(1, len(OPS)):
            if dtype not in table[op] or op == DT_OP_WHERE:
                continue
            if op == OP["NEXTAFTER"] and dtype == "bfloat16":
                continue  # no NumPy reference; the CPU tests check the same function
            nin = OP_NIN[op]
            dts = _loop_dtypes(op, dtype)
            out_np = _np(dts[0])
            oit = out_np.itemsize
            vals = _inputs(op, dtype, n, rng)
            ins = [A, B][:nin]
            for dev, v in zip(ins, vals):
                _put(dev, _storage(dtype, v))
            name = f"{OP_NAME[op]} {dtype}"
            # contiguous
            lp = _loop(op, dts, [O.ptr.value] + [x.ptr.value for x in ins], (n,), [(oit,)] + [(it,)] * nin)
            assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, (name, e.msg)
            got = _values_of(dts[0], O.get(out_np, n))
            _assert_close(op, dtype, got, _reference(op, dtype, vals), name + " contiguous")
            # reversed inputs, output one element in (no vectors: the offset calculator)
            lp = _loop(op, dts, [O.ptr.value + oit] + [x.ptr.value + (n - 1) * it for x in ins], (n,),
                       [(oit,)] + [(-it,)] * nin)
            assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, (name, e.msg)
            got = _values_of(dts[0], O.get(out_np, n + 1)[1:])
            _assert_close(op, dtype, got, _reference(op, dtype, [v[::-1] for v in vals]), name + " strided")
            if nin == 2:  # a host scalar as the second input
                sv = _storage(dtype, vals[1][:1])
                lp = _loop(op, dts, [O.ptr.value, A.ptr.value, None], (n,), [(oit,), (it,), (0,)],
                           scalars={2: sv.tobytes()})
                assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, (name, e.msg)
                got = _values_of(dts[0], O.get(out_np, n))
                want = _reference(op, dtype, [vals[0], np.repeat(vals[1][:1], n)])
                _assert_close(op, dtype, got, want, name + " scalar")
    finally:
        for b in bufs:
            b.close()


@needs_gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_cuda_where_moves_stored_values(dtype):
    n = 517
    rng = np.random.default_rng(7)
    npd = _np(dtype)
    it = npd.itemsize
    cond = rng.integers(0, 2, n).astype(bool)
    if dtype == "bool":
        x, y = rng.integers(0, 2, n).astype(bool), rng.integers(0, 2, n).astype(bool)
    else:  # any bits, NaN payloads included: where moves them untouched
        x = rng.integers(0, 256, n * it).astype(np.uint8).view(npd).copy()
        y = rng.integers(0, 256, n * it).astype(np.uint8).view(npd).copy()
    O, C, X, Y = Dev(it * (n + 1)), Dev(n), Dev(it * n), Dev(it * n)
    C.put(cond)
    X.put(x)
    Y.put(y)
    e = err()
    dts = [dtype, "bool", dtype, dtype]
    raw = lambda a: np.ascontiguousarray(a).view(np.uint8)  # noqa: E731
    lp = _loop(DT_OP_WHERE, dts, [O.ptr.value, C.ptr.value, X.ptr.value, Y.ptr.value], (n,),
               [(it,), (1,), (it,), (it,)])
    assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
    assert np.array_equal(raw(O.get(npd, n)), raw(np.where(cond, x, y)))
    # reversed condition, y a host scalar, output misaligned by one element
    lp = _loop(DT_OP_WHERE, dts, [O.ptr.value + it, C.ptr.value + n - 1, X.ptr.value, None], (n,),
               [(it,), (-1,), (it,), (0,)], scalars={3: y[:1].tobytes()})
    assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
    assert np.array_equal(raw(O.get(npd, n + 1)[1:]), raw(np.where(cond[::-1], x, y[0])))
    # a host scalar condition
    lp = _loop(DT_OP_WHERE, dts, [O.ptr.value, None, X.ptr.value, Y.ptr.value], (n,),
               [(it,), (0,), (it,), (it,)], scalars={1: b"\x00"})
    assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
    assert np.array_equal(raw(O.get(npd, n)), raw(y))
    for d in (O, C, X, Y):
        d.close()


@needs_gpu
def test_cuda_int64_uint64_comparisons_are_exact():
    iv = [-2 ** 63, -1, 0, 1, 2 ** 62, 2 ** 63 - 1]
    uv = [0, 1, 5, 2 ** 62, 2 ** 63, 2 ** 64 - 1]
    pairs = [(a, b) for a in iv for b in uv]
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.uint64)
    n = len(pairs)
    A, B, O = Dev(8 * n), Dev(8 * n), Dev(n)
    A.put(a)
    B.put(b)
    e = err()
    import operator
    cmp = {DT_OP_EQ: operator.eq, DT_OP_NE: operator.ne, DT_OP_LT: operator.lt,
           DT_OP_LE: operator.le, DT_OP_GT: operator.gt, DT_OP_GE: operator.ge}
    for op, f in cmp.items():
        lp = _loop(op, ["bool", "int64", "uint64"], [O.ptr.value, A.ptr.value, B.ptr.value], (n,), [(1,), (8,), (8,)])
        assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
        assert list(O.get(np.bool_, n)) == [f(x, y) for x, y in pairs], OP_NAME[op]
        lp = _loop(op, ["bool", "uint64", "int64"], [O.ptr.value, B.ptr.value, A.ptr.value], (n,), [(1,), (8,), (8,)])
        assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
        assert list(O.get(np.bool_, n)) == [f(y, x) for x, y in pairs], OP_NAME[op]
        # strided (the offset calculator): the int64 operand read backwards
        for dts, ins, g in ((["bool", "int64", "uint64"], (A, B), lambda x, y: f(x, y)),
                            (["bool", "uint64", "int64"], (B, A), lambda x, y: f(y, x))):
            back = [(8 * (n - 1) if d is A else 0) for d in ins]
            lp = _loop(op, dts, [O.ptr.value] + [d.ptr.value + o for d, o in zip(ins, back)], (n,),
                       [(1,)] + [(-8,) if d is A else (8,) for d in ins])
            assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
            want = [g(x, y) for x, y in zip(a[::-1], b)]
            assert list(O.get(np.bool_, n)) == want, (OP_NAME[op], dts, "strided")
    for d in (A, B, O):
        d.close()


@needs_gpu
@pytest.mark.parametrize("itemsize", [1, 2, 4, 8, 16])
def test_cuda_same_dtype_copies_move_bits(itemsize):
    """COPY between operands of one dtype moves stored bits (Note [Identity
    ops] in cuda_loops_arith.cu): contiguous (a cudaMemcpyAsync), strided
    and aligned (the raw kernel), at addresses that are not multiples of the
    element size (the byte kernel: no thread may fault on a misaligned
    load), and from a host scalar (the raw kernel's contiguous form)."""
    dtype = {1: "uint8", 2: "float16", 4: "float32", 8: "int64", 16: "complex128"}[itemsize]
    n = 301
    rng = np.random.default_rng(itemsize)
    raw = rng.integers(0, 256, n * itemsize, dtype=np.uint8)  # any bits, NaN payloads too
    S, O = Dev(itemsize * n + 32), Dev(itemsize * n + 32)
    e = err()
    dts = [dtype, dtype]

    def out_bytes(offset=0):
        return O.get(np.uint8, itemsize * n + offset)[offset:]

    def run(lp):
        assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg

    S.put(raw)
    run(_loop(DT_OP_COPY, dts, [O.ptr.value, S.ptr.value], (n,), [(itemsize,), (itemsize,)]))
    assert np.array_equal(out_bytes(), raw), "contiguous"
    # reversed source: strided, aligned
    run(_loop(DT_OP_COPY, dts, [O.ptr.value, S.ptr.value + itemsize * (n - 1)], (n,),
              [(itemsize,), (-itemsize,)]))
    want = raw.reshape(n, itemsize)[::-1].ravel()
    assert np.array_equal(out_bytes(), want), "strided"
    if itemsize > 1:  # misaligned by one byte, source and destination
        S.put(np.concatenate([np.zeros(1, np.uint8), raw]))
        run(_loop(DT_OP_COPY, dts, [O.ptr.value + 1, S.ptr.value + 1 + itemsize * (n - 1)], (n,),
                  [(itemsize,), (-itemsize,)]))
        assert np.array_equal(out_bytes(1), want), "misaligned"
    # a host scalar as the source: every element gets its bits
    run(_loop(DT_OP_COPY, dts, [O.ptr.value, None], (n,), [(itemsize,), (0,)],
              scalars={1: raw[:itemsize].tobytes()}))
    assert np.array_equal(out_bytes(), np.tile(raw[:itemsize], n)), "host scalar"
    S.close()
    O.close()


@needs_gpu
@pytest.mark.parametrize("itemsize", [2, 4, 8, 16])  # every address is aligned for 1
def test_cuda_where_on_misaligned_operands(itemsize):
    """where at addresses that are not multiples of the element size: the
    byte kernels, contiguous and strided."""
    dtype = {2: "int16", 4: "float32", 8: "float64", 16: "complex128"}[itemsize]
    n = 203
    rng = np.random.default_rng(itemsize)
    cond = rng.integers(0, 2, n).astype(bool)
    x = rng.integers(0, 256, n * itemsize, dtype=np.uint8)
    y = rng.integers(0, 256, n * itemsize, dtype=np.uint8)
    O, C, X, Y = Dev(itemsize * n + 1), Dev(n), Dev(itemsize * n + 1), Dev(itemsize * n + 1)
    C.put(cond)
    X.put(np.concatenate([np.zeros(1, np.uint8), x]))
    Y.put(np.concatenate([np.zeros(1, np.uint8), y]))
    e = err()
    dts = [dtype, "bool", dtype, dtype]
    xs, ys = x.reshape(n, itemsize), y.reshape(n, itemsize)
    for strided in (False, True):
        step = -itemsize if strided else itemsize
        start = 1 + (itemsize * (n - 1) if strided else 0)
        lp = _loop(DT_OP_WHERE, dts, [O.ptr.value + 1, C.ptr.value, X.ptr.value + start, Y.ptr.value + 1],
                   (n,), [(itemsize,), (1,), (step,), (itemsize,)])
        assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, e.msg
        xv = xs[::-1] if strided else xs
        want = np.where(cond[:, None], xv, ys).ravel()
        assert np.array_equal(O.get(np.uint8, itemsize * n + 1)[1:], want), ("strided" if strided else "contiguous")
    for d in (O, C, X, Y):
        d.close()


@needs_gpu
def test_cuda_every_cast_matches_numpy():
    vals = np.array([0, 1, 2.5, 100, 7.25, 3, 0.5, 64], dtype=np.float64)
    n = vals.size
    e = err()
    for src in DTYPES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sv = vals + 0.5j if src.startswith("complex") else vals
            s_vals = sv.astype(np.float32) if src == "bfloat16" else sv.astype(_np(src))
        S = Dev(16 * n)
        S.put(_storage(src, s_vals))
        for dst in DTYPES:
            npd = _np(dst)
            O = Dev(16 * n)
            lp = _loop(DT_OP_COPY, [dst, src], [O.ptr.value, S.ptr.value], (n,), [(npd.itemsize,), (_np(src).itemsize,)])
            assert IFACE.run_loop(ctypes.byref(lp), e) == DT_OK, (src, dst, e.msg)
            got = O.get(npd, n)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = _storage(dst, s_vals.astype(np.float32) if dst == "bfloat16" else s_vals.astype(npd))
            assert np.array_equal(got.view(np.uint8), want.view(np.uint8)), (src, dst, got, want)
            O.close()
        S.close()


@needs_gpu
def test_cuda_pinned_free_waits_for_nonblocking_copy():
    """Note [Pinned blocks in flight]: freeing a pinned block that an
    asynchronous copy still reads defers the cudaFreeHost."""
    e = err()
    nbytes = 256 << 20
    pinned = vp()
    assert IFACE.host_alloc_pinned(nbytes, ctypes.byref(pinned), e) == DT_OK, e.msg
    ctypes.memset(pinned, 0x5A, nbytes)
    busy, dst = Dev(2 << 30), Dev(nbytes)
    g = DtGen(kind=DT_GEN_FILL, dtype=CODE["float32"], device_index=0, data=busy.ptr.value, n=(2 << 30) // 4)
    ctypes.memmove(g.value.bytes, np.array(1.5, np.float32).tobytes(), 4)
    for _ in range(4):  # keep the stream busy so that the copy is still queued
        assert IFACE.generate(ctypes.byref(g), e) == DT_OK, e.msg
    assert IFACE.copy(H2D, dst.ptr, 0, pinned.value + 0, -1, nbytes, None, 1, e) == DT_OK, e.msg
    IFACE.host_free_pinned(pinned)  # the copy may not have started yet
    done = ctypes.c_int()
    assert IFACE.stream_query(0, IFACE.get_stream(0), ctypes.byref(done), e) == DT_OK
    again = vp()
    assert IFACE.host_alloc_pinned(nbytes, ctypes.byref(again), e) == DT_OK, e.msg
    if not done.value:  # still in flight: the old block cannot have been handed out again
        assert again.value != pinned.value
    ctypes.memset(again, 0x00, nbytes)
    assert IFACE.stream_synchronize(0, IFACE.get_stream(0), e) == DT_OK
    got = dst.get(np.uint8, nbytes)
    assert (got == 0x5A).all()
    IFACE.host_free_pinned(again)
    # after the stream passed, a free is immediate and later calls sweep the deferred block
    third = vp()
    assert IFACE.host_alloc_pinned(4096, ctypes.byref(third), e) == DT_OK, e.msg
    IFACE.host_free_pinned(third)
    busy.close()
    dst.close()
