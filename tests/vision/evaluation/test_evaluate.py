import json

import numpy as np

from fanshot.vision.config import Layout
from fanshot.vision.evaluation.evaluate import Tally, hand_view, true_hand, variant_counts
from fanshot.vision.evaluation.metrics import Boxes

HAND = {"concealed": "11m234p567s777z", "melds": [{"kind": "kong", "tiles": "9999m", "concealed": True,
                                                    "fed_by": None}], "winning_tile": "7z"}


def test_hand_view_keeps_what_a_photo_shows_in_any_order():
    shown = {"concealed": "7z7z7z11m432p567s", "melds": [{"kind": "kong", "tiles": "9999m", "concealed": True}],
             "flowers": ""}
    assert hand_view(shown) == hand_view(HAND) == ("11m234p567s777z", (("kong", "9999m", True),), "")
    assert hand_view({**shown, "melds": [{"kind": "kong", "tiles": "9999m"}]}) != hand_view(HAND)


def test_true_hand_reads_the_synth_sidecar(tmp_path):
    image = tmp_path / "synth_000000.jpg"
    assert true_hand(image) is None
    image.with_suffix(".json").write_text(json.dumps({"request": {"hand": HAND}}), encoding="utf-8")
    assert true_hand(image) == HAND


def test_tally_scores_the_proposed_hand_and_the_layout_on_the_true_boxes():
    codes = ["1m", "1m", "2p", "3p", "4p", "5s", "6s", "7s", "7z", "7z", "7z", "back", "9m", "9m", "back"]
    boxes = np.array([[n * 32, 0, n * 32 + 30, 40] for n in range(15)], dtype=float)
    tally = Tally()
    right = {"concealed": "11m234p567s777z", "melds": [{"kind": "kong", "tiles": "9999m", "concealed": True}]}
    tally.add_hand({"hand": right}, HAND, Boxes(boxes, codes), Layout())
    tally.add_hand({"hand": {**right, "melds": []}}, HAND, Boxes(boxes[:11], codes[:11]), Layout())
    summary = tally.summary()
    assert (summary["hands"], summary["hand_exact"], summary["layout_exact_on_labels"]) == (2, 0.5, 0.5)
    assert "hand_exact" not in Tally().summary()


def test_randomised_variants_are_scored_apart():
    tally = Tally()
    truth = ["5m", "5m", "5p", "5z", "1m"]
    found = [{"code": code} for code in ("5m", "5p", "5z", "1m", "5s")]
    tally.add_variants({"tiles": found}, truth, {"fives": "red", "white": "blank", "framing": "hand"})
    tally.add_variants({"tiles": found[:1]}, ["5z"], {"white": "framed"})
    assert variant_counts({"fives": "art"}, ["5m"], ["5m"]) == {}
    summary = {k: v for k, v in tally.summary().items() if k.startswith("recall[")}
    assert summary == {"recall[fives=red]": 2 / 3, "recall[white=blank]": 1.0, "recall[white=framed]": 0.0}
