"""The polars stand-in that scripts/gpu_train.sh puts before ultralytics on a machine without polars."""

import importlib.util
from pathlib import Path

STUB = Path(__file__).resolve().parents[2] / "scripts" / "gpu_stubs" / "polars.py"


def test_read_csv_gives_ultralytics_its_columns(tmp_path):
    spec = importlib.util.spec_from_file_location("polars_stub", STUB)
    stub = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(stub)
    text = "epoch,time,metrics/mAP50(B)\n1,21.5,0.81\n2,28.1,0.9\n"
    (tmp_path / "results.csv").write_text(text)
    expected = {"epoch": [1.0, 2.0], "time": [21.5, 28.1], "metrics/mAP50(B)": [0.81, 0.9]}
    assert stub.read_csv(text.encode(), infer_schema_length=None).to_dict(as_series=False) == expected
    assert stub.read_csv(str(tmp_path / "results.csv")).to_dict() == expected
    assert stub.read_csv(b"").to_dict() == {}
