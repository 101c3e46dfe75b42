"""Keras 3's weights file layout (`.weights.h5`, and `model.weights.h5` inside `.keras`), read and written.

Every saveable (layer, model, optimizer) gets a group `<path>/vars` with a `name` attribute and its own
variables as datasets "0", "1", ...; paths follow Keras: `layers/<snake_case class name>[_n]` for the layers
of a Sequential/Functional model, the attribute name for attributes (`d1`, `optimizer`), container entries by
class name. h5py is imported on use.
"""
import os
import warnings

import numpy as np

from tfcompat.framework.export import unsupported_args
from tfcompat.util import atomic_file

_SKIP = {"_layers", "_stack", "_input_layer", "_nodes", "_inputs_struct", "_outputs_struct", "_output_spec",
         "_inbound_nodes", "_trainable_variables", "_non_trainable_variables", "_losses"}


def path_text(filepath):
    """The text Keras checks a file path's extension on (`str(filepath)`: a file object gives its repr)."""
    return str(os.fspath(filepath)) if isinstance(filepath, (str, bytes, os.PathLike)) else str(filepath)


def check_loadable_path(filepath):
    """Keras's loaders stat their path first: an object that is not a path (a file object) is os.stat's TypeError."""
    if not isinstance(filepath, (str, bytes, os.PathLike)):
        raise TypeError(f"stat: path should be string, bytes, os.PathLike or integer, not {type(filepath).__name__}")


def _is_saveable(obj):
    from tfcompat.keras.layers.base import Layer
    from tfcompat.keras.optimizers.base import Optimizer
    return isinstance(obj, (Layer, Optimizer))


def _name_key(name):
    return f"~{name}" if name.startswith("_") else name


def _snake(cls_name):
    from tfcompat.keras.engine.naming import to_snake_case
    return to_snake_case(cls_name)


def _children(obj):
    """(attribute path, child) pairs in Keras's visiting order."""
    from tfcompat.keras.models import Functional, Model, Sequential
    if isinstance(obj, (Sequential, Functional)):
        yield "layers", obj.layers
    attrs = dict(vars(obj))
    if isinstance(obj, Model) and not isinstance(obj, (Sequential, Functional)):
        attrs["layers"] = obj.layers        # Keras walks dir(): a subclassed Model's `layers` property, in order
    if "optimizer" not in attrs and getattr(type(obj), "optimizer", None) is not None:
        attrs["optimizer"] = getattr(obj, "optimizer", None)
    for name in _subclass_properties(type(obj)):
        if name not in attrs:
            try:
                attrs[name] = getattr(obj, name)
            except Exception:  # noqa: BLE001 -- Keras's dir() walk skips an attribute that fails to read
                continue
    for name in sorted(attrs, key=_name_key):
        if name.startswith("__") or name in _SKIP:
            continue
        yield name, attrs[name]


def _subclass_properties(cls):
    """Public properties `cls` adds to its Keras base class (Keras walks `dir()` less the base's names: e.g.
    MultiHeadAttention's `query_dense`, which places its sublayer's weights)."""
    names = _PROPERTIES.get(cls)
    if names is None:
        from tfcompat.keras.layers.base import Layer
        from tfcompat.keras.models import Functional, Model, Sequential
        from tfcompat.keras.optimizers.base import Optimizer
        bases = [b for b in (Optimizer, Sequential, Functional, Model, Layer) if issubclass(cls, b)]
        skip = set().union(*(dir(b) for b in bases))
        names = _PROPERTIES[cls] = sorted({n for klass in cls.__mro__ for n, v in vars(klass).items()
                                           if isinstance(v, property) and n not in skip and not n.startswith("_")})
    return names


_PROPERTIES = {}       # class -> its added public property names (a pure function of the class)


def _own_variables(obj):
    from tfcompat.keras.optimizers.base import Optimizer
    if isinstance(obj, Optimizer):
        return list(obj.variables)
    return list(obj._trainable_variables) + list(obj._non_trainable_variables)


def _join(path, name):
    return f"{path}/{name}" if path else name


# -- the traversal ----------------------------------------------------------------------------------------
def saveables(model):
    """(path, owner, variables) for `model` and every saveable under it, depth first in Keras 3's order: the
    one walk that defines where writing and reading put each variable (and where assets go)."""
    return _walk(model, "", set())


def _walk(obj, path, visited):
    if id(obj) in visited:
        return
    yield path, obj, _own_variables(obj)
    visited.add(id(obj))
    for name, child in _children(obj):
        yield from _walk_child(child, _join(path, name), visited, set())


def _walk_child(child, path, visited, containers):
    """Saveables under an attribute value: a saveable, or containers named by their items' class names."""
    if _is_saveable(child):
        yield from _walk(child, path, visited)
    elif isinstance(child, (list, tuple, dict)):
        if id(child) in containers:
            return
        containers.add(id(child))
        used = {}
        for item in (child.values() if isinstance(child, dict) else child):
            if _is_saveable(item):
                yield from _walk(item, _join(path, _unique(_snake(type(item).__name__), used)), visited)
            elif isinstance(item, (list, tuple, dict)):
                yield from _walk_child(item, _join(path, _unique("container", used)), visited, containers)


def _unique(name, used):
    if name in used:
        used[name] += 1
        return f"{name}_{used[name]}"
    used[name] = 0
    return name


# -- writing ------------------------------------------------------------------------------------------------
def write_state(model, h5):
    """Writes the variables of `model` and of every saveable under it into the open h5py file `h5`."""
    for path, obj, variables in saveables(model):
        group = h5.create_group(_join(path, "vars"))
        group.attrs["name"] = obj.name
        if _overrides(obj, "save_own_variables"):
            obj.save_own_variables(Store(group))
            continue
        for i, v in enumerate(variables):
            group[str(i)] = np.asarray(v.numpy())


def _overrides(obj, method):
    """Whether `obj`'s class replaces Keras's default `save_own_variables` / `load_own_variables`."""
    from tfcompat.keras.layers.base import Layer
    return isinstance(obj, Layer) and getattr(type(obj), method) is not getattr(Layer, method)


class Store:
    """The dict-like `store` Keras hands to `save_own_variables` / `load_own_variables`: one h5 group of
    arrays (values read back as NumPy arrays)."""

    def __init__(self, group):
        self._group = group

    def __setitem__(self, key, value):
        self._group[key] = np.asarray(value)

    def __getitem__(self, key):
        return np.asarray(self._group[key])

    def __contains__(self, key):
        return key in self._group

    def __len__(self):
        return len(self._group)

    def keys(self):
        return self._group.keys()


# -- reading ------------------------------------------------------------------------------------------------
def _entry(h5, path):
    key = _join(path, "vars")
    return h5[key] if key in h5 else {}


def _load_layer(obj, all_vars, store, pending):
    """Reads and checks `obj`'s saved variables, appending (variable, value) to `pending`."""
    n = len(store.keys())
    from tfcompat.keras.optimizers.base import Optimizer
    if isinstance(obj, Optimizer):
        if n != len(all_vars):
            msg = (f"Skipping variable loading for optimizer '{obj.name}', because it has {len(all_vars)} "
                   f"variables whereas the saved optimizer has {n} variables. ")
            if not all_vars:
                msg += "This is likely because the optimizer has not been called/built yet."
            warnings.warn(msg, stacklevel=4)
            return
    elif n != len(all_vars):
        if not all_vars and not obj.built:
            raise ValueError(
                f"Layer '{obj.name}' was never built and thus it doesn't have any variables. However the weights "
                f"file lists {n} variables for this layer.\nIn most cases, this error indicates that either:\n\n"
                "1. The layer is owned by a parent layer that implements a `build()` method, but calling the "
                f"parent's `build()` method did NOT create the state of the child layer '{obj.name}'. A `build()` "
                "method must create ALL state for the layer, including the state of any children layers.\n\n"
                "2. You need to implement the `def build_from_config(self, config)` method on layer "
                f"'{obj.name}', to specify how to rebuild it during loading. In this case, you might also want to "
                "implement the method that generates the build config at saving time, `def get_build_config(self)`"
                ". The method `build_from_config()` is meant to create the state of the layer (i.e. its variables) "
                "upon deserialization.")
        raise ValueError(f"Layer '{obj.name}' expected {len(all_vars)} variables, but received {n} variables "
                         f"during loading. Expected: {[v.name for v in all_vars]}")
    for i, v in enumerate(all_vars):
        stored = store[str(i)]
        shape = tuple(getattr(stored, "shape", None) or ())     # checked before reading: a file may claim TBs
        if shape != tuple(v.shape):
            raise ValueError("The shape of the target variable and the shape of the target value in "
                             f"`variable.assign(value)` must match. variable.shape={tuple(v.shape)}, Received: "
                             f"value.shape={shape}. Target variable: {v!r}")
        pending.append((v, np.asarray(stored).astype(_np_dtype(v), copy=False)))


def _np_dtype(v):
    from tfcompat.framework import dtypes
    return dtypes.as_dtype(v.dtype).as_numpy_dtype


def read_state(model, h5):
    """Reads and checks the values for `model` and every saveable under it from the open h5py file: returns
    (errors {id: (object, exception)}, pending [(variable, value)])."""
    errors, pending = {}, []
    for path, obj, variables in saveables(model):
        try:
            if _overrides(obj, "load_own_variables"):       # the object's own reader, run with the assignments
                pending.append((obj.load_own_variables, Store(_entry(h5, path))))
                continue
            _load_layer(obj, variables, _entry(h5, path), pending)
        except Exception as e:  # noqa: BLE001 - collected and re-raised as Keras's loading error
            errors[id(obj)] = (obj, e)
    return errors, pending


def raise_loading_failure(errors, warn_only=False):
    """Keras's summary error for objects whose variables could not be loaded."""
    obj, err = next(iter(errors.values()))
    msg = (f"A total of {len(errors)} objects could not be loaded. Example error message for object {obj!r}:\n\n"
           f"{err}\n\nList of objects that could not be loaded:\n{[o for o, _ in errors.values()]}")
    if warn_only:
        warnings.warn(msg, stacklevel=3)
    else:
        raise ValueError(msg)


def load_from_h5(model, h5, skip_mismatch=False, build_optimizer=True):
    """Loads every saveable of `model` from an open Keras 3 weights file.

    Every value is read and checked before any variable changes: a failed load leaves the model as it was
    (Keras 3 assigns the objects before the failing one; tfcompat is all or nothing, as TF's checkpoint
    restore). With `skip_mismatch` the values that fit are assigned and the failures are a warning, as Keras.
    """
    opt = getattr(model, "optimizer", None)
    if build_optimizer and opt is not None and "optimizer" in h5 and not getattr(opt, "built", True) and model.built:
        opt.build(model.trainable_variables)    # load_model (Keras builds it); load_weights leaves it as it is
    errors, pending = read_state(model, h5)
    if errors and not skip_mismatch:
        raise_loading_failure(errors)
    for target, value in pending:
        if isinstance(value, Store):
            target(value)                   # a layer's own `load_own_variables`
        else:
            target.assign(value)
    if errors:
        raise_loading_failure(errors, warn_only=True)


# -- files --------------------------------------------------------------------------------------------------
def ask_to_proceed_with_overwrite(filepath):
    """Keras's interactive overwrite prompt: True to overwrite."""
    answer = input(f"[WARNING] {filepath} already exists - overwrite? [y/n]").strip().lower()
    while answer not in ("y", "n"):
        answer = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
    if answer == "n":
        return False
    print("[TIP] Next time specify overwrite=True!")
    return True


@unsupported_args("max_shard_size", api_name="keras.saving.save_weights")
def save_weights(model, filepath, overwrite=True, max_shard_size=None):
    """`model.save_weights(filepath)`: Keras 3's `.weights.h5` file, written atomically and durably (fsync)."""
    import h5py
    filepath_str = path_text(filepath)
    if not filepath_str.endswith(".weights.h5"):
        raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath_str}")
    if not overwrite and os.path.exists(filepath_str) and not ask_to_proceed_with_overwrite(filepath_str):
        return
    if not model.built:
        raise ValueError("You are saving a model that has not yet been built. Try building the model first by "
                         "calling it on some data or by using `build()`.")

    def write(tmp):
        with h5py.File(tmp, "w") as h5:
            write_state(model, h5)
    atomic_file.atomic_write(filepath_str, write, keep_mode=True)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """`model.load_weights(filepath)` for `.weights.h5`, `.keras` and legacy `.h5` files; returns None."""
    import h5py
    check_loadable_path(filepath)
    filepath_str = str(os.fspath(filepath))
    if kwargs:
        raise ValueError(f"Invalid keyword arguments: {kwargs}")
    if filepath_str.endswith(".keras"):
        from tfcompat.keras.saving.keras_file import load_weights_from_keras
        load_weights_from_keras(model, filepath_str, skip_mismatch)
    elif filepath_str.endswith(".weights.h5"):
        if not model.built:
            raise ValueError("You are loading weights into a model that has not yet been built. Try building the "
                             "model first by calling it on some data or by using `build()`.")
        with h5py.File(filepath_str, "r") as h5:
            load_from_h5(model, h5, skip_mismatch, build_optimizer=False)
    elif filepath_str.endswith((".h5", ".hdf5")):
        from tfcompat.keras.saving.legacy_h5 import load_legacy_weights
        with h5py.File(filepath_str, "r") as h5:
            load_legacy_weights(model, h5["model_weights"] if "model_weights" in h5 else h5, skip_mismatch)
    else:
        raise ValueError(f"File format not supported: filepath={filepath_str}. Keras 3 only supports V3 `.keras` "
                         "files, `.weights.h5` files, legacy H5 format files (`.h5` extension), or Orbax "
                         "checkpoints.")
