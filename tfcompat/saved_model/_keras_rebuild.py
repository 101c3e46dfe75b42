"""The load side of a saved Keras model's `keras` entry: the model rebuilt from its config (Keras's own classes only,
as `keras.saving.load_model` with `safe_mode=True` would), holding the loaded variables, which runs the calls whose
input shapes no saved program was traced for (TF's graph runs any batch size of the signature)."""
from tfcompat.framework.tensor import storage
from tfcompat.saved_model._keras import _built_in
from tfcompat.saved_model._validate import bad, expect, refused

_KEYS = {"config", "variables", "calls"}


def rebuild(entry, variables):
    """(model, names of the functions and "signature:<name>"s that call it); `variables` gets the model's own
    variable objects, holding the loaded values, in place of the loaded ones."""
    if not isinstance(entry, dict) or set(entry) != _KEYS or not isinstance(entry["config"], dict):
        raise bad("keras", "bad keras entry")
    indices = expect(entry["variables"], list, "keras", "variables")
    calls = expect(entry["calls"], list, "keras", "calls")
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(variables) for i in indices) or \
            len(set(indices)) != len(indices) or not all(isinstance(c, str) for c in calls):
        raise bad("keras", "bad variable index or call name")
    if not _built_in(entry["config"]):
        raise refused("keras", "the model config names classes that are not Keras's own")
    from tfcompat.keras.saving_utils import deserialize_keras_object
    try:
        model = deserialize_keras_object(entry["config"], safe_mode=True)
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        raise bad("keras", f"the model config does not load: {type(e).__name__}: {str(e)[:200]}") from None
    own = list(model.variables)
    if len(own) != len(indices):
        raise bad("keras", f"the model has {len(own)} variables, the entry lists {len(indices)}")
    for v, i in zip(own, indices):
        loaded = variables[i]
        if tuple(v.shape) != tuple(loaded.shape) or v.dtype != loaded.dtype:
            raise bad("keras", f"variable {v.name}: saved {loaded.shape} {loaded.dtype}, the model's is {v.shape} "
                               f"{v.dtype}")
    for v, i in zip(own, indices):
        v._set_storage(storage(variables[i]))
        variables[i] = v
    return model, calls
