"""Run a function once a module has been imported, without importing it.

Note [Registering with libraries devtensor does not import]
Dask and distributed learn about chunk types and serialisers from calls the
chunk library makes (register_chunk_type, Dispatch.register); Dask itself
does this lazily for CuPy and sparse only.  devtensor must not import Dask
to register (it costs about a second, and most programs never use it), and
a program may import Dask before or after devtensor.  So `when_imported`
runs the registration at once if the module is already imported, and
otherwise from a finder at the front of sys.meta_path that wraps the
module's loader: the registration runs right after the module's own code,
before the import statement returns.  The finder answers only for the names
it watches and forgets each once it fired.
"""
import importlib.abc
import importlib.util
import sys
import threading

_lock = threading.Lock()
_waiting = {}  # module name -> [callbacks]


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name not in _waiting:
            return None
        sys.meta_path.remove(self)  # find the real spec with the other finders
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_register(module):
            exec_module(module)
            _fire(name)
        spec.loader.exec_module = exec_then_register
        return spec


_FINDER = _Finder()


def _fire(name):
    with _lock:
        callbacks = _waiting.pop(name, [])
        if not _waiting and _FINDER in sys.meta_path:
            sys.meta_path.remove(_FINDER)
    for callback in callbacks:
        callback()


def when_imported(name, callback):
    """callback() now if module `name` is imported, else right after it is."""
    if name in sys.modules:
        callback()
        return
    with _lock:
        _waiting.setdefault(name, []).append(callback)
        if _FINDER not in sys.meta_path:
            sys.meta_path.insert(0, _FINDER)
