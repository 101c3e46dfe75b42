"""`tf.init_scope`: the eager-layer context that lifts code out of a `tf.function` trace."""
from tfcompat.eager.function import init_scope_context
from tfcompat.framework.export import tf_export


@tf_export("init_scope")
def init_scope():
    """A context lifting code out of tf.function traces (eagerly: ops inside it are not recorded)."""
    return init_scope_context()
