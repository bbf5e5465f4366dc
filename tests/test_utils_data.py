"""devtensor.utils.data: PyTorch's datasets, random_split, default_collate
and DataLoader, on every device."""
import collections

import numpy as np
import pytest

import devtensor as dt
from devtensor.utils.data import (ConcatDataset, DataLoader, Dataset, IterableDataset, Subset, TensorDataset,
                                  default_collate, random_split)
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
