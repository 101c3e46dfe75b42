"""Keras's `_symbolic_build` for `fit`/`evaluate`: an unbuilt model is first run on KerasTensors of the data's spec,
so its layers record the spec's shapes (batch dimension None unless every batch has the same size): what
`summary()`, `get_build_config()` and a saved model's signature show. Sequential models take the spec's batch
dimension themselves (`Sequential._build_on_spec`); a generator's spec is that of the batches Keras peeks at."""
from tfcompat.framework import dtypes
from tfcompat.framework.tensor import Tensor
from tfcompat.keras._config import config, uid_lock
from tfcompat.util import nest

_KERAS_TENSOR = "keras_tensor"     # KerasTensors' auto-name prefix


def _x_of(structure):
    """`x` of a data element, as Keras's `unpack_x_y_sample_weight`."""
    if isinstance(structure, tuple) and 1 <= len(structure) <= 3:
        return structure[0]
    return structure


def x_spec(iterator):
    """KerasTensors of `x`'s spec for an `EpochIterator`, or None when it has none (a generator, ragged or sparse
    data)."""
    from tfcompat.keras.engine.functional import _inference_input
    batch = iterator.spec_batch_size
    arrays = getattr(iterator, "_arrays", None)
    if arrays is not None:
        def from_array(a):
            dtype = dtypes.FROM_STORAGE.get(getattr(a, "dtype", None))
            if dtype is None or dtype == dtypes.string:
                raise TypeError("no spec")
            return _inference_input((batch,) + tuple(int(d) for d in a.shape[1:]), dtype.name)
        x = arrays[0]
    elif getattr(iterator, "_peeked", None):        # a generator: Keras's spec of the batches it peeked at
        return _peeked_spec([_x_of(b) for b in iterator._peeked])
    else:
        spec = getattr(getattr(iterator, "_source", None), "element_spec", None)
        if spec is None:
            return None
        x = _x_of(spec)

        def from_array(s):
            if type(s).__name__ != "TensorSpec" or s.shape.rank is None or s.dtype == dtypes.string:
                raise TypeError("no spec")
            return _inference_input(tuple(s.shape.as_list()), s.dtype.name)
    try:
        return nest.map_structure(from_array, x)
    except TypeError:
        return None


def _peeked_spec(batches):
    """KerasTensors of the common shape of a generator's first batches (a dimension they disagree on, and the batch
    dimension, None), as Keras's `get_tensor_spec`; None for data it cannot describe (strings, sparse, ragged)."""
    import numpy as np
    from tfcompat.keras.backend import standardize_dtype
    from tfcompat.keras.engine.functional import _inference_input

    def leaf(*arrays):
        shapes = [tuple(getattr(a, "shape", np.shape(a))) for a in arrays]
        if not shapes[0] or any(len(s) != len(shapes[0]) for s in shapes):
            raise TypeError("no spec")
        dtype = standardize_dtype(getattr(arrays[0], "dtype", np.asarray(arrays[0]).dtype))
        if dtype == "string" or not isinstance(arrays[0], (np.ndarray, Tensor)):
            raise TypeError("no spec")
        shape = [None] + [d[0] if len(set(d)) == 1 else None for d in list(zip(*shapes))[1:]]
        return _inference_input(tuple(shape), dtype)
    try:
        return nest.map_structure(leaf, *batches)
    except (TypeError, ValueError):
        return None


def build_on_spec(model, iterator):
    """Builds an unbuilt subclassed `model` on `iterator`'s data spec, as Keras does before the first step; a model
    whose call cannot run symbolically keeps building on its first batch."""
    if model.built:
        return
    try:
        spec = x_spec(iterator)
        if spec is None or any(isinstance(s, Tensor) for s in nest.flatten(spec)):
            return
        # Keras runs the call on backend placeholders: only the spec's inputs are KerasTensors, so of this symbolic
        # run's tensors only those take KerasTensor names (later auto-names stay Keras's: `keras_tensor_5`, not _7)
        with uid_lock:
            named = config.uids.get(_KERAS_TENSOR, 0) + len(nest.flatten(spec))
        try:
            model.compute_output_spec(spec, training=False)
        finally:
            with uid_lock:
                config.uids[_KERAS_TENSOR] = named
    except Exception:  # noqa: BLE001 - tfcompat builds such a model on its first batch instead
        return
