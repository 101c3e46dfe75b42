"""`tf.test.experimental`: `sync_devices`."""
from tfcompat.framework.export import tf_export


@tf_export("test.experimental.sync_devices")
def sync_devices():
    """Blocks until every device has finished its pending work (torch's CUDA streams; CPU ops run synchronously)."""
    import torch
    from tfcompat.framework import graph_state, op_def
    if graph_state.state.graphs or any(check() for check in op_def.GRAPH_BUILDING):
        raise RuntimeError("sync_devices() must only be called in Eager mode, outside tf.functions")
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        for i in range(torch.cuda.device_count()):
            torch.cuda.synchronize(i)


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("test.experimental", attr)
