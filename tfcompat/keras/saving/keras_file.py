"""The `.keras` zip (`metadata.json`, `config.json`, `model.weights.h5`) as Keras 3 writes and reads it."""
import datetime
import io
import json
import os
import warnings
import zipfile
import zlib

import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.export import partial_api
from tfcompat.keras.saving import weights as weights_io
from tfcompat.util import atomic_file

KERAS_VERSION = "3.15.1"
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.h5"


def _json_default(obj):
    import numpy as np
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def model_to_json_dict(model):
    from tfcompat.keras.saving.model_config import serialize_model
    return serialize_model(model)


def write_keras_zip(model, fileobj):
    """Writes the three members in Keras's order, uncompressed (as Keras 3)."""
    import h5py
    config_json = json.dumps(model_to_json_dict(model), default=_json_default)
    metadata_json = json.dumps({"keras_version": KERAS_VERSION,
                                "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")})
    buf = io.BytesIO()
    with h5py.File(buf, "w") as h5:
        weights_io.write_state(model, h5)
    with zipfile.ZipFile(fileobj, "w") as zf:
        with zf.open(_METADATA, "w") as f:
            f.write(metadata_json.encode())
        with zf.open(_CONFIG, "w") as f:
            f.write(config_json.encode())
        zf.writestr(_WEIGHTS, buf.getvalue())
        _write_assets(model, zf)


def _asset_objects(model):
    """(path, object) for every saveable under `model` with assets (`save_assets`), at its weights' path."""
    return ((path, obj) for path, obj, _ in weights_io.saveables(model) if hasattr(obj, "save_assets"))


def _write_assets(model, zf):
    """Layers' assets (lookup vocabularies) under `assets/<path>/` in the zip, as Keras 3 stores them."""
    import tempfile
    for path, obj in _asset_objects(model):
        with tempfile.TemporaryDirectory() as tmp:
            obj.save_assets(tmp)
            for fname in sorted(os.listdir(tmp)):
                zf.write(os.path.join(tmp, fname), f"assets/{path}/{fname}")


def _read_assets(model, archive):
    import tempfile
    names = set(archive.namelist())
    for path, obj in _asset_objects(model):
        prefix = f"assets/{path}/"
        members = [n for n in names if n.startswith(prefix) and "/" not in n[len(prefix):]]   # its own files
        if not members:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            for n in members:
                with open(os.path.join(tmp, n[len(prefix):]), "wb") as f:
                    _stream_member(archive, n, f, _ASSET_LIMIT, "a layer asset may have")
            obj.load_assets(tmp)


@partial_api("zipped=False (an unzipped model directory) is not supported")
def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """`model.save("x.keras")` / `keras.saving.save_model`: the `.keras` zip (or a legacy `.h5` file), written
    atomically and durably. `include_optimizer` applies to `.h5` only (Keras 3 ignores it for `.keras`)."""
    include_optimizer = kwargs.pop("include_optimizer", True)
    _check_save_format(filepath, kwargs.pop("save_format", False))
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs.keys())}")
    filepath_str = weights_io.path_text(filepath)
    if zipped is False:
        if filepath_str.endswith(".keras"):
            raise ValueError("When using `zipped=False`, the `filepath` argument should not end in `.keras`. "
                             f"Received: filepath={filepath_str}")
        raise NotImplementedError("keras.saving.save_model(zipped=False) is not supported by tfcompat")
    if filepath_str.endswith((".h5", ".hdf5")):
        _save_legacy_h5(model, filepath_str, overwrite, include_optimizer)
        return
    if not filepath_str.endswith(".keras"):
        raise ValueError("Invalid filepath extension for saving. Please add either a `.keras` extension for the "
                         "native Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if "
                         f"you want to export a SavedModel for use with TFLite/TFServing/etc. Received: "
                         f"filepath={filepath_str}.")
    if not overwrite and os.path.exists(filepath_str) and \
            not weights_io.ask_to_proceed_with_overwrite(filepath_str):
        return
    if not model.built:
        warnings.warn("You are saving a model that has not yet been built. It might not contain any weights yet. "
                      "Consider building the model first by calling it on some data.", stacklevel=2)

    def write(tmp):
        with open(tmp, "wb") as f:
            write_keras_zip(model, f)
    atomic_file.atomic_write(filepath_str, write, keep_mode=True)


def _check_save_format(filepath, save_format):
    """Keras 3's handling of the removed `save_format`: a warning when the path's extension says the format, else
    ValueError."""
    if not save_format:
        return
    if str(filepath).endswith((".h5", ".hdf5", ".keras")):
        from tfcompat.util import absl_log
        absl_log.warning("The `save_format` argument is deprecated in Keras 3. We recommend removing this argument as "
                         f"it can be inferred from the file path. Received: save_format={save_format}")
        return
    raise ValueError("The `save_format` argument is deprecated in Keras 3. Please remove this argument and pass a file "
                     f"path with either `.keras` or `.h5` extension.Received: save_format={save_format}")


def _save_legacy_h5(model, filepath, overwrite, include_optimizer):
    """`model.save("x.h5")`: Keras 3's legacy HDF5 file (with its warning, logged through absl's logger as
    Keras does), written atomically."""
    import h5py

    from tfcompat.keras.saving.legacy_h5 import LEGACY_WARNING, write_legacy_model
    from tfcompat.util import absl_log
    absl_log.warning(LEGACY_WARNING)
    if not overwrite and os.path.isfile(filepath) and not weights_io.ask_to_proceed_with_overwrite(filepath):
        return

    def write(tmp):
        with h5py.File(tmp, "w") as h5:
            write_legacy_model(model, h5, include_optimizer)
    atomic_file.atomic_write(filepath, write, keep_mode=True)


_CONFIG_LIMIT = 64 << 20          # bytes: Keras configs are kilobytes; a bigger one is not a model config
_WEIGHTS_SLACK = 16 << 20         # h5 metadata beyond the values themselves
_PER_VARIABLE = 64 << 10
_ASSET_LIMIT = 256 << 20
_CHUNK = 1 << 20


def _too_big(archive, name, size, limit, why):
    where = getattr(archive, "filename", None) or "<file object>"
    return ValueError(f"Refusing to load {where}: its member '{name}' holds {size} bytes uncompressed, more than "
                      f"the {limit} bytes {why} (a corrupt or malicious file?)")


def _stream_member(archive, name, out, limit, why):
    """Copies member `name` into the writable `out` in chunks, refusing it (before reading, from its declared
    size, and again while streaming, as headers can lie) when it holds more than `limit` bytes."""
    size = archive.getinfo(name).file_size
    if size > limit:
        raise _too_big(archive, name, size, limit, why)
    total = 0
    try:
        with archive.open(name, "r") as f:
            while chunk := f.read(_CHUNK):
                total += len(chunk)
                if total > limit:
                    raise _too_big(archive, name, total, limit, why)
                out.write(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as e:
        where = getattr(archive, "filename", None) or "<file object>"
        raise ValueError(f"Cannot load {where}: its member '{name}' is corrupt ({e})") from None


def _read_member(archive, name, limit, why):
    buf = io.BytesIO()
    _stream_member(archive, name, buf, limit, why)
    return buf.getvalue()


def _read_config(archive):
    data = _read_member(archive, _CONFIG, _CONFIG_LIMIT, "a model config may have")
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"Cannot load {getattr(archive, 'filename', None) or '<file object>'}: its member "
                         f"'{_CONFIG}' is not valid JSON ({e})") from None


def _weights_limit(model):
    """The most bytes a weights file for `model` may hold: its values (and optimizer slots) plus metadata."""
    variables = list(model.weights)
    opt = getattr(model, "optimizer", None)
    n = sum(int(np.prod(v.shape)) * np.dtype(dtypes.as_dtype(v.dtype).as_numpy_dtype).itemsize for v in variables)
    slots = 4 if opt is not None else 1
    return slots * n + _WEIGHTS_SLACK + _PER_VARIABLE * slots * len(variables)


def _open_weights(archive, model):
    import h5py
    buf = io.BytesIO()
    _stream_member(archive, _WEIGHTS, buf, _weights_limit(model), "the model's weight shapes declare")
    buf.seek(0)
    return h5py.File(buf, "r")


@partial_api("an unzipped model directory (saved with zipped=False) is not supported")
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """`keras.saving.load_model` for `.keras` zips and legacy `.h5` files; never runs code from the file
    unless `safe_mode=False`."""
    weights_io.check_loadable_path(filepath)     # a file object: Keras's TypeError, as it stats the path
    filepath = os.fspath(filepath)              # Keras's order: a .keras zip, a model directory, .h5, else
    if os.path.isdir(filepath) and os.path.exists(os.path.join(filepath, "config.json")):
        raise NotImplementedError("keras.saving.load_model of a model directory (saved with zipped=False)")
    if not (str(filepath).endswith(".keras") and zipfile.is_zipfile(filepath)):
        return _load_other(filepath, custom_objects, compile, safe_mode)
    with zipfile.ZipFile(filepath, "r") as archive:
        config = _read_config(archive)
        if not compile:
            config["compile_config"] = None
        from tfcompat.keras.saving_utils import deserialize_keras_object
        model = deserialize_keras_object(config, custom_objects=custom_objects, safe_mode=safe_mode)
        if _WEIGHTS not in archive.namelist():
            raise ValueError(f"Expected a {_WEIGHTS} or model.weights.npz file.")
        with _open_weights(archive, model) as h5:
            weights_io.load_from_h5(model, h5)
        _read_assets(model, archive)
    return model


def _load_other(filepath, custom_objects, compile, safe_mode):
    """`load_model` of a path that is not a `.keras` zip: a legacy `.h5` file, else Keras's ValueError."""
    if str(filepath).endswith((".h5", ".hdf5")):
        from tfcompat.keras.saving.legacy_h5 import load_legacy_model
        return load_legacy_model(filepath, custom_objects, compile, safe_mode)
    if str(filepath).endswith(".keras"):
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an accessible `.keras` zip "
                         "file.")
    raise ValueError(f"File format not supported: filepath={filepath}. Keras 3 only supports V3 `.keras` files, legacy "
                     "H5 format files (`.h5` extension). Note that the legacy SavedModel format is not supported by "
                     "`load_model()` in Keras 3. In order to reload a TensorFlow SavedModel as an inference-only layer "
                     f"in Keras 3, use `keras.layers.TFSMLayer({filepath}, call_endpoint='serving_default')` (note "
                     "that your `call_endpoint` might have a different name).")


def load_weights_from_keras(model, filepath, skip_mismatch=False):
    """`model.load_weights("x.keras")`: the weights member of a `.keras` zip."""
    if not model.built:
        raise ValueError("You are loading weights into a model that has not yet been built. Try building the "
                         "model first by calling it on some data or by using `build()`.")
    with zipfile.ZipFile(filepath, "r") as archive:
        with _open_weights(archive, model) as h5:
            weights_io.load_from_h5(model, h5, skip_mismatch, build_optimizer=False)
