"""`keras.applications.imagenet_utils`: ImageNet preprocessing and decoding, and what every application shares
(argument checks, the input, the classifier or pooling head, loading `weights`)."""
import json
import os
import warnings

import numpy as np

from tfcompat.keras._config import config

CLASS_INDEX_PATH = "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
_CLASS_INDEX = []                       # the class index, read once from the Keras cache
_CAFFE_MEAN = (103.939, 116.779, 123.68)                          # BGR
_TORCH_MEAN, _TORCH_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


def preprocess_input(x, data_format=None, mode="caffe"):
    """Scales a batch of RGB images in [0, 255]: "caffe" (BGR, ImageNet means subtracted), "tf" (to [-1, 1]) or
    "torch" (to [0, 1], then ImageNet mean and std per channel). NumPy float arrays are changed in place."""
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode}")
    if data_format is None:
        data_format = config.image_data_format
    elif data_format not in ("channels_first", "channels_last"):
        raise ValueError("Expected data_format to be one of `channels_first` or `channels_last`. Received: "
                         f"data_format={data_format}")
    if isinstance(x, np.ndarray):
        return _preprocess_array(x, data_format, mode)
    return _preprocess_tensor(x, data_format, mode)


def _channel_shape(ndim, data_format):
    if data_format == "channels_last":
        return (3,)
    return (3, 1, 1)


def _preprocess_array(x, data_format, mode):
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(config.floatx, copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    axis = -1 if data_format == "channels_last" else (0 if x.ndim == 3 else 1)
    if mode == "caffe":
        x = np.flip(x, axis=axis)
        mean, std = _CAFFE_MEAN, None
    else:
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    shape = _channel_shape(x.ndim, data_format)
    x -= np.reshape(np.asarray(mean, x.dtype), shape)
    if std is not None:
        x /= np.reshape(np.asarray(std, x.dtype), shape)
    return x


def _preprocess_tensor(x, data_format, mode):
    from tfcompat.keras import ops
    if mode == "tf":
        return x / 127.5 - 1.0
    axis = -1 if data_format == "channels_last" else (0 if len(x.shape) == 3 else 1)
    if mode == "caffe":
        x = ops.flip(x, axis=axis)
        mean, std = _CAFFE_MEAN, None
    else:
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    shape = _channel_shape(len(x.shape), data_format)
    x = x + ops.reshape(ops.convert_to_tensor(-np.asarray(mean), dtype=x.dtype), shape)
    if std is not None:
        x = x / ops.reshape(ops.convert_to_tensor(np.asarray(std), dtype=x.dtype), shape)
    return x


def decode_predictions(preds, top=5):
    """The `top` ImageNet classes of each row of `preds` (shape (samples, 1000)) as `(wnid, name, score)` tuples,
    best first; the class index comes from the Keras cache (downloaded once, as Keras does)."""
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape (samples, "
                         f"1000)). Received array with shape: {preds.shape}")
    if not _CLASS_INDEX:
        from tfcompat.keras.utils import get_file
        path = get_file("imagenet_class_index.json", CLASS_INDEX_PATH, cache_subdir="models",
                        file_hash="c2c37ea517e94d9795004a39431a14cb")
        with open(path) as f:
            _CLASS_INDEX.append(json.load(f))
    index = _CLASS_INDEX[0]
    preds = np.asarray(preds.numpy() if hasattr(preds, "numpy") else preds)
    results = []
    for row in preds:
        best = row.argsort()[-top:][::-1]
        results.append(sorted((tuple(index[str(i)]) + (row[i],) for i in best), key=lambda t: t[2], reverse=True))
    return results


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten, weights=None):
    """The model's input shape (without batch) from the user's `input_shape`, checked as Keras checks it."""
    first = data_format == "channels_first"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if first else input_shape[-1]
        if channels not in (1, 3):
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was passed an input_shape "
                          f"with {channels} input channels.", stacklevel=3)
        default_shape = (channels, default_size, default_size) if first else (default_size, default_size, channels)
    else:
        default_shape = (3, default_size, default_size) if first else (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and input_shape != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, `input_shape` should "
                             f"be {default_shape}.  Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        channels, rows, cols = (input_shape if first else (input_shape[2], input_shape[0], input_shape[1]))
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
        if (rows is not None and rows < min_size) or (cols is not None and cols < min_size):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: "
                             f"input_shape={input_shape}")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if first else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. Received: "
                         f"input_shape={input_shape}")
    return input_shape


def correct_pad(inputs, kernel_size):
    """The ((top, bottom), (left, right)) zero padding that makes a strided `kernel_size` conv 'same'-like."""
    start = 2 if config.image_data_format == "channels_first" else 1
    size = inputs.shape[start:start + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation, weights):
    """Pretrained classifiers allow only `softmax` or no activation."""
    if weights is None:
        return
    from tfcompat.keras import activations
    activation = activations.get(classifier_activation)
    if activation not in (activations.get("softmax"), activations.get(None)):
        raise ValueError("Only `None` and `softmax` activations are allowed for the `classifier_activation` argument "
                         "when using pretrained weights, with `include_top=True`; Received: "
                         f"classifier_activation={activation}")


# -- what the application constructors share ------------------------------------------------------------------
def check_weights(weights, include_top, classes, show_received=True):
    """Keras's checks of `weights` (None, "imagenet" or an existing file) and of `classes` with ImageNet weights
    (Xception's message does not repeat the value received)."""
    if not (weights in ("imagenet", None) or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), 'imagenet' "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded." +
                         (f"  Received: weights={weights}" if show_received else ""))
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights='imagenet'` with `include_top=True`, `classes` should be 1000.  "
                         f"Received classes={classes}")


def check_weights_as(weights, include_top, classes, weights_tail, classes_text):
    """The same checks in the words of Keras's other applications: the sentence they share ending in `weights_tail`,
    and `classes_text` (both `str.format` templates of `weights` / `classes`), as each module words them."""
    if not (weights in ("imagenet", None) or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded" +
                         weights_tail.format(weights=weights))
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(classes_text.format(classes=classes))


def image_input(input_tensor, input_shape):
    """The model's image input: a new `Input`, or the given KerasTensor."""
    from tfcompat.keras.engine.keras_tensor import is_keras_tensor
    from tfcompat.keras.layers import Input
    if input_tensor is None:
        return Input(shape=input_shape)
    if not is_keras_tensor(input_tensor):
        raise NotImplementedError("keras.applications with an `input_tensor` that is not a KerasTensor is not "
                                  "supported by tfcompat (pass `keras.Input(...)` or its outputs)")
    return input_tensor


def classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights, top_pool_name=None,
                          pool_names=(None, None)):
    """Keras's head: global average pooling and a `predictions` Dense layer, or the optional `pooling`."""
    from tfcompat.keras import layers
    if include_top:
        x = layers.GlobalAveragePooling2D(name=top_pool_name)(x)
        validate_activation(classifier_activation, weights)
        return layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=pool_names[0])(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=pool_names[1])(x)
    return x


def build_model(img_input, input_tensor, outputs, name, weights, imagenet_file=None):
    """The Functional model from its input (the source `Input` of `input_tensor`) to `outputs`, with `weights`
    loaded: a file path, or "imagenet" (Keras's `.h5` file from the Keras cache, downloaded when missing)."""
    from tfcompat.keras.models import Functional
    inputs = img_input if input_tensor is None else _source_input(input_tensor)
    model = Functional(inputs, outputs, name=name)
    if weights == "imagenet":
        fname, origin, file_hash = imagenet_file
        model.load_weights(_cached_weights(fname, origin, file_hash))
    elif weights is not None:
        model.load_weights(weights)
    return model


def _source_input(tensor):
    """The `Input` a KerasTensor comes from (following first inputs back, as `get_source_inputs` does)."""
    while tensor._history is not None and tensor._history[0].input_tensors:
        tensor = tensor._history[0].input_tensors[0]
    return tensor


def _cached_weights(fname, origin, file_hash):
    from tfcompat.keras.datasets._download import DownloadError
    from tfcompat.keras.utils import get_file
    try:
        return get_file(fname, origin, cache_subdir="models", file_hash=file_hash)
    except DownloadError as e:
        raise DownloadError(f"{e} Or pass `weights=` the path of a local copy of {fname}.") from None
