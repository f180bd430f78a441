"""int8 copies of a models folder, for serving speed: ONNX Runtime's static quantisation (QDQ, per channel, uint8
activations, int8 weights, MinMax calibration), as the live viewfinder's int8 localiser was made (BENCHMARKS.md).
Calibration reads training photos as serving does: decoded by `load_photo`, letterboxed for the localiser, and for
the classifier the crops of the tiles the base localiser finds in them. What turns scores into boxes and
probabilities stays in float: the localiser's box decoding (its detect head outside the conv branches) and the
classifier's last layer. No torch: onnxruntime only."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import onnx
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

from fanshot.datasets.errors import DatasetError
from fanshot.vision.config import VisionFile
from fanshot.vision.geometry import letterbox
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import Recogniser, to_tensor

STAGES = ("localiser", "classifier")
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
# The localiser's detect head (ultralytics' last module): its `cv2`/`cv3` conv branches are quantised, the rest
# (reshapes, the DFL, the anchor arithmetic that makes pixel boxes) is box decoding, which int8 would blur.
DETECT_HEAD, DETECT_CONVS = "/model.23/", ("/model.23/cv2", "/model.23/cv3")
# The classifier's last layer and softmax (in its last module; not the attention's softmax): the probabilities the
# thresholds are set on.
CLASSIFIER_OUTPUT_OPS = ("Gemm", "Softmax")


class Batches(CalibrationDataReader):
    """Calibration inputs for one model, one tensor at a time."""

    def __init__(self, input_name: str, tensors: Iterator[np.ndarray]):
        self.input_name, self.tensors = input_name, tensors

    def get_next(self) -> dict[str, np.ndarray] | None:
        tensor = next(self.tensors, None)
        return None if tensor is None else {self.input_name: tensor}


def calibration_photos(folder: Path, count: int) -> list[Path]:
    """The first `count` photos (by name) of a folder or of its `images/` subfolder."""
    images = folder / "images" if (folder / "images").is_dir() else folder
    photos = sorted(p for p in images.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES) if images.is_dir() else []
    if not photos:
        raise DatasetError(f"--photos {folder}: no .jpg or .png photos there (give a training split, e.g. "
                           "work/real43/train)")
    return photos[:count]


def served_images(photos: Sequence[Path]) -> Iterator[np.ndarray]:
    """Each photo decoded as POST /v1/recognitions decodes it."""
    for photo in photos:
        yield load_photo(photo.read_bytes(), max_side=RECOGNITION_MAX_SIDE, of_a_hand=True)


def localiser_inputs(base: Recogniser, photos: Sequence[Path]) -> Iterator[np.ndarray]:
    for image in served_images(photos):
        yield to_tensor(letterbox(image, base.localiser_size).image[None])


def classifier_inputs(base: Recogniser, photos: Sequence[Path]) -> Iterator[np.ndarray]:
    """The crops of the tiles the base localiser finds (at its threshold), one batch a photo with any."""
    for image in served_images(photos):
        boxes = base.localise(image, base.config.conf).boxes
        if len(boxes):
            yield to_tensor(base.cut_crops(image, boxes))


def float_nodes(model: onnx.ModelProto, stage: str) -> list[str]:
    """The nodes left in float: the localiser's box decoding, the classifier's last layer."""
    if stage == "localiser":
        return [n.name for n in model.graph.node
                if n.name.startswith(DETECT_HEAD) and not n.name.startswith(DETECT_CONVS)]
    head = "/".join(model.graph.node[-1].name.split("/")[:2]) + "/"  # e.g. /model.10/
    return [n.name for n in model.graph.node if n.name.startswith(head) and n.op_type in CLASSIFIER_OUTPUT_OPS]


def quantise_model(source: Path, target: Path, stage: str, inputs: Iterator[np.ndarray]) -> None:
    model = onnx.load(str(source))
    quantize_static(str(source), str(target), Batches(model.graph.input[0].name, inputs),
                    quant_format=QuantFormat.QDQ, per_channel=True, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8, nodes_to_exclude=float_nodes(model, stage))


def quantise(models: Path, photos: Path, out: Path, *, count: int = 64, only: Sequence[str] = STAGES) -> list[Path]:
    """A models folder `out` like `models` with the `only` stages' ONNX files int8, calibrated on `count` photos
    of `photos` (a training split: never a set that chooses or measures). vision.json keeps every setting and
    records the command's stages; returns the files written."""
    if out.resolve() == models.resolve():
        raise DatasetError(f"--out {out}: that is the base models folder; give a new folder (e.g. work/int8)")
    chosen = calibration_photos(photos, count)
    base = Recogniser.load(models)
    meta = VisionFile.read(models)
    out.mkdir(parents=True, exist_ok=True)
    feeds = {"localiser": localiser_inputs, "classifier": classifier_inputs}
    written = []
    for stage, name in meta.model_files():  # a second look's localiser is quantised with the localiser
        source, target = models / name, out / name
        if stage in only:
            quantise_model(source, target, stage, feeds[stage](base, chosen))
        else:
            shutil.copyfile(source, target)
        written.append(target)
    quantised = {"stages": list(only), "calibration": str(photos), "photos": len(chosen),
                 "format": "QDQ, per channel, uint8 activations, int8 weights, MinMax"}
    return [*written, meta.model_copy(update={"quantised": quantised}).write(out)]
