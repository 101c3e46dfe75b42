"""`keras.mixed_precision`: the global dtype policy ("mixed_float16": float16 compute, float32 variables)."""
from tfcompat.keras._config import config, policy_name
from tfcompat.keras.layers.base import DTypePolicy
from tfcompat.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer  # noqa: F401

Policy = DTypePolicy
_FLOATS = ("float16", "float32", "float64", "bfloat16", "mixed_float16", "mixed_bfloat16")


def set_global_policy(policy):
    """Sets the dtype policy new layers get when they're not given `dtype`."""
    name = policy.name if isinstance(policy, DTypePolicy) else policy
    if not isinstance(name, str):
        raise ValueError("Invalid `policy` argument. Expected the string name of a policy (such as 'mixed_float16') "
                         f"or a `DTypePolicy` instance. Received: policy={policy} (of type {type(policy)})")
    if name not in _FLOATS:
        raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies include "
                         f"'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as 'float32'.")
    config.dtype_policy = name


def global_policy():
    """The current global `DTypePolicy` (float32 unless set)."""
    return DTypePolicy(policy_name())


def dtype_policy():
    return global_policy()


set_dtype_policy = set_global_policy
