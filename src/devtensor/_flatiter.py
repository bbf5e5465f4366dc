"""Tensor.flat: NumPy's flatiter, a 1-d handle on a tensor's elements in C order.

`t.flat[i]` and the iteration's items are 0-d copies of one element (as
`t[i, j]` is, Note [An element is a copy] in csrc/python/index.c: NumPy's
scalars); `t.flat[a:b]` and other keys give 1-d copies; assignments write
into t.  Everything runs with views and copies on t's
device.

Note [flat assignment repeats the values]
    As NumPy's, `t.flat[key] = values` with fewer values than selected
    elements repeats them (t.flat[:6] = [1, 2] writes 1, 2, 1, 2, 1, 2), and
    extra values are ignored.  On a device this is a broadcast copy into a
    (repeats, len(values)) view of the selection, plus one for the remainder.
"""
from ._C import TensorBase
from . import _views


class flatiter:
    """A flat iterator over a tensor (NumPy's numpy.flatiter)."""

    __slots__ = ("base", "_pos", "_line")

    def __init__(self, base):
        self.base = base
        self._pos = 0
        self._line = None

    def __len__(self):
        return self.base.size

    @property
    def index(self):
        """The flat index of the next element of the iteration."""
        return self._pos

    @property
    def coords(self):
        """The N-d index of the next element of the iteration."""
        return _unravel(self._pos, self.base.shape)

    def __iter__(self):
        return self

    def __next__(self):
        if self._pos >= self.base.size:
            raise StopIteration
        if self._line is None:  # a 1-d view in C order where there is one: t[i]'s C path per item
            x = self.base
            self._line = x if x.ndim == 1 else x.reshape(-1) if x.is_contiguous() else False
        item = self._line[self._pos] if self._line is not False else self.base[_unravel(self._pos, self.base.shape)]
        self._pos += 1
        return item

    def _element(self, i):
        """A 0-d view of the element with flat index i (in range)."""
        x = self.base
        offset = sum(c * s for c, s in zip(_unravel(i, x.shape), x.strides))
        return _views._view(x, (), (), offset)

    def _flat_int(self, key):
        i = _views._as_int(key)
        if i is None:
            return None
        n = self.base.size
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for size {n}")
        return i % n

    def _key(self, key):
        if isinstance(key, tuple):
            if len(key) == 1:
                return key[0]
            raise IndexError(f"too many indices for flat iterator: flat iterator is "
                             f"1-dimensional, but {len(key)} were indexed")
        return key

    def __getitem__(self, key):
        key = self._key(key)
        i = self._flat_int(key)
        if i is not None:
            return self._element(i).copy()
        if key is Ellipsis:
            key = slice(None)
        return _views.ravel(self.base)[key].copy()

    def __setitem__(self, key, value):
        key = self._key(key)
        x = self.base
        i = self._flat_int(key)
        if i is not None:
            self._element(i)[...] = value
            return
        if key is Ellipsis:
            key = slice(None)
        if x.is_contiguous():
            _assign(_views.ravel(x), key, value)
            return
        flat = _views.reshape(x, (-1,), copy=True)  # C order; written back below
        _assign(flat, key, value)
        x[...] = _views.reshape(flat, x.shape)

    def copy(self):
        """A 1-d copy of the elements (NumPy's flatiter.copy)."""
        return _views.reshape(self.base, (-1,), copy=True)

    def __array__(self, dtype=None, copy=None):
        return self.copy().__array__(dtype, copy)

    def __repr__(self):
        return f"<devtensor.flatiter of a {self.base.dtype} tensor of shape " \
               f"{self.base.shape} on {self.base.device}>"


def _unravel(i, shape):
    coords = []
    for n in reversed(shape):
        i, c = divmod(i, n) if n else (i, 0)
        coords.append(c)
    return tuple(reversed(coords))


def _assign(flat, key, value):
    """flat[key] = value for the 1-d view flat, with Note [flat assignment repeats the values]."""
    if not isinstance(key, slice) or isinstance(value, (bool, int, float, complex)):
        flat[key] = value  # scalars broadcast; other keys are setitem's
        return
    dst = flat[key]
    n = dst.shape[0]
    if not isinstance(value, TensorBase):
        from ._creation import asarray
        value = asarray(value, dtype=flat.dtype, device=flat.device)
    value = _views.reshape(value, (-1,))
    m = value.shape[0]
    if m == 0 or n == 0:
        return
    if m >= n:
        dst[...] = value[:n]
        return
    reps, rest = divmod(n, m)
    (stride,) = dst.strides
    _views._view(dst, (reps, m), (stride * m, stride))[...] = value
    if rest:
        dst[reps * m:] = value[:rest]


def flat_setter(x, value):
    """t.flat = value: NumPy's assignment of every element, repeating values."""
    flatiter(x)[:] = value


__all__ = ["flatiter"]
