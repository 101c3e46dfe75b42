"""`tf.compat.v1.initializers`: TF1's initializer namespace (TF1's `init_ops` classes and the variable initializer
ops), not TF2's Keras `tf.initializers`."""
from tfcompat.compat.v1.init_ops_v1 import (GlorotNormal as glorot_normal, GlorotUniform as glorot_uniform,  # noqa: F401
                                            RandomNormal as random_normal, RandomUniform as random_uniform,
                                            TruncatedNormal as truncated_normal, VarianceScaling as variance_scaling,
                                            he_normal, he_uniform, lecun_normal, lecun_uniform)
from tfcompat.framework.errors import NotImplementedYet
from tfcompat.compat.v1.session import (global_variables_initializer as global_variables,  # noqa: F401
                                        local_variables_initializer as local_variables,
                                        variables_initializer as variables)
from tfcompat.compat.v1.variable_scope import (constant_initializer as constant,  # noqa: F401
                                               ones_initializer as ones, zeros_initializer as zeros)

_MISSING = {"identity", "orthogonal", "uniform_unit_scaling", "tables_initializer"}


def __getattr__(attr):
    if attr in _MISSING:
        raise NotImplementedYet(f"tf.compat.v1.initializers.{attr} is not implemented in tfcompat yet")
    raise AttributeError(f"module 'tensorflow.compat.v1.initializers' has no attribute '{attr}'")
