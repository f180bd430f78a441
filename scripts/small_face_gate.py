"""Does a blur measure tell the small faces that the small-face classifier names better from those the main one does
(models/experiments/2026-12-06-sharp-small-faces.md)? Reads the faces that `scripts/faces_by_size.py --faces` saved,
one file per choice set: for each set, the faces under 48 px that only the small classifier names right (wins) and
only the main one (losses), with each group's median slope; then the thresholds on the slope of the 64 px crop under
which the small classifier keeps naming, best first by the mean over the sets of net tiles won per face. Usage:

    .venv/bin/python scripts/small_face_gate.py work/sharp/small4-*.npz
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from fanshot.vision.config import SmallFaces

SIDE, SLOPE, NATIVE_SLOPE, MAIN_RIGHT, SMALL_RIGHT = range(5)  # faces_by_size.py's columns
BELOW = SmallFaces().below  # px: the small faces


def net_won(faces: np.ndarray, named_small: np.ndarray) -> int:
    """Tiles the small classifier names right and the main one wrong, less the reverse, among `named_small`."""
    return int((faces[named_small, SMALL_RIGHT] - faces[named_small, MAIN_RIGHT]).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("faces", type=Path, nargs="+", help="faces_by_size.py --faces files, one per choice set")
    args = parser.parse_args()
    sets = {path.stem: np.load(path)["faces"] for path in args.faces}
    for name, faces in sets.items():
        small = faces[faces[:, SIDE] < BELOW]
        won = small[:, SMALL_RIGHT] - small[:, MAIN_RIGHT]
        medians = [f"{np.median(small[won == sign, column]):.2f}" if (won == sign).any() else "-"
                   for column in (SLOPE, NATIVE_SLOPE) for sign in (1, -1)]
        print(f"{name:28s} faces {len(small):4d}  wins {int((won > 0).sum()):3d}  losses {int((won < 0).sum()):3d}  "
              f"median slope wins/losses {medians[0]} / {medians[1]}  at the frame's size {medians[2]} / {medians[3]}")
    pooled = np.concatenate([faces[:, SLOPE] for faces in sets.values()])
    gates = []
    for threshold in [np.inf, *np.quantile(pooled, np.linspace(0, 1, 41))]:
        won = {name: net_won(faces, (faces[:, SIDE] < BELOW) & (faces[:, SLOPE] <= threshold))
               for name, faces in sets.items()}
        gates.append((np.mean([won[name] / len(faces) for name, faces in sets.items()]), threshold, won))
    print("ungated:", gates[0][2])
    for score, threshold, won in sorted(gates, key=lambda gate: -gate[0])[:3]:
        print(f"slope <= {threshold:.2f}: mean net {score * 1000:+.2f} per 1,000 faces  {won}")


if __name__ == "__main__":
    main()
