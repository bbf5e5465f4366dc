"""The type stub of the C extension (Note [Type stubs] in tools/make_stubs.py)
is current, parses, and declares every public attribute of Tensor; py.typed
ships beside it."""
import ast
import importlib.util
import os

import devtensor as dt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "src", "devtensor")


def _make_stubs():
    spec = importlib.util.spec_from_file_location("make_stubs",
                                                  os.path.join(ROOT, "tools", "make_stubs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_stub_is_current_and_complete():
    with open(os.path.join(PACKAGE, "_C.pyi")) as f:
        text = f.read()
    assert text == _make_stubs().stub_text(), "run python tools/make_stubs.py"
    tree = ast.parse(text)
    tensor = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    declared = {getattr(n, "name", None) or getattr(getattr(n, "target", None), "id", None)
                for n in tensor.body}
    public = {n for n in dir(dt.Tensor) if not n.startswith("_")}
    assert public <= declared, public - declared
    assert os.path.exists(os.path.join(PACKAGE, "py.typed"))
