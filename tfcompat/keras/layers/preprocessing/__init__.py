"""Keras 3 preprocessing layers, one module per family: normalization, image (resize/crop), augmentation,
categorical encodings, vocabulary lookups, text."""
from tfcompat.keras.layers.preprocessing.augmentation import (  # noqa: F401
    RandomContrast,
    RandomFlip,
    RandomRotation,
    RandomTranslation,
    RandomZoom,
)
from tfcompat.keras.layers.preprocessing.augmentation_color import (  # noqa: F401
    AutoContrast, Equalization, RandomBrightness, RandomColorDegeneration, RandomColorJitter, RandomGrayscale,
    RandomHue, RandomInvert, RandomPosterization, RandomSaturation, RandomSharpness, Solarization)
from tfcompat.keras.layers.preprocessing.augmentation_geometry import (  # noqa: F401
    RandomCrop, RandomElasticTransform, RandomErasing, RandomGaussianBlur, RandomPerspective, RandomShear)
from tfcompat.keras.layers.preprocessing.augmentation_mix import (  # noqa: F401
    AugMix, CutMix, MaxNumBoundingBoxes, MixUp, RandAugment)
from tfcompat.keras.layers.preprocessing.categorical import CategoryEncoding, Discretization, Hashing  # noqa: F401
from tfcompat.keras.layers.preprocessing.image import CenterCrop, Resizing  # noqa: F401
from tfcompat.keras.layers.preprocessing.lookup import IntegerLookup, StringLookup  # noqa: F401
from tfcompat.keras.layers.preprocessing.normalization import Normalization  # noqa: F401
from tfcompat.keras.layers.preprocessing.text import TextVectorization  # noqa: F401
