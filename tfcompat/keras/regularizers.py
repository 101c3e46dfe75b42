"""`tf.keras.regularizers` (Keras 3): weight penalties added to a layer's losses."""
import torch

from tfcompat.framework.op_def import input_storage, wrap


def _check_penalty(value, name):
    if value is None or not isinstance(value, (int, float)) or value != value or value < 0:
        raise ValueError(f"Value '{value}' is not a valid regularization penalty number, expected a non-negative "
                         f"float or int. Received: {name}={value}")


class Regularizer:
    """Base class: `regularizer(weights)` returns a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError(f"{self} does not implement get_config()")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1(Regularizer):
    """`l1 * sum(abs(x))`."""

    def __init__(self, l1=0.01):
        l1 = 0.01 if l1 is None else l1
        _check_penalty(l1, "l1")
        self.l1 = l1

    def __call__(self, x):
        return wrap(self.l1 * torch.sum(torch.abs(input_storage(x))))

    def get_config(self):
        return {"l1": float(self.l1)}


class L2(Regularizer):
    """`l2 * sum(square(x))`."""

    def __init__(self, l2=0.01):
        l2 = 0.01 if l2 is None else l2
        _check_penalty(l2, "l2")
        self.l2 = l2

    def __call__(self, x):
        return wrap(self.l2 * torch.sum(torch.square(input_storage(x))))

    def get_config(self):
        return {"l2": float(self.l2)}


class L1L2(Regularizer):
    """`l1 * sum(abs(x)) + l2 * sum(square(x))`."""

    def __init__(self, l1=0.0, l2=0.0):
        l1 = 0.0 if l1 is None else l1
        l2 = 0.0 if l2 is None else l2
        _check_penalty(l1, "l1")
        _check_penalty(l2, "l2")
        self.l1 = l1
        self.l2 = l2

    def __call__(self, x):
        t = input_storage(x)
        out = torch.zeros((), dtype=t.dtype, device=t.device)
        if self.l1:
            out = out + self.l1 * torch.sum(torch.abs(t))
        if self.l2:
            out = out + self.l2 * torch.sum(torch.square(t))
        return wrap(out)

    def get_config(self):
        return {"l1": float(self.l1), "l2": float(self.l2)}


class OrthogonalRegularizer(Regularizer):
    """Penalizes non-orthogonal rows (or columns) of a 2D kernel: `factor * mean(|offdiag(N N^T)|)`."""

    def __init__(self, factor=0.01, mode="rows"):
        _check_penalty(factor, "factor")
        if mode not in {"rows", "columns"}:
            raise ValueError(f"Invalid value for argument `mode`. Expected one of {{'rows', 'columns'}}. "
                             f"Received: mode={mode}")
        self.factor = factor
        self.mode = mode

    def __call__(self, inputs):
        t = input_storage(inputs)
        if t.ndim != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: inputs.shape="
                             f"{tuple(t.shape)}")
        if self.mode == "columns":
            t = t.T
        norm = torch.clamp_max(torch.rsqrt(torch.sum(torch.square(t), -1, keepdim=True)), 1e7)
        n = t * norm
        size = n.shape[0]
        product = torch.abs(n @ n.T)
        offdiag = torch.sum(product) - torch.sum(torch.diagonal(product))
        return wrap(self.factor * offdiag / (size * (size - 1)))

    def get_config(self):
        return {"factor": float(self.factor), "mode": self.mode}


l1 = L1
l2 = L2
l1_l2 = L1L2
orthogonal_regularizer = OrthogonalRegularizer
ALL_OBJECTS_DICT = {"Regularizer": Regularizer, "L1": L1, "L2": L2, "L1L2": L1L2,
                    "OrthogonalRegularizer": OrthogonalRegularizer, "l1": L1, "l2": L2, "l1_l2": L1L2,
                    "orthogonal_regularizer": OrthogonalRegularizer}


def serialize(regularizer):
    return {"module": "keras.regularizers", "class_name": type(regularizer).__name__,
            "config": regularizer.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    name = config if isinstance(config, str) else config["class_name"]
    cls = (custom_objects or {}).get(name) or ALL_OBJECTS_DICT.get(name)
    if cls is None:
        raise ValueError(f"Could not interpret regularizer identifier: {config}")
    return cls() if isinstance(config, str) else cls.from_config(config["config"])


def get(identifier):
    """A regularizer from a name (`"l2"`), a config dict or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize(identifier)
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
