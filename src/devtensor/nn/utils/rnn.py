"""devtensor.nn.utils.rnn: PyTorch's helpers for batches of sequences of
different lengths: pad_sequence and unpad_sequence, PackedSequence with
pack_padded_sequence, pad_packed_sequence, pack_sequence and
unpack_sequence.

Note [Packed sequences]
    A PackedSequence holds the batch sorted by length, longest first, and
    time-major: data's first batch_sizes[0] rows are every sequence's step
    0, the next batch_sizes[1] rows step 1 of the sequences still running,
    and so on.  batch_sizes is an int64 tensor on the CPU (as PyTorch's);
    sorted_indices (original batch position of each sorted row) and its
    inverse unsorted_indices are None when the batch came sorted.
    Packing and padding each gather or scatter all rows in one indexing
    operation on the data's device.
"""
from collections import namedtuple

from ..._torch_methods import CASTS as _CASTS, _cast

__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pack_sequence", "unpack_sequence",
           "pad_sequence", "unpad_sequence"]


def _dt():
    import devtensor
    return devtensor


class PackedSequence(namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """A packed batch of sequences (Note [Packed sequences]); made by
    pack_padded_sequence or pack_sequence, accepted by RNN, LSTM and GRU."""
    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if batch_sizes is None:
            raise TypeError("PackedSequence needs batch_sizes: build one with pack_padded_sequence or "
                            "pack_sequence")
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _inverse(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """The same packing with data (and the indices) moved, or data cast;
        batch_sizes stays on the CPU."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        move = (lambda t: None if t is None else t.to(data.device))
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    def is_pinned(self):
        """False: devtensor has no pinned host memory."""
        return False

    def cuda(self, *args, **kwargs):
        return self.to(self.data.cuda(*args, **kwargs).device)

    def cpu(self):
        return self.to("cpu")

    @property
    def is_cuda(self):
        return self.data.device.type == "cuda"


for _name, _dtype in _CASTS:  # float(), double(), long(), ...: data cast, as a tensor's methods
    setattr(PackedSequence, _name, _cast(_name, _dtype))
del _name, _dtype


def _inverse(permutation):
    dt = _dt()
    inverse = dt.empty_like(permutation)
    inverse[permutation] = dt.arange(permutation.shape[0], dtype=permutation.dtype, device=permutation.device)
    return inverse


def _lengths(lengths):
    from ..._C import Tensor
    if isinstance(lengths, Tensor):
        if lengths.device.type != "cpu":
            raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got 1D "
                               f"{lengths.device.type} {lengths.dtype} tensor")
        lengths = lengths.tolist()
    return [int(n) for n in lengths]


def _rows(batch_sizes, batch):
    """The rows of a time-major (T * batch) flattening that the packing keeps, in packed order."""
    return [t * batch + b for t, size in enumerate(batch_sizes) for b in range(size)]


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """The padded batch input, (T, B, *) or with batch_first (B, T, *), packed
    to its sequences' lengths (Note [Packed sequences]).  With
    enforce_sorted the lengths must already decrease."""
    dt = _dt()
    lengths = _lengths(lengths)
    if batch_first:
        input = input.swapaxes(0, 1)
    if input.ndim < 2 or len(lengths) != input.shape[1]:
        raise ValueError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths)} (batch_size="
                         f"{input.shape[1] if input.ndim >= 2 else 'none'})")
    if any(n <= 0 for n in lengths):
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if max(lengths) > input.shape[0]:
        raise RuntimeError(f"Expected sequence length to be at most the padded length {input.shape[0]}, but "
                           f"found a length of {max(lengths)}")
    if enforce_sorted:
        if any(a < b for a, b in zip(lengths, lengths[1:])):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                               "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                               "pack_sequence to sidestep this requirement if you do not need ONNX "
                               "exportability.")
        sorted_indices = None
    else:
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
        sorted_indices = dt.tensor(order, dtype=dt.int64, device=input.device)
        input = input[:, sorted_indices]
        lengths = [lengths[i] for i in order]
    sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0])]
    flat = input.reshape((input.shape[0] * input.shape[1],) + tuple(input.shape[2:]))
    data = flat[dt.tensor(_rows(sizes, input.shape[1]), dtype=dt.int64, device=input.device)]
    return PackedSequence(data, dt.tensor(sizes, dtype=dt.int64), sorted_indices)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The padded batch (T, B, *) (or (B, T, *)) and the lengths (an int64 CPU
    tensor) of a PackedSequence, in the batch's original order."""
    dt = _dt()
    data, sizes = sequence.data, sequence.batch_sizes.tolist()
    steps, batch = len(sizes), sizes[0]
    if total_length is not None:
        if total_length < steps:
            raise ValueError(f"Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {steps}")
        steps = total_length
    out = dt.full((steps * batch,) + tuple(data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    out[dt.tensor(_rows(sizes, batch), dtype=dt.int64, device=data.device)] = data
    out = out.reshape((steps, batch) + tuple(data.shape[1:]))
    lengths = dt.tensor([sum(1 for s in sizes if s > b) for b in range(batch)], dtype=dt.int64)
    if sequence.unsorted_indices is not None:
        out = out[:, sequence.unsorted_indices]
        lengths = lengths[sequence.unsorted_indices.cpu()]
    return (out.swapaxes(0, 1) if batch_first else out), lengths


def pack_sequence(sequences, enforce_sorted=True):
    """A list of tensors (L_i, *) packed (pad_sequence, then pack_padded_sequence)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of tensors that pack_sequence packed."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences, each cut to its length, of a padded batch."""
    padded = padded_sequences if batch_first else padded_sequences.swapaxes(0, 1)
    return [padded[i, :n] for i, n in enumerate(_lengths(lengths))]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Tensors of lengths L_i (and equal trailing dims) stacked into one of
    the longest length, padded with padding_value: (L, B, *) or with
    batch_first (B, L, *)."""
    from ... import full, result_type
    seqs = list(sequences)
    if not seqs:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    trailing = seqs[0].shape[1:]
    if any(s.shape[1:] != trailing for s in seqs):
        raise RuntimeError("The size of the sequences must match except in the first dimension")
    longest = max(s.shape[0] for s in seqs)
    out = full((len(seqs), longest) + tuple(trailing), padding_value, dtype=result_type(*seqs),
               device=seqs[0].device)
    for i, s in enumerate(seqs):
        n = s.shape[0]
        if padding_side == "right":
            out[i, :n] = s
        else:
            out[i, longest - n:] = s
    return out if batch_first else out.swapaxes(0, 1)
