"""The evaluation sets of `fanshot evalsets` and the pieces they are made of: the web crops' hold-out, rows of
pasted crops with their boxes, clutter photos, distractors, and the face variants of `fanshot synth --randomise`."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from fanshot.datasets.classes import CLASSES
from fanshot.datasets.synth.distractors import DISTRACTORS, scatter
from fanshot.datasets.synth.evalsets import (
    HOLD_OUT_FROM,
    Crop,
    build_eval_sets,
    build_train_rows,
    split_web_crops,
    web_crops,
    write_rows,
)
from fanshot.datasets.synth.faces import FACE_H, FACE_W, IVORY
from fanshot.datasets.synth.variants import blank_white, framed_white, ink, randomise_faces, red_painted
from fanshot.datasets.yolo import parse_labels, read_split
from fanshot.scoring.tiles import parse

COLOURS = {"1m": (255, 0, 0), "2p": (0, 255, 0), "3s": (0, 0, 255)}


def fake_web_tiles(root: Path, count: int = 12) -> Path:
    """A web-tiles folder of `count` plain-coloured 'crops' (240×320), numbered 1..count."""
    (root / "images").mkdir(parents=True)
    lines = []
    for number in range(1, count + 1):
        code = list(COLOURS)[number % 3]
        cv2.imwrite(str(root / "images" / f"{number}.jpg"), np.full((320, 240, 3), COLOURS[code][::-1], np.uint8))
        lines.append(json.dumps({"image": f"images/{number}.jpg", "tiles": code, "backs": 0}))
    (root / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    return root


def test_the_held_out_third_is_the_crops_numbered_from_210():
    crops = [Crop(n, Path(f"{n}.jpg"), "1m") for n in range(314, 0, -1)]
    train, held_out = split_web_crops(sorted(crops, key=lambda c: c.number))
    assert [c.number for c in train] == list(range(1, HOLD_OUT_FROM))
    assert [c.number for c in held_out] == list(range(HOLD_OUT_FROM, 315))
    assert len(held_out) == 105  # a third of 314


def test_web_crops_are_read_in_number_order(tmp_path):
    crops = web_crops(fake_web_tiles(tmp_path / "web"))
    assert [c.number for c in crops] == list(range(1, 13)) and crops[0].code == "2p"


def test_row_labels_box_the_pasted_tiles(tmp_path):
    crops = web_crops(fake_web_tiles(tmp_path / "web"))
    assert write_rows(tmp_path / "rows", crops, 3, seed=1, size=(800, 600), width_share=(0.05, 0.06)) == 3 * 14
    names = (tmp_path / "rows" / "data.yaml").read_text()
    assert "1m" in names
    for label in sorted((tmp_path / "rows" / "labels").glob("*.txt")):
        image = cv2.cvtColor(cv2.imread(str(tmp_path / "rows" / "images" / f"{label.stem}.jpg")), cv2.COLOR_BGR2RGB)
        boxes = parse_labels(label.read_text(), str(label), len(CLASSES))
        assert len(boxes) == 14
        for box in boxes:
            # the centre of each box holds its tile's colour (a pure primary before light and JPEG)
            x, y = round(box.cx * 800), round(box.cy * 600)
            centre = image[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).mean(axis=0)
            assert int(np.argmax(centre)) == int(np.argmax(COLOURS[CLASSES[box.cls]]))


@pytest.mark.slow
def test_eval_sets_hold_out_by_number_and_clutter_has_no_tile(tmp_path):
    web = fake_web_tiles(tmp_path / "web", count=HOLD_OUT_FROM + 4)
    sets = build_eval_sets(tmp_path / "sets", root=web, rows=2, big=1, clutter=2, big_size=(1000, 750))
    closeups = [json.loads(line) for line in sets["web-closeups"].read_text().splitlines()]
    assert [e["image"] for e in closeups] == [f"images/{n}.jpg" for n in range(HOLD_OUT_FROM, HOLD_OUT_FROM + 5)]
    train = [json.loads(line) for line in sets["web-closeups-train"].read_text().splitlines()]
    assert len(train) == HOLD_OUT_FROM - 1
    assert all((sets["web-closeups-train"].parent / e["image"]).is_file() for e in train)
    clutter = [json.loads(line) for line in sets["clutter"].read_text().splitlines()]
    assert len(clutter) == 2 and all(parse(e["tiles"]) == [] for e in clutter)
    negatives = sets["clutter"].parent  # the same photos as a YOLO folder of empty labels, for training's negatives
    assert (negatives / "data.yaml").is_file()
    assert [example.boxes for example in read_split(negatives, len(CLASSES))] == [(), ()]
    big = next((sets["small-12mp-train"] / "images").glob("*.jpg"))
    assert cv2.imread(str(big)).shape == (750, 1000, 3)

    def widths(name: str) -> list[float]:  # each tile's shorter side (as `by_width`), over the photo's width
        return [min(box.w, box.h * 0.75) for example in read_split(sets[name], len(CLASSES)) for box in example.boxes]

    for tiny, small in (("tiny-12mp", "small-12mp"), ("tiny-12mp-train", "small-12mp-train")):
        # tiles 0.4-1.25 % of the width, their boxes widened by turning up to 20°; small ones 2-4 %
        assert max(widths(tiny)) < 0.025 and np.median(widths(tiny)) < np.median(widths(small))


def test_training_rows_come_from_the_training_two_thirds_only(tmp_path):
    web = fake_web_tiles(tmp_path / "web", count=HOLD_OUT_FROM + 2)
    for number in (HOLD_OUT_FROM, HOLD_OUT_FROM + 1, HOLD_OUT_FROM + 2):  # held out: white, never pasted
        cv2.imwrite(str(web / "images" / f"{number}.jpg"), np.full((320, 240, 3), 255, np.uint8))
    build_train_rows(tmp_path / "rows", 2, seed=3, root=web)
    for label in (tmp_path / "rows" / "labels").glob("*.txt"):
        image = cv2.imread(str(tmp_path / "rows" / "images" / f"{label.stem}.jpg"))
        for box in parse_labels(label.read_text(), str(label), len(CLASSES)):
            x, y = round(box.cx * 1024), round(box.cy * 768)
            assert image[y, x].max() - image[y, x].min() > 80  # a primary colour, not held-out white


@pytest.mark.parametrize("kind", sorted(DISTRACTORS))
def test_each_distractor_draws_on_the_image(kind):
    image = np.full((300, 300, 3), 128, np.uint8)
    DISTRACTORS[kind](image, np.random.default_rng(0), (150.0, 150.0), 30.0)
    assert (image != 128).any(axis=2).mean() > 0.01


def test_scatter_draws_on_float_images_too():
    image = np.full((200, 300, 3), 90.0, np.float32)
    kinds = scatter(image, np.random.default_rng(1), 3, 20.0)
    assert len(kinds) == 3 and image.dtype == np.float32 and (image != 90).any()


def face_with_ink() -> np.ndarray:
    face = np.full((FACE_H, FACE_W, 3), IVORY, np.uint8)
    cv2.circle(face, (FACE_W // 2, FACE_H // 2), 20, (20, 20, 25), -1)
    return face


def test_a_red_five_keeps_the_ivory_and_paints_the_ink_red():
    red = red_painted(face_with_ink())
    assert tuple(red[0, 0]) == IVORY
    r, g, b = red[FACE_H // 2, FACE_W // 2].astype(int)
    assert r > 150 and g < 60 and b < 60


def test_white_dragons_blank_and_framed():
    rng = np.random.default_rng(0)
    assert ink(blank_white(rng)).max() < 0.1
    framed = ink(framed_white(rng))
    assert framed.max() > 0.5 and framed[FACE_H // 2, FACE_W // 2] < 0.1  # a frame, empty inside


def test_randomised_faces_are_seeded_and_leave_the_set_alone():
    faces = {code: face_with_ink() for code in ("5m", "5p", "5s", "5z", "1z")}
    before = {code: face.copy() for code, face in faces.items()}
    first = randomise_faces(faces, np.random.default_rng(7))
    second = randomise_faces(faces, np.random.default_rng(7))
    assert first[1] == second[1] and all((first[0][c] == second[0][c]).all() for c in faces)
    assert all((faces[c] == before[c]).all() for c in faces)
    taken = [randomise_faces(faces, np.random.default_rng(seed))[1] for seed in range(40)]
    assert any(t.get("fives") == "red" for t in taken) and {"blank", "framed"} <= {t.get("white") for t in taken}
