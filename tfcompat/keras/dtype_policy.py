"""Keras 3's dtype policies (`keras.DTypePolicy`, `keras.FloatDTypePolicy`, `dtype_policies.get`): the dtype a
layer's variables are stored in and the dtype it computes in."""
import torch

from tfcompat.keras._config import policy_name
from tfcompat.keras.backend import standardize_dtype

_COMPUTE = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
            "bfloat16": torch.bfloat16}


class DTypePolicy:
    """Keras 3's dtype policy: the dtype variables are stored in and computations run in."""

    def __init__(self, name=None):
        if name is None:
            name = policy_name()
        if isinstance(name, DTypePolicy):
            name = name.name
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name} "
                            f"(of type {type(name)})")
        compute = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}.get(name)
        if compute is not None:
            self.name, self.compute_dtype, self.variable_dtype = name, compute, "float32"
            self._compute_storage = _COMPUTE[compute]
            return
        try:
            dtype = standardize_dtype(name)
        except ValueError:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies include "
                             "'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as "
                             "'float32'.") from None
        self.name, self.compute_dtype, self.variable_dtype = name, dtype, dtype
        self._compute_storage = _COMPUTE.get(dtype)     # the torch dtype of a float compute dtype, else None

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def serialize(self):
        return {"module": "keras", "class_name": type(self).__name__, "config": {"name": self.name},
                "registered_name": None}

    def __repr__(self):
        return f'<DTypePolicy "{self.name}">'      # also for FloatDTypePolicy, as Keras


def get_policy(identifier):
    """Keras's `dtype_policies.get`: a layer's `dtype` argument (None: the global policy; a policy, its config,
    a policy name, or any dtype: `tf.float64`, `np.float32`, `torch.float16`) as a `DTypePolicy`."""
    if identifier is None or isinstance(identifier, str):
        return DTypePolicy(identifier)
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return DTypePolicy(identifier.get("config", {}).get("name", "float32"))
    try:
        return DTypePolicy(standardize_dtype(identifier))
    except (TypeError, ValueError):
        raise ValueError("Cannot interpret `dtype` argument. Expected a string or an instance of DTypePolicy. "
                         f"Received: dtype={identifier}") from None


class FloatDTypePolicy(DTypePolicy):
    """Keras 3's alias of `DTypePolicy`, kept for code written against Keras 2.x's float policies."""
