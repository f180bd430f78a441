"""The tile vocabulary the page names tiles by, and naming a box the user drew."""

import pytest

from fanshot.scoring.tiles import DETECTOR_CLASSES, name_hant, names


def test_the_vocabulary_is_the_scorers_names_of_every_detector_class(client):
    response = client.get("/v1/tiles")
    assert response.status_code == 200
    vocabulary = response.json()
    assert [tile["code"] for tile in vocabulary] == list(DETECTOR_CLASSES)
    assert all((tile["zh"], tile["en"]) == names(tile["code"]) for tile in vocabulary)
    by_code = {tile["code"]: tile for tile in vocabulary}
    assert by_code["1z"]["zh"] == "东" and by_code["2f"]["zh"] == "兰"  # the page once said 東 and 蘭
    assert all(tile["zh_hant"] == name_hant(tile["code"]) for tile in vocabulary)  # the zh-Hant page's (issue 49)
    assert (by_code["1z"]["zh_hant"], by_code["2f"]["zh_hant"], by_code["5m"]["zh_hant"]) == ("東", "蘭", "五萬")


def test_a_drawn_box_is_named(client, recognition):
    response = client.post(f"/v1/recognitions/{recognition['id']}/classify", json={"box": [10, 20, 60, 90]})
    assert response.status_code == 200, response.text
    assert response.json()["code"] == "1f" and response.json()["alternatives"][0] == {"code": "2f", "p": 0.06}


@pytest.mark.parametrize(("body", "code"), [
    ({"box": [10, 20, 5, 90]}, "bad_box"),  # x2 < x1
    ({"box": [10, 20, 60, 9000]}, "bad_box"),  # outside the 640×480 photo
    ({"box": [1, 2, 3]}, "bad_request"),
    ({"box": [1, 2, 3, 4], "extra": 1}, "bad_request"),
])
def test_a_box_that_is_not_inside_the_photo_is_refused(client, recognition, body, code):
    response = client.post(f"/v1/recognitions/{recognition['id']}/classify", json=body)
    assert response.status_code == 422 and response.json()["errors"][0]["code"] == code


def test_naming_a_box_on_an_unknown_recognition_is_404(client):
    response = client.post("/v1/recognitions/0123/classify", json={"box": [1, 2, 3, 4]})
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"
