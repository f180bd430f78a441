import json
import shutil
from pathlib import Path

import onnx
import pytest

from fanshot.datasets.errors import DatasetError
from fanshot.vision.image import load_photo
from fanshot.vision.recogniser import MODELS_DIR, Recogniser
from fanshot.vision.training.quantise import float_nodes, quantise

SAMPLES = Path(__file__).resolve().parents[4] / "shared/data/chinese-mahjong-detection/test/images"
HAND = SAMPLES / "hand_003_jpg.rf.567b6dbf8e3e90aedaa336215137bf82.jpg"  # one standing row of 14


def ops(path: Path) -> set[str]:
    return {node.op_type for node in onnx.load(str(path)).graph.node}


def test_the_localisers_box_decoding_stays_float_and_its_convolutions_do_not():
    names = float_nodes(onnx.load(str(MODELS_DIR / "localiser.onnx")), "localiser")
    assert "/model.23/dfl/conv/Conv" in names and "/model.23/Concat_3" in names  # decoding → pixel boxes
    assert not [name for name in names if name.startswith(("/model.23/cv2", "/model.23/cv3", "/model.0/"))]


def test_the_classifiers_last_layer_stays_float():
    names = float_nodes(onnx.load(str(MODELS_DIR / "classifier.onnx")), "classifier")
    assert names == ["/model.10/linear/Gemm", "/model.10/Softmax"]


def test_calibration_photos_must_be_there(tmp_path):
    with pytest.raises(DatasetError, match="--photos"):
        quantise(MODELS_DIR, tmp_path, tmp_path / "out")


def test_the_base_folder_is_never_overwritten(tmp_path):
    with pytest.raises(DatasetError, match="--out"):
        quantise(MODELS_DIR, SAMPLES, MODELS_DIR)


@pytest.mark.model
@pytest.mark.slow
def test_quantised_classifier_is_int8_reads_the_photo_and_the_localiser_is_copied(tmp_path):
    photos = tmp_path / "train"
    photos.mkdir()
    shutil.copy(HAND, photos)
    out = tmp_path / "int8"
    quantise(MODELS_DIR, photos, out, only=("classifier",))
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops(out / "classifier.onnx")
    for localiser in ("localiser.onnx", "localiser-second.onnx"):  # the second look's, a localiser, copied too
        assert (out / localiser).read_bytes() == (MODELS_DIR / localiser).read_bytes()
    meta = json.loads((out / "vision.json").read_text(encoding="utf-8"))
    assert meta["quantised"]["stages"] == ["classifier"] and meta["quantised"]["photos"] == 1
    image = load_photo(HAND.read_bytes())
    base, int8 = Recogniser.load(MODELS_DIR)(image), Recogniser.load(out)(image)
    assert [t["code"] for t in int8.tiles] == [t["code"] for t in base.tiles]
