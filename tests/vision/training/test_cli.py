"""`fanshot train` (vision/training/cli.py): its refusals."""


from fanshot.cli import main
from fanshot.datasets.classes import CLASSES
from fanshot.datasets.yolo import format_data_yaml


def test_train_data_and_pack_refuse_a_missing_source_extra_or_negatives_before_writing_anything(tmp_path, capsys):
    src, out = tmp_path / "src", tmp_path / "data"
    for split in ("train", "valid"):
        (src / split / "images").mkdir(parents=True)
    (src / "data.yaml").write_text(format_data_yaml(CLASSES, ["train", "valid"]))
    assert main(["train", "data", str(tmp_path / "missing"), "--out", str(tmp_path / "other")]) == 2
    assert main(["train", "data", str(src), "--out", str(out), "--negatives", str(tmp_path / "none.txt")]) == 2
    assert main(["train", "data", str(src), "--out", str(out), "--extra", str(tmp_path / "missing")]) == 2
    assert main(["train", "pack", str(tmp_path / "missing"), "--out", str(out)]) == 2
    assert capsys.readouterr().err.count("error: ") == 4
    assert not out.exists() and not (tmp_path / "other").exists()
