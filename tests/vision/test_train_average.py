"""Averaging classifier checkpoints weight by weight (`fanshot train average`), where the `train` extra (torch,
ultralytics) is installed."""

import pytest

torch = pytest.importorskip("torch", reason="the `train` extra (ultralytics, torch) is not installed")
pytest.importorskip("ultralytics", reason="the `train` extra (ultralytics, torch) is not installed")

from fanshot.cli import main  # noqa: E402
from vision.train import averaged_classifier  # noqa: E402


def _checkpoint(path, seed, names=("1m", "2m", "none"), key="ema"):
    from ultralytics.nn.tasks import ClassificationModel

    torch.manual_seed(seed)
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False)
    model.names = dict(enumerate(names))
    for buffer in model.buffers():  # BatchNorm statistics differ between fine-tunes too
        if buffer.is_floating_point():
            buffer.uniform_(0.5, 1.5)
    torch.save({key: model.half(), **({"model": None} if key == "ema" else {}), "train_args": {"task": "classify"}},
               path)
    return model.float().state_dict()


def test_every_weight_and_batchnorm_statistic_is_the_mean_of_the_checkpoints(tmp_path):
    states = [_checkpoint(tmp_path / f"{i}.pt", i, key=key) for i, key in enumerate(("ema", "model", "ema"))]

    out = averaged_classifier([tmp_path / f"{i}.pt" for i in range(3)], tmp_path / "soup.pt")

    soup = torch.load(out, weights_only=False)["model"]
    assert soup.names == {0: "1m", 1: "2m", 2: "none"}
    averaged = soup.state_dict()
    floats = [key for key, value in averaged.items() if value.is_floating_point()]
    assert any("running_var" in key for key in floats) and any("linear.weight" in key for key in floats)
    for key in floats:
        torch.testing.assert_close(averaged[key], sum(state[key] for state in states) / 3)


def test_checkpoints_of_other_classes_or_not_checkpoints_are_refused_with_a_clear_error(tmp_path, capsys):
    _checkpoint(tmp_path / "a.pt", 0)
    _checkpoint(tmp_path / "b.pt", 1, names=("2m", "1m", "none"))
    (tmp_path / "c.pt").write_bytes(b"not a checkpoint")
    for pair in (["a.pt", "b.pt"], ["a.pt", "c.pt"], ["a.pt"], ["a.pt", "missing.pt"]):
        assert main(["train", "average", *(str(tmp_path / name) for name in pair), "--out",
                     str(tmp_path / "soup.pt")]) == 2
    errors = capsys.readouterr().err
    assert "other classes" in errors and "not a torch checkpoint" in errors and "two checkpoints" in errors
    assert errors.count("error: ") == 4 and not (tmp_path / "soup.pt").exists()
