"""`tf.keras.metrics` (Keras 3): stateful metrics over Keras variables, updated with torch ops.

Updates rebind the metric variables' storages with torch results (no device sync), so a
training loop calling `train_loss(loss)` each step costs a few small kernels.
"""
import inspect

import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.op_def import check_broadcast, input_storage, wrap
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.keras import losses as _losses
from tfcompat.keras.losses import squeeze_or_expand_to_same_rank
from tfcompat.keras.variables import Variable, name_scope
from tfcompat.keras.engine.naming import to_snake_case
from tfcompat.keras.saving_utils import lookup_functions

EPSILON = 1e-7


def _cast(x, dtype):
    t = input_storage(x)
    if t.requires_grad:
        t = t.detach()
    return t if t.dtype == dtype else t.to(dtype)


def _divide_no_nan(a, b):
    return torch.where(b == 0, torch.zeros_like(a), a / torch.where(b == 0, torch.ones_like(b), b))


class Metric:
    """Keras 3's metric base: `update_state`, `result`, `reset_state`, `metric(...)` updates and returns `result()`."""

    def __init__(self, dtype=None, name=None):
        from tfcompat.keras.optimizers.base import auto_name
        self.name = name or auto_name(type(self).__name__)
        self._dtype = getattr(dtype, "name", dtype) or "float32"
        self._variables = []

    @property
    def dtype(self):
        return self._dtype

    @property
    def _torch_dtype(self):
        from tfcompat.framework import dtypes
        return dtypes.as_dtype(self._dtype).torch_dtype

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """A non-trainable Keras variable at path `<metric name>/<name>`."""
        from tfcompat.framework import dtypes
        dtype = getattr(dtype, "name", dtype) or self._dtype
        tdt = dtypes.as_dtype(dtype).torch_dtype
        if initializer in ("zeros", None) or type(initializer).__name__ == "Zeros":
            value = wrap(torch.zeros(tuple(shape), dtype=tdt))
        else:
            from tfcompat.keras import initializers
            value = initializers.get(initializer)(tuple(shape), dtype=dtype)
        with name_scope(self.name.replace("/", ">")):
            v = Variable(value, name=name, trainable=False)
        self._variables.append(v)
        return v

    def add_weight(self, shape=(), initializer=None, dtype=None, name=None):
        return self.add_variable(shape=shape, initializer=initializer, dtype=dtype, name=name)

    @property
    def variables(self):
        out = list(self._variables)
        for m in self.__dict__.values():
            if isinstance(m, Metric):
                out.extend(m.variables)
        return out

    def reset_state(self):
        for v in self.variables:
            v._set_storage(torch.zeros_like(storage(v)))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"

    __str__ = __repr__


def broadcast_weights(weights, shape):
    """`weights` broadcast to `shape` (Keras's `ops.broadcast_to` of sample weights), with TF's BroadcastTo error
    when they do not fit."""
    try:
        return torch.broadcast_to(weights, shape)
    except RuntimeError:
        def text(s):
            return "[" + ",".join(map(str, s)) + "]"
        raise errors.op_error(errors.InvalidArgumentError, "{{function_node __wrapped__BroadcastTo_device_/job:"
                              "localhost/replica:0/task:0/device:CPU:0}} Incompatible shapes: "
                              f"{text(weights.shape)} vs. {text(shape)}", "BroadcastTo", name=None) from None


def _samplewise(values, sample_weight, reduce_fn, dtype):
    """Keras's `reduce_to_samplewise_values`: per-sample values (and weights) of a batch."""
    values = values.to(dtype) if values.dtype != dtype else values
    if sample_weight is not None:
        sample_weight = _cast(sample_weight, dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        wnd, vnd = sample_weight.ndim, values.ndim
        if vnd > wnd:
            values = reduce_fn(values, tuple(range(wnd, vnd)))
        sample_weight = broadcast_weights(sample_weight, values.shape)
        values = values * sample_weight
        if wnd > 1:
            sample_weight = reduce_fn(sample_weight, tuple(range(1, wnd)))
    if values.ndim > 1:
        values = reduce_fn(values, tuple(range(1, values.ndim)))
    return values, sample_weight


class Sum(Metric):
    """The running sum of the values seen."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", dtype=self.dtype, name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = _samplewise(_cast(values, self._torch_dtype), sample_weight, torch.sum, self._torch_dtype)
        self.total._set_storage(storage(self.total) + values.sum())

    def result(self):
        return wrap(storage(self.total))


class Mean(Metric):
    """The (weighted) mean of the values seen: `total / count`."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", dtype=self.dtype, name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", dtype=self.dtype, name="count")

    def update_state(self, values, sample_weight=None):
        dtype = self._torch_dtype
        values, sample_weight = _samplewise(_cast(values, dtype), sample_weight, torch.mean, dtype)
        self._accumulate(values, sample_weight)

    def _accumulate(self, values, sample_weight):
        total = storage(self.total)
        if values.device != total.device:
            values = values.to(total.device)
        self.total._set_storage(total + values.sum())
        if sample_weight is not None:
            n = sample_weight.sum().to(total.device)
        else:
            n = values.shape[0] if values.ndim >= 1 else 1
        self.count._set_storage(storage(self.count) + n)

    def result(self):
        return wrap(_divide_no_nan(storage(self.total), storage(self.count)))


class MeanMetricWrapper(Mean):
    """The mean of `fn(y_true, y_pred, **kwargs)` over the samples seen."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        dtype = self._torch_dtype
        impl = _losses._IMPL.get(self._fn) or _IMPL.get(self._fn)
        mask = None
        if impl is not None:
            p = _cast(y_pred, torch.float32) if not input_storage(y_pred).is_floating_point() else _cast(
                y_pred, input_storage(y_pred).dtype)
            t = input_storage(y_true)
            if t.requires_grad:
                t = t.detach()
            kwargs = dict(self._fn_kwargs)
            if "logits" in inspect.signature(impl).parameters and isinstance(y_pred, Tensor):
                from tfcompat.keras.activations import keras_logits
                logits = keras_logits(y_pred)
                if logits is not None:
                    kwargs["logits"] = _cast(logits, p.dtype)
            if impl in _LOSS_IMPLS:
                t = t.to(p.dtype)
                if impl in _MATCH_RANKS:
                    t, p = squeeze_or_expand_to_same_rank(t, p)
                    _losses._check_difference(impl, t, p)
            elif impl is _accuracy and t.shape != p.shape:
                tt, pp = squeeze_or_expand_to_same_rank(t, p)
                if tt.shape != pp.shape:
                    check_broadcast("Equal", tt, pp)
            values, mask = impl(t, p, **kwargs)
        else:
            values = _cast(self._fn(y_true, y_pred, **self._fn_kwargs), dtype)
        in_mask = getattr(y_pred, "_keras_mask", None)      # a layer's mask on the prediction weighs too (Keras 3)
        if in_mask is not None:
            in_mask = input_storage(in_mask).to(torch.bool)
            mask = in_mask if mask is None else in_mask & mask
        if mask is not None:
            sw = None if sample_weight is None else _cast(sample_weight, dtype)
            sample_weight = _losses._apply_mask(sw, mask, dtype, "sum")
        values, sample_weight = _samplewise(values, sample_weight, torch.mean, dtype)
        self._accumulate(values, sample_weight)

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype, "fn": self._fn.__name__}
        config.update(self._fn_kwargs)
        return config


_LOSS_IMPLS = set(_losses._IMPL.values())
_MATCH_RANKS = {_losses._mse, _losses._mae, _losses._mape, _losses._msle, _losses._cosine, _losses._huber,
                _losses._log_cosh}


# -- accuracy functions ------------------------------------------------------------------------------------

def _floatx(b):
    return b.to(torch.float32)


def _accuracy(t, p):
    t = t.to(p.dtype)
    t, p = squeeze_or_expand_to_same_rank(t, p)
    return _floatx(t == p), None


def _binary_accuracy(t, p, threshold=0.5):
    t, p = squeeze_or_expand_to_same_rank(t, p)
    return _floatx(t == (p > threshold).to(t.dtype)), None


def _categorical_accuracy(t, p):
    return _floatx(torch.argmax(t, -1) == torch.argmax(p, -1)), None


def _sparse_categorical_accuracy(t, p):
    t = t.to(p.dtype)
    if t.ndim == p.ndim and t.shape[-1] == 1:
        t = t.squeeze(-1)
    matches = _floatx(t == torch.argmax(p, -1).to(t.dtype))
    if matches.ndim > 1 and matches.shape[-1] == 1:
        matches = matches.squeeze(-1)
    return matches, None


def _in_top_k(targets, predictions, k):
    """TF's `in_top_k`: ties at the boundary count as in the top k; non-finite scores never do."""
    target_scores = torch.gather(predictions, 1, targets.long().unsqueeze(1))
    above = torch.sum(predictions > target_scores, 1)
    return (above < k) & torch.isfinite(target_scores.squeeze(1))


def _top_k_categorical_accuracy(t, p, k=5):
    labels = torch.argmax(t.to(p.dtype), -1)
    shape = labels.shape
    if p.ndim > 2:
        p = p.reshape(-1, p.shape[-1])
    return _floatx(_in_top_k(labels.reshape(-1), p, k)).reshape(shape), None


def _sparse_top_k_categorical_accuracy(t, p, k=5, from_sorted_ids=False):
    if from_sorted_ids:
        raise NotImplementedError("sparse_top_k_categorical_accuracy(from_sorted_ids=True)")
    shape = t.shape
    if p.ndim > 2:
        p = p.reshape(-1, p.shape[-1])
    return _floatx(_in_top_k(t.to(torch.int32).reshape(-1), p, k)).reshape(shape), None


def _metric_function(impl, name, doc):
    def fn(y_true, y_pred, **kwargs):
        p = input_storage(y_pred)
        return wrap(impl(input_storage(y_true), p, **kwargs)[0])

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    _IMPL[fn] = impl
    return fn


_IMPL = {}
accuracy = _metric_function(_accuracy, "accuracy", "1.0 where `y_true == y_pred`, else 0.0.")
binary_accuracy = _metric_function(_binary_accuracy, "binary_accuracy", "1.0 where `y_true == (y_pred > threshold)`.")
categorical_accuracy = _metric_function(_categorical_accuracy, "categorical_accuracy",
                                        "1.0 where `argmax(y_true) == argmax(y_pred)`.")
sparse_categorical_accuracy = _metric_function(_sparse_categorical_accuracy, "sparse_categorical_accuracy",
                                               "1.0 where `y_true == argmax(y_pred)`.")
top_k_categorical_accuracy = _metric_function(_top_k_categorical_accuracy, "top_k_categorical_accuracy",
                                              "1.0 where the true class is in the top `k` predictions.")
sparse_top_k_categorical_accuracy = _metric_function(_sparse_top_k_categorical_accuracy,
                                                     "sparse_top_k_categorical_accuracy",
                                                     "1.0 where the integer label is in the top `k` predictions.")


def _wrapper_class(class_name, fn, default_name, params=(), leading=()):
    """A MeanMetricWrapper class of `fn`; its positional order is Keras's: `leading` params, name, dtype, the rest."""
    params = list(params)

    def __init__(self, *args, **kwargs):
        names = list(leading) + ["name", "dtype"] + [p for p, _ in params if p not in leading]
        values = dict(params, name=default_name, dtype=None)
        for n, v in zip(names, args):
            values[n] = v
        for n, v in kwargs.items():
            if n not in values:
                raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument '{n}'")
            values[n] = v
        MeanMetricWrapper.__init__(self, fn, name=values["name"], dtype=values["dtype"],
                                   **{p: values[p] for p, _ in params})
        for p, _ in params:
            setattr(self, p, values[p])

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype}
        config.update({p: getattr(self, p) for p, _ in params})
        return config

    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "get_config": get_config,
                                                   "__doc__": f"Keras 3's `{class_name}` metric.",
                                                   "__module__": __name__})


Accuracy = _wrapper_class("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _wrapper_class("BinaryAccuracy", binary_accuracy, "binary_accuracy", (("threshold", 0.5),))
CategoricalAccuracy = _wrapper_class("CategoricalAccuracy", categorical_accuracy, "categorical_accuracy")
SparseCategoricalAccuracy = _wrapper_class("SparseCategoricalAccuracy", sparse_categorical_accuracy,
                                           "sparse_categorical_accuracy")
TopKCategoricalAccuracy = _wrapper_class("TopKCategoricalAccuracy", top_k_categorical_accuracy,
                                         "top_k_categorical_accuracy", (("k", 5),), leading=("k",))
SparseTopKCategoricalAccuracy = _wrapper_class("SparseTopKCategoricalAccuracy", sparse_top_k_categorical_accuracy,
                                               "sparse_top_k_categorical_accuracy", (("k", 5),), leading=("k",))
MeanSquaredError = _wrapper_class("MeanSquaredError", _losses.mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper_class("MeanAbsoluteError", _losses.mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper_class("MeanAbsolutePercentageError", _losses.mean_absolute_percentage_error,
                                             "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper_class("MeanSquaredLogarithmicError", _losses.mean_squared_logarithmic_error,
                                             "mean_squared_logarithmic_error")
CategoricalCrossentropy = _wrapper_class("CategoricalCrossentropy", _losses.categorical_crossentropy,
                                         "categorical_crossentropy",
                                         (("from_logits", False), ("label_smoothing", 0), ("axis", -1)))
SparseCategoricalCrossentropy = _wrapper_class("SparseCategoricalCrossentropy", _losses.sparse_categorical_crossentropy,
                                               "sparse_categorical_crossentropy",
                                               (("from_logits", False), ("axis", -1)))
BinaryCrossentropy = _wrapper_class("BinaryCrossentropy", _losses.binary_crossentropy, "binary_crossentropy",
                                    (("from_logits", False), ("label_smoothing", 0)))
KLDivergence = _wrapper_class("KLDivergence", _losses.kl_divergence, "kl_divergence")
Poisson = _wrapper_class("Poisson", _losses.poisson, "poisson")
LogCoshError = _wrapper_class("LogCoshError", _losses.log_cosh, "logcosh")
Hinge = _wrapper_class("Hinge", _losses.hinge, "hinge")
SquaredHinge = _wrapper_class("SquaredHinge", _losses.squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper_class("CategoricalHinge", _losses.categorical_hinge, "categorical_hinge")


class RootMeanSquaredError(Mean):
    """`sqrt(mean(square(y_pred - y_true)))` over the samples seen."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        dtype = self._torch_dtype
        t, p = squeeze_or_expand_to_same_rank(_cast(y_true, dtype), _cast(y_pred, dtype))
        super().update_state(wrap(torch.square(p - t)), sample_weight=sample_weight)

    def result(self):
        return wrap(torch.sqrt(_divide_no_nan(storage(self.total), storage(self.count))))


class CosineSimilarity(MeanMetricWrapper):
    """The mean cosine similarity of `y_true` and `y_pred` along `axis`."""

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(_cosine_similarity_metric, name, dtype=dtype, axis=axis)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


def _cosine_similarity_metric(y_true, y_pred, axis=-1):
    return wrap(-_losses._cosine(input_storage(y_true).to(torch.float32), input_storage(y_pred).to(torch.float32),
                                 axis)[0])


# -- confusion-matrix metrics --------------------------------------------------------------------------------

def _parse_thresholds(thresholds, default):
    if thresholds is None:
        return [default]
    return [float(t) for t in (thresholds if isinstance(thresholds, (list, tuple, np.ndarray)) else [thresholds])]


_NEG_INF = -1e10        # Keras's stand-in for predictions outside the top k (and top_k's default threshold)


def _confusion_update(variables, y_true, y_pred, thresholds, sample_weight=None, class_id=None, multi_label=False,
                      label_weights=None, top_k=None):
    """Adds the (weighted) confusion counts at each threshold (`y_pred > threshold`) to `variables`: one count per
    threshold over all entries, or with `multi_label` one per (threshold, label) over a [batch, labels] `y_pred`;
    `label_weights` (one per label) scale the entries' weights; with `top_k`, only each row's k largest
    predictions count as predictions (the others become -1e10)."""
    p = _cast(y_pred, torch.float32)
    t = _cast(y_true, torch.float32)
    p, t = squeeze_or_expand_to_same_rank(p, t)
    w = None
    if sample_weight is not None:       # Keras: one weight per row of a [batch, labels] y_true, else per entry
        w = _cast(sample_weight, torch.float32).unsqueeze(-1)
        _, w = squeeze_or_expand_to_same_rank(t, w, expand_rank_1=False)
    if top_k is not None:
        in_top = torch.zeros_like(p).scatter_(-1, torch.topk(p, top_k, dim=-1).indices, 1.0)
        p = p * in_top + _NEG_INF * (1 - in_top)
    if class_id is not None:
        if p.ndim == 1:
            raise ValueError(f"When class_id is provided, y_pred must be a 2D array with shape (num_samples, "
                             f"num_classes), found shape: {tuple(p.shape)}")
        p, t = p[..., class_id, None], t[..., class_id, None]
    weights = torch.ones_like(p) if w is None else broadcast_weights(w, p.shape)
    if label_weights is not None:
        weights = weights * label_weights.to(weights.device)
    thr = torch.tensor(thresholds, dtype=torch.float32, device=p.device)
    if multi_label:         # [thresholds, batch, labels] decisions, summed over the batch
        pred_pos = p.unsqueeze(0) > thr.reshape(-1, 1, 1)
        label = torch.broadcast_to(t, p.shape).to(torch.bool)
    else:
        pred_pos = p.reshape(1, -1) > thr.unsqueeze(1)
        label = torch.broadcast_to(t, p.shape).reshape(-1).to(torch.bool)
        weights = weights.reshape(-1)
    counts = {
        "tp": lambda: ((pred_pos & label).to(torch.float32) * weights).sum(1),
        "fp": lambda: ((pred_pos & ~label).to(torch.float32) * weights).sum(1),
        "tn": lambda: ((~pred_pos & ~label).to(torch.float32) * weights).sum(1),
        "fn": lambda: ((~pred_pos & label).to(torch.float32) * weights).sum(1),
    }
    for key, var in variables.items():
        t = storage(var)
        increment = counts[key]().to(t.device)
        if multi_label and increment.shape != t.shape:     # more or fewer labels than the variables were built for
            raise errors.op_error(errors.InvalidArgumentError, f"Incompatible shapes: {_dims(t)} vs. "
                                  f"{_dims(increment)}", "AddV2")
        var._set_storage(t + increment.reshape(t.shape))


def _dims(t):
    return "[" + ",".join(str(d) for d in t.shape) + "]"


class _ThresholdMetric(Metric):
    _counts = ()

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        self.thresholds = _parse_thresholds(thresholds, 0.5 if top_k is None else _NEG_INF)
        for _, var_name in self._counts:
            setattr(self, var_name, self.add_variable(shape=(len(self.thresholds),), initializer="zeros",
                                                      name=var_name))

    def update_state(self, y_true, y_pred, sample_weight=None):
        _confusion_update({k: getattr(self, n) for k, n in self._counts}, y_true, y_pred, self.thresholds,
                          sample_weight, self.class_id, top_k=self.top_k)

    def _ratio(self, other):
        tp = storage(self.true_positives)
        r = _divide_no_nan(tp, tp + storage(getattr(self, other)))
        return wrap(r[0] if len(self.thresholds) == 1 else r)

    def get_config(self):
        config = super().get_config()
        config.update({"thresholds": self.init_thresholds, "top_k": self.top_k, "class_id": self.class_id})
        return config


class Precision(_ThresholdMetric):
    """`true_positives / (true_positives + false_positives)` at each threshold."""
    _counts = (("tp", "true_positives"), ("fp", "false_positives"))

    def result(self):
        return self._ratio("false_positives")


class Recall(_ThresholdMetric):
    """`true_positives / (true_positives + false_negatives)` at each threshold."""
    _counts = (("tp", "true_positives"), ("fn", "false_negatives"))

    def result(self):
        return self._ratio("false_negatives")


def _count_metric(class_name, key, var_name, default_name):
    class _Count(Metric):
        def __init__(self, thresholds=None, name=None, dtype=None):
            super().__init__(name=name or None, dtype=dtype)
            self.init_thresholds = thresholds
            self.thresholds = _parse_thresholds(thresholds, 0.5)
            self.accumulator = self.add_variable(shape=(len(self.thresholds),), initializer="zeros",
                                                 name="accumulator")

        def update_state(self, y_true, y_pred, sample_weight=None):
            _confusion_update({key: self.accumulator}, y_true, y_pred, self.thresholds, sample_weight)

        def result(self):
            t = storage(self.accumulator)
            return wrap(t[0] if len(self.thresholds) == 1 else t)

        def get_config(self):
            return {"name": self.name, "dtype": self.dtype, "thresholds": self.init_thresholds}

    _Count.__name__ = _Count.__qualname__ = class_name
    _Count.__doc__ = f"The (weighted) number of {var_name.replace('_', ' ')}."
    return _Count


TruePositives = _count_metric("TruePositives", "tp", "true_positives", "true_positives")
FalsePositives = _count_metric("FalsePositives", "fp", "false_positives", "false_positives")
TrueNegatives = _count_metric("TrueNegatives", "tn", "true_negatives", "true_negatives")
FalseNegatives = _count_metric("FalseNegatives", "fn", "false_negatives", "false_negatives")


class AUC(Metric):
    """Area under the ROC or PR curve from confusion counts at `num_thresholds` thresholds; with `multi_label`, the
    mean (or `label_weights`-weighted mean) of each label's AUC."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None, dtype=None,
                 thresholds=None, multi_label=False, num_labels=None, label_weights=None, from_logits=False):
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            thresholds = sorted(thresholds)
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._thresholds = np.array([0.0 - EPSILON] + list(thresholds) + [1.0 + EPSILON])
        # Keras's AUCCurve / AUCSummationMethod.from_str: each name in lower or upper (title) case only
        self.curve = {"pr": "PR", "PR": "PR", "roc": "ROC", "ROC": "ROC", "prgain": "PRGAIN",
                      "PRGAIN": "PRGAIN"}.get(curve) if isinstance(curve, str) else None
        if self.curve is None:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC", "PRGAIN"]')
        self.summation_method = summation_method.lower() if isinstance(summation_method, str) and \
            summation_method in ("interpolation", "Interpolation", "majoring", "Majoring", "minoring",
                                 "Minoring") else None
        if self.summation_method is None:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". Expected values are '
                             '["interpolation", "majoring", "minoring"]')
        super().__init__(name=name, dtype=dtype)
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = None if label_weights is None else wrap(torch.as_tensor(
            np.asarray(label_weights, dtype=self.dtype)))
        self._from_logits = from_logits
        self._built = False
        if multi_label:
            if num_labels:
                self._build((None, num_labels))
        elif num_labels:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")
        else:
            self._build(None)

    def _build(self, shape):
        """The confusion variables: one count per threshold, or per (threshold, label) with `multi_label`."""
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank {len(shape)}. Full "
                                 f"shape received for `y_pred`: {tuple(shape)}")
            variable_shape = (self.num_thresholds, shape[1])
        else:
            variable_shape = (self.num_thresholds,)
        for n in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, n, self.add_variable(shape=variable_shape, initializer="zeros", name=n))
        self._built = True

    @property
    def thresholds(self):
        return list(self._thresholds)

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self._built:
            self._build(tuple(input_storage(y_pred).shape))
        if self._from_logits:
            y_pred = wrap(torch.sigmoid(_cast(y_pred, torch.float32)))
        weights = None if self.multi_label or self.label_weights is None else storage(self.label_weights)
        _confusion_update({"tp": self.true_positives, "fp": self.false_positives, "tn": self.true_negatives,
                           "fn": self.false_negatives}, y_true, y_pred, self._thresholds.tolist(), sample_weight,
                          multi_label=self.multi_label, label_weights=weights)

    def result(self):
        if not self._built:
            return wrap(torch.zeros((), dtype=torch.float32))
        tp, fp = storage(self.true_positives), storage(self.false_positives)
        tn, fn = storage(self.true_negatives), storage(self.false_negatives)
        if self.curve == "PR" and self.summation_method == "interpolation":
            return wrap(self._interpolate_pr_auc(tp, fp, fn))
        recall = _divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = _divide_no_nan(fp, fp + tn), recall
        elif self.curve == "PR":
            x, y = recall, _divide_no_nan(tp, tp + fp)
        else:       # PRGAIN: recall and precision gains, scaled by P / N (0 and 1 where tp is 0; recall gain >= 0)
            scale = _divide_no_nan(tp + fn, tn + fp)
            no_tp = tp == 0
            x = torch.clamp_min(torch.where(no_tp, 0.0, 1.0 - scale * _divide_no_nan(fn, tp)), 0.0)
            y = torch.where(no_tp, 1.0, 1.0 - scale * _divide_no_nan(fp, tp))
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = torch.minimum(y[:-1], y[1:])
        else:
            heights = torch.maximum(y[:-1], y[1:])
        return wrap(self._over_labels((x[:-1] - x[1:]) * heights))

    def _over_labels(self, increments):
        """The AUC from its per-threshold increments: their sum, or with `multi_label` each label's sum averaged
        (weighted by `label_weights`, divide-no-nan)."""
        if not self.multi_label:
            return torch.sum(increments)
        by_label = torch.sum(increments, 0)
        if self.label_weights is None:
            return torch.mean(by_label)
        weights = storage(self.label_weights).to(by_label.dtype)
        return _divide_no_nan(torch.sum(by_label * weights), torch.sum(weights))

    def _interpolate_pr_auc(self, tp, fp, fn):
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        prec_slope = _divide_no_nan(dtp, torch.clamp_min(dp, 0))
        intercept = tp[1:] - prec_slope * p[1:]
        safe_p_ratio = torch.where((p[:-1] > 0) & (p[1:] > 0), _divide_no_nan(p[:-1], torch.clamp_min(p[1:], 0)),
                                   torch.ones_like(p[1:]))
        inc = _divide_no_nan(prec_slope * (dtp + intercept * torch.log(safe_p_ratio)),
                             torch.clamp_min(tp[1:] + fn[1:], 0))
        return self._over_labels(inc)

    def get_config(self):
        config = {"num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": self.multi_label,
                  "num_labels": self.num_labels, "label_weights": self.label_weights,
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:      # Keras leaves out the thresholds it generated itself
            config["thresholds"] = self.thresholds[1:-1]
        return {**super().get_config(), **config}


from tfcompat.keras.metrics_iou import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU  # noqa: E402  (on Metric)
from tfcompat.keras.metrics_scores import F1Score, FBetaScore, R2Score  # noqa: E402  (they build on Metric)
from tfcompat.keras import metrics_more as _more  # noqa: E402  (they build on Metric)

SensitivityAtSpecificity, SpecificityAtSensitivity = _more.SensitivityAtSpecificity, _more.SpecificityAtSensitivity
PrecisionAtRecall, RecallAtPrecision = _more.PrecisionAtRecall, _more.RecallAtPrecision
PearsonCorrelation, ConcordanceCorrelation = _more.PearsonCorrelation, _more.ConcordanceCorrelation
pearson_correlation, concordance_correlation = _more.pearson_correlation, _more.concordance_correlation

_CLASSES = (Metric, Mean, Sum, MeanMetricWrapper, Accuracy, BinaryAccuracy, CategoricalAccuracy,
            SparseCategoricalAccuracy, TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, Precision, Recall, AUC,
            TruePositives, FalsePositives, TrueNegatives, FalseNegatives, MeanSquaredError, RootMeanSquaredError,
            MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CategoricalCrossentropy,
            SparseCategoricalCrossentropy, BinaryCrossentropy, KLDivergence, Poisson, LogCoshError, Hinge,
            SquaredHinge, CategoricalHinge, CosineSimilarity, IoU, BinaryIoU, MeanIoU, OneHotIoU, OneHotMeanIoU,
            FBetaScore, F1Score, R2Score) + _more.CLASSES
mean_squared_error = mse = _losses.mean_squared_error
mean_absolute_error = mae = _losses.mean_absolute_error
mean_absolute_percentage_error = mape = _losses.mean_absolute_percentage_error
mean_squared_logarithmic_error = msle = _losses.mean_squared_logarithmic_error
binary_crossentropy = _losses.binary_crossentropy
categorical_crossentropy = _losses.categorical_crossentropy
sparse_categorical_crossentropy = _losses.sparse_categorical_crossentropy
kl_divergence = _losses.kl_divergence
poisson = _losses.poisson
hinge = _losses.hinge
squared_hinge = _losses.squared_hinge
categorical_hinge = _losses.categorical_hinge
log_cosh = logcosh = _losses.log_cosh
# the loss functions keras.metrics also exports (Keras 3: the same functions, under the losses' aliases too)
MSE, MAE, MAPE, MSLE = mse, mae, mape, msle
KLD = kld = kullback_leibler_divergence = kl_divergence
huber = _losses.huber
binary_focal_crossentropy = _losses.binary_focal_crossentropy
categorical_focal_crossentropy = _losses.categorical_focal_crossentropy
# Keras's table of metric names (`get`, `deserialize`): class names, their snake-case forms and the short aliases,
# all classes ("mae" gives a `MeanAbsoluteError`)
ALL_OBJECTS_DICT = {c.__name__: c for c in _CLASSES}
ALL_OBJECTS_DICT.update({to_snake_case(c.__name__): c for c in _CLASSES})
ALL_OBJECTS_DICT.update(bce=BinaryCrossentropy, BCE=BinaryCrossentropy, mse=MeanSquaredError, MSE=MeanSquaredError,
                        mae=MeanAbsoluteError, MAE=MeanAbsoluteError, mape=MeanAbsolutePercentageError,
                        MAPE=MeanAbsolutePercentageError, msle=MeanSquaredLogarithmicError,
                        MSLE=MeanSquaredLogarithmicError)

serialize, deserialize, get = lookup_functions("metric", ALL_OBJECTS_DICT)
