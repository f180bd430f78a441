"""Find the train images that are mirrored augmentations (a flip changes a tile's face into its mirror image).

Roboflow names each augmented variant `<source>_jpg.rf.<hash>.jpg`, so variants of one source photo share a
stem; the shared set keeps no unaugmented original of its train photos. Two steps:
1. Relative: every variant is registered against the group's first variant and against its mirror image (SIFT
   matches + RANSAC affine); the hypothesis with far more inliers says whether the two differ by a mirroring.
   Rotations, shear and brightness changes keep the handedness, so this is decisive on real photos.
2. Absolute: tile glyphs of the group are matched against a bank of glyphs from unaugmented photos (valid/test)
   and against the same bank mirrored; the group's summed vote says which handedness is the true one.
A variant whose registration or whose group's vote is not clear is reported as undetermined, never guessed.
The glyph search is approximate (FLANN), so a group whose vote lies near MIN_VOTE_MARGIN can come out
undetermined in one run and decided in another.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from fanshot.datasets.errors import DatasetError
from fanshot.datasets.yolo import Box, Example

_ROBOFLOW_NAME = re.compile(r"^(.+)_(?:jpe?g|png|bmp|webp)\.rf\.[0-9a-f]+$", re.IGNORECASE)
MIN_INLIERS = 30  # fewer affine inliers than this under both hypotheses: registration failed
MIN_INLIER_RATIO = 3.0  # the winning hypothesis needs this many times the other's inliers
MIN_VOTE_MARGIN = 0.25  # |upright - mirrored| / (upright + mirrored) of a group's glyph votes
GLYPH_RATIO = 0.8  # a glyph votes when its nearest neighbour on one side is this much closer than the other


def source_stem(stem: str) -> str:
    """The source photo's stem of a Roboflow variant (`IMG_1_jpg.rf.<hash>` → `IMG_1`), else the stem."""
    match = _ROBOFLOW_NAME.match(stem)
    return match.group(1) if match else stem


@dataclass(frozen=True)
class Features:
    points: np.ndarray  # (n, 2) float32 keypoint positions
    descriptors: np.ndarray  # (n, 128) float32 SIFT descriptors


@dataclass(frozen=True)
class MirrorReport:
    mirrored: frozenset[Path]
    undetermined: frozenset[Path]


def read_gray(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise DatasetError(f"{path}: cannot read the image")
    return image


def box_mask(shape: tuple[int, ...], boxes: Iterable[Box]) -> np.ndarray:
    """A uint8 mask that is 255 inside the boxes."""
    height, width = shape[:2]
    mask = np.zeros((height, width), np.uint8)
    for b in boxes:
        x1, x2 = round((b.cx - b.w / 2) * width), round((b.cx + b.w / 2) * width)
        y1, y2 = round((b.cy - b.h / 2) * height), round((b.cy + b.h / 2) * height)
        mask[max(y1, 0):y2, max(x1, 0):x2] = 255
    return mask


def flip_boxes(boxes: Iterable[Box]) -> list[Box]:
    """The boxes of the horizontally flipped image."""
    return [Box(b.cls, 1 - b.cx, b.cy, b.w, b.h) for b in boxes]


def sift_features(image: np.ndarray, mask: np.ndarray | None = None, limit: int = 1500) -> Features:
    """Up to `limit` SIFT keypoints (inside `mask` if given) of a grey image."""
    keypoints, descriptors = cv2.SIFT_create(nfeatures=limit).detectAndCompute(image, mask)
    if descriptors is None:
        return Features(np.zeros((0, 2), np.float32), np.zeros((0, 128), np.float32))
    return Features(np.float32([k.pt for k in keypoints]), descriptors)


def affine_inliers(a: Features, b: Features) -> int:
    """Inliers of the best affine map from a's matched keypoints onto b's (Lowe ratio test, RANSAC)."""
    if len(a.descriptors) < 2 or len(b.descriptors) < 2:
        return 0
    pairs = cv2.BFMatcher().knnMatch(a.descriptors, b.descriptors, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < 0.75 * p[1].distance]
    if len(good) < 3:
        return 0
    source = a.points[[m.queryIdx for m in good]]
    target = b.points[[m.trainIdx for m in good]]
    _, inliers = cv2.estimateAffine2D(source, target, ransacReprojThreshold=6.0)
    return 0 if inliers is None else int(inliers.sum())


def relative_mirroring(same: int, flipped: int) -> bool | None:
    """From inliers against the reference and against its mirror: True if mirrored relative to it, None if
    unclear."""
    if max(same, flipped) < MIN_INLIERS or max(same, flipped) < MIN_INLIER_RATIO * min(same, flipped):
        return None
    return flipped > same


class GlyphBank:
    """SIFT descriptors of tile faces from unaugmented photos, and of their mirror images."""

    def __init__(self, upright: np.ndarray, mirrored: np.ndarray) -> None:
        self._sides = [self._index(upright), self._index(mirrored)]

    @staticmethod
    def _index(descriptors: np.ndarray) -> cv2.FlannBasedMatcher:
        if len(descriptors) == 0:
            raise DatasetError("no tile features in the reference photos for mirror detection")
        matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 32})
        matcher.add([descriptors])
        matcher.train()
        return matcher

    @classmethod
    def from_examples(cls, examples: Iterable[Example], per_image: int = 600) -> GlyphBank:
        upright, mirrored = [], []
        for example in examples:
            image = read_gray(example.image)
            upright.append(sift_features(image, box_mask(image.shape, example.boxes), per_image).descriptors)
            flipped = cv2.flip(image, 1)
            mask = box_mask(flipped.shape, flip_boxes(example.boxes))
            mirrored.append(sift_features(flipped, mask, per_image).descriptors)
        return cls(np.vstack([np.zeros((0, 128), np.float32), *upright]),
                   np.vstack([np.zeros((0, 128), np.float32), *mirrored]))

    def votes(self, descriptors: np.ndarray) -> tuple[int, int]:
        """How many descriptors are clearly nearer the upright glyphs, and how many nearer the mirrored."""
        if len(descriptors) == 0:
            return 0, 0
        upright, mirrored = (np.float32([m.distance for m in side.match(descriptors)]) for side in self._sides)
        return int((upright < GLYPH_RATIO * mirrored).sum()), int((mirrored < GLYPH_RATIO * upright).sum())


def group_verdicts(relative: Sequence[bool | None], votes: Sequence[tuple[int, int]]) -> list[bool | None]:
    """Absolute mirroring of each variant of a group, given each one's mirroring relative to the first
    (the first is False) and its glyph votes (upright, mirrored). None where undetermined."""
    upright = mirrored = 0
    for flip, (up, down) in zip(relative, votes, strict=True):
        if flip is not None:
            upright, mirrored = (upright + down, mirrored + up) if flip else (upright + up, mirrored + down)
    total = upright + mirrored
    if total == 0 or abs(upright - mirrored) < MIN_VOTE_MARGIN * total:
        return [None] * len(relative)
    first_mirrored = mirrored > upright
    return [None if flip is None else flip != first_mirrored for flip in relative]


def group_by_source(examples: Iterable[Example]) -> dict[str, list[Example]]:
    groups: dict[str, list[Example]] = {}
    for example in examples:
        groups.setdefault(source_stem(example.image.stem), []).append(example)
    return groups


def judge_group(group: Sequence[Example], bank: GlyphBank) -> list[bool | None]:
    """Mirrored / not / None (undetermined) for each variant of one source photo."""
    images = [read_gray(example.image) for example in group]
    first, first_flipped = sift_features(images[0]), sift_features(cv2.flip(images[0], 1))
    relative: list[bool | None] = [False]
    for image in images[1:]:
        features = sift_features(image)
        relative.append(relative_mirroring(affine_inliers(features, first),
                                           affine_inliers(features, first_flipped)))
    votes = [bank.votes(sift_features(image, box_mask(image.shape, example.boxes), 600).descriptors)
             for image, example in zip(images, group, strict=True)]
    return group_verdicts(relative, votes)


def find_mirrored(splits: dict[str, list[Example]], split: str = "train") -> MirrorReport:
    """Judge every image of `split`, using the other splits (unaugmented photos) as the glyph reference."""
    reference = [example for name, examples in splits.items() if name != split for example in examples]
    if split not in splits or not reference:
        raise DatasetError(f"mirror detection needs a {split!r} split and unaugmented reference splits "
                           "(valid/test) beside it")
    bank = GlyphBank.from_examples(reference)
    mirrored, undetermined = set(), set()
    for group in group_by_source(splits[split]).values():
        for example, verdict in zip(group, judge_group(group, bank), strict=True):
            if verdict is None:
                undetermined.add(example.image)
            elif verdict:
                mirrored.add(example.image)
    return MirrorReport(frozenset(mirrored), frozenset(undetermined))
