"""`tf.train`: object-based checkpoints in TensorFlow's file format, and their management.

tfcompat additions: `checkpoint_to_safetensors` / `safetensors_to_checkpoint` convert a checkpoint's
tensors to and from a `.safetensors` file for the torch ecosystem.
"""
from tfcompat.train.checkpoint import Checkpoint, CheckpointOptions
from tfcompat.train.checkpoint_management import (CheckpointManager, get_checkpoint_state, latest_checkpoint,
                                                  list_variables, load_checkpoint, load_variable)
from tfcompat.train._safetensors import checkpoint_to_safetensors, safetensors_to_checkpoint
from tfcompat.train.cluster_spec import ClusterSpec
from tfcompat.train.moving_averages import ExponentialMovingAverage
# TF 1.x's global step (TF 2 keeps it in tf.compat.v1.train); TF1-era eager code calls tf.train's
from tfcompat.train.checkpoint_management import get_or_create_global_step

__all__ = ["Checkpoint", "CheckpointOptions", "CheckpointManager", "get_checkpoint_state", "latest_checkpoint",
           "list_variables", "load_checkpoint", "load_variable", "checkpoint_to_safetensors",
           "safetensors_to_checkpoint", "get_or_create_global_step", "ClusterSpec", "ExponentialMovingAverage"]
_EXAMPLE_NAMES = frozenset(["BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList",
                            "FeatureLists", "Example", "SequenceExample"])


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    if attr in _EXAMPLE_NAMES:      # protobuf messages, built on first use
        from tfcompat.train import example
        return getattr(example, attr)
    from tfcompat._api import missing
    raise missing("train", attr)
