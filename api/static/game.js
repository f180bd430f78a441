// A table's game on the page: start one, add each scored hand to it, follow its scoresheet live (Server-Sent
// Events from /v1/games/{id}/events), record a draw, undo the last hand. The server replays the game; the page
// only shows what it sends. The game's id is in the address (?game=…), so every phone at the table can open it.
import { call } from "./api.js";
import { $, setStatus } from "./dom.js";
import { SEATS, seatName } from "./tiles.js";

const GAME_PARAM = "game";
const STORAGE_KEY = "fanshot-game";
// The game fills these in from its own state (DESIGN.md "Games"); the rule set and stake are the game's.
const FILLED_BY_GAME = ["seat_wind", "prevalent_wind", "discarder", "stake", "win"];
const WIND_NAMES = { "1z": "東 East", "2z": "南 South", "3z": "西 West", "4z": "北 North" };

const view = { game: null, events: null, scored: null };

/** A score request as a game's win: without the winds, the discarder, the stake, the rule set and options. */
export function winRequest(request) {
  const context = Object.fromEntries(Object.entries(request.context ?? {}).filter(([key]) => !FILLED_BY_GAME.includes(key)));
  return { hand: request.hand, ...(Object.keys(context).length && { context }) };
}

/** The player sitting at `seat`, given each player's seat wind in that hand. */
export const playerAt = (seatWinds, seat) => seatWinds.indexOf(seat);

/** What "add this hand" sends: a new hand, or the last hand with one more winner on the same discard. */
export function handChange(game, request, { sameDiscard = false, recognitionId = null } = {}) {
  const context = request.context ?? {};
  const last = game.hands.at(-1);
  const seatWinds = sameDiscard ? last.seat_winds : game.players.map((player) => player.seat_wind);
  const win = { winner: playerAt(seatWinds, context.seat_wind), request: winRequest(request),
    ...(recognitionId && { recognition_id: recognitionId }) };
  if (sameDiscard) {
    const wins = last.wins.map(({ winner, request: asked, recognition_id }) =>
      ({ winner, request: asked, ...(recognition_id && { recognition_id }) }));
    return { method: "PUT", url: `/v1/games/${game.id}/hands/${last.n}`,
      body: { kind: "win", discarder: last.discarder, wins: [...wins, win] } };
  }
  const discarder = context.win === "discard" ? playerAt(seatWinds, context.discarder) : null;
  return { method: "POST", url: `/v1/games/${game.id}/hands`, body: { kind: "win", discarder, wins: [win] } };
}

/** One line per hand: "Bo 3 fan on Cai's discard", "Ann 1 fan self-draw", "Draw 流局". */
export function describeHand(game, hand) {
  if (hand.kind === "draw") return "Draw 流局";
  const name = (player) => game.players[player].name;
  const wins = hand.wins.map((win) => `${name(win.winner)} ${win.fan_total} fan${win.kept ? "" : " (截胡: not paid)"}`);
  return `${wins.join(", ")} ${hand.discarder === null ? "self-draw" : `on ${name(hand.discarder)}'s discard`}`;
}

const signed = (amount) => `${amount > 0 ? "+" : ""}${amount}`;

function cell(tag, text, className) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className) element.className = className;
  return element;
}

function renderSheet(game) {
  const players = game.players;
  const dealer = players[game.dealer].name;
  $("game-title").textContent = `${WIND_NAMES[game.prevalent_wind]} round · hand ${game.hands.length + 1} · ${dealer} deals`;
  $("scoresheet-head").replaceChildren(cell("th", "#"), ...players.map((player) =>
    cell("th", `${player.name} ${WIND_NAMES[player.seat_wind].slice(0, 1)}`, player.seat_wind === "1z" ? "dealer" : "")));
  $("scoresheet-body").replaceChildren(...game.hands.map((hand) => {
    const row = document.createElement("tr");
    row.dataset.hand = hand.n;
    const label = cell("th", `${hand.n}`);
    label.title = `${WIND_NAMES[hand.prevalent_wind]} round, ${players[hand.dealer].name} dealing`;
    row.append(label, ...hand.payments.map((amount) => cell("td", signed(amount), amount > 0 ? "won" : "")));
    const detail = document.createElement("tr");
    detail.className = "detail";
    const text = cell("td", describeHand(game, hand));
    text.colSpan = players.length + 1;
    detail.append(text);
    return [row, detail];
  }).flat());
  $("scoresheet-totals").replaceChildren(cell("th", "Σ"), ...players.map((player) => cell("td", signed(player.total))));
  $("settlement").replaceChildren(...game.settlement.map((transfer) =>
    cell("li", `${players[transfer.from].name} → ${players[transfer.to].name}: ${transfer.amount}`)));
  $("settlement-section").hidden = !game.settlement.length;
  $("undo-hand").disabled = !game.hands.length;
  $("export-game").href = `/v1/games/${game.id}/export?format=csv`;
  $("share-game").href = gameUrl(game.id);
  const last = game.hands.at(-1);
  $("same-discard-field").hidden = !(last?.kind === "win" && last.discarder !== null);
  $("same-discard-hand").textContent = last ? `${last.n}` : "";
}

/** Fill the score form from the game: the prevalent wind, and who sits where next to each seat. */
function fillForm(game) {
  const sameDiscard = !$("same-discard-field").hidden && $("same-discard").checked;
  const last = game.hands.at(-1);
  const seatWinds = sameDiscard ? last.seat_winds : game.players.map((player) => player.seat_wind);
  $("prevalent_wind").value = sameDiscard ? last.prevalent_wind : game.prevalent_wind;
  if (sameDiscard) { // the same discarder, now with that hand's seats
    $("discarder").value = last.seat_winds[last.discarder];
    document.querySelector("input[name=win][value=discard]").click();
  }
  for (const select of document.querySelectorAll("select.seat")) {
    for (const option of select.options) {
      if (!SEATS.includes(option.value)) continue;
      option.textContent = `${seatName(option.value)} — ${game.players[playerAt(seatWinds, option.value)].name}`;
    }
  }
}

function clearForm() {
  for (const select of document.querySelectorAll("select.seat")) {
    for (const option of select.options) if (SEATS.includes(option.value)) option.textContent = seatName(option.value);
  }
}

function show(game) {
  if (view.game && game.id === view.game.id && game.version < view.game.version) return; // an older copy
  view.game = game;
  if ($("ruleset").value !== game.ruleset) { // score every hand under the game's rule set
    $("ruleset").value = game.ruleset;
    $("ruleset").dispatchEvent(new Event("change"));
  }
  $("game-start").hidden = true;
  $("game-sheet").hidden = false;
  $("add-to-game").hidden = false;
  renderSheet(game);
  fillForm(game);
}

const gameUrl = (id) => {
  const url = new URL(location.href);
  url.searchParams.set(GAME_PARAM, id);
  return url.href;
};

function follow(id) {
  view.events?.close();
  localStorage.setItem(STORAGE_KEY, id);
  history.replaceState(null, "", gameUrl(id));
  // EventSource reconnects by itself after a network drop; the first event is always the whole game.
  view.events = new EventSource(`/v1/games/${id}/events`);
  view.events.addEventListener("message", (event) => show(JSON.parse(event.data)));
  view.events.addEventListener("open", () => setStatus($("game-status"), ""));
  view.events.addEventListener("error", () => setStatus($("game-status"), "Reconnecting to the game…"));
}

function leave() {
  view.events?.close();
  Object.assign(view, { game: null, events: null });
  localStorage.removeItem(STORAGE_KEY);
  const url = new URL(location.href);
  url.searchParams.delete(GAME_PARAM);
  history.replaceState(null, "", url.href);
  $("game-start").hidden = false;
  $("game-sheet").hidden = true;
  $("add-to-game").hidden = true;
  clearForm();
}

async function change(method, url, body, done) {
  const status = $("game-status");
  try {
    const answer = await call(method, url, body);
    setStatus(status, done(answer));
    show(await call("GET", `/v1/games/${view.game.id}`)); // at once, whatever the event stream is doing
    return true;
  } catch (error) {
    setStatus(status, `Not recorded: ${error.message}`, true);
    return false;
  }
}

async function start(stake) {
  const players = [0, 1, 2, 3].map((i) => $(`player-${i}`).value.trim());
  try {
    const game = await call("POST", "/v1/games", { ruleset: $("ruleset").value, players, stake: stake() });
    show(game);
    follow(game.id);
    setStatus($("game-status"), "Game started: share its link with the table.");
  } catch (error) {
    setStatus($("game-status"), `Could not start the game: ${error.message}`, true);
  }
}

async function addScored() {
  const sameDiscard = !$("same-discard-field").hidden && $("same-discard").checked;
  const { request, recognitionId } = view.scored;
  const { method, url, body } = handChange(view.game, request, { sameDiscard, recognitionId });
  $("add-to-game").disabled = true; // one tap, one hand
  if (await change(method, url, body, (hand) => `Hand ${hand.n} added: ${describeHand(view.game, hand)}.`)) {
    $("same-discard").checked = false;
    scoredHand(null);
    fillForm(view.game);
  } else {
    $("add-to-game").disabled = false;
  }
}

/** Called after every Score: the request that scored (null after a refusal) enables "add this hand". */
export function scoredHand(request, recognitionId = null) {
  view.scored = request && { request, recognitionId };
  $("add-to-game").disabled = !request;
}

/** Wire the game section; `stake()` reads the stake from the score form. */
export function wireGame({ stake }) {
  $("start-game").addEventListener("click", () => start(stake));
  $("add-to-game").addEventListener("click", addScored);
  $("record-draw").addEventListener("click", () =>
    change("POST", `/v1/games/${view.game.id}/hands`, { kind: "draw" }, (hand) => `Hand ${hand.n}: a draw.`));
  $("undo-hand").addEventListener("click", () => {
    const last = view.game.hands.at(-1);
    change("DELETE", `/v1/games/${view.game.id}/hands/${last.n}`, undefined, () => `Hand ${last.n} undone.`);
  });
  $("leave-game").addEventListener("click", leave);
  $("same-discard").addEventListener("change", () => view.game && fillForm(view.game));
  const id = new URLSearchParams(location.search).get(GAME_PARAM) ?? localStorage.getItem(STORAGE_KEY);
  if (/^[0-9a-f]{32}$/.test(id ?? "")) {
    call("GET", `/v1/games/${id}`).then((game) => { show(game); follow(id); })
      .catch((error) => { leave(); setStatus($("game-status"), `Could not open the game: ${error.message}`, true); });
  }
}
