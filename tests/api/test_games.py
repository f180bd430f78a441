"""/v1/games (docs/API.md "Games"): create, record, edit and delete hands, errors, export, durability, live events.
The replay itself (rotation, payments, totals) is tested in tests/scoring/test_game.py."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import itertools
import json
import threading

import httpx
import pytest

from fanshot.api.app import create_app
from fanshot.api.routers.games import RECONNECT_MS
from fanshot.api.storage.database import open_database, sqlite_url, upgrade
from fanshot.api.storage.game_events import MAX_STREAMS_PER_CLIENT, LocalGameEvents, PostgresGameEvents
from fanshot.api.storage.game_store import SqlGameStore
from tests.api.conftest import fake_recognise, served

pytestmark = pytest.mark.storage  # every test here reads or writes records or photos

PLAYERS = ["Ann", "Bo", "Cai", "Dee"]
CHICKEN = {"hand": {"concealed": "123m456p789s555s11z", "winning_tile": "1z"}}
PUNGS = {"hand": {"concealed": "111m222p333s444s99m", "winning_tile": "9m"}}
DRAW = {"kind": "draw"}


def self_draw(winner: int, request: dict = CHICKEN) -> dict:
    return {"kind": "win", "discarder": None, "wins": [{"winner": winner, "request": request}]}


def on_discard(discarder: int, *wins: tuple[int, dict]) -> dict:
    return {"kind": "win", "discarder": discarder, "wins": [{"winner": w, "request": r} for w, r in wins]}


def new_game(client, **body) -> dict:
    response = client.post("/v1/games", json={"players": PLAYERS, **body})
    assert response.status_code == 201, response.text
    assert response.headers["location"] == f"/v1/games/{response.json()['id']}"
    return response.json()


def add(client, game_id: str, hand: dict) -> dict:
    response = client.post(f"/v1/games/{game_id}/hands", json=hand)
    assert response.status_code == 201, response.text
    return response.json()


def as_read(client, game_id: str) -> dict:
    """The If-Match of a change to the game as it is now."""
    return {"if-match": client.get(f"/v1/games/{game_id}").headers["etag"]}


def hand_url(client, game_id: str, n: int) -> str:
    """The address of the game's hand n (counting from 1), by its id."""
    return f"/v1/games/{game_id}/hands/{client.get(f'/v1/games/{game_id}').json()['hands'][n - 1]['id']}"


def test_a_new_game_starts_east_with_the_first_player_dealing(client):
    game = new_game(client, ruleset="qianggang", stake={"chicken": 3, "kong": 2, "flower": 1})
    assert (game["ruleset"], game["dealer"], game["prevalent_wind"], game["hands"]) == ("qianggang", 0, "1z", [])
    assert [(p["name"], p["seat_wind"], p["total"]) for p in game["players"]] == [
        ("Ann", "1z", 0), ("Bo", "2z", 0), ("Cai", "3z", 0), ("Dee", "4z", 0)]
    assert client.get(f"/v1/games/{game['id']}").json() == game


def test_hands_move_the_deal_and_an_edit_or_delete_recomputes_what_follows(client):
    game_id = new_game(client, stake={"unit": 2, "fee": 1})["id"]
    first = add(client, game_id, self_draw(1))
    assert first["n"] == 1
    assert (first["points"], first["payments"]) == ([-2, 6, -2, -2], [-5, 11, -5, -5])
    multi = add(client, game_id, on_discard(2, (3, PUNGS), (0, CHICKEN)))  # 一炮多响 in jipinghu
    assert (multi["dealer"], [w["kept"] for w in multi["wins"]]) == (1, [True, True])
    assert multi["points"] == [1, 0, -5, 4]  # two winners: no 一炮三响 floor
    add(client, game_id, DRAW)
    game = client.get(f"/v1/games/{game_id}").json()
    assert (game["dealer"], [p["seat_wind"] for p in game["players"]]) == (2, ["3z", "4z", "1z", "2z"])
    assert [p["total"] for p in game["players"]] == [-4, 10, -16, 2]  # money: 2 x points, less 1 a hand
    assert sum(p["total"] + p["fees"] for p in game["players"]) == 0

    edited = client.put(hand_url(client, game_id, 1), json=self_draw(0),  # now the dealer won hand 1
                        headers=as_read(client, game_id))
    assert edited.status_code == 200, edited.text
    assert edited.json()["points"] == [6, -2, -2, -2]
    game = client.get(f"/v1/games/{game_id}").json()
    # Ann deals on, and the multi-win includes her: she keeps the deal (seed 000 line 10)
    assert [h["dealer"] for h in game["hands"]] == [0, 0, 0]
    assert game["dealer"] == 0

    after_delete = client.delete(hand_url(client, game_id, 1), headers=as_read(client, game_id))
    assert after_delete.status_code == 200
    game = after_delete.json()
    assert [h["n"] for h in game["hands"]] == [1, 2] and [h["kind"] for h in game["hands"]] == ["win", "draw"]
    assert game == client.get(f"/v1/games/{game_id}").json()
    assert game["version"] == 6  # created, three hands, an edit, a delete


def test_an_edit_or_delete_with_the_etag_read_is_refused_once_another_phone_changed_the_game(client):
    # issue 35 item 7, issue 50: a stale If-Match is a 412 that carries the game as it is now
    game_id = new_game(client)["id"]
    add(client, game_id, DRAW)
    add(client, game_id, self_draw(1))
    read = client.get(f"/v1/games/{game_id}")
    etag = read.headers["etag"]
    assert etag == f'"{read.json()["version"]}"'
    first, second = (hand["id"] for hand in read.json()["hands"])
    deleted = client.delete(f"/v1/games/{game_id}/hands/{first}", headers={"if-match": etag})  # another phone
    assert deleted.status_code == 200 and deleted.headers["etag"] == f'"{deleted.json()["version"]}"'
    for method in ("PUT", "DELETE"):
        refused = client.request(method, f"/v1/games/{game_id}/hands/{second}", headers={"if-match": etag},
                                 json=DRAW if method == "PUT" else None)
        assert refused.status_code == 412, refused.text
        assert refused.json()["errors"][0]["code"] == "precondition_failed"
        assert refused.json()["game"] == deleted.json() and refused.headers["etag"] == deleted.headers["etag"]
    assert client.get(f"/v1/games/{game_id}").json() == deleted.json()
    edited = client.put(f"/v1/games/{game_id}/hands/{second}", json=DRAW, headers={"if-match": deleted.headers["etag"]})
    assert edited.status_code == 200 and (edited.json()["kind"], edited.json()["id"]) == ("draw", second)


def test_hands_have_ids_that_are_never_reused_and_numbers_are_refused_with_the_fix(client):
    # issue 50: hands were addressed by position, which shifts when an earlier hand is deleted
    game_id = new_game(client)["id"]
    ids = [add(client, game_id, DRAW)["id"] for _ in range(3)]
    assert len(set(ids)) == 3 and all(isinstance(hand_id, str) for hand_id in ids)
    client.delete(f"/v1/games/{game_id}/hands/{ids[2]}", headers=as_read(client, game_id))
    again = add(client, game_id, DRAW)
    assert again["id"] not in ids and again["n"] == 3
    assert client.get(f"/v1/games/{game_id}/hands/{ids[1]}").json()["n"] == 2
    for method in ("GET", "PUT", "DELETE"):
        refused = client.request(method, f"/v1/games/{game_id}/hands/2", headers=as_read(client, game_id),
                                 json=DRAW if method == "PUT" else None)
        assert refused.status_code == 404, refused.text
        error = refused.json()["errors"][0]
        assert error["code"] == "hand_by_number" and "hands[1].id" in error["message"]


def test_two_clients_recording_the_same_hand_record_it_once(client):
    # issue 50: two phones recording the same hand gave two hands (10/10)
    game_id = new_game(client)["id"]
    for _ in range(10):
        etag = as_read(client, game_id)  # both phones show the game as it is
        first = client.post(f"/v1/games/{game_id}/hands", json=self_draw(1), headers=etag)
        second = client.post(f"/v1/games/{game_id}/hands", json=self_draw(1), headers=etag)
        assert first.status_code == 201, first.text
        assert second.status_code == 412, second.text
        assert second.json()["game"]["hands"][-1]["id"] == first.json()["id"]  # what the second phone shows
    assert len(client.get(f"/v1/games/{game_id}").json()["hands"]) == 10


def test_a_put_of_hand_2_racing_a_delete_of_hand_1_changes_the_right_hand(client):
    # issue 50: the PUT replaced the wrong hand (10/10), because the numbers shift
    game_id = new_game(client)["id"]
    add(client, game_id, DRAW)
    second = add(client, game_id, self_draw(1))["id"]
    first = client.get(f"/v1/games/{game_id}").json()["hands"][0]["id"]
    etag = as_read(client, game_id)
    assert client.delete(f"/v1/games/{game_id}/hands/{first}", headers=etag).status_code == 200
    stale = client.put(f"/v1/games/{game_id}/hands/{second}", json=self_draw(2), headers=etag)
    assert stale.status_code == 412
    # the editor sees its own hand unchanged in the 412's game, and sends again
    assert [hand["id"] for hand in stale.json()["game"]["hands"]] == [second]
    retried = client.put(f"/v1/games/{game_id}/hands/{second}", json=self_draw(2),
                         headers={"if-match": stale.headers["etag"]})
    assert retried.status_code == 200
    hands = client.get(f"/v1/games/{game_id}").json()["hands"]
    assert [(hand["id"], hand["wins"][0]["winner"]) for hand in hands] == [(second, 2)]


def test_threads_racing_on_one_game_lose_or_double_nothing(client):
    # the same race on threads: each client reads, then writes with what it read, until its change lands
    game_id = new_game(client)["id"]
    barrier = threading.Barrier(4)

    def record(winner: int) -> None:
        barrier.wait()
        while True:
            sent = client.post(f"/v1/games/{game_id}/hands", json=self_draw(winner), headers=as_read(client, game_id))
            if sent.status_code == 201:
                return
            assert sent.status_code == 412

    threads = [threading.Thread(target=record, args=(winner,)) for winner in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    hands = client.get(f"/v1/games/{game_id}").json()["hands"]
    assert sorted(hand["wins"][0]["winner"] for hand in hands) == [0, 1, 2, 3]
    assert len({hand["id"] for hand in hands}) == 4


@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_an_edit_or_delete_without_if_match_is_refused_with_the_fix(client, method):
    # issue 50: 20 PUTs without If-Match: 19 were silently overwritten
    game_id = new_game(client)["id"]
    hand_id = add(client, game_id, self_draw(1))["id"]
    before = client.get(f"/v1/games/{game_id}").json()
    for _ in range(20):
        refused = client.request(method, f"/v1/games/{game_id}/hands/{hand_id}", json=DRAW if method == "PUT" else None)
        assert refused.status_code == 428, refused.text
        error = refused.json()["errors"][0]
        assert error["code"] == "precondition_required" and "If-Match" in error["message"]
    assert client.get(f"/v1/games/{game_id}").json() == before


def test_截胡_is_recorded_with_only_the_biggest_hand_paid(client):
    game_id = new_game(client, ruleset="qianggang", stake={"chicken": 3})["id"]
    hand = add(client, game_id, on_discard(3, (0, CHICKEN), (2, PUNGS)))
    assert [(w["winner"], w["kept"]) for w in hand["wins"]] == [(0, False), (2, True)]
    assert hand["points"][0] == 0 and hand["points"][2] > 0


def test_a_hand_links_its_recognition(client, recognition):
    game_id = new_game(client)["id"]
    hand = self_draw(0)
    hand["wins"][0]["recognition_id"] = recognition["id"]
    assert add(client, game_id, hand)["wins"][0]["recognition_id"] == recognition["id"]
    hand["wins"][0]["recognition_id"] = "no-such-photo"
    refused = client.post(f"/v1/games/{game_id}/hands", json=hand)
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["code"] == "unknown_recognition"


@pytest.mark.parametrize(("body", "code"), [
    ({"players": PLAYERS[:3]}, "bad_request"),
    ({"players": ["Ann", "Ann", "Bo", "Cai"]}, "bad_request"),
    ({"players": PLAYERS, "ruleset": "riichi"}, "unknown_ruleset"),
    ({"players": PLAYERS, "options": {"cap": "high"}}, "bad_option"),
    ({"players": PLAYERS, "stake": {"unit": -1}}, "bad_context"),
    ({"players": PLAYERS, "colour": "red"}, "bad_request"),
])
def test_a_bad_game_is_refused(client, body, code):
    response = client.post("/v1/games", json=body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["code"] == code


@pytest.mark.parametrize(("name", "code"), [(r"\ud800", "bad_text"), (r"Bo\u0007", "bad_request")])
def test_a_name_that_is_not_plain_text_is_refused(client, name, code):
    # issue 36: a lone surrogate was stored, and every later read and export of the game failed
    body = b'{"players": ["Ann", "' + name.encode() + b'", "Cai", "Dee"]}'  # raw: JSON escapes, as a client sent
    response = client.post("/v1/games", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["code"] == code and "players[1]" in response.text  # surrogates: issue 53


@pytest.mark.parametrize(("hand", "code", "message"), [
    (on_discard(1, (1, CHICKEN)), "bad_context", "own discard"),
    (self_draw(0, {"hand": {"concealed": "123m456p789s555s12z", "winning_tile": "2z"}}), "not_winning", "hand 2"),
    ({"kind": "win", "discarder": None, "wins": []}, "bad_request", "wins"),
    ({"kind": "win", "discarder": 5, "wins": [{"winner": 0, "request": CHICKEN}]}, "bad_request", "discarder"),
    ({"kind": "lost"}, "bad_request", "kind"),
    ({"kind": "win", "discarder": None, "wins": [{"winner": True, "request": CHICKEN}]}, "bad_request", "winner"),
])
def test_a_bad_hand_is_refused_and_changes_nothing(client, hand, code, message):
    game_id = new_game(client)["id"]
    add(client, game_id, DRAW)
    before = client.get(f"/v1/games/{game_id}").json()
    response = client.post(f"/v1/games/{game_id}/hands", json=hand)
    assert response.status_code == 422
    assert response.json()["errors"][0]["code"] == code
    assert message in response.json()["errors"][0]["message"]
    assert client.get(f"/v1/games/{game_id}").json() == before


def test_a_delete_that_would_leave_a_later_hand_impossible_is_refused(client):
    game_id = new_game(client)["id"]
    add(client, game_id, self_draw(2))
    heavenly = self_draw(1, {**CHICKEN, "context": {"special": ["heavenly"]}})  # 天和: Bo deals hand 2
    add(client, game_id, heavenly)
    refused = client.delete(hand_url(client, game_id, 1), headers=as_read(client, game_id))
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["message"].startswith("hand 1: ")
    assert len(client.get(f"/v1/games/{game_id}").json()["hands"]) == 2


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/v1/games/nope"), ("POST", "/v1/games/nope/hands"), ("GET", "/v1/games/{id}/hands/h99"),
    ("PUT", "/v1/games/{id}/hands/h0"), ("DELETE", "/v1/games/{id}/hands/nope"), ("GET", "/v1/games/nope/events"),
    ("GET", "/v1/games/nope/export"),
])
def test_a_game_or_hand_that_does_not_exist_is_a_404(client, method, path):
    game_id = new_game(client)["id"]
    add(client, game_id, DRAW)
    response = client.request(method, path.format(id=game_id), json=DRAW if method in ("POST", "PUT") else None,
                              headers={"if-match": "*"})
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_the_csv_export_is_the_scoresheet(client):
    game_id = new_game(client, players=["安", "Bo", "Cai", "Dee"])["id"]
    add(client, game_id, self_draw(1))
    add(client, game_id, DRAW)
    response = client.get(f"/v1/games/{game_id}/export?format=csv")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == [["hand", "prevalent wind", "dealer", "result", "安", "Bo", "Cai", "Dee"],
                    ["1", "East", "安", "Bo 1 fan self-draw", "-2", "6", "-2", "-2"],
                    ["2", "East", "Bo", "draw", "0", "0", "0", "0"],
                    ["total", "", "", "", "-2", "6", "-2", "-2"]]


def test_a_name_that_looks_like_a_formula_is_exported_as_text(client):
    game_id = new_game(client, players=["=HYPERLINK(1)", "Bo", "Cai", "@Dee"])["id"]
    header = client.get(f"/v1/games/{game_id}/export").content.decode("utf-8-sig").splitlines()[0]
    assert header == "hand,prevalent wind,dealer,result,'=HYPERLINK(1),Bo,Cai,'@Dee"


@pytest.fixture
def game_store(tmp_path, storage) -> SqlGameStore:
    """The games of the app's storage: embedded, or on PostgreSQL."""
    return create_app(tmp_path, **storage, recognise=fake_recognise).state.games


def test_concurrent_hands_are_all_kept(game_store):
    """Phones at one table add hands at the same moment: each change reads and writes under one lock."""
    store = game_store
    game = store.create({"players": PLAYERS})

    def add_draws():
        for _ in range(10):
            store.change_hands(game.id, lambda g: [*g.hands, DRAW])

    workers = [threading.Thread(target=add_draws) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    stored = store.get(game.id)
    assert (len(stored.hands), stored.version) == (40, 41)


def test_a_refused_change_writes_nothing(game_store):
    store = game_store
    game = store.create({"players": PLAYERS})

    def refuse(_):
        raise ValueError("no")

    with pytest.raises(ValueError):
        store.change_hands(game.id, refuse)
    assert store.get(game.id) == game
    assert store.change_hands("nope", refuse) is None


def test_a_subscriber_gets_the_newest_game_published_from_any_thread():
    async def follow():
        events = LocalGameEvents()
        async with events.subscribe("g") as updates:
            publisher = threading.Thread(target=lambda: [events.publish("g", {"version": v}) for v in (2, 4, 3)])
            publisher.start()
            publisher.join()
            events.publish("other", {"version": 9})
            newest = await asyncio.wait_for(anext(updates), 5)
        assert events._subscriptions == {}  # unsubscribed on leaving
        return newest

    assert asyncio.run(follow()) == {"version": 4}  # 3 came after 4: an older game is never shown


def read_event(lines) -> dict:
    for line in lines:
        if line.startswith("data: "):
            return json.loads(line[len("data: "):])
    raise AssertionError("the stream ended")


@pytest.mark.server
def test_followers_get_every_change_live_and_games_survive_a_restart(tmp_path):
    with served(tmp_path) as base:  # SIGKILL after it: the acknowledged hand must already be on disk
        game_id = new_game(httpx.Client(base_url=base))["id"]
        with httpx.stream("GET", f"{base}/v1/games/{game_id}/events", timeout=20) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            first = list(itertools.takewhile(bool, lines))
            assert f"retry: {RECONNECT_MS}" in first  # how soon a follower comes back after a drop
            assert read_event(first)["version"] == 1
            add(httpx.Client(base_url=base), game_id, self_draw(1))
            live = read_event(lines)
            assert (live["version"], live["hands"][0]["points"]) == (2, [-2, 6, -2, -2])
            assert live == httpx.get(f"{base}/v1/games/{game_id}").json()
            # another server process changing the game: its followers here see it from the store
            another = SqlGameStore(open_database(sqlite_url(tmp_path / "fanshot.sqlite3")))
            another.change_hands(game_id, lambda g: [*g.hands, DRAW])
            live = read_event(lines)
            assert (live["version"], live["hands"][-1]["kind"]) == (3, "draw")
    with served(tmp_path) as base:
        assert httpx.get(f"{base}/v1/games/{game_id}").json() == live


def test_postgres_events_reach_the_followers_of_another_instance(postgres_url):
    """Two app instances on one database: a change published by one reaches a follower of the other (NOTIFY)."""
    upgrade(open_database(postgres_url))
    here, there = (PostgresGameEvents(open_database(postgres_url)) for _ in range(2))

    async def follow():
        async with here.subscribe("g") as updates:
            assert await asyncio.to_thread(here._listening.wait, 10)
            here.publish("g", {"version": 2, "hands": []})  # this instance's followers get the game itself
            assert await asyncio.wait_for(anext(updates), 5) == {"version": 2, "hands": []}
            await asyncio.to_thread(there.publish, "g", {"version": 3, "hands": []})
            return await asyncio.wait_for(anext(updates), 10)

    assert asyncio.run(follow()) == {"id": "g", "version": 3, "notice": True}  # the follower reads version 3


@pytest.mark.server
def test_a_client_may_follow_so_many_games_at_once_and_more_once_it_closes_one(tmp_path):
    # issue 36: 2,000 idle event streams from one client slowed every read to 2.9 s
    with served(tmp_path) as base:
        game_id = new_game(httpx.Client(base_url=base))["id"]
        url = f"{base}/v1/games/{game_id}/events"
        with contextlib.ExitStack() as open_streams:
            streams = [open_streams.enter_context(httpx.stream("GET", url, timeout=20))
                       for _ in range(MAX_STREAMS_PER_CLIENT)]
            assert {stream.status_code for stream in streams} == {200}
            refused = httpx.get(url, timeout=20)
            assert refused.status_code == 429 and refused.headers["Retry-After"] == "30"
            assert refused.json()["errors"][0]["code"] == "too_many_streams"
            assert httpx.get(f"{base}/v1/games/{game_id}").status_code == 200  # the rest still answers
        with httpx.stream("GET", url, timeout=20) as again:  # closed streams give their places back
            assert again.status_code == 200


def test_a_draw_records_and_pays_the_kongs_of_every_player_in_tuidaohu(client):
    game = new_game(client, ruleset="tuidaohu", stake={"unit": 5})
    kongs = [{"player": 1, "kind": "concealed"}, {"player": 2, "kind": "exposed", "from": 0}]
    played = client.post(f"/v1/games/{game['id']}/hands", json={"kind": "draw", "kongs": kongs})
    assert played.status_code == 201, played.text
    assert played.json()["kongs"] == kongs and played.json()["payments"] == [-25, 30, 5, -10]
    assert [p["total"] for p in client.get(f"/v1/games/{game['id']}").json()["players"]] == [-25, 30, 5, -10]
    wrong = client.post(f"/v1/games/{game['id']}/hands", json={"kind": "draw", "kongs": [
        {"player": 2, "kind": "exposed"}]})
    assert wrong.status_code == 422 and "kongs[0].from" in wrong.json()["errors"][0]["message"]


def stream_from(address: str, url: str, stack: contextlib.ExitStack) -> httpx.Response:
    client = stack.enter_context(httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=20))
    return stack.enter_context(client.stream("GET", url))


@pytest.mark.server
def test_event_streams_are_capped_per_client_and_in_all_both_as_configured(tmp_path):
    # issue 53: with a cap per address only, every user behind a reverse proxy shared its 16
    with served(tmp_path, "--max-streams", "3", "--streams-per-client", "2") as base:
        url = f"{base}/v1/games/{new_game(httpx.Client(base_url=base))['id']}/events"
        with contextlib.ExitStack() as open_streams:
            assert [stream_from("127.0.0.1", url, open_streams).status_code for _ in range(2)] == [200, 200]
            refused = httpx.get(url, timeout=20)
            assert (refused.status_code, refused.json()["errors"][0]["code"]) == (429, "too_many_streams")
            assert stream_from("127.0.0.2", url, open_streams).status_code == 200  # another client: a place left
            full = stream_from("127.0.0.3", url, open_streams)
            full.read()
            assert (full.status_code, full.json()["errors"][0]["code"]) == (503, "streams_full")
            assert full.headers["Retry-After"] == "30"
        with httpx.stream("GET", url, timeout=20) as again:  # closed streams give their places back
            assert again.status_code == 200
