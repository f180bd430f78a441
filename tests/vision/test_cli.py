"""The vision commands' shared shell (vision/cli.py): `fanshot read`, and refusals every command makes alike."""

import json

import pytest
from PIL import Image

from fanshot.cli import main


def test_read_and_eval_report_unreadable_input_with_exit_code_2(tmp_path, capsys):
    assert main(["read", str(tmp_path / "missing.jpg")]) == 2
    manifest = tmp_path / "bad.jsonl"
    manifest.write_text(json.dumps({"image": "x.jpg", "tiles": "1q"}) + "\n")
    assert main(["eval", str(manifest)]) == 2
    assert capsys.readouterr().err.count("error: ") == 2


def test_read_refuses_a_photo_too_thin_to_hold_a_hand_with_exit_code_2(tmp_path, capsys):
    strip = tmp_path / "strip.png"
    Image.effect_noise((3000, 63), 80).convert("RGB").save(strip)
    assert main(["read", str(strip)]) == 2
    assert "too_thin" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["eval", "m.jsonl"], ["train", "export", "--only", "localiser"]])
@pytest.mark.parametrize("conf", ["1", "1.5", "-0.1", "high"])
def test_a_score_threshold_outside_0_to_1_is_refused(command, conf, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--conf", conf])
    assert stop.value.code == 2
    assert "--conf" in capsys.readouterr().err
