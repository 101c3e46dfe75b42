"""Keras 3's mixing and policy augmentation layers: MixUp, CutMix (images and their labels, mixed across the batch),
RandAugment, AugMix (chains of the other augmentation layers) and MaxNumBoundingBoxes.

Beta, gamma and permutation draws come from the layer's seeded torch generator and its seed generator (tensor ops
only, so that a traced training step replays them): reproducible within tfcompat, Keras's distributions, not
Keras's numbers."""
import random as py_random

import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.layers.preprocessing._augment_base import ImageAugmentLayer, factor_range, share_generator


class _MixLayer(ImageAugmentLayer):
    """A layer mixing each image with another of the batch (a random permutation); labels mixed alike."""

    def _label_storage(self, labels):
        y = input_storage(labels)
        if not y.is_floating_point():       # Keras multiplies them by its float32 weights
            from tfcompat.framework import errors
            raise errors.InvalidArgumentError(
                None, None, "cannot compute Mul as input #1(zero-based) was expected to be a float tensor but is a "
                            f"{str(y.dtype).replace('torch.', '')} tensor [Op:Mul] name: ")
        return y

    def _permutation(self, n, device):
        from tfcompat.keras import random as krandom      # Keras's shuffle of arange(n): its numbers
        order = krandom.shuffle(torch.arange(n, dtype=torch.int64), seed=self._seed_generator())
        return storage(order).to(device)

    def call(self, inputs, training=True):
        data = inputs if isinstance(inputs, dict) else {"images": inputs}
        if "bounding_boxes" in data or "segmentation_masks" in data:
            raise NotImplementedError(f"tfcompat: {type(self).__name__} mixes images and labels only (no bounding "
                                      "boxes or segmentation masks)")
        x = input_storage(data["images"])
        if x.ndim not in (3, 4):
            raise ValueError(self._RANK_ERROR.format(tuple(x.shape)))
        labels = None
        if "labels" in data:            # Keras converts float inputs to the compute dtype
            y = input_storage(data["labels"])
            labels = _wrap(self._float(y) if y.is_floating_point() else y)
        if training and x.ndim == 4:
            x, labels = self._mix(x, labels)
        else:           # an unbatched image mixes with itself: Keras's cast to the compute dtype only
            x = _wrap(self._float(x) if training else self._inference(x))
        if not isinstance(inputs, dict):
            return x
        out = dict(inputs)
        out["images"] = x
        if labels is not None:
            out["labels"] = labels
        return out


class MixUp(_MixLayer):
    """Blends each image (and label) with a random other of the batch by a weight drawn from Beta(alpha, alpha)."""

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.alpha = alpha

    def _mix(self, x, labels):
        n, dev = x.shape[0], x.device
        order = self._permutation(n, dev)
        weight = self._beta(self.alpha, self.alpha, (n,), dev)
        x = self._float(x)
        w = weight.to(x.dtype).view(-1, 1, 1, 1)
        images = _wrap(w * x + (1.0 - w) * x[order])
        if labels is not None:
            y = self._label_storage(labels)
            wl = weight.to(y.dtype).view(-1, 1)
            labels = _wrap(wl * y + (1.0 - wl) * y[order])
        return images, labels

    def get_config(self):
        config = super().get_config()
        config.update({"alpha": self.alpha, "seed": self.seed})
        return config


class CutMix(_MixLayer):
    """Pastes into each image a random rectangle of another image of the batch (area `1 - lambda`, lambda from
    Beta(a, a), `a` uniform in `factor`); labels mixed by the pasted area."""
    _CAST_AT_INFERENCE = True

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))

    def _mix(self, x, labels):
        x = self._float(x)
        n, h, w, _ = x.shape
        dev = x.device
        alpha = self._uniform((), *self.factor, dev) + 1e-6
        weight = self._beta(alpha, alpha, (n,), dev).to(x.dtype)
        ratio = torch.sqrt(1.0 - weight)

        def bounds(length):
            size = ratio * length
            start = self._rand((n,), dev).to(x.dtype) * (length - size)
            return start.view(-1, 1, 1, 1), (start + size).view(-1, 1, 1, 1)
        x0, x1 = bounds(w)
        y0, y1 = bounds(h)
        gy, gx = torch.meshgrid(torch.arange(h, dtype=x.dtype, device=dev), torch.arange(w, dtype=x.dtype, device=dev),
                                indexing="ij")
        gy, gx = gy[None, :, :, None], gx[None, :, :, None]
        mask = (gx >= x0) & (gx < x1) & (gy >= y0) & (gy < y1)
        mixed_weight = (1.0 - (x1 - x0) * (y1 - y0) / (w * h)).view(-1, 1)
        order = self._permutation(n, dev)
        images = _wrap(torch.where(mask, x[order], x))
        if labels is not None:
            y = self._label_storage(labels)
            wl = mixed_weight.to(y.dtype)
            labels = _wrap(wl * y + (1.0 - wl) * y[order])
        return images, labels

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "seed": self.seed})
        return config


def _policy_layers(owner, names, kwargs):
    """The augmentation layers RandAugment / AugMix build, as Keras builds them from `factor` and `value_range`."""
    from tfcompat.keras.layers.preprocessing import augmentation as geo
    from tfcompat.keras.layers.preprocessing import augmentation_color as color
    from tfcompat.keras.layers.preprocessing.augmentation_geometry import RandomShear
    f, vr, seed, interp = owner.factor, owner.value_range, owner.seed, owner.interpolation
    makers = {
        "random_shear": lambda: RandomShear(x_factor=f, y_factor=f, interpolation=interp, seed=seed, **kwargs),
        "random_translation": lambda: geo.RandomTranslation(height_factor=f, width_factor=f, interpolation=interp,
                                                            seed=seed, **kwargs),
        "random_rotation": lambda: geo.RandomRotation(factor=f, interpolation=interp, seed=seed, **kwargs),
        "random_brightness": lambda: color.RandomBrightness(factor=f, value_range=vr, seed=seed, **kwargs),
        "random_color_degeneration": lambda: color.RandomColorDegeneration(factor=f, value_range=vr, seed=seed,
                                                                           **kwargs),
        "random_contrast": lambda: geo.RandomContrast(factor=f, value_range=vr, seed=seed, **kwargs),
        "random_sharpness": lambda: color.RandomSharpness(factor=f, value_range=vr, seed=seed, **kwargs),
        "random_posterization": lambda: color.RandomPosterization(factor=max(1, int(8 * f[1])), value_range=vr,
                                                                  seed=seed, **kwargs),
        "solarization": lambda: color.Solarization(addition_factor=f, threshold_factor=f, value_range=vr, seed=seed,
                                                   **kwargs),
        "auto_contrast": lambda: color.AutoContrast(value_range=vr, **kwargs),
        "equalization": lambda: color.Equalization(value_range=vr, **kwargs),
    }
    parts = [makers[name]() for name in names]
    share_generator(owner, parts)
    return parts


class RandAugment(ImageAugmentLayer):
    """Applies `num_ops` augmentations picked at random (one pick per batch) among shear, translation, rotation,
    brightness, colour degeneration, contrast, sharpness, posterization, solarization, auto-contrast and
    equalization, each with `factor`."""
    _COLOR_ONLY = False
    _CAST_AT_INFERENCE = True
    _AUGMENT_LAYERS = ["random_shear", "random_translation", "random_rotation", "random_brightness",
                       "random_color_degeneration", "random_contrast", "random_sharpness", "random_posterization",
                       "solarization", "auto_contrast", "equalization"]

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear", seed=None,
                 data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range, self.num_ops = value_range, num_ops
        self.factor = factor_range(factor, (0, 1))
        self.interpolation = interpolation
        self._ops = _policy_layers(self, self._AUGMENT_LAYERS, {})

    def build(self, input_shape):
        for op in self._ops:                # as Keras's build
            op.build(input_shape)
        self.built = True

    def _augment(self, x):
        x = self._float(x)
        picks = (self._rand((self.num_ops,), x.device) * len(self._ops)).long()
        for i in range(self.num_ops):       # as Keras: every op computed, the picked one kept (no host read)
            out = x
            for j, op in enumerate(self._ops):
                out = torch.where(picks[i] == j, self._float(op._augment(x)), out)
            x = out
        return x

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "num_ops": self.num_ops, "factor": self.factor,
                       "interpolation": self.interpolation, "seed": self.seed})
        return config


_AUGMIX_ALL = ["random_shear", "random_translation", "random_rotation", "random_posterization", "solarization",
               "auto_contrast", "equalization", "random_brightness", "random_color_degeneration", "random_contrast",
               "random_sharpness"]


class AugMix(ImageAugmentLayer):
    """`num_chains` chains of up to `chain_depth` random augmentations (each step one of the layers or none, picked
    with Python's `random` as Keras does), mixed by Dirichlet(alpha) weights, then blended with the image by a
    Beta(alpha, alpha) weight; clipped to `value_range`."""
    _COLOR_ONLY = False
    _CAST_AT_INFERENCE = True

    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3, alpha=1.0, all_ops=True,
                 interpolation="bilinear", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.value_range, self.num_chains, self.chain_depth = value_range, num_chains, chain_depth
        self.factor = factor_range(factor, (0, 1))
        self.alpha, self.all_ops, self.interpolation = alpha, all_ops, interpolation
        self._names = _AUGMIX_ALL if all_ops else _AUGMIX_ALL[:7]
        self._ops = dict(zip(self._names, _policy_layers(self, self._names, {})))

    def build(self, input_shape):
        for op in self._ops.values():       # as Keras's build
            op.build(input_shape)
        self.built = True

    def _augment(self, x):
        x = self._float(x)
        gamma = self._gamma(self.alpha, (self.num_chains,), x.device)
        chain_weights = (gamma / gamma.sum()).to(x.dtype)
        weight = self._beta(self.alpha, self.alpha, (), x.device).to(x.dtype)
        mixed = torch.zeros_like(x)
        for i in range(self.num_chains):
            y = x
            for _ in range(self.chain_depth):
                name = py_random.choice(self._names + [None])
                if name is not None:
                    y = self._float(self._ops[name]._augment(y))
            mixed = mixed + y * chain_weights[i]
        out = weight * x + (1 - weight) * mixed
        return torch.clamp(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "num_chains": self.num_chains,
                       "chain_depth": self.chain_depth, "factor": self.factor, "alpha": self.alpha,
                       "all_ops": self.all_ops, "interpolation": self.interpolation, "seed": self.seed})
        return config


class MaxNumBoundingBoxes(ImageAugmentLayer):
    """Pads (with `fill_value`) or truncates the boxes and labels of `{"images", "bounding_boxes": {"boxes",
    "labels"}}` to `max_number` per image; images pass through."""

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        self.max_number, self.fill_value = int(max_number), int(fill_value)

    def call(self, inputs, training=True):
        if not isinstance(inputs, dict):
            return super().call(inputs, training=training)
        if "bounding_boxes" in inputs and not self.bounding_box_format:
            return super().call(inputs, training=training)      # Keras's ValueError
        out = dict(inputs)
        images = input_storage(inputs["images"])
        if images.ndim not in (3, 4):
            raise ValueError(self._RANK_ERROR.format(tuple(images.shape)))
        out["images"] = _wrap(images)
        for key in ("labels", "segmentation_masks"):
            if key in inputs:
                out[key] = _wrap(input_storage(inputs[key]))
        if "bounding_boxes" in inputs:
            boxes_in = inputs["bounding_boxes"]
            boxes, labels = input_storage(boxes_in["boxes"]), input_storage(boxes_in["labels"])
            single = images.ndim == 3
            if single:
                boxes, labels = boxes.unsqueeze(0), labels.unsqueeze(0)
            pad = max(self.max_number - boxes.shape[1], 0)
            boxes = torch.nn.functional.pad(boxes[:, :self.max_number], (0, 0, 0, pad), value=self.fill_value)
            labels = torch.nn.functional.pad(labels[:, :self.max_number], (0, pad), value=self.fill_value)
            if single:
                boxes, labels = boxes[0], labels[0]
            result = dict(boxes_in)
            result["boxes"], result["labels"] = _wrap(boxes), _wrap(labels)
            out["bounding_boxes"] = result
        return out

    def _augment(self, x):
        return x

    def get_config(self):
        config = super().get_config()
        config["max_number"] = self.max_number
        return config
