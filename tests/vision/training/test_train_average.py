"""Averaging checkpoints weight by weight (`fanshot train average`; classifiers here), where the `train` extra
(torch, ultralytics) is installed."""

import pytest

from tests.services import needs_train_extra

needs_train_extra()
import torch  # noqa: E402

from fanshot.cli import main  # noqa: E402
from fanshot.vision.training.train import averaged_model  # noqa: E402


def _checkpoint(path, seed, names=("1m", "2m", "none"), key="ema", config="yolo11n-cls.yaml"):
    from ultralytics.nn.tasks import ClassificationModel

    torch.manual_seed(seed)
    model = ClassificationModel(config, nc=len(names), verbose=False)
    model.names = dict(enumerate(names))
    for buffer in model.buffers():  # BatchNorm statistics differ between fine-tunes too
        if buffer.is_floating_point():
            buffer.uniform_(0.5, 1.5)
    torch.save({key: model.half(), **({"model": None} if key == "ema" else {}), "train_args": {"task": "classify"}},
               path)
    return model.float().state_dict()


def test_every_weight_and_batchnorm_statistic_is_the_mean_of_the_checkpoints_in_a_new_folder(tmp_path):
    states = [_checkpoint(tmp_path / f"{i}.pt", i, key=key) for i, key in enumerate(("ema", "model", "ema"))]

    out = averaged_model([tmp_path / f"{i}.pt" for i in range(3)], tmp_path / "new" / "soup.pt")

    soup = torch.load(out, weights_only=False)["model"]
    assert soup.names == {0: "1m", 1: "2m", 2: "none"}
    averaged = soup.state_dict()
    floats = [key for key, value in averaged.items() if value.is_floating_point()]
    assert any("running_var" in key for key in floats) and any("linear.weight" in key for key in floats)
    for key in floats:
        torch.testing.assert_close(averaged[key], sum(state[key] for state in states) / 3)


@pytest.mark.parametrize(("second", "message"), [
    ("reordered.pt", "reads other classes"),
    ("small.pt", "is another architecture"),
    ("bytes.pt", "is not a torch checkpoint"),
    ("dict.pt", "is not an ultralytics checkpoint"),
    ("missing.pt", "No such file"),
    (None, "two checkpoints or more"),
])
def test_what_cannot_be_averaged_is_refused_with_a_clear_error_and_nothing_written(tmp_path, capsys, second, message):
    _checkpoint(tmp_path / "base.pt", 0)
    _checkpoint(tmp_path / "reordered.pt", 1, names=("2m", "1m", "none"))
    _checkpoint(tmp_path / "small.pt", 2, config="yolo11s-cls.yaml")
    (tmp_path / "bytes.pt").write_bytes(b"not a checkpoint")
    torch.save({"epoch": 3}, tmp_path / "dict.pt")
    checkpoints = [tmp_path / "base.pt", *([tmp_path / second] if second else [])]

    assert main(["train", "average", *map(str, checkpoints), "--out", str(tmp_path / "soup.pt")]) == 2

    error = capsys.readouterr().err
    assert error.startswith("error: ") and message in error and "Traceback" not in error
    assert not (tmp_path / "soup.pt").exists()
