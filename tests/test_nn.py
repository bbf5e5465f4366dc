"""devtensor.nn: Parameter, Module, layers, functional, init, state dicts,
against NumPy (and PyTorch's documented behaviour and texts) on every device."""
import collections
import copy
import gc
import math
import pickle
import threading
import warnings
import weakref

import numpy as np
import pytest

import devtensor as dt
from devtensor import nn
import devtensor.nn.functional as F
from helpers import CUDA_DEVICES, assert_same, requires_devices, to_np


def tensor(a, device, dtype=None):
    return dt.asarray(np.asarray(a, dtype=dtype), device=device)


# ---- Parameter ----
def test_parameter_shares_memory_and_is_a_tensor(device):
    t = dt.arange(6.0, device=device).reshape(2, 3)
    p = nn.Parameter(t)
    assert isinstance(p, dt.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad is True and nn.Parameter(t, requires_grad=False).requires_grad is False
    assert p.grad is None and p.requires_grad_(False) is p and p.requires_grad is False
    assert p.requires_grad_().requires_grad is True  # PyTorch's default: True
    assert p.shape == (2, 3) and p.device == t.device and p._same_storage(t)
    t[0, 0] = 7
    assert to_np(p)[0, 0] == 7
    d = p.data
    assert type(d) is dt.Tensor and d._same_storage(p) and d.shape == p.shape
    assert type(p + 1) is dt.Tensor  # operations give plain tensors, as PyTorch's do


def test_parameter_default_and_bad_data():
    p = nn.Parameter()
    assert p.shape == (0,) and p.dtype == dt.float32
    with pytest.raises(TypeError, match="devtensor.Tensor"):
        nn.Parameter(np.ones(3))
    p = nn.Parameter(dt.ones(2))
    with pytest.raises(TypeError, match="data must be a devtensor.Tensor"):
        p.data = np.ones(2)
    with pytest.raises(TypeError, match="only the data of a Tensor subclass"):
        dt.ones(2)._set_data_(dt.ones(3))
    with pytest.raises(TypeError, match="subclass of devtensor.Tensor"):
        dt.ones(2)._alias_as(dt.Tensor)


def test_parameter_repr_is_pytorchs():
    p = nn.Parameter(dt.ones(2, dtype=dt.float32))
    assert repr(p) == str(p) == ("Parameter containing:\n"
                                 "tensor([1., 1.], dtype=float32, requires_grad=True)")
    q = nn.Parameter(dt.ones(2), requires_grad=False)
    assert repr(q) == "Parameter containing:\ntensor([1., 1.])"


def test_parameter_data_assignment_moves_in_place(device_pair):
    src, dst = device_pair
    p = nn.Parameter(dt.arange(4.0, device=src))
    keep = id(p)
    new = dt.arange(6, dtype=dt.int32, device=dst).reshape(2, 3)
    p.data = new
    assert id(p) == keep and p.device == dt.device(dst) and p.dtype == dt.int32
    assert p.shape == (2, 3) and p._same_storage(new)
    assert_same(p.data, np.arange(6, dtype=np.int32).reshape(2, 3))
    p.data = p  # itself: nothing changes
    assert p.shape == (2, 3)


def test_numpy_view_survives_data_replacement():
    p = nn.Parameter(dt.arange(5.0))
    a = p.numpy()
    p.data = dt.zeros(1000)
    gc.collect()
    np.testing.assert_array_equal(a, np.arange(5.0))
    a[0] = 9  # still writeable memory that is ours
    assert a[0] == 9


def test_replaced_memory_is_released():
    backing = np.arange(1000.0)
    ref = weakref.ref(backing)
    p = nn.Parameter(dt.asarray(backing))
    del backing
    gc.collect()
    assert ref() is not None  # p's storage keeps the array alive
    p.data = dt.ones(3)
    gc.collect()
    assert ref() is None


def test_parameter_pickle_and_deepcopy(device):
    p = nn.Parameter(dt.arange(3.0, device=device), requires_grad=False)
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
        assert type(q) is nn.Parameter and q.requires_grad is False
        assert q.device == p.device and not q._same_storage(p)
        assert_same(q.data, np.arange(3.0))


def test_data_replacement_waits_for_work_without_the_gil():
    # Note [Replacing a tensor's data]: other threads compute with p (the GIL
    # released for large inputs) while p's data is replaced again and again
    a, b = dt.full(1 << 20, 1.0), dt.full(1 << 20, 2.0)
    p = nn.Parameter(a)
    errors, sums = [], []
    stop = threading.Event()

    def work():
        try:
            while not stop.is_set():
                sums.append(float(dt.sum(p * 1.0)))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for i in range(200):
        p.data = b if i % 2 == 0 else a
    stop.set()
    for t in threads:
        t.join()
    assert not errors
    assert sums and set(sums) <= {float(1 << 20), float(2 << 20)}


# ---- Module: registration and iteration ----
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.scale = nn.Parameter(dt.ones(4, dtype=dt.float32))
        self.register_buffer("count", dt.zeros(1, dtype=dt.int64))
        self.register_buffer("scratch", dt.zeros(2, dtype=dt.float32), persistent=False)
        self.name = "block"

    def forward(self, x):
        return self.fc(x) * self.scale


def test_registration_by_attribute():
    b = Block()
    assert [n for n, _ in b.named_parameters()] == ["scale", "fc.weight", "fc.bias"]
    assert [n for n, _ in b.named_buffers()] == ["count", "scratch"]
    assert list(b.state_dict()) == ["scale", "count", "fc.weight", "fc.bias"]
    assert [n for n, _ in b.named_children()] == ["fc"]
    assert [n for n, _ in b.named_modules()] == ["", "fc"]
    assert b.name == "block" and "name" in b.__dict__
    assert b.get_submodule("fc") is b.fc and b.get_submodule("") is b
    with pytest.raises(AttributeError, match="Block has no attribute `nope`"):
        b.get_submodule("nope")
    assert {"fc", "scale", "count", "scratch", "forward"} <= set(dir(b))
    with pytest.raises(AttributeError, match="'Block' object has no attribute 'missing'"):
        b.missing


def test_reassignment_rules():
    b = Block()
    with pytest.raises(TypeError, match=r"cannot assign 'Tensor' as parameter 'scale' "
                                        r"\(devtensor.nn.Parameter or None expected\)"):
        b.scale = dt.ones(4)
    with pytest.raises(TypeError, match="cannot assign 'int' as child module 'fc'"):
        b.fc = 3
    with pytest.raises(TypeError, match="cannot assign 'list' as buffer 'count'"):
        b.count = [1]
    b.count = dt.ones(1, dtype=dt.int64)  # a buffer takes any tensor
    assert to_np(b.state_dict()["count"]).tolist() == [1]
    b.scale = None
    assert "scale" not in b.state_dict()
    b.fc = nn.Identity()
    assert [n for n, _ in b.named_parameters()] == []
    b.extra = nn.Parameter(dt.ones(1))  # a parameter replaces a plain attribute of that name
    b.name = nn.Linear(1, 1)
    assert "name" not in b.__dict__ and "name" in b._modules
    del b.name
    assert "name" not in b._modules
    with pytest.raises(AttributeError):
        del b.never_set


def test_linear_weight_and_bias_attributes():
    # Linear reads weight and bias through class-level descriptors (the per-call
    # path); registration, deletion and plain attributes behave as on any Module
    lin = nn.Linear(2, 3)
    del lin.weight
    assert not hasattr(lin, "weight") and list(lin.state_dict()) == ["bias"]
    lin.weight = 3  # a plain attribute once the parameter is gone, as in PyTorch
    assert lin.weight == 3 and list(lin.state_dict()) == ["bias"]
    del lin.weight
    with pytest.raises(AttributeError):
        del lin.weight
    lin.weight = nn.Parameter(dt.ones(3, 2, dtype=dt.float32))
    assert list(lin.state_dict()) == ["bias", "weight"]
    lin.bias = None
    assert lin.bias is None and list(lin.state_dict()) == ["weight"]
    with pytest.raises(TypeError, match="cannot assign 'Tensor' as parameter 'weight'"):
        lin.weight = dt.ones(3, 2)
    assert to_np(lin(dt.ones(2, dtype=dt.float32))).tolist() == [2.0, 2.0, 2.0]
    assert nn.Linear.weight.name == "weight"


def test_registration_errors():
    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(dt.ones(1))

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Early()
    m = nn.Module()
    with pytest.raises(KeyError, match='contain "\\.", got: a.b'):
        m.register_parameter("a.b", None)
    with pytest.raises(KeyError, match="be empty string"):
        m.register_buffer("", None)
    with pytest.raises(TypeError, match="name should be a string"):
        m.add_module(1, nn.ReLU())
    with pytest.raises(KeyError, match="attribute 'train' already exists"):
        m.register_parameter("train", None)
    with pytest.raises(TypeError, match="devtensor.nn.Parameter or None required"):
        m.register_parameter("w", dt.ones(1))
    with pytest.raises(TypeError, match="is not a Module subclass"):
        m.add_module("x", 3)
    with pytest.raises(NotImplementedError, match='missing the required "forward"'):
        m(1)
    # a name registered as another kind is taken (PyTorch's KeyError), and the
    # registration keeps what it had; the same kind again replaces it
    lin = nn.Linear(2, 2)
    for register in (lambda: lin.register_buffer("weight", dt.zeros((2, 2))), lambda: lin.register_buffer("bias", None),
                     lambda: lin.add_module("weight", nn.ReLU())):
        with pytest.raises(KeyError, match="attribute '(weight|bias)' already exists"):
            register()
    assert [n for n, _ in lin.named_parameters()] == ["weight", "bias"] and list(lin.buffers()) == []
    lin.register_buffer("b", dt.zeros(2))
    lin.register_buffer("b", dt.ones(2))
    assert lin.b.tolist() == [1.0, 1.0]
    with pytest.raises(KeyError, match="attribute 'b' already exists"):
        lin.register_parameter("b", None)


def test_shared_parameters_count_once():
    shared = nn.Linear(2, 2)
    net = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(net.parameters())) == 2
    assert list(net.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert len(list(net.named_parameters(remove_duplicate=False))) == 4
    assert len(list(net.modules())) == 3


def test_train_eval_apply_zero_grad():
    net = nn.Sequential(nn.Linear(2, 2), nn.Dropout(), nn.Sequential(nn.ReLU()))
    assert net.eval() is net and not any(m.training for m in net.modules())
    assert net.train() is net and all(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train(1)
    seen = []
    assert net.apply(lambda m: seen.append(type(m).__name__)) is net
    assert seen == ["Linear", "Dropout", "ReLU", "Sequential", "Sequential"]
    net.zero_grad()  # no autograd: nothing to clear
    assert net.requires_grad_(False) is net
    assert not any(p.requires_grad for p in net.parameters())


def test_forward_hooks():
    lin = nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: calls.append("pre"))
    h2 = lin.register_forward_hook(lambda m, args, out: out * 0)
    out = lin(dt.ones(2, dtype=dt.float32))
    assert calls == ["pre"] and to_np(out).tolist() == [0.0, 0.0]
    h1.remove()
    h2.remove()
    assert to_np(lin(dt.zeros(2, dtype=dt.float32))).tolist() == to_np(lin.bias).tolist()


# ---- moving modules (Note [Module.to moves parameters in place]) ----
def test_to_moves_parameters_in_place(device_pair):
    src, dst = device_pair
    b = Block().to(src)
    params = list(b.parameters())
    values = [to_np(p) for p in params]
    assert b.to(dst) is b
    assert [id(p) for p in b.parameters()] == [id(p) for p in params]
    for p, v in zip(b.parameters(), values):
        assert p.device == dt.device(dst) and type(p) is nn.Parameter
        np.testing.assert_array_equal(to_np(p), v)
    assert b.count.device == dt.device(dst) and b.scratch.device == dt.device(dst)


def test_to_dtype_casts_floating_tensors_only(device):
    b = Block().to(device, dt.float64)
    assert b.fc.weight.dtype == dt.float64 and b.scale.dtype == dt.float64
    assert b.count.dtype == dt.int64
    assert b.half().fc.weight.dtype == dt.float16 and b.bfloat16().scale.dtype == dt.bfloat16
    assert b.float().fc.bias.dtype == dt.float32 and b.double().fc.bias.dtype == dt.float64
    assert b.to(dt.complex64).scale.dtype == dt.complex64
    assert b.to(dt.ones(1, dtype=dt.float32, device=device)).scale.dtype == dt.float32
    with pytest.raises(TypeError, match="only accepts floating point or complex dtypes, but got "
                                        "desired dtype=int32"):
        b.to(dt.int32)
    with pytest.raises(TypeError, match="unexpected keyword argument 'copy'"):
        b.to("cpu", copy=True)


def test_failed_move_changes_nothing():
    b = Block()
    before = [(p.device, p.dtype, p.data_ptr()) for p in b.parameters()]
    with pytest.raises(RuntimeError):
        b.to("cuda:7")
    assert [(p.device, p.dtype, p.data_ptr()) for p in b.parameters()] == before


def test_cuda_and_cpu_methods():
    b = Block()
    with pytest.raises(ValueError, match="expects a CUDA device"):
        b.cuda("cpu")
    assert b.cpu() is b and b.fc.weight.device == dt.device("cpu")
    for d in CUDA_DEVICES:
        assert b.cuda(int(d[-1])) is b and b.fc.weight.device == dt.device(d)
        assert b.cuda(d).scale.device == dt.device(d)


# ---- Linear and LazyLinear ----
def test_linear_init_and_forward(device):
    dt.random.seed(5)
    lin = nn.Linear(20, 30, device=device)
    assert lin.weight.shape == (30, 20) and lin.bias.shape == (30,)
    assert lin.weight.dtype == dt.float32 and lin.weight.device == dt.device(device)
    bound = 1 / math.sqrt(20)
    w, b = to_np(lin.weight), to_np(lin.bias)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.9 * bound and w.std() > 0.8 * bound / math.sqrt(3)
    x = np.random.default_rng(1).standard_normal((4, 5, 20)).astype(np.float32)
    out = lin(tensor(x, device))
    assert_same(out, x @ w.T + b, exact=False, rtol=1e-5, atol=1e-6)
    assert_same(lin(tensor(x[0, 0], device)), x[0, 0] @ w.T + b, exact=False, rtol=1e-5,
                atol=1e-6)
    nb = nn.Linear(20, 3, bias=False, dtype=dt.float64, device=device)
    assert nb.bias is None and "bias" not in nb.state_dict() and nb.weight.dtype == dt.float64
    assert_same(nb(tensor(x[0], device, np.float64)), x[0].astype(np.float64) @ to_np(nb.weight).T,
                exact=False, rtol=1e-12)


def test_linear_errors():
    with pytest.raises(TypeError, match="in_features must be an int"):
        nn.Linear(2.5, 3)
    with pytest.raises(ValueError, match="out_features must be non-negative"):
        nn.Linear(2, -1)
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied "
                                           r"\(2x5 and 3x4\)"):
        nn.Linear(3, 4)(dt.ones(2, 5))
    with pytest.raises(TypeError, match="input must be a devtensor.Tensor"):
        nn.Linear(3, 4)([1.0, 2.0, 3.0])


def test_linear_repr():
    assert repr(nn.Linear(3, 4)) == "Linear(in_features=3, out_features=4, bias=True)"
    assert repr(nn.Linear(3, 4, bias=False)) == "Linear(in_features=3, out_features=4, bias=False)"


def test_lazy_linear_takes_its_input_size_and_device(device):
    net = nn.Sequential(nn.LazyLinear(1))
    assert repr(net) == ("Sequential(\n  (0): LazyLinear(in_features=0, out_features=1, "
                         "bias=True)\n)")
    assert repr(net[0].weight) == "<UninitializedParameter>"
    X = dt.ones(2, 3, dtype=dt.float32, device=device)
    out = net(X)
    lin = net[0]
    assert type(lin) is nn.Linear and lin.in_features == 3
    assert lin.weight.shape == (1, 3) and lin.weight.device == dt.device(device)
    assert type(lin.weight) is nn.Parameter and lin.weight.dtype == dt.float32
    assert net[0].weight.data.device == dt.device(device)
    assert np.abs(to_np(lin.weight)).max() <= 1 / math.sqrt(3)
    assert_same(out, np.ones((2, 3), np.float32) @ to_np(lin.weight).T + to_np(lin.bias),
                exact=False, rtol=1e-6)
    assert repr(net) == "Sequential(\n  (0): Linear(in_features=3, out_features=1, bias=True)\n)"


def test_lazy_linear_moved_first_keeps_dtype_and_requires_grad(device):
    lazy = nn.LazyLinear(2, bias=False).to(device, dt.float64)
    lazy.weight.requires_grad = False
    lazy(dt.ones(4, device=device))
    assert lazy.weight.dtype == dt.float64 and lazy.weight.requires_grad is False
    assert lazy.bias is None
    with pytest.raises(RuntimeError, match="at least one dimension"):
        nn.LazyLinear(2)(dt.asarray(1.0))
    with pytest.raises(TypeError, match="must be a devtensor.Tensor"):
        nn.LazyLinear(2)([1.0])


def test_d2l_listing(device):
    # the network of the D2L "GPUs" section, with try_gpu's device
    X = dt.ones(2, 3, device=device, dtype=dt.float32)
    net = nn.Sequential(nn.LazyLinear(1))
    net = net.to(device=device)
    out = net(X)
    assert out.shape == (2, 1) and out.device == dt.device(device)
    assert net[0].weight.data.device == dt.device(device)


# ---- Sequential and ModuleList ----
def test_sequential_indexing():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    net = nn.Sequential(a, b, c)
    assert len(net) == 3 and net[0] is a and net[-1] is c and list(net) == [a, b, c]
    tail = net[1:]
    assert type(tail) is nn.Sequential and list(tail._modules) == ["1", "2"] and tail[0] is b
    with pytest.raises(IndexError, match="index 3 is out of range"):
        net[3]
    with pytest.raises(TypeError, match="indices must be integers or slices"):
        net["0"]
    d = nn.Sequential(nn.ReLU())
    assert d.append(nn.Tanh()) is d and len(d) == 2 and isinstance(d[1], nn.Tanh)
    d.insert(0, nn.Sigmoid())
    assert [type(m).__name__ for m in d] == ["Sigmoid", "ReLU", "Tanh"]
    del d[0]
    assert list(d._modules) == ["0", "1"] and isinstance(d[0], nn.ReLU)
    d[1] = nn.Identity()
    assert isinstance(d[1], nn.Identity)
    named = nn.Sequential(collections.OrderedDict(hidden=nn.Linear(2, 2), act=nn.ReLU()))
    assert list(named.state_dict()) == ["hidden.weight", "hidden.bias"]
    x = dt.ones(4, 2, dtype=dt.float32)
    assert_same(net(x), np.maximum(to_np(x) @ to_np(a.weight).T + to_np(a.bias), 0)
                @ to_np(c.weight).T + to_np(c.bias), exact=False, rtol=1e-6)


def test_module_list():
    ml = nn.ModuleList([nn.Linear(1, 1), nn.ReLU()])
    assert len(ml) == 2 and isinstance(ml[1], nn.ReLU) and len(ml[:1]) == 1
    ml.append(nn.Tanh())
    assert [n for n, _ in ml.named_children()] == ["0", "1", "2"]
    assert len(list(ml.parameters())) == 2
    del ml[0]
    assert [type(m).__name__ for m in ml] == ["ReLU", "Tanh"] and list(ml._modules) == ["0", "1"]
    ml.insert(-1, nn.GELU())  # before the last, as list.insert
    assert [type(m).__name__ for m in ml] == ["ReLU", "GELU", "Tanh"]
    ml.insert(3, nn.Sigmoid())
    assert type(ml[-1]) is nn.Sigmoid
    with pytest.raises(IndexError, match="Index out of range: 9"):
        ml.insert(9, nn.ReLU())
    with pytest.raises(IndexError, match="index 0 is out of range"):
        nn.ModuleList()[0]
    with pytest.raises(TypeError, match="ModuleList indices must be integers or slices"):
        ml[1.0]


def test_repr_matches_pytorch():
    net = nn.Sequential(nn.LazyLinear(1), nn.Dropout(), nn.Flatten(), nn.GELU(), nn.Softmax(1),
                        nn.ReLU(), nn.MSELoss(), nn.CrossEntropyLoss())
    # the text PyTorch 2 prints for the same modules
    assert repr(net) == """Sequential(
  (0): LazyLinear(in_features=0, out_features=1, bias=True)
  (1): Dropout(p=0.5, inplace=False)
  (2): Flatten(start_dim=1, end_dim=-1)
  (3): GELU(approximate='none')
  (4): Softmax(dim=1)
  (5): ReLU()
  (6): MSELoss()
  (7): CrossEntropyLoss()
)"""
    nested = nn.Sequential(nn.Sequential(nn.Linear(1, 2)), nn.ReLU(inplace=True))
    assert repr(nested) == ("Sequential(\n  (0): Sequential(\n    (0): Linear(in_features=1, "
                            "out_features=2, bias=True)\n  )\n  (1): ReLU(inplace=True)\n)")


# ---- device errors (Note [Which device a failing module was on]) ----
@requires_devices(1)
def test_device_errors_say_which():
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)).to("cuda:0")
    net[2].cpu()
    with pytest.raises(RuntimeError) as info:
        net(dt.ones(3, dtype=dt.float32, device="cuda:0"))
    text = str(info.value)
    assert text.startswith("Expected all tensors to be on the same device, but found at least "
                           "two devices")
    assert "(in Linear: its parameters: weight, bias on cpu; input 0 on cuda:0)" in text
    assert ("(Sequential's parameters span devices: 0.weight, 0.bias on cuda:0; 2.weight, "
            "2.bias on cpu)") in text
    with pytest.raises(RuntimeError, match="in Linear: its parameters: weight, bias on cuda:0; "
                                           "input 0 on cpu"):
        nn.Linear(3, 1).cuda()(dt.ones(3, dtype=dt.float32))
    lstm = nn.LSTM(2, 3).cuda()  # an LSTM's (h0, c0) and an attention's keyword mask are named too
    h = dt.zeros((1, 1, 3), dtype=dt.float32)
    with pytest.raises(RuntimeError, match=r"input 0 on cuda:0; input 1\[0\] on cpu; input 1\[1\] on cpu\)"):
        lstm(dt.zeros((4, 1, 2), dtype=dt.float32, device="cuda:0"), (h, h))
    attention = nn.MultiheadAttention(4, 1).cuda()
    q = dt.zeros((2, 1, 4), dtype=dt.float32, device="cuda:0")
    with pytest.raises(RuntimeError, match="input 2 on cuda:0; key_padding_mask on cpu"):
        attention(q, q, q, key_padding_mask=dt.zeros((1, 2), dtype=dt.bool))


# ---- functional: activations ----
FLOATS = ["float32", "float64"]


@pytest.mark.parametrize("dtype", FLOATS)
def test_elementwise_activations(device, dtype):
    x = np.array([-3.0, -0.5, 0.0, 0.5, 2.0, 40.0, -40.0, np.nan], dtype=dtype)
    t = tensor(x, device)
    tol = dict(exact=False, rtol=1e-6 if dtype == "float32" else 1e-14, atol=0)
    assert_same(F.relu(t), np.maximum(x, 0))
    assert_same(nn.ReLU()(t), np.maximum(x, 0))
    with np.errstate(over="ignore"):
        assert_same(F.sigmoid(t), 1 / (1 + np.exp(-x)), **tol)
    assert_same(nn.Tanh()(t), np.tanh(x), **tol)
    assert_same(nn.Sigmoid()(t), to_np(F.sigmoid(t)))
    inplace = tensor(x, device)
    out = nn.ReLU(inplace=True)(inplace)
    assert out is inplace and np.array_equal(to_np(inplace), np.maximum(x, 0), equal_nan=True)


def test_gelu_exact_against_math_erfc(device):
    x = np.concatenate([np.linspace(-30, 30, 2001), [-2.1213, -1.5 * math.sqrt(2), 1e-300, 0.0]])
    expected = np.array([v * 0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    got = to_np(F.gelu(tensor(x, device)))
    nz = expected != 0
    assert np.max(np.abs(got[nz] - expected[nz]) / np.abs(expected[nz])) < 1e-12
    assert np.all(got[~nz] == 0)
    got32 = F.gelu(tensor(x, device, np.float32))
    assert got32.dtype == dt.float32
    x32 = x.astype(np.float32).astype(np.float64)
    expected32 = np.array([v * 0.5 * math.erfc(-v / math.sqrt(2)) for v in x32]).astype(np.float32)
    np.testing.assert_allclose(to_np(got32), expected32, rtol=1e-6, atol=1e-44)
    special = to_np(F.gelu(tensor([np.inf, -np.inf, np.nan], device)))
    assert special[0] == np.inf and np.isnan(special[1:]).all()  # -inf * 0, as PyTorch


def test_gelu_tanh_and_errors(device):
    x = np.linspace(-5, 5, 101)
    expected = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    assert_same(nn.GELU("tanh")(tensor(x, device)), expected, exact=False, rtol=1e-13, atol=1e-15)
    with pytest.raises(ValueError, match="approximate argument must be either none or tanh"):
        F.gelu(tensor(x, device), approximate="fast")
    with pytest.raises(TypeError, match="floating point input"):
        F.gelu(dt.arange(3))


def np_log_softmax(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_and_log_softmax(device, dim):
    x = np.random.default_rng(3).standard_normal((3, 4, 5)) * 20
    x[0, 0, :] = [1000, 999, -1000, 3, 2]  # needs the shift
    t = tensor(x, device)
    assert_same(F.log_softmax(t, dim), np_log_softmax(x, dim), exact=False, rtol=1e-13,
                atol=1e-12)
    assert_same(nn.Softmax(dim)(t), np.exp(np_log_softmax(x, dim)), exact=False, rtol=1e-12,
                atol=1e-300)
    assert_same(nn.LogSoftmax(dim)(t), to_np(F.log_softmax(t, dim)))
    s32 = F.softmax(t, dim, dtype=dt.float32)
    assert s32.dtype == dt.float32
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of "
                                         r"\[-3, 2\], but got 3\)"):
        F.softmax(t, 3)


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_half_precision_softmax_and_losses_compute_in_float32(device, half):
    """Note [Half precision computes in float32]: float16 and bfloat16
    softmax, log_softmax and cross_entropy are the float32 results rounded
    once to the low dtype (within one of its ulps of the exact results)."""
    rng = np.random.default_rng(5)
    x = dt.asarray(rng.standard_normal((4, 512)) * 3, device=device).astype(half)
    wide = x.astype(dt.float32)

    def exact32(t):  # NumPy has no bfloat16: compare the values as float32 (exactly)
        return to_np(t.astype(dt.float32))
    for f in (F.softmax, F.log_softmax):
        got = f(x, 1)
        assert got.dtype == dt.dtype(half) and got.device == dt.device(device)
        assert_same(got.astype(dt.float32), exact32(f(wide, 1).astype(half)))
    exact = np_log_softmax(to_np(x.astype(dt.float64)), 1)
    err = np.abs(to_np(F.log_softmax(x, 1).astype(dt.float64)) - exact)
    ulp = np.spacing(np.abs(exact).astype(np.float16)).astype(np.float64) * (8 if half == "bfloat16" else 1)
    assert (err <= ulp).all()
    assert_same(F.softmax(dt.asarray([1.0, 2.0, 3.0], device=device).astype(half), 0).astype(dt.float32),
                exact32(dt.asarray(np.exp(np_log_softmax(np.array([1.0, 2.0, 3.0]), 0))).astype(half)))
    target = dt.asarray(rng.integers(0, 512, 4), device=device)
    loss = F.cross_entropy(x, target, label_smoothing=0.1)
    assert loss.dtype == dt.dtype(half)
    assert_same(loss.astype(dt.float32), exact32(F.cross_entropy(wide, target, label_smoothing=0.1).astype(half)))
    probs = F.softmax(x, 1)
    assert_same(F.cross_entropy(x, probs).astype(dt.float32),
                exact32(F.cross_entropy(wide, probs.astype(dt.float32)).astype(half)))


def test_softmax_implicit_dim_warns():
    t = dt.ones(2, 3)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        out = F.softmax(t)
    assert_same(out, np.full((2, 3), 1 / 3), exact=False, rtol=1e-15)
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        nn.LogSoftmax()(dt.ones(3))


def test_softmax_of_infinite_rows():
    out = to_np(F.softmax(dt.asarray([[-np.inf, 0.0], [np.inf, 0.0], [-np.inf, -np.inf]]), 1))
    assert out[0].tolist() == [0.0, 1.0]
    assert np.isnan(out[1]).all() and np.isnan(out[2]).all()  # inf - inf, as PyTorch


def test_flatten(device):
    t = dt.arange(24.0, device=device).reshape(2, 3, 4)
    assert nn.Flatten()(t).shape == (2, 12)
    assert nn.Flatten(0, 1)(t).shape == (6, 4)
    assert F.flatten(t).shape == (24,)
    assert F.flatten(dt.asarray(1.0)).shape == (1,)
    with pytest.raises(RuntimeError, match="start_dim cannot come after end_dim"):
        F.flatten(t, 2, 1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        nn.Flatten(3)(t)
    with pytest.raises(IndexError, match=r"expected to be in range of \[-1, 0\], but got 1"):
        nn.Flatten()(dt.asarray(1.0, device=device))  # a 0-d tensor's dims are [-1, 0]
    assert nn.Flatten(0)(dt.asarray(1.0, device=device)).shape == (1,)


def test_sequential_pop_and_add():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    s = nn.Sequential(a, b, c)
    assert s.pop(1) is b and list(s) == [a, c] and list(s._modules) == ["0", "1"]
    assert s.pop(slice(1, None)) is not None and list(s) == [a]
    t = s + nn.Sequential(b, c)
    assert isinstance(t, nn.Sequential) and list(t) == [a, b, c] and list(s) == [a]
    with pytest.raises(ValueError, match="add operator supports only objects of Sequential class"):
        s + b
    m = nn.ModuleList([a, b])
    assert m.pop(0) is a and list(m) == [b]


def test_dropout(device):
    t = dt.ones(200, 500, dtype=dt.float32, device=device)
    drop = nn.Dropout(0.3)
    out = to_np(drop(t))
    kept = out != 0
    assert abs(kept.mean() - 0.7) < 0.01
    np.testing.assert_allclose(out[kept], 1 / 0.7, rtol=1e-6)
    assert drop.eval()(t) is t
    assert F.dropout(t, 0.0) is t and F.dropout(t, 0.5, training=False) is t
    assert np.all(to_np(F.dropout(t, 1.0)) == 0)
    x = dt.ones(10, device=device)
    assert F.dropout(x, 0.5, inplace=True) is x
    for p in (-0.1, 1.5):
        with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
            nn.Dropout(p)
    assert nn.Identity(3, k=4)(t) is t


# ---- losses ----
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss(device, reduction):
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    sq = (a - b) ** 2
    expected = {"mean": sq.mean(), "sum": sq.sum(), "none": sq}[reduction]
    assert_same(nn.MSELoss(reduction)(tensor(a, device), tensor(b, device)), expected,
                exact=False, rtol=1e-14)


def test_loss_argument_errors():
    with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
        nn.MSELoss("avg")
    with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
        F.cross_entropy(dt.ones(2, 3), dt.zeros(2, dtype=dt.int64), reduction="avg")
    with pytest.warns(UserWarning, match=r"Using a target size \(\(3,\)\) that is different to "
                                         r"the input size \(\(2, 3\)\)"):
        F.mse_loss(dt.ones(2, 3), dt.ones(3))


def reference_cross_entropy(x, target, weight, ignore_index, reduction, smoothing):
    """PyTorch's documented cross_entropy, one sample at a time in NumPy."""
    x = np.moveaxis(x, 1, -1) if x.ndim > 1 else x[None]
    n_classes = x.shape[-1]
    flat = x.reshape(-1, n_classes)
    w = np.ones(n_classes) if weight is None else weight
    if target.dtype.kind == "f":
        probs = (np.moveaxis(target, 1, -1) if target.ndim > 1 else target[None])
        probs = probs.reshape(-1, n_classes) * (1 - smoothing) + smoothing / n_classes
        losses = np.array([-(np_log_softmax(r, 0) * p * w).sum() for r, p in zip(flat, probs)])
        losses = losses.reshape(x.shape[:-1])
        if target.ndim == 1:
            losses = losses[0]
        return {"mean": losses.mean(), "sum": losses.sum(), "none": losses}[reduction]
    labels = target.reshape(-1)
    nll, smooth, wsum = [], [], 0.0
    for r, y in zip(flat, labels):
        if y == ignore_index:
            nll.append(0.0)
            smooth.append(0.0)
            continue
        lp = np_log_softmax(r, 0)
        nll.append(-lp[y] * w[y])
        smooth.append(-(lp * w).sum())
        wsum += w[y]
    nll, smooth = np.array(nll), np.array(smooth)
    if reduction == "none":
        out = (1 - smoothing) * nll + smoothing / n_classes * smooth
        return out.reshape(target.shape)
    div = wsum if reduction == "mean" else 1.0
    return (1 - smoothing) * nll.sum() / div + smoothing / n_classes * smooth.sum() / div


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy(device, reduction, smoothing, weighted):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((5, 4, 3)) * 3
    target = np.array([[0, 1, 3], [2, -100, 1], [3, 3, 0], [1, 0, 2], [2, 2, -100]])
    probs = rng.random((5, 4, 3))
    probs /= probs.sum(1, keepdims=True)
    w = np.array([0.5, 1.0, 2.0, 1.5]) if weighted else None
    kw = dict(reduction=reduction, label_smoothing=smoothing,
              weight=None if w is None else tensor(w, device))
    for tgt in (target, probs):
        expected = reference_cross_entropy(x, tgt, w, -100, reduction, smoothing)
        got = F.cross_entropy(tensor(x, device), tensor(tgt, device), **kw)
        assert_same(got, np.asarray(expected), exact=False, rtol=1e-13, atol=1e-15)
    loss = nn.CrossEntropyLoss(**kw)
    assert_same(loss(tensor(x[:, :, 0], device), tensor(target[:, 0], device)),
                np.asarray(reference_cross_entropy(x[:, :, 0], target[:, 0], w, -100, reduction,
                                                   smoothing)), exact=False, rtol=1e-13)
    one = reference_cross_entropy(x[0, :, 0], np.array(2), w, -100, reduction, smoothing)
    assert_same(F.cross_entropy(tensor(x[0, :, 0], device), tensor(2, device), **kw),
                np.asarray(one).reshape(()), exact=False, rtol=1e-13)


@requires_devices(1)
def test_loss_operands_on_two_devices():
    x = dt.ones(3, 4, device="cuda:0")
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device, but "
                                           "found at least two devices, cuda:0 and cpu!"):
        F.cross_entropy(x, dt.zeros(3, dtype=dt.int64))
    with pytest.raises(RuntimeError, match="two devices, cuda:0 and cpu!"):
        F.cross_entropy(x, dt.zeros(3, dtype=dt.int64, device="cuda:0"), weight=dt.ones(4))
    with pytest.raises(RuntimeError, match="two devices, cuda:0 and cpu!"):
        nn.MSELoss()(x, dt.ones(3, 4))


def test_cross_entropy_errors(device):
    x = dt.ones(3, 4, device=device)
    with pytest.raises(IndexError, match="Target 4 is out of bounds."):
        F.cross_entropy(x, tensor([0, 4, 1], device))
    with pytest.raises(IndexError, match="Target -1 is out of bounds."):
        F.cross_entropy(x, tensor([0, -1, 1], device))
    with pytest.raises(ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(4\)\."):
        F.cross_entropy(x, tensor([0, 1, 1, 1], device))  # PyTorch's nll_loss words
    with pytest.raises(RuntimeError, match=r"Expected target size \(3, 5\), got \(3, 4\)"):
        F.cross_entropy(dt.ones((3, 4, 5), device=device), dt.zeros((3, 4), dtype=dt.int64, device=device))
    with pytest.raises(RuntimeError, match="weight tensor should be defined either for all 4"):
        F.cross_entropy(x, tensor([0, 1, 1], device), weight=dt.ones(3, device=device))
    with pytest.raises(ValueError, match="label_smoothing must be between 0.0 and 1.0"):
        F.cross_entropy(x, tensor([0, 1, 1], device), label_smoothing=1.5)
    with pytest.raises(RuntimeError, match="integer dtype"):
        F.cross_entropy(x, dt.ones(3, dtype=dt.bool, device=device))
    all_ignored = F.cross_entropy(x, tensor([-100] * 3, device))
    assert np.isnan(float(all_ignored))  # 0 / 0, as PyTorch


# ---- init ----
def test_calculate_gain():
    assert nn.init.calculate_gain("linear") == 1 and nn.init.calculate_gain("sigmoid") == 1
    assert nn.init.calculate_gain("tanh") == 5 / 3
    assert nn.init.calculate_gain("relu") == math.sqrt(2)
    assert nn.init.calculate_gain("leaky_relu") == math.sqrt(2 / (1 + 0.01 ** 2))
    assert nn.init.calculate_gain("leaky_relu", math.sqrt(5)) == math.sqrt(2 / 6)
    assert nn.init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity softplus"):
        nn.init.calculate_gain("softplus")
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        nn.init.calculate_gain("leaky_relu", True)


def test_initialisers(device):
    t = dt.empty((400, 300), dtype=dt.float32, device=device)
    assert nn.init.uniform_(t, -2, 3) is t
    v = to_np(t)
    assert v.min() >= -2 and v.max() < 3 and abs(v.mean() - 0.5) < 0.05
    nn.init.normal_(t, 1.0, 2.0)
    v = to_np(t)
    assert abs(v.mean() - 1) < 0.05 and abs(v.std() - 2) < 0.05
    nn.init.xavier_uniform_(t, gain=2.0)
    bound = 2.0 * math.sqrt(6 / 700)
    assert np.abs(to_np(t)).max() <= bound and abs(to_np(t).std() - bound / math.sqrt(3)) < 0.01
    nn.init.xavier_normal_(t)
    assert abs(to_np(t).std() - math.sqrt(2 / 700)) < 0.002
    nn.init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu")
    bound = math.sqrt(2) * math.sqrt(3 / 400)
    assert np.abs(to_np(t)).max() <= bound and np.abs(to_np(t)).max() > 0.99 * bound
    nn.init.kaiming_normal_(t)
    assert abs(to_np(t).std() - math.sqrt(2 / (1 + 0.01 ** 2)) / math.sqrt(300)) < 0.002
    assert np.all(to_np(nn.init.zeros_(t)) == 0) and np.all(to_np(nn.init.ones_(t)) == 1)
    assert np.all(to_np(nn.init.constant_(t, 2.5)) == 2.5)
    half = dt.empty(1000, dtype=dt.bfloat16, device=device)
    nn.init.uniform_(half)
    assert half.dtype == dt.bfloat16 and 0 <= float(dt.min(half)) and float(dt.max(half)) <= 1


def test_eye_and_orthogonal(device):
    e = dt.empty((2, 3), dtype=dt.float32, device=device)
    assert nn.init.eye_(e) is e
    assert_same(e, np.eye(2, 3, dtype=np.float32))
    for shape in ((4, 6), (6, 4), (3, 2, 2)):
        w = dt.empty(shape, dtype=dt.float32, device=device)
        assert nn.init.orthogonal_(w, gain=2.0) is w and w.device == dt.device(device)
        m = to_np(w).reshape(shape[0], -1).astype(np.float64)
        g = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
        np.testing.assert_allclose(g, 4 * np.eye(len(g)), atol=1e-5)
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        nn.init.eye_(dt.ones(3))
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions are supported"):
        nn.init.orthogonal_(dt.ones(3))


def test_initialiser_errors():
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        nn.init.xavier_uniform_(dt.ones(3))
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        nn.init.kaiming_uniform_(dt.ones(3, 3), mode="fan_avg")
    with pytest.raises(TypeError, match="fills floating point tensors"):
        nn.init.uniform_(dt.ones(3, dtype=dt.int32))
    with pytest.raises(TypeError, match="generator must be a devtensor.random.Generator"):
        nn.init.normal_(dt.ones(3), generator=object())
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        nn.init.kaiming_uniform_(dt.ones(0, 3))


def test_initialisation_is_reproducible_across_devices():
    # Note [Reproducible on every device]: one seed, the same parameters
    values = []
    for d in ["cpu"] + CUDA_DEVICES:
        dt.random.seed(11)
        values.append(to_np(nn.Linear(7, 5, device=d).weight))
    for v in values[1:]:
        np.testing.assert_array_equal(v, values[0])


# ---- state dicts ----
def test_state_dict_shares_memory(device):
    net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1)).to(device)
    sd = net.state_dict()
    assert isinstance(sd, collections.OrderedDict)
    assert list(sd) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert all(type(v) is dt.Tensor for v in sd.values())
    assert sd["0.weight"]._same_storage(net[0].weight)
    assert net.state_dict(keep_vars=True)["0.weight"] is net[0].weight
    assert list(net.state_dict(prefix="net.")) == ["net.0.weight", "net.0.bias", "net.2.weight",
                                                   "net.2.bias"]


def test_load_state_dict_in_place(device_pair):
    src, dst = device_pair
    a = Block().to(src)
    b = Block().to(dst, dt.float64)
    ids = [id(p) for p in b.parameters()]
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert [id(p) for p in b.parameters()] == ids
    for (name, p), (_, q) in zip(a.named_parameters(), b.named_parameters()):
        assert q.device == dt.device(dst) and q.dtype == dt.float64
        np.testing.assert_array_equal(to_np(q), to_np(p).astype(np.float64), err_msg=name)


def test_load_state_dict_errors_change_nothing():
    lin = nn.Linear(3, 4)
    before = to_np(lin.weight), to_np(lin.bias)
    bad = {"weight": dt.ones(4, 2), "bias": dt.ones(4), "x": dt.ones(1)}
    with pytest.raises(RuntimeError) as info:
        lin.load_state_dict(bad)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Linear:\n\tUnexpected key(s) in state_dict: "x". '
        "\n\tsize mismatch for weight: copying a param with shape (4, 2) from checkpoint, the "
        "shape in current model is (4, 3).")
    np.testing.assert_array_equal(to_np(lin.bias), before[1])  # nothing copied
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "bias"'):
        lin.load_state_dict({"weight": dt.ones(4, 3)})
    with pytest.raises(RuntimeError) as info:  # PyTorch's order: missing, then unexpected
        lin.load_state_dict({"weight": dt.ones(4, 3), "x": dt.ones(1)})
    assert str(info.value) == ('Error(s) in loading state_dict for Linear:\n\tMissing key(s) in '
                               'state_dict: "bias". \n\tUnexpected key(s) in state_dict: "x". ')
    np.testing.assert_array_equal(to_np(lin.weight), before[0])
    result = lin.load_state_dict({"weight": dt.ones(4, 3), "x": dt.ones(1)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["x"]
    assert np.all(to_np(lin.weight) == 1)
    with pytest.raises(RuntimeError, match='While copying the parameter named "bias", expected '
                                           'devtensor.Tensor'):
        lin.load_state_dict({"weight": dt.ones(4, 3), "bias": [1, 2, 3, 4]})
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        lin.load_state_dict([("weight", dt.ones(4, 3))])


def test_load_state_dict_assign_and_lazy(device):
    source = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)).to(device)
    lazy = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
    lazy.load_state_dict(source.state_dict())
    assert type(lazy[0]) is nn.Linear and lazy[0].in_features == 3
    assert lazy[0].weight.device == dt.device("cpu")  # copied onto the module's own device
    x = dt.ones(5, 3, dtype=dt.float32)
    np.testing.assert_array_equal(to_np(lazy(x)), to_np(source(x.to(device))))
    shared = nn.Linear(3, 4)
    sd = source[0].state_dict()
    shared.load_state_dict(sd, assign=True)
    assert shared.weight._same_storage(sd["weight"]) and type(shared.weight) is nn.Parameter


def test_module_pickle_and_deepcopy(device):
    net = nn.Sequential(nn.Linear(3, 2), nn.ReLU()).to(device)
    for other in (pickle.loads(pickle.dumps(net)), copy.deepcopy(net)):
        assert type(other[0].weight) is nn.Parameter
        assert other[0].weight.device == dt.device(device)
        assert not other[0].weight._same_storage(net[0].weight)
        np.testing.assert_array_equal(to_np(other[0].weight), to_np(net[0].weight))
    with pytest.raises(RuntimeError, match="cannot pickle an uninitialised parameter"):
        pickle.dumps(nn.LazyLinear(2))
    assert isinstance(copy.deepcopy(nn.LazyLinear(2)).weight, nn.UninitializedParameter)


def test_no_warnings_on_the_common_path():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Dropout(0.1), nn.Linear(8, 3),
                            nn.LogSoftmax(1))
        loss = nn.CrossEntropyLoss()(net(dt.ones(6, 4, dtype=dt.float32)),
                                     dt.zeros(6, dtype=dt.int64))
        assert loss.shape == ()


def test_replacing_a_registered_entry_keeps_its_place():
    """PyTorch's order: replacing a layer of a Sequential, a parameter or a
    buffer keeps its position (the forward pass and state_dict keys stay in
    order); moving a name to another kind of entry puts it there at the end."""
    s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    s[0] = nn.Linear(2, 3)
    s.add_module("2", nn.Linear(3, 1))
    assert s(dt.ones(4, 2, dtype=dt.float32)).shape == (4, 1)
    assert list(s.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    lin = nn.Linear(2, 2)
    lin.weight = nn.Parameter(dt.zeros((2, 2), dtype=dt.float32))
    lin.register_parameter("weight", nn.Parameter(dt.ones((2, 2), dtype=dt.float32)))
    assert list(lin.state_dict()) == ["weight", "bias"] and lin.weight.tolist() == [[1.0, 1.0]] * 2

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = nn.Linear(1, 1), nn.Linear(1, 1)
            self.register_buffer("r", dt.zeros(1))
            self.register_buffer("q", dt.zeros(1))

    net = Net()
    net.a = nn.Identity()
    net.register_buffer("r", dt.ones(1))
    assert [n for n, _ in net.named_children()] == ["a", "b"]
    assert list(net.state_dict()) == ["r", "q", "b.weight", "b.bias"]
    net.a = nn.Parameter(dt.zeros(1))  # a module becomes a parameter: now among the parameters
    assert [n for n, _ in net.named_children()] == ["b"] and list(net.state_dict())[0] == "a"


def test_losses_take_a_0d_cpu_tensor_beside_device_tensors(device):
    """A 0-d CPU tensor goes with tensors on any device, as in operators."""
    x = dt.ones((2, 3), dtype=dt.float32, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's broadcast warning
        r = F.mse_loss(x, dt.tensor(0.5))
    assert r.device == dt.device(device) and r.item() == 0.25
    if device != "cpu":
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            F.mse_loss(x, dt.ones((2, 3), dtype=dt.float32))


def test_softmax_of_rows_with_infinities_and_nan(device):
    # PyTorch's: a row with +inf or NaN is all NaN, a row of -inf too; -inf
    # beside finite values is a 0 (log: -inf)
    rows = np.array([[np.inf, 1, 2], [0, 1, 2], [-np.inf] * 3, [np.nan, 1, 2], [-np.inf, 0, 1]],
                    dtype=np.float32)
    x = dt.asarray(rows, device=device)
    with np.errstate(all="ignore"):
        top = rows.max(axis=1, keepdims=True)
        e = np.exp(rows - top)
        want = e / e.sum(axis=1, keepdims=True)
        want_log = rows - top - np.log(e.sum(axis=1, keepdims=True))
    got, got_log = to_np(F.softmax(x, dim=1)), to_np(F.log_softmax(x, dim=1))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(got_log, want_log, rtol=1e-6)
    assert np.isnan(got[[0, 2, 3]]).all() and got[4, 0] == 0 and got_log[4, 0] == -np.inf


def test_fuzzed_arguments_are_clear_errors_that_change_nothing(device):
    """A second fuzzer's finds in nn: each refusal comes before any change."""
    m = nn.LazyLinear(4)
    with pytest.raises(RuntimeError, match=r"size mismatch for weight: .* \(4,\) .* needs shape \(4, in_features\)"):
        m.load_state_dict({"weight": dt.ones(4), "bias": dt.ones(4)})
    assert type(m) is nn.LazyLinear and m.has_uninitialized_params()  # still lazy, nothing materialised
    m.load_state_dict({"weight": dt.ones((4, 3)), "bias": dt.ones(4)})
    assert type(m) is nn.Linear and m.in_features == 3
    x = dt.arange(10, device=device)
    with pytest.raises(TypeError, match="cannot write its scaled values into a tensor of int64"):
        F.dropout(x, 0.5, inplace=True)
    assert x.tolist() == list(range(10))
    for f in (F.softmax, F.log_softmax):  # an empty dim: an empty result, as PyTorch's
        assert f(dt.ones((2, 0), device=device), dim=1).shape == (2, 0)
    with pytest.raises(IndexError, match="Target 0 is out of bounds"):
        F.cross_entropy(dt.ones((2, 0), device=device), dt.asarray([0, 0], device=device))
    with pytest.raises(TypeError, match="bias must be a devtensor.Tensor, not int"):
        F.linear(dt.ones((2, 3), device=device), dt.ones((4, 3), device=device), 5)
    logits, target = dt.ones((2, 3), device=device), dt.asarray([0, 1], device=device)
    with pytest.raises(TypeError, match="weight must be a devtensor.Tensor, not list"):
        F.cross_entropy(logits, target, weight=[1.0, 1.0, 1.0])
    for bad in ("a", None, 1.5):
        with pytest.raises(TypeError, match="ignore_index must be an int"):
            F.cross_entropy(logits, target, ignore_index=bad)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_more_activations_and_losses_against_their_definitions(device):
    """leaky_relu, silu, softplus, one_hot, normalize, l1_loss, nll_loss and
    binary_cross_entropy_with_logits (and their modules) against PyTorch's
    documented formulas, computed here in NumPy, on every device."""
    a = np.array([[-2.0, -0.5, 0.0, 1.5], [3.0, -1.0, 30.0, -30.0]])
    x = dt.asarray(a, device=device)
    close = lambda got, want: np.testing.assert_allclose(to_np(got), want, rtol=1e-12, atol=1e-15)  # noqa: E731
    close(F.leaky_relu(x), np.where(a > 0, a, 0.01 * a))
    close(nn.LeakyReLU(0.2)(x), np.where(a > 0, a, 0.2 * a))
    close(F.silu(x), a * _sigmoid(a))
    close(nn.SiLU()(x), a * _sigmoid(a))
    close(F.softplus(x), np.log1p(np.exp(a)))
    close(nn.Softplus(beta=2.0, threshold=5.0)(x), np.where(2 * a > 5, a, np.log1p(np.exp(2 * a)) / 2))
    y = x.copy()
    assert F.leaky_relu(y, inplace=True) is y and F.silu(y, inplace=True) is y
    assert_same(F.one_hot(dt.asarray([0, 2, 1], device=device)), np.eye(3, dtype=np.int64)[[0, 2, 1]], device)
    assert F.one_hot(dt.asarray([[1], [0]], device=device), 4).shape == (2, 1, 4)
    close(F.normalize(x), a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12))
    close(F.normalize(x, p=1.0, dim=0), a / np.maximum(np.abs(a).sum(0, keepdims=True), 1e-12))
    t = dt.zeros_like(x)
    close(F.l1_loss(x, t), np.abs(a).mean())
    close(nn.L1Loss(reduction="sum")(x, t), np.abs(a).sum())
    logp = F.log_softmax(x, 1)
    target = np.array([1, 3])
    lp = to_np(logp)
    close(F.nll_loss(logp, dt.asarray(target, device=device)), -lp[[0, 1], target].mean())
    close(nn.NLLLoss(reduction="none")(logp, dt.asarray(target, device=device)), -lp[[0, 1], target])
    close(F.nll_loss(logp, dt.asarray([1, -100], device=device)), -lp[0, 1])  # ignore_index
    close(F.cross_entropy(x, dt.asarray(target, device=device)), -lp[[0, 1], target].mean())
    labels = (a > 0).astype(np.float64)
    want = -(labels * np.log(_sigmoid(a)) + (1 - labels) * np.log(1 - _sigmoid(a)))
    got = F.binary_cross_entropy_with_logits(x, dt.asarray(labels, device=device), reduction="none")
    np.testing.assert_allclose(to_np(got), want, rtol=1e-9, atol=1e-12)
    pw = np.array([2.0, 1.0, 3.0, 1.0])
    want_pw = -(pw * labels * np.log(_sigmoid(a)) + (1 - labels) * np.log(1 - _sigmoid(a)))
    got = nn.BCEWithLogitsLoss(pos_weight=dt.asarray(pw, device=device))(x, dt.asarray(labels, device=device))
    np.testing.assert_allclose(got.item(), want_pw.mean(), rtol=1e-9)
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        F.one_hot(dt.asarray([0, 3], device=device), 3)
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        F.one_hot(x, 3)
    with pytest.raises(ValueError, match=r"Target size \(\(2, 3\)\) must be the same as input size \(\(2, 4\)\)"):
        F.binary_cross_entropy_with_logits(x, dt.zeros((2, 3), device=device))
    with pytest.raises(RuntimeError, match="expected target of an integer dtype"):
        F.nll_loss(logp, x)
    assert repr(nn.LeakyReLU(0.1)) == "LeakyReLU(negative_slope=0.1)"


def test_to_empty_and_type(device):
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    weight = m[0].weight
    assert m.to_empty(device=device) is m
    assert m[0].weight is weight and weight.device == dt.device(device) and weight.shape == (3, 2)
    assert m[1].running_mean.device == dt.device(device) and m[1].num_batches_tracked.dtype == dt.int64
    assert m.type(dt.float64) is m
    assert m[0].weight.dtype == dt.float64 and m[1].num_batches_tracked.dtype == dt.float64  # all, as PyTorch's
    assert m[0].weight is weight


# ---- a user round's finds (D2L's later chapters) ----
def test_tensors_read_as_outside_autograd():
    """Note [No autograd]: plain tensors read as PyTorch's outside autograd;
    asking for gradients is a clear NotImplementedError."""
    t = dt.ones(2)
    assert t.requires_grad is False and t.grad is None and t.grad_fn is None and t.is_leaf is True
    assert t.requires_grad_(False) is t and dt.tensor([1.0], requires_grad=False).tolist() == [1.0]
    for call in (lambda: t.requires_grad_(), lambda: t.backward(), lambda: dt.tensor([1.0], requires_grad=True)):
        with pytest.raises(NotImplementedError, match="devtensor has no autograd"):
            call()
    p = nn.Parameter(dt.ones(2))
    assert p.requires_grad is True and p.requires_grad_(False) is p and p.requires_grad is False and p.grad is None


def test_uninitialized_parameters_have_no_size():
    lazy = nn.Sequential(nn.LazyLinear(3), nn.LazyBatchNorm1d())
    for call in (lambda: lazy[0].weight.numel(), lambda: lazy[0].weight.shape, lambda: len(lazy[1].running_mean),
                 lambda: sum(p.numel() for p in lazy.parameters()), lambda: lazy[1].running_var.size):
        with pytest.raises(ValueError, match="Attempted to use an uninitialized parameter or buffer"):
            call()
    lazy(dt.ones((2, 5)))
    assert sum(p.numel() for p in lazy.parameters()) == 15 + 3 + 3 + 3


def test_dirac_and_sparse_init(device):
    w = dt.empty((4, 2, 3, 3), device=device)
    assert nn.init.dirac_(w) is w
    x = dt.asarray(np.random.default_rng(4).standard_normal((1, 2, 5, 5)), device=device)
    y = to_np(F.conv2d(x, w, padding=1))
    np.testing.assert_allclose(y[:, :2], to_np(x), rtol=1e-12)  # the identity on the first channels
    assert not y[:, 2:].any()
    g = dt.empty((6, 2, 3), device=device)
    nn.init.dirac_(g, groups=2)  # each group of 3 outputs keeps the 2 inputs
    want = np.zeros((6, 2, 3))
    for d in range(2):
        want[d, d, 1] = want[3 + d, d, 1] = 1
    np.testing.assert_array_equal(to_np(g), want)
    with pytest.raises(ValueError, match="Only tensors with 3, 4, or 5 dimensions are supported"):
        nn.init.dirac_(dt.empty((2, 2), device=device))
    with pytest.raises(ValueError, match="dim 0 must be divisible by groups"):
        nn.init.dirac_(dt.empty((3, 2, 3), device=device), groups=2)
    s = dt.empty((10, 400), device=device)
    nn.init.sparse_(s, 0.3, std=0.5)
    zeros = (to_np(s) == 0).sum(axis=0)
    assert (zeros == 3).all()  # ceil(0.3 * 10) a column
    values = to_np(s)[to_np(s) != 0]
    assert abs(values.std() - 0.5) < 0.05 and abs(values.mean()) < 0.05
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        nn.init.sparse_(dt.empty(3, device=device), 0.5)


def test_get_parameter_and_buffer():
    m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    assert m.get_parameter("0.weight") is m[0].weight and m.get_buffer("1.running_mean") is m[1].running_mean
    with pytest.raises(AttributeError, match="`running_mean` is not an nn.Parameter"):
        m.get_parameter("1.running_mean")
    with pytest.raises(AttributeError, match="`weight` is not a buffer"):
        m.get_buffer("0.weight")
    with pytest.raises(AttributeError, match="Linear has no attribute `nope`"):
        m.get_parameter("0.nope")
    with pytest.raises(AttributeError, match="Sequential has no attribute `7`"):
        m.get_buffer("7.running_mean")


def test_integer_input_to_layers_is_refused(device):
    for layer, shape in ((nn.Linear(3, 4), (2, 3)), (nn.Conv2d(3, 4, 3), (1, 3, 5, 5)),
                         (nn.ConvTranspose1d(3, 2, 2), (1, 3, 4))):
        layer.to(device)
        with pytest.raises(RuntimeError, match="input of int64 with parameters of float32: an integer or bool input "
                                               "is not converted"):
            layer(dt.ones(shape, dtype=dt.int64, device=device))
    assert nn.Linear(3, 4).to(device)(dt.ones((2, 3), dtype=dt.float64, device=device)).dtype == dt.float64


def test_reprs_as_pytorchs(device):
    assert repr(nn.ModuleList([nn.Linear(2, 2)] * 3 + [nn.ReLU(), nn.ReLU(), nn.Tanh()])) == (
        "ModuleList(\n  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)\n  (3-4): 2 x ReLU()\n"
        "  (5): Tanh()\n)")
    assert repr(nn.ModuleList()) == "ModuleList()"
    assert "(out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)" in \
        repr(nn.MultiheadAttention(4, 2))
    params = nn.ParameterList([nn.Parameter(dt.ones(2, dtype=dt.float32)),
                               nn.Parameter(dt.ones((2, 3), device=device))])
    where = f" ({device})" if device != "cpu" else ""
    assert repr(params) == ("ParameterList(\n    (0): Parameter containing: [devtensor.float32 of size 2]\n"
                            f"    (1): Parameter containing: [devtensor.float64 of size 2x3{where}]\n)")
    assert repr(nn.ParameterDict({"a": nn.Parameter(dt.ones(2))})) == \
        "ParameterDict(  (a): Parameter containing: [devtensor.float64 of size 2])"
    assert repr(nn.Embedding(10, 3, sparse=True, scale_grad_by_freq=True, norm_type=1.0)) == \
        "Embedding(10, 3, norm_type=1.0, scale_grad_by_freq=True, sparse=True)"
    assert repr(nn.EmbeddingBag(10, 3, scale_grad_by_freq=True)) == \
        "EmbeddingBag(10, 3, scale_grad_by_freq=True, mode='mean')"
    assert repr(nn.Conv1d(2, 4, 3, padding="same", padding_mode="circular")) == \
        "Conv1d(2, 4, kernel_size=(3,), stride=(1,), padding=same, padding_mode=circular)"


@pytest.mark.skipif(len(CUDA_DEVICES) < 1, reason="needs a CUDA device (emulated ones do)")
def test_device_error_names_tensor_attributes():
    """Note [Which device a failing module was on]: a tensor kept as a plain
    attribute, which Module.to() leaves behind, is named."""
    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.rw = dt.ones((4, 4))
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            return self.lin(x) @ self.rw
    model = Model().to("cuda:0")
    with pytest.raises(RuntimeError, match=r"tensor attributes rw on cpu, which Module.to\(\) does not move"):
        model(dt.ones((1, 4), device="cuda:0"))
