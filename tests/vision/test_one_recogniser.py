"""One recogniser: the same photo gives the same tiles through every entry point (serving, `fanshot read`,
`fanshot eval`, adaptation's judging) and crop mining cuts the boxes its localisation stages find; a big photo's
small faces are named at full size through each of them."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fanshot.api.app import create_app
from fanshot.cli import main
from fanshot.vision.image import RECOGNITION_MAX_SIDE, Original, load_photo
from fanshot.vision.recogniser import MODELS_DIR, Recogniser, shipped
from fanshot.vision.training.adapt import Photo, served_figures
from fanshot.vision.training.train import NEGATIVE_CONF, add_negative_crops
from tests.api.conftest import local_client

pytestmark = pytest.mark.model

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = Path(__file__).resolve().parents[3] / "shared/data/chinese-mahjong-detection/test/images"
HAND = SAMPLES / "hand_003_jpg.rf.567b6dbf8e3e90aedaa336215137bf82.jpg"  # one standing row of 14


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> Path:
    """The hand rolled a quarter turn: every stage has work (the turn, the right way up, row filling)."""
    path = tmp_path_factory.mktemp("photo") / "rolled.png"
    Image.open(HAND).rotate(90, expand=True).save(path)
    return path


@pytest.fixture(scope="module")
def far(tmp_path_factory) -> Path:
    """A row of tiles 24-28 px wide across a 12 MP frame: 10 px in the frame read, so `fine_crops` names them."""
    from fanshot.datasets.synth.evalsets import WEB_TILES, split_web_crops, web_crops, write_rows

    if not WEB_TILES.is_dir():
        pytest.skip(f"no web tiles at {WEB_TILES} (CI provides ../shared)")
    folder = tmp_path_factory.mktemp("far")
    write_rows(folder, split_web_crops(web_crops(WEB_TILES))[0], 1, 9903, (4000, 3000), (0.006, 0.007), distractors=4)
    return folder / "images" / "row_00000.jpg"


@pytest.fixture(params=["rolled", "far"])
def any_photo(request) -> Path:
    return request.getfixturevalue("photo" if request.param == "rolled" else "far")


def library_tiles(photo: Path) -> list[dict]:
    data = photo.read_bytes()
    return shipped()(load_photo(data, max_side=RECOGNITION_MAX_SIDE, of_a_hand=True), Original(data)).tiles


def test_the_far_photo_is_read_otherwise_without_its_full_size(far):
    image = load_photo(far.read_bytes(), max_side=RECOGNITION_MAX_SIDE, of_a_hand=True)
    assert [tile["code"] for tile in shipped()(image).tiles] != [tile["code"] for tile in library_tiles(far)]


def test_serving_reads_the_photo_as_the_recogniser_does(any_photo, tmp_path):
    client = local_client(create_app(tmp_path))
    response = client.post("/v1/recognitions", files={"photo": (any_photo.name, any_photo.read_bytes())})
    assert response.status_code == 201, response.text
    assert response.json()["tiles"] == library_tiles(any_photo)


def test_fanshot_read_reads_the_photo_as_the_recogniser_does(any_photo, capsys):
    assert main(["read", str(any_photo), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tiles"] == library_tiles(any_photo)


def test_fanshot_eval_reads_the_photo_as_the_recogniser_does(any_photo, tmp_path, capsys):
    manifest = tmp_path / "one.jsonl"
    manifest.write_text(json.dumps({"image": str(any_photo), "tiles": "1m", "backs": 0}) + "\n")
    assert main(["eval", str(manifest), "--json", "--photos"]) == 0
    faces = [tile["code"] for tile in library_tiles(any_photo) if tile["code"] != "back"]
    assert json.loads(capsys.readouterr().out)["photos"][0]["found"] == faces


def test_adaptation_judges_a_version_by_the_recogniser_reading(photo):
    codes = tuple(tile["code"] for tile in library_tiles(photo))
    assert len(codes) == 14
    truth = Photo(photo.name, codes, np.zeros(0), np.zeros(0, dtype=bool), np.zeros((0, 1)), np.zeros((0, 1)),
                  np.zeros(0, dtype=np.int64))
    figures = served_figures(MODELS_DIR, [truth], [photo])
    assert {key: value for key, value in figures.items() if key != "classes"} == {
        "photos": 1, "precision": 1.0, "recall": 1.0, "f1": 1.0, "exact_photos": 1}
    assert all(scores["f1"] == 1.0 for scores in figures["classes"].values() if scores["tiles"])


def test_crop_mining_cuts_a_crop_at_every_box_the_recogniser_finds(photo, tmp_path):
    base = Recogniser.load(MODELS_DIR)
    mining = base.with_config(base.config.changed(conf=NEGATIVE_CONF, unsure=NEGATIVE_CONF))
    image = np.asarray(Image.open(photo).convert("RGB"))
    found = mining.find(image)
    assert found.turns == -1 and len(found.found) >= 14  # turned upright before any box is cut
    added = add_negative_crops([[(photo, [])]], tmp_path / "crops", MODELS_DIR, size=16)  # no label: all are negatives
    assert added == len(found.found)


def test_serving_imports_nothing_of_training(photo, tmp_path):
    script = (
        "import sys\nfrom pathlib import Path\n"
        "from fanshot.api.app import create_app\n"
        "from tests.api.conftest import local_client\n"
        f"client = local_client(create_app(Path({str(tmp_path)!r})))\n"
        f"answer = client.post('/v1/recognitions', files={{'photo': ('p.png', open({str(photo)!r}, 'rb').read())}})\n"
        "assert answer.status_code == 201, answer.text\n"
        "print(sorted(name for name in sys.modules if name.startswith('fanshot.vision.training') or name == 'torch'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
