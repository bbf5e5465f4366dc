"""devtensor.utils.data: PyTorch's Dataset, TensorDataset, Subset,
ConcatDataset, random_split, default_collate and DataLoader (batching,
shuffling with devtensor's generators, drop_last, collate_fn), for
inference loops over batches on any device.

Note [Loading batches]
    A DataLoader over a TensorDataset with the default collate takes each
    batch with one gather per tensor (t[indices], on the tensor's device)
    instead of stacking batch_size single rows: the same batches as
    PyTorch's, without a Python step per sample.  Other datasets are read
    sample by sample and collated as PyTorch's default_collate does
    (tensors stacked, numbers made tensors, tuples, lists and dicts
    collated field by field).  There are no worker processes: num_workers
    and pin_memory are accepted and the batches are made in the calling
    process, in the same order.
"""
import bisect
import math
import numbers

import numpy as np

from .. import _C

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset", "random_split",
           "default_collate", "DataLoader"]


def _dt():
    import devtensor
    return devtensor


class Dataset:
    """A map-style dataset: __getitem__(index) and __len__."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset read by iterating it (__iter__); a DataLoader batches what it yields."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Samples of tensors sharing their first dimension: dataset[i] is
    (t[i] for t in tensors)."""

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        n = tensors[0].shape[0] if tensors[0].ndim else None
        if any(not isinstance(t, _C.TensorBase) for t in tensors):
            raise TypeError("TensorDataset takes tensors")
        if n is None or any(t.ndim == 0 or t.shape[0] != n for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The samples of dataset at indices."""

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """Datasets one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes, total = [], 0
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        if d == len(self.datasets):
            raise IndexError(f"index {idx} is out of range for a dataset of {len(self)}")
        return self.datasets[d][idx - (self.cumulative_sizes[d - 1] if d else 0)]


def _permutation(n, generator):
    from .. import random
    if generator is not None and not isinstance(generator, random.Generator):
        raise TypeError(f"generator must be a devtensor.random.Generator, not {type(generator).__name__}")
    return (generator or random).permutation(n).tolist()


def random_split(dataset, lengths, generator=None):
    """Non-overlapping random Subsets of the given lengths (or fractions
    summing to 1, the remainder dealt one by one from the first), PyTorch's
    random_split; shuffled with devtensor's generator."""
    n = len(dataset)
    lengths = list(lengths)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order, out, at = _permutation(n, generator), [], 0
    for k in lengths:
        out.append(Subset(dataset, order[at:at + k]))
        at += k
    return out


def default_collate(batch):
    """PyTorch's default_collate: tensors stacked (a new first dim), NumPy
    arrays and numbers made tensors, strings kept as a list, and tuples,
    lists and dicts collated field by field."""
    dt = _dt()
    first = batch[0]
    if isinstance(first, _C.TensorBase):
        return dt.stack(list(batch))
    if isinstance(first, np.ndarray) and first.dtype.kind in "biufc":
        return dt.stack([dt.asarray(b) for b in batch])
    if isinstance(first, (bool, np.bool_)):
        return dt.tensor([bool(b) for b in batch])
    if isinstance(first, (numbers.Integral, np.integer)):
        return dt.tensor([int(b) for b in batch], dtype=dt.int64)
    if isinstance(first, (numbers.Real, np.floating)):
        return dt.tensor([float(b) for b in batch], dtype=dt.float64)
    if isinstance(first, (str, bytes)):
        return list(batch)
    if isinstance(first, dict):
        return {key: default_collate([b[key] for b in batch]) for key in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a named tuple
        return type(first)(*(default_collate(list(s)) for s in zip(*batch)))
    if isinstance(first, (tuple, list)):
        if any(len(b) != len(first) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(s)) for s in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found "
                    f"{type(first).__name__}")


class DataLoader:
    """Batches of a dataset: batch_size samples at a time (the last batch
    shorter unless drop_last), in order or shuffled (each epoch anew, from
    generator or devtensor's global one), collated by collate_fn (Note
    [Loading batches]); batch_size=None yields single samples, uncollated."""

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, *, prefetch_factor=None, persistent_workers=False):
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None or drop_last):
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                             "drop_last")
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        self.dataset, self.batch_size, self.shuffle, self.sampler = dataset, batch_size, shuffle, sampler
        self.batch_sampler, self.num_workers, self.drop_last = batch_sampler, num_workers, drop_last
        self.collate_fn, self.generator, self.pin_memory = collate_fn, generator, pin_memory
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable and (shuffle or sampler is not None or batch_sampler is not None):
            raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle, sampler and "
                             "batch_sampler options")

    def _indices(self):
        if self.sampler is not None:
            return list(self.sampler)
        n = len(self.dataset)
        return _permutation(n, self.generator) if self.shuffle else list(range(n))

    def _batches(self):
        if self.batch_sampler is not None:
            yield from (list(b) for b in self.batch_sampler)
            return
        order = self._indices()
        step = self.batch_size
        for at in range(0, len(order), step):
            batch = order[at:at + step]
            if len(batch) < step and self.drop_last:
                return
            yield batch

    def _collate(self, samples):
        return (self.collate_fn or default_collate)(samples)

    def __iter__(self):
        if self._iterable:
            yield from self._iterate_stream()
            return
        if self.batch_size is None and self.batch_sampler is None:
            for i in self._indices():
                sample = self.dataset[i]
                yield sample if self.collate_fn is None else self.collate_fn(sample)
            return
        fast = isinstance(self.dataset, TensorDataset) and self.collate_fn is None
        for batch in self._batches():
            if fast:  # Note [Loading batches]
                tensors = self.dataset.tensors
                index = _dt().asarray(batch, dtype=_C.int64)
                yield [t[index.to(t.device)] for t in tensors]
            else:
                yield self._collate([self.dataset[i] for i in batch])

    def _iterate_stream(self):
        if self.batch_size is None:
            yield from (s if self.collate_fn is None else self.collate_fn(s) for s in self.dataset)
            return
        batch = []
        for sample in self.dataset:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self._collate(batch)
                batch = []
        if batch and not self.drop_last:
            yield self._collate(batch)

    def __len__(self):
        if self._iterable:
            raise TypeError("an IterableDataset's DataLoader has no length")
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
