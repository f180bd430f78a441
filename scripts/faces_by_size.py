"""Which classifier names a YOLO set's faces better, by the face's side in the frame the recogniser reads
(models/experiments/2026-12-06-classifier-unseen-art.md, "by face size"). Each labelled box is cut from the photo
as the recogniser reads it (`load_photo`, longer side at most RECOGNITION_MAX_SIDE) and named by the shipped classifier
alone and by MODELS' small-face classifier alone. Usage (the choice sets only):

    .venv/bin/python scripts/faces_by_size.py work/tune-random work/models-small4

With `--faces OUT.npz` it also saves each face (side, the edge slope of its 64 px crop and of its crop at the
frame's size, right by the main classifier, right by the small one) for `scripts/small_face_gate.py`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from fanshot.datasets.yolo import read_names
from fanshot.vision.geometry import cut_crop, tile_sides
from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import MODELS_DIR, Recogniser
from fanshot.vision.training.train import labelled_images

BINS = (0, 24, 32, 40, 48, 56, 64, np.inf)  # px: the side (√area) of a face in the frame read
PHOTOS = (".jpg", ".jpeg", ".png")


def edge_slope(crop: np.ndarray) -> float:
    """How sharp an RGB crop's edges are, whatever its contrast: the mean absolute Laplacian of its grey over the grey's
    standard deviation (+1, for a blank crop)."""
    grey = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2GRAY).astype(np.float32)
    return float(np.abs(cv2.Laplacian(grey, cv2.CV_32F)).mean() / (grey.std() + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set", type=Path, help="a YOLO folder (data.yaml); its valid split if it has one, else train")
    parser.add_argument("models", type=Path, help="a models folder naming a small-face classifier")
    parser.add_argument("--faces", type=Path, help="also save each face (side, edge slope, right by each) here, .npz")
    args = parser.parse_args()
    main_only = Recogniser.load(MODELS_DIR)
    main_only = main_only.with_config(main_only.config.without("small_faces"))
    small_only = Recogniser.load(args.models)
    if small_only.small_classifier is None:
        parser.error(f"{args.models} names no small-face classifier (recogniser.small_faces.classifier)")
    small_only = small_only.with_config(small_only.config.changed(small_faces={"below": 1e9}))
    names = read_names(args.set)
    split = "valid" if (args.set / "valid" / "images").is_dir() else "train"
    split = split if (args.set / split / "images").is_dir() else ""
    counts = np.zeros((len(BINS) - 1, 3), dtype=int)  # faces, named right by the main one, by the small one
    records: list[np.ndarray] = []  # per photo: side, edge slope, slope at the frame's own size, right by each
    for path, labels in labelled_images(args.set, split):
        codes = [names[int(c)] for c in labels[:, 0]]
        keep = [k for k, code in enumerate(codes) if code in main_only.codes]
        if path.suffix.lower() not in PHOTOS or not keep:
            continue
        image = load_photo(path.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
        height, width = image.shape[:2]
        boxes = labels[keep, 1:] * [width, height, width, height]
        crops = np.stack([cut_crop(image, box, main_only.classifier_size) for box in boxes])
        truth = [codes[k] for k in keep]
        right = [np.array([reader.codes[i] == code for i, code in zip(probs.argmax(axis=1), truth, strict=True)])
                 for reader, probs in ((main_only, main_only.read_crops(crops)),
                                       (small_only, small_only.read_crops(crops, np.zeros(len(crops)))))]
        sides = tile_sides(boxes)
        native = [edge_slope(cut_crop(image, box, max(3, round(side)))) for box, side in zip(boxes, sides, strict=True)]
        records.append(np.column_stack([sides, [edge_slope(crop) for crop in crops], native, *right]))
        for which, side in enumerate(np.searchsorted(BINS, sides, side="right") - 1):
            counts[side] += [1, right[0][which], right[1][which]]
    if args.faces:
        np.savez(args.faces, faces=np.concatenate(records))
    print(args.set, split or "(flat)")
    bins = zip(BINS[:-1], BINS[1:], strict=True)
    for (low, high), (faces, main_right, small_right) in zip(bins, counts, strict=True):
        if faces:
            print(f"  side {low:>3}-{high:<5} n={faces:5d}  main {main_right / faces:.3f}  "
                  f"small {small_right / faces:.3f}  diff {small_right - main_right:+d}")


if __name__ == "__main__":
    main()
