"""`keras.utils` basics: to_categorical, normalize, pad_sequences, seeds, serialization registry, get_file."""
import random as _random
import sys

import numpy as np

from tfcompat.framework.tensor import Tensor

from tfcompat.keras.saving.object_registration import (  # noqa: F401
    get_custom_objects, get_registered_name, get_registered_object, register_keras_serializable)


def to_categorical(x, num_classes=None):
    """One-hot encodes class ids: float64 NumPy for array-likes, a float32 tensor for tensors."""
    if isinstance(x, Tensor):
        from tfcompat.keras import ops
        if x.shape.rank and x.shape.rank > 1 and x.shape[-1] == 1:
            x = ops.squeeze(x, -1)
        return ops.one_hot(x, num_classes if num_classes is not None else int(ops.max(x)) + 1)
    x = np.array(x, dtype="int64")
    shape = x.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    x = x.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(x)) + 1
    out = np.zeros((x.shape[0], num_classes))
    out[np.arange(x.shape[0]), x] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """`x` divided by its `order`-norm along `axis` (zero vectors stay zero)."""
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis or -1)
    from tfcompat.keras import ops
    x = ops.convert_to_tensor(x)
    norm = ops.norm(x, ord=None if order == 2 else order, axis=axis, keepdims=True)
    return ops.divide(x, ops.maximum(norm, 1e-12))


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """Pads/truncates a list of sequences to a `(len(sequences), maxlen)` NumPy array."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], ()
    for s in sequences:
        try:
            lengths.append(len(s))
        except TypeError as e:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {s}") from e
        if len(s) and not sample_shape:
            sample_shape = np.asarray(s).shape[1:]
    if maxlen is None:
        maxlen = max(lengths) if lengths else 0
    is_str = np.issubdtype(dtype, np.str_) or np.issubdtype(dtype, np.object_)
    if isinstance(value, str) and dtype is not object and not is_str:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\n"
                         "You should set `dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:] if maxlen else []
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if padding == "post":
            out[i, :len(trunc)] = trunc
        elif padding == "pre":
            out[i, maxlen - len(trunc):] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out


def set_random_seed(seed):
    """Seeds Python's `random`, NumPy and TF (`tf.random.set_seed`) at once."""
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    _random.seed(seed)
    np.random.seed(seed)
    from tfcompat.ops import random_ops
    random_ops.set_seed(seed)
    from tfcompat.keras import random as krandom
    krandom._reset_global()             # Keras drops its global SeedGenerator


def serialize_keras_object(obj):
    """Keras 3's config dict of `obj` (`{"module", "class_name", "config", "registered_name"}`)."""
    from tfcompat.keras.saving_utils import serialize_keras_object as ser
    return ser(obj)


def deserialize_keras_object(config, custom_objects=None, **kwargs):
    """Rebuilds an object from its Keras 3 config dict."""
    from tfcompat.keras.saving_utils import deserialize_keras_object as de
    return de(config, custom_objects=custom_objects, **kwargs)


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None, force_download=False):
    """Downloads `origin` into `$KERAS_HOME/<cache_subdir>/fname` (unless cached and valid); returns the path."""
    from tfcompat.keras.datasets._download import get_file as impl
    return impl(fname, origin, file_hash=file_hash or md5_hash, cache_subdir=cache_subdir, cache_dir=cache_dir,
                extract=extract or untar, force_download=force_download)


_NOT_BUILT = ("This model has not yet been built. Build the model first by calling `build()` or by calling the model "
              "on a batch of data.")


def _pydot_missing():
    try:
        import pydot  # noqa: F401
    except ImportError:
        return True
    return False


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False, show_layer_names=False, rankdir="TB",
               expand_nested=False, dpi=200, show_layer_activations=False, show_trainable=False, splines="ortho",
               **kwargs):
    """Keras draws the model with pydot and graphviz. Without pydot (tfcompat's dependencies do not include it)
    Keras's ImportError, printed instead under IPython as Keras does; with pydot, NotImplementedError."""
    if not model.built:
        raise ValueError(_NOT_BUILT)
    if _pydot_missing():
        message = "You must install pydot (`pip install pydot`) for `plot_model` to work."
        if "IPython.core.magics.namespace" in sys.modules:
            from tfcompat.keras.utils_progbar import print_msg
            print_msg(message)
            return None
        raise ImportError(message)
    raise NotImplementedError("keras.utils.plot_model is not supported by tfcompat (it draws no pydot graphs)")


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True, rankdir="TB", expand_nested=False,
                 dpi=200, subgraph=False, show_layer_activations=False, show_trainable=False, splines="ortho",
                 **kwargs):
    """Keras's pydot graph of the model: without pydot Keras's ImportError; with pydot, NotImplementedError."""
    if not model.built:
        raise ValueError(_NOT_BUILT)
    if _pydot_missing():
        raise ImportError("You must install pydot (`pip install pydot`) for model_to_dot to work.")
    raise NotImplementedError("keras.utils.model_to_dot is not supported by tfcompat (it builds no pydot graphs)")


from tfcompat.keras.backend import clear_session, is_keras_tensor, standardize_dtype  # noqa: F401,E402
from tfcompat.keras.config import (  # noqa: F401,E402
    disable_interactive_logging, enable_interactive_logging, is_interactive_logging_enabled)
from tfcompat.keras.engine.data_adapter import unpack_x_y_sample_weight  # noqa: F401,E402
from tfcompat.keras.image_utils import array_to_img, img_to_array, load_img, save_img  # noqa: F401,E402
from tfcompat.keras.saving.object_registration import CustomObjectScope  # noqa: F401,E402
from tfcompat.keras.utils_progbar import Progbar  # noqa: F401,E402
from tfcompat.keras.utils_audio import audio_dataset_from_directory  # noqa: F401,E402
from tfcompat.keras.utils_split import split_dataset  # noqa: F401,E402
from tfcompat.keras.utils_data import (  # noqa: F401,E402
    PyDataset, Sequence, image_dataset_from_directory, text_dataset_from_directory, timeseries_dataset_from_array)

custom_object_scope = CustomObjectScope


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """Keras's packing: `x` alone, `(x, y)` or `(x, y, sample_weight)` (a lone tuple `x` is wrapped as `(x,)`)."""
    if y is None:
        return x if not isinstance(x, tuple) else (x,)
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def get_source_inputs(tensor):
    """The input KerasTensors `tensor` is computed from (a list, each once, in first-reached order); a KerasTensor
    made by no layer call as `[tensor]`, anything without Keras history as it is."""
    if not hasattr(tensor, "_keras_history"):
        return tensor
    operation, node_index, _ = tensor._keras_history
    nodes = operation.__dict__.get("_inbound_nodes") if operation else None
    if not nodes:
        return [tensor]
    node = nodes[node_index]
    if not node.input_tensors:       # an Input's node
        from tfcompat.keras import tree
        return tree.flatten(node.outputs)
    sources = []
    for x in node.input_tensors:
        for source in get_source_inputs(x):
            if all(source is not s for s in sources):
                sources.append(source)
    return sources
