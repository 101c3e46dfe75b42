"""`keras.ops` on KerasTensors: a call with a symbolic argument records the Keras op of its name in the graph."""
import functools
import types

from tfcompat.keras.engine.keras_tensor import KerasTensor

# function -> Keras op class where the class is not the function's name in CamelCase
_CLASS_NAMES = {"abs": "Absolute", "allclose": "AllClose", "batch_normalization": "BatchNorm", "cdist": "CDist",
                "ctc_decode": "CTCDecode", "ctc_loss": "CTCLoss",
                "fft": "FFT", "fft2": "FFT2", "hsv_to_rgb": "HSVToRGB", "ifft2": "IFFT2", "irfft": "IRFFT",
                "isin": "IsIn", "istft": "ISTFT", "jvp": "JVP", "layer_normalization": "LayerNorm", "psnr": "PSNR",
                "rfft": "RFFT", "rgb_to_grayscale": "RGBToGrayscale", "rgb_to_hsv": "RGBToHSV",
                "rms_normalization": "RMSNorm", "searchsorted": "SearchSorted", "ssim": "SSIM", "stft": "STFT",
                "svd": "SVD", "swish": "Silu"}
# functions that take no tensor, or read only static facts of one
_PLAIN = {"convert_to_numpy", "zeros", "ones", "eye", "full", "arange", "linspace", "cond", "empty", "identity", "tri",
          "logspace", "geomspace", "bartlett", "blackman", "hamming", "hanning", "kaiser", "is_tensor", "vectorize",
          "custom_gradient"}


def _symbolic(values):
    for a in values:
        t = type(a)
        if t is KerasTensor or ((t is list or t is tuple) and any(type(x) is KerasTensor for x in a)):
            return True
    return False


def _recording(fn, class_name):
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if _symbolic(args) or (kwargs and _symbolic(kwargs.values())):
            from tfcompat.keras.engine.ops_layer import operation
            return operation(class_name, fn)()(*args, **kwargs)
        return fn(*args, **kwargs)
    return op


def _shape(fn):
    @functools.wraps(fn)
    def shape(x):
        """The static shape (a tuple, None for unknown dims) of a KerasTensor; else the tensor's shape."""
        return x.shape if type(x) is KerasTensor else fn(x)
    return shape


def _dtype(fn):
    @functools.wraps(fn)
    def dtype(x):
        """The dtype name of a KerasTensor or a tensor."""
        return x.dtype if type(x) is KerasTensor else fn(x)
    return dtype


def record_symbolic_calls(namespace):
    """Wraps every public function of the `keras.ops` module `namespace` (its globals) so that symbolic
    arguments record an op named as Keras 3 names it (`relu`, `concatenate_1`, ...)."""
    module = namespace["__name__"]
    for name, fn in list(namespace.items()):
        if name.startswith("_") or name in _PLAIN or not isinstance(fn, types.FunctionType) or \
                not fn.__module__.startswith(module):
            continue
        if name == "shape":
            wrapped = _shape(fn)
        elif name == "dtype":
            wrapped = _dtype(fn)
        else:
            wrapped = _recording(fn, _CLASS_NAMES.get(name) or "".join(p.capitalize() for p in name.split("_")))
        wrapped.__name__ = wrapped.__qualname__ = name
        namespace[name] = wrapped
