"""Games (docs/API.md "Games: a table's scoresheet"): create a game, record, edit and delete its hands, follow it
live (Server-Sent Events), export it. Stored is the list of hands; everything shown is a replay (scoring.game)."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Path
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent

from fanshot.api.bodies import CheckedJsonRoute
from fanshot.api.dependencies import FollowingDep, GameEventsDep, GamesDep, StoppingDep, StoreDep
from fanshot.api.errors import Refusal, error_responses, scorer_refusals
from fanshot.api.schemas.games import DrawHand, Game, GameCreate, HandInput, PlayedHand, WinHand
from fanshot.api.schemas.scoring import scorer_input
from fanshot.api.storage.game_store import StoredGame
from fanshot.api.storage.store import tags
from fanshot.scoring.game import Setup, check_setup, replay, scoresheet

# An event stream's own errors are JSON, not events: documented as such, not in the stream's media type.
JSON_ERRORS = {status: {"description": description, "content": {"application/json": {"schema": {
    "$ref": "#/components/schemas/ErrorResponse"}}}} for status, description in (
    (404, "no such game"), (422, "Unprocessable Entity"), (429, "this client follows too many games at once"),
    (500, "Internal Server Error"))}
# Published changes reach this process's followers at once; a follower also looks at the store this often, for
# changes made through other server processes (`fanshot serve --workers N`).
STORE_POLL_SECONDS = 2.0
# How soon an EventSource reconnects after its stream ends (a restart, a network drop): `retry:` on the first event.
RECONNECT_MS = 2000
# Every write names the game's ETag it read: another phone's change meanwhile makes it a 412 (with the game as it is
# now), not a second copy of the same hand or an edit on top of a change never seen.
GameIfMatch = Annotated[str | None, Header(description="the game's ETag as read (GET answers it): the change is made "
                                           "only if the game has not changed since (else 412 with the game now)")]
# A hand's id: "h" and the game's version that recorded it, so an id is never given twice in a game.
HandId = Annotated[str, Path(description="the hand's `id` (as the game lists it), not its number")]
router = APIRouter(prefix="/v1/games", tags=["games"], route_class=CheckedJsonRoute)


def setup_of(game: StoredGame) -> Setup:
    return Setup(game.setup["ruleset"], tuple(game.setup["players"]), game.setup["options"], game.setup["stake"])


def view(game: StoredGame) -> dict[str, Any]:
    with scorer_refusals():
        derived = replay(setup_of(game), game.hands)
    return {"id": game.id, "version": game.version, "created_at": game.created_at, "updated_at": game.updated_at,
            **{key: game.setup[key] for key in ("ruleset", "options", "stake")}, **derived}


def existing(game_id: str, games: GamesDep) -> StoredGame:
    game = games.get(game_id)
    if game is None:
        raise Refusal(404, "not_found", f"no game with id {game_id!r}")
    return game


ExistingGame = Annotated[StoredGame, Depends(existing)]


def stored_hand(hand: WinHand | DrawHand, store: StoreDep) -> dict[str, Any]:
    """The hand as the game keeps it, its photo links checked."""
    kongs = {} if hand.kongs is None else {"kongs": [
        {"player": kong.player, "kind": kong.kind, **({} if kong.made_from is None else {"from": kong.made_from})}
        for kong in hand.kongs]}
    if isinstance(hand, DrawHand):
        return {"kind": "draw", **kongs}
    wins = []
    for i, win in enumerate(hand.wins):
        if win.recognition_id is not None and store.recognition(win.recognition_id) is None:
            raise Refusal(422, "unknown_recognition", f"wins[{i}].recognition_id: no recognition with id "
                          f"{win.recognition_id!r}")
        wins.append({"winner": win.winner, "request": scorer_input(win.request),
                     **({"recognition_id": win.recognition_id} if win.recognition_id else {})})
    return {"kind": "win", "discarder": hand.discarder, "wins": wins, **kongs}


def game_tag(version: int) -> str:
    """The game's ETag: its version, which every change raises."""
    return f'"{version}"'


def tagged(body: dict[str, Any], game: dict[str, Any], status: int = 200, **headers: str) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={"ETag": game_tag(game["version"]), **headers})


def change(game_id: str, games: GamesDep, events: GameEventsDep, edit: Any, if_match: str | None) -> dict[str, Any]:
    """Apply `edit(game) -> hands` if the game still replays and, with `if_match`, is still the version read; then
    tell every follower. A stale `if_match` is a 412 carrying the game as it is now."""
    shown: dict[str, Any] = {}

    def checked(game: StoredGame) -> list[dict[str, Any]]:
        if if_match is not None and if_match != "*" and game_tag(game.version) not in tags(if_match):
            raise Refusal(412, "precondition_failed", f"the game changed since it was read (it is at version "
                          f"{game.version}; If-Match no longer matches): see `game`, the game now, and send "
                          "again with its ETag if the change still stands", headers={"ETag": game_tag(game.version)},
                          beside={"game": view(game)})
        hands = edit(game)
        shown.update(view(StoredGame(game.id, game.version + 1, game.created_at, game.updated_at, game.setup,
                                     hands)))
        return hands

    changed = games.change_hands(game_id, checked)
    if changed is None:
        raise Refusal(404, "not_found", f"no game with id {game_id!r}")
    shown["updated_at"] = changed.updated_at
    events.publish(game_id, shown)
    return shown


def required(if_match: str | None) -> str:
    """An edit or delete without If-Match would overwrite whatever another phone did meanwhile: refused."""
    if if_match is None:
        raise Refusal(428, "precondition_required", "If-Match: send the game's ETag as read (GET /v1/games/{id} "
                      "answers it, e.g. If-Match: \"7\"), so that another phone's change is never overwritten unseen")
    return if_match


def hand_index(game_id: str, hands: list[dict[str, Any]], hand_id: str) -> int:
    """The position of the hand with id `hand_id`; a number is the withdrawn way of naming a hand."""
    if hand_id.isdigit():
        raise Refusal(404, "hand_by_number", f"hands are named by their id, not their number, since 2026-12-06 "
                      f"(numbers shift when an earlier hand is deleted): use `hands[{int(hand_id) - 1}].id` of GET "
                      f"/v1/games/{game_id} in the address")
    for i, hand in enumerate(hands):
        if hand.get("id") == hand_id:
            return i
    raise Refusal(404, "not_found", f"game {game_id} has no hand with id {hand_id!r}")


def new_hand_id(game: StoredGame) -> str:
    """Ids count with the game's version, which only rises: an id is never reused, even after a delete."""
    return f"h{game.version + 1}"


def inert(value: Any) -> Any:
    """A name a spreadsheet would run as a formula (=, +, -, @) is written as text (OWASP CSV injection)."""
    return f"'{value}" if isinstance(value, str) and value.startswith(("=", "+", "-", "@", "\t", "\r")) else value


@router.post("", status_code=201, response_model=Game)
def create_game(body: GameCreate, games: GamesDep) -> JSONResponse:
    stake = scorer_input(body.stake) if body.stake is not None else {}
    with scorer_refusals():
        setup = check_setup(body.ruleset, body.options, body.players, stake)
    game = games.create({"ruleset": setup.ruleset, "options": setup.options, "players": list(setup.players),
                         "stake": setup.stake})
    return JSONResponse(view(game), status_code=201, headers={"Location": f"/v1/games/{game.id}"})


@router.get("/{game_id}", response_model=Game, responses=error_responses(404))
def get_game(game: ExistingGame) -> JSONResponse:
    shown = view(game)
    return tagged(shown, shown)


@router.post("/{game_id}/hands", status_code=201, response_model=PlayedHand,
             responses=error_responses(404, 412))
def add_hand(game_id: str, hand: HandInput, games: GamesDep, events: GameEventsDep, store: StoreDep,
             if_match: GameIfMatch = None) -> JSONResponse:
    recorded = stored_hand(hand, store)
    game = change(game_id, games, events, lambda now: [*now.hands, {"id": new_hand_id(now), **recorded}], if_match)
    played = game["hands"][-1]
    return tagged(played, game, 201, Location=f"/v1/games/{game_id}/hands/{played['id']}")


@router.get("/{game_id}/hands/{hand_id}", response_model=PlayedHand, responses=error_responses(404))
def get_hand(game: ExistingGame, hand_id: HandId) -> JSONResponse:
    return JSONResponse(view(game)["hands"][hand_index(game.id, game.hands, hand_id)])


@router.put("/{game_id}/hands/{hand_id}", response_model=PlayedHand, responses=error_responses(404, 412, 428))
def edit_hand(game_id: str, hand_id: HandId, hand: HandInput, games: GamesDep, events: GameEventsDep,
              store: StoreDep, if_match: GameIfMatch = None) -> JSONResponse:
    recorded = {"id": hand_id, **stored_hand(hand, store)}
    place: list[int] = []

    def replaced(now: StoredGame) -> list[dict[str, Any]]:
        hands = list(now.hands)
        place.append(hand_index(game_id, hands, hand_id))
        hands[place[0]] = recorded
        return hands

    game = change(game_id, games, events, replaced, required(if_match))
    return tagged(game["hands"][place[0]], game)


@router.delete("/{game_id}/hands/{hand_id}", response_model=Game, responses=error_responses(404, 412, 428))
def delete_hand(game_id: str, hand_id: HandId, games: GamesDep, events: GameEventsDep,
                if_match: GameIfMatch = None) -> JSONResponse:
    def removed(now: StoredGame) -> list[dict[str, Any]]:
        hands = list(now.hands)
        del hands[hand_index(game_id, hands, hand_id)]
        return hands

    game = change(game_id, games, events, removed, required(if_match))
    return tagged(game, game)


@router.get("/{game_id}/events", response_class=EventSourceResponse, responses=JSON_ERRORS)
async def follow_game(game: ExistingGame, games: GamesDep, events: GameEventsDep, stopping: StoppingDep,
                      place: FollowingDep) -> AsyncIterator[ServerSentEvent]:
    """The game now, then again after every change (Server-Sent Events; `data` is the game as GET returns it).
    The stream ends when the server is stopping; EventSource clients reconnect by themselves, after the
    `retry:` the first event sets. A client may hold MAX_STREAMS_PER_CLIENT open at once (429 beyond)."""
    with place:
        async with events.subscribe(game.id) as updates:
            # read after subscribing, so that no change falls between the two
            current = await run_in_threadpool(lambda: view(games.get(game.id) or game))
            yield ServerSentEvent(data=current, id=str(current["version"]), retry=RECONNECT_MS)
            while not stopping.is_set():
                try:
                    update = await asyncio.wait_for(anext(updates), STORE_POLL_SECONDS)
                except TimeoutError:  # a change made through another server process is only in the store
                    update = {"version": current["version"] + 1, "notice": True}
                if update.get("notice"):  # a newer version may be in the store: read it
                    stored = await run_in_threadpool(games.get, game.id)
                    update = await run_in_threadpool(view, stored) if stored.version > current["version"] else current
                if update["version"] > current["version"]:
                    current = update
                    yield ServerSentEvent(data=current, id=str(current["version"]))


@router.get("/{game_id}/export", response_class=Response, responses={
    **error_responses(404), 200: {"content": {"text/csv": {}}, "description": "the scoresheet"}})
def export_game(game: ExistingGame, format: Literal["csv"] = "csv") -> Response:  # noqa: A002 - the documented name
    buffer = io.StringIO()
    csv.writer(buffer).writerows([[inert(value) for value in row] for row in scoresheet(setup_of(game), view(game))])
    # The byte-order mark lets spreadsheet programs read the players' names as UTF-8.
    return Response("\ufeff" + buffer.getvalue(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="fanshot-game-{game.id}.csv"'})
