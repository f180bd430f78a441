import pytest

from fanshot.vision.suggest import suggest

ONE_ROW = [{"kind": "concealed", "tiles": list(range(14))}]


def tiles_of(codes: list[str], alternatives: dict[int, list[tuple[str, float]]]) -> list[dict]:
    return [{"code": code, "confidence": 0.3 if i in alternatives else 0.9,
             "alternatives": [{"code": c, "p": p} for c, p in alternatives.get(i, [])]}
            for i, code in enumerate(codes)]


WINNING = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"]


@pytest.mark.parametrize(("misread", "alternatives", "expected"), [
    # one tile misread: its alternative completes the pair
    ({13: "3z"}, {13: [("4z", 0.2), ("2z", 0.4)]}, [[{"tile": 13, "from": "3z", "to": "2z"}]]),
    # two tiles misread: only the pair of changes wins
    ({0: "7m", 13: "3z"}, {0: [("1m", 0.5)], 13: [("2z", 0.4)]},
     [[{"tile": 0, "from": "7m", "to": "1m"}, {"tile": 13, "from": "3z", "to": "2z"}]]),
    # alternatives too unlikely are not offered
    ({13: "3z"}, {13: [("2z", 0.005)]}, []),
], ids=["one-change", "two-changes", "unlikely"])
def test_suggestions_make_the_hand_win(misread, alternatives, expected):
    codes = [misread.get(i, code) for i, code in enumerate(WINNING)]
    found = suggest(tiles_of(codes, alternatives), ONE_ROW)
    assert [s["changes"] for s in found] == expected


def test_probability_and_text():
    codes = WINNING[:13] + ["3z"]
    [found] = suggest(tiles_of(codes, {13: [("2z", 0.4)]}), ONE_ROW)
    assert found["p"] == 0.4
    assert found["text"] == "tile 14: 3z → 2z makes a winning hand (p 0.40)"


@pytest.mark.parametrize("codes", [WINNING, WINNING[:13]], ids=["already-wins", "a-tile-missing"])
def test_no_suggestion_when_codes_cannot_help(codes):
    alternatives = {i: [("5m", 0.3)] for i in range(len(codes))}
    groups = [{"kind": "concealed", "tiles": list(range(len(codes)))}]
    assert suggest(tiles_of(codes, alternatives), groups) == []
