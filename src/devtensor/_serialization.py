"""devtensor.save and devtensor.load: tensors, lists, tuples and dicts of
tensors (state dicts), and checkpoints nesting them with numbers and
strings, in the safetensors format, which never runs code.

Note [Files in the safetensors format]
A file is an 8-byte little-endian header length N, N bytes of JSON, then
the tensors' bytes, little-endian and C-ordered, one after another:
    {"0.weight": {"dtype": "F32", "shape": [1, 3], "data_offsets": [0, 12]},
     ..., "__metadata__": {"devtensor": "<JSON: kind, devices, ...>"}}
The safetensors package (and through it PyTorch, NumPy, JAX) reads what
save writes, and load reads what they write.  Our metadata entry records
whether the object was a tensor, a list, a tuple or a dict, the devices of
tensors that were not on the cpu, and which tensors were complex128:
safetensors has no complex128, so those are stored as F64 with a trailing
axis of 2 (real, imaginary), which is what other readers see.  Sharing
between tensors is not kept: each is written whole.

Note [Checkpoints]
PyTorch's checkpoint, {"epoch": 3, "model": model.state_dict(), "loss":
0.25}, nests state dicts in a dict beside numbers.  Such an object is
stored as its tensors, named by their dotted paths ("model.0.weight"), and
a JSON tree in our metadata: {"d": [[key, node], ...]} for a dict (str or
int keys), {"l": [...]} or {"u": [...]} for a list or tuple, {"t": name}
for a tensor and {"v": value} for a number, string, bool or None.  Loading
rebuilds the object from the tree, which must name every entry exactly
once; a file is still only data: the tree holds no types beyond these.

Note [Reading files we do not trust]
A file is only data to load: its header is parsed as JSON and nothing else
is interpreted.  Before any tensor is made, load checks that the header is
at most 100 MB (the safetensors limit) and inside the file; that every
entry has a known dtype, a shape of at most 64 non-negative ints and two
offsets; that shape x itemsize equals the byte range (in Python integers,
so a huge shape cannot overflow); and that the ranges tile the data
exactly, with no overlap, gap or byte past the end.  Anything else is a
ValueError naming the entry and saying what is wrong.
"""
import errno
import json
import os
import secrets
import stat
import struct

import numpy as np

from . import _C
from ._C import Tensor

_MAX_HEADER = 100_000_000
_MAX_NDIM = 64
_META_KEY = "devtensor"

# safetensors name -> (devtensor dtype name, NumPy dtype of the stored bytes)
_FROM_CODE = {
    "BOOL": ("bool", np.dtype("bool")),
    "U8": ("uint8", np.dtype("<u1")), "I8": ("int8", np.dtype("<i1")),
    "U16": ("uint16", np.dtype("<u2")), "I16": ("int16", np.dtype("<i2")),
    "U32": ("uint32", np.dtype("<u4")), "I32": ("int32", np.dtype("<i4")),
    "U64": ("uint64", np.dtype("<u8")), "I64": ("int64", np.dtype("<i8")),
    "F16": ("float16", np.dtype("<f2")), "BF16": ("bfloat16", np.dtype("<u2")),
    "F32": ("float32", np.dtype("<f4")), "F64": ("float64", np.dtype("<f8")),
    "C64": ("complex64", np.dtype("<c8")),
}
_TO_CODE = {name: code for code, (name, _) in _FROM_CODE.items()}
_TO_CODE["complex128"] = "F64"


def _flat_kind(obj):
    """Whether obj is one of the flat forms (a tensor, or a list, tuple or
    dict of str to tensors), stored with its keys as the entry names."""
    if isinstance(obj, Tensor):
        return True
    if isinstance(obj, dict):
        return all(isinstance(k, str) and isinstance(v, Tensor) for k, v in obj.items())
    return isinstance(obj, (list, tuple)) and all(isinstance(v, Tensor) for v in obj)


_SCALARS = (bool, int, float, str, type(None))


def _tree(node, path, items):
    """The JSON description of a nested object (Note [Checkpoints]), its
    tensors appended to items as (dotted path, tensor)."""
    where = ".".join(path)
    if isinstance(node, Tensor):
        name = where or "tensor"
        if name == "__metadata__" or any(name == n for n, _ in items):
            raise ValueError(f"save(): two tensors (or one and the format's '__metadata__') would be stored "
                             f"under the name {name!r}")
        items.append((name, node))
        return {"t": name}
    if isinstance(node, dict):
        pairs = []
        for key, value in node.items():
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise TypeError(f"save(): dict keys must be str or int, got {type(key).__name__}: {key!r}"
                                f"{' in ' + repr(where) if where else ''}")
            pairs.append([key, _tree(value, path + [str(key)], items)])
        return {"d": pairs}
    if isinstance(node, (list, tuple)):
        return {"l" if isinstance(node, list) else "u": [_tree(v, path + [str(i)], items)
                                                         for i, v in enumerate(node)]}
    if isinstance(node, np.generic) and node.dtype.kind in "biuf":
        node = node.item()
    if isinstance(node, _SCALARS):
        return {"v": node}
    raise TypeError(f"save(): entry {where!r} is a {type(node).__name__}; save() stores tensors, numbers, "
                    f"strings and None, in lists, tuples and dicts")


_MAX_DEPTH = 100  # of a checkpoint's nesting


def _rebuild(node, values, used, depth=0):
    """The object a tree description stands for, every tensor it names
    taken from values once; ValueError for anything malformed."""
    if depth > _MAX_DEPTH:
        raise _bad(f"the checkpoint's tree nests more than {_MAX_DEPTH} deep")
    if not isinstance(node, dict) or len(node) != 1:
        raise _bad("a checkpoint's tree node must be an object with one key")
    (kind, body), = node.items()
    if kind == "t":
        if not isinstance(body, str) or body not in values or body in used:
            raise _bad(f"the checkpoint's tree names entry {body!r} that is not in the file, or twice")
        used.add(body)
        return values[body]
    if kind == "v":
        if not isinstance(body, _SCALARS):
            raise _bad("a checkpoint's value must be a number, a string, a bool or null")
        return body
    if kind in ("l", "u"):
        if not isinstance(body, list):
            raise _bad("a checkpoint's list must be a JSON array")
        items = [_rebuild(v, values, used, depth + 1) for v in body]
        return items if kind == "l" else tuple(items)
    if kind == "d":
        if not isinstance(body, list) or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], (str, int))
                                                 and not isinstance(p[0], bool) for p in body):
            raise _bad("a checkpoint's dict must be a JSON array of [str or int key, value] pairs")
        return {key: _rebuild(value, values, used, depth + 1) for key, value in body}
    raise _bad(f"unknown checkpoint tree node {kind!r}")


def _entries(obj):
    """(kind, [(name, tensor)], tree) for a tensor, a list/tuple or a dict of
    tensors (tree None), or for a nested checkpoint (Note [Checkpoints])."""
    if not _flat_kind(obj):
        if not isinstance(obj, (dict, list, tuple)):
            raise TypeError(f"save() takes a tensor, or lists, tuples and dicts of tensors, numbers, strings "
                            f"and None (a state dict, a checkpoint), got {type(obj).__name__}")
        items = []
        tree = _tree(obj, [], items)
        return "tree", items, tree
    if isinstance(obj, Tensor):
        return "tensor", [("tensor", obj)], None
    if isinstance(obj, (list, tuple)):
        kind, items = type(obj).__name__, [(str(i), t) for i, t in enumerate(obj)]
    elif isinstance(obj, dict):
        kind, items = "dict", list(obj.items())
        for name, _ in items:
            if not isinstance(name, str):
                raise TypeError(f"save(): dict keys must be str, got {type(name).__name__}: "
                                f"{name!r}")
            if name == "__metadata__":
                raise ValueError("save(): '__metadata__' is reserved by the safetensors format")
    return kind, items, None


def _host_bytes(t):
    """A C-contiguous little-endian NumPy array of t's bytes, and its stored shape."""
    if t.dtype == _C.bfloat16:
        t = t.view(dtype=_C.uint16)
    h = np.asarray(t.cpu()._host_view())
    if not h.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d array 1-d)
        h = h.copy(order="C")
    shape = list(h.shape)
    if h.dtype == np.complex128:
        h = h.reshape(-1).view(np.float64)  # (a 0-d array cannot change its itemsize in a view)
        shape.append(2)
    if h.dtype.byteorder == ">" or (h.dtype.byteorder == "=" and not np.little_endian):
        h = h.astype(h.dtype.newbyteorder("<"))
    return h, shape


def save(obj, f, metadata=None, *, allow_pickle=True, fix_imports=True):
    """Write a tensor, a list or tuple of tensors, or a dict of str to
    tensors (a state dict) to the path or binary file f in the safetensors
    format (Note [Files in the safetensors format]).  metadata: an optional
    dict of str to str kept in the file.  A path is written through a
    temporary file and renamed, so a failed save leaves no partial file.
    NumPy's order, save(path, array), writes NumPy's .npy format (Note
    [NumPy's files]); allow_pickle and fix_imports are NumPy's keywords
    (devtensor has no object arrays to pickle)."""
    if (isinstance(obj, (str, os.PathLike)) or hasattr(obj, "write")) and \
            not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write") and metadata is None:
        return _save_npy(obj, f)
    kind, items, tree = _entries(obj)
    if metadata is not None:
        if not isinstance(metadata, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise TypeError("save(): metadata must be a dict of str to str")
        if _META_KEY in metadata:
            raise ValueError(f"save(): the metadata key {_META_KEY!r} is devtensor's own")
    arrays, header, offset = [], {}, 0
    devices, complex128 = {}, []
    for name, t in items:
        if getattr(t, "_uninitialized", False):  # a lazy module's (Note [Lazy modules] in nn/lazy.py)
            raise RuntimeError(f"save(): {name!r} is an uninitialised parameter or buffer of a lazy module, "
                               f"which has no values yet: call the module once first")
        h, shape = _host_bytes(t)
        header[name] = {"dtype": _TO_CODE[t.dtype.name], "shape": shape,
                        "data_offsets": [offset, offset + h.nbytes]}
        offset += h.nbytes
        arrays.append(h)
        if t.device.type != "cpu":
            devices[name] = str(t.device)
        if t.dtype == _C.complex128:
            complex128.append(name)
    ours = {"kind": kind, "devices": devices, "complex128": complex128}
    if tree is not None:
        ours["tree"] = tree
    header["__metadata__"] = dict(metadata or {}, **{_META_KEY: json.dumps(ours)})
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    head = struct.pack("<Q", len(text)) + text
    if hasattr(f, "write"):
        _write_all(f, head, arrays)
        return
    _write_replacing(os.fspath(f), lambda out: _write_all(out, head, arrays))


def _write_replacing(path, write):
    """write(file) into a temporary file beside path, then renamed over it:
    a failed write leaves the old file (or none), never a partial one.  A
    symbolic link's target is replaced (the link stays); the file keeps the
    old file's mode, and a new one gets what open() would give it (0666
    less the umask, applied by the system), not mkstemp's 0600.  As with any
    such rename, a hard link to the old file keeps the old data."""
    path = os.path.realpath(os.fsdecode(path))
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
    fd, tmp = _new_file_beside(path)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        except FileNotFoundError:
            pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _new_file_beside(path):
    """(fd, name) of a new file in path's folder, created as open() creates
    files (mode 0666 less the umask): mkstemp's way, with open()'s mode."""
    folder = os.path.dirname(path)
    for _ in range(100):
        tmp = os.path.join(folder, f".devtensor-save-{secrets.token_hex(8)}")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), tmp
        except FileExistsError:
            continue
        except OSError as e:  # a missing folder, no permission: open()'s error, naming the path asked for
            raise type(e)(e.errno, e.strerror, path) from None
    raise FileExistsError(errno.EEXIST, "no free temporary name", folder)


def _write_all(out, head, arrays):
    out.write(head)
    for h in arrays:
        if h.nbytes:
            out.write(memoryview(h.reshape(-1)).cast("B"))


# ---- loading ----
def _bad(what):
    return ValueError(f"devtensor.load: not a valid safetensors file: {what}")


def _read_exact(f, n, what):
    data = f.read(n)
    if data is None or len(data) != n:
        raise _bad(f"the file ends inside {what} ({0 if data is None else len(data)} of {n} "
                   f"bytes)")
    return data


def _remaining_size(f):
    """Bytes from f's position to its end, or None if f cannot tell."""
    try:
        if hasattr(f, "fileno"):
            size = os.fstat(f.fileno()).st_size
            return size - f.tell()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        here = f.tell()
        end = f.seek(0, os.SEEK_END)
        f.seek(here)
        return end - here
    except (OSError, ValueError, AttributeError):
        return None


def _no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _bad(f"the header names {key!r} twice")
        seen[key] = value
    return seen


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _parse_header(f):
    remaining = _remaining_size(f)
    (n,) = struct.unpack("<Q", _read_exact(f, 8, "the header length"))
    if n > _MAX_HEADER:
        raise _bad(f"the header is {n} bytes, more than the {_MAX_HEADER} allowed")
    if remaining is not None and n > remaining - 8:
        raise _bad(f"the header is {n} bytes but the file has {max(remaining - 8, 0)} after its "
                   f"length")
    raw = _read_exact(f, n, "the header")
    if not raw.startswith(b"{"):
        raise _bad("the header is not a JSON object")
    try:
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _bad(f"the header is not valid JSON ({e})") from None
    except RecursionError:
        raise _bad("the header nests JSON too deeply") from None
    if not isinstance(header, dict):
        raise _bad("the header is not a JSON object")
    data_size = None if remaining is None else remaining - 8 - n
    return header, data_size


def _check_entries(header, data_size):
    """[(name, dtype name, stored NumPy dtype, shape, begin, end)] in file order."""
    entries = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
            raise _bad(f"entry {name!r} must have exactly dtype, shape and data_offsets")
        code, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
        if not isinstance(code, str) or code not in _FROM_CODE:
            raise _bad(f"entry {name!r} has dtype {code!r}, which devtensor does not have "
                       f"(known: {', '.join(_FROM_CODE)})")
        if (not isinstance(shape, list) or len(shape) > _MAX_NDIM or
                not all(_is_int(d) and d >= 0 for d in shape)):
            raise _bad(f"entry {name!r} has shape {shape!r}: it must be a list of at most "
                       f"{_MAX_NDIM} non-negative ints")
        if (not isinstance(offsets, list) or len(offsets) != 2 or
                not all(_is_int(o) for o in offsets) or not 0 <= offsets[0] <= offsets[1]):
            raise _bad(f"entry {name!r} has data_offsets {offsets!r}: they must be two ints "
                       f"0 <= begin <= end")
        dtype_name, stored = _FROM_CODE[code]
        nbytes = stored.itemsize
        for d in shape:
            nbytes *= d
        if nbytes != offsets[1] - offsets[0]:
            raise _bad(f"entry {name!r}: shape {shape} of {code} is {nbytes} bytes but its "
                       f"data_offsets span {offsets[1] - offsets[0]}")
        entries.append((name, dtype_name, stored, shape, offsets[0], offsets[1]))
    end = 0
    for name, *_, begin, stop in sorted(entries, key=lambda e: (e[4], e[5])):
        if begin != end:
            raise _bad(f"entry {name!r} starts at byte {begin} of the data, where "
                       f"{'an earlier entry ends at' if begin < end else 'a gap follows'} "
                       f"{end}: the entries must tile the data")
        end = stop
    if data_size is not None and end != data_size:
        raise _bad(f"the entries end at byte {end} of the data but the data is {data_size} "
                   f"bytes")
    return entries


def _our_metadata(header, names):
    meta = header.get("__metadata__")
    if meta is None:
        return None
    if not isinstance(meta, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in meta.items()):
        raise _bad("__metadata__ must map str to str")
    if _META_KEY not in meta:
        return None
    try:
        ours = json.loads(meta[_META_KEY])
    except (json.JSONDecodeError, RecursionError):
        raise _bad(f"the {_META_KEY!r} metadata is not JSON (or nests too deeply)") from None
    ok = (isinstance(ours, dict) and ours.get("kind") in ("tensor", "list", "tuple", "dict", "tree") and
          isinstance(ours.get("devices"), dict) and isinstance(ours.get("complex128"), list) and
          all(isinstance(k, str) and k in names and isinstance(v, str)
              for k, v in ours["devices"].items()) and
          all(isinstance(k, str) and k in names for k in ours["complex128"]))
    if not ok:
        raise _bad(f"the {_META_KEY!r} metadata does not describe this file's entries")
    if ours["kind"] == "tensor" and names != ["tensor"]:
        raise _bad("a single-tensor file must have one entry, 'tensor'")
    if ours["kind"] in ("list", "tuple") and names != [str(i) for i in range(len(names))]:
        raise _bad(f"a {ours['kind']} file's entries must be named 0, 1, ... in order")
    return ours


def _target_device(saved, map_location):
    if map_location is None:
        where = saved
    elif callable(map_location) and not isinstance(map_location, (str, _C.device)):
        return map_location
    elif isinstance(map_location, dict):
        where = map_location.get(saved, saved)
    else:
        where = map_location
    try:
        return _C._resolve_device(where if isinstance(where, _C.device) else _C.device(where))
    except (RuntimeError, TypeError, ValueError) as e:
        if map_location is not None and where is not saved:
            raise type(e)(f"devtensor.load: map_location gives {where!r}, which is not a device here "
                          f"({e})") from None
        raise RuntimeError(f"devtensor.load: a tensor was saved on {saved}, which is not "
                           f"available here ({e}); pass map_location='cpu' (or another device) "
                           f"to load it there") from None


def load(f, map_location=None, *, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII",
         max_header_size=None, weights_only=True):
    """Read what devtensor.save (or any safetensors writer) wrote, from a path
    or a binary file, checking it first (Note [Reading files we do not trust]).
    Tensors go back to the devices they were saved from, or as map_location
    says: a device or its name, a dict {saved device name: device}, or a
    function (cpu_tensor, saved device name) -> tensor.  Returns what was
    saved: a tensor, a list, a tuple or a dict (a file from another writer
    gives a dict of its tensors).  NumPy's keywords apply to its files
    (Note [NumPy's files]): mmap_mode maps a .npy file instead of reading
    it (a CPU tensor over the mapping, read-only for 'r'; with another
    default device, 'r' and 'c' give a copy there, while 'r+' stays a CPU
    tensor over the file it writes to; 'w+', which would empty the file, is
    refused); allow_pickle and
    the others are accepted, but object arrays, which devtensor cannot
    hold, are refused whatever allow_pickle says.  PyTorch's weights_only is
    accepted and changes nothing: loading never runs code."""
    if mmap_mode in ("w+", "write"):  # NumPy's np.load empties the file first, then fails
        raise ValueError("load(mmap_mode='w+') would replace the file with a new, empty one: use "
                         "'r+' to read and write the file's data in place")
    if hasattr(f, "read"):
        return _load(f, map_location)
    with open(os.fspath(f), "rb") as stream:
        if mmap_mode is not None and _is_numpy_file(stream):
            return _load_numpy(os.fspath(f), map_location, mmap_mode)
        return _load(stream, map_location)


# Note [NumPy's files]
# NumPy programs call np.save(path, array) and np.load(path) on .npy and
# .npz files.  save with a path first and an array second writes NumPy's
# .npy format (NumPy's np.save, which adds the .npy suffix, reading a
# device tensor to the host: the call asks for it); load recognises the
# .npy and .npz magic bytes and reads them with NumPy's np.load and
# allow_pickle=False, so object arrays are refused and nothing runs: a
# tensor, or a dict of tensors for an .npz archive, on the cpu or where
# map_location says.

def _save_npy(path, value):
    """np.save(path, value) for a tensor or data devtensor can hold (data
    it cannot, strings or objects, is refused as a tensor would be), through
    a temporary file for a path (NumPy's .npy suffix added, as np.save)."""
    if not isinstance(value, Tensor):
        from ._creation import asarray
        value = asarray(value, device="cpu")
    if value.dtype == _C.bfloat16:
        raise TypeError("save(path, tensor) writes NumPy's .npy format, which has no bfloat16: "
                        "use save(tensor, path) (safetensors) or cast first")
    array = _host_array(value)
    if hasattr(path, "write"):
        np.save(path, array, allow_pickle=False)
        return
    path = os.fsdecode(os.fspath(path))
    if not path.endswith(".npy"):
        path += ".npy"
    _write_replacing(path, lambda out: np.save(out, array, allow_pickle=False))


def _host_array(value):
    """A tensor as the NumPy array written to a file: an explicit read of
    device data (the call asks for it); NumPy has no bfloat16."""
    if isinstance(value, Tensor):
        if value.dtype == _C.bfloat16:
            raise TypeError("NumPy's file formats have no bfloat16: cast first, or use "
                            "devtensor.save(tensor, path) (safetensors)")
        return value.cpu().numpy()
    return value


def savez(file, *args, allow_pickle=True, **kwds):
    """NumPy's savez: arrays and tensors into an uncompressed .npz archive."""
    np.savez(file, *[_host_array(a) for a in args], allow_pickle=allow_pickle,
             **{k: _host_array(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """NumPy's savez_compressed: arrays and tensors into a compressed .npz archive."""
    np.savez_compressed(file, *[_host_array(a) for a in args], allow_pickle=allow_pickle,
                        **{k: _host_array(v) for k, v in kwds.items()})


def savetxt(fname, X, *args, **kwargs):
    """NumPy's savetxt of a tensor's values."""
    np.savetxt(fname, _host_array(X), *args, **kwargs)


def _is_numpy_file(f):
    """Whether the seekable file f, at its position, holds NumPy's .npy or .npz format."""
    try:
        at = f.tell()
        magic = f.read(6)
        f.seek(at)
    except (AttributeError, OSError, ValueError):
        return False
    return magic == b"\x93NUMPY" or magic[:4] == b"PK\x03\x04"


class NpzTensors(dict):
    """The tensors of an .npz archive by name: a dict, with NumPy's NpzFile's
    .files, close() and use as a context manager (the archive is read
    whole and closed already)."""

    @property
    def files(self):
        return list(self)

    @property
    def f(self):
        """NumPy's attribute access: z.f.name is z['name']."""
        import types
        return types.SimpleNamespace(**self)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _load_numpy(f, map_location, mmap_mode=None):
    from ._creation import asarray
    # NumPy's files hold host data: they load where new tensors go (the
    # default device, as loadtxt's do), or as map_location says; a mapping
    # that writes to the file ('r+', 'w+') stays a CPU tensor over it
    default = _C._default_device()
    writes_file = mmap_mode in ("r+", "w+", "readwrite", "write")
    target = _target_device("cpu" if writes_file else str(default), map_location)

    def place(arr, name=None):
        if not isinstance(arr, np.ndarray):  # NumPy gives a member not in .npy format as its bytes
            raise ValueError(f"the .npz member {name!r} is not in NumPy's .npy format")
        if arr.dtype.hasobject:
            raise ValueError("devtensor has no object dtype: this NumPy file holds Python objects "
                             "(read it with NumPy's np.load and allow_pickle=True, if you trust it)")
        if arr.dtype.kind not in "biufc":  # strings, dates, records: NumPy's array, as genfromtxt
            return arr                     # gives them (an .npz's notes must not stop its tensors)
        t = asarray(arr, device="cpu")  # host data, then moved to the target
        return target(t, "cpu") if callable(target) and not isinstance(target, _C.device) else t.to(target)
    try:
        data = np.load(f, mmap_mode=mmap_mode, allow_pickle=False)
    except ValueError as e:
        if "allow_pickle=False" not in str(e):
            raise
        raise ValueError("devtensor has no object dtype: this NumPy file holds Python objects (read it with "
                         "NumPy's np.load and allow_pickle=True, if you trust it)") from None
    if isinstance(data, np.ndarray):
        return place(data)
    with data:
        others = [n for n in data.zip.namelist() if not n.endswith(".npy")]
        if others:
            pytorch = any(n.endswith("data.pkl") for n in others)
            raise ValueError(
                ("this is a PyTorch checkpoint (torch.save's zip of pickles)" if pytorch else
                 f"this zip archive is not NumPy's .npz (it holds {others[0]!r})") +
                ": devtensor.load reads safetensors, .npy and .npz files and never unpickles; "
                "save the tensors with safetensors (safetensors.torch.save_file(state_dict, path)) "
                "and load that")
        return NpzTensors((name, place(data[name], name)) for name in data.files)


def _load(f, map_location):
    if _is_numpy_file(f):
        return _load_numpy(f, map_location)
    header, data_size = _parse_header(f)
    entries = _check_entries(header, data_size)
    names = [e[0] for e in entries]
    ours = _our_metadata(header, names)
    devices = ours["devices"] if ours else {}
    complex128 = set(ours["complex128"]) if ours else set()
    for name in complex128:
        entry = next(e for e in entries if e[0] == name)
        if entry[1] != "float64" or not entry[3] or entry[3][-1] != 2:
            raise _bad(f"entry {name!r} is marked complex128 but is not F64 with a last axis of 2")
    targets = {}
    for name in names:  # every device is checked before any data is read
        saved = devices.get(name, "cpu")
        targets[name] = _target_device(saved, map_location)
    values = {}
    # _check_entries made the ranges tile the data: read in order, nothing skipped
    for name, dtype_name, stored, shape, begin, end in sorted(entries, key=lambda e: e[4]):
        buffer = np.empty(end - begin, dtype=np.uint8)
        if end > begin:
            view = memoryview(buffer)
            got = 0
            while got < len(buffer):
                n = f.readinto(view[got:]) if hasattr(f, "readinto") else None
                if n is None:
                    chunk = f.read(len(buffer) - got)
                    n = len(chunk)
                    buffer[got:got + n] = np.frombuffer(chunk, dtype=np.uint8)
                if not n or n < 0:
                    raise _bad(f"the file ends inside entry {name!r}")
                got += n
        host = buffer.view(stored).reshape(shape)
        values[name] = _to_tensor(host, dtype_name, name in complex128, devices.get(name, "cpu"),
                                  targets[name])
    kind = ours["kind"] if ours else "dict"
    if kind == "tree":
        used = set()
        obj = _rebuild(ours.get("tree"), values, used)
        if used != set(names):
            raise _bad("the checkpoint's tree leaves some of the file's entries out")
        return obj
    result = [values[name] for name in names]
    if kind == "tensor":
        return result[0]
    if kind == "list":
        return result
    if kind == "tuple":
        return tuple(result)
    return dict(zip(names, result))


def _to_tensor(host, dtype_name, is_complex128, saved, target):
    from ._creation import asarray
    if is_complex128:
        host = np.ascontiguousarray(host).view(np.complex128).reshape(host.shape[:-1])
    if not host.dtype.isnative:
        host = host.astype(host.dtype.newbyteorder("="))
    t = asarray(host, device="cpu")
    if dtype_name == "bfloat16":
        t = t.view(dtype=_C.bfloat16)
    if callable(target) and not isinstance(target, _C.device):
        out = target(t, saved)
        if not isinstance(out, Tensor):
            raise TypeError(f"map_location returned {type(out).__name__}, not a tensor")
        return out
    return t.to(target)


__all__ = ["save", "load"]
