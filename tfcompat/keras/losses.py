"""`tf.keras.losses` (Keras 3): loss classes, loss functions and Keras's reductions, computed with torch.

Probabilities are clipped to `[1e-7, 1 - 1e-7]` when not `from_logits` (Keras's `epsilon()`), and
outputs of Keras's `softmax`/`sigmoid` are scored from their logits, as Keras 3 on TF does.
"""
import inspect
import warnings

import torch
import torch.nn.functional as F

from tfcompat.framework import errors
from tfcompat.framework.op_def import check_broadcast, input_storage, wrap
from tfcompat.framework.tensor import Tensor
from tfcompat.keras.activations import keras_logits
from tfcompat.keras.saving_utils import lookup_functions
from tfcompat.ops.nn_loss_ops import softmax_xent, sparse_xent_rows

EPSILON = 1e-7
_REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


def _auto_name(class_name):
    from tfcompat.keras.optimizers.base import auto_name
    return auto_name(class_name)


def _float(x, dtype=torch.float32):
    t = input_storage(x)
    return t if t.dtype == dtype else t.to(dtype)


def _pred(y_pred):
    t = input_storage(y_pred)
    return t if t.is_floating_point() else t.to(torch.float32)


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Keras's rank matching of two storages that differ by a trailing dimension of 1."""
    r1, r2 = x1.ndim, x2.ndim
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = x2.unsqueeze(-1)
        else:
            x1 = x1.squeeze(-1)
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = x1.unsqueeze(-1)
        else:
            x2 = x2.squeeze(-1)
    return x1, x2


def standardize_reduction(reduction):
    if reduction not in _REDUCTIONS:
        allowed = {"sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight"}
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of {allowed}. Received: "
                         f"reduction={reduction}")
    return reduction


def _apply_mask(sample_weight, mask, dtype, reduction):
    if mask is None:
        return sample_weight
    if reduction in ("mean", "sum_over_batch_size"):       # valid entries weigh total / valid (Keras's epsilon)
        valid = mask.to(dtype).sum()
        float_mask = mask.to(dtype) * (mask.numel() / (valid + EPSILON))
    else:
        float_mask = mask.to(dtype)
    if sample_weight is None:
        return float_mask
    float_mask, sample_weight = squeeze_or_expand_to_same_rank(float_mask, sample_weight.to(dtype))
    return sample_weight * float_mask


def reduce_weighted_values(values, sample_weight=None, mask=None, reduction="sum_over_batch_size"):
    """Keras's weighting and reduction of per-sample loss values (storages)."""
    if sample_weight is not None:
        sample_weight = _float(sample_weight, values.dtype)
    sample_weight = _apply_mask(sample_weight, mask, values.dtype, reduction)
    if sample_weight is not None:
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        if values.shape != sample_weight.shape:     # weights that do not broadcast: TF's Mul error
            check_broadcast("Mul", values, sample_weight)
        values = values * sample_weight
    if reduction is None or reduction == "none" or values.ndim == 0 or tuple(values.shape) == (0,):
        return values
    loss = values.sum()
    if reduction in ("sum_over_batch_size", "mean", "mean_with_sample_weight"):
        if reduction == "mean_with_sample_weight" and sample_weight is not None:
            divisor = sample_weight.sum().to(loss.dtype)
        else:
            divisor = values.numel()
        if isinstance(divisor, int):
            loss = loss / divisor if divisor else torch.zeros_like(loss)
        else:
            loss = torch.where(divisor == 0, torch.zeros_like(loss), loss / divisor)
    return loss


class Loss:
    """Keras 3's loss base class: `loss(y_true, y_pred, sample_weight=None)` reduces `call`'s values."""

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or _auto_name(type(self).__name__)
        self.reduction = standardize_reduction(reduction)
        self._dtype = getattr(dtype, "name", dtype) or "float32"

    @property
    def dtype(self):
        return self._dtype

    def _storage_dtype(self):
        from tfcompat.framework import dtypes
        return dtypes.as_dtype(self._dtype).torch_dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        dtype = self._storage_dtype()
        in_mask = getattr(y_pred, "_keras_mask", None)      # the mask a layer attached to the prediction (Keras 3)
        values, mask = self._values(y_true, y_pred, dtype)
        if in_mask is not None:
            in_mask = input_storage(in_mask).to(torch.bool)
            mask = in_mask if mask is None else in_mask & mask
        return wrap(reduce_weighted_values(values, sample_weight, mask, self.reduction))

    def _values(self, y_true, y_pred, dtype):
        logits = keras_logits(y_pred) if isinstance(y_pred, Tensor) else None
        out = self.call(wrap(_float(y_true, dtype)), _with_logits(wrap(_float(y_pred, dtype)), logits))
        return _float(out, dtype), None

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _with_logits(tensor, logits):
    if logits is not None:
        from tfcompat.keras.activations import _remember_logits
        _remember_logits(tensor, logits)
    return tensor


def _check_same_structure(y_true, y_pred, dtype):
    """Keras's LossFunctionWrapper maps over `y_true` and `y_pred` as nested Python structures (its leaves converted
    to tensors): `y_pred` must have `y_true`'s lists and tuples (optree's messages), then a leaf of `y_true` must meet a
    leaf of `y_pred`."""
    def shown(x):
        if isinstance(x, (list, tuple)):
            return type(x)(shown(v) for v in x)
        return wrap(_float(x, dtype))

    def nodes(a, b):
        if isinstance(a, (list, tuple)):
            kind = type(a).__name__
            if type(b) is not type(a):
                raise ValueError(f"Expected an instance of {kind}, got {shown(b)!r}.")
            if len(a) != len(b):
                raise ValueError(f"{kind} arity mismatch; expected: {len(a)}, got: {len(b)}; {kind}: {shown(b)!r}.")
            for x, y in zip(a, b):
                nodes(x, y)

    def leaves(a, b):
        if isinstance(a, (list, tuple)):
            for x, y in zip(a, b):
                leaves(x, y)
        elif isinstance(b, (list, tuple)):
            raise ValueError("Structures don't have the same nested structure.")
    nodes(y_true, y_pred)
    leaves(y_true, y_pred)


class LossFunctionWrapper(Loss):
    """A `Loss` computing `fn(y_true, y_pred, **kwargs)` per sample."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def __call__(self, y_true, y_pred, sample_weight=None):
        if isinstance(y_true, (list, tuple)) or isinstance(y_pred, (list, tuple)):
            _check_same_structure(y_true, y_pred, self._storage_dtype())
        return super().__call__(y_true, y_pred, sample_weight)

    def _values(self, y_true, y_pred, dtype):
        impl = _IMPL.get(self.fn)
        if impl is None:
            return super()._values(y_true, y_pred, dtype)
        logits = keras_logits(y_pred) if impl in _TAKES_LOGITS and isinstance(y_pred, Tensor) else None
        t, p = _float(y_true, dtype), _float(y_pred, dtype)
        t, p = squeeze_or_expand_to_same_rank(t, p)
        _check_difference(impl, t, p)
        if logits is not None:       # only cross-entropies score a softmax/sigmoid output from its logits
            return impl(t, p, logits=_float(logits, dtype), **self._fn_kwargs)
        return impl(t, p, **self._fn_kwargs)

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({"fn": self.fn.__name__})
        config.update(self._fn_kwargs)
        return config

    def __repr__(self):
        return f"<LossFunctionWrapper({self.fn}, kwargs={self._fn_kwargs})>"


# -- torch implementations: (y_true, y_pred storages) -> (per-sample values, mask or None) ----------------

def _mse(t, p):
    return torch.mean(torch.square(t - p), -1), None


def _mae(t, p):
    return torch.mean(torch.abs(t - p), -1), None


def _mape(t, p):
    diff = torch.abs((t - p) / torch.clamp_min(torch.abs(t), EPSILON))
    return 100.0 * torch.mean(diff, -1), None


def _msle(t, p):
    first = torch.log(torch.clamp_min(p, EPSILON) + 1.0)
    second = torch.log(torch.clamp_min(t, EPSILON) + 1.0)
    return torch.mean(torch.square(first - second), -1), None


def _l2_normalize(x, axis):
    if x.ndim == 0:
        x = x.unsqueeze(0)
    inv = torch.clamp_max(torch.rsqrt(torch.sum(torch.square(x), axis, keepdim=True)), 1.0 / EPSILON)
    return x * inv


def _cosine(t, p, axis=-1):
    return -torch.sum(_l2_normalize(t, axis) * _l2_normalize(p, axis), axis), None


def _huber(t, p, delta=1.0):
    error = p - t
    abs_error = torch.abs(error)
    delta = torch.tensor(delta, dtype=p.dtype, device=p.device)
    values = torch.where(abs_error <= delta, 0.5 * torch.square(error), delta * abs_error - 0.5 * torch.square(delta))
    return torch.mean(values, -1), None


def _log_cosh(t, p):
    x = p - t
    log2 = torch.log(torch.tensor(2.0, dtype=torch.float32)).to(p.dtype).item()
    return torch.mean(x + F.softplus(x * -2.0) - log2, -1), None


def _kl(t, p):
    t = torch.clamp(t, EPSILON, 1)
    p = torch.clamp(p, EPSILON, 1)
    return torch.sum(t * torch.log(t / p), -1), None


def _poisson(t, p):
    return torch.mean(p - t * torch.log(p + EPSILON), -1), None


def _hinge_labels(t):
    if bool(torch.all((t == 0) | (t == 1))):
        return 2.0 * t - 1.0
    return t


def _hinge(t, p):
    return torch.mean(torch.clamp_min(1.0 - _hinge_labels(t) * p, 0.0), -1), None


def _squared_hinge(t, p):
    return torch.mean(torch.square(torch.clamp_min(1.0 - _hinge_labels(t) * p, 0.0)), -1), None


def _categorical_hinge(t, p):
    pos = torch.sum(t * p, -1)
    neg = torch.amax((1.0 - t) * p, -1)
    return torch.clamp_min(neg - pos + 1.0, 0.0), None


def _check_axis(axis):
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")


def _warn_one_class(p, name):
    if p.ndim and p.shape[-1] == 1:
        warnings.warn(f"In loss {name}, expected y_pred.shape to be (batch_size, num_classes) with num_classes > 1. "
                      f"Received: y_pred.shape={_shape_text(p)}. Consider using 'binary_crossentropy' if you only "
                      "have 2 classes.", SyntaxWarning, stacklevel=3)


def _shape_text(t):
    return str(tuple(t.shape))


def _categorical_ce(t, p, from_logits=False, label_smoothing=0.0, axis=-1, logits=None):
    _check_axis(axis)
    _warn_one_class(p, "categorical_crossentropy")
    if label_smoothing:
        t = t * (1.0 - label_smoothing) + label_smoothing / t.shape[-1]
    if t.ndim < 1:
        raise ValueError(f"Arguments `target` and `output` must be at least rank 1. Received: "
                         f"target.shape={_shape_text(t)}, output.shape={_shape_text(p)}")
    if t.ndim != p.ndim:        # integer labels given to categorical_crossentropy
        raise ValueError(f"Arguments `target` and `output` must have the same rank (ndim). Received: "
                         f"target.shape={_shape_text(t)}, output.shape={_shape_text(p)}")
    if t.shape != p.shape:
        raise ValueError(f"Arguments `target` and `output` must have the same shape. Received: "
                         f"target.shape={_shape_text(t)}, output.shape={_shape_text(p)}")
    if logits is not None:
        p, from_logits = logits, True
    if from_logits:
        return softmax_xent(t, p, axis), None
    p = p / torch.sum(p, axis, keepdim=True)
    p = torch.clamp(p, EPSILON, 1.0 - EPSILON)
    return -torch.sum(t * torch.log(p), axis), None


def _categorical_focal(t, p, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1, logits=None):
    _check_axis(axis)
    _warn_one_class(p, "categorical_focal_crossentropy")
    if label_smoothing:
        t = t * (1.0 - label_smoothing) + label_smoothing / t.shape[-1]
    if from_logits:
        p = torch.softmax(p, axis)
    out = p / torch.sum(p, axis, keepdim=True)
    out = torch.clamp(out, EPSILON, 1.0 - EPSILON)
    cce = -t * torch.log(out)
    focal = torch.pow(1.0 - out, gamma) * alpha * cce
    return torch.sum(focal, axis), None


_NARROW_LABELS = frozenset([torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32])


def _label_error(message):
    return errors.kernel_error(errors.InvalidArgumentError, message, "SparseSoftmaxCrossEntropyWithLogits")


def _sparse_categorical_ce(t, p, from_logits=False, ignore_class=None, axis=-1, logits=None):
    if t.ndim == p.ndim and t.shape[axis] == 1:
        t = t.squeeze(axis)
    if axis != -1 and axis != p.ndim - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    if logits is not None:
        p, from_logits = logits, True
    valid = None
    if ignore_class is not None:
        valid = t != ignore_class
        t = torch.where(valid, t, torch.zeros_like(t))
        p = torch.where(valid.unsqueeze(-1), p, torch.zeros_like(p))
    labels = t.to(torch.int64)
    if labels.ndim != p.ndim - 1:
        raise ValueError(f"Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
                         f"target.shape={_shape_text(labels)}, output.shape={_shape_text(p)}")
    if not from_logits:
        p = torch.log(torch.clamp(p, EPSILON, 1 - EPSILON))
    res = sparse_xent_rows(p, labels.reshape(-1), t.dtype not in _NARROW_LABELS, _label_error)
    res = res.reshape(labels.shape)
    if valid is not None:
        res = torch.where(valid, res, torch.zeros_like(res))
    return res, valid


def _bce_elementwise(t, p, from_logits):
    if from_logits:     # TF's formula, max(x, 0) and -|x| chosen by `x >= 0`: the gradient at 0 is sigmoid(0) - t
        nonneg = p >= 0
        return torch.where(nonneg, p, 0.0) - p * t + torch.log1p(torch.exp(torch.where(nonneg, -p, p)))
    p = torch.clamp(p, EPSILON, 1.0 - EPSILON)
    bce = t * torch.log(p)
    bce = bce + (1 - t) * torch.log(1 - p)
    return -bce


def _binary_ce(t, p, from_logits=False, label_smoothing=0.0, axis=-1, logits=None):
    if label_smoothing:
        t = t * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if t.shape != p.shape:
        if t.ndim != p.ndim:
            raise ValueError(f"Arguments `target` and `output` must have the same rank (ndim). Received: "
                             f"target.shape={_shape_text(t)}, output.shape={_shape_text(p)}")
        raise ValueError(f"Arguments `target` and `output` must have the same shape. Received: "
                         f"target.shape={_shape_text(t)}, output.shape={_shape_text(p)}")
    if logits is not None:
        p, from_logits = logits, True
    return torch.mean(_bce_elementwise(t, p, from_logits), axis), None


def _binary_focal(t, p, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                  axis=-1, logits=None):
    if label_smoothing:
        t = t * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        p = torch.sigmoid(p)
    bce = _bce_elementwise(t, p, False)
    p_t = t * p + (1 - t) * (1 - p)
    focal = torch.pow(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (t * alpha + (1 - t) * (1 - alpha)) * focal
    return torch.mean(focal, axis), None


# -- public loss functions (per-sample values as tensors) ---------------------------------------------------

def _function(impl, name, match_ranks=False, doc=""):
    takes_logits = "logits" in inspect.signature(impl).parameters
    if takes_logits:
        _TAKES_LOGITS.add(impl)

    def fn(y_true, y_pred, **kwargs):
        logits = keras_logits(y_pred) if takes_logits and isinstance(y_pred, Tensor) else None
        p = _pred(y_pred)
        t = _float(y_true, p.dtype)
        if match_ranks:
            t, p = squeeze_or_expand_to_same_rank(t, p)
            _check_difference(impl, t, p)
        if logits is not None:
            kwargs["logits"] = _float(logits, p.dtype)
        return wrap(impl(t, p, **kwargs)[0])

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    _IMPL[fn] = impl
    return fn


def _check_difference(impl, t, p):
    """TF's Sub error for the losses of a difference whose operands do not broadcast (`Incompatible shapes`, in the
    order Keras subtracts them)."""
    pred_first = _DIFFERENCES.get(impl)
    if pred_first is not None and t.shape != p.shape:
        check_broadcast("Sub", *((p, t) if pred_first else (t, p)))


_IMPL = {}
_TAKES_LOGITS = set()     # implementations that score a Keras softmax/sigmoid output from its logits
mean_squared_error = _function(_mse, "mean_squared_error", True, "`mean(square(y_true - y_pred), axis=-1)`.")
mean_absolute_error = _function(_mae, "mean_absolute_error", True, "`mean(abs(y_true - y_pred), axis=-1)`.")
mean_absolute_percentage_error = _function(_mape, "mean_absolute_percentage_error", True,
                                           "`100 * mean(abs((y_true - y_pred) / max(abs(y_true), eps)))`.")
mean_squared_logarithmic_error = _function(_msle, "mean_squared_logarithmic_error", True,
                                           "`mean(square(log(y_pred + 1) - log(y_true + 1)), axis=-1)`.")
cosine_similarity = _function(_cosine, "cosine_similarity", True, "`-sum(l2_normalize(y_true) * l2_normalize(y_pred))`.")
huber = _function(_huber, "huber", True, "Huber loss: quadratic within `delta`, linear beyond.")
log_cosh = _function(_log_cosh, "log_cosh", True, "`mean(log(cosh(y_pred - y_true)), axis=-1)`.")
kl_divergence = _function(_kl, "kl_divergence", False, "`sum(y_true * log(y_true / y_pred), axis=-1)` (clipped).")
poisson = _function(_poisson, "poisson", False, "`mean(y_pred - y_true * log(y_pred + eps), axis=-1)`.")
_DIFFERENCES = {_mse: False, _mae: False, _mape: False, _huber: True, _msle: True, _log_cosh: True}  # pred first?
hinge = _function(_hinge, "hinge", False, "`mean(maximum(1 - y_true * y_pred, 0), axis=-1)` (0/1 labels -> -1/1).")
squared_hinge = _function(_squared_hinge, "squared_hinge", False, "`mean(square(maximum(1 - y_true * y_pred, 0)))`.")
categorical_hinge = _function(_categorical_hinge, "categorical_hinge", False,
                              "`maximum(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`.")
categorical_crossentropy = _function(_categorical_ce, "categorical_crossentropy", False,
                                     "Cross-entropy of one-hot labels (probabilities clipped to [1e-7, 1 - 1e-7]).")
categorical_focal_crossentropy = _function(_categorical_focal, "categorical_focal_crossentropy", False,
                                           "Focal cross-entropy of one-hot labels.")
sparse_categorical_crossentropy = _function(_sparse_categorical_ce, "sparse_categorical_crossentropy", False,
                                            "Cross-entropy of integer labels.")
binary_crossentropy = _function(_binary_ce, "binary_crossentropy", False,
                                "`mean(-(y log p + (1 - y) log(1 - p)), axis)` (clipped).")
binary_focal_crossentropy = _function(_binary_focal, "binary_focal_crossentropy", False, "Focal binary cross-entropy.")
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh
bce = BCE = binary_crossentropy


def _loss_class(class_name, fn, default_name, params=(), attrs=()):
    """A `LossFunctionWrapper` subclass with Keras's constructor arguments `params` (name, default)."""
    params = list(params)

    def __init__(self, *args, **kwargs):
        names = [p for p, _ in params] + ["reduction", "name", "dtype"]
        values = dict(params, reduction="sum_over_batch_size", name=default_name, dtype=None)
        if len(args) > len(names):
            raise TypeError(f"{class_name}.__init__() takes {len(names) + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        for n, v in zip(names, args):
            values[n] = v
        for n, v in kwargs.items():
            if n not in values:
                raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument '{n}'")
            values[n] = v
        fn_kwargs = {p: values[p] for p, _ in params}
        LossFunctionWrapper.__init__(self, fn, reduction=values["reduction"], name=values["name"],
                                     dtype=values["dtype"], **fn_kwargs)
        for a in attrs:
            setattr(self, a, values[a])

    def get_config(self):
        config = Loss.get_config(self)
        config.update({a: getattr(self, a) for a in attrs})
        return config

    cls = type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "get_config": get_config,
                                                    "__doc__": f"Keras 3's `{class_name}` loss ({fn.__doc__})",
                                                    "__module__": __name__})
    return cls


_CE = (("from_logits", False), ("label_smoothing", 0.0), ("axis", -1))
MeanSquaredError = _loss_class("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _loss_class("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                          "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                          "mean_squared_logarithmic_error")
CosineSimilarity = _loss_class("CosineSimilarity", cosine_similarity, "cosine_similarity", (("axis", -1),))
Huber = _loss_class("Huber", huber, "huber_loss", (("delta", 1.0),))
LogCosh = _loss_class("LogCosh", log_cosh, "log_cosh")
Hinge = _loss_class("Hinge", hinge, "hinge")
SquaredHinge = _loss_class("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _loss_class("Poisson", poisson, "poisson")
BinaryCrossentropy = _loss_class("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy", _CE,
                                 ("from_logits", "label_smoothing", "axis"))
BinaryFocalCrossentropy = _loss_class(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    (("apply_class_balancing", False), ("alpha", 0.25), ("gamma", 2.0)) + _CE,
    ("from_logits", "label_smoothing", "axis", "apply_class_balancing", "alpha", "gamma"))
CategoricalCrossentropy = _loss_class("CategoricalCrossentropy", categorical_crossentropy,
                                      "categorical_crossentropy", _CE, ("from_logits", "label_smoothing", "axis"))
CategoricalFocalCrossentropy = _loss_class(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy, "categorical_focal_crossentropy",
    (("alpha", 0.25), ("gamma", 2.0)) + _CE, ("from_logits", "label_smoothing", "axis", "alpha", "gamma"))


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Keras 3's cross-entropy of integer labels (`ignore_class` labels are masked out)."""

    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size", axis=-1,
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits, "ignore_class": self.ignore_class})
        return config


class Reduction:
    """The TF1-style reduction names (`tf.keras.losses.Reduction`)."""
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


from tfcompat.keras import losses_more as _more  # noqa: E402  (they build on LossFunctionWrapper)

CTC, Dice, Tversky, Circle = _more.CTC, _more.Dice, _more.Tversky, _more.Circle
CategoricalGeneralizedCrossEntropy = _more.CategoricalGeneralizedCrossEntropy
ctc, dice, tversky, circle = _more.ctc, _more.dice, _more.tversky, _more.circle
categorical_generalized_cross_entropy = _more.categorical_generalized_cross_entropy
_CLASSES = _more.CLASSES + (Loss, LossFunctionWrapper, KLDivergence, Poisson, BinaryCrossentropy, BinaryFocalCrossentropy,
            CategoricalCrossentropy, CategoricalFocalCrossentropy, SparseCategoricalCrossentropy, MeanSquaredError,
            MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity, LogCosh,
            Huber, Hinge, SquaredHinge, CategoricalHinge)
ALL_OBJECTS_DICT = {c.__name__: c for c in _CLASSES}
ALL_OBJECTS_DICT.update({f.__name__: f for f in _IMPL})
ALL_OBJECTS_DICT.update(bce=bce, BCE=bce, kld=kld, KLD=kld, mae=mae, MAE=mae, mse=mse, MSE=mse, mape=mape, MAPE=mape,
                        msle=msle, MSLE=msle)


serialize, deserialize, get = lookup_functions("loss", ALL_OBJECTS_DICT)


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("keras.losses", attr)
