"""A pillow_heif stand-in that scripts/gpu_train.sh puts on the path of the GPU machine, which lacks the package:
fanshot's vision.image registers the HEIC opener when imported, training reads no HEIC photo, and the real wheel
(5.5 MB) does not fit beside the data in what a call may carry. There, a HEIC photo fails to open as any format
Pillow does not know does."""


def register_heif_opener(**_: object) -> None:
    """Register nothing."""
