"""The Python side of tests/js/localiser-python.test.js: each photo decoded as the server decodes one (so both
sides read the same pixels), and a 4:3 crop of it (a camera frame's shape), written as raw RGB, with the boxes the
shipped localiser's single look finds in it (`Recogniser.localise` at vision.json's conf).

    python tests/js/localiser_reference.py OUT PHOTO...   # writes OUT/N.rgb and prints the frames as JSON
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from fanshot.vision.image import RECOGNITION_MAX_SIDE, load_photo
from fanshot.vision.recogniser import shipped


def frames(photo: Path) -> list[np.ndarray]:
    image = load_photo(photo.read_bytes(), max_side=RECOGNITION_MAX_SIDE)
    height, width = image.shape[:2]
    return [image, np.ascontiguousarray(image[: min(height, width * 3 // 4), :])]


def main(out: Path, photos: list[Path]) -> None:
    recogniser = shipped()
    written = []
    for photo in photos:
        for frame in frames(photo):
            found = recogniser.localise(frame, recogniser.config.conf)
            pixels = out / f"{len(written)}.rgb"
            pixels.write_bytes(frame.tobytes())
            written.append({"photo": photo.name, "pixels": str(pixels), "width": frame.shape[1],
                            "height": frame.shape[0], "boxes": found.boxes.tolist(),
                            "scores": found.scores.tolist(), "kinds": found.kinds})
    print(json.dumps(written))


if __name__ == "__main__":
    main(Path(sys.argv[1]), [Path(name) for name in sys.argv[2:]])
