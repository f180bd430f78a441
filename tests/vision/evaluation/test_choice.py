"""The choice rule (vision/evaluation/choice.py): per-set changes with a paired bootstrap interval, and the verdict."""

from __future__ import annotations

import numpy as np
import pytest

from fanshot.vision.evaluation.choice import (
    MEAN_RISE,
    SMALL_SET,
    compare_set,
    micro_f1,
    paired_interval,
    photo_counts,
    verdict,
)


def photo(found: str, true: str, false: int | None = None) -> dict:
    """A report's photo: codes as space-separated strings; false = found faces beyond the truth unless given."""
    found_codes, true_codes = found.split(), true.split()
    extra = len(found_codes) - sum(min(found_codes.count(c), true_codes.count(c)) for c in set(found_codes))
    return {"found": found_codes, "true": true_codes, "false": extra if false is None else false}


def report(photos: list[dict]) -> dict:
    return {"f1": 0.0, "photos": photos}


RIGHT = photo("1m 2m 3m", "1m 2m 3m")
ONE_MISSED = photo("1m 2m", "1m 2m 3m")
ONE_MISREAD = photo("1m 2m 4m", "1m 2m 3m")


def test_photo_counts_are_right_found_true_and_false() -> None:
    counts = photo_counts([RIGHT, ONE_MISSED, ONE_MISREAD, photo("", "", false=2)])
    assert counts.tolist() == [[3, 3, 3, 0], [2, 2, 3, 0], [2, 3, 3, 1], [0, 0, 0, 2]]


@pytest.mark.parametrize(("counts", "f1"), [([3, 3, 3, 0], 1.0), ([2, 3, 3, 1], 2 / 3), ([0, 0, 0, 2], 0.0),
                                            ([2, 2, 4, 0], 2 / 3)])
def test_micro_f1(counts: list[int], f1: float) -> None:
    assert micro_f1(np.array(counts)) == pytest.approx(f1)


def test_the_interval_is_zero_for_the_same_photos_and_brackets_a_real_change() -> None:
    same = photo_counts([RIGHT, ONE_MISSED] * 20)
    assert paired_interval(same, same) == (0.0, 0.0)
    better = photo_counts([RIGHT, RIGHT] * 20)
    low, high = paired_interval(same, better)
    change = float(micro_f1(better.sum(0)) - micro_f1(same.sum(0)))
    assert 0 < low <= change <= high


def test_a_small_set_falls_by_more_than_one_tile_and_a_large_one_by_more_than_0005_f1() -> None:
    small = compare_set("small", [RIGHT] * 10, [ONE_MISSED] + [RIGHT] * 9)
    assert small.tiles == 30 < SMALL_SET and (small.base_errors, small.candidate_errors) == (0, 1)
    assert not small.falls  # one tile is allowed
    assert compare_set("small", [RIGHT] * 10, [ONE_MISREAD] + [RIGHT] * 9).falls  # a misread: missed and false
    large_base = [RIGHT] * 100
    assert not compare_set("large", large_base, [ONE_MISREAD] + [RIGHT] * 99).falls  # F1 −0.0033
    assert compare_set("large", large_base, [ONE_MISREAD] * 2 + [RIGHT] * 98).falls  # F1 −0.0067


def test_a_set_of_no_tiles_falls_by_false_tiles() -> None:
    clean, one, two = photo("", ""), photo("1m", ""), photo("1m 2m", "")
    assert not compare_set("clutter", [clean] * 5, [one] + [clean] * 4).falls
    assert compare_set("clutter", [clean] * 5, [two] + [clean] * 4).falls


def test_the_verdict_needs_the_mean_to_rise_and_no_set_to_fall() -> None:
    base = {"a": report([ONE_MISSED] * 10 + [RIGHT] * 90), "b": report([RIGHT] * 100)}
    better = {"a": report([RIGHT] * 100), "b": report([RIGHT] * 100)}
    result = verdict(base, better)
    assert result.ships and result.mean_change >= MEAN_RISE and not result.reasons
    traded = {"a": report([RIGHT] * 100), "b": report([ONE_MISREAD] * 3 + [RIGHT] * 97)}
    result = verdict(base, traded)
    assert not result.ships and result.reasons == [f"b falls ({result.changes[1].change:+.4f} F1, +6 tile errors)"]
    result = verdict(base, base)
    assert not result.ships and "under 0.002" in result.reasons[0]


@pytest.mark.parametrize(("candidate", "message"), [
    ({"a": report([RIGHT])}, "in one report only"),
    ({"a": report([RIGHT]), "b": {"f1": 1.0}}, "has no photos"),
    ({"a": report([ONE_MISSED]), "b": report([photo("1m", "2m")])}, "not of the same photos"),
])
def test_reports_that_cannot_be_compared_are_refused(candidate: dict, message: str) -> None:
    base = {"a": report([ONE_MISSED]), "b": report([RIGHT])}
    with pytest.raises(ValueError, match=message):
        verdict(base, candidate)


@pytest.mark.parametrize("text", ["{not json", "[1, 2]"])
def test_choose_refuses_what_is_not_a_report(tmp_path, capsys, text: str) -> None:
    from fanshot.cli import main

    (tmp_path / "base.json").write_text(text)
    (tmp_path / "candidate.json").write_text("{}")
    assert main(["choose", str(tmp_path / "base.json"), str(tmp_path / "candidate.json")]) == 2
    assert "not a `fanshot eval --json --photos` report" in capsys.readouterr().err


def test_choose_names_a_report_without_photos(tmp_path, capsys) -> None:
    from fanshot.cli import main

    for name in ("base", "candidate"):
        (tmp_path / f"{name}.json").write_text('{"set": {"f1": 0.9}}')
    assert main(["choose", str(tmp_path / "base.json"), str(tmp_path / "candidate.json")]) == 2
    assert "set: the report has no photos" in capsys.readouterr().err
