"""What Keras 3's image preprocessing layers share (`BaseImagePreprocessingLayer`): factor and value-range checks,
rank checks, the seeded draws, the batched/unbatched call that is identity unless `training`, dict inputs.

Uniform and normal draws come from a Keras `SeedGenerator` (seeded by `seed`, else by Python's `random` as Keras's
make_default_seed) through TF's stateless Philox (`tfcompat.keras.random`): a layer drawing with Keras's shapes,
bounds and order gives Keras's own numbers. Permutations and the Beta/gamma sampler use a torch generator seeded
alike (Keras's distributions, not its numbers)."""
import random as py_random

import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _check_image_args

RANK_PLAIN = "Expected the input image to be rank 3 or 4. Received inputs.shape={}"
RANK_COLON = "Expected the input image to be rank 3 or 4. Received: inputs.shape={}"
RANK_BASE = "Expected image tensor to have rank 3 (single image) or 4 (batch of images). Received: data.shape={}"
VALUE_RANGE_ERROR = "The `value_range` argument should be a list of two numbers. "
GRAY_WEIGHTS = (0.2989, 0.587, 0.114)      # Keras's rgb_to_grayscale


def shape_text(shape):
    return str(tuple(int(d) for d in shape))


def factor_range(factor, bounds):
    """Keras's `_set_factor`: a number f in `bounds` gives `(max(-|f|, low), |f|)`; a pair overlapping `bounds`
    gives itself sorted."""
    error = ("The `factor` argument should be a number (or a list of two numbers) in the range "
             f"[{bounds[0]}, {bounds[1]}]. Received: factor={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(error)
        lower, upper = sorted(factor)
        return lower, upper
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(error)
        factor = abs(factor)
        return max(-factor, bounds[0]), factor
    raise ValueError(error)


def checked_factor(factor, name, error, out_of_range, single):
    """Keras's per-layer `_set_factor` checks: each end for which `out_of_range(v)` holds raises `error` naming the
    number; a pair comes back sorted, one number `f` as `single(f)`; anything else raises `error` naming `name`."""
    def check(v):
        if out_of_range(v):
            raise ValueError(error + f"Received: input_number={v}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(error + f"Received: {name}={factor}")
        check(factor[0])
        check(factor[1])
        lower, upper = sorted(factor)
        return lower, upper
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        check(factor)
        return single(factor)
    raise ValueError(error + f"Received: {name}={factor}")


def symmetric(f):
    """A single factor `f` as the range (-|f|, |f|)."""
    return -abs(f), abs(f)


def value_range_checked(value_range):
    """Keras's `_set_value_range`: a list or tuple of two numbers, kept sorted (as a list)."""
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(VALUE_RANGE_ERROR + f"Received: value_range={value_range}")
    return sorted(value_range)


def rescale(x, source, target):
    """Keras's `_transform_value_range`: `x` mapped linearly from `source` onto `target` (unchanged if equal)."""
    if source[0] == target[0] and source[1] == target[1]:
        return x
    lo, hi = float(source[0]), float(source[1])
    return (x - lo) / (hi - lo) * (float(target[1]) - float(target[0])) + float(target[0])


def grayscale(x):
    """Keras's rgb_to_grayscale of NHWC `x`: one channel (a 1-channel image is returned as is), input dtype."""
    if x.shape[-1] == 1:
        return x
    if x.shape[-1] != 3:
        raise ValueError("Invalid channel size: expected 3 (RGB) or 1 (Grayscale). Received input with shape: "
                         f"images.shape={shape_text(x.shape)}")
    f = x if x.is_floating_point() else x.to(torch.float32)
    w = torch.tensor(GRAY_WEIGHTS, dtype=f.dtype, device=f.device)
    g = (f * w).sum(-1, keepdim=True)
    return g if g.dtype is x.dtype else cast_like_tf(g, x.dtype)


def gen_of(layer, device):
    """`layer`'s torch generator (see ImageAugmentLayer._gen); `share_generator(owner, parts)` redirects parts."""
    owner = layer.__dict__.get("_rng_owner")
    if owner is not None:
        return gen_of(owner, device)
    if layer._generator is None:
        layer._generator = torch.Generator(device=device)
        layer._generator.manual_seed(layer._seed_value)
    return layer._generator


def seed_generator_of(layer):
    owner = layer.__dict__.get("_rng_owner")
    if owner is not None:
        return seed_generator_of(owner)
    generator = layer.__dict__.get("_keras_seed_generator")
    if generator is None:           # kept out of the tracked attributes: Keras lists it in no weights
        from tfcompat.keras.random import SeedGenerator
        generator = layer.__dict__["_keras_seed_generator"] = SeedGenerator(layer._seed_value)
    return generator


def share_generator(owner, parts):
    for part in parts:
        part.__dict__["_rng_owner"] = owner         # not a tracked attribute: no layer cycle


def cast_like_tf(t, dtype):
    """`tf.cast` of float storage `t` to `dtype` (an integer dtype wraps as TF's static_cast)."""
    if dtype.is_floating_point or t.dtype is dtype:
        return t.to(dtype)
    from tfcompat.ops import math_ops
    from tfcompat.framework.dtypes import FROM_STORAGE
    from tfcompat.framework.tensor import storage
    return storage(math_ops.cast(_wrap(t), FROM_STORAGE[dtype]))


class ImageAugmentLayer(Layer):
    """Base of the image preprocessing layers: NHWC images of rank 3 or 4; `_augment(x)` (rank 4) when training,
    `_inference(x)` otherwise (identity; the input cast to the compute dtype where Keras casts)."""
    _allow_non_tensor_positional_args = True      # a Keras data layer
    _RANK_ERROR = RANK_BASE
    _CAST_AT_INFERENCE = False
    _KEEPS_DTYPE = False          # Keras's output spec keeps the input dtype (else: the compute dtype)

    _COLOR_ONLY = True            # segmentation masks pass through unchanged (a colour transform)

    def __init__(self, seed=None, data_format=None, bounding_box_format=None, **kwargs):
        super().__init__(**kwargs)
        _check_image_args(data_format, type(self).__name__)
        self.data_format = "channels_last"
        self.bounding_box_format = bounding_box_format
        self.seed = seed
        self._generator = None
        # as Keras's SeedGenerator: no seed takes one from Python's `random` (keras.utils.set_random_seed fixes it)
        self._seed_value = seed if seed is not None else py_random.randint(1, int(1e9))

    # -- randomness ---------------------------------------------------------------------------------------------
    def _gen(self, device):
        """The torch generator this layer draws from: its own (seeded on first use), or its owner's for the parts
        of RandomColorJitter / RandAugment / AugMix (Keras draws their parts' numbers from the owner's seed
        generator: parts made with one seed must not repeat each other's draws)."""
        return gen_of(self, device)

    def _seed_generator(self):
        """The Keras SeedGenerator this layer's uniform and normal draws come from (its owner's for the parts of
        RandomColorJitter / RandAugment / AugMix): TF's stateless Philox numbers, so that a draw made with Keras's
        shape, bounds and order equals Keras's own."""
        return seed_generator_of(self)

    def _rand(self, shape, device):
        return self._uniform(shape, 0.0, 1.0, device)

    def _normal(self, shape, device):
        from tfcompat.keras import random as krandom
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        return storage(krandom.normal(shape, seed=self._seed_generator())).to(device)

    def _gamma(self, alpha, shape, device, proposals=16, advance=True):
        """Gamma(alpha) draws (float64) from the layer's torch generator with tensor ops only (no host read, so that
        a traced step replays them): Marsaglia-Tsang, the first of `proposals` accepted candidates (all fail with
        probability < 0.05 ** proposals); alpha < 1 through Gamma(alpha + 1) * U ** (1 / alpha). The seed generator
        advances by Keras's one draw (`advance`), so that later draws stay Keras's numbers."""
        if advance:
            self._seed_generator().next()
        gen = self._gen(device)
        alpha = torch.as_tensor(alpha, dtype=torch.float64, device=device)
        boost = alpha < 1
        d = torch.where(boost, alpha + 1, alpha) - 1.0 / 3.0
        c = 1.0 / torch.sqrt(9.0 * d)
        z = torch.randn((*shape, proposals), generator=gen, device=device, dtype=torch.float64)
        u = torch.rand((*shape, proposals), generator=gen, device=device, dtype=torch.float64)
        v = (1 + c * z) ** 3
        accept = (v > 0) & (torch.log(u) < 0.5 * z * z + d - d * v + d * torch.log(v.clamp_min(1e-300)))
        first = accept.to(torch.float32).argmax(-1, keepdim=True)
        g = (d * v.clamp_min(0)).gather(-1, first).squeeze(-1)
        boost_u = torch.rand(shape, generator=gen, device=device, dtype=torch.float64)
        return g * torch.where(boost, boost_u ** (1.0 / alpha), torch.ones_like(g))

    def _beta(self, a, b, shape, device):
        """Beta(a, b) draws (float64) as Gamma(a) / (Gamma(a) + Gamma(b)), one seed-generator draw as Keras's beta;
        both underflowing (a tiny alpha) gives 0 or 1 evenly, Beta's limit."""
        self._seed_generator().next()
        ga, gb = self._gamma(a, shape, device, advance=False), self._gamma(b, shape, device, advance=False)
        total = ga + gb
        coin = (torch.rand(shape, generator=self._gen(device), device=device) < 0.5).double()
        return torch.where(total > 0, ga / torch.where(total > 0, total, torch.ones_like(total)), coin)

    def _uniform(self, shape, low, high, device):
        from tfcompat.keras import random as krandom
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        values = krandom.uniform(shape, minval=low, maxval=high, seed=self._seed_generator())
        return storage(values).to(device)

    # -- call -----------------------------------------------------------------------------------------------------
    def _float(self, x):
        dtype = getattr(torch, self.compute_dtype)
        return x if x.dtype is dtype else x.to(dtype)

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_dict(inputs, training)
        x = input_storage(inputs)
        if x.ndim not in (3, 4):
            raise ValueError(self._RANK_ERROR.format(shape_text(x.shape)))
        if not training:
            return _wrap(self._inference(x))
        single = x.ndim == 3
        out = self._augment(x.unsqueeze(0) if single else x)
        return _wrap(out[0] if single else out)

    def _call_dict(self, data, training):
        """Keras's dict input: "images" transformed; "labels" (and a colour layer's "segmentation_masks") as given."""
        if "bounding_boxes" in data:
            if not self.bounding_box_format:
                raise ValueError("You passed an input with a 'bounding_boxes' key, but you didn't specify a bounding "
                                 "box format. Pass a `bounding_box_format` argument to your "
                                 f"{type(self).__name__} layer, e.g. `bounding_box_format='xyxy'`.")
            raise NotImplementedError(f"tfcompat: {type(self).__name__} does not transform bounding boxes")
        warp_masks = "segmentation_masks" in data and not self._COLOR_ONLY and training
        if warp_masks and not hasattr(self, "_augment_mask"):
            raise NotImplementedError(f"tfcompat: {type(self).__name__} does not transform segmentation masks")
        out = dict(data)
        if warp_masks:      # the masks take the images' draws (the generator replayed), nearest-sampled as Keras
            masks = input_storage(data["segmentation_masks"])
            seeds = self._seed_generator().state
            state = storage(seeds)
            out["images"] = self.call(data["images"], training=True)
            seeds._set_storage(state)           # the seed state rebinds on each draw: the saved one is intact
            single = masks.ndim == 3
            warped = self._augment_mask(masks.unsqueeze(0) if single else masks)
            out["segmentation_masks"] = _wrap(warped[0] if single else warped)
        else:
            out["images"] = self.call(data["images"], training=training)
        if "labels" in data:
            out["labels"] = _wrap(input_storage(data["labels"]))
        if "segmentation_masks" in data and not warp_masks:
            out["segmentation_masks"] = _wrap(input_storage(data["segmentation_masks"]))
        return out

    def _inference(self, x):
        return self._float(x) if self._CAST_AT_INFERENCE else x

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def _keras_output_spec(self, inputs, shape):
        dtype = inputs.dtype if self._KEEPS_DTYPE and hasattr(inputs, "dtype") else self.compute_dtype
        return tuple(self.compute_output_shape(shape)), dtype

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        if self.bounding_box_format is not None:
            config["bounding_box_format"] = self.bounding_box_format
        return config
