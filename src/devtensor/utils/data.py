"""devtensor.utils.data: PyTorch's Dataset, TensorDataset, Subset,
ConcatDataset, ChainDataset, random_split, the samplers (Sequential,
Random, SubsetRandom, WeightedRandom, Batch), default_collate and
DataLoader (batching, shuffling with devtensor's generators, drop_last,
collate_fn), for inference loops over batches on any device.

Note [Loading batches]
    A DataLoader over a TensorDataset with the default collate takes each
    batch with one gather per tensor (t[indices], on the tensor's device)
    instead of stacking batch_size single rows: the same batches as
    PyTorch's, without a Python step per sample.  Other datasets are read
    sample by sample and collated as PyTorch's default_collate does
    (tensors stacked, numbers made tensors, tuples, lists and dicts
    collated field by field).  There are no worker processes: num_workers
    and pin_memory are accepted and the batches are made in the calling
    process, in the same order, and get_worker_info() is None.

Note [Samplers' draws]
    The random samplers draw their indices on the cpu (WeightedRandomSampler
    on its weights' device) from generator (a devtensor.random Generator,
    devtensor.Generator included) or, without one, devtensor's global
    stream, so devtensor.manual_seed makes them repeat; each iteration
    draws anew.  The draws are PyTorch's in
    kind (randperm for a permutation, randint with replacement,
    multinomial over the weights), not its numbers.  A DataLoader with
    shuffle=True iterates a RandomSampler over the dataset (one
    permutation per epoch) and batches through a BatchSampler, as
    PyTorch's does.
"""
import bisect
import math
import numbers

import numpy as np

from .. import _C

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset", "ChainDataset", "random_split",
           "Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler", "get_worker_info", "default_collate", "DataLoader"]


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

    def __add__(self, other):
        return ChainDataset([self, other])


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


class ChainDataset(IterableDataset):
    """IterableDatasets one after another (PyTorch's ChainDataset): the
    samples of each in turn, the sum of their lengths."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self):
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)
        return total


def _check_generator(generator):
    from .. import random
    if generator is not None and not isinstance(generator, random.Generator):
        raise TypeError(f"generator must be a devtensor.random.Generator, not {type(generator).__name__}")


def _permutation(n, generator):
    """A permutation of range(n), a list, from generator or the global stream (on the cpu)."""
    from .. import random
    _check_generator(generator)
    return (generator or random).permutation(n, device="cpu").tolist()


def _positive_int(value, name):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{name} should be a positive integer value, but got {name}={value}")


class Sampler:
    """The base of samplers: an iterable of dataset indices (or of batches
    of them); __len__ optional."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError("Subclasses of Sampler should implement __iter__.")


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """Random indices of data_source: a permutation (num_samples beyond its
    length taking further permutations, the last one cut), or with
    replacement num_samples draws; from generator or the global stream
    (Note [Samplers' draws])."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        _positive_int(self.num_samples, "num_samples")
        _check_generator(generator)

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n, k = len(self.data_source), self.num_samples
        if self.replacement:
            from .. import random
            source = self.generator if self.generator is not None else random
            draw = source.integers if self.generator is not None else source.randint
            yield from draw(0, n, k, device="cpu").tolist()
            return
        for _ in range(k // n):
            yield from _permutation(n, self.generator)
        if k % n:
            yield from _permutation(n, self.generator)[:k % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order, anew each iteration."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator
        _check_generator(generator)

    def __iter__(self):
        for i in _permutation(len(self.indices), self.generator):
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices of range(len(weights)), index i drawn with
    probability proportional to weights[i] (multinomial), with replacement
    or without (then num_samples at most the number of nonzero weights,
    checked when drawn, as PyTorch does)."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        _positive_int(num_samples, "num_samples")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        _check_generator(generator)
        dt = _dt()
        weights = dt.as_tensor(weights, dtype=dt.float64)
        if weights.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self):
        picked = _dt().multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from picked.tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """The indices of sampler in lists of batch_size (the last one shorter,
    or dropped if drop_last)."""

    def __init__(self, sampler, batch_size, drop_last):
        _positive_int(batch_size, "batch_size")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def get_worker_info():
    """None: devtensor's DataLoader has no worker processes (Note [Loading batches])."""
    return None


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
    arrays and numbers made tensors (NumPy scalars keeping their dtype,
    Python ints int64, floats float64), strings kept as a list, and tuples,
    lists and dicts collated field by field."""
    dt = _dt()
    first = batch[0]
    if isinstance(first, _C.TensorBase):
        return dt.stack(list(batch), dim=0)  # (dim=: PyTorch's error for unequal sizes)
    if isinstance(first, np.ndarray) and first.dtype.kind in "biufc":
        return dt.stack([dt.asarray(b) for b in batch], dim=0)
    if isinstance(first, np.generic) and first.dtype.kind in "biufc":  # NumPy scalars keep their dtype
        return dt.asarray(np.asarray(batch))
    if isinstance(first, bool):
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
    generator or devtensor's global one), or in sampler's order, or in
    batch_sampler's batches, collated by collate_fn (Note [Loading
    batches]); batch_size=None yields single samples, uncollated.  As
    PyTorch's, .sampler and .batch_sampler are the samplers it iterates
    (a SequentialSampler or RandomSampler and a BatchSampler unless given;
    None over an IterableDataset)."""

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, *, prefetch_factor=None, persistent_workers=False):
        if batch_size is not None and (not isinstance(batch_size, int) or isinstance(batch_size, bool)
                                       or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None or drop_last):
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                             "drop_last")
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable and (shuffle or sampler is not None or batch_sampler is not None):
            raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle, sampler and "
                             "batch_sampler options")
        if batch_sampler is not None:
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if not self._iterable:
            if sampler is None:
                sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
            if batch_size is not None and batch_sampler is None:
                batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.shuffle, self.sampler = dataset, batch_size, shuffle, sampler
        self.batch_sampler, self.num_workers, self.drop_last = batch_sampler, num_workers, drop_last
        self.collate_fn, self.generator, self.pin_memory = collate_fn, generator, pin_memory

    def _collate(self, samples):
        return (self.collate_fn or default_collate)(samples)

    def __iter__(self):
        if self._iterable:
            yield from self._iterate_stream()
            return
        if self.batch_sampler is None:
            for i in self.sampler:
                sample = self.dataset[i]
                yield sample if self.collate_fn is None else self.collate_fn(sample)
            return
        fast = isinstance(self.dataset, TensorDataset) and self.collate_fn is None
        for batch in self.batch_sampler:
            if fast:  # Note [Loading batches]
                tensors = self.dataset.tensors
                index = batch if isinstance(batch, _C.TensorBase) else list(batch)
                index = _dt().asarray(index, dtype=_C.int64, device="cpu")
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
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)
