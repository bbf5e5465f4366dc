"""Where OpenBLAS is: the scipy-openblas64 package's shared library, handed
to the C core at import and opened there on the first matrix product on
the CPU (Note [Loading OpenBLAS] in csrc/cpu/cpu_blas.c).  Finding it does
not import the package (its import reads package metadata): only its
folder is looked up."""
import glob
import importlib.util
import os

from . import _C


def _library_path():
    spec = importlib.util.find_spec("scipy_openblas64")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(folder, "lib", "libscipy_openblas*.so*")) +
                       glob.glob(os.path.join(folder, "lib", "libscipy_openblas*.dylib")))
        if found:
            return found[0]
    return None


def _register():
    path = _library_path()
    if path is not None:
        _C._set_blas_library(path)
