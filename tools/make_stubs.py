"""Write src/devtensor/_C.pyi, the type stub of the C extension, from the
built module (tests/test_stubs.py checks it is current):

    python tools/make_stubs.py

Note [Type stubs]
devtensor ships py.typed: type checkers and editors read the pure-Python
modules (linalg, fft, random, nn, ...) as they are.  Only devtensor._C, the
C extension, needs a stub: the Tensor class (with the methods the Python
layer installs on it at import, _tensor.py's _install_methods), device,
dtype, ufunc, the dtype objects and the constants.  Signatures come from
inspect where the method is Python; C methods take (*args, **kwargs).
Annotations are light (Tensor, int, bool, tuple[int, ...]); the rest is Any.
"""
import inspect
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

import devtensor  # noqa: E402,F401  (installs the Python methods on Tensor)
from devtensor import _C  # noqa: E402

PATH = os.path.join(ROOT, "src", "devtensor", "_C.pyi")
ATTRIBUTE_TYPES = {
    "shape": "tuple[int, ...]", "strides": "tuple[int, ...]", "ndim": "int", "size": "int",
    "itemsize": "int", "nbytes": "int", "dtype": "dtype", "device": "device", "is_cuda": "bool",
    "T": "Tensor", "mT": "Tensor", "real": "Tensor", "imag": "Tensor", "flags": "Any",
    "flat": "Any", "data": "Tensor",
}


def _signature(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return "(self, *args: Any, **kwargs: Any)"
    params = []
    for p in sig.parameters.values():
        text = p.name
        if p.kind is p.VAR_POSITIONAL:
            text = "*" + text
        elif p.kind is p.VAR_KEYWORD:
            text = "**" + text
        if p.default is not p.empty:
            text += "=..."
        params.append((p, text))
    out, star = [], False
    for p, text in params:
        if p.kind is p.KEYWORD_ONLY and not star:
            out.append("*")
            star = True
        if p.kind is p.VAR_POSITIONAL:
            star = True
        out.append(text)
        if p.kind is p.POSITIONAL_ONLY and (params.index((p, text)) == len(params) - 1 or
                                            params[params.index((p, text)) + 1][0].kind
                                            is not p.POSITIONAL_ONLY):
            out.append("/")
    return "(" + ", ".join(out) + ")"


def _tensor_class():
    lines = ["class Tensor:",
             '    """A multi-dimensional array on a device (cpu or cuda:N)."""',
             "    def __init__(self, data: Any, dtype: Any = ..., device: Any = ...) -> None: ...",
             "    def __getitem__(self, key: Any) -> Tensor: ...",
             "    def __setitem__(self, key: Any, value: Any) -> None: ...",
             "    def __len__(self) -> int: ...",
             "    def __iter__(self) -> Iterator[Tensor]: ...",
             "    def __float__(self) -> float: ...",
             "    def __int__(self) -> int: ...",
             "    def __bool__(self) -> bool: ...",
             "    def __index__(self) -> int: ...",
             "    def __complex__(self) -> complex: ..."]
    for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
               "xor", "lshift", "rshift"):
        for form in (f"__{op}__", f"__r{op}__", f"__i{op}__"):
            lines.append(f"    def {form}(self, other: Any) -> Tensor: ...")
    for op in ("lt", "le", "gt", "ge", "eq", "ne"):
        lines.append(f"    def __{op}__(self, other: Any) -> Tensor: ...  # type: ignore[override]")
    for op in ("neg", "pos", "abs", "invert"):
        lines.append(f"    def __{op}__(self) -> Tensor: ...")
    for name in sorted(n for n in dir(_C.Tensor) if not n.startswith("_")):
        attr = inspect.getattr_static(_C.Tensor, name)
        if name in ATTRIBUTE_TYPES or not callable(attr) or isinstance(attr, property):
            lines.append(f"    {name}: {ATTRIBUTE_TYPES.get(name, 'Any')}")
            continue
        fn = getattr(_C.Tensor, name)
        sig = _signature(fn)
        if not sig.startswith("(self"):
            sig = "(self, *args: Any, **kwargs: Any)"
        lines.append(f"    def {name}{sig} -> Any: ...")
    return lines


def stub_text():
    lines = ['"""Type stub of devtensor._C (written by tools/make_stubs.py: Note [Type stubs])."""',
             "from typing import Any, Iterator", "",
             "class device:",
             "    type: str",
             "    index: int | None",
             "    def __init__(self, type_or_index: Any, index: int | None = ...) -> None: ...",
             "",
             "class dtype:",
             "    name: str",
             "    itemsize: int",
             "    kind: str",
             "    is_floating_point: bool",
             "    is_complex: bool",
             "    numpy_dtype: Any",
             "    def __init__(self, spec: Any) -> None: ...",
             "",
             "class ufunc:",
             "    __name__: str",
             "    nin: int",
             "    nout: int",
             "    nargs: int",
             "    identity: Any",
             "    types: list[str]",
             "    ntypes: int",
             "    def __call__(self, *args: Any, out: Any = ..., dtype: Any = ...,"
             " casting: str = ...) -> Tensor: ...",
             "    def reduce(self, array: Any, axis: Any = ..., dtype: Any = ..., out: Any = ...,"
             " keepdims: bool = ..., initial: Any = ..., where: Any = ...) -> Tensor: ...",
             "    def accumulate(self, array: Any, axis: int = ..., dtype: Any = ...,"
             " out: Any = ...) -> Tensor: ...",
             "    def reduceat(self, array: Any, indices: Any, axis: int = ..., dtype: Any = ...,"
             " out: Any = ...) -> Tensor: ...",
             "    def outer(self, A: Any, B: Any, /, **kwargs: Any) -> Tensor: ...",
             "    def at(self, a: Tensor, indices: Any, b: Any = ...) -> None: ...",
             ""]
    lines += _tensor_class()
    lines += ["", "TensorBase = Tensor", ""]
    for name in sorted(n for n in dir(_C) if not n.startswith("__")):
        value = getattr(_C, name)
        if name in ("Tensor", "TensorBase", "device", "dtype", "ufunc"):
            continue
        if isinstance(value, _C.dtype):
            lines.append(f"{name}: dtype")
        elif isinstance(value, int) and not isinstance(value, bool):
            lines.append(f"{name}: int")
        elif isinstance(value, dict):
            lines.append(f"{name}: dict[str, int]")
        elif isinstance(value, type):
            lines.append(f"class {name}({'RuntimeError' if issubclass(value, RuntimeError) else 'object'}):"
                         " ...")
        else:
            lines.append(f"def {name}(*args: Any, **kwargs: Any) -> Any: ...")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open(PATH, "w") as f:
        f.write(stub_text())
    print(f"wrote {os.path.relpath(PATH, ROOT)}")

