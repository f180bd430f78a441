import numpy as np
import pytest

from fanshot.vision.geometry import (
    PAD_VALUE,
    cut_crop,
    decode_yolo,
    letterbox,
    moved_boxes,
    nms,
    turn_boxes,
    unletterbox,
)


def test_letterbox_keeps_aspect_and_centres():
    image = np.zeros((100, 200, 3), dtype=np.uint8)
    boxed = letterbox(image, 416)
    assert boxed.image.shape == (416, 416, 3)
    assert boxed.scale == 416 / 200
    assert boxed.pad == (0.0, 104.0)
    assert (boxed.image[:104] == PAD_VALUE).all() and (boxed.image[104:312] == 0).all()


@pytest.mark.parametrize(("height", "width"), [(5000, 1), (1, 20000), (1, 1), (2, 1)])
def test_letterbox_keeps_a_pixel_of_long_thin_images(height, width):
    boxed = letterbox(np.zeros((height, width, 3), dtype=np.uint8), 640)
    assert boxed.image.shape == (640, 640, 3) and (boxed.image == 0).any()


def test_unletterbox_inverts_letterbox_and_clips():
    boxed = letterbox(np.zeros((100, 200, 3), dtype=np.uint8), 416)
    original = np.array([[10.0, 20.0, 50.0, 80.0]])
    on_canvas = original * boxed.scale + [0, 104, 0, 104]
    assert np.allclose(unletterbox(on_canvas, boxed, 200, 100), original)
    assert np.allclose(unletterbox(np.array([[-50.0, 0, 500, 416]]), boxed, 200, 100), [[0, 0, 200, 100]])


@pytest.mark.parametrize("quarter_turns", [-1, 1, 2, 3, 4])
def test_turn_boxes_follows_the_pixels_np_rot90_moves(quarter_turns):
    image = np.zeros((60, 100), dtype=np.uint8)
    box = np.array([[10.0, 5.0, 30.0, 45.0]])
    image[5:45, 10:30] = 1
    turned = np.rot90(image, quarter_turns)
    ys, xs = np.nonzero(turned)
    assert turn_boxes(box, quarter_turns, 100, 60).tolist() == [[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]]
    back = turn_boxes(turn_boxes(box, quarter_turns, 100, 60), -quarter_turns, *turned.shape[::-1])
    assert back.tolist() == box.tolist()


def test_decode_yolo_picks_best_class_above_threshold():
    # 3 anchors, 2 classes: rows cx, cy, w, h, score face, score back.
    output = np.array([[[10, 50, 90], [10, 50, 90], [4, 8, 2], [6, 4, 2], [0.9, 0.1, 0.2], [0.1, 0.8, 0.3]]],
                      dtype=np.float32)
    boxes, scores, classes = decode_yolo(output, conf=0.5)
    assert np.allclose(boxes, [[8, 7, 12, 13], [46, 48, 54, 52]])
    assert np.allclose(scores, [0.9, 0.8])
    assert classes.tolist() == [0, 1]


def test_nms_suppresses_overlaps_across_classes_only():
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 0, 30, 10], [0, 0, 10, 10.0]])
    scores = np.array([0.8, 0.9, 0.7, 0.1])
    assert nms(boxes, scores, 0.5).tolist() == [1, 2]
    assert nms(np.zeros((0, 4)), np.zeros(0), 0.5).tolist() == []


def test_cut_crop_stretches_and_clips():
    image = np.arange(50 * 80 * 3, dtype=np.uint8).reshape(50, 80, 3)
    assert cut_crop(image, np.array([10.2, 5.0, 30.0, 45.0]), 64).shape == (64, 64, 3)
    assert cut_crop(image, np.array([-20.0, -20.0, 200.0, 200.0]), 8).shape == (8, 8, 3)
    assert cut_crop(image, np.array([90.0, 60.0, 95.0, 70.0]), 8).shape == (8, 8, 3)  # wholly outside


def test_moved_boxes_scale_about_the_centre_and_shift_by_shares_of_the_box():
    box = np.array([10.0, 20.0, 30.0, 60.0])  # 20 wide, 40 tall, centred on (20, 40)
    moved = moved_boxes(box, [(1.0, 0.0, 0.0), (1.5, 0.0, 0.0), (1.0, 0.1, -0.25)])
    assert moved.tolist() == [[10, 20, 30, 60], [5, 10, 35, 70], [12, 10, 32, 50]]
