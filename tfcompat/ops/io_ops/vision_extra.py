"""The optional `vision` extra (`pip install tfcompat[vision]`: torchvision, which brings Pillow's libjpeg): the
JPEG codec's import, or an ImportError naming the extra."""


class VisionExtraMissing(ImportError):
    """An op needs the `vision` extra, which is not installed."""


def pil_image(op):
    """PIL's `Image` module for op `op` (e.g. "DecodeJpeg"), or `VisionExtraMissing` naming the extra."""
    try:
        from PIL import Image
    except ImportError:
        raise VisionExtraMissing(f"{op}: JPEG images need the vision extra: pip install tfcompat[vision]") from None
    return Image
