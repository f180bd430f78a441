import json

from fanshot.cli import main


def test_read_and_eval_report_unreadable_input_with_exit_code_2(tmp_path, capsys):
    assert main(["read", str(tmp_path / "missing.jpg")]) == 2
    manifest = tmp_path / "bad.jsonl"
    manifest.write_text(json.dumps({"image": "x.jpg", "tiles": "1q"}) + "\n")
    assert main(["eval", str(manifest)]) == 2
    assert capsys.readouterr().err.count("error: ") == 2
