"""devtensor.lib: NumPy's numpy.lib namespace for `import devtensor as np`
code (np.lib.stride_tricks.as_strided(t, ...)): the submodules devtensor
implements on tensors (stride_tricks, scimath), and NumPy's numpy.lib for
the rest.
"""
import numpy.lib as _numpy_lib

from . import stride_tricks  # noqa: F401
from .. import emath as scimath  # noqa: F401  (np.lib.scimath is np.emath)


def __getattr__(name):
    """numpy.lib's other names (array_utils, NumpyVersion, ...)."""
    try:
        return getattr(_numpy_lib, name)
    except AttributeError:
        raise AttributeError(f"module 'devtensor.lib' has no attribute {name!r}") from None
