"""devtensor tensors in dask.distributed: serialisation between processes,
and workers bound to one device each.

Registered when distributed is imported (Note [Registering with libraries
devtensor does not import] in _after_import.py).

Note [Tensors between processes]
A tensor travels as one frame of its bytes (C order, copied to host memory
once if it lives on a device) and a header with its dtype, shape and
device: no pickle of its data, and the frame can go out of band.  On
arrival it lands on the device it left from (or, in a process bound to one
CUDA device, on that one: Note [A process bound to one CUDA device] in
_pickle.py); a process without that device raises RuntimeError saying so.
bfloat16 travels widened to float32 (exact) and is narrowed on arrival.
Tensors inside task graphs are pickled (_pickle.py) and land by the same
rule.  A tensor that cannot land fails where distributed decodes the
message: for a result, the fetch fails; for a task, distributed treats the
message as corrupt, logs the error and drops the worker's connection, so
bind workers to devices that exist (BindDevice) rather than count on it.
"""
import numpy as np
from distributed.diagnostics.plugin import WorkerPlugin
from distributed.protocol import dask_deserialize, dask_serialize

from . import _C, _pickle
from ._C import TensorBase

__all__ = ["BindDevice"]


@dask_serialize.register(TensorBase)
def _serialize(t):
    host = t._host_values()
    header = {"dtype": t.dtype.name, "wire_dtype": host.dtype.str, "shape": list(host.shape),
              "device": str(t.device)}
    return header, [memoryview(host.reshape(-1)).cast("B")]


@dask_deserialize.register(TensorBase)
def _deserialize(header, frames):
    from ._creation import asarray
    where = _pickle.destination(header["device"])
    frame = frames[0] if len(frames) == 1 else b"".join(frames)
    values = np.frombuffer(frame, dtype=np.dtype(header["wire_dtype"])).reshape(tuple(header["shape"]))
    t = asarray(values, device=where, copy=True)  # the frame is the transport's buffer
    return t.astype(_C.dtype(header["dtype"]), copy=False)


class BindDevice(WorkerPlugin):
    """Bind each worker of a cluster to one CUDA device, as dask-cuda gives
    each worker one GPU:

        client.register_plugin(devtensor.dask.BindDevice(["cuda:0", "cuda:1"]))

    Worker k (its name, which LocalCluster numbers 0, 1, ...) gets
    devices[k % len(devices)].  On a bound worker, CUDA tensors that arrive
    -- in tasks from the client, or as other workers' results -- land on its
    device, so its chunks' work runs there; CPU tensors stay on the CPU.
    Each worker checks that its device exists when the plugin is
    registered."""

    name = "devtensor-bind-device"

    def __init__(self, devices):
        devices = [str(_C.device(d)) for d in devices]
        if not devices:
            raise ValueError("BindDevice needs at least one device")
        for d in devices:
            if not d.startswith("cuda"):
                raise ValueError(f"BindDevice binds workers to CUDA devices, not {d}")
        self.devices = devices

    def setup(self, worker):
        try:
            k = int(worker.name)
        except (TypeError, ValueError):
            raise ValueError(f"BindDevice needs workers named 0, 1, ... (LocalCluster's names); "
                             f"worker {worker.name!r} is not") from None
        device = self.devices[k % len(self.devices)]
        _pickle.bind_cuda(device)
        worker.devtensor_device = device

    def teardown(self, worker):
        _pickle.bind_cuda(None)
