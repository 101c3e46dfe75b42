"""`tf.keras.optimizers` (Keras 3): optimizers whose updates run as torch multi-tensor (`_foreach`) kernels."""
from tfcompat.keras.optimizers import legacy, schedules  # noqa: F401 - tf.keras.optimizers.legacy/.schedules
from tfcompat.keras.optimizers.adagrad import Adadelta, Adagrad
from tfcompat.keras.optimizers.adam import Adam, Adamax, AdamW, Nadam
from tfcompat.keras.optimizers.base import Optimizer
from tfcompat.keras.optimizers.ftrl import Ftrl
from tfcompat.keras.optimizers.lamb_adafactor import Adafactor, Lamb
from tfcompat.keras.optimizers.lion import Lion
from tfcompat.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer
from tfcompat.keras.optimizers.muon import Muon
from tfcompat.keras.optimizers.rmsprop import RMSprop
from tfcompat.keras.optimizers.schedule_free import ScheduleFreeAdamW
from tfcompat.keras.optimizers.sgd import SGD

_ALL = {c.__name__.lower(): c for c in (Optimizer, Adam, SGD, RMSprop, Adadelta, AdamW, Adagrad, Adamax, Nadam,
                                        Ftrl, Lion, LossScaleOptimizer, Adafactor, Muon,
                                        ScheduleFreeAdamW)}
_EXACT = {"Lamb": Lamb}        # Keras's public optimizers outside its get() table: found by exact class name


def serialize(optimizer):
    """The optimizer's config as Keras's serialized dict."""
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__,
            "config": optimizer.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """The optimizer a `serialize` dict describes (class names are case-insensitive for built-ins)."""
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _ALL.get(name.lower()) or _EXACT.get(name)
    if cls is None:
        raise ValueError(f"Could not interpret optimizer identifier: {config}")
    return cls.from_config(config.get("config", {}), custom_objects=custom_objects)


def get(identifier):
    """An optimizer from a name (`"adam"`), a config dict or an optimizer instance."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        if identifier.lower() not in _ALL:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
        obj = deserialize({"class_name": identifier, "config": {}})
    else:
        obj = identifier
    if isinstance(obj, Optimizer):
        return obj
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("keras.optimizers", attr)
