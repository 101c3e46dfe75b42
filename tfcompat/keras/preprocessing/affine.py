"""Keras's legacy image transforms on NumPy images: affine resampling as `scipy.ndimage.affine_transform`
computes it for Keras (orders 0 and 1), channel and brightness shifts, and the `random_*` functions."""
import numpy as np

from tfcompat.framework.export import partial_api

FILL_MODES = ("constant", "nearest", "reflect", "wrap")


def _nearest_index(coord):
    """scipy's order-0 pick: the sample at floor(coord + 0.5)."""
    return np.floor(coord + 0.5).astype(np.int64)


def _fold(index, n, mode):
    """Integer sample indices brought inside [0, n) as scipy extends the input for `mode`."""
    if mode == "reflect":       # half-sample symmetric: d c b a | a b c d | d c b a
        index = np.mod(index, 2 * n)
        return np.where(index >= n, 2 * n - 1 - index, index)
    return np.clip(index, 0, n - 1)


def _map_coordinate(coord, n, mode):
    """Continuous coordinates as scipy maps them before interpolating (`nearest` clamps, its `wrap` has period
    n - 1: the first and last samples coincide); `reflect` and `constant` are handled on the samples."""
    if mode == "nearest":
        return np.clip(coord, 0, n - 1)
    if mode == "wrap":
        if n == 1:
            return np.zeros_like(coord)
        period = n - 1
        low = coord < 0
        high = coord > period
        coord = np.where(low, period - np.fmod(-coord, period), coord)
        return np.where(high, np.fmod(coord, period), coord)
    return coord


def _resample(image, matrix, offset, order, mode, cval):
    """`image` (channels, rows, cols) sampled at `matrix @ (row, col) + offset` for every output pixel."""
    channels, rows, cols = image.shape
    r, c = np.meshgrid(np.arange(rows, dtype=np.float64), np.arange(cols, dtype=np.float64), indexing="ij")
    coords = [matrix[0, 0] * r + matrix[0, 1] * c + offset[0], matrix[1, 0] * r + matrix[1, 1] * c + offset[1]]
    sizes = (rows, cols)
    outside = None
    if mode == "constant":
        outside = (coords[0] < 0) | (coords[0] > rows - 1) | (coords[1] < 0) | (coords[1] > cols - 1)
    coords = [_map_coordinate(x, n, mode) for x, n in zip(coords, sizes)]
    data = image.astype(np.float64)
    if order == 0:
        out = data[:, _fold(_nearest_index(coords[0]), rows, mode), _fold(_nearest_index(coords[1]), cols, mode)]
    else:
        lows = [np.floor(x) for x in coords]
        fracs = [x - low for x, low in zip(coords, lows)]
        lows = [low.astype(np.int64) for low in lows]
        out = 0.0
        for dr in (0, 1):
            wr = fracs[0] if dr else 1.0 - fracs[0]
            ri = _fold(lows[0] + dr, rows, mode)
            for dc in (0, 1):
                wc = fracs[1] if dc else 1.0 - fracs[1]
                out = out + (wr * wc) * data[:, ri, _fold(lows[1] + dc, cols, mode)]
    if outside is not None:
        out = np.where(outside, cval, out)
    if np.issubdtype(image.dtype, np.integer):
        out = np.where(out >= 0, out + 0.5, out - 0.5)
    return out.astype(image.dtype)


def _offset_center(matrix, rows, cols):
    """`matrix` applied about the image's center instead of its corner."""
    center_x, center_y = float(rows) / 2 - 0.5, float(cols) / 2 - 0.5
    to_center = np.array([[1, 0, center_x], [0, 1, center_y], [0, 0, 1]])
    from_center = np.array([[1, 0, -center_x], [0, 1, -center_y], [0, 0, 1]])
    return to_center @ matrix @ from_center


def _compose(theta, tx, ty, shear, zx, zy):
    """The 3x3 matrix of rotation, shift, shear and zoom (in Keras's order), or None when all are identity."""
    parts = []
    if theta != 0:
        a = np.deg2rad(theta)
        parts.append(np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]]))
    if tx != 0 or ty != 0:
        parts.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        s = np.deg2rad(shear)
        parts.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        parts.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if not parts:
        return None
    matrix = parts[0]
    for part in parts[1:]:
        matrix = np.dot(matrix, part)
    return matrix


@partial_api("interpolation orders 0 and 1 and fill modes constant, nearest, reflect and wrap (scipy's spline "
             "orders 2-5 and grid-* modes raise NotImplementedError)")
def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1, col_axis=2, channel_axis=0,
                           fill_mode="nearest", cval=0.0, order=1):
    """A 3D image rotated by `theta` degrees, shifted, sheared and zoomed about its center (Keras's legacy API)."""
    if np.unique([row_axis, col_axis, channel_axis]).size != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    axes = {row_axis, col_axis, channel_axis}
    if axes != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {axes - {0, 1, 2}}")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    matrix = _compose(theta, tx, ty, shear, zx, zy)
    if matrix is None:
        return x
    if order not in (0, 1):
        raise NotImplementedError(f"apply_affine_transform(order={order}) (spline interpolation) is not supported "
                                  "by tfcompat: orders 0 and 1 are")
    if fill_mode not in FILL_MODES:
        raise NotImplementedError(f"apply_affine_transform(fill_mode={fill_mode!r}) is not supported by tfcompat: "
                                  f"one of {', '.join(FILL_MODES)}")
    matrix = _offset_center(matrix, x.shape[row_axis], x.shape[col_axis])
    if col_axis > row_axis:     # the matrix is in (x, y) order, the array in (row, col)
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    out = _resample(np.moveaxis(x, channel_axis, 0), matrix[:2, :2], matrix[:2, 2], order, fill_mode, cval)
    return np.moveaxis(out, 0, channel_axis)


def _random_affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order, **params):
    return apply_affine_transform(x, row_axis=row_axis, col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order, **params)


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                    interpolation_order=1):
    """`x` rotated by a uniform random angle in [-rg, rg] degrees (NumPy's global generator)."""
    theta = np.random.uniform(-rg, rg)
    return _random_affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order, theta=theta)


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """`x` shifted by uniform random fractions of its height (`hrg`) and width (`wrg`)."""
    tx = np.random.uniform(-hrg, hrg) * x.shape[row_axis]
    ty = np.random.uniform(-wrg, wrg) * x.shape[col_axis]
    return _random_affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order, tx=tx, ty=ty)


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                 interpolation_order=1):
    """`x` sheared by a uniform random angle in [-intensity, intensity] degrees."""
    shear = np.random.uniform(-intensity, intensity)
    return _random_affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order, shear=shear)


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest", cval=0.0,
                interpolation_order=1):
    """`x` zoomed by two uniform random factors in `zoom_range` (rows, cols)."""
    if len(zoom_range) != 2:
        raise ValueError(f"`zoom_range` should be a tuple or list of two floats. Received: {zoom_range}")
    zx, zy = (1, 1) if zoom_range[0] == 1 and zoom_range[1] == 1 else np.random.uniform(zoom_range[0],
                                                                                          zoom_range[1], 2)
    return _random_affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order, zx=zx, zy=zy)


def apply_channel_shift(x, intensity, channel_axis=0):
    """`intensity` added to every channel, clipped to the image's original min and max."""
    channels = np.moveaxis(x, channel_axis, 0)
    low, high = np.min(channels), np.max(channels)
    shifted = np.stack([np.clip(c + intensity, low, high) for c in channels], axis=0)
    return np.moveaxis(shifted, 0, channel_axis)


def random_channel_shift(x, intensity_range, channel_axis=0):
    """`apply_channel_shift` by a uniform random intensity in [-intensity_range, intensity_range]."""
    return apply_channel_shift(x, np.random.uniform(-intensity_range, intensity_range), channel_axis=channel_axis)


def apply_brightness_shift(x, brightness, scale=True):
    """PIL's brightness enhancement of `x` by factor `brightness` (as Keras: through an 8-bit PIL image)."""
    from PIL import ImageEnhance

    from tfcompat.keras.image_utils import array_to_img, img_to_array
    low, high = np.min(x), np.max(x)
    out_of_range = (low < 0) or (high > 255)
    img = ImageEnhance.Brightness(array_to_img(x, scale=out_of_range or scale)).enhance(brightness)
    out = img_to_array(img)
    if not scale and out_of_range:
        out = out / 255 * (high - low) + low
    return out


def random_brightness(x, brightness_range, scale=True):
    """`apply_brightness_shift` by a uniform random factor in `brightness_range`."""
    if len(brightness_range) != 2:
        raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
    return apply_brightness_shift(x, np.random.uniform(brightness_range[0], brightness_range[1]), scale)
