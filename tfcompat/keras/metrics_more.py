"""`keras.metrics`' value-at-constraint metrics (PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity,
SpecificityAtSensitivity) and the correlation metrics (PearsonCorrelation, ConcordanceCorrelation), as Keras 3."""
import torch

from tfcompat.framework.op_def import wrap
from tfcompat.framework.tensor import storage
from tfcompat.keras.losses import squeeze_or_expand_to_same_rank
from tfcompat.keras.metrics import (EPSILON, MeanMetricWrapper, Metric, _cast, _confusion_update, _divide_no_nan,
                                    _metric_function)


class SensitivitySpecificityBase(Metric):
    """Confusion counts at `num_thresholds` thresholds evenly spread over [0, 1] (predictions clipped to [0, 1], as
    Keras's bucketed update); `result` is the best dependent value where the constrained one reaches `value`."""

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. Received: num_thresholds={num_thresholds}")
        self.value = value
        self.class_id = class_id
        if num_thresholds == 1:
            self.thresholds = [0.5]
            self._evenly = False
        else:
            self.thresholds = [0.0] + [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0]
            self._evenly = True
        for n in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, n, self.add_variable(shape=(len(self.thresholds),), initializer="zeros", name=n))

    def update_state(self, y_true, y_pred, sample_weight=None):
        p = _cast(y_pred, torch.float32)
        if self._evenly:
            p = torch.clamp(p, 0.0, 1.0)
        if self.class_id is not None and p.ndim == 1:
            raise ValueError("When class_id is provided, y_pred must be a 2D array with shape (num_samples, "
                             f"num_classes), found shape: {tuple(p.shape)}")
        _confusion_update({"tp": self.true_positives, "fp": self.false_positives, "tn": self.true_negatives,
                           "fn": self.false_negatives}, y_true, wrap(p), self.thresholds, sample_weight,
                          self.class_id)

    def _rates(self):
        tp, fp = storage(self.true_positives), storage(self.false_positives)
        tn, fn = storage(self.true_negatives), storage(self.false_negatives)
        return {"recall": _divide_no_nan(tp, tp + fn), "precision": _divide_no_nan(tp, tp + fp),
                "specificity": _divide_no_nan(tn, tn + fp)}

    def _best(self, constrained, dependent):
        rates = self._rates()
        feasible = rates[constrained] >= self.value
        return wrap(torch.clamp_min(torch.where(feasible, rates[dependent], 0.0).max(), 0.0))

    def get_config(self):
        config = super().get_config()
        config.update({"class_id": self.class_id})
        return config


def _check_range(arg, value):
    if value < 0 or value > 1:
        raise ValueError(f"Argument `{arg}` must be in the range [0, 1]. Received: {arg}={value}")


class SensitivityAtSpecificity(SensitivitySpecificityBase):
    """The best sensitivity (recall) where specificity >= `specificity`."""

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        _check_range("specificity", specificity)
        self.specificity, self.num_thresholds = specificity, num_thresholds
        super().__init__(specificity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        return self._best("specificity", "recall")

    def get_config(self):
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "specificity": self.specificity}


class SpecificityAtSensitivity(SensitivitySpecificityBase):
    """The best specificity where sensitivity (recall) >= `sensitivity`."""

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        _check_range("sensitivity", sensitivity)
        self.sensitivity, self.num_thresholds = sensitivity, num_thresholds
        super().__init__(sensitivity, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        return self._best("recall", "specificity")

    def get_config(self):
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "sensitivity": self.sensitivity}


class PrecisionAtRecall(SensitivitySpecificityBase):
    """The best precision where recall >= `recall`."""

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        _check_range("recall", recall)
        self.recall, self.num_thresholds = recall, num_thresholds
        super().__init__(recall, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        return self._best("recall", "precision")

    def get_config(self):
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "recall": self.recall}


class RecallAtPrecision(SensitivitySpecificityBase):
    """The best recall where precision >= `precision`."""

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        _check_range("precision", precision)
        self.precision, self.num_thresholds = precision, num_thresholds
        super().__init__(precision, num_thresholds=num_thresholds, class_id=class_id, name=name, dtype=dtype)

    def result(self):
        return self._best("precision", "recall")

    def get_config(self):
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "precision": self.precision}


# -- correlations ---------------------------------------------------------------------------------------------

def _pair(t, p):
    p = p if p.is_floating_point() else p.to(torch.float32)
    return squeeze_or_expand_to_same_rank(t.to(p.dtype), p)


def _pearson(t, p, axis=-1):
    t, p = _pair(t, p)
    tn = t - t.mean(axis, keepdim=True)
    pn = p - p.mean(axis, keepdim=True)
    tn = tn / tn.std(axis, correction=0, keepdim=True)
    pn = pn / pn.std(axis, correction=0, keepdim=True)
    return (tn * pn).mean(axis), None


def _concordance(t, p, axis=-1):
    t, p = _pair(t, p)
    t_mean = t.mean(axis, keepdim=True)
    p_mean = p.mean(axis, keepdim=True)
    t_var = (t - t_mean).var(axis, correction=0, keepdim=True)
    p_var = (p - p_mean).var(axis, correction=0, keepdim=True)
    covar = (t - p_mean) * (p - p_mean)          # Keras centres y_true on y_pred's mean
    norm = t_var + p_var + torch.square(t_mean - p_mean)
    return (2 * covar / (norm + EPSILON)).mean(axis), None


pearson_correlation = _metric_function(_pearson, "pearson_correlation", "Pearson's r of y_true and y_pred along `axis`.")
concordance_correlation = _metric_function(_concordance, "concordance_correlation",
                                           "Lin's concordance correlation of y_true and y_pred along `axis`.")


class PearsonCorrelation(MeanMetricWrapper):
    """The mean Pearson correlation of `y_true` and `y_pred` along `axis` over the samples seen."""

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean concordance correlation of `y_true` and `y_pred` along `axis` over the samples seen."""

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


CLASSES = (SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision,
           PearsonCorrelation, ConcordanceCorrelation)
