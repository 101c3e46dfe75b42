"""Legacy Keras 2 HDF5 files (`model.save("x.h5")`): `model_config` attribute + `model_weights` group."""
import json

import numpy as np


def _attr_str(value):
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _attr_list(group, name):
    return [_attr_str(v) for v in group.attrs.get(name, [])]


def _layer_weights(layer):
    return list(layer.trainable_weights) + list(layer.non_trainable_weights) if layer.trainable else \
        list(layer.weights)


def load_legacy_weights(model, group, skip_mismatch=False):
    """Keras's `load_weights_from_hdf5_group`: layers with weights, in order, matched by position; every
    shape is checked before any variable is assigned (a failed load changes nothing)."""
    from tfcompat.keras.layers import InputLayer
    layers = [l for l in model.layers if not isinstance(l, InputLayer)]
    filtered = [l for l in layers if l.weights]
    names = [n for n in _attr_list(group, "layer_names") if _attr_list(group[n], "weight_names")]
    if len(names) != len(filtered):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected {len(filtered)} "
                         f"layers, found {len(names)} saved layers.")
    pending = []
    for k, (name, layer) in enumerate(zip(names, filtered)):
        g = group[name]
        values = [np.asarray(g[w]) for w in _attr_list(g, "weight_names")]
        symbolic = _layer_weights(layer)
        if len(values) != len(symbolic):
            raise ValueError(f"Weight count mismatch for layer #{k} (named {layer.name} in the current model, "
                             f"{name} in the save file). Layer expects {len(symbolic)} weight(s). Received "
                             f"{len(values)} saved weight(s)")
        for v, value in zip(symbolic, values):
            if tuple(v.shape) != value.shape:
                if skip_mismatch:
                    continue
                raise ValueError(f"Shape mismatch in layer #{k} (named {layer.name}) for weight {v.path}. Weight "
                                 f"expects shape {tuple(v.shape)}. Received saved weight with shape "
                                 f"{value.shape}")
            pending.append((v, value))
    for v, value in pending:
        v.assign(value)


def load_legacy_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """A model from a Keras 2 (or Keras 3 legacy-writer) `.h5` file."""
    import h5py
    from tfcompat.keras.saving_utils import deserialize_keras_object
    with h5py.File(filepath, "r") as h5:
        if "model_config" not in h5.attrs:
            raise ValueError(f"No model config found in the file at {filepath}.")
        config = json.loads(_attr_str(h5.attrs["model_config"]))
        model = deserialize_keras_object(config, custom_objects=custom_objects, safe_mode=safe_mode)
        load_legacy_weights(model, h5["model_weights"])
        training = h5.attrs.get("training_config")
        if compile and training is not None:
            import warnings
            warnings.warn("tfcompat: the training configuration of legacy `.h5` files is not restored; "
                          "call `model.compile()` again.", stacklevel=2)
    return model
