"""The localiser's class Convs, refitted in numpy: found in the graph, read back from its features, written back,
and fitted towards task-aligned targets."""

import numpy as np
import onnx
import pytest

from fanshot.vision.geometry import letterbox
from fanshot.vision.recogniser import MODELS_DIR, session, to_tensor
from fanshot.vision.training import localiser_head
from fanshot.vision.training.localiser_head import (
    Look,
    Samples,
    anchor_points,
    base_localiser_head,
    base_scores,
    feature_session,
    fit_localiser_head,
    join,
    look,
    map_boxes,
    place,
    samples,
    score_convs,
    soft_targets,
    write_localiser,
)

needs_models = pytest.mark.model  # runs the shipped models (models/ is in the repository)


@pytest.fixture(scope="module")
def localiser() -> onnx.ModelProto:
    return onnx.load(str(MODELS_DIR / "localiser.onnx"))


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    rng = np.random.default_rng(0)
    image = rng.integers(0, 60, (300, 400, 3), dtype=np.uint8)
    image[100:160, 120:165] = 235  # a pale block, tile-like enough to score somewhere
    return image


@needs_models
def test_the_class_convs_read_from_their_features_give_the_localisers_scores(localiser, photo):
    convs = score_convs(localiser)
    assert len(convs) == 3 and all(c.op_type == "Conv" for c in convs)
    canvas, _ = place(photo, 416, 1.0, (0.5, 0.5), False)
    seen = look(canvas, np.zeros((0, 4)), np.zeros(0, dtype=np.int64), feature_session(localiser))
    output = session(MODELS_DIR / "localiser.onnx").run(None, {"images": to_tensor(canvas[None])})[0][0].T
    assert sum(len(f) for f in seen.features) == len(output)
    assert np.allclose(base_scores(seen, base_localiser_head(localiser)), output[:, 4:], atol=1e-5)
    centres = (seen.boxes[:, :2] + seen.boxes[:, 2:]) / 2  # the anchors' boxes lie about their grid cells
    assert np.median(np.abs(centres - anchor_points(seen, 416))) < 16


@needs_models
def test_a_written_localiser_scores_anew_and_boxes_as_the_base(localiser, photo):
    base = base_localiser_head(localiser)
    lower = localiser_head.LocaliserHead(base.weights, tuple(b - 1 for b in base.biases))
    tensor = {"images": to_tensor(letterbox(photo, 416).image[None])}
    before = session(localiser.SerializeToString()).run(None, tensor)[0]
    same = session(write_localiser(localiser, base).SerializeToString()).run(None, tensor)[0]
    after = session(write_localiser(localiser, lower).SerializeToString()).run(None, tensor)[0]
    assert np.allclose(same, before, atol=1e-6)
    assert np.allclose(after[:, :4], before[:, :4])
    assert (after[:, 4:] <= before[:, 4:] + 1e-6).all() and after[:, 4:].max() < before[:, 4:].max()


def test_a_non_detector_cannot_be_adapted():
    node = onnx.helper.make_node("Relu", ["x"], ["y"])
    graph = onnx.helper.make_graph([node], "g", [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])],
                                   [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])])
    with pytest.raises(ValueError, match="cannot be adapted"):
        score_convs(onnx.helper.make_model(graph))


@pytest.mark.parametrize("flip", [False, True])
def test_labels_follow_the_photo_when_it_is_placed_scaled_moved_and_mirrored(flip):
    image = np.zeros((100, 200, 3), dtype=np.uint8)
    image[20:40, 30:70] = 255
    box = np.array([[30 / 200, 20 / 100, 70 / 200, 40 / 100]])
    canvas, affine = place(image, 416, 0.5, (0.0, 1.0), flip)
    x1, y1, x2, y2 = map_boxes(box, affine)[0]
    assert x1 < x2 and y1 < y2
    ys, xs = np.nonzero(canvas[:, :, 0] > 200)
    assert abs(xs.min() - x1) <= 1 and abs(xs.max() + 1 - x2) <= 1 and abs(ys.min() - y1) <= 1
    assert abs(ys.max() + 1 - y2) <= 1
    plain, plain_map = place(image, 416, 1.0, (0.5, 0.5), False)
    assert np.array_equal(plain, letterbox(image, 416).image)  # the plain look is `localise`'s


def test_targets_go_to_the_best_aligned_anchors_inside_a_tile_and_every_other_anchor_is_negative(monkeypatch):
    monkeypatch.setattr(localiser_head, "TOP_K", 2)
    points = np.array([[10, 10], [12, 12], [14, 14], [50, 50]], dtype=float)
    truth = np.array([[0, 0, 20, 20]], dtype=float)
    boxes = np.array([[0, 0, 20, 20], [2, 2, 20, 20], [8, 8, 30, 30], [0, 0, 20, 20]], dtype=float)
    scores = np.full((4, 2), 0.5)
    targets = soft_targets(points, boxes, scores, truth, np.array([1]))
    assert targets[0, 1] == pytest.approx(1.0)  # the best: its IoU
    assert 0 < targets[1, 1] < 1 and targets[2].max() == 0  # the next; the third inside is a duplicate
    assert targets[3].max() == 0 and targets[:, 0].max() == 0  # outside the tile; the other class


def test_easy_negatives_are_subsampled_and_weighted_up():
    rng = np.random.default_rng(0)
    features = (np.zeros((400, 3), dtype=np.float32),)
    seen = Look(features, np.tile([0.0, 0.0, 1.0, 1.0], (400, 1)), np.zeros((0, 4)), np.zeros(0, dtype=np.int64))
    base = localiser_head.LocaliserHead((np.zeros((2, 3), dtype=np.float32),), (np.full(2, -10, dtype=np.float32),))
    picked = samples(seen, base, 20, rng)
    assert 0 < len(picked.features[0]) < 400 and (picked.weights[0] == 1 / localiser_head.EASY_KEPT).all()


def test_the_fit_moves_scores_towards_the_targets_and_a_strong_pull_keeps_the_base():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 4)).astype(np.float32)
    y = np.stack([(x[:, 0] > 0) * 0.9, np.zeros(300)], axis=1).astype(np.float32)
    data = join([Samples((x[:150],), (y[:150],), (np.ones(150, dtype=np.float32),)),
                 Samples((x[150:],), (y[150:],), (np.ones(150, dtype=np.float32),))])
    base = localiser_head.LocaliserHead((np.zeros((2, 4), dtype=np.float32),), (np.zeros(2, dtype=np.float32),))
    fitted = fit_localiser_head(base, data, 1e-4)
    scores = 1 / (1 + np.exp(-(x @ fitted.weights[0].T + fitted.biases[0])))
    assert scores[x[:, 0] > 0.5, 0].mean() > 0.65 and scores[x[:, 0] < -0.5, 0].mean() < 0.35  # from 0.5
    assert scores[:, 1].max() < 0.4
    held = fit_localiser_head(base, data, 1e4)
    assert np.abs(held.weights[0]).max() < 1e-2
