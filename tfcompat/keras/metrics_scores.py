"""`tf.keras.metrics`' F-beta, F1 and R2 scores (Keras 3), accumulated per class over `metrics.Metric`."""
import warnings

import torch

from tfcompat.framework.op_def import check_broadcast, wrap
from tfcompat.framework.tensor import storage
from tfcompat.keras.losses import squeeze_or_expand_to_same_rank
from tfcompat.keras.metrics import EPSILON, Metric, _cast, broadcast_weights


def _check_2d(class_name, t, p):
    if p.ndim != 2 or t.ndim != 2:
        raise ValueError(f"{class_name} expects 2D inputs with shape (batch_size, output_dim). Received input "
                         f"shapes: y_pred.shape={tuple(p.shape)} and y_true.shape={tuple(t.shape)}.")


def _accumulate(variable, value):
    total = storage(variable)
    variable._set_storage(total + value.to(total.device))


class FBetaScore(Metric):
    """`(1 + beta^2) * precision * recall / (beta^2 * precision + recall)` per class, optionally averaged."""

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. Received: beta={beta} "
                             f"of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError("Invalid `threshold` argument value. It should be a Python float. Received: "
                                 f"threshold={threshold} of type '{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError("Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                 f"Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, t, p):
        _check_2d("FBetaScore", t, p)
        shape = () if self.average == "micro" else (p.shape[-1],)
        for name in ("true_positives", "false_positives", "false_negatives", "intermediate_weights"):
            setattr(self, name, self.add_variable(shape=shape, initializer="zeros", name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        dtype = self._torch_dtype
        t, p = _cast(y_true, dtype), _cast(y_pred, dtype)
        if not self._built:
            self._build(t, p)
        if self.threshold is None:      # the top class of each row (rows of zeros predict nothing)
            hit = (p >= p.max(dim=-1, keepdim=True).values) & (p.abs() > 1e-9)
        else:
            hit = p > self.threshold
        p = hit.to(dtype)
        w = None if sample_weight is None else _cast(sample_weight, dtype).unsqueeze(1)
        if w is not None and w.shape[0] != p.shape[0] and w.shape[0] != 1:       # TF's Mul error
            check_broadcast("Mul", p * t, w)

        def weighted_sum(v):
            v = v if w is None else v * w
            return v.sum() if self.axis is None else v.sum(self.axis)
        _accumulate(self.true_positives, weighted_sum(p * t))
        _accumulate(self.false_positives, weighted_sum(p * (1 - t)))
        _accumulate(self.false_negatives, weighted_sum((1 - p) * t))
        _accumulate(self.intermediate_weights, weighted_sum(t))

    def result(self):
        tp, fp, fn = (storage(v) for v in (self.true_positives, self.false_positives, self.false_negatives))
        precision = tp / (tp + fp + EPSILON)
        recall = tp / (tp + fn + EPSILON)
        b2 = self.beta ** 2
        score = precision * recall / (b2 * precision + recall + EPSILON) * (1 + b2)
        if self.average == "weighted":
            weights = storage(self.intermediate_weights)
            score = torch.sum(score * (weights / (weights.sum() + EPSILON)))
        elif self.average is not None:
            score = torch.mean(score)
        return wrap(score)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """`2 * precision * recall / (precision + recall)` per class, optionally averaged."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config


class R2Score(Metric):
    """The coefficient of determination per output (optionally adjusted for `num_regressors`), averaged."""

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one of "
                             f"{valid}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value >= 0. "
                             f"Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable(shape=(), initializer="zeros", name="num_samples")
        self._built = False

    def _build(self, t, p):
        _check_2d("R2Score", t, p)
        n = p.shape[-1]
        self.squared_sum = self.add_variable(shape=(n,), initializer="zeros", name="squared_sum")
        self.sum = self.add_variable(shape=(n,), initializer="zeros", name="sum")
        self.total_mse = self.add_variable(shape=(n,), initializer="zeros", name="residual")
        self.count = self.add_variable(shape=(n,), initializer="zeros", name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        dtype = self._torch_dtype
        t, p = squeeze_or_expand_to_same_rank(_cast(y_true, dtype), _cast(y_pred, dtype))
        if not self._built:
            self._build(t, p)
        w = torch.ones((), dtype=dtype) if sample_weight is None else _cast(sample_weight, dtype)
        if w.ndim == 1:
            w = w.unsqueeze(1)
        w = broadcast_weights(w.to(t.device), t.shape)
        weighted = t * w
        _accumulate(self.sum, weighted.sum(0))
        _accumulate(self.squared_sum, (t * weighted).sum(0))
        _accumulate(self.total_mse, ((t - p) ** 2 * w).sum(0))
        _accumulate(self.count, w.sum(0))
        _accumulate(self.num_samples, torch.tensor(float(t.numel()), dtype=dtype))

    def result(self):
        total_sum, count = storage(self.sum), storage(self.count)
        mean = total_sum / count
        total = storage(self.squared_sum) - total_sum * mean
        raw = 1 - storage(self.total_mse) / total
        raw = torch.where(torch.isinf(raw), 0.0, raw)
        if self.class_aggregation == "uniform_average":
            score = raw.mean()
        elif self.class_aggregation == "variance_weighted_average":
            score = torch.sum(total * raw) / torch.sum(total)
        else:
            score = raw
        if self.num_regressors:
            n, k = float(storage(self.num_samples)), float(self.num_regressors)
            if k > n - 1:
                warnings.warn("More independent predictors than datapoints in adjusted R2 score. Falling back to "
                              "standard R2 score.", stacklevel=2)
            elif k == n - 1:
                warnings.warn("Division by zero in Adjusted R2 score. Falling back to standard R2 score.",
                              stacklevel=2)
            else:
                score = 1.0 - (1.0 - score) * (n - 1.0) / (n - k - 1.0)
        return wrap(score)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
