"""devtensor.save / devtensor.load: safetensors files, round trips on every
device, map_location, the safetensors package reading and writing them, and
hostile files (Note [Reading files we do not trust])."""
import io
import json
import os
import pickle
import struct

import numpy as np
import pytest

import devtensor as dt
from devtensor import nn
from helpers import ALL_DTYPE_NAMES, CUDA_DEVICES, assert_same, run_python, to_np

safetensors_numpy = pytest.importorskip("safetensors.numpy")


def sample(dtype, device, shape=(2, 3)):
    values = (np.arange(np.prod(shape)).reshape(shape) % 5) - 1
    if dtype == "bool":
        values = values > 0
    if dtype.startswith("complex"):
        values = values + 0.5j * values
    t = dt.asarray(np.asarray(values).astype(dtype if dtype != "bfloat16" else "float32"))
    return t.astype(dtype).to(device)


def same(a, b):
    assert type(a) is type(b) or (isinstance(a, dt.Tensor) and isinstance(b, dt.Tensor))
    assert a.dtype == b.dtype and a.shape == b.shape and a.device == b.device
    if a.dtype == dt.bfloat16:
        a, b = a.astype(dt.float32), b.astype(dt.float32)
    np.testing.assert_array_equal(to_np(a), to_np(b))


@pytest.mark.parametrize("dtype", ALL_DTYPE_NAMES)
def test_round_trip_every_dtype(device, dtype, tmp_path):
    t = sample(dtype, device)
    path = tmp_path / "t.safetensors"
    dt.save(t, path)
    back = dt.load(path)
    same(back, t)
    strided = sample(dtype, device, (4, 6))[::2, ::-3]
    buf = io.BytesIO()
    dt.save(strided, buf)
    buf.seek(0)
    same(dt.load(buf), strided.copy())


def test_round_trip_kinds(device, tmp_path):
    a, b = dt.arange(5, device=device), dt.ones((0, 3), device=device)
    c = dt.asarray(2.5, device=device)
    for obj in ([a, b, c], (a, c), {"x": a, "empty": b, "scalar": c}, {}):
        dt.save(obj, tmp_path / "o.safetensors")
        back = dt.load(tmp_path / "o.safetensors")
        assert type(back) is type(obj) and len(back) == len(obj)
        pairs = zip(obj.values(), back.values()) if isinstance(obj, dict) else zip(obj, back)
        for x, y in pairs:
            same(y, x)
        if isinstance(obj, dict):
            assert list(back) == list(obj)
    assert os.listdir(tmp_path) == ["o.safetensors"]  # no temporary files left


def test_map_location(device, tmp_path):
    path = tmp_path / "m.safetensors"
    dt.save({"a": dt.arange(3.0, device=device), "b": dt.ones(2)}, path)
    for where in ("cpu", dt.device("cpu")):
        back = dt.load(path, map_location=where)
        assert back["a"].device == dt.device("cpu") and back["b"].device == dt.device("cpu")
    for d in CUDA_DEVICES:
        back = dt.load(path, map_location={device: d})
        assert back["a"].device == dt.device(d) and back["b"].device == dt.device(
            d if device == "cpu" else "cpu")
    seen = []
    back = dt.load(path, map_location=lambda t, saved: seen.append(saved) or t * 2)
    assert seen == [device, "cpu"] and to_np(back["a"]).tolist() == [0.0, 2.0, 4.0]
    with pytest.raises(TypeError, match="map_location returned list"):
        dt.load(path, map_location=lambda t, saved: [t])
    for weights_only in (True, False):  # PyTorch's keyword: loading never runs code either way
        back = dt.load(path, map_location="cpu", weights_only=weights_only)
        assert to_np(back["a"]).tolist() == [0.0, 1.0, 2.0]


def test_cuda_tensor_where_cuda_is_absent_needs_map_location(tmp_path):
    path = tmp_path / "cuda.safetensors"
    header = {"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
              "__metadata__": {"devtensor": json.dumps({"kind": "dict", "devices":
                                                        {"w": "cuda:0"}, "complex128": []})}}
    write_raw(path, header, np.array([1.5, 2.5], np.float32).tobytes())
    code = (f"import devtensor as dt\n"
            f"try:\n    dt.load({str(path)!r})\n"
            f"except RuntimeError as e:\n    print('RuntimeError', e)\n"
            f"print(dt.load({str(path)!r}, map_location='cpu')['w'].tolist())\n")
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert "RuntimeError devtensor.load: a tensor was saved on cuda:0" in out.stdout
    assert "map_location='cpu'" in out.stdout
    assert out.stdout.strip().endswith("[1.5, 2.5]")


def test_state_dict_round_trip(device_pair, tmp_path):
    src, dst = device_pair
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(src)
    dt.save(net.state_dict(), tmp_path / "net.safetensors")
    other = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(dst)
    other.load_state_dict(dt.load(tmp_path / "net.safetensors", map_location=dst))
    x = dt.ones(3, 4, dtype=dt.float32)
    np.testing.assert_array_equal(to_np(other(x.to(dst))), to_np(net(x.to(src))))


# ---- the safetensors package reads ours and writes what we read ----
def test_safetensors_reads_our_files(tmp_path):
    path = tmp_path / "ours.safetensors"
    tensors = {"f": sample("float32", "cpu"), "i": sample("int16", "cpu"),
               "b": sample("bool", "cpu"), "c": sample("complex64", "cpu"),
               "z": sample("complex128", "cpu"), "h": sample("float16", "cpu")}
    dt.save(tensors, path, metadata={"note": "hello"})
    theirs = safetensors_numpy.load_file(str(path))
    assert sorted(theirs) == sorted(tensors)
    for name, t in tensors.items():
        expected = to_np(t)
        if name == "z":  # complex128 is stored as float64 pairs
            expected = expected.view(np.float64).reshape(t.shape + (2,))
        np.testing.assert_array_equal(theirs[name], expected)
        assert theirs[name].dtype == expected.dtype
    from safetensors import safe_open
    with safe_open(str(path), framework="np") as f:
        assert f.metadata()["note"] == "hello"


def test_we_read_safetensors_files(tmp_path):
    path = tmp_path / "theirs.safetensors"
    arrays = {"w": np.arange(12, dtype=np.float32).reshape(3, 4), "n": np.array(7, np.int64),
              "e": np.zeros((0, 2), np.uint8)}
    safetensors_numpy.save_file(arrays, str(path))
    back = dt.load(path)
    assert type(back) is dict and sorted(back) == sorted(arrays)
    for name, a in arrays.items():
        assert_same(back[name], a)


# ---- saving errors ----
def test_save_errors(tmp_path):
    with pytest.raises(TypeError, match="save\\(\\) takes a tensor, or lists, tuples and dicts of tensors"):
        dt.save(np.ones(3), tmp_path / "x")
    with pytest.raises(TypeError, match="entry 'a' is a ndarray; save\\(\\) stores tensors, numbers, strings"):
        dt.save({"a": np.ones(3)}, tmp_path / "x")
    with pytest.raises(TypeError, match="entry 'b.0' is a object"):
        dt.save({"b": [object()]}, tmp_path / "x")
    with pytest.raises(TypeError, match="dict keys must be str or int, got float: 1.5 in 'c'"):
        dt.save({"c": {1.5: dt.ones(1)}}, tmp_path / "x")
    with pytest.raises(ValueError, match="two tensors .* under the name 'a.b'"):
        dt.save({"a.b": dt.ones(1), "a": {"b": dt.ones(1)}}, tmp_path / "x")
    with pytest.raises(ValueError, match="'__metadata__' is reserved"):
        dt.save({"__metadata__": dt.ones(1)}, tmp_path / "x")
    with pytest.raises(TypeError, match="metadata must be a dict of str to str"):
        dt.save(dt.ones(1), tmp_path / "x", metadata={"a": 1})
    with pytest.raises(ValueError, match="'devtensor' is devtensor's own"):
        dt.save(dt.ones(1), tmp_path / "x", metadata={"devtensor": "x"})
    assert os.listdir(tmp_path) == []


def test_checkpoints_round_trip(device, tmp_path):
    net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)).to(device)
    checkpoint = {"epoch": 3, "model": net.state_dict(), "loss": 0.25, "history": [1.0, float("inf")],
                  "name": "run-1", "done": False, "note": None, "shape": (2, 3), "step": np.float32(1.5),
                  "optimizer": {"state": {0: {"step": dt.asarray(2.0, device=device)}},
                                "param_groups": [{"lr": 0.1, "params": [0, 1]}]}}
    path = tmp_path / "checkpoint.safetensors"
    dt.save(checkpoint, path)
    back = dt.load(path)
    assert list(back) == list(checkpoint)
    assert {k: back[k] for k in ("epoch", "loss", "history", "name", "done", "note", "shape", "step")} == {
        "epoch": 3, "loss": 0.25, "history": [1.0, float("inf")], "name": "run-1", "done": False, "note": None,
        "shape": (2, 3), "step": 1.5}
    assert type(back["shape"]) is tuple and type(back["epoch"]) is int
    for key, value in net.state_dict().items():
        same(back["model"][key], value)
    assert back["optimizer"]["param_groups"] == [{"lr": 0.1, "params": [0, 1]}]
    same(back["optimizer"]["state"][0]["step"], dt.asarray(2.0, device=device))  # an int key stays an int
    fresh = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    fresh.load_state_dict(dt.load(path, map_location="cpu")["model"])
    assert fresh[1].num_batches_tracked.device == dt.device("cpu")
    # other readers see the tensors under their dotted paths
    stored = safetensors_numpy.load_file(str(path))
    assert sorted(stored) == sorted(["model.0.weight", "model.0.bias", "model.1.weight", "model.1.bias",
                                     "model.1.running_mean", "model.1.running_var", "model.1.num_batches_tracked",
                                     "optimizer.state.0.step"])
    dt.save({"epoch": 7}, path)  # no tensor at all
    assert dt.load(path) == {"epoch": 7}
    dt.save({1: dt.ones(1, device=device)}, path)  # int keys go through the tree
    assert list(dt.load(path)) == [1]


def test_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    from devtensor import _serialization
    path = tmp_path / "keep.safetensors"
    dt.save(dt.arange(3), path)
    before = path.read_bytes()

    def fail(out, head, arrays):
        out.write(head)
        raise OSError("disk full")
    monkeypatch.setattr(_serialization, "_write_all", fail)
    with pytest.raises(OSError, match="disk full"):
        dt.save(dt.arange(100), path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["keep.safetensors"]


# ---- hostile files ----
def write_raw(path, header, data=b"", length=None):
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text) if length is None else length) + text + data)


def entry(dtype="F32", shape=(2,), offsets=(0, 8)):
    return {"dtype": dtype, "shape": list(shape), "data_offsets": list(offsets)}


def tree(description):
    """A header of one entry 'a' whose metadata describes a checkpoint by
    the tree given, and its data."""
    ours = {"kind": "tree", "devices": {}, "complex128": []}
    if description is not None:
        ours["tree"] = description
    return {"a": entry(), "__metadata__": {"devtensor": json.dumps(ours)}}, b"\0" * 8


def nested_tree(depth):
    node = {"t": "a"}
    for _ in range(depth):
        node = {"l": [node]}
    return node


HOSTILE = [
    ("empty file", None, b"", "ends inside the header length"),
    ("short length", None, b"\x01\x02", "ends inside the header length"),
    ("huge header", None, struct.pack("<Q", 2 ** 63) + b"{}", "more than the 100000000 allowed"),
    ("header past the end", None, struct.pack("<Q", 1000) + b"{}", "the file has 2 after"),
    ("not json", b"{not json}", b"", "not valid JSON"),
    ("not an object", b"[1, 2]", b"", "not a JSON object"),
    ("bad utf-8", b'{"\xff": 1}', b"", "not valid JSON"),
    ("duplicate names", b'{"a": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}, '
     b'"a": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}}', b"", "names 'a' twice"),
    ("entry not an object", {"a": 3}, b"", "exactly dtype, shape and data_offsets"),
    ("extra field", {"a": dict(entry(), x=1)}, b"\0" * 8, "exactly dtype, shape and"),
    ("unknown dtype", {"a": entry("F8_E4M3", (2,), (0, 2))}, b"\0\0", "dtype 'F8_E4M3'"),
    ("negative dim", {"a": entry(shape=(-2,))}, b"\0" * 8, "non-negative ints"),
    ("bool dim", {"a": entry(shape=(True,), offsets=(0, 4))}, b"\0" * 4, "non-negative ints"),
    ("float dim", {"a": entry(shape=(2.0,))}, b"\0" * 8, "non-negative ints"),
    ("too many dims", {"a": entry(shape=(1,) * 65, offsets=(0, 4))}, b"\0" * 4, "at most 64"),
    ("reversed offsets", {"a": entry(offsets=(8, 0))}, b"\0" * 8, "0 <= begin <= end"),
    ("negative offset", {"a": entry(offsets=(-8, 0))}, b"\0" * 8, "0 <= begin <= end"),
    ("three offsets", {"a": entry(offsets=(0, 4, 8))}, b"\0" * 8, "two ints"),
    ("size mismatch", {"a": entry(shape=(3,))}, b"\0" * 8, "is 12 bytes but its data_offsets "
                                                          "span 8"),
    ("overflowing shape", {"a": entry(shape=(2 ** 62, 2 ** 62), offsets=(0, 8))}, b"\0" * 8,
     "is 85070591730234615865843651857942052864 bytes"),
    ("past the end", {"a": entry(offsets=(0, 8))}, b"\0" * 4, "the data is 4 bytes"),
    ("overlap", {"a": entry(), "b": entry(offsets=(4, 12))}, b"\0" * 12,
     "where an earlier entry ends at 8"),
    ("gap", {"a": entry(), "b": entry(offsets=(12, 20))}, b"\0" * 20, "where a gap follows 8"),
    ("trailing bytes", {"a": entry()}, b"\0" * 16, "end at byte 8 of the data but the data is 16"),
    ("metadata not str", {"a": entry(), "__metadata__": {"x": 1}}, b"\0" * 8,
     "__metadata__ must map str to str"),
    ("our metadata not json", {"a": entry(), "__metadata__": {"devtensor": "{"}}, b"\0" * 8,
     "'devtensor' metadata is not JSON"),
    ("our metadata unknown entry", {"a": entry(), "__metadata__": {"devtensor": json.dumps(
        {"kind": "dict", "devices": {"zz": "cuda:0"}, "complex128": []})}}, b"\0" * 8,
     "does not describe this file's entries"),
    ("our metadata bad kind", {"a": entry(), "__metadata__": {"devtensor": json.dumps(
        {"kind": "pickle", "devices": {}, "complex128": []})}}, b"\0" * 8,
     "does not describe this file's entries"),
    ("list with other names", {"a": entry(), "__metadata__": {"devtensor": json.dumps(
        {"kind": "list", "devices": {}, "complex128": []})}}, b"\0" * 8,
     "entries must be named 0, 1, ..."),
    ("complex128 marker on F32", {"a": entry(), "__metadata__": {"devtensor": json.dumps(
        {"kind": "dict", "devices": {}, "complex128": ["a"]})}}, b"\0" * 8,
     "marked complex128 but is not F64"),
    # checkpoints' trees (Note [Checkpoints])
    ("tree names a missing entry", *tree({"d": [["x", {"t": "zz"}]]}), "names entry 'zz' that is not in the file"),
    ("tree names an entry twice", *tree({"l": [{"t": "a"}, {"t": "a"}]}), "names entry 'a' that is not in the "
                                                                         "file, or twice"),
    ("tree leaves an entry out", *tree({"v": 1}), "leaves some of the file's entries out"),
    ("tree with an unknown node", *tree({"p": "os.system"}), "unknown checkpoint tree node 'p'"),
    ("tree node with two keys", *tree({"t": "a", "v": 1}), "must be an object with one key"),
    ("tree value not a scalar", *tree({"u": [{"t": "a"}, {"v": [1]}]}), "must be a number, a string"),
    ("tree dict with a float key", *tree({"d": [[1.5, {"t": "a"}]]}), "[str or int key, value] pairs"),
    ("tree list not an array", *tree({"l": {"t": "a"}}), "must be a JSON array"),
    ("tree too deep", *tree(nested_tree(150)), "nests more than 100 deep"),
    ("tree missing", *tree(None), "must be an object with one key"),
]


@pytest.mark.parametrize("case", HOSTILE, ids=[c[0] for c in HOSTILE])
def test_hostile_files_are_refused(case, tmp_path):
    name, header, data, message = case
    path = tmp_path / "bad.safetensors"
    if header is None:
        path.write_bytes(data)
    else:
        write_raw(path, header, data)
    with pytest.raises(ValueError, match="not a valid safetensors file") as info:
        dt.load(path)
    assert message in str(info.value)
    with pytest.raises(ValueError, match="not a valid safetensors file"):  # file objects too
        dt.load(io.BytesIO(path.read_bytes()))


def test_truncated_data_in_an_unsized_stream():
    class Stream(io.RawIOBase):  # cannot tell its size: the data check happens while reading
        def __init__(self, data):
            self.inner = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self.inner.readinto(b)

        def seekable(self):
            return False

        def tell(self):
            raise OSError("not seekable")

    buf = io.BytesIO()
    dt.save({"a": dt.arange(4.0)}, buf)
    whole = buf.getvalue()
    assert to_np(dt.load(Stream(whole))["a"]).tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="the file ends inside entry 'a'"):
        dt.load(Stream(whole[:-5]))


class Boom:
    def __reduce__(self):
        return (os.mkdir, (os.path.join(os.environ["DT_TEST_DIR"], "executed"),))


def test_a_pickle_is_refused_and_never_run(tmp_path, monkeypatch):
    monkeypatch.setenv("DT_TEST_DIR", str(tmp_path))
    path = tmp_path / "evil.pt"
    path.write_bytes(pickle.dumps({"w": Boom()}))
    with pytest.raises(ValueError, match="not a valid safetensors file"):
        dt.load(path)
    assert not (tmp_path / "executed").exists()


def test_a_pytorch_checkpoint_or_other_zip_is_refused_by_name(tmp_path):
    import zipfile
    torch_like, other = tmp_path / "model.pt", tmp_path / "data.zip"
    with zipfile.ZipFile(torch_like, "w") as z:  # torch.save's layout: pickles in a zip
        z.writestr("archive/data.pkl", pickle.dumps({"w": 1}))
        z.writestr("archive/data/0", b"\0" * 16)
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("a.npy", b"")
        z.writestr("notes.txt", b"hello")
    with pytest.raises(ValueError, match=r"this is a PyTorch checkpoint .*never unpickles; save the tensors "
                                         r"with safetensors"):
        dt.load(torch_like)
    with pytest.raises(ValueError, match=r"this zip archive is not NumPy's \.npz \(it holds 'notes.txt'\)"):
        dt.load(other)


def test_numpys_npy_and_npz_files(tmp_path, device):
    """Note [NumPy's files]: save(path, array) in NumPy's order writes .npy
    (NumPy reads it back), load reads NumPy's .npy and .npz (a dict) with
    allow_pickle=False, onto map_location; object arrays are refused."""
    import io
    a = np.arange(6.0).reshape(2, 3)
    np.save(tmp_path / "a.npy", a)
    np.savez(tmp_path / "b.npz", x=np.arange(3), y=np.ones(2, dtype=np.float32))
    got = dt.load(tmp_path / "a.npy", map_location=device)
    assert got.device == dt.device(device)
    np.testing.assert_array_equal(got.cpu().numpy(), a)
    d = dt.load(str(tmp_path / "b.npz"), map_location=device)
    assert sorted(d) == ["x", "y"] and d["y"].dtype == dt.float32 and d["x"].device == dt.device(device)
    np.testing.assert_array_equal(d["x"].cpu().numpy(), np.arange(3))
    assert dt.load(io.BytesIO((tmp_path / "a.npy").read_bytes())).shape == (2, 3)
    assert dt.save(str(tmp_path / "c"), dt.arange(4, device=device)) is None
    np.testing.assert_array_equal(np.load(tmp_path / "c.npy"), np.arange(4))
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="devtensor has no object dtype"):
        dt.load(tmp_path / "o.npy")
    with pytest.raises(TypeError, match="no bfloat16"):
        dt.save(str(tmp_path / "d"), dt.ones(2, dtype=dt.bfloat16))
    # members devtensor has no dtype for (strings, dates) stay NumPy's arrays, so an
    # archive's notes do not stop its tensors (NumPy's Moore's-law tutorial)
    np.savez(tmp_path / "n.npz", notes="fit of 1971-2019", x=np.arange(3), when=np.datetime64("2020-01-01"))
    with dt.load(tmp_path / "n.npz", map_location=device) as z:
        assert z["x"].device == dt.device(device) and z["x"].tolist() == [0, 1, 2]
        assert isinstance(z["notes"], np.ndarray) and z["notes"].item() == "fit of 1971-2019"
        assert z["when"].dtype == np.dtype("datetime64[D]")


def test_numpy_file_api_corners(tmp_path, device):
    """NumPy's ways of calling save and load: an open file or BytesIO first,
    load's keywords, an .npz archive as NumPy's NpzFile is used, tofile."""
    t = dt.arange(6.0, device=device).reshape(2, 3)
    buf = io.BytesIO()
    np.save(buf, t)
    buf.seek(0)
    np.testing.assert_array_equal(np.load(buf), np.arange(6.0).reshape(2, 3))
    with open(tmp_path / "a.npy", "wb") as f:
        dt.save(f, t, allow_pickle=False)
    m = dt.load(tmp_path / "a.npy", mmap_mode="r")
    assert m.device == dt.device("cpu") and not m.flags.writeable and m.tolist() == t.tolist()
    with dt.device(device):  # a read-only mapping goes where new tensors go; a writing one stays on the file
        m = dt.load(tmp_path / "a.npy", mmap_mode="r")
        assert m.device == dt.device(device) and to_np(m - dt.ones(3)).tolist() == [[-1, 0, 1], [2, 3, 4]]
        np.save(tmp_path / "w.npy", np.zeros(3))
        w = dt.load(tmp_path / "w.npy", mmap_mode="r+")
        assert w.device == dt.device("cpu") and w.flags.writeable
        w[0] = 7.0
        del w
    assert np.load(tmp_path / "w.npy").tolist() == [7.0, 0.0, 0.0]
    assert dt.load(tmp_path / "a.npy", allow_pickle=True).tolist() == t.tolist()
    dt.savez(tmp_path / "b.npz", a=t, b=dt.ones(2))
    with dt.load(tmp_path / "b.npz") as z:
        assert z.files == ["a", "b"] and z["a"].tolist() == t.tolist()
    z.close()
    np.save(tmp_path / "o.npy", np.array([{"x": 1}], dtype=object), allow_pickle=True)
    for kwargs in ({}, {"allow_pickle": True}):
        with pytest.raises(ValueError, match="devtensor has no object dtype"):
            dt.load(tmp_path / "o.npy", **kwargs)
    t.tofile(tmp_path / "c.bin")
    np.testing.assert_array_equal(np.fromfile(tmp_path / "c.bin"), np.arange(6.0))
    t.tofile(tmp_path / "c.txt", sep=",")
    assert (tmp_path / "c.txt").read_text() == "0.0,1.0,2.0,3.0,4.0,5.0"


def _header_file(header_bytes, data=b""):
    header_bytes += b" " * (-len(header_bytes) % 8)
    return io.BytesIO(struct.pack("<Q", len(header_bytes)) + header_bytes + data)


def test_fuzzed_files_and_paths(tmp_path):
    """A second fuzzer's finds: each is a clear error that loses nothing, or works."""
    import zipfile
    old = tmp_path / "k.npy"
    np.save(old, np.arange(4.0))
    with pytest.raises(ValueError, match="would replace the file with a new, empty one"):
        dt.load(old, mmap_mode="w+")  # NumPy's np.load empties the file, then fails
    np.testing.assert_array_equal(np.load(old), np.arange(4.0))
    with pytest.raises(TypeError, match="not numbers"):
        dt.save(old, [1, "a", None])  # refused before the old file is touched
    np.testing.assert_array_equal(np.load(old), np.arange(4.0))
    dt.save(tmp_path / "new", dt.arange(3))  # NumPy's suffix, the umask's mode (not mkstemp's 0600)
    assert (tmp_path / "new.npy").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["k.npy", "new.npy"]
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "new.npy").stat().st_mode & 0o777 == 0o666 & ~umask
    with pytest.raises(ValueError, match="nests JSON too deeply"):
        dt.load(_header_file(b'{"a":' + b"[" * 5000 + b"]" * 5000 + b"}"))
    with pytest.raises(ValueError, match=r"entry 'a' has dtype \[\]"):
        dt.load(_header_file(b'{"a":{"dtype":[],"shape":[1],"data_offsets":[0,4]}}', b"\0" * 4))
    for value in (dt.asarray(1 + 2j), {"z": dt.asarray(-1j)}):  # 0-d complex128
        b = io.BytesIO()
        dt.save(value, b)
        b.seek(0)
        got = dt.load(b)
        assert (got if isinstance(value, dt.Tensor) else got["z"]).item() == (
            value if isinstance(value, dt.Tensor) else value["z"]).item()
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        z.writestr("x.npy", b"junk")
    with pytest.raises(ValueError, match="the .npz member 'x' is not in NumPy's .npy format"):
        dt.load(io.BytesIO(b.getvalue()))
    b = io.BytesIO()
    dt.save(dt.ones(2), b)
    for where in ("gpu", -1, {"cpu": "cuda:99"}):
        b.seek(0)
        with pytest.raises(RuntimeError, match="map_location gives"):
            dt.load(b, map_location=where)
    target = tmp_path / "t.safetensors"
    dt.save(dt.ones(2), target)
    os.symlink(target, tmp_path / "link")
    dt.save(dt.zeros(3), tmp_path / "link")  # writes the link's target, the link stays
    assert os.path.islink(tmp_path / "link") and dt.load(target).tolist() == [0.0, 0.0, 0.0]
    os.chmod(target, 0o600)  # a file saved over keeps its mode (a private file stays private)
    dt.save(dt.ones(1), target)
    assert target.stat().st_mode & 0o777 == 0o600
    with pytest.raises(IsADirectoryError):
        dt.save(dt.ones(2), tmp_path)
    dt.save(dt.ones(2), os.fsencode(tmp_path / "b.st"))  # a bytes path
    assert dt.load(tmp_path / "b.st").tolist() == [1.0, 1.0]

    class NegativeReads(io.RawIOBase):
        def __init__(self, data):
            self.b = io.BytesIO(data)

        def readable(self):
            return True

        def read(self, n=-1):
            return self.b.read(n)

        def readinto(self, view):
            return -1

    b = io.BytesIO()
    dt.save(dt.ones(2), b)
    with pytest.raises(ValueError, match="the file ends inside entry 'tensor'"):
        dt.load(NegativeReads(b.getvalue()))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".devtensor-save-")]


def test_save_into_a_missing_folder_names_the_path(tmp_path):
    """The error of a save that cannot create its file is open()'s, naming the
    path asked for (not the hidden temporary file beside it)."""
    target = tmp_path / "missing" / "x.safetensors"
    with pytest.raises(FileNotFoundError) as e:
        dt.save({"x": dt.ones(2)}, target)
    assert e.value.filename == str(target)
    assert not (tmp_path / "missing").exists()
