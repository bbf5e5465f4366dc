"""The D2L "GPUs" chapter as a notebook (examples/gpus.ipynb, made from
devtensor/_chapter.py) executed by a Jupyter kernel without CUDA and with two
emulated devices, and the section's exercises (bench/d2l_exercises.py)."""
import json
import os

import pytest

from helpers import requires_emulation, run_python

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = os.path.join(ROOT, "examples", "gpus.ipynb")


def test_notebook_is_made_from_the_chapter_cells():
    from devtensor._chapter import CELLS
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert [(c.cell_type, c.source) for c in nb.cells] == [tuple(c) for c in CELLS], \
        "examples/gpus.ipynb is stale: run python tools/make_notebook.py"
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")


def execute(env_update, remove):
    env = dict(os.environ)
    for key in remove:
        env.pop(key, None)
    env.update(env_update)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": ROOT}})
    client.execute(env=env)
    outputs = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        text = []
        for out in cell.outputs:
            assert out.output_type != "error", out
            if out.output_type == "stream":
                text.append(out.text)
            elif out.output_type == "execute_result":
                text.append(out.data["text/plain"])
        outputs[cell.source] = "".join(text).strip()
    return outputs


def cell(outputs, start):
    """The output of the one code cell whose source is `start` or starts with it."""
    if start in outputs:
        return outputs[start]
    matches = [text for source, text in outputs.items() if source.startswith(start)]
    assert len(matches) == 1, start
    return matches[0]


def flat(text):
    """IPython's pretty printer wraps long reprs: compare with spaces only."""
    return " ".join(text.split())


def test_notebook_without_cuda():
    out = execute({"CUDA_VISIBLE_DEVICES": ""}, remove=("DEVTENSOR_EMULATE_CUDA",))
    assert cell(out, "dt.cuda.smi()").startswith("CUDA: not available")
    assert flat(cell(out, "dt.device('cpu')")) == ("(device(type='cpu'), device(type='cuda'), "
                                             "device(type='cuda', index=1))")
    assert cell(out, "dt.cuda.device_count()") == "0"
    assert flat(cell(out, "def cpu():")) == ("(device(type='cpu'), device(type='cpu'), "
                                       "[device(type='cpu')])")
    assert cell(out, "dt.try_gpu() ==") == "(True, True)"
    assert cell(out, "x = dt.tensor") == "device(type='cpu')"
    assert cell(out, "X = dt.ones") == "tensor([[1., 1., 1.],\n        [1., 1., 1.]])"
    assert "device=" not in cell(out, "Y = dt.rand")
    assert cell(out, "try:").startswith("tensor([[")  # both on the cpu: no error
    assert cell(out, "Z.cuda(1) is Z") == "True"
    assert cell(out, "net = nn.Sequential").startswith("tensor([[")
    assert cell(out, "net[0].weight.data.device") == "device(type='cpu')"
    assert cell(out, "net") == ("Sequential(\n  (0): Linear(in_features=3, out_features=1, "
                                "bias=True)\n)")
    assert cell(out, "import os, tempfile") == ("{'0.weight': ((1, 3), 'cpu'), '0.bias': "
                                                "((1,), 'cpu')}")


@requires_emulation
def test_notebook_on_two_emulated_devices():
    out = execute({"DEVTENSOR_EMULATE_CUDA": "2"}, remove=())
    smi = cell(out, "dt.cuda.smi()")
    assert "devtensor emulated CUDA device 0" in smi and "device 1" in smi
    assert cell(out, "dt.cuda.device_count()") == "2"
    assert flat(cell(out, "def cpu():")) == ("(device(type='cuda', index=0), device(type='cpu'), "
                                       "[device(type='cuda', index=0), device(type='cuda', "
                                       "index=1)])")
    assert cell(out, "dt.try_gpu() ==") == "(True, True)"
    assert cell(out, "X = dt.ones").endswith("device='cuda:0')")
    assert cell(out, "Y = dt.rand").endswith("device='cuda:1')")
    assert cell(out, "try:") == ("RuntimeError: Expected all tensors to be on the same device, "
                                 "but found at least two devices, cuda:0 and cuda:1!")
    copied = cell(out, "Z = X.cuda(1)")
    assert copied.count("device='cuda:0'") == 1 and copied.count("device='cuda:1'") == 2
    assert cell(out, "Z.cuda(1) is Z") == "True"
    assert cell(out, "net = nn.Sequential").endswith("device='cuda:0')")
    assert cell(out, "net[0].weight.data.device") == "device(type='cuda', index=0)"
    assert cell(out, "net") == ("Sequential(\n  (0): Linear(in_features=3, out_features=1, "
                                "bias=True)\n)")
    assert cell(out, "import os, tempfile") == ("{'0.weight': ((1, 3), 'cpu'), '0.bias': "
                                                "((1,), 'cpu')}")


def run_exercises(env_update, remove, tmp_path):
    path = tmp_path / "ex.json"
    r = run_python(f"import sys, runpy; sys.argv = ['d2l_exercises', '--quick', '--json', "
                   f"{str(path)!r}]\nrunpy.run_path("
                   f"{os.path.join(ROOT, 'bench', 'd2l_exercises.py')!r}, run_name='__main__')",
                   env_update=env_update, remove=remove, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout, json.loads(path.read_text())


def test_exercises_without_cuda(tmp_path):
    stdout, data = run_exercises({"CUDA_VISIBLE_DEVICES": ""}, ("DEVTENSOR_EMULATE_CUDA",),
                                 tmp_path)
    assert data["devices"] == ["cpu"] and not data["emulated"]
    assert {r["exercise"] for r in data["rows"]} == {"1", "2", "3", "4"}
    assert all(r["value"] > 0 for r in data["rows"] if r["exercise"] != "4")
    assert "needs two GPUs" in stdout and "No GPU: every row is the CPU's" in stdout


@requires_emulation
def test_exercises_on_two_emulated_devices(tmp_path):
    stdout, data = run_exercises({"DEVTENSOR_EMULATE_CUDA": "2"}, (), tmp_path)
    assert data["devices"] == ["cuda:0", "cuda:1", "cpu"] and data["emulated"]
    devices = {r["device"] for r in data["rows"]}
    assert {"cuda:0", "cuda:1", "cpu", "cuda:0+1"} <= devices
    assert [r for r in data["rows"] if r["exercise"] == "4"][-1]["unit"] == "x"
    assert "Emulated CUDA devices" in stdout


def test_module_runs_the_chapter_cells():
    r = run_python("import runpy; runpy.run_module('devtensor', run_name='__main__')",
                   env_update={"CUDA_VISIBLE_DEVICES": ""})
    assert r.returncode == 0, r.stderr[-3000:]
    assert ">>> net[0].weight.data.device\ndevice(type='cpu')" in r.stdout
    assert "# The exercises, quick sizes" in r.stdout
