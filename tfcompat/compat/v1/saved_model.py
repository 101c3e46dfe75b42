"""`tf.compat.v1.saved_model`: TF1's graph SavedModel API (`Builder`, `simple_save`, `load(sess, tags, dir)`) is not
supported and raises NotImplementedError; `load_v2` and the other names are `tf.saved_model`'s."""
from tfcompat import saved_model as _saved_model

# TF1 names whose API differs from tf.saved_model's (a GraphDef written or read through a Session)
_TF1_ONLY = {"Builder", "SavedModelBuilder", "simple_save", "load", "loader", "builder", "predict_signature_def",
             "classification_signature_def", "regression_signature_def", "build_signature_def", "build_tensor_info",
             "get_tensor_from_tensor_info", "is_valid_signature", "main_op", "main_op_with_restore",
             "signature_def_utils", "utils", "maybe_saved_model_directory"}


def _constants(name, keys):
    """TF1's constant-only module `tf.compat.v1.saved_model.<name>` (values shared with `tf.saved_model`)."""
    import types
    module = types.ModuleType(f"tensorflow.compat.v1.saved_model.{name}")
    for key in keys:
        setattr(module, key, getattr(_saved_model, key))
    return module


tag_constants = _constants("tag_constants", ("GPU", "SERVING", "TPU", "TRAINING"))
signature_constants = _constants("signature_constants", (
    "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
    "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS",
    "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS"))


def load_v2(export_dir, tags=None, options=None):
    """TF 2's `tf.saved_model.load`."""
    return _saved_model.load(export_dir, tags=tags, options=options)


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    if attr in _TF1_ONLY:
        raise NotImplementedError(f"tf.compat.v1.saved_model.{attr} (TF1's graph SavedModel API) is not supported by "
                                  "tfcompat; tf.saved_model.save/load are")
    try:
        return getattr(_saved_model, attr)
    except AttributeError:
        raise AttributeError(f"module 'tensorflow.compat.v1.saved_model' has no attribute '{attr}'") from None
