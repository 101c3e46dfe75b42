"""`tf.keras.metrics`' intersection-over-union family (Keras 3): a confusion matrix accumulated in the metric's
dtype (int64 unless given: float weights truncate, with Keras's warning), IoU of the target classes."""
import warnings

import torch

from tfcompat.framework import errors
from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.framework.tensor import storage
from tfcompat.keras.metrics import EPSILON, Metric, _cast, broadcast_weights


class IoU(Metric):
    """Mean IoU (`tp / (tp + fp + fn)`) of `target_class_ids`, classes absent from both sides left out."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype=dtype or "int64")
        self.num_classes, self.ignore_class, self.axis = num_classes, ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.total_cm = self.add_variable(shape=(num_classes, num_classes), initializer="zeros",
                                          name="total_confusion_matrix")
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def update_state(self, y_true, y_pred, sample_weight=None):
        dtype = self._torch_dtype
        t, p = input_storage(y_true), input_storage(y_pred)
        if not self.sparse_y_true:
            t = torch.argmax(t, self.axis)
        if not self.sparse_y_pred:
            p = torch.argmax(p, self.axis)
        t, p = _cast(t, dtype).reshape(-1), _cast(p, dtype).reshape(-1)
        if t.shape != p.shape:      # Keras's validity mask (`logical_and` of both sides' range checks) fails first
            raise errors.op_error(errors.InvalidArgumentError, "{{function_node __wrapped__LogicalAnd_device_/job:"
                                  "localhost/replica:0/task:0/device:CPU:0}} Incompatible shapes: "
                                  f"[{t.shape[0]}] vs. [{p.shape[0]}]", "LogicalAnd")
        if sample_weight is None:
            w = torch.ones((), dtype=dtype)
        else:
            w = input_storage(sample_weight)
            if "float" in str(getattr(sample_weight, "dtype", "")) and not dtype.is_floating_point:  # as Keras
                warnings.warn("You are passing weight as `float`, but dtype is `int`. This may result in an incorrect "
                              "weight due to type casting Consider using integer weights.", stacklevel=2)
            w = _cast(w, dtype).reshape(-1)
        w = broadcast_weights(w.to(t.device), t.shape)
        n = self.num_classes
        keep = (t >= 0) & (t < n) & (p >= 0) & (p < n)        # Keras drops ids outside [0, num_classes)
        if self.ignore_class is not None:
            keep &= t != self.ignore_class
        t, p = torch.where(keep, t, 0).long(), torch.where(keep, p, 0).long()
        w = torch.where(keep, w, 0)
        cm = torch.zeros(n * n, dtype=dtype, device=t.device).index_add_(0, t * n + p, w).reshape(n, n)
        total = storage(self.total_cm)
        self.total_cm._set_storage(total + cm.to(total.device))

    def result(self):
        cm = storage(self.total_cm)
        tp = torch.diagonal(cm)
        denominator = cm.sum(0) + cm.sum(1) - tp
        ids = torch.tensor(self.target_class_ids, device=cm.device)
        tp, denominator = tp[ids].to(torch.float32), denominator[ids].to(torch.float32)
        valid = denominator > 1e-9
        iou = torch.where(valid, tp / (denominator + EPSILON), 0.0)
        return wrap(iou.sum(self.axis) / (valid.to(torch.float32).sum() + EPSILON))

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class BinaryIoU(IoU):
    """IoU of classes 0 and/or 1, predictions thresholded (`>= threshold` is class 1)."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        p = (_cast(y_pred, torch.float32) >= self.threshold).to(self._torch_dtype)
        super().update_state(_cast(y_true, self._torch_dtype), p, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold, "name": self.name,
                "dtype": self.dtype}


class MeanIoU(IoU):
    """Mean IoU over every class present."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype,
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class OneHotIoU(IoU):
    """`IoU` of one-hot labels (and, unless `sparse_y_pred`, predictions): the argmax over `axis` is the class."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None, sparse_y_pred=False,
                 axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids, "name": self.name,
                "dtype": self.dtype, "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class OneHotMeanIoU(MeanIoU):
    """`MeanIoU` of one-hot labels (and, unless `sparse_y_pred`, predictions)."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}
