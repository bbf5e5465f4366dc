"""devtensor.utils.data: PyTorch's datasets, random_split, samplers,
default_collate and DataLoader, on every device."""
import collections

import numpy as np
import pytest

import devtensor as dt
from devtensor.utils.data import (BatchSampler, ChainDataset, ConcatDataset, DataLoader, Dataset, IterableDataset,
                                  RandomSampler, Sampler, SequentialSampler, Subset, SubsetRandomSampler, TensorDataset,
                                  WeightedRandomSampler, default_collate, get_worker_info, random_split)
from helpers import to_np


def test_tensor_dataset_and_loader_batches(device):
    x = dt.arange(20.0, device=device).reshape(10, 2)
    y = dt.arange(10, device=device)
    ds = TensorDataset(x, y)
    assert len(ds) == 10 and ds[3][1].tolist() == 3 and ds[3][0].tolist() == [6.0, 7.0]
    loader = DataLoader(ds, batch_size=4)
    batches = list(loader)
    assert len(loader) == 3 and [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert all(isinstance(b, list) and b[0].device == dt.device(device) for b in batches)
    assert batches[0][0].shape == (4, 2) and batches[2][0].tolist() == [[16.0, 17.0], [18.0, 19.0]]
    assert len(DataLoader(ds, batch_size=4, drop_last=True)) == 2
    assert [b[1].shape[0] for b in DataLoader(ds, batch_size=4, drop_last=True)] == [4, 4]
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(x, dt.arange(3))


def test_shuffle_is_a_permutation_per_epoch_and_seeded():
    ds = TensorDataset(dt.arange(50))
    loader = DataLoader(ds, batch_size=8, shuffle=True, generator=dt.random.default_rng(3))
    epoch1 = np.concatenate([to_np(b[0]) for b in loader])
    epoch2 = np.concatenate([to_np(b[0]) for b in loader])
    assert sorted(epoch1.tolist()) == list(range(50)) and sorted(epoch2.tolist()) == list(range(50))
    assert epoch1.tolist() != epoch2.tolist() and epoch1.tolist() != list(range(50))
    again = DataLoader(ds, batch_size=8, shuffle=True, generator=dt.random.default_rng(3))
    assert np.concatenate([to_np(b[0]) for b in again]).tolist() == epoch1.tolist()


class Squares(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": dt.full((2,), float(i)), "y": i * i, "name": f"s{i}"}


def test_default_collate_of_samples():
    batch = next(iter(DataLoader(Squares(), batch_size=3)))
    assert batch["x"].shape == (3, 2) and batch["y"].tolist() == [0, 1, 4] and batch["y"].dtype == dt.int64
    assert batch["name"] == ["s0", "s1", "s2"]
    Pair = collections.namedtuple("Pair", "a b")
    r = default_collate([Pair(1.5, np.ones(2)), Pair(2.5, np.zeros(2))])
    assert isinstance(r, Pair) and r.a.tolist() == [1.5, 2.5] and r.b.shape == (2, 2)
    assert [t.tolist() for t in default_collate([(1, True), (2, False)])] == [[1, 2], [True, False]]
    with pytest.raises(TypeError, match="default_collate"):
        default_collate([object()])
    assert [s["y"] for s in DataLoader(Squares(), batch_size=None)] == [0, 1, 4, 9, 16]


def test_subsets_concat_and_random_split():
    ds = TensorDataset(dt.arange(10))
    a, b = random_split(ds, [7, 3], generator=dt.random.default_rng(0))
    assert len(a) == 7 and len(b) == 3 and isinstance(a, Subset)
    seen = sorted([int(a[i][0]) for i in range(7)] + [int(b[i][0]) for i in range(3)])
    assert seen == list(range(10))
    parts = random_split(ds, [0.5, 0.3, 0.2])
    assert [len(p) for p in parts] == [5, 3, 2]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(ds, [4, 4])
    both = ds + TensorDataset(dt.arange(100, 103))
    assert isinstance(both, ConcatDataset) and len(both) == 13 and int(both[11][0]) == 101 and int(both[-1][0]) == 102


class Stream(IterableDataset):
    def __iter__(self):
        return iter(range(7))


def test_iterable_datasets_and_argument_errors():
    assert [b.tolist() for b in DataLoader(Stream(), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in DataLoader(Stream(), batch_size=3, drop_last=True)] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="expected unspecified shuffle"):
        DataLoader(Stream(), shuffle=True)
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        DataLoader(TensorDataset(dt.arange(3)), batch_size=0)
    with pytest.raises(ValueError, match="mutually exclusive with shuffle"):
        DataLoader(TensorDataset(dt.arange(3)), sampler=[0, 1], shuffle=True)
    loader = DataLoader(TensorDataset(dt.arange(6)), batch_sampler=[[5, 0], [1]], num_workers=2)
    assert [b[0].tolist() for b in loader] == [[5, 0], [1]] and len(loader) == 2
    assert [b[0].tolist() for b in DataLoader(TensorDataset(dt.arange(6)), sampler=[4, 2, 0], batch_size=2)] == \
        [[4, 2], [0]]


# ---- samplers ----

def test_sequential_sampler_and_base_class():
    assert list(SequentialSampler(range(5))) == [0, 1, 2, 3, 4] and len(SequentialSampler([7] * 3)) == 3
    assert list(SequentialSampler([])) == []

    class Evens(Sampler):  # __len__ is optional
        def __iter__(self):
            return iter([0, 2, 4])

    assert list(Evens()) == [0, 2, 4] and list(Evens(range(6))) == [0, 2, 4]
    with pytest.raises(NotImplementedError):
        iter(Sampler())
    with pytest.raises(TypeError):
        len(Evens())
    ds = TensorDataset(dt.arange(10, 16))
    assert [b[0].tolist() for b in DataLoader(ds, batch_size=4, sampler=Evens())] == [[10, 12, 14]]


def test_random_sampler_permutations_and_seeds():
    s = RandomSampler(range(20))
    assert len(s) == 20 and s.num_samples == 20 and s.replacement is False
    dt.manual_seed(11)
    first, second = list(s), list(s)
    assert sorted(first) == list(range(20)) and sorted(second) == list(range(20))
    assert first != second and first != list(range(20))  # a new permutation each epoch
    assert all(type(i) is int for i in first)
    dt.manual_seed(11)
    assert list(s) == first and list(s) == second  # manual_seed replays them
    g = dt.Generator().manual_seed(5)
    from_g = list(RandomSampler(range(20), generator=g))
    dt.manual_seed(0)
    assert list(RandomSampler(range(20), generator=dt.Generator().manual_seed(5))) == from_g
    # num_samples beyond the length: whole permutations, then the start of one
    dt.manual_seed(3)
    long = list(RandomSampler(range(4), num_samples=10))
    assert len(long) == 10 and sorted(long[:4]) == sorted(long[4:8]) == [0, 1, 2, 3]
    assert len(set(long[8:])) == 2 and set(long[8:]) <= {0, 1, 2, 3}
    assert len(list(RandomSampler(range(10), num_samples=3))) == 3


def test_random_sampler_with_replacement():
    dt.manual_seed(1)
    s = RandomSampler(range(5), replacement=True, num_samples=400)
    draws = list(s)
    assert len(s) == 400 and len(draws) == 400 and set(draws) == {0, 1, 2, 3, 4}
    counts = np.bincount(draws, minlength=5)
    assert counts.min() > 40 and counts.max() < 130  # about 80 each
    dt.manual_seed(1)
    assert list(s) == draws
    assert len(list(RandomSampler(range(3), replacement=True))) == 3  # num_samples defaults to the length
    g = dt.Generator().manual_seed(9)
    again = list(RandomSampler(range(5), True, 50, generator=g))
    assert again == list(RandomSampler(range(5), True, 50, generator=dt.Generator().manual_seed(9)))


def test_random_sampler_argument_errors():
    with pytest.raises(TypeError, match="replacement should be a boolean value, but got replacement=1"):
        RandomSampler(range(3), replacement=1)
    for bad in (0, -2, 2.0, True, "3"):
        with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
            RandomSampler(range(3), num_samples=bad)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but got num_samples=0"):
        RandomSampler([])
    with pytest.raises(TypeError, match="generator must be a devtensor.random.Generator"):
        RandomSampler(range(3), generator=42)


def test_subset_random_sampler():
    indices = [10, 3, 7, 42, 8]
    s = SubsetRandomSampler(indices)
    dt.manual_seed(2)
    a, b = list(s), list(s)
    assert len(s) == 5 and sorted(a) == sorted(b) == [3, 7, 8, 10, 42] and a != b
    dt.manual_seed(2)
    assert list(s) == a
    g1, g2 = dt.Generator().manual_seed(4), dt.Generator().manual_seed(4)
    assert list(SubsetRandomSampler(indices, g1)) == list(SubsetRandomSampler(indices, g2))
    assert list(SubsetRandomSampler([])) == []


def test_weighted_random_sampler():
    dt.manual_seed(6)
    s = WeightedRandomSampler([1.0, 0.0, 3.0], 4000)
    draws = list(s)
    assert len(s) == 4000 and len(draws) == 4000 and set(draws) == {0, 2}  # a zero weight is never drawn
    assert 0.71 < draws.count(2) / 4000 < 0.79  # 3/4, the standard deviation about 0.007
    dt.manual_seed(6)
    assert list(s) == draws
    assert s.weights.dtype == dt.float64 and s.replacement is True
    dt.manual_seed(6)
    no_repeat = list(WeightedRandomSampler(dt.tensor([0.5, 0.0, 2, 1, 0]), 3, replacement=False))
    assert sorted(no_repeat) == [0, 2, 3]
    g = dt.Generator().manual_seed(8)
    w = np.array([1, 2, 3, 4, 5])
    assert list(WeightedRandomSampler(w, 30, generator=g)) == \
        list(WeightedRandomSampler(w, 30, generator=dt.Generator().manual_seed(8)))
    # the first of many draws without replacement goes to the heaviest weight most often
    firsts = [next(iter(WeightedRandomSampler([1, 1, 18], 2, replacement=False))) for _ in range(200)]
    assert firsts.count(2) > 150


def test_weighted_random_sampler_errors():
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
            WeightedRandomSampler([1.0, 2.0], bad)
    with pytest.raises(ValueError, match="replacement should be a boolean value, but got replacement=0"):
        WeightedRandomSampler([1.0, 2.0], 2, replacement=0)
    with pytest.raises(ValueError, match=r"weights should be a 1d sequence but given weights have shape \(2, 2\)"):
        WeightedRandomSampler([[1.0, 2.0], [3.0, 4.0]], 2)
    too_many = WeightedRandomSampler([1.0, 0.0, 2.0], 3, replacement=False)  # two nonzero weights
    assert len(too_many) == 3
    with pytest.raises(RuntimeError, match="not enough non-negative category to sample"):
        list(too_many)
    with pytest.raises(RuntimeError, match="element < 0"):
        list(WeightedRandomSampler([1.0, -1.0], 2))
    with pytest.raises(TypeError, match="generator must be a devtensor.random.Generator"):
        WeightedRandomSampler([1.0], 1, generator="seed")


def test_batch_sampler():
    assert list(BatchSampler(range(10), 3, False)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert list(BatchSampler(SequentialSampler(range(10)), 3, True)) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert len(BatchSampler(range(10), 3, False)) == 4 and len(BatchSampler(range(10), 3, True)) == 3
    assert len(BatchSampler(range(9), 3, False)) == 3 and list(BatchSampler([], 2, False)) == []
    dt.manual_seed(5)
    batches = list(BatchSampler(RandomSampler(range(7)), 2, False))
    assert [len(b) for b in batches] == [2, 2, 2, 1] and sorted(sum(batches, [])) == list(range(7))
    for bad in (0, -3, 2.0, True, None):
        with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
            BatchSampler(range(4), bad, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value, but got drop_last=1"):
        BatchSampler(range(4), 2, 1)


# ---- DataLoader with samplers ----

def test_dataloader_samplers_by_default():
    ds = TensorDataset(dt.arange(10))
    plain, shuffled = DataLoader(ds, batch_size=3), DataLoader(ds, batch_size=3, shuffle=True)
    assert isinstance(plain.sampler, SequentialSampler) and isinstance(shuffled.sampler, RandomSampler)
    assert isinstance(plain.batch_sampler, BatchSampler) and plain.batch_sampler.batch_size == 3
    assert plain.batch_sampler.sampler is plain.sampler and plain.batch_sampler.drop_last is False
    assert DataLoader(ds, batch_size=None).batch_sampler is None
    assert DataLoader(Stream(), batch_size=2).sampler is None
    dt.manual_seed(21)
    epoch = [i for b in shuffled for i in b[0].tolist()]
    assert sorted(epoch) == list(range(10)) and epoch != list(range(10))
    dt.manual_seed(21)
    assert list(RandomSampler(ds)) == epoch  # the loader's order is its RandomSampler's
    dt.manual_seed(21)
    assert [i for b in shuffled for i in b[0].tolist()] == epoch
    g = dt.Generator().manual_seed(13)
    with_g = [b[0].tolist() for b in DataLoader(ds, batch_size=4, shuffle=True, generator=g)]
    assert with_g == [b[0].tolist() for b in DataLoader(ds, batch_size=4, shuffle=True,
                                                         generator=dt.Generator().manual_seed(13))]
    assert [len(b) for b in with_g] == [4, 4, 2]
    with pytest.raises(ValueError, match="mutually exclusive with drop_last"):
        DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="drop_last should be a boolean value"):
        DataLoader(ds, batch_size=2, drop_last="yes")


def test_dataloader_with_each_sampler(device):
    ds = TensorDataset(dt.arange(0, 100, 10, device=device), dt.arange(10.0, device=device))
    loader = DataLoader(ds, batch_size=4, sampler=RandomSampler(ds, replacement=True, num_samples=9))
    batches = list(loader)
    assert len(loader) == 3 and [b[0].shape[0] for b in batches] == [4, 4, 1]
    assert all(b[0].device == dt.device(device) for b in batches)
    for b in batches:  # the rows stay paired
        assert (b[0] == b[1].astype(dt.int64) * 10).all()
    sub = DataLoader(ds, batch_size=2, sampler=SubsetRandomSampler([1, 4, 6]))
    assert sorted(i for b in sub for i in b[0].tolist()) == [10, 40, 60] and len(sub) == 2
    weighted = DataLoader(ds, batch_size=5, sampler=WeightedRandomSampler([0] * 9 + [1], 10))
    assert [b[0].tolist() for b in weighted] == [[90] * 5, [90] * 5]
    by_batch = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 4, drop_last=True))
    assert [b[0].tolist() for b in by_batch] == [[0, 10, 20, 30], [40, 50, 60, 70]] and len(by_batch) == 2
    assert by_batch.batch_size is None and by_batch.drop_last is False
    single = DataLoader(ds, batch_size=None, sampler=SubsetRandomSampler([2, 5]))
    assert sorted(int(s[0]) for s in single) == [20, 50] and len(single) == 2
    # a dataset read sample by sample and collated
    squares = DataLoader(Squares(), batch_size=2, sampler=SubsetRandomSampler([1, 3]))
    (batch,) = list(squares)
    assert sorted(batch["y"].tolist()) == [1, 9] and batch["x"].shape == (2, 2)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        DataLoader(ds, batch_size=4, batch_sampler=BatchSampler(range(10), 4, False))


# ---- ChainDataset, get_worker_info ----

class Sized(IterableDataset):
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)


def test_chain_dataset_and_worker_info():
    chain = ChainDataset([Sized([1, 2]), Sized([]), Sized([3])])
    assert isinstance(chain, IterableDataset) and list(chain) == [1, 2, 3] and len(chain) == 3
    assert list(ChainDataset([Stream(), Sized([9])])) == list(range(7)) + [9]
    both = Sized([5]) + Stream()
    assert isinstance(both, ChainDataset) and list(both) == [5] + list(range(7))
    assert [b.tolist() for b in DataLoader(chain, batch_size=2)] == [[1, 2], [3]]
    bad = ChainDataset([Sized([1]), TensorDataset(dt.arange(2))])
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(bad)
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        len(bad)
    assert get_worker_info() is None


# ---- default_collate of NumPy scalars ----

def test_default_collate_keeps_numpy_scalar_dtypes():
    f32 = default_collate([np.float32(1.5), np.float32(-2.25)])
    assert f32.dtype == dt.float32 and f32.tolist() == [1.5, -2.25]
    i32 = default_collate([np.int32(3), np.int32(-4)])
    assert i32.dtype == dt.int32 and i32.tolist() == [3, -4]
    assert default_collate([np.float64(0.5)]).dtype == dt.float64
    assert default_collate([np.int64(7)]).dtype == dt.int64
    assert default_collate([np.uint8(200), np.uint8(1)]).tolist() == [200, 1]
    assert default_collate([np.uint8(200)]).dtype == dt.uint8
    b = default_collate([np.bool_(True), np.bool_(False)])
    assert b.dtype == dt.bool and b.tolist() == [True, False]
    # Python numbers as before
    assert default_collate([1.5, 2.0]).dtype == dt.float64 and default_collate([1, 2]).dtype == dt.int64
    assert default_collate([True, False]).dtype == dt.bool

    class Pairs(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return {"w": np.float32(i / 2), "n": np.int16(i)}

    (batch,) = list(DataLoader(Pairs(), batch_size=3))
    assert batch["w"].dtype == dt.float32 and batch["w"].tolist() == [0.0, 0.5, 1.0]
    assert batch["n"].dtype == dt.int16 and batch["n"].tolist() == [0, 1, 2]
