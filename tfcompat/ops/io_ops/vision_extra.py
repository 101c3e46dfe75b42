"""The optional `vision` extra (`pip install tfcompat[vision]`, which brings Pillow's libjpeg and libwebp): the
JPEG/WebP codec's import, or an ImportError naming the extra."""


class VisionExtraMissing(ImportError):
    """An op needs the `vision` extra, which is not installed."""


def pil_image(op, kind="JPEG"):
    """PIL's `Image` module for op `op` (e.g. "DecodeJpeg"), or `VisionExtraMissing` naming the extra."""
    try:
        from PIL import Image
    except ImportError:
        raise VisionExtraMissing(f"{op}: {kind} images need the vision extra: pip install tfcompat[vision]") from None
    return Image
