"""The value of Tensor.size: NumPy's element count that PyTorch code can
also call as its size().

Note [A size that can be called]
    NumPy's t.size is the number of elements, an attribute; PyTorch's
    t.size() is the shape and t.size(0) one dimension, a method.  PyTorch
    code calls it everywhere (`B, T, C = x.size()`, `x.size(0)` for the
    batch), so t.size is an int -- equal, hashing, formatting and indexing
    as the count -- whose call gives PyTorch's answer from the shape it
    holds.  What a plain int would not do: reading t.size of a shape not
    seen lately costs about 150 ns more (the object; tensor_type.c keeps the
    last ones by shape, a compare for the rest), it pickles and copies as a
    plain int, and NumPy (not devtensor) takes an int subclass as a strong
    int64 operand, so np.float32(1) / t.size is float64 where / 6 is float32
    (devtensor's own operators keep it weak).
"""
from ._torch_selection import _dim  # PyTorch's check of a dimension and its words


class ElementCount(int):
    """The number of elements of a tensor (NumPy's size); called, PyTorch's
    size(): the shape, or the length of one dimension."""

    def __call__(self, dim=None):
        shape = self._shape
        if dim is None:
            return shape
        dim = _dim(dim, len(shape))
        return shape[dim] if shape else 1

    def __reduce__(self):
        return int, (int(self),)
