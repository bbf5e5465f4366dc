"""The listings of Dive into Deep Learning's "GPUs" section (PyTorch tab),
spelled with devtensor, as notebook cells: one source for
examples/gpus.ipynb (tools/make_notebook.py writes it, the tests execute it)
and for `python -m devtensor`, which runs the cells in order (run_cells).
"""
import ast

CELLS = [
    ("markdown", """\
# GPUs, with devtensor

The listings of the "GPUs" section of *Dive into Deep Learning* (PyTorch tab), run with
devtensor: `import devtensor as dt` stands for `import torch`, and `dt.nn` for `torch.nn`.
The same cells run on a laptop without a GPU (every tensor then lands on the CPU), on one GPU
and on several. To try two CUDA devices without a GPU, start Jupyter with
`DEVTENSOR_EMULATE_CUDA=2`: devtensor's CUDA backend then runs on the CPU (slowly, and it is not
a GPU: timings mean nothing there)."""),
    ("code", """\
import devtensor as dt
from devtensor import nn"""),
    ("markdown", """\
The book looks at the hardware with `nvidia-smi`. `dt.cuda.smi()` prints what matters from it:
each GPU's name, its memory used and total, and what devtensor holds."""),
    ("code", "dt.cuda.smi()"),
    ("markdown", """\
## Computing devices

Every tensor lives on a device. `dt.device('cpu')` is the host, `dt.device('cuda')` the current
GPU and `dt.device('cuda:1')` the second one. Naming a device does not check the hardware; using
one that is not there raises."""),
    ("code", "dt.device('cpu'), dt.device('cuda'), dt.device('cuda:1')"),
    ("markdown", "How many GPUs are there?"),
    ("code", "dt.cuda.device_count()"),
    ("markdown", """\
The book's helpers fall back to the CPU when a GPU is missing, so the same code runs
everywhere:"""),
    ("code", """\
def cpu():
    return dt.device('cpu')

def gpu(i=0):
    return dt.device(f'cuda:{i}')

def num_gpus():
    return dt.cuda.device_count()

def try_gpu(i=0):
    \"\"\"gpu(i) if it exists, otherwise cpu().\"\"\"
    if num_gpus() >= i + 1:
        return gpu(i)
    return cpu()

def try_all_gpus():
    \"\"\"All GPUs, or [cpu()] if there is none.\"\"\"
    return [gpu(i) for i in range(num_gpus())] or [cpu()]

try_gpu(), try_gpu(10), try_all_gpus()"""),
    ("markdown", "devtensor ships the same helpers as `dt.try_gpu`, `dt.try_all_gpus` and "
                 "`dt.num_gpus`:"),
    ("code", "dt.try_gpu() == try_gpu(), dt.try_all_gpus() == try_all_gpus()"),
    ("markdown", """\
## Tensors and GPUs

Tensors are made on the CPU unless told otherwise, and `.device` says where one is."""),
    ("code", """\
x = dt.tensor([1, 2, 3])
x.device"""),
    ("markdown", """\
### Storage on the GPU

`device=` puts a new tensor on a device. `X` goes to the first GPU and `Y` to the second (each
falls back to the CPU when that GPU is missing)."""),
    ("code", """\
X = dt.ones(2, 3, device=try_gpu())
X"""),
    ("code", """\
Y = dt.rand(2, 3, device=try_gpu(1))
Y"""),
    ("markdown", """\
### Copying

The operands of one operation must be on one device. With `X` on `cuda:0` and `Y` on `cuda:1`
(or on the CPU), `X + Y` raises PyTorch's error instead of moving data behind your back:"""),
    ("code", """\
try:
    print(X + Y)
except RuntimeError as e:
    print('RuntimeError:', e)"""),
    ("markdown", """\
`X.cuda(1)` copies `X` to the second GPU; then `Y + Z` works. (Without two GPUs this cell copies
`X` to wherever `Y` is.)"""),
    ("code", """\
Z = X.cuda(1) if num_gpus() >= 2 else X.to(Y.device)
print(X)
print(Z)
Y + Z"""),
    ("markdown", """\
A tensor already on the device it is sent to is returned as it is, without a copy:"""),
    ("code", "Z.cuda(1) is Z if num_gpus() >= 2 else Z.to(Z.device) is Z"),
    ("markdown", """\
### Side notes

Moving data between devices is slow compared with computing on it, and every transfer to the
host waits for the GPU: printing a GPU tensor, `float(t)` and `t.cpu()` all do. Keep data on one
device, do many operations there, and bring back only what you need. (Exercise 3 measures
this.)"""),
    ("markdown", """\
## Neural networks and GPUs

A model's parameters live on a device too. `net.to(device)` moves them in place (the same
Parameter objects) and returns the model. `nn.LazyLinear` takes its input size from the first
call."""),
    ("code", """\
net = nn.Sequential(nn.LazyLinear(1))
net = net.to(device=try_gpu())
net(X)"""),
    ("markdown", "The parameters are on the same device as the input:"),
    ("code", "net[0].weight.data.device"),
    ("markdown", "and the lazy layer is now a `Linear` sized from `X`:"),
    ("code", "net"),
    ("markdown", """\
Parameters are saved in the safetensors format, which only holds data: loading never runs code.
`map_location` puts them on another device, here the CPU:"""),
    ("code", """\
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), 'net.safetensors')
dt.save(net.state_dict(), path)
state = dt.load(path, map_location='cpu')
{name: (tuple(t.shape), str(t.device)) for name, t in state.items()}"""),
    ("markdown", """\
## Exercises

`python bench/d2l_exercises.py` times the section's four exercises on every device it finds:
large and small matrix products, reading and writing parameters on the device, logging a norm
to the host each step against keeping the log on the device, and two products on two GPUs at
once against one after the other."""),
]


def run_cells(cells=CELLS, namespace=None, out=print):
    """Run the code cells in order as a notebook would: each cell's code is
    shown, and the value of its last expression is printed unless None."""
    namespace = {} if namespace is None else namespace
    for kind, source in cells:
        if kind == "markdown":
            for line in source.splitlines():
                out(f"# {line}".rstrip())
            continue
        out("\n".join(">>> " + line if i == 0 else "... " + line
                      for i, line in enumerate(source.splitlines())))
        tree = ast.parse(source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, "<cell>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
            if value is not None:
                out(repr(value))
        out("")
    return namespace
