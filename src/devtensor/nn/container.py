"""Sequential, ModuleList, ModuleDict, ParameterList and ParameterDict."""
import collections
import operator

from .module import Module, _addindent


def _index(idx, n, what):
    try:
        i = operator.index(idx)
    except TypeError:
        raise TypeError(f"{what} indices must be integers or slices, not "
                        f"{type(idx).__name__}") from None
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of range")
    return i % n


class _ModuleSequence(Module):
    """What Sequential and ModuleList share: modules registered as '0', '1',
    ..., their length and iteration, and appending, inserting and deleting
    (which renumber, as PyTorch's do)."""

    def _renumber(self, modules):
        self.__dict__["_modules"] = {str(i): m for i, m in enumerate(modules)}

    def _key(self, idx):
        return list(self._modules)[_index(idx, len(self._modules), type(self).__name__)]

    def __setitem__(self, idx, module):
        self.add_module(self._key(idx), module)

    def __delitem__(self, idx):
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key(idx)]
        for key in keys:
            del self._modules[key]
        self._renumber(self._modules.values())

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def pop(self, key):
        """Remove the module at key (an index or a slice) and return it."""
        module = self[key]
        del self[key]
        return module

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        items = list(self._modules.values())
        items.insert(index + n if index < 0 else index, module)
        self._renumber(items)
        return self


class Sequential(_ModuleSequence):
    """Modules applied one after another: Sequential(m0, m1, ...) names them
    '0', '1', ...; Sequential(OrderedDict(name=module, ...)) keeps the names."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], collections.OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(collections.OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key(idx)]

    def __add__(self, other):
        """A new Sequential of self's modules, then other's (the same objects)."""
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        return Sequential(*self, *other)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(_ModuleSequence):
    """A list of modules, registered as '0', '1', ...; it has no forward."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._key(idx)]

    def __repr__(self):
        """PyTorch's: a run of identical modules is one line, '(0-2): 3 x Linear(...)'."""
        runs = []  # [first, last, text]
        for i, module in enumerate(self._modules.values()):
            text = repr(module)
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        if not runs:
            return self._get_name() + "()"
        lines = [_addindent(f"({a}): {text}" if a == b else f"({a}-{b}): {b - a + 1} x {text}", 2)
                 for a, b, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


def _parameter_lines(pairs):
    """PyTorch's ParameterList/ParameterDict lines: '(0): Parameter containing:
    [devtensor.float32 of size 2x3 (cuda:0)]'."""
    lines = []
    for key, p in pairs:
        size = "x".join(str(n) for n in p.shape)
        where = f" ({p.device})" if p.device.type != "cpu" else ""
        lines.append(f"  ({key}): Parameter containing: [{p.dtype!r} of size {size}{where}]")
    return "\n".join(lines)


class _Registry(Module):
    """What ModuleDict and ParameterDict share: a dict view of one of the
    module's registries (_modules or _parameters) under its keys."""
    _registry = ""

    def __init__(self, values=None):
        super().__init__()
        if values is not None:
            self.update(values)

    def _entries(self):
        return self.__dict__[self._registry]

    def __getitem__(self, key):
        return self._entries()[key]

    def __delitem__(self, key):
        del self._entries()[key]

    def __len__(self):
        return len(self._entries())

    def __iter__(self):
        return iter(self._entries())

    def __contains__(self, key):
        return key in self._entries()

    def keys(self):
        return self._entries().keys()

    def values(self):
        return self._entries().values()

    def items(self):
        return self._entries().items()

    def clear(self):
        self._entries().clear()

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def update(self, values):
        pairs = values.items() if hasattr(values, "items") else values
        for key, value in pairs:
            self[key] = value


class ModuleDict(_Registry):
    """An ordered dict of modules, registered under their keys; no forward."""
    _registry = "_modules"

    def __setitem__(self, key, module):
        self.add_module(key, module)


class ParameterList(Module):
    """A list of parameters, registered as '0', '1', ...; tensors given are
    made Parameters."""

    def __init__(self, values=None):
        super().__init__()
        if values is not None:
            self.extend(values)

    def _key(self, idx):
        return str(_index(idx, len(self._parameters), "ParameterList"))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._parameters.values())[idx])
        return self._parameters[self._key(idx)]

    def __setitem__(self, idx, param):
        self.register_parameter(self._key(idx), _as_parameter(param))

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, value):
        self.register_parameter(str(len(self)), _as_parameter(value))
        return self

    def extend(self, values):
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return _parameter_lines(enumerate(self))


class ParameterDict(_Registry):
    """An ordered dict of parameters, registered under their keys; tensors
    given are made Parameters."""
    _registry = "_parameters"

    def extra_repr(self):
        return _parameter_lines(self.items())

    def __setitem__(self, key, value):
        self.register_parameter(key, _as_parameter(value))


def _as_parameter(value):
    from .._C import Tensor
    from .parameter import Parameter
    if value is None or isinstance(value, Parameter):
        return value
    if isinstance(value, Tensor):
        return Parameter(value)
    raise TypeError(f"cannot assign '{type(value).__name__}' object to a parameter (devtensor.nn.Parameter, a "
                    f"tensor or None required)")


__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]
