"""Training of the two-stage recogniser: a YOLO11n tile localiser (face / back) and a yolo11n-cls crop
classifier over our tile codes. Builds both datasets from a 43-class YOLO folder (`fanshot dataset import`;
both train sets can mix in more, e.g. `fanshot synth` photos), trains with ultralytics (from scratch, a
checkpoint or a shipped ONNX model), exports ONNX. ultralytics and torch are imported only
inside the functions that train or export, so the app never needs them.
"""

from __future__ import annotations

import ast
import os
import shutil
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from fanshot.datasets.classes import CLASS_INDEX, CLASSES
from fanshot.datasets.errors import DatasetError
from fanshot.datasets.progress import progress
from fanshot.datasets.yolo import Example, format_data_yaml, format_labels, read_names, read_split
from fanshot.scoring.tiles import BACK
from fanshot.vision.geometry import cut_crop, iou, letterbox
from fanshot.vision.image import fit_size, restore_pillow_open
from fanshot.vision.recogniser import NOT_A_TILE, Look, Recogniser, to_tensor

LOCALISER_CLASSES = ("face", "back")
LOCALISER_IMGSZ = 416
CLASSIFIER_IMGSZ = 64
# Crop jitter mimicking a localiser's box error: scale and shift as fractions of the box size.
JITTER_SCALE = 0.08
JITTER_SHIFT = 0.05
# A far tile's box, px across in the photo (`--small`): tiny 12 MP photos show tiles 20-40 px wide, which the
# classifier trained on 60-300 px tiles reads 0.71 right (models/experiments/2026-12-06-classifier-unseen-art.md)
SMALL_WIDTHS = (16, 44)
SMALL_JPEG = (70, 95)
SPLITS = {"train": "train", "valid": "val"}  # source split folder -> ultralytics split name
CALIBRATION_IMAGES = 64  # train images whose activations rebuild the BatchNorms of an ONNX-initialised model
CALIBRATION_CROPS = 2048  # the same for the classifier, in train crops
# Negative crops (`add_negative_crops`): found at a threshold below any shipped one, so that a lower threshold meets
# nothing the classifier never saw; a box overlapping a labelled tile this much is a tile, however badly boxed.
NEGATIVE_CONF = 0.3
NEGATIVE_MAX_IOU = 0.1
NEGATIVE_VAL_EVERY = 10


def labelled_images(root: Path, split: str) -> Iterator[tuple[Path, np.ndarray]]:
    """(image, boxes) of one split ("" for a flat folder); boxes is N×5 [class, x1, y1, x2, y2] normalised."""
    for example in read_split(root / split, len(read_names(root))):
        yield example.image, np.array([(b.cls, b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2, b.cy + b.h / 2)
                                       for b in example.boxes], dtype=np.float64).reshape(-1, 5)


def _localiser_split(src: Path, split: str, dst: Path, back: int, prefix: str = "") -> None:
    """Link src's split images into dst (names prefixed) with face/back labels (`back`: src's class index of a
    back)."""
    for image, boxes in labelled_images(src, split):
        target = dst / "images" / f"{prefix}{image.stem}{image.suffix}"
        if not target.exists():
            target.symlink_to(image.resolve())
        lines = [f"{int(c == back)} {(x1 + x2) / 2:.6f} {(y1 + y2) / 2:.6f} {x2 - x1:.6f} {y2 - y1:.6f}\n"
                 for c, x1, y1, x2, y2 in boxes]
        (dst / "labels" / f"{target.stem}.txt").write_text("".join(lines), encoding="utf-8")


def _shrunk(image: np.ndarray, longest: int) -> np.ndarray:
    if max(image.shape[:2]) <= longest:
        return image
    return cv2.resize(image, fit_size(image.shape[1], image.shape[0], longest), interpolation=cv2.INTER_AREA)


def _train_split(folder: Path) -> str:
    """The split of an extra YOLO folder to train on: its train/, or the folder itself when flat."""
    return "train" if (folder / "train" / "images").is_dir() else ""


def build_localiser_dataset(src: Path, dst: Path, extra: Sequence[Path] = ()) -> Path:
    """A face/back YOLO dataset (images linked, labels rewritten) for train and valid; returns its data.yaml.
    Each `extra` YOLO folder (its train/ split, or the folder itself when flat, like `fanshot synth`'s) is mixed
    into train, its images prefixed `extra<k>_`."""
    # every source's classes are read first: a folder without data.yaml or a back class leaves no empty dst behind
    src_back = read_names(src).index(BACK)
    extra_backs = [read_names(folder).index(BACK) for folder in extra]
    for split in SPLITS:
        for folder in ("images", "labels"):
            (dst / split / folder).mkdir(parents=True, exist_ok=True)
        _localiser_split(src, split, dst / split, src_back)
    data = dst / "data.yaml"
    data.write_text(format_data_yaml(LOCALISER_CLASSES, SPLITS), encoding="utf-8")
    for k, (folder, back) in enumerate(zip(extra, extra_backs, strict=True)):
        _localiser_split(folder, _train_split(folder), dst / "train", back, f"extra{k}_")
    return data


def roboflow_variants(examples: Sequence[Example], most: int) -> list[Example]:
    """The examples with at most `most` of each photo's augmented copies: a Roboflow export names them
    `<photo>.rf.<hash>.<ext>`, the first ones in name order kept (a name without `.rf.` is a photo of its own)."""
    kept: Counter[str] = Counter()
    chosen = []
    for example in examples:  # read_split's order: by file name
        photo = example.image.name.split(".rf.")[0]
        if kept[photo] < most:
            kept[photo] += 1
            chosen.append(example)
    return chosen


def pack(src: Path, dst: Path, extra: Sequence[Path] = (), negatives: Sequence[Path] = (),
         shrink_to: int = LOCALISER_IMGSZ, most_valid: int | None = None, variants: int | None = None,
         quality: int = 80) -> dict[str, int]:
    """A self-contained copy of the training photos, small enough to carry to a GPU machine, which builds both
    training sets from it (scripts/gpu_train.sh): DST/tiles, a YOLO folder of src's train and valid splits with
    each `extra` mixed into train (prefixed `extra<k>_`), and DST/negatives, a flat one of the `negatives` photos
    (of no tile). Every image is written shrunk to `shrink_to` as WebP at `quality` (labels are normalised: they
    hold) and labelled in our tile codes. What a call may carry is bounded: `most_valid` keeps a seeded sample of
    that many valid photos, `variants` that many augmented copies of each of src's train photos
    (`roboflow_variants`). Returns the photos written per folder."""
    sources = [(src, split, dst / "tiles" / split, "") for split in SPLITS]
    sources += [(folder, _train_split(folder), dst / "tiles" / "train", f"extra{k}_") for k, folder in enumerate(extra)]
    sources += [(folder, _train_split(folder), dst / "negatives", f"n{k}_") for k, folder in enumerate(negatives)]
    codes = {root: _our_codes(root) for root, *_ in sources}  # a bad source fails before anything is written
    written: dict[str, int] = {}
    for root, split, target, prefix in sources:
        for folder in ("images", "labels"):
            (target / folder).mkdir(parents=True, exist_ok=True)
        examples = read_split(root / split, len(codes[root]))
        if split == "valid" and most_valid is not None and len(examples) > most_valid:
            examples = [examples[i] for i in sorted(np.random.default_rng(0).permutation(len(examples))[:most_valid])]
        if root == src and split == "train" and variants is not None:
            examples = roboflow_variants(examples, variants)
        for example in progress(examples, f"pack {root.name}/{split}".rstrip("/")):
            image = target / "images" / f"{prefix}{example.image.stem}.webp"
            shrunk = _shrunk(cv2.imread(str(example.image)), shrink_to)
            cv2.imwrite(str(image), shrunk, [cv2.IMWRITE_WEBP_QUALITY, quality])
            boxes = [replace(box, cls=codes[root][box.cls]) for box in example.boxes]
            (target / "labels" / f"{image.stem}.txt").write_text(format_labels(boxes), encoding="ascii")
        folder = target.relative_to(dst).parts[0]  # tiles or negatives
        written[folder] = written.get(folder, 0) + len(examples)
    (dst / "tiles" / "data.yaml").write_text(format_data_yaml(CLASSES, SPLITS), encoding="utf-8")
    if negatives:
        (dst / "negatives" / "data.yaml").write_text(format_data_yaml(CLASSES, [""]), encoding="utf-8")
    return written


def _our_codes(root: Path) -> list[int]:
    """Each class index of a YOLO folder mapped to our tile code's index; an unknown name is refused."""
    names = read_names(root)
    unknown = [name for name in names if name not in CLASS_INDEX]
    if unknown:
        raise DatasetError(f"{root}: classes {unknown} are not tile codes; import the folder first "
                           "(`fanshot dataset import`)")
    return [CLASS_INDEX[name] for name in names]


def jitter_box(box: np.ndarray, rng: np.random.Generator, scale: float = JITTER_SCALE) -> np.ndarray:
    """Randomly rescale (each side by up to `scale`) and shift an [x1, y1, x2, y2] box by a few % of its size,
    like a localiser's error."""
    size = box[2:] - box[:2]
    centre = (box[:2] + box[2:]) / 2 + rng.uniform(-1, 1, 2) * JITTER_SHIFT * size
    size = size * (1 + rng.uniform(-1, 1, 2) * scale)
    return np.concatenate([centre - size / 2, centre + size / 2])


def shown_small(crop: np.ndarray, aspect: float, rng: np.random.Generator) -> np.ndarray:
    """A crop as a far tile's: its box shrunk to SMALL_WIDTHS px wide (`aspect` = the box's height over width),
    JPEG-coded at SMALL_JPEG quality, then enlarged back to the crop's size as `cut_crop` enlarges a small box."""
    width = int(rng.integers(*SMALL_WIDTHS, endpoint=True))
    small = cv2.resize(crop, (width, max(1, round(width * aspect))), interpolation=cv2.INTER_AREA)
    quality = int(rng.integers(*SMALL_JPEG, endpoint=True))
    small = cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    return cv2.resize(small, crop.shape[1::-1], interpolation=cv2.INTER_LINEAR)


def build_crop_dataset(src: Path, dst: Path, *, size: int = CLASSIFIER_IMGSZ, copies: int = 1, seed: int = 0,
                       extra: Sequence[Path] = (), jitter_scale: float = JITTER_SCALE,
                       small: float = 0.0) -> dict[str, int]:
    """An ImageFolder dataset (dst/{train,val}/<code>/*.png) of jittered tile crops (each side scaled by up to
    `jitter_scale`), `small` of the train crops shown as far tiles' (`shown_small`); returns crops per class.
    Only classes present in src's train split get a folder (ultralytics takes the class list from them). Each
    `extra` YOLO folder (like `build_localiser_dataset`'s) adds train crops of those classes, named `extra<k>_`."""
    rng, small_rng = np.random.default_rng(seed), np.random.default_rng([seed, 1])  # jitter as without `small`
    counts: dict[str, int] = {}
    sources = [(src, split, target, "") for split, target in SPLITS.items()]
    sources += [(folder, _train_split(folder), "train", f"extra{k}_") for k, folder in enumerate(extra)]
    for root, split, target, prefix in sources:
        names = read_names(root)
        for image_path, boxes in labelled_images(root, split):
            image = cv2.imread(str(image_path))
            height, width = image.shape[:2]
            for index, (c, *box) in enumerate(boxes):
                code = names[int(c)]
                if (target == "val" or prefix) and code not in counts:
                    continue
                folder = dst / target / code
                folder.mkdir(parents=True, exist_ok=True)
                pixels = np.array(box) * [width, height, width, height]
                for copy in range(copies):
                    box = jitter_box(pixels, rng, jitter_scale)
                    crop = cut_crop(image, box, size)
                    if target == "train" and small and small_rng.random() < small:
                        crop = shown_small(crop, (box[3] - box[1]) / max(box[2] - box[0], 1e-6), small_rng)
                    cv2.imwrite(str(folder / f"{prefix}{image_path.stem}_{index}_{copy}.png"), crop)
                if target == "train":
                    counts[code] = counts.get(code, 0) + copies
    return counts


def add_localiser_crops(src: Path, dst: Path, models_dir: Path, *, size: int = CLASSIFIER_IMGSZ,
                        min_iou: float = 0.5) -> int:
    """Add to dst/train crops cut by the recogniser's own boxes (its localisation stages, `Recogniser.find`) on
    the train split, each labelled with the true box it overlaps most (IoU ≥ min_iou): the classifier then learns
    on the boxes it will be given."""
    names, recogniser, added = read_names(src), Recogniser.load(models_dir), 0
    for image_path, boxes in labelled_images(src, "train"):
        look, width, height = _look(recogniser, image_path)
        truth = boxes[:, 1:] * [width, height, width, height]
        sure = look.found.scores >= recogniser.config.conf
        in_photo = look.photo_boxes(width, height)
        for index in np.flatnonzero(sure) if len(truth) else []:
            overlaps = iou(in_photo[index], truth)
            if overlaps.max() >= min_iou:
                folder = dst / "train" / names[int(boxes[overlaps.argmax(), 0])]
                if folder.is_dir():
                    _write_crop(folder / f"pred_{image_path.stem}_{index}.png", look, index, size)
                    added += 1
    return added


def _look(recogniser: Recogniser, image_path: Path) -> tuple[Look, int, int]:
    """The recogniser's localisation stages on a photo file: the `Look`, and the photo's width and height."""
    image = cv2.cvtColor(cv2.imread(str(image_path)), cv2.COLOR_BGR2RGB)
    return recogniser.find(image), image.shape[1], image.shape[0]


def _write_crop(path: Path, look: Look, index: int, size: int) -> None:
    """Write the crop of one of a look's tiles, cut from the image as read (upright), as a BGR PNG."""
    crop = cut_crop(look.image, look.found.boxes[index], size)
    cv2.imwrite(str(path), cv2.cvtColor(crop, cv2.COLOR_RGB2BGR))


def add_negative_crops(sources: Sequence[Sequence[tuple[Path, list[tuple[str, np.ndarray]]]]], dst: Path,
                       models_dir: Path, *, size: int = CLASSIFIER_IMGSZ) -> int:
    """Add `NOT_A_TILE` crops to dst/train/none (every NEGATIVE_VAL_EVERY-th to dst/val/none): the boxes the
    recogniser's localisation stages (`Recogniser.find`, sure at NEGATIVE_CONF) find on no labelled tile of photos
    whose every tile is labelled (renders and rows with distractors, photos of no tile), each source's photos as
    `vision.training.refit.source_photos` lists them. A classifier that knows the class turns such boxes down
    (`Recogniser.drop_non_tiles`). Returns crops added."""
    base = Recogniser.load(models_dir)
    recogniser, added = base.with_config(base.config.changed(conf=NEGATIVE_CONF, unsure=NEGATIVE_CONF)), 0
    for k, photos in enumerate(sources):
        for image_path, labels in photos:
            look, width, height = _look(recogniser, image_path)
            truth = np.array([box for _, box in labels]).reshape(-1, 4) * [width, height, width, height]
            for index, box in enumerate(look.photo_boxes(width, height)):
                if len(truth) and iou(box, truth).max() >= NEGATIVE_MAX_IOU:
                    continue
                added += 1
                folder = dst / ("val" if added % NEGATIVE_VAL_EVERY == 0 else "train") / NOT_A_TILE
                folder.mkdir(parents=True, exist_ok=True)
                _write_crop(folder / f"none{k}_{image_path.stem}_{index}.png", look, index, size)
    return added


def _float_model(checkpoint: Path):
    """An ultralytics checkpoint's data and its model (the EMA weights where kept) in float32."""
    import pickle

    import torch

    try:
        checkpoint_data = torch.load(checkpoint, map_location="cpu", weights_only=False)
    except (pickle.UnpicklingError, RuntimeError, EOFError) as error:
        raise ValueError(f"{checkpoint} is not a torch checkpoint: {error}") from None
    model = (checkpoint_data.get("ema") or checkpoint_data.get("model")) if isinstance(checkpoint_data, dict) else None
    if model is None:
        raise ValueError(f"{checkpoint} is not an ultralytics checkpoint")
    return checkpoint_data, model.float()


def _save_model(model, train_args: dict, out: Path) -> Path:
    """Save a model as an ultralytics checkpoint (training and export take it), creating out's folder."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": train_args}, out)
    return out


def widened_classifier(checkpoint: Path, names: Sequence[str], out: Path) -> Path:
    """A classifier checkpoint whose last layer reads `names` (in the crop folders' order): the rows of the classes
    it knows are kept, a new class starts at zero weights and the lowest bias (never chosen until trained), so a
    fine-tune that adds a class (`NOT_A_TILE`) keeps what the model knew. ultralytics would start the whole layer
    afresh on a class count that differs."""
    import torch

    checkpoint_data, model = _float_model(checkpoint)
    linear, known = model.model[-1].linear, list(model.names.values())
    wider = torch.nn.Linear(linear.in_features, len(names))
    with torch.no_grad():
        wider.weight.zero_()
        wider.bias.fill_(float(linear.bias.min()))
        for row, name in enumerate(names):
            if name in known:
                wider.weight[row] = linear.weight[known.index(name)]
                wider.bias[row] = linear.bias[known.index(name)]
    model.model[-1].linear, model.names = wider, dict(enumerate(names))
    model.yaml["nc"] = len(names)
    return _save_model(model, checkpoint_data.get("train_args", {}), out)


def averaged_model(checkpoints: Sequence[Path], out: Path) -> Path:
    """A checkpoint whose every weight and BatchNorm statistic is the mean of the `checkpoints`' (a uniform model
    soup, Wortsman et al. 2022). Fine-tunes from one starting point stay in one basin of the loss, so their mean can
    keep much of what each learnt, at one model's cost. The checkpoints must share the architecture and the class
    list, in order."""
    import torch

    if len(checkpoints) < 2:
        raise ValueError("averaging needs two checkpoints or more")
    first_data, model = _float_model(checkpoints[0])
    states = [model.state_dict()]
    for checkpoint in checkpoints[1:]:
        other = _float_model(checkpoint)[1]
        if other.names != model.names:
            raise ValueError(f"{checkpoint} reads other classes than {checkpoints[0]}")
        state = other.state_dict()
        if {k: v.shape for k, v in state.items()} != {k: v.shape for k, v in states[0].items()}:
            raise ValueError(f"{checkpoint} is another architecture than {checkpoints[0]}")
        states.append(state)
    # integer buffers (BatchNorm's batch counters) are bookkeeping, not weights: the first checkpoint's are kept
    model.load_state_dict({key: torch.stack([state[key] for state in states]).mean(0) if value.is_floating_point()
                           else value for key, value in states[0].items()})
    return _save_model(model, first_data.get("train_args", {}), out)


def onnx_class_names(model: Path) -> list[str]:
    """The class names an ultralytics ONNX export records in its metadata, in index order."""
    import onnx

    metadata = {prop.key: prop.value for prop in onnx.load(str(model)).metadata_props}
    names = ast.literal_eval(metadata.get("names", "{}"))
    if not isinstance(names, dict) or not names:
        raise ValueError(f"{model}: no class names in its metadata (not an ultralytics export)")
    return [names[index] for index in range(len(names))]


def crop_classes(data: Path) -> list[str]:
    """The classes of a crop dataset: its train folders, in name order (ultralytics' ImageFolder)."""
    return sorted(folder.name for folder in (data / "train").iterdir() if folder.is_dir())


def configure_ultralytics(config_dir: Path) -> None:
    """Offline switches (TRAINING_NOTES.md): no DNS probes, downloads, auto-installs or telemetry."""
    config_dir.mkdir(parents=True, exist_ok=True)
    os.environ.update(YOLO_OFFLINE="1", YOLO_AUTOINSTALL="0", YOLO_CONFIG_DIR=str(config_dir))
    font = config_dir / "Arial.ttf"
    if not font.exists():
        shutil.copy(_any_font(), font)
    from ultralytics import settings

    restore_pillow_open()  # ultralytics' import replaced it (vision/image.py says why that matters)

    settings.update(sync=False, clearml=False, comet=False, dvc=False, mlflow=False, raytune=False,
                    wandb=False, tensorboard=False, weights_dir=str(config_dir.resolve() / "weights"),
                    runs_dir=str(config_dir.resolve() / "runs"), datasets_dir=str(config_dir.resolve() / "datasets"))


def _any_font() -> Path:
    """A TTF for ultralytics' labels: the system's, else matplotlib's DejaVu Sans (an ultralytics dependency,
    so present wherever it is; a bare GPU machine may have no fonts)."""
    system = Path("/usr/share/fonts")
    fonts = sorted(system.rglob("*Sans-Regular.ttf")) or sorted(system.rglob("*.ttf"))
    if fonts:
        return fonts[0]
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def batchnorm_after(name: str, state_keys: Collection[str]) -> str | None:
    """The BatchNorm that follows the conv holding parameter `name` ("model.2.cv1.conv.bias" -> "model.2.cv1.bn"),
    or None when that conv has none (a head's last conv)."""
    prefix, _, param = name.rpartition(".conv.")
    return f"{prefix}.bn" if param in ("weight", "bias") and f"{prefix}.bn.weight" in state_keys else None


def unfused_batchnorm(bias: np.ndarray, mean: np.ndarray, var: np.ndarray, eps: float) -> dict[str, np.ndarray]:
    """BatchNorm parameters that, after a conv holding a fused kernel and no bias, give back the fused output
    (conv + bias): exactly in eval mode, and in train mode on batches whose per-channel conv outputs have this
    mean and variance (batch statistics replace the running ones there)."""
    return {"weight": np.sqrt(var + eps), "bias": bias + mean, "running_mean": mean, "running_var": var}


def checkpoint_from_onnx(onnx_path: Path, images: Sequence[Path], out: Path, *, kind: str = "localiser",
                         names: Sequence[str] = LOCALISER_CLASSES, batch: int = 16) -> Path:
    """An ultralytics checkpoint of the localiser or the classifier (`kind`) rebuilt from its ONNX export, whose
    Conv+BN pairs are fused: each conv gets the fused kernel, each BatchNorm is rebuilt (`unfused_batchnorm`)
    from its conv's output statistics on `images` (photos, or crops for the classifier), so the model matches
    the ONNX one in eval mode and keeps its activations in train mode."""
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.tasks import ClassificationModel, DetectionModel

    localiser = kind == "localiser"
    build, prepare = (DetectionModel, _letterboxed) if localiser else (ClassificationModel, _crops)
    model = build("yolo11n.yaml" if localiser else "yolo11n-cls.yaml", nc=len(names), verbose=False).eval()
    state, biases = model.state_dict(), {}
    for tensor in onnx.load(str(onnx_path)).graph.initializer:
        array, bn = numpy_helper.to_array(tensor).copy(), batchnorm_after(tensor.name, state)
        if bn and tensor.name.endswith(".bias"):
            biases[bn] = array
        elif tensor.name in state:
            state[tensor.name].copy_(torch.from_numpy(array))
    modules = dict(model.named_modules())
    sums, hooks = {}, []  # sums: bn -> (count, sum, sum of squares) of its input per channel
    for bn, bias in biases.items():
        layer = modules[bn]
        layer.weight.data.fill_(1)
        layer.bias.data.copy_(torch.from_numpy(bias))
        layer.running_mean.zero_()
        layer.running_var.fill_(1 - layer.eps)  # identity + bias: the fused model, exactly
        hooks.append(layer.register_forward_pre_hook(lambda module, args, bn=bn: _accumulate(sums, bn, args[0])))
    with torch.no_grad():
        for start in range(0, len(images), batch):
            model(torch.from_numpy(prepare(images[start:start + batch])))
    for hook in hooks:
        hook.remove()
    for bn, (count, total, squares) in sums.items():
        layer, mean = modules[bn], total / count
        params = unfused_batchnorm(biases[bn], mean, squares / count - mean ** 2, layer.eps)
        for key, value in params.items():
            getattr(layer, key).data.copy_(torch.from_numpy(value.astype(np.float32)))
    model.names = dict(enumerate(names))
    out.parent.mkdir(parents=True, exist_ok=True)
    imgsz, task = (LOCALISER_IMGSZ, "detect") if localiser else (CLASSIFIER_IMGSZ, "classify")
    torch.save({"model": model, "train_args": {"imgsz": imgsz, "task": task}}, out)
    return out


def _accumulate(sums: dict, key: str, x) -> None:
    x = x.double().transpose(0, 1).flatten(1).numpy()
    count, total, squares = sums.get(key, (0, 0.0, 0.0))
    sums[key] = (count + x.shape[1], total + x.sum(1), squares + (x ** 2).sum(1))


def _crops(paths: Sequence[Path]) -> np.ndarray:
    """Tile crops as the classifier's N×3×S×S float32 input (stretched RGB / 255)."""

    return to_tensor(np.stack([cv2.resize(cv2.cvtColor(cv2.imread(str(p)), cv2.COLOR_BGR2RGB),
                                          (CLASSIFIER_IMGSZ, CLASSIFIER_IMGSZ)) for p in paths]))


def _letterboxed(paths: Sequence[Path]) -> np.ndarray:
    """Photos as the localiser's N×3×S×S float32 input (letterboxed RGB / 255)."""

    return to_tensor(np.stack([letterbox(cv2.cvtColor(cv2.imread(str(p)), cv2.COLOR_BGR2RGB), LOCALISER_IMGSZ).image
                               for p in paths]))


# Shared training arguments: no AMP (its check downloads), no mirrored characters, AdamW per the notes; no
# plots (they need polars, and a font download).
COMMON_ARGS = dict(amp=False, fliplr=0.0, optimizer="AdamW", plots=False, exist_ok=True, verbose=False)


def train(kind: str, data: Path, runs: Path, *, hours: float, batch: int = 16, lr0: float = 0.0015,
          resume: bool = False, init: Path | None = None, name: str | None = None, device: str = "cpu",
          workers: int = 0, warmup_epochs: float | None = None) -> Path:
    """Train the localiser ("localiser", `data` = its data.yaml) or the classifier ("classifier", `data` = the
    crop folder) for a wall-clock budget (ultralytics fits the epoch count and LR schedule to it) on `device`
    ("cpu", or a CUDA index such as "0", with `workers` data-loading processes; ultralytics uses none on CPU).
    Checkpoints go to runs/<name or kind>/weights; `resume` continues from last.pt (same schedule); `init`
    starts a new schedule from a checkpoint's weights (or a stage's ONNX export, rebuilt by
    `checkpoint_from_onnx` on train images or crops), by default without warm-up (`warmup_epochs` sets it;
    AdamW's first full-size steps can undo much of what the model knew). Returns best.pt."""
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
    if init and init.suffix == ".onnx":
        if kind == "localiser":
            images, names = sorted((data.parent / "train" / "images").iterdir()), LOCALISER_CLASSES
        else:  # the model's own classes; widened below to the crop folders'
            images, names = sorted((data / "train").glob("*/*.png")), onnx_class_names(init)
        count = CALIBRATION_IMAGES if kind == "localiser" else CALIBRATION_CROPS
        sample = [images[i] for i in np.random.default_rng(0).permutation(len(images))[:count]]
        init = checkpoint_from_onnx(init, sample, runs / f"{name}-init.pt", kind=kind, names=names)
    if init and kind == "classifier":
        # ImageFolder's classes are the train folders in name order, which may lack a class or order them
        # otherwise: each class keeps its own row of the last layer, matched by name
        init = widened_classifier(init, crop_classes(data), runs / f"{name}-init.pt")
    if init:
        model, args = str(init), {**args, "warmup_epochs": 0}
    if warmup_epochs is not None:
        args["warmup_epochs"] = warmup_epochs
    YOLO(model).train(data=str(data), project=str(runs.resolve()), name=name, time=hours, epochs=1000,
                      batch=batch, lr0=lr0, save_period=1, device=device, workers=workers, **COMMON_ARGS, **args)
    return weights / "best.pt"


def export(weights: Path, out: Path, imgsz: int, *, dynamic: bool, runs: Path) -> tuple[Path, list[str]]:
    """Export a checkpoint to ONNX at `out` (`dynamic`: variable batch, for the classifier's crops); returns the
    path and the model's class names. Ultralytics keeps its settings under `runs`, as when training."""
    configure_ultralytics(runs / "ultralytics-config")
    from ultralytics import YOLO

    model = YOLO(str(weights))
    exported = Path(model.export(format="onnx", imgsz=imgsz, simplify=True, dynamic=dynamic, opset=17))
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(exported, out)
    return out, [model.names[i] for i in range(len(model.names))]
