"""`keras.Model`: a Layer with the training API; `Model(inputs, outputs)` builds a Functional model."""
from tfcompat.framework.export import unsupported_args
from tfcompat.keras.engine import naming
from tfcompat.keras.engine.trainer import Trainer
from tfcompat.keras.layers.base import Layer


def _functional_arguments(args, kwargs):
    return len(args) >= 2 or "inputs" in kwargs or "outputs" in kwargs or (len(args) == 1 and "outputs" in kwargs)


_FUNCTIONAL_SUBCLASSES = {}


def _functional_subclass(cls):
    """`cls` with Functional's graph machinery mixed in (Keras 3's inject_functional_model_class)."""
    sub = _FUNCTIONAL_SUBCLASSES.get(cls)
    if sub is None:
        from tfcompat.keras.models.functional import Functional
        sub = type(cls.__name__, (cls, Functional), {"__module__": cls.__module__, "__qualname__": cls.__qualname__})
        _FUNCTIONAL_SUBCLASSES[cls] = sub
    return sub


class Model(Trainer, Layer):
    """Keras 3's `Model`: subclass it (define `call`), or call it with `inputs`/`outputs` (functional)."""

    def __new__(cls, *args, **kwargs):
        if cls is Model and (len(args) >= 2 or "inputs" in kwargs or "outputs" in kwargs):
            from tfcompat.keras.models.functional import Functional
            return Functional.__new__(Functional, *args, **kwargs)
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        if _functional_arguments(args, kwargs):
            # a Model subclass built functionally (`CustomModel(inputs, outputs)`): as Keras 3, the object
            # becomes a Functional model that keeps the subclass's methods (train_step, ...)
            from tfcompat.keras.models.functional import Functional
            if not isinstance(self, Functional):
                self.__class__ = _functional_subclass(type(self))
            Functional.__init__(self, *args, **kwargs)
            return
        trainable = kwargs.pop("trainable", True)
        name = kwargs.pop("name", None)
        dtype = kwargs.pop("dtype", None)
        if args:
            raise TypeError(f"Layer.__init__() takes 1 positional argument but {len(args) + 1} were given")
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")
        if name is None:
            name = naming.unique_name(naming.to_snake_case(type(self).__name__))
        super().__init__(trainable=trainable, name=name, dtype=dtype)

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` method implemented.")

    # Keras 3 gives only models a `layers` list (a plain layer may use the name for its own attribute)
    @property
    def layers(self):
        return list(self._layers)

    @layers.setter
    def layers(self, _):
        raise AttributeError("`Model.layers` attribute is reserved and should not be used. Please use another name.")

    def get_layer(self, name=None, index=None):
        if index is not None:
            if name is not None:
                raise ValueError("Provide only a layer name or a layer index. Received: "
                                 f"index={index}, name={name}.")
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[l.name for l in self.layers]}.")


# -- saving (tfcompat.keras.saving) --
def _model_save(self, filepath, overwrite=True, zipped=None, **kwargs):
    """Saves the model as a Keras 3 `.keras` zip (config, metadata and weights)."""
    from tfcompat.keras.saving import save_model
    return save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)


@unsupported_args("max_shard_size", api_name="Model.save_weights")
def _model_save_weights(self, filepath, overwrite=True, max_shard_size=None):
    """Saves the weights in Keras 3's `.weights.h5` layout."""
    from tfcompat.keras.saving import save_weights
    return save_weights(self, filepath, overwrite=overwrite, max_shard_size=max_shard_size)


def _model_load_weights(self, filepath, skip_mismatch=False, **kwargs):
    """Loads weights from a `.weights.h5`, `.keras` or legacy `.h5` file (returns None, as Keras 3)."""
    from tfcompat.keras.saving import load_weights
    return load_weights(self, filepath, skip_mismatch=skip_mismatch, **kwargs)


def _model_to_json(self, **kwargs):
    """The model's Keras 3 config as JSON text."""
    from tfcompat.keras.saving import model_to_json
    return model_to_json(self, **kwargs)


def _model_export(self, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs):  # noqa: A002
    """Exports the model's inference pass as a SavedModel with a `serve` endpoint (`format="tf_saved_model"`)."""
    formats = ("tf_saved_model", "onnx", "openvino", "litert", "torch")
    if format not in formats:
        raise ValueError(f"Unrecognized format={format}. Supported formats are: {list(formats)}.")
    if format == "torch":
        raise ValueError("Torch export requires PyTorch backend.")
    if format != "tf_saved_model":
        raise NotImplementedError(f"Model.export(format={format!r}) is not supported by tfcompat")
    from tfcompat.keras.export import export_saved_model
    export_saved_model(self, filepath, verbose, input_signature=input_signature, **kwargs)


def _model_get_config(self):
    """Functional models: Keras 3's graph config; other models: the layer config."""
    from tfcompat.keras.models.functional import Functional
    if isinstance(self, Functional):
        from tfcompat.keras.saving.model_config import functional_get_config
        return functional_get_config(self)
    return Layer.get_config(self)


def _model_get_compile_config(self):
    """Keras 3: the serialized `compile()` arguments ({} when never compiled)."""
    from tfcompat.keras.saving.model_config import compile_config
    return compile_config(self)


def _model_compile_from_config(self, config):
    """Keras 3: compiles the model from a `get_compile_config()` dict."""
    from tfcompat.keras.saving.model_config import compile_from_config
    compile_from_config(self, config)


def _model_build_from_config(self, config):
    """Keras 3: a Sequential builds its stack, a subclassed model runs on zeros of the saved input shape."""
    from tfcompat.keras.saving.model_config import build_from_config
    build_from_config(self, config)


def _model_from_config(cls, config, custom_objects=None):
    """Rebuilds a model from `get_config()` (Sequential stack, functional graph, or `cls(**config)`)."""
    from tfcompat.keras.saving.model_config import model_from_config
    return model_from_config(cls, config, custom_objects)


Model.save = _model_save
Model.export = _model_export
Model.save_weights = _model_save_weights
Model.load_weights = _model_load_weights
Model.to_json = _model_to_json
for _method in (_model_save, _model_export, _model_save_weights, _model_save_weights.__wrapped__, _model_load_weights,
                _model_from_config, _model_to_json, _model_get_config, _model_build_from_config):
    _method.__qualname__ = "Model." + _method.__name__[len("_model_"):]     # Python's TypeError text names it
del _method
_model_get_config._keras_auto_config = True          # a subclassed Model without get_config: Keras's auto config
Model.get_config = _model_get_config
Model.from_config = classmethod(_model_from_config)
Model.get_compile_config = _model_get_compile_config
Model.compile_from_config = _model_compile_from_config
Model.build_from_config = _model_build_from_config
