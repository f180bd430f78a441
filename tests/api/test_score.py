import orjson
import pytest

from fanshot import scoring
from fanshot.api.schemas.scoring import ScoreResponse

REQUEST = {
    "ruleset": "jipinghu",
    "hand": {"concealed": "123m456p789s11122z", "winning_tile": "2z"},
    "context": {"win": "self_draw", "seat_wind": "1z", "prevalent_wind": "1z", "stake": {"unit": 1, "fee": 0}},
}


def test_score_matches_the_library(client):
    response = client.post("/v1/score", json=REQUEST)
    assert response.status_code == 200, response.text
    assert response.json() == scoring.score(REQUEST)
    assert sum(response.json()["payments"].values()) == 0


def test_nulls_mean_not_given(client):
    response = client.post("/v1/score", json={**REQUEST, "options": None, "context": {"win": "self_draw",
                                                                                      "ghosts": None}})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(("body", "code"), [
    ({**REQUEST, "hand": {"concealed": "123m", "winning_tile": "1m"}}, "too_few_tiles"),
    ({**REQUEST, "hand": {"concealed": "123q", "winning_tile": "1m"}}, "bad_tile"),
    ({**REQUEST, "ruleset": "nope"}, "unknown_ruleset"),
    ({**REQUEST, "ruleset": None}, "unknown_ruleset"),  # issue 35: not jipinghu silently; the CLI refuses it too
    ({"ruleset": "qianggang", "hand": {"concealed": "123m456p789s555s11z"},  # issue 35: was a 500 (orjson, 2^64)
      "context": {"stake": {"unit": 10**12, "chicken": 10**7}}}, "bad_context"),
    ({"hand": {"concealed": "111m222p333s444s99m"}, "options": {"cap": -1, "fans": {"all_pungs": 63}}}, "bad_context"),
    ({**REQUEST, "hand": {"winning_tile": "1m"}}, "bad_request"),
    ({**REQUEST, "hand": {**REQUEST["hand"], "winning_tile": "1m2m"}}, "bad_tile"),
    ({**REQUEST, "hand": {**REQUEST["hand"], "melds": [{"kind": "pung", "tiles": "111s"}] * 1_000}},
     "too_many_tiles"),
    ({**REQUEST, "context": {"stake": {"unit": "10"}}}, "bad_context"),
    ({**REQUEST, "context": {"stake": {"unit": True}}}, "bad_context"),
    ({**REQUEST, "options": {"min_fan": "1"}}, "bad_option"),
    ({**REQUEST, "options": {"fans": {"all_chows": -1}}}, "bad_option"),
    ({**REQUEST, "options": {"fans": {"no_such_pattern": 1}}}, "unknown_option"),
    ({**REQUEST, "contxt": {}}, "bad_request"),
    ([], "bad_request"),
])
def test_invalid_requests_are_refused_with_codes_never_a_score(client, body, code):
    response = client.post("/v1/score", json=body)
    assert response.status_code == 422
    assert [error["code"] for error in response.json()["errors"]] == [code]


def test_malformed_json_is_422(client):
    response = client.post("/v1/score", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["errors"][0]["code"] == "bad_request"


@pytest.mark.parametrize(("body", "content_type", "says"), [
    (b"", "application/json", "the body is empty"),
    (b'{"hand": ', "application/json", "the body is not JSON"),
    (b'{"hand": {"concealed": "123m456p789s11122z"}}', "text/plain", "Content-Type: application/json"),
])
def test_a_body_that_is_not_json_is_refused_with_the_fix(client, body, content_type, says):
    response = client.post("/v1/score", content=body, headers={"content-type": content_type})
    assert response.status_code == 422
    [error] = response.json()["errors"]
    assert error["code"] == "bad_request" and says in error["message"]


def test_a_score_request_is_json_with_or_without_its_content_type(client):
    for headers in ({}, {"content-type": "application/json; charset=utf-8"},
                    {"content-type": "application/vnd.fanshot+json"}):
        response = client.post("/v1/score", content=orjson.dumps(REQUEST), headers=headers)
        assert response.status_code == 200, response.text


def test_rulesets(client):
    names = [summary["name"] for summary in client.get("/v1/rulesets").json()]
    assert {"jipinghu", "tuidaohu", "xinzhang", "qianggang"} <= set(names)
    assert client.get("/v1/rulesets/jipinghu").json() == scoring.ruleset_details("jipinghu")
    missing = client.get("/v1/rulesets/nope")
    assert missing.status_code == 404 and missing.json()["errors"][0]["code"] == "unknown_ruleset"


def test_the_scorers_parser_is_the_one_validator(client):
    """What `fanshot score` accepts, the API accepts: a nested fan override, and no winning tile."""
    for body in ({**REQUEST, "options": {"fans": {"all_chows": 2}}},
                 {**REQUEST, "hand": {"concealed": "123m456p789s11122z"}}):
        response = client.post("/v1/score", json=body)
        assert response.status_code == 200, response.text
        assert response.json() == scoring.score(body)


def test_the_schema_documents_what_the_parser_accepts(client):
    schema = client.get("/openapi.json").json()["paths"]["/v1/score"]["post"]["requestBody"]["content"]
    request = schema["application/json"]["schema"]
    options = request["properties"]["options"]["anyOf"][0]["properties"]
    assert {"fans", "min_fan", "cap", "ghosts"} <= options.keys()
    assert request["required"] == ["hand"] and request["properties"]["hand"]["required"] == ["concealed"]


@pytest.mark.parametrize("body", [REQUEST, {**REQUEST, "options": {"fans": {"all_chows": 2}}},
                                  {**REQUEST, "ruleset": "qianggang", "context": {"win": "self_draw"}}])
def test_score_responses_conform_to_their_model(client, body):
    response = client.post("/v1/score", json=body)
    assert response.status_code == 200, response.text
    ScoreResponse.model_validate(response.json())


QIANGGANG = {
    # docs/RULES.md rule set 4, stake 1 2 3: a chicken self-draw with two flowers is 8 from each
    "ruleset": "qianggang",
    "hand": {"concealed": "123m456p789s555s11z", "flowers": "15f", "winning_tile": "1z"},
    "context": {"seat_wind": "2z", "stake": {"flower": 1, "kong": 2, "chicken": 3}},
}


@pytest.mark.parametrize("body", [REQUEST, QIANGGANG], ids=["jipinghu", "qianggang"])
def test_score_response_model_validates_what_the_api_returns(client, body):
    from fanshot.api.schemas.scoring import ScoreResponse

    returned = client.post("/v1/score", json=body).json()
    model = ScoreResponse.model_validate(returned)
    assert model.model_dump(exclude_unset=True) == returned  # every field of the response survives the model


def test_qianggang_stake_parts_over_the_api(client):
    returned = client.post("/v1/score", json=QIANGGANG).json()
    assert returned["stake"] == {"unit": 1, "fee": 0, "flower": 1, "kong": 2, "chicken": 3}
    assert returned["per_payer_parts"] == {"hand": 6, "horses": 0, "flowers": 2, "kongs": 0}
    assert returned["payments"] == {"1z": -8, "2z": 24, "3z": -8, "4z": -8}
