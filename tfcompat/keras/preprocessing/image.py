"""`keras.preprocessing.image`: the image file helpers (the same functions as `keras.utils`) and, as `tf.keras`
has them, Keras's legacy `ImageDataGenerator`, its iterators and the NumPy image transforms, and `smart_resize`."""
from tfcompat.keras.image_utils import array_to_img, img_to_array, load_img, save_img  # noqa: F401
from tfcompat.keras.preprocessing.affine import (  # noqa: F401
    apply_affine_transform, apply_brightness_shift, apply_channel_shift, random_brightness, random_channel_shift,
    random_rotation, random_shear, random_shift, random_zoom)
from tfcompat.keras.preprocessing.image_data_generator import ImageDataGenerator  # noqa: F401
from tfcompat.keras.preprocessing.image_iterators import (  # noqa: F401
    DirectoryIterator, Iterator, NumpyArrayIterator)
from tfcompat.keras.preprocessing.smart_resize import smart_resize  # noqa: F401
