// A table's game on the page: start one, add each scored hand to it, follow its scoresheet live (Server-Sent
// Events from /v1/games/{id}/events), record a draw, undo the last hand. The server replays the game; the page
// only shows what it sends. The game's id is in the address (?game=…), so every phone at the table can open it.
import { call, callTagged, qrOf } from "./api.js";
import { $, button, cell, setStatus } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { paysKongs, readKongs, showKongs } from "./kongs.js";
import { SEATS, faceOf, seatName, tileName } from "./tiles.js";

const GAME_PARAM = "game";
const STORAGE_KEY = "fanshot-game";
// The game fills these in from its own state (docs/API.md "Games"); the rule set and stake are the game's.
const FILLED_BY_GAME = ["seat_wind", "prevalent_wind", "discarder", "stake", "win"];

const view = { game: null, events: null, scored: null, retry: null, attempts: 0 };

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
    return { method: "PUT", url: `/v1/games/${game.id}/hands/${last.id}`,
      body: { kind: "win", discarder: last.discarder, wins: [...wins, win], ...(last.kongs && { kongs: last.kongs }) } };
  }
  const discarder = context.win === "discard" ? playerAt(seatWinds, context.discarder) : null;
  return { method: "POST", url: `/v1/games/${game.id}/hands`, body: { kind: "win", discarder, wins: [win] } };
}

/** What replaces played `hand` after the editor's choices: a draw, or a win by `winners` (a player per win) on
 *  `discarder`'s discard (null: self-drawn), each win's hand as recorded or, with `scored`, the hand scored on the
 *  page (one win); `kongs`: the other players' kongs (null: the hand's stay as they are). */
export function editedHand(hand, { kind, winners, discarder, scored = null, recognitionId = null, kongs: chosen = null }) {
  const list = chosen ?? hand.kongs ?? [];
  const kongs = list.length ? { kongs: list } : {};
  if (kind === "draw") return { kind: "draw", ...kongs };
  const photo = (id) => (id ? { recognition_id: id } : {});
  const wins = scored ? [{ winner: winners[0], request: winRequest(scored), ...photo(recognitionId) }]
    : hand.wins.map(({ request, recognition_id }, i) => ({ winner: winners[i], request, ...photo(recognition_id) }));
  return { kind: "win", discarder, wins, ...kongs };
}

/** The If-Match of a change to `game` as this page last saw it: another phone's change meanwhile is a 412. */
const asRead = (game) => ({ "if-match": `"${game.version}"` });

/** A hand as recorded, without what the replay derives: two copies of one hand are equal. */
export const recorded = (hand) => JSON.stringify({ kind: hand.kind, discarder: hand.discarder ?? null,
  wins: (hand.wins ?? []).map(({ winner, request, recognition_id }) => ({ winner, hand: request.hand, recognition_id })),
  kongs: hand.kongs ?? [] });

/** The hand of `game`, other than those in `known` (ids), that records the same tiles as `win` (one win of a hand
 *  about to be added): another phone has just added it. Not the winner: once that hand is in, the seats have
 *  moved on, so the same seat names another player. */
export function alreadyThere(game, win, known = new Set()) {
  const same = (other) => JSON.stringify(other.request.hand) === JSON.stringify(win.request.hand);
  return game.hands.find((hand) => !known.has(hand.id) && hand.kind === "win" && hand.wins.some(same)) ?? null;
}

const signed = (amount) => `${amount > 0 ? "+" : ""}${amount}`;

/** One line per hand, in the page's language: "Bo 3 fan on Cai's discard", "Ann 1 fan self-draw", "Draw". */
export function describeHand(game, hand) {
  if (hand.kind === "draw") return t("game_drawn");
  const name = (player) => game.players[player].name;
  const wins = hand.wins.map((win) => {
    const text = t("game_win", { name: name(win.winner), fan: win.fan_total });
    return win.kept ? text : t("game_not_paid", { win: text });
  }).join(t("game_and"));
  return hand.discarder === null ? t("game_self_draw", { wins }) : t("game_on_discard", { wins, name: name(hand.discarder) });
}

/** A hand's kong money, apart from its win money: "Kongs: Ann -2, Bo +6, …" (null without kongs). */
export function kongMoney(game, hand) {
  if (!hand.kong_payments?.some((amount) => amount !== 0)) return null;
  const list = hand.kong_payments.flatMap((amount, i) => (amount ? [`${game.players[i].name} ${signed(amount)}`] : []));
  return t("game_kong_money", { list: list.join(t("game_and")) });
}

/** A seat's wind as the character on its tile (the served vocabulary's). */
const windFace = (wind) => faceOf(wind)[0];

function renderSheet(game) {
  const players = game.players;
  const dealer = players[game.dealer].name;
  $("game-title").textContent = t("game_title", { wind: tileName(game.prevalent_wind), n: game.hands.length + 1, dealer });
  $("scoresheet-head").replaceChildren(cell("th", "#"), ...players.map((player) =>
    cell("th", `${player.name} ${windFace(player.seat_wind)}`, { className: player.seat_wind === "1z" ? "dealer" : "" })));
  $("scoresheet-body").replaceChildren(...game.hands.map((hand) => {
    const row = document.createElement("tr");
    row.dataset.hand = hand.n;
    const label = cell("th", "");
    label.title = t("game_hand_title", { wind: tileName(hand.prevalent_wind), dealer: players[hand.dealer].name });
    // a tap on a hand's row edits it (issue 35); its number is that row's button for a keyboard
    const edit = button("edit-hand", `${hand.n}`, () => openEditor(game, hand));
    edit.setAttribute("aria-label", t("edit_hand", { n: hand.n }));
    // any hand, not only the last, can be taken back, after a question (issue 35); later hands are recomputed
    const remove = button("delete-hand", "✕", () => removeHand(game, hand));
    remove.setAttribute("aria-label", t("game_delete_hand", { n: hand.n }));
    label.append(edit, remove);
    row.append(label, ...hand.payments.map((amount) => cell("td", signed(amount), { className: amount > 0 ? "won" : "" })));
    const detail = document.createElement("tr");
    detail.className = "detail";
    for (const line of [row, detail]) {
      line.addEventListener("click", (event) => event.target.closest("button") || openEditor(game, hand));
    }
    const text = cell("td", describeHand(game, hand));
    const kongs = kongMoney(game, hand);
    if (kongs) text.append(cell("span", kongs, { className: "kong-money" }));
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
  $("game-qr").src = qrOf(gameUrl(game.id)); // scanned by another phone at the table, which then follows the game
  const last = game.hands.at(-1);
  $("same-discard-field").hidden = !(last?.kind === "win" && last.discarder !== null);
  $("same-discard-text").textContent = last ? t("game_same_discard", { n: last.n }) : "";
}

const sameDiscardChosen = () => !$("same-discard-field").hidden && $("same-discard").checked;

/** Each player's seat wind in the hand being scored: the last hand's for another winner on its discard. */
const scoredSeatWinds = (game) => (sameDiscardChosen() ? game.hands.at(-1).seat_winds
  : game.players.map((player) => player.seat_wind));

/** The seat's name with the game's player who sits there, for the hand being scored; the seat alone when no game
 *  is followed. */
export function seatWithPlayer(seat) {
  const game = view.game;
  if (!game) return seatName(seat);
  return `${seatName(seat)} — ${game.players[playerAt(scoredSeatWinds(game), seat)].name}`;
}

/** "Who won": one tap on a player's name (issue 50), in place of the form's seat choice (one control, not two),
 *  which keeps the seat chosen; the seat chosen last on this phone (East at first) is the one marked. */
function renderWinners(game) {
  const seatWinds = scoredSeatWinds(game);
  const names = game.players.map((player, i) => `${player.name} ${windFace(seatWinds[i])}`);
  // drawn again only when the names or seats change: not under a finger at every event of the game
  if ($("game-winner").dataset.names !== JSON.stringify(names)) {
    $("game-winner").dataset.names = JSON.stringify(names);
    $("game-winner").replaceChildren(...names.map((name, i) => {
      const label = document.createElement("label");
      const radio = Object.assign(document.createElement("input"), { type: "radio", name: "game-winner", value: seatWinds[i] });
      label.append(radio, " ", cell("span", name));
      return label;
    }));
  }
  markWinner();
  $("game-winner-field").hidden = false;
  $("seat_wind").closest("label").hidden = true;
}

function markWinner() {
  for (const radio of document.querySelectorAll("input[name=game-winner]")) radio.checked = radio.value === $("seat_wind").value;
}

function chooseWinner(event) {
  $("seat_wind").value = event.target.value;
  $("seat_wind").dispatchEvent(new Event("change", { bubbles: true })); // as a choice in the form: the result is redone
}

/** Name who sits at each seat in the form's seat choices. */
function nameSeats() {
  for (const select of document.querySelectorAll("select.seat")) {
    for (const option of select.options) {
      if (SEATS.includes(option.value)) option.textContent = seatWithPlayer(option.value);
    }
  }
}

/** Fill the score form from the game: the prevalent wind, and who sits where next to each seat. */
function fillForm(game) {
  const last = game.hands.at(-1);
  $("prevalent_wind").value = sameDiscardChosen() ? last.prevalent_wind : game.prevalent_wind;
  if (sameDiscardChosen()) { // the same discarder, now with that hand's seats
    $("discarder").value = last.seat_winds[last.discarder];
    document.querySelector("input[name=win][value=discard]").click();
  }
  nameSeats();
  renderWinners(game);
}

function clearForm() {
  for (const select of document.querySelectorAll("select.seat")) {
    for (const option of select.options) if (SEATS.includes(option.value)) option.textContent = seatName(option.value);
  }
}

function show(game) {
  if (view.game && game.id === view.game.id && game.version < view.game.version) return; // an older copy
  const fresh = view.game?.id !== game.id;
  view.game = game;
  if (fresh) showKongs($("next-kongs"), $("next-kong-add"), game);
  offerKongs(game);
  followEditor(game);
  if ($("ruleset").value !== game.ruleset) { // score every hand under the game's rule set
    $("ruleset").value = game.ruleset;
    $("ruleset").dispatchEvent(new Event("change"));
  }
  $("game-start").hidden = true;
  $("game-sheet").hidden = false;
  document.querySelector("main").prepend($("game-section")); // the evening's home leads the page (issue 50)
  $("add-to-game").hidden = false;
  renderSheet(game);
  fillForm(game);
}

const gameUrl = (id) => {
  const url = new URL(location.href);
  url.searchParams.set(GAME_PARAM, id);
  return url.href;
};

/** Put `words()` on the game's status line (a function: a language switch words it again). */
const say = (words, isError = false) => setStatus($("game-status"), words, isError);
const reconnecting = () => t("game_reconnecting");
const failed = (key, error) => say(() => t(key, { error: errorText(error, "game") }), true);

/** How long to wait before the `attempt`-th reconnection (0 first) after the event stream was given up: 1 s,
 * doubling, at most 30 s, so that a server back from an outage is not met by every follower at once. */
export const reconnectDelay = (attempt) => Math.min(1000 * 2 ** attempt, 30000);

function follow(id) {
  view.events?.close();
  clearTimeout(view.retry);
  localStorage.setItem(STORAGE_KEY, id);
  history.replaceState(null, "", gameUrl(id));
  // EventSource reconnects by itself after a network drop; the first event is always the whole game.
  const events = new EventSource(`/v1/games/${id}/events`);
  view.events = events;
  events.addEventListener("message", (event) => show(JSON.parse(event.data)));
  events.addEventListener("open", () => {
    view.attempts = 0;
    if ($("game-status").textContent === reconnecting()) say("");
  });
  events.addEventListener("error", () => {
    say(reconnecting);
    // An answer that is not an event stream (a 503 while the database is down) makes EventSource give up for
    // good: follow again, after a growing wait, unless the game was left or followed anew meanwhile.
    if (events.readyState !== EventSource.CLOSED) return;
    view.retry = setTimeout(() => view.events === events && follow(id), reconnectDelay(view.attempts++));
  });
}

function leave() {
  view.events?.close();
  clearTimeout(view.retry);
  Object.assign(view, { game: null, events: null, attempts: 0 });
  localStorage.removeItem(STORAGE_KEY);
  const url = new URL(location.href);
  url.searchParams.delete(GAME_PARAM);
  history.replaceState(null, "", url.href);
  $("game-start").hidden = false;
  $("game-sheet").hidden = true;
  $("add-to-game").hidden = true;
  $("game-winner-field").hidden = true;
  $("seat_wind").closest("label").hidden = false;
  $("save-section").before($("game-section")); // back in its place, after the page's own work
  clearForm();
}

/** Send a change of the game as this page shows it (If-Match: the game's version shown); `done(answer, game)`
 *  words what was done, in the language of the moment. "done", "stale" (another phone changed the game meanwhile:
 *  it is shown as it is now) or "failed". */
async function change(method, url, body, done) {
  try {
    const { data: answer } = await callTagged(method, url, body, asRead(view.game));
    const game = view.game;
    say(() => done(answer, game));
    show(await call("GET", `/v1/games/${view.game.id}`)); // at once, whatever the event stream is doing
    return "done";
  } catch (error) {
    if (error.status === 412) { // changed on another phone since this one showed it: show it as it is now
      say(() => t("game_changed_meanwhile"), true);
      show(error.data?.game ?? await call("GET", `/v1/games/${view.game.id}`).catch(() => view.game));
      return "stale";
    }
    failed("game_not_recorded", error);
    return "failed";
  }
}

/** Take hand `hand` out of the game once the player confirms: every phone at the table sees it go. */
function removeHand(game, hand) {
  if (!window.confirm(t("game_delete_confirm", { n: hand.n, hand: describeHand(game, hand) }))) return;
  change("DELETE", `/v1/games/${game.id}/hands/${hand.id}`, undefined, () => t("game_hand_undone", { n: hand.n }));
}

const editing = { game: null, hand: null };

function playerOptions(select, game, { optional = "" } = {}) {
  select.replaceChildren(...(optional ? [new Option(optional, "")] : []),
    ...game.players.map((player, i) => new Option(player.name, String(i))));
}

/** The scored hand's winner and discarder, at `hand`'s seats. */
function scoredSeats(hand) {
  const context = view.scored.request.context ?? {};
  const winner = playerAt(hand.seat_winds, context.seat_wind);
  return { winner, discarder: context.win === "discard" ? playerAt(hand.seat_winds, context.discarder) : null };
}

/** Fit the editor to its choices: a win needs a hand (recorded, or scored above); one winner per win. */
function fitEditor() {
  const { game, hand } = editing;
  const useScored = $("edit-use-scored").checked && !$("edit-scored-field").hidden;
  const kind = document.querySelector("input[name=edit-kind]:checked").value;
  $("edit-win-fields").hidden = kind === "draw";
  const count = useScored || hand.kind === "draw" ? 1 : hand.wins.length;
  const winners = [...$("edit-winners").querySelectorAll("select")].map((select) => select.value);
  $("edit-winners").replaceChildren(...Array.from({ length: count }, (_, i) => {
    const label = document.createElement("label");
    const select = document.createElement("select");
    playerOptions(select, game);
    select.value = winners[i] ?? String(hand.wins?.[i]?.winner ?? 0);
    label.append(Object.assign(document.createElement("span"), { textContent: t("edit_winner") }), " ", select);
    return label;
  }));
  $("edit-save").disabled = kind === "win" && hand.kind === "draw" && !useScored;
  $("edit-hint").textContent = $("edit-save").disabled ? t("edit_needs_scored") : "";
}

/** The editor of played hand `hand`: winner, discarder, a draw instead, or the hand scored on the page. */
function openEditor(game, hand) {
  Object.assign(editing, { game, hand });
  $("hand-editor-title").textContent = t("edit_hand_title", { n: hand.n, hand: describeHand(game, hand) });
  for (const radio of document.querySelectorAll("input[name=edit-kind]")) radio.checked = radio.value === hand.kind;
  $("edit-winners").replaceChildren();
  playerOptions($("edit-discarder"), game, { optional: t("self_draw") });
  $("edit-discarder").value = hand.discarder === null || hand.discarder === undefined ? "" : String(hand.discarder);
  $("edit-scored-field").hidden = !view.scored || hand.wins?.length > 1;
  $("edit-use-scored").checked = false;
  showKongs($("edit-kongs"), $("edit-kong-add"), game, hand.kongs ?? []);
  fitEditor();
  if (!$("hand-editor").open) $("hand-editor").showModal();
}

/** The kong controls, only where the game's rule set pays kongs apart from the win (its data says so). */
async function offerKongs(game) {
  const pays = await paysKongs(game.ruleset);
  for (const id of ["next-kongs-field", "edit-kongs-field"]) $(id).hidden = !pays;
}

/** The kongs chosen for the next hand, as a hand's field; cleared once the hand is recorded. */
const nextKongs = () => {
  const kongs = $("next-kongs-field").hidden ? [] : readKongs($("next-kongs"));
  return kongs.length ? { kongs } : {};
};
const clearNextKongs = () => showKongs($("next-kongs"), $("next-kong-add"), view.game);

/** An open editor follows the game (another phone's change of another hand moves nothing here); when another
 *  phone changed or removed this very hand, the editor shows that hand as it is now and says so. */
function followEditor(game) {
  if (!$("hand-editor").open || !editing.hand) return;
  const now = game.hands.find((hand) => hand.id === editing.hand.id);
  if (!now) {
    editing.game = game;
    $("edit-save").disabled = true;
    $("edit-hint").textContent = t("edit_hand_gone");
  } else if (recorded(now) !== recorded(editing.hand)) {
    openEditor(game, now);
    $("edit-hint").textContent = t("edit_hand_changed");
  } else {
    Object.assign(editing, { game, hand: now });
    $("hand-editor-title").textContent = t("edit_hand_title", { n: now.n, hand: describeHand(game, now) });
  }
}

function useScored() {
  if ($("edit-use-scored").checked) {
    const { winner, discarder } = scoredSeats(editing.hand);
    document.querySelector("input[name=edit-kind][value=win]").checked = true;
    $("edit-winners").replaceChildren();
    fitEditor();
    $("edit-winners").querySelector("select").value = String(winner);
    $("edit-discarder").value = discarder === null ? "" : String(discarder);
  }
  fitEditor();
}

async function saveEdit() {
  const { game, hand } = editing;
  const scored = $("edit-use-scored").checked && !$("edit-scored-field").hidden ? view.scored : null;
  const discarder = $("edit-discarder").value;
  const body = editedHand(hand, {
    kind: document.querySelector("input[name=edit-kind]:checked").value,
    winners: [...$("edit-winners").querySelectorAll("select")].map((select) => Number(select.value)),
    discarder: discarder === "" ? null : Number(discarder),
    scored: scored?.request, recognitionId: scored?.recognitionId,
    kongs: $("edit-kongs-field").hidden ? null : readKongs($("edit-kongs")),
  });
  const edited = (played, shown) => t("game_hand_edited", { n: played.n, hand: describeHand(shown, played) });
  // refused only when this hand changed: a change elsewhere in the game meanwhile is sent again on the game now
  const unchanged = () => view.game.hands.some((now) => now.id === hand.id && recorded(now) === recorded(hand));
  for (let tries = 0; tries < 3 && unchanged(); tries++) {
    const outcome = await change("PUT", `/v1/games/${game.id}/hands/${hand.id}`, body, edited);
    if (outcome === "done") $("hand-editor").close();
    if (outcome !== "stale") return;
  }
}

async function start(stake) {
  const players = [0, 1, 2, 3].map((i) => $(`player-${i}`).value.trim());
  try {
    const game = await call("POST", "/v1/games", { ruleset: $("ruleset").value, players, stake: stake() });
    show(game);
    follow(game.id);
    say(() => t("game_started"));
  } catch (error) {
    failed("game_start_failed", error);
  }
}

/** Add the hand scored on the page; when it is already in the game (another phone has just added it), show it
 *  and ask before adding a second. */
async function addScored() {
  const { request, recognitionId } = view.scored;
  const asked = new Set(); // hands already shown to the player as "already there"
  $("add-to-game").disabled = true; // one tap, one hand
  for (let tries = 0; tries < 3; tries++) {
    const { method, url, body: hand } = handChange(view.game, request, { sameDiscard: sameDiscardChosen(), recognitionId });
    const body = method === "POST" ? { ...hand, ...nextKongs() } : hand;
    const there = method === "POST" ? alreadyThere(view.game, body.wins[0], asked) : null;
    if (there) {
      asked.add(there.id);
      highlight(there);
      if (!window.confirm(t("game_already_there", { n: there.n, hand: describeHand(view.game, there) }))) {
        say(() => t("game_not_added_twice", { n: there.n }));
        break;
      }
    }
    const outcome = await change(method, url, body, (hand, game) => t("game_hand_added", { n: hand.n, hand: describeHand(game, hand) }));
    if (outcome === "done") {
      clearNextKongs();
      $("same-discard").checked = false;
      scoredHand(null);
      fillForm(view.game);
      backToSheet();
      return;
    }
    if (outcome === "failed" || !alreadyThere(view.game, body.wins[0], asked)) break;
  }
  $("add-to-game").disabled = false;
}

/** Back on the sheet once a hand is in: the new hand on it, "Add a hand" ready for the next. */
function backToSheet() {
  $("game-section").scrollIntoView({ block: "start" });
  $("add-hand").focus({ preventScroll: true });
}

/** Point at a hand of the sheet: scrolled into view and marked. */
function highlight(hand) {
  const row = document.querySelector(`#scoresheet-body tr[data-hand="${hand.n}"]`);
  row?.scrollIntoView({ block: "nearest" });
  row?.classList.add("already");
}

/** Record a draw; when another phone changed the game meanwhile with a draw, show it and ask before a second. */
async function addDraw() {
  const known = new Set(view.game.hands.map((hand) => hand.id));
  const drawn = (hand) => t("game_hand_draw", { n: hand.n });
  const body = { kind: "draw", ...nextKongs() };
  const outcome = await change("POST", `/v1/games/${view.game.id}/hands`, body, drawn);
  if (outcome === "done") clearNextKongs();
  if (outcome !== "stale") return;
  const there = view.game.hands.find((hand) => !known.has(hand.id) && hand.kind === "draw");
  if (!there) return;
  highlight(there);
  if (window.confirm(t("game_already_there", { n: there.n, hand: describeHand(view.game, there) }))) {
    if (await change("POST", `/v1/games/${view.game.id}/hands`, body, drawn) === "done") clearNextKongs();
  } else {
    say(() => t("game_not_added_twice", { n: there.n }));
  }
}

/** Hand the game's link on without leaving the page (it used to follow the link, reloading the page and losing
 *  the photo and every unsaved fix): the system's share sheet where there is one, else the clipboard. */
async function shareLink(event) {
  event.preventDefault();
  const url = event.currentTarget.href;
  try {
    if (navigator.share) {
      await navigator.share({ title: document.title, url });
      return;
    }
    await navigator.clipboard.writeText(url);
    say(() => t("game_link_copied"));
  } catch (error) {
    if (error?.name === "AbortError") return; // the share sheet was closed
    say(() => t("game_link_failed", { url }), true);
  }
}

/** Word the game section again in the page's language now (after a language switch redrew the form's seats). */
export function renderGame() {
  if (!view.game) return;
  renderSheet(view.game);
  nameSeats();
  renderWinners(view.game); // "Who won" names each seat by its wind, in the page's script (東, not 东)
}

/** Called after every Score: the request that scored (null after a refusal) enables "add this hand". */
export function scoredHand(request, recognitionId = null) {
  view.scored = request && { request, recognitionId };
  $("add-to-game").disabled = !request;
}

/** Wire the game section; `stake()` reads the stake from the score form, `addHand()` opens the photo's choice. */
export function wireGame({ stake, addHand }) {
  $("start-game").addEventListener("click", () => start(stake));
  $("add-hand").addEventListener("click", addHand);
  $("game-winner").addEventListener("change", chooseWinner);
  $("seat_wind").addEventListener("change", markWinner);
  $("add-to-game").addEventListener("click", addScored);
  $("record-draw").addEventListener("click", addDraw);
  $("undo-hand").addEventListener("click", () => removeHand(view.game, view.game.hands.at(-1)));
  for (const radio of document.querySelectorAll("input[name=edit-kind]")) radio.addEventListener("change", fitEditor);
  $("edit-use-scored").addEventListener("change", useScored);
  $("edit-save").addEventListener("click", saveEdit);
  $("share-game").addEventListener("click", shareLink);
  $("leave-game").addEventListener("click", leave);
  $("same-discard").addEventListener("change", () => view.game && fillForm(view.game));
  const id = new URLSearchParams(location.search).get(GAME_PARAM) ?? localStorage.getItem(STORAGE_KEY);
  if (/^[0-9a-f]{32}$/.test(id ?? "")) {
    call("GET", `/v1/games/${id}`).then((game) => { show(game); follow(id); })
      .catch((error) => { leave(); failed("game_open_failed", error); });
  }
}
