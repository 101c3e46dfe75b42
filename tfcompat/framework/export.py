"""The registry of TF API names tfcompat implements.

`@tf_export("math.add", "add")` records an object under TF's public names
(`tf.math.add`, `tf.add`); `tfcompat/__init__.py` builds the op namespaces from
it and `tools/compat_matrix.py` reads it. `partial="..."` marks an object that
implements only part of TF's API and says what is missing.
"""

EXPORTS = {}     # "math.add" -> object (names without the leading "tf.")


def tf_export(*names, partial=None):
    def register(obj):
        for name in names:
            EXPORTS[name] = obj
        if partial is not None:
            try:
                obj._tf_partial = partial
            except (AttributeError, TypeError):
                PARTIAL[id(obj)] = partial
        return obj
    return register


PARTIAL = {}     # id(obj) -> note, for objects that take no attributes


def partial_note(obj):
    """What is missing from `obj`, or None if it is complete."""
    return getattr(obj, "_tf_partial", None) or PARTIAL.get(id(obj))
