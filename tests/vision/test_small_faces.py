"""The small faces' classifier (`small_faces`, issue 52): faces under `below` px in the image their crop is cut
from are named by it, each from `views` crops, every other face by the main classifier from one; nothing changes
while no file is named."""

import json
from types import SimpleNamespace

import cv2
import numpy as np
import onnx
import pytest

from fanshot.vision.config import VIEWS, RecogniserConfig, VisionFile, models_version
from fanshot.vision.geometry import cut_crop, moved_boxes
from fanshot.vision.image import RECOGNITION_MAX_SIDE, Original, load_photo
from fanshot.vision.recogniser import MODELS_DIR, Detections, Look, Recogniser, shipped
from fanshot.vision.training.adapt import base_head, write_models
from tests.vision.test_zoom import SHARED

CODES = ["1m", "2m", "3m", "4m"]
MAIN, SMALL = 0, 1  # the code each fake classifier names every crop


class Naming:
    """A classifier session that names every crop `code`, and counts the crops it read."""

    def __init__(self, code: int) -> None:
        self.code, self.crops = code, 0

    def get_inputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="images")]

    def run(self, _outputs: None, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        count = len(next(iter(feeds.values())))
        self.crops += count
        probs = np.zeros((count, len(CODES)), dtype=np.float32)
        probs[:, self.code] = 1.0
        return [probs]


class Brightness(Naming):
    """A classifier session that names a crop 1m as sure as it is bright (its mean over 255), else 2m."""

    def run(self, _outputs: None, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        crops = next(iter(feeds.values()))
        self.crops += len(crops)
        bright = crops.reshape(len(crops), -1).mean(axis=1)  # the tensor is already over 255
        return [np.stack([bright, 1 - bright, 0 * bright, 0 * bright], axis=1).astype(np.float32)]


def recogniser(small: bool = True, small_reader: Naming | None = None, **stage) -> Recogniser:
    config = RecogniserConfig(conf=0.5).changed(small_faces=stage) if stage else RecogniserConfig(conf=0.5)
    return Recogniser(None, 416, ["face", "back"], Naming(MAIN), 64, CODES, config,
                      small_classifier=(small_reader or Naming(SMALL)) if small else None)


CROPS = np.zeros((4, 64, 64, 3), dtype=np.uint8)
SIDES = np.array([20.0, 47.9, 48.0, 300.0])


@pytest.mark.parametrize(("name", "reader", "sides", "named"), [
    ("under `below` by the small faces' classifier, the rest by the main one", recogniser(), SIDES,
     [SMALL, SMALL, MAIN, MAIN]),
    ("another `below`", recogniser(below=100.0), SIDES, [SMALL, SMALL, SMALL, MAIN]),
    ("the stage switched off", recogniser(enabled=False), SIDES, [MAIN] * 4),
    ("no small faces' classifier", recogniser(small=False), SIDES, [MAIN] * 4),
    ("no sides given", recogniser(), None, [MAIN] * 4),
])
def test_each_face_is_named_by_one_classifier_chosen_by_its_side(name, reader, sides, named):
    probs = reader.read_crops(CROPS, sides)
    assert probs.argmax(axis=1).tolist() == named
    assert reader.classifier.crops == named.count(MAIN)  # each crop read once, by one classifier
    assert reader.read_crops(CROPS[:0], SIDES[:0]).shape == (0, len(CODES))


def test_a_face_is_measured_in_the_image_its_crop_is_cut_from():
    reader = recogniser()
    image = np.zeros((400, 400, 3), dtype=np.uint8)
    boxes = np.array([[0, 0, 30, 40], [100, 100, 160, 180]], dtype=np.float32)  # sides √1200 ≈ 35 and √4800 ≈ 69
    assert reader.classify(image, boxes).argmax(axis=1).tolist() == [SMALL, MAIN]
    assert reader.name_tile(image, [0, 0, 30, 40])["code"] == CODES[SMALL]  # a box the user draws too


IMAGE = np.zeros((400, 400, 3), dtype=np.uint8)
IMAGE[:, 15:] = 255  # a small face's box straddles the edge: each view of it sees another share of white
BOXES = np.array([[0, 0, 30, 40], [100, 100, 160, 180]], dtype=np.float32)  # sides ≈ 35 (small) and ≈ 69


@pytest.mark.parametrize("views", [1, 2, 7])
def test_a_small_face_is_named_from_views_crops_their_probabilities_averaged(views):
    reader = recogniser(small_reader=Brightness(SMALL), views=views)
    probs = reader.classify(IMAGE, BOXES)
    crops = np.stack([cut_crop(IMAGE, box, 64) for box in moved_boxes(BOXES[0], VIEWS[:views])])
    assert probs[0, 0] == pytest.approx(crops.mean() / 255, abs=1e-5)
    assert probs[1].argmax() == MAIN  # a large face: one crop, by the main classifier
    assert (reader.small_classifier.crops, reader.classifier.crops) == (views, 1)


def test_every_path_that_names_faces_reads_a_small_one_from_every_view():
    turned = recogniser(views=7)
    look = turned.right_way_up(Look(IMAGE, Detections(BOXES, np.ones(2), ["face", "face"]), turns=1))
    assert look.found.probs.argmax(axis=1).tolist() == [SMALL, MAIN]
    assert (turned.small_classifier.crops, turned.classifier.crops) == (2 * 7, 2)  # as cut and half-turned
    fine = recogniser(views=7)
    found = Detections(BOXES / 4, np.ones(2), ["face", "face"], np.zeros((2, len(CODES)), dtype=np.float32))
    original = Original(cv2.imencode(".png", IMAGE)[1].tobytes())  # 400 px: both faces named from it, larger
    named = fine.named_at_full_size(Look(IMAGE[::4, ::4], found, 0), 100, 100, original)
    assert named.found.probs.argmax(axis=1).tolist() == [SMALL, MAIN]
    assert (fine.small_classifier.crops, fine.classifier.crops) == (7, 1)


@pytest.mark.parametrize("views", [0, len(VIEWS) + 1])
def test_views_beyond_those_defined_are_refused(views):
    with pytest.raises(ValueError, match="views"):
        RecogniserConfig(conf=0.5).changed(small_faces={"views": views})


def folder_with(tmp_path, name: str, small: str, source: str | None = None):
    """The shipped models folder, naming `small` as the small faces' classifier (a link to `source`)."""
    folder = tmp_path / name
    folder.mkdir()
    meta = json.loads((MODELS_DIR / "vision.json").read_text(encoding="utf-8"))
    for file in VisionFile.read(MODELS_DIR).files():
        (folder / file).symlink_to(MODELS_DIR / file)
    if source:
        (folder / small).symlink_to(MODELS_DIR / source)
    meta["recogniser"]["small_faces"] = {"classifier": small}
    (folder / "vision.json").write_text(json.dumps(meta), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("small", "source", "message"), [
    ("missing.onnx", None, r"recogniser.small_faces.classifier: no file 'missing.onnx'.*put that model there"),
    ("small.onnx", "localiser.onnx", r"recogniser.small_faces.classifier: small.onnx takes 416×416 px and the main "
                                     r"model 64×64"),
    ("five.onnx", None, r"recogniser.small_faces.classifier: five.onnx names 5 classes and the classifier 43"),
])
def test_a_small_faces_classifier_that_does_not_fit_is_refused_naming_its_setting(tmp_path, small, source, message):
    folder = folder_with(tmp_path, "m", small, source)
    if small == "five.onnx":  # a classifier of the main one's input and 5 classes
        weight = onnx.numpy_helper.from_array(np.zeros((5, 3), dtype=np.float32), "weight")
        graph = onnx.helper.make_graph(
            [onnx.helper.make_node("ReduceMean", ["images"], ["mean"], axes=[2, 3], keepdims=0),
             onnx.helper.make_node("Gemm", ["mean", "weight"], ["probs"], transB=1)], "five",
            [onnx.helper.make_tensor_value_info("images", onnx.TensorProto.FLOAT, ["n", 3, 64, 64])],
            [onnx.helper.make_tensor_value_info("probs", onnx.TensorProto.FLOAT, ["n", 5])], [weight])
        onnx.save(onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 13)]), folder / small)
    with pytest.raises(ValueError, match=message):
        Recogniser.load(folder)


@pytest.mark.model
def test_the_main_classifier_named_again_for_small_faces_reads_as_the_shipped_models(tmp_path):
    folder = folder_with(tmp_path, "again", "small.onnx", "classifier.onnx")
    again = Recogniser.load(folder)
    assert again.small_classifier is not None and VisionFile.read(folder).files()[-1] == "small.onnx"
    photo_path = sorted((SHARED / "chinese-mahjong-detection/test/images").glob("*.jpg"))[0]
    photo = load_photo(photo_path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    one_classifier = shipped().with_config(shipped().config.without("small_faces"))
    assert again(photo).tiles == one_classifier(photo).tiles
    assert models_version(folder) != models_version(MODELS_DIR)  # its bytes count


@pytest.mark.model
def test_an_adapted_classifier_is_read_alone_and_a_kept_one_keeps_the_small_faces_classifier(tmp_path):
    base = folder_with(tmp_path, "base", "small.onnx", "classifier.onnx")
    meta = VisionFile.read(base)
    model = onnx.load(str(base / meta.classifier.file))
    head = base_head(model, meta.classifier.classes)
    kept = write_models(tmp_path / "kept", base, meta, model, None, None, meta.recogniser.conf)
    adapted = write_models(tmp_path / "adapted", base, meta, model, head, None, meta.recogniser.conf)
    assert kept.recogniser.small_faces.classifier == "small.onnx" and (tmp_path / "kept" / "small.onnx").is_file()
    assert adapted.recogniser.small_faces.classifier is None
    assert "small.onnx" not in adapted.files() and Recogniser.load(tmp_path / "adapted").small_classifier is None
