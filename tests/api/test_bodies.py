"""Issue 53 item 5: no 500 for any JSON body. The probe's bad inputs (nesting 500-980 deep, lone surrogates, NaN,
1e309 and -Infinity, notation bodies that are no object of text) put in every field of a sound body of every
POST/PUT route that reads JSON; and a JSON fuzz of those routes. Each is refused with the error shape, as JSON
that a strict parser reads (no refusal repeats a value JSON cannot hold)."""

from __future__ import annotations

import json

import pytest
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fanshot.api.bodies import MAX_JSON_DEPTH, CheckedJsonRoute
from tests.api.test_recognitions import confirmation_of

SENTINEL = "\x00bad\x00"
HAND = {"concealed": "123m456p789s11122z", "winning_tile": "2z"}
CONTEXT = {"win": "self_draw", "seat_wind": "1z", "stake": {"unit": 1.5, "fee": 0}}
BAD_VALUES = {"nan": "NaN", "1e309": "1e309", "-infinity": "-Infinity", "surrogate": '"\\ud800"',
              "low surrogate": '"x\\udc00y"', "500 deep": "[" * 500 + "]" * 500,
              "980 deep": '{"a":' * 980 + "1" + "}" * 980}


def strict_json(text: str):
    """JSON as RFC 8259 has it: NaN or Infinity, which the json module reads by default, refused."""
    return json.loads(text, parse_constant=lambda token: pytest.fail(f"not JSON: {token}"))


@pytest.fixture
def routes(client, recognition):
    """Every POST/PUT route that reads JSON, with a sound body for it."""
    new_game = {"players": ["Ann", "Bo", "Cai", "Dee"], "stake": CONTEXT["stake"]}
    game = client.post("/v1/games", json=new_game).json()
    hand = {"kind": "win", "discarder": None,
            "wins": [{"winner": 0, "request": {"hand": HAND, "context": {"stake": CONTEXT["stake"]}}}]}
    answer = client.post(f"/v1/games/{game['id']}/hands", json=hand)
    assert answer.status_code == 201, answer.text
    score = {"ruleset": "jipinghu", "options": {"min_fan": 0}, "hand": HAND, "context": CONTEXT}
    return [("POST", "/v1/score", score), ("POST", "/v1/analyse", score), ("POST", "/v1/notation", {"text": "123m"}),
            ("POST", f"/v1/recognitions/{recognition['id']}/classify", {"box": [1, 1, 30, 40]}),
            ("PUT", f"/v1/recognitions/{recognition['id']}/confirmation",
             {**confirmation_of(recognition), "options": {"min_fan": 0}, "context": CONTEXT}),
            ("POST", "/v1/games", new_game),
            ("POST", f"/v1/games/{game['id']}/hands", hand), ("PUT", f"/v1/games/{game['id']}/hands/0", hand),
            ("PUT", "/v1/models/active", {"version": "base"})]


def places(body, path=()):
    """Every place in `body` a value can go: each member and item, and the body itself."""
    yield path
    members = body.items() if isinstance(body, dict) else enumerate(body) if isinstance(body, list) else ()
    for key, value in members:
        yield from places(value, (*path, key))


def with_value_at(body, path, value):
    body = json.loads(json.dumps(body))
    if not path:
        return value
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return body


def refused_cleanly(response) -> dict:
    assert response.status_code < 500, response.text
    body = strict_json(response.text)
    if response.status_code >= 400:
        assert set(body) == {"errors"} and body["errors"]
        assert all({"code", "message"} <= set(error) <= {"code", "message", "detail"} for error in body["errors"])
    return body


def send(client, method, path, text: str):
    return client.request(method, path, content=text.encode(), headers={"content-type": "application/json"})


def api_routes(routes):
    """The app's routes, those of its included routers too (FastAPI 0.165 includes a router as a branch)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        yield from api_routes(included.routes) if included is not None else [route]


def test_every_route_that_reads_json_reads_it_through_the_check(client):
    reading_json = [route for route in api_routes(client.app.routes) if isinstance(route, APIRoute)
                    and route.body_field and "multipart" not in str(route.body_field.field_info.media_type)]
    assert len(reading_json) >= 8 and all(isinstance(route, CheckedJsonRoute) for route in reading_json)


@pytest.mark.slow
def test_the_probes_bad_values_anywhere_in_any_body_are_refused_by_name(client, routes):
    sent = 0
    for method, path, body in routes:
        for place in places(body):
            for name, raw in BAD_VALUES.items():
                text = json.dumps(with_value_at(body, place, SENTINEL)).replace(json.dumps(SENTINEL), raw)
                answer = refused_cleanly(send(client, method, path, text))
                assert "errors" in answer, (method, path, place, name)
                [error] = answer["errors"]
                expected = {"nan": "bad_number", "1e309": "bad_number", "-infinity": "bad_number",
                            "surrogate": "bad_text", "low surrogate": "bad_text"}.get(name, "too_deep")
                assert error["code"] == expected, (method, path, place, name, error)
                field = ".".join(str(key) for key in place).replace(".[", "[")
                if place and expected != "too_deep":
                    assert error["detail"]["field"].replace(".", "").replace("[", "").replace("]", "") == \
                        field.replace(".", "").replace("[", "").replace("]", ""), error
                sent += 1
    assert sent > 300


@pytest.mark.parametrize("body", ["null", "[]", '{"text": 5}', '{"text": null}', '{"text": ["1m"]}', '"1m"', "5"])
def test_notation_refuses_a_body_that_is_no_text(client, body):
    [error] = refused_cleanly(send(client, "POST", "/v1/notation", body))["errors"]
    assert (error["code"], error["detail"]["field"]) == ("bad_request", "text")


def test_a_body_at_the_depth_limit_is_read_and_one_past_it_refused(client):
    # as deep as allowed: refused by the scorer for what it holds, not for its depth
    within = '{"hand": ' + '{"a":' * (MAX_JSON_DEPTH - 2) + "1" + "}" * (MAX_JSON_DEPTH - 2) + "}"
    assert refused_cleanly(send(client, "POST", "/v1/score", within))["errors"][0]["code"] != "too_deep"
    beyond = '{"hand": ' + '{"a":' * (MAX_JSON_DEPTH - 1) + "1" + "}" * (MAX_JSON_DEPTH - 1) + "}"
    [error] = refused_cleanly(send(client, "POST", "/v1/score", beyond))["errors"]
    assert (error["code"], error["detail"]) == ("too_deep", {"field": "hand"})


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(st.characters(exclude_categories=())),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)


@pytest.mark.slow
def test_a_json_fuzz_of_every_route_gets_no_5xx(client, routes):
    """Any JSON value (NaN and Infinity, surrogates, deep lists of odd things), as the body and in each top-level
    member of a sound body."""
    bodiless = ("POST", "/v1/models/adapt", {})  # reads no body: whatever is sent, it answers as it would
    @given(value=JSON_VALUES, route=st.sampled_from([*routes, bodiless]), data=st.data())
    @settings(max_examples=400, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def fuzz(value, route, data):
        method, path, body = route
        place = data.draw(st.sampled_from([(), *((key,) for key in body)]))
        refused_cleanly(send(client, method, path, json.dumps(with_value_at(body, place, value))))

    fuzz()
