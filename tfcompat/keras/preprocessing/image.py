"""`keras.preprocessing.image`: the image file helpers (the same functions as `keras.utils`)."""
from tfcompat.keras.image_utils import array_to_img, img_to_array, load_img, save_img  # noqa: F401
