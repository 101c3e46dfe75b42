"""`tf.saved_model.save` / `tf.saved_model.load` for tfcompat objects, in tfcompat's own pickle-free format.

A tfcompat SavedModel directory holds:
- `tfcompat_saved_model.json`: the marker (`"format": "tfcompat.saved_model"`, version 3), the object tree (attribute
  paths of modules and variables; `containers` says which nodes are lists and which are dicts, with their keys in
  order: they load as TF's `ListWrapper` / `_DictWrapper`), the variables (checkpoint key, name, trainable), and each
  `tf.function` attribute (a function with an `input_signature` is traced when saved, as TF does) as
  its traced concrete functions. A concrete function is its input signature (TensorSpecs and Python literals),
  its output structure and one recorded program per traced input shape: the straight-line list of aten ops
  (`{"op": "call", "f": <index into "ops">, "args": [...], "kwargs": {...}, "out": "o<n>"}`, terms being
  `{"ref": "I[i]"|"r<var>"|"o<n>"|"o<n>[k]"|"C[i]"}`, `{"list"|"tuple": [...]}` or JSON literals), value guards,
  `tf.custom_gradient` calls (`{"op": "custom", ...}` with their gradient program over upstream gradients `D[i]`),
  the op names (`aten::add.Tensor`), its outputs and variable writes (see `tfcompat.eager.function`).
- `constants.npz`: tensor constants of the programs (loaded with `allow_pickle=False`).
- `variables/variables.{index,data-00000-of-00001}`: a TF-format checkpoint of `tf.train.Checkpoint(root=obj)`.
- `signatures`: name -> concrete function, output keys and (version 3) the flat input names and output TensorSpecs
  as TF names them (`inputs`, `inputs_1`, ...; dict keys or `output_<i>`). A Keras model saved without signatures
  gets Keras 3's `serving_default` (`_keras`); `keras.export.ExportArchive` saves its endpoints as functions.
- `aliases` (version 3): [path, target path] for an object reached by a second attribute path (it loads as one object).
- `keras` (version 3, or null): the config of a Keras model made only of Keras's own classes that saved functions
  just call (Keras's default signature, `Model.export`'s endpoint), its variables and those functions: a load
  rebuilds it (`_keras_rebuild`, `safe_mode=True`) and runs it for input shapes no program was traced for.

`load` first validates all of it (`_load`, `_validate`: ops only from the fixed table `_op_table`, arguments checked
against each op's schema, references, dtypes, shapes, a shape-only run bounding allocations); `save` writes a sibling
directory and swaps it in atomically (`_atomic_dir`). `load` rebuilds a trackable (TF's `_UserObject`, not a `tf.Module`) with the same
attribute tree, its variables and callable functions (programs are
replayed; no Python body is stored, so a call must match a traced signature and shape, but for a rebuilt Keras model). SavedModels written by
TensorFlow (`saved_model.pb`) are not supported yet.
"""
import os

from tfcompat.framework.export import tf_export
from tfcompat.saved_model._options import LoadOptions, SaveOptions  # noqa: F401
from tfcompat.saved_model import experimental  # noqa: F401

MARKER = "tfcompat_saved_model.json"
FORMAT = "tfcompat.saved_model"

# TF's SavedModel constants (tag, signature and file names)
_CONSTANTS = {
    "ASSETS_DIRECTORY": "assets", "ASSETS_KEY": "saved_model_assets", "CLASSIFY_INPUTS": "inputs",
    "CLASSIFY_METHOD_NAME": "tensorflow/serving/classify", "CLASSIFY_OUTPUT_CLASSES": "classes",
    "CLASSIFY_OUTPUT_SCORES": "scores", "DEBUG_DIRECTORY": "debug", "DEBUG_INFO_FILENAME_PB": "saved_model_debug_info.pb",
    "DEFAULT_SERVING_SIGNATURE_DEF_KEY": "serving_default", "GPU": "gpu", "PREDICT_INPUTS": "inputs",
    "PREDICT_METHOD_NAME": "tensorflow/serving/predict", "PREDICT_OUTPUTS": "outputs", "REGRESS_INPUTS": "inputs",
    "REGRESS_METHOD_NAME": "tensorflow/serving/regress", "REGRESS_OUTPUTS": "outputs",
    "SAVED_MODEL_FILENAME_PB": "saved_model.pb", "SAVED_MODEL_FILENAME_PBTXT": "saved_model.pbtxt",
    "SAVED_MODEL_SCHEMA_VERSION": 1, "SERVING": "serve", "TPU": "tpu", "TRAINING": "train",
    "VARIABLES_DIRECTORY": "variables", "VARIABLES_FILENAME": "variables"}
globals().update(_CONSTANTS)


@tf_export("saved_model.save")
def save(obj, export_dir, signatures=None, options=None):
    """Writes `obj`'s variables and traced tf.functions to `export_dir` (format: see module doc); `options` is a
    `tf.saved_model.SaveOptions` (its options that tfcompat lacks raise when set)."""
    if options is not None:
        options.namespace_whitelist          # noqa: B018 - TF's AttributeError for an object of another type
    from tfcompat.saved_model import _save
    _save.save(obj, export_dir, signatures)


@tf_export("saved_model.load")
def load(export_dir, tags=None, options=None):
    """Loads a SavedModel written by `tf.saved_model.save` of tfcompat (its one MetaGraph's tags: `serve`);
    `options` is a `tf.saved_model.LoadOptions`."""
    if options is not None:
        options.experimental_io_device       # noqa: B018 - TF's AttributeError for an object of another type
    export_dir = os.fspath(export_dir)
    if not os.path.exists(export_dir):
        from tfcompat.saved_model import _atomic_dir
        _atomic_dir.recover(os.path.abspath(export_dir))
    if not os.path.exists(os.path.join(export_dir, MARKER)):
        if os.path.exists(os.path.join(export_dir, "saved_model.pb")):
            raise NotImplementedError(f"tf.saved_model.load({export_dir!r}): loading SavedModels written by "
                                      "TensorFlow is not supported by tfcompat yet")
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}{{saved_model.pbtxt|saved_model.pb}}")
    _check_tags(tags, export_dir)
    from tfcompat.saved_model import _load
    return _load.load(export_dir)


def _check_tags(tags, export_dir):
    """TF's check of `load(tags=...)` against the MetaGraph `save` writes (tagged `serve`)."""
    if tags is None:
        return
    if not isinstance(tags, set):
        tags = [tags] if isinstance(tags, (str, bytes)) else list(tags)
    if set(tags) != {"serve"}:
        raise ValueError(f"Got an incompatible argument to `tags`: {tags}. The SavedModel at {export_dir} has one "
                         "MetaGraph with tags ['serve']. You may omit the argument, pass 'None', or pass matching tags.")


@tf_export("saved_model.contains_saved_model")
def contains_saved_model(export_dir):
    """Whether `export_dir` holds a SavedModel (tfcompat's or TensorFlow's)."""
    export_dir = os.fspath(export_dir)
    return any(os.path.exists(os.path.join(export_dir, f)) for f in (MARKER, "saved_model.pb"))



def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("saved_model", attr)
