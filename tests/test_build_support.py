"""tests/test_build_support.py - the build's choice of GPU architectures
(build_support/cuda.py, Note [Default architectures]).  Pure Python: no
nvcc or GPU is needed."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from build_support import cuda  # noqa: E402


@pytest.mark.parametrize("query, want", [
    ("9.0\n", "90"),
    ("9.0\n9.0\n8.6\n", "86;90"),      # several GPUs, each capability once, ascending
    ("10.0\n12.0\n", "100;120"),
    ("", ""),                           # no GPU
    ("No devices were found\n", ""),
    ("[N/A]\n", ""),
])
def test_local_gpu_archs_reads_nvidia_smi(query, want):
    assert cuda.parse_compute_caps(query) == want


def test_default_is_this_machines_gpus_else_sm_80(monkeypatch):
    monkeypatch.delenv("DEVTENSOR_CUDA_ARCH", raising=False)
    monkeypatch.setattr(cuda, "_local_archs", None)
    monkeypatch.setattr(cuda, "_ask_nvidia_smi", lambda: "9.0\n")
    assert cuda.cuda_arch_list() == ["90"]
    monkeypatch.setattr(cuda, "_local_archs", None)
    monkeypatch.setattr(cuda, "_ask_nvidia_smi", lambda: "")
    assert cuda.cuda_arch_list() == ["80"]
    assert cuda.gencode_flags(["80"]) == ["-gencode", "arch=compute_80,code=[sm_80,compute_80]"]


def test_the_environment_names_the_list(monkeypatch):
    monkeypatch.setattr(cuda, "_ask_nvidia_smi", lambda: pytest.fail("nvidia-smi asked"))
    monkeypatch.setattr(cuda, "_local_archs", None)
    monkeypatch.setenv("DEVTENSOR_CUDA_ARCH", "sm_80, 9.0;90a")
    assert cuda.cuda_arch_list() == ["80", "90", "90a"]
    assert cuda.gencode_flags(["80", "90"]) == [
        "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=[sm_90,compute_90]"]


@pytest.mark.parametrize("bad", ["", " ; ", "sm_7", "ninety", "90b"])
def test_a_bad_list_stops_the_build_saying_why(monkeypatch, bad):
    monkeypatch.setenv("DEVTENSOR_CUDA_ARCH", bad)
    with pytest.raises(SystemExit, match="DEVTENSOR_CUDA_ARCH"):
        cuda.cuda_arch_list()


def test_every_package_is_in_pyproject():
    """A subpackage missing from pyproject.toml's packages is left out of the
    wheel, and `import devtensor` fails after pip install (nn.utils and
    utils were, until the clean-clone CI caught it)."""
    import pathlib
    import tomllib
    root = pathlib.Path(__file__).resolve().parents[1]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    src = root / "src"
    found = {".".join(p.parent.relative_to(src).parts) for p in (src / "devtensor").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert found == listed, (found - listed, listed - found)
