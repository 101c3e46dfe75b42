"""tf.keras's legacy layers (Keras 3's `keras._legacy.layers`, which TF 2.21's `tf.keras.layers` exports):
AlphaDropout and ThresholdedReLU. Keras writes them with module `keras._legacy.layers` (saving_utils maps this
module there), so real Keras loads the `.keras` files that hold them."""
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer


class ThresholdedReLU(Layer):
    """`x` where `x > theta`, else 0 (tf.keras's legacy layer)."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError(f"Theta of a Thresholded ReLU layer cannot be None, expecting a float. Received: {theta}")
        if theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. Received: {theta}")
        self.theta = float(theta)
        self.supports_masking = True

    def call(self, inputs):
        x = input_storage(inputs)
        return _wrap(x * (x > self.theta).to(x.dtype))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "theta": self.theta}


class AlphaDropout(Layer):
    """Dropout that keeps SELU's self-normalizing mean and variance: dropped units become `-alpha * scale`,
    then the whole output is affinely rescaled (Keras's `a * x + b`)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)      # tf.keras's (legacy) layer: `rate` unchecked, no noise_shape in the config
        self.rate, self.seed, self.noise_shape = rate, seed, noise_shape
        if rate > 0:    # Keras 3's SeedGenerator (seeded from Python's random when None): TF's draws
            from tfcompat.keras.random import SeedGenerator
            self._seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.rate <= 0:
            return inputs
        x = input_storage(inputs)
        shape = x.shape if self.noise_shape is None else tuple(
            x.shape[i] if d is None else d for i, d in enumerate(self.noise_shape))
        alpha_p = -1.6732632423543772848170429916717 * 1.0507009873554804934193349852946
        from tfcompat.framework.tensor import storage
        from tfcompat.keras import random as krandom
        kept = (storage(krandom.uniform(tuple(shape), seed=self._seed_generator)).to(x.device) >= self.rate).to(x.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return _wrap(a * (x * kept + alpha_p * (1 - kept)) + b)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}
