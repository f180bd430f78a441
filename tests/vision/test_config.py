"""The recogniser's settings (vision/config.py): read from vision.json, refused with the setting named."""

import json

import pytest

from fanshot.vision.config import DEFAULT_CONF, STAGES, RecogniserConfig
from fanshot.vision.recogniser import MODELS_DIR


def shipped_meta() -> dict:
    return json.loads((MODELS_DIR / "vision.json").read_text(encoding="utf-8"))


def test_the_shipped_vision_json_spells_out_every_setting():
    meta = shipped_meta()
    config = RecogniserConfig.from_vision_json(meta)
    assert meta["recogniser"] == config.section()  # nothing left to a default in code
    assert config.conf == meta["localiser"]["conf"]


def test_a_models_folder_that_names_no_setting_gets_the_defaults():
    config = RecogniserConfig.from_vision_json({"localiser": {}})
    assert config == RecogniserConfig() and config.conf == DEFAULT_CONF


def test_settings_written_out_read_back_the_same():
    config = RecogniserConfig().changed(conf=0.45, zoom_in={"target": 28.0}, row_fill={"enabled": False})
    meta = {"localiser": {"conf": config.conf}, "recogniser": json.loads(json.dumps(config.section()))}
    assert RecogniserConfig.from_vision_json(meta) == config


@pytest.mark.parametrize(("meta", "named"), [
    ({"localiser": {"conf": 1.5}}, "localiser.conf"),
    ({"recogniser": {"zoom_in": {"below": 0}}}, "recogniser.zoom_in.below"),
    ({"recogniser": {"row_fill": {"code_p": "high"}}}, "recogniser.row_fill.code_p"),
    ({"recogniser": {"zoom_in": {"belwo": 20}}}, "recogniser.zoom_in.belwo"),  # a misspelt setting is not ignored
    ({"recogniser": {"layout": {"rows_down_share": 2}}}, "recogniser.layout.rows_down_share"),
    ({"recogniser": {"live": {"min_luma": 300}}}, "recogniser.live.min_luma"),
])
def test_a_wrong_setting_is_refused_naming_its_place_in_vision_json(meta, named):
    with pytest.raises(ValueError, match=rf"^models/vision.json: {named}: "):
        RecogniserConfig.from_vision_json(meta, "models/vision.json")


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_can_be_switched_off_alone(stage):
    config = RecogniserConfig().without(stage)
    assert [name for name in STAGES if not getattr(config, name).enabled] == [stage]
    assert config.without(stage) == config


def test_a_stage_that_does_not_exist_is_named_with_the_ones_that_do():
    with pytest.raises(ValueError, match="no stage 'zoom'; the stages are zoom_in, scan, zoom_out"):
        RecogniserConfig().without("zoom")


def test_settings_cannot_be_changed_in_place():
    config = RecogniserConfig()
    with pytest.raises(ValueError):
        config.conf = 0.9
    assert config.changed(conf=0.9).conf == 0.9 and config.conf == DEFAULT_CONF
