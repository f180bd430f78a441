"""vision.json's owner and the recogniser's settings in it (vision/config.py): read, written and versioned there,
refused with the setting named, on reading and on writing."""

import json

import pytest

from fanshot.vision.config import DEFAULT_CONF, STAGES, RecogniserConfig, VisionFile, models_version
from fanshot.vision.recogniser import MODELS_DIR


def shipped_meta() -> dict:
    return json.loads((MODELS_DIR / "vision.json").read_text(encoding="utf-8"))


def settings_of(meta: dict, source: str = "vision.json") -> RecogniserConfig:
    """The recogniser's settings of a vision.json that names the shipped models and these settings."""
    stages = {stage: {**shipped_meta()[stage], **meta.get(stage, {})} for stage in ("localiser", "classifier")}
    if "conf" not in meta.get("localiser", {}):
        stages["localiser"].pop("conf")
    return VisionFile.parse({**meta, **stages}, source).recogniser


def test_the_shipped_vision_json_spells_out_every_setting():
    meta = shipped_meta()
    config = settings_of(meta)
    assert meta["recogniser"] == config.section()  # nothing left to a default in code
    assert config.conf == meta["localiser"]["conf"]


def test_a_models_folder_that_names_no_setting_gets_the_defaults():
    config = settings_of({"localiser": {}})
    assert config == RecogniserConfig() and config.conf == DEFAULT_CONF


def test_settings_written_out_read_back_the_same():
    config = RecogniserConfig().changed(conf=0.45, zoom_in={"target": 28.0}, row_fill={"enabled": False})
    meta = {"localiser": {"conf": config.conf}, "recogniser": json.loads(json.dumps(config.section()))}
    assert settings_of(meta) == config


@pytest.mark.parametrize(("meta", "named"), [
    ({"localiser": {"conf": 1.5}}, "localiser.conf"),
    ({"recogniser": {"zoom_in": {"below": 0}}}, "recogniser.zoom_in.below"),
    ({"recogniser": {"row_fill": {"code_p": "high"}}}, "recogniser.row_fill.code_p"),
    ({"recogniser": {"zoom_in": {"belwo": 20}}}, "recogniser.zoom_in.belwo"),  # a misspelt setting is not ignored
    ({"recogniser": {"layout": {"rows_down_share": 2}}}, "recogniser.layout.rows_down_share"),
    ({"recogniser": {"live": {"min_luma": 300}}}, "recogniser.live.min_luma"),
    ({"recogniser": {"second_look": {"localiser": "../localiser.onnx"}}}, "recogniser.second_look.localiser"),
    ({"recogniser": {"second_look": {"conf": 1.0}}}, "recogniser.second_look.conf"),
])
def test_a_wrong_setting_is_refused_naming_its_place_in_vision_json(meta, named):
    with pytest.raises(ValueError, match=rf"^models/vision.json: {named}: "):
        settings_of(meta, "models/vision.json")


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


def test_the_shipped_vision_json_is_written_back_byte_for_byte(tmp_path):
    VisionFile.read(MODELS_DIR).write(tmp_path)
    assert (tmp_path / "vision.json").read_bytes() == (MODELS_DIR / "vision.json").read_bytes()


@pytest.mark.parametrize(("change", "named"), [
    (lambda models: models.with_classifier(["1m", "2m", "1m"], 0.5), "classifier.classes"),
    (lambda models: models.with_classifier(["1m"], 1.5), "localiser.conf"),
    (lambda models: models.model_copy(update={"localiser": models.localiser.model_copy(update={"file": "../x.onnx"})}),
     "localiser.file"),
])
def test_a_bad_file_is_refused_when_written_naming_the_setting_and_nothing_is_written(tmp_path, change, named):
    with pytest.raises(ValueError, match=rf"^{tmp_path / 'vision.json'}: {named}: "):
        change(VisionFile.read(MODELS_DIR)).write(tmp_path)
    assert not (tmp_path / "vision.json").exists()


def test_the_threshold_has_one_home_in_the_file():
    with pytest.raises(ValueError, match="recogniser.conf: the localiser's threshold is kept as localiser.conf"):
        VisionFile.parse({**shipped_meta(), "recogniser": {"conf": 0.4}})


def folder_like_the_shipped(folder, meta: dict):
    """A models folder of the shipped models (under the names `meta` gives them) and `meta` as its vision.json."""
    folder.mkdir()
    for stage in ("localiser", "classifier"):
        (folder / meta[stage]["file"]).symlink_to(MODELS_DIR / shipped_meta()[stage]["file"])
    for stage, model in (("second_look", "localiser"), ("small_faces", "classifier")):  # the stages' own models
        if name := meta["recogniser"].get(stage, {}).get(model):
            (folder / name).symlink_to(MODELS_DIR / shipped_meta()["recogniser"][stage][model])
    (folder / "vision.json").write_text(json.dumps(meta), encoding="utf-8")
    return folder


def test_the_version_hashes_what_changes_readings_not_the_records(tmp_path):
    meta = shipped_meta()
    shipped = models_version(MODELS_DIR)
    reworded = folder_like_the_shipped(tmp_path / "reworded", {**meta, "training": ["# the recipe, reworded"],
                                                                "adaptation": {"kept": "base"}})
    assert models_version(reworded) == shipped
    renamed = {**meta, "classifier": {**meta["classifier"], "file": "tiles.onnx"}}
    assert models_version(folder_like_the_shipped(tmp_path / "renamed", renamed)) == shipped
    steadier = {**meta, "recogniser": {**meta["recogniser"], "live": {**meta["recogniser"].get("live", {}),
                                                                      "steady_ms": 2000.0}}}
    assert models_version(folder_like_the_shipped(tmp_path / "steadier", steadier)) == shipped  # the page's alone
    stricter = folder_like_the_shipped(tmp_path / "stricter", {**meta, "localiser": {**meta["localiser"], "conf": 0.6}})
    assert models_version(stricter) != shipped
    no_row_fill = {**meta, "recogniser": {**meta["recogniser"], "row_fill": {**meta["recogniser"]["row_fill"],
                                                                             "enabled": False}}}
    assert models_version(folder_like_the_shipped(tmp_path / "no-row-fill", no_row_fill)) != shipped


# the shipped models before each stage's model: a folder of theirs that names none is that version
TWO_MODELS_VERSION, SECOND_LOOK_VERSION = "1f59dda8a60f", "6ec970e16aac"


@pytest.mark.parametrize(("stage", "setting", "base", "version", "other"), [
    ("second_look", "localiser", VisionFile.without_second_look, TWO_MODELS_VERSION, {"below": 20, "iou": 0.6}),
    ("small_faces", "classifier", lambda meta: meta, SECOND_LOOK_VERSION, {"below": 30.0}),
])
def test_a_stages_settings_count_in_the_version_once_it_names_its_model(tmp_path, stage, setting, base, version,
                                                                         other):
    meta = base(VisionFile.read(MODELS_DIR).without_small_faces())

    def version_with(name: str, **settings) -> str:
        folder = tmp_path / name
        folder.mkdir()
        for file in meta.files():
            (folder / file).symlink_to(MODELS_DIR / file)
        (folder / "stage.onnx").write_bytes(b"a model")
        changed = getattr(meta.recogniser, stage).model_copy(update=settings)
        meta.model_copy(update={"recogniser": meta.recogniser.model_copy(update={stage: changed})}).write(folder)
        return models_version(folder)

    assert version_with("none") == version == version_with("other", **other)  # no model: reads the same
    named = version_with("named", **{setting: "stage.onnx"})
    assert named != version and version_with("named-again", **{setting: "stage.onnx"}) == named
    assert version_with("named-other", **{setting: "stage.onnx"}, **other) != named
