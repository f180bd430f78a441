"""Training of the two-stage recogniser: a YOLO11n tile localiser (face / back) and a yolo11n-cls crop
classifier over our tile codes. Builds both datasets from a 43-class YOLO folder (`fanshot dataset import`),
trains with ultralytics, exports ONNX. ultralytics and torch are imported only inside the functions that
train or export, so the app never needs them.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from datasets.yolo import format_data_yaml, parse_labels, read_names
from scoring.tiles import BACK
from vision.geometry import cut_crop

LOCALISER_CLASSES = ("face", "back")
LOCALISER_IMGSZ = 416
CLASSIFIER_IMGSZ = 64
# Crop jitter mimicking a localiser's box error: scale and shift as fractions of the box size.
JITTER_SCALE = 0.08
JITTER_SHIFT = 0.05
SPLITS = {"train": "train", "valid": "val"}  # source split folder -> ultralytics split name


def labelled_images(root: Path, split: str) -> Iterator[tuple[Path, np.ndarray]]:
    """(image, boxes) of one split; boxes is N×5 [class, x1, y1, x2, y2] normalised."""
    names = read_names(root)
    for image in sorted((root / split / "images").iterdir()):
        label = root / split / "labels" / f"{image.stem}.txt"
        text = label.read_text(encoding="utf-8") if label.is_file() else ""
        boxes = parse_labels(text, str(label), len(names))
        yield image, np.array([(b.cls, b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2, b.cy + b.h / 2)
                               for b in boxes], dtype=np.float64).reshape(-1, 5)


def build_localiser_dataset(src: Path, dst: Path) -> Path:
    """A face/back YOLO dataset (images linked, labels rewritten) for train and valid; returns its data.yaml."""
    back = read_names(src).index(BACK)
    for split in SPLITS:
        (dst / split / "images").mkdir(parents=True, exist_ok=True)
        (dst / split / "labels").mkdir(parents=True, exist_ok=True)
        for image, boxes in labelled_images(src, split):
            link = dst / split / "images" / image.name
            if not link.exists():
                link.symlink_to(image.resolve())
            lines = [f"{int(c == back)} {(x1 + x2) / 2:.6f} {(y1 + y2) / 2:.6f} {x2 - x1:.6f} {y2 - y1:.6f}\n"
                     for c, x1, y1, x2, y2 in boxes]
            (dst / split / "labels" / f"{image.stem}.txt").write_text("".join(lines), encoding="utf-8")
    data = dst / "data.yaml"
    data.write_text(format_data_yaml(LOCALISER_CLASSES, SPLITS), encoding="utf-8")
    return data


def jitter_box(box: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Randomly rescale and shift an [x1, y1, x2, y2] box by a few % of its size, like a localiser's error."""
    size = box[2:] - box[:2]
    centre = (box[:2] + box[2:]) / 2 + rng.uniform(-1, 1, 2) * JITTER_SHIFT * size
    size = size * (1 + rng.uniform(-1, 1, 2) * JITTER_SCALE)
    return np.concatenate([centre - size / 2, centre + size / 2])


def build_crop_dataset(src: Path, dst: Path, *, size: int = CLASSIFIER_IMGSZ, copies: int = 1,
                       seed: int = 0) -> dict[str, int]:
    """An ImageFolder dataset (dst/{train,val}/<code>/*.png) of jittered tile crops; returns crops per class.
    Only classes present in the train split get a folder (ultralytics takes the class list from them)."""
    names = read_names(src)
    rng = np.random.default_rng(seed)
    counts: dict[str, int] = {}
    for split, target in SPLITS.items():
        for image_path, boxes in labelled_images(src, split):
            image = cv2.imread(str(image_path))
            height, width = image.shape[:2]
            for index, (c, *box) in enumerate(boxes):
                code = names[int(c)]
                if target == "val" and code not in counts:
                    continue
                folder = dst / target / code
                folder.mkdir(parents=True, exist_ok=True)
                pixels = np.array(box) * [width, height, width, height]
                for copy in range(copies):
                    crop = cut_crop(image, jitter_box(pixels, rng), size)
                    cv2.imwrite(str(folder / f"{image_path.stem}_{index}_{copy}.png"), crop)
                if target == "train":
                    counts[code] = counts.get(code, 0) + copies
    return counts


def add_localiser_crops(src: Path, dst: Path, models_dir: Path, *, size: int = CLASSIFIER_IMGSZ,
                        min_iou: float = 0.5) -> int:
    """Add to dst/train crops cut by the shipped localiser's own boxes on the train split, each labelled with
    the true box it overlaps most (IoU ≥ min_iou): the classifier then learns on the boxes it will be given."""
    from vision.geometry import iou
    from vision.recognize import CONF, load_models, localise

    names, models, added = read_names(src), load_models(models_dir), 0
    for image_path, boxes in labelled_images(src, "train"):
        image = cv2.imread(str(image_path))
        height, width = image.shape[:2]
        truth = boxes[:, 1:] * [width, height, width, height]
        found, _, _ = localise(cv2.cvtColor(image, cv2.COLOR_BGR2RGB), models, CONF)
        for index, box in enumerate(found if len(truth) else []):
            overlaps = iou(box, truth)
            if overlaps.max() >= min_iou:
                folder = dst / "train" / names[int(boxes[overlaps.argmax(), 0])]
                if folder.is_dir():
                    cv2.imwrite(str(folder / f"pred_{image_path.stem}_{index}.png"), cut_crop(image, box, size))
                    added += 1
    return added


def configure_ultralytics(config_dir: Path) -> None:
    """Offline switches (TRAINING_NOTES.md): no DNS probes, downloads, auto-installs or telemetry."""
    config_dir.mkdir(parents=True, exist_ok=True)
    os.environ.update(YOLO_OFFLINE="1", YOLO_AUTOINSTALL="0", YOLO_CONFIG_DIR=str(config_dir))
    font = config_dir / "Arial.ttf"
    if not font.exists():
        fonts = sorted(Path("/usr/share/fonts").rglob("*Sans-Regular.ttf")) or sorted(
            Path("/usr/share/fonts").rglob("*.ttf"))
        shutil.copy(fonts[0], font)
    from ultralytics import settings

    settings.update(sync=False, clearml=False, comet=False, dvc=False, mlflow=False, raytune=False,
                    wandb=False, tensorboard=False, weights_dir=str(config_dir.resolve() / "weights"),
                    runs_dir=str(config_dir.resolve() / "runs"), datasets_dir=str(config_dir.resolve() / "datasets"))


# Shared training arguments: CPU, no AMP (its check downloads), no mirrored characters, AdamW per the notes.
COMMON_ARGS = dict(device="cpu", amp=False, fliplr=0.0, optimizer="AdamW", workers=0, plots=False,
                   exist_ok=True, verbose=False)


def train(kind: str, data: Path, runs: Path, *, hours: float, batch: int = 16, lr0: float = 0.0015,
          resume: bool = False, init: Path | None = None, name: str | None = None) -> Path:
    """Train the localiser ("localiser", `data` = its data.yaml) or the classifier ("classifier", `data` = the
    crop folder) for a wall-clock budget (ultralytics fits the epoch count and LR schedule to it).
    Checkpoints go to runs/<name or kind>/weights; `resume` continues from last.pt (same schedule); `init`
    starts a new schedule from a checkpoint's weights, without warm-up. Returns best.pt."""
    configure_ultralytics(runs / "ultralytics-config")
    from ultralytics import YOLO

    name = name or kind
    weights = runs / name / "weights"
    if resume:
        YOLO(str(weights / "last.pt")).train(resume=True)
        return weights / "best.pt"
    if kind == "localiser":
        model, args = "yolo11n.yaml", dict(imgsz=LOCALISER_IMGSZ, close_mosaic=3, cache="ram")
    else:
        # Mild crops, no erasing: a cut-off or erased pip changes the tile.
        model, args = "yolo11n-cls.yaml", dict(imgsz=CLASSIFIER_IMGSZ, cache="ram", scale=0.15, erasing=0.0)
    if init:
        model, args = str(init), {**args, "warmup_epochs": 0}
    YOLO(model).train(data=str(data), project=str(runs.resolve()), name=name, time=hours, epochs=1000,
                      batch=batch, lr0=lr0, save_period=1, **COMMON_ARGS, **args)
    return weights / "best.pt"


def export(weights: Path, out: Path, imgsz: int, *, dynamic: bool) -> tuple[Path, list[str]]:
    """Export a checkpoint to ONNX at `out` (`dynamic`: variable batch, for the classifier's crops); returns the
    path and the model's class names."""
    configure_ultralytics(weights.parent.parent.parent / "ultralytics-config")
    from ultralytics import YOLO

    model = YOLO(str(weights))
    exported = Path(model.export(format="onnx", imgsz=imgsz, simplify=True, dynamic=dynamic, opset=17))
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(exported, out)
    return out, [model.names[i] for i in range(len(model.names))]


def write_model_json(path: Path, localiser: dict, classifier: dict, commands: list[str]) -> None:
    path.write_text(json.dumps({"localiser": localiser, "classifier": classifier, "training": commands},
                               indent=2) + "\n", encoding="utf-8")
