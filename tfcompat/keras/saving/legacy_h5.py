"""Legacy HDF5 whole-model files (`model.save("x.h5")`) as Keras 3 writes and reads them: `model_config` and
`training_config` attributes, a `model_weights` group (one subgroup per layer, by variable path) and
`optimizer_weights`."""
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
        if compile:
            _compile_from_h5(model, h5, custom_objects)
    return model


def _compile_from_h5(model, h5, custom_objects):
    """Keras 3: compiles the loaded model from `training_config` and restores `optimizer_weights` (a missing
    config or a state that does not fit is an absl warning, as in Keras)."""
    from tfcompat.util import absl_log
    training = h5.attrs.get("training_config")
    if training is None:
        absl_log.warning("No training configuration found in the save file, so the model was *not* compiled. "
                         "Compile it manually.")
        return
    model.compile(**_compile_args(json.loads(_attr_str(training)), custom_objects))
    if "optimizer_weights" not in h5:
        return
    opt = model.optimizer
    # Keras 3.15 builds the optimizer over the model's own variables only (none for a Functional or Sequential
    # model), then sets what of the saved state fits: such a model's `fit` raises "Unknown variable" until it is
    # compiled again, as in Keras.
    opt.build(model._trainable_variables)
    group = h5["optimizer_weights"]
    values = [np.asarray(group[n]) for n in _attr_list(group, "weight_names")]
    try:
        opt.set_weights(values)
    except ValueError:
        absl_log.warning("Error in loading the saved optimizer state. As a result, your model is starting with a "
                         "freshly initialized optimizer.")


def _compile_args(training, custom_objects):
    """Keras's `compile_args_from_training_config`: optimizer, losses and metrics from a legacy training config."""
    from tfcompat.keras import losses, metrics, optimizers
    from tfcompat.keras.saving.object_registration import CustomObjectScope

    def nested(fn, config):
        if config is None:
            return None
        if isinstance(config, str) or (isinstance(config, dict) and "class_name" in config):
            return fn(config)
        if isinstance(config, dict):
            return {k: nested(fn, v) for k, v in config.items()}
        if isinstance(config, (list, tuple)):
            return [nested(fn, c) for c in config]
        raise ValueError("Saved configuration not understood. Configuration should be a dictionary, string, tuple "
                         f"or list. Received: config={config}.")

    def metric(config):        # Keras resolves these names at compile time from the output shape
        return config if config in ("accuracy", "acc", "crossentropy", "ce") else metrics.deserialize(config)

    with CustomObjectScope(custom_objects or {}):
        optimizer = optimizers.deserialize(training["optimizer_config"])
        loss = nested(losses.deserialize, training.get("loss"))
        if isinstance(loss, str) and loss not in losses.ALL_OBJECTS_DICT:   # Keras's compat step: a name it
            loss = losses.get(training["loss"]["config"]["name"])         # could not resolve is indexed
        return dict(optimizer=optimizer, loss=loss,
                    metrics=nested(metric, training.get("metrics")),
                    weighted_metrics=nested(metric, training.get("weighted_metrics")),
                    loss_weights=training.get("loss_weights"))


LEGACY_WARNING = ("You are saving your model as an HDF5 file via `model.save()` or `keras.saving.save_model(model)`. "
                  "This file format is considered legacy. We recommend using instead the native Keras format, e.g. "
                  "`model.save('my_model.keras')` or `keras.saving.save_model(model, 'my_model.keras')`. ")


def _legacy_config(model):
    """Keras 3's legacy `model_config`: `{"class_name", "config"}`, layers without module/registered names."""
    from tfcompat.keras.saving.model_config import serialize_model
    config = serialize_model(model)["config"]
    for lc in config.get("layers", []):
        for key in ("module", "registered_name", "build_config"):
            lc.pop(key, None)
    return {"class_name": type(model).__name__, "config": config}


def _training_config(model):
    """Keras 3's legacy `training_config`: the compile arguments and `optimizer_config` (None if not compiled)."""
    from tfcompat.keras.saving.model_config import compile_config
    from tfcompat.keras.saving_utils import serialize_keras_object
    config = compile_config(model)
    if not config or getattr(model, "optimizer", None) is None:
        return None
    config.pop("optimizer", None)
    config["optimizer_config"] = {"class_name": type(model.optimizer).__name__,
                                  "config": serialize_keras_object(model.optimizer.get_config())}
    return config


def _write_subset(group, variables):
    names = [str(v.path).encode("utf8") for v in variables]
    group.attrs["weight_names"] = np.array(names, dtype=object) if names else np.array([], dtype=np.float64)
    for name, v in zip(names, variables):
        group.create_dataset(name, data=np.asarray(v.numpy()))


def write_legacy_model(model, h5, include_optimizer=True):
    """Writes `model` into the open h5py file `h5` in Keras 3's legacy layout."""
    from tfcompat.keras.saving.keras_file import KERAS_VERSION, _json_default
    h5.attrs["keras_version"] = KERAS_VERSION
    h5.attrs["backend"] = "tensorflow"
    h5.attrs["model_config"] = json.dumps(_legacy_config(model), default=_json_default).encode("utf8")
    training = _training_config(model) if include_optimizer else None
    if training is not None:
        h5.attrs["training_config"] = json.dumps(training, default=_json_default).encode("utf8")
    group = h5.create_group("model_weights")
    group.attrs["layer_names"] = np.array([l.name.encode("utf8") for l in model.layers], dtype=object)
    group.attrs["backend"] = b"tensorflow"
    group.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    for layer in sorted(model.layers, key=lambda l: l.name):
        _write_subset(group.create_group(layer.name), _layer_weights(layer))
    _write_subset(group.create_group("top_level_model_weights"),
                  [v for v in model._trainable_variables + model._non_trainable_variables])
    opt = getattr(model, "optimizer", None)
    if include_optimizer and opt is not None and list(opt.variables):
        _write_subset(h5.create_group("optimizer_weights"), list(opt.variables))
