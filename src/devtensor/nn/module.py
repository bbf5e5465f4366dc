"""devtensor.nn.Module: the base class of layers and models, with PyTorch's
registration of parameters, buffers and submodules, iteration, state dicts,
device moves and repr.

Note [Module.to moves parameters in place]
As in PyTorch, Module.to()/cuda()/cpu()/float()/... keep every Parameter
object and replace its data (Note [Parameters are tensors whose data can
move] in parameter.py); buffers are replaced by moved tensors.  All the new
tensors are made before any parameter changes, so a move that fails (a
device that does not exist, memory that runs out) leaves the module as it
was.  load_state_dict checks every key, type and shape before it copies
anything, for the same reason.

Note [Which device a failing module was on]
An operation on tensors of two devices raises PyTorch's "Expected all
tensors to be on the same device" RuntimeError.  A module call that fails
that way adds which of its parameters are on which device, and where its
tensor inputs are, so that `net(X)` says which layer was left behind, and
the tensors it holds as plain attributes (which Module.to() does not move,
the commonest cause).  The innermost failing module adds that line; an enclosing module whose own
parameters span devices adds its summary too.
"""
import collections
import collections.abc
import itertools

from .. import _C
from .._C import Tensor, dtype as _dtype_type
from .._tensor import _parse_to_args
from .parameter import Parameter, is_uninitialized

_DEVICE_ERROR = "Expected all tensors to be on the same device"


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys",
                                               ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class RemovableHandle:
    """What register_forward_hook returns: .remove() unregisters the hook."""
    _ids = itertools.count()

    def __init__(self, hooks):
        self.hooks = hooks
        self.id = next(RemovableHandle._ids)

    def remove(self):
        self.hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _check_name(kind, name, module, registry):
    """PyTorch's checks of a name to register in module.<registry>: a name
    taken by anything else (a parameter for a buffer, ...) is a KeyError."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain ".", got: {name}')
    if hasattr(module, name) and name not in module.__dict__[registry]:
        raise KeyError(f"attribute '{name}' already exists")


def _registered(module, name):
    d = module.__dict__
    return name in d["_parameters"] or name in d["_buffers"] or name in d["_modules"]


class Module:
    """Base class of every layer and model.  Subclasses call
    super().__init__() first, assign Parameters, Modules and buffers as
    attributes, and define forward()."""

    training: bool

    def __init__(self):
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = {}
        d["_forward_hooks"] = {}

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  f'"forward" function')

    def __call__(self, *args, **kwargs):
        try:
            if self._forward_pre_hooks or self._forward_hooks:
                return self._call_with_hooks(args, kwargs)
            return self.forward(*args, **kwargs)
        except RuntimeError as e:
            if not str(e).startswith(_DEVICE_ERROR):
                raise
            raise _with_devices(self, e, args, kwargs) from None

    def _call_with_hooks(self, args, kwargs):
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        out = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            result = hook(self, args, out)
            if result is not None:
                out = result
        return out

    def register_forward_pre_hook(self, hook):
        """hook(module, args) runs before forward; a non-None result replaces args."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook):
        """hook(module, args, output) runs after forward; a non-None result replaces output."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    # ---- registration ----
    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name, self, "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter "
                            f"'{name}' (devtensor.nn.Parameter or None required)")
        self._forget(name, keep="_parameters")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name, self, "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            f"(devtensor.Tensor or None required)")
        self._forget(name, keep="_buffers")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name, module):
        if "_modules" not in self.__dict__:
            raise AttributeError("cannot assign module before Module.__init__() call")
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        _check_name("module", name, self, "_modules")
        self._forget(name, keep="_modules")
        self._modules[name] = module

    register_module = add_module

    def _forget(self, name, keep=None):
        """Drop name from the instance dict and every registry but `keep`, the
        one it is about to be set in: there a replaced entry keeps its place
        (PyTorch's order: s[0] = Linear(...) stays the first layer)."""
        d = self.__dict__
        d.pop(name, None)
        for registry in ("_parameters", "_modules", "_buffers"):
            if registry != keep:
                d[registry].pop(name, None)
        d["_non_persistent_buffers"].discard(name)

    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep="_parameters")
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                f"(devtensor.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if d.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep="_modules")
            d["_modules"][name] = value
        elif d.get("_modules") is not None and name in d["_modules"]:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module "
                                f"'{name}' (devtensor.nn.Module or None expected)")
            d["_modules"][name] = None
        elif d.get("_buffers") is not None and name in d["_buffers"]:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                f"(devtensor.Tensor or None expected)")
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            found = d.get(registry)
            if found is not None and name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if _registered(self, name):
            self._forget(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = set(super().__dir__())
        keys.update(self._parameters, self._buffers, self._modules)
        return sorted(k for k in keys if not k[0].isdigit())

    def get_submodule(self, target):
        """The submodule at a dotted path such as '0.linear' ('' is self)."""
        module = self
        if target == "":
            return module
        for part in target.split("."):
            if part not in module._modules or module._modules[part] is None:
                raise AttributeError(f"{module._get_name()} has no attribute `{part}`")
            module = module._modules[part]
        return module

    def get_parameter(self, target):
        """The parameter at a dotted path such as '0.weight'."""
        return self._registered_at(target, "_parameters", "an nn.Parameter")

    def get_buffer(self, target):
        """The buffer at a dotted path such as '1.running_mean'."""
        return self._registered_at(target, "_buffers", "a buffer")

    def _registered_at(self, target, registry, what):
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        entries = getattr(module, registry)
        if entries.get(name) is None:
            raise AttributeError(f"`{name}` is not {what}")
        return entries[name]

    # ---- iteration ----
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry, prefix, recurse, remove_duplicate):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in module.__dict__[registry].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    # ---- modes ----
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            module.__dict__["training"] = mode
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad = bool(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """PyTorch's zero_grad.  devtensor has no autograd yet, so parameters
        never hold gradients and this does nothing but clear any `grad`
        attribute user code has set."""
        for p in self.parameters():
            if getattr(p, "grad", None) is not None:
                p.grad = None

    def apply(self, fn):
        """fn(module) for every submodule (children first), then fn(self); returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- moving (Note [Module.to moves parameters in place]) ----
    def _convert(self, convert):
        """Replace every parameter's data and every buffer by convert(tensor),
        after making all the new tensors."""
        param_moves, buffer_moves, seen = [], [], set()
        for module in self.modules():
            for p in module._parameters.values():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    param_moves.append((p, convert(p)))
            for name, b in module._buffers.items():
                if b is not None:
                    buffer_moves.append((module, name, convert(b)))
        for p, new in param_moves:
            if new is not p:
                p.data = new
        for module, name, new in buffer_moves:
            module._buffers[name] = new
        return self

    def to(self, *args, **kwargs):
        """to(device=None, dtype=None, non_blocking=False), to(dtype), to(tensor):
        moves and casts parameters in place and buffers; returns self.  Only
        floating point and complex tensors take the dtype."""
        if "copy" in kwargs:
            raise TypeError("to() got an unexpected keyword argument 'copy'")
        device, dtype, non_blocking, _ = _parse_to_args(args, kwargs)
        if dtype is not None:
            dtype = _dtype_type(dtype)
            if not (dtype.is_floating_point or dtype.is_complex):
                raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, "
                                f"but got desired dtype={dtype}")
        if device is not None:
            device = _C._resolve_device(device)

        def convert(t):
            cast = dtype if dtype is not None and (t.dtype.is_floating_point or
                                                  t.dtype.is_complex) else None
            return t.to(device=device, dtype=cast, non_blocking=non_blocking)
        return self._convert(convert)

    def cuda(self, device=None):
        if device is None:
            device = _C.device("cuda")
        elif isinstance(device, int):
            device = _C.device(f"cuda:{device}")
        else:
            device = _C.device(device)
            if device.type != "cuda":
                raise ValueError(f"cuda() expects a CUDA device, got {device}")
        return self.to(device)

    def cpu(self):
        return self.to("cpu")

    def to_empty(self, *, device, recurse=True):
        """Parameters and buffers moved to device without their values
        (uninitialised memory of the same shapes and dtypes), as PyTorch's;
        returns self."""
        device = _C._resolve_device(device if isinstance(device, _C.device) else _C.device(device))
        if not recurse:
            raise NotImplementedError("to_empty(recurse=False) is not implemented in devtensor")
        return self._convert(lambda t: t.to(device) if is_uninitialized(t) else
                             _C.empty(t.shape, dtype=t.dtype, device=device))

    def type(self, dst_type):
        """Every parameter and buffer cast to dst_type (all of them, as
        PyTorch's Module.type; to() casts only floating ones)."""
        dst_type = _dtype_type(dst_type)
        return self._convert(lambda t: t.to(dtype=dst_type))

    def _cast_floating(self, dtype):
        return self._convert(lambda t: t.to(dtype=dtype) if t.dtype.is_floating_point else t)

    def float(self):
        return self._cast_floating(_C.float32)

    def double(self):
        return self._cast_floating(_C.float64)

    def half(self):
        return self._cast_floating(_C.float16)

    def bfloat16(self):
        return self._cast_floating(_C.bfloat16)

    # ---- state dicts ----
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """name -> tensor for every parameter and persistent buffer, with
        PyTorch's dotted names ('0.weight').  The tensors share the module's
        memory (parameters as plain tensors unless keep_vars; a lazy module's
        uninitialised ones as they are, which save() refuses)."""
        if destination is None:
            destination = collections.OrderedDict()
        for module_prefix, module in self.named_modules(prefix=prefix.rstrip("."),
                                                        remove_duplicate=False):
            head = module_prefix + "." if module_prefix else ""
            for name, p in module._parameters.items():
                if p is not None:
                    destination[head + name] = p if keep_vars or is_uninitialized(p) else p.data
            for name, b in module._buffers.items():
                if b is not None and name not in module._non_persistent_buffers:
                    destination[head + name] = b
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy state_dict's tensors into the parameters and persistent buffers
        (in place, onto their devices and dtypes; assign=True makes
        parameters share the given tensors instead).  Every key, type and
        shape is checked before anything is copied."""
        if not isinstance(state_dict, collections.abc.Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        targets = []  # (key, module, registry, name, current)
        for module_prefix, module in self.named_modules(remove_duplicate=False):
            head = module_prefix + "." if module_prefix else ""
            for name, p in module._parameters.items():
                if p is not None:
                    targets.append((head + name, module, "_parameters", name, p))
            for name, b in module._buffers.items():
                if b is not None and name not in module._non_persistent_buffers:
                    targets.append((head + name, module, "_buffers", name, b))
        expected = {t[0] for t in targets}
        missing = [t[0] for t in targets if t[0] not in state_dict]
        unexpected = [k for k in state_dict if k not in expected]
        errors = []
        if strict:
            if missing:  # PyTorch's order: missing, unexpected, then the rest
                errors.append("Missing key(s) in state_dict: " +
                              ", ".join(f'"{k}"' for k in missing) + ". ")
            if unexpected:
                errors.append("Unexpected key(s) in state_dict: " +
                              ", ".join(f'"{k}"' for k in unexpected) + ". ")
        plan = []
        for key, module, registry, name, current in targets:
            if key not in state_dict:
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected '
                              f'devtensor.Tensor from checkpoint but received {type(value)}')
                continue
            lazy = is_uninitialized(current)
            check = getattr(module, "_lazy_shape_error", None) if lazy else None
            refused = check(name, tuple(value.shape), key) if check is not None else None
            if refused is not None:
                errors.append(refused)
                continue
            if not lazy and tuple(value.shape) != tuple(current.shape):
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{tuple(value.shape)} from checkpoint, the shape in current "
                              f"model is {tuple(current.shape)}.")
                continue
            plan.append((module, registry, name, current, value, lazy))
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {self._get_name()}:\n\t" +
                               "\n\t".join(errors))
        for module, registry, name, current, value, lazy in plan:
            if assign:
                if registry == "_parameters":
                    current.data = value
                    if lazy:
                        current.__class__ = Parameter
                else:
                    module._buffers[name] = value
                continue
            if lazy and registry == "_parameters":
                current.materialize(value.shape)
            elif lazy:
                current = module._buffers[name] = current.materialize(value.shape)
            current._copy_from(value.to(current.device))
        for module in self.modules():
            after = getattr(module, "_after_load_state_dict", None)
            if after is not None:
                after()
        return _IncompatibleKeys(missing, unexpected)

    # ---- printing ----
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _devices_of(module):
    """{device name: [parameter and buffer names]} in registration order."""
    where = {}
    for name, t in itertools.chain(module.named_parameters(), module.named_buffers()):
        where.setdefault(str(t.device), []).append(name)
    return where


def _tensor_attributes(module):
    """'name on device' of the tensors that module and its submodules hold as
    plain attributes (neither parameters nor buffers: Module.to() leaves them)."""
    found = []
    for prefix, m in module.named_modules():
        for key, value in vars(m).items():
            if isinstance(value, Tensor) and not key.startswith("_"):
                found.append(f"{prefix + '.' if prefix else ''}{key} on {value.device}")
    return found


def _input_devices(args, kwargs):
    """'input 0 on cuda:0', 'input 1[0] on cpu' (a tensor in a tuple or list,
    as an LSTM's (h0, c0)), 'key_padding_mask on cpu' (a keyword)."""
    found = []
    for name, value in [(f"input {i}", a) for i, a in enumerate(args)] + list(kwargs.items()):
        if isinstance(value, Tensor):
            found.append(f"{name} on {value.device}")
        elif isinstance(value, (tuple, list)):
            found.extend(f"{name}[{j}] on {v.device}" for j, v in enumerate(value) if isinstance(v, Tensor))
    return found


def _with_devices(module, error, args, kwargs):
    """Note [Which device a failing module was on]."""
    where = _devices_of(module)
    summary = "; ".join(f"{', '.join(names)} on {dev}" for dev, names in where.items())
    lines = [str(error)]
    if not getattr(error, "_devtensor_devices_added", False):
        inputs = _input_devices(args, kwargs)
        parts = ([f"its parameters: {summary}"] if summary else ["it has no parameters"]) + inputs
        attributes = _tensor_attributes(module)
        if attributes:
            parts.append(f"tensor attributes {', '.join(attributes)}, which Module.to() does not move "
                         f"(register_buffer() them)")
        lines.append(f"(in {module._get_name()}: " + "; ".join(parts) + ")")
    elif len(where) > 1:
        lines.append(f"({module._get_name()}'s parameters span devices: {summary})")
    new = RuntimeError("\n".join(lines))
    new._devtensor_devices_added = True
    return new.with_traceback(error.__traceback__)


__all__ = ["Module"]
