"""`tf.keras.optimizers.legacy`: names kept by Keras 3 that raise on use (Keras 2 optimizers are gone)."""


class _LegacyOptimizer:
    def __init__(self, *args, **kwargs):
        raise ImportError(
            "`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to continue using a "
            "`tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` package (Keras 2) and set the "
            "environment variable `TF_USE_LEGACY_KERAS=True` to configure TensorFlow to use `tf_keras` when "
            "accessing `tf.keras`.")


Adagrad = Adam = Ftrl = Optimizer = RMSprop = SGD = _LegacyOptimizer
