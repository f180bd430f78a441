// Ready-hand analysis on the page (POST /v1/analyse): for 13 tiles (a kong counts as 3), the tiles that complete
// the hand and what each win is worth, or the tiles that help; for 14 tiles that do not win yet, every discard,
// best first. It follows the page's redraws (hand, form, rule set); the answer to an older hand is dropped.
import { call } from "./api.js";
import { $ } from "./dom.js";
import { errorText, t, tParts } from "./i18n.js";
import { tileFace } from "./tiles.js";

const HAND_SIZE = 14;
// Context fields of a finished win: the analysis values every wait as a plain self-draw and discard win.
const WIN_ONLY = ["special", "horses", "liable", "kong_fed_by"];

let currentRequest = () => null;
let playsFlowers = () => true;
let asked = 0; // the latest analysis asked for; older answers are dropped

/** Tiles in a score-request hand, each kong counted as 3 (flowers apart). */
export function tileCount(hand) {
  return (hand.concealed.match(/[1-9]/g) || []).length + 3 * (hand.melds || []).length;
}

/** A meld still being built: fewer tiles than its kind takes, or a concealed kong whose face is not named yet. */
export function unfinished(meld) {
  const tiles = (meld.tiles.match(/[1-9]/g) || []).length;
  return meld.kind === "kong" ? tiles !== 4 : tiles !== 3;
}

/** The analyse request for a score request, or null when the hand is not one to analyse: 13 tiles, or 14
 *  (whose winning tile is left out: the analysis tries every discard), and no meld still being built. */
export function analyseRequest(request) {
  if ((request.hand.melds || []).some(unfinished)) return null; // nothing to say until the meld is done
  const size = tileCount(request.hand);
  if (size !== HAND_SIZE - 1 && size !== HAND_SIZE) return null;
  const { winning_tile: _, ...hand } = request.hand;
  const context = Object.fromEntries(Object.entries(request.context || {}).filter(([key]) => !WIN_ONLY.includes(key)));
  return { ...request, hand, context };
}

/** "1 fan · 2 pts", or "—" where that way of winning is not allowed (or below the rule set's minimum). */
export function valueText(value) {
  return value ? t(value.points === 1 ? "waits_value_one" : "waits_value", { fan: value.fan_total, points: value.points }) : "—";
}

/** "ready", "2 from ready", "complete" (听牌, 2 向听, 和了). */
export function distanceText(shanten) {
  if (shanten < 0) return t("waits_complete");
  return shanten === 0 ? t("waits_ready") : t("waits_away", { n: shanten });
}

const left = (items) => items.reduce((sum, item) => sum + item.remaining, 0);

function tileList(items, className) {
  const list = Object.assign(document.createElement("span"), { className });
  for (const item of items) {
    const entry = Object.assign(document.createElement("span"), { className: "pick" });
    entry.dataset.code = item.tile;
    entry.append(tileFace(item.tile), Object.assign(document.createElement("small"), { textContent: `×${item.remaining}` }));
    list.append(entry);
  }
  return list;
}

function waitsTable(waits) {
  const table = Object.assign(document.createElement("table"), { className: "fans waits" });
  const head = table.createTHead().insertRow();
  for (const key of ["waits_wait", "waits_remaining", "self_draw", "discard"]) {
    head.append(Object.assign(document.createElement("th"), { textContent: t(key) }));
  }
  const body = table.createTBody();
  for (const wait of waits) {
    const row = body.insertRow();
    row.className = "wait";
    row.dataset.code = wait.tile;
    row.insertCell().append(tileFace(wait.tile));
    for (const text of [wait.remaining, valueText(wait.self_draw), valueText(wait.discard)]) row.insertCell().textContent = text;
  }
  return table;
}

/** The waits folded to one line (the tiles and how many are left), the table of what each is worth inside: a
 *  13-row table pushed Score screens down on a phone (issue 35). */
function waitsFold(waits) {
  const fold = Object.assign(document.createElement("details"), { className: "waits-fold" });
  const summary = document.createElement("summary");
  summary.append(`${t("waits_left", { n: left(waits) })}: `, tileList(waits, "palette inline"));
  fold.append(summary, waitsTable(waits));
  return fold;
}

function line(text, className = "") {
  return Object.assign(document.createElement("p"), { className, textContent: text });
}

/** The analysis as page elements. */
export function renderAnalysis(answer) {
  const parts = [line(t("waits_headline", { n: answer.tiles, distance: distanceText(answer.shanten) }), "headline")];
  if (answer.waits) parts.push(waitsFold(answer.waits));
  if (answer.useful) parts.push(line(t("waits_useful", { n: left(answer.useful) })), tileList(answer.useful, "palette useful"));
  if (answer.discards) {
    // the discards that keep the hand nearest to winning; the others folded away
    const nearest = answer.discards[0].shanten;
    const best = answer.discards.filter((entry) => entry.shanten === nearest);
    const rest = answer.discards.slice(best.length);
    parts.push(line(t("waits_best")), discardList(best, 1));
    if (rest.length) {
      const more = document.createElement("details");
      more.append(Object.assign(document.createElement("summary"), { textContent: t("waits_others", { n: rest.length }) }),
        discardList(rest, best.length + 1));
      parts.push(more);
    }
  }
  return parts;
}

function discardList(entries, start) {
  const list = Object.assign(document.createElement("ol"), { className: "discards", start });
  for (const entry of entries) {
    const item = document.createElement("li");
    item.dataset.code = entry.discard;
    const ready = Boolean(entry.waits);
    item.append(...tParts(ready ? "waits_discard_ready" : "waits_discard_useful", { tile: tileFace(entry.discard),
      distance: distanceText(entry.shanten), tiles: tileList(entry.waits || entry.useful, "palette") }));
    if (ready) {
      const top = Math.max(...entry.waits.flatMap((wait) => [wait.self_draw, wait.discard]).map((value) => value?.points ?? 0));
      item.append(t("waits_discard_value", { n: left(entry.waits), points: top }));
    }
    list.append(item);
  }
  return list;
}

function section() {
  let element = $("waits-section");
  if (!element) {
    element = Object.assign(document.createElement("section"), { id: "waits-section", hidden: true });
    element.setAttribute("aria-live", "polite");
    const heading = document.createElement("h2");
    heading.dataset.i18n = "waits"; // translatePage words it after a language switch
    heading.textContent = t("waits");
    element.append(heading, Object.assign(document.createElement("div"), { id: "waits" }));
    $("hand-section").after(element);
  }
  return element;
}

/** Analyse the hand now on the page (if it is one to analyse) and show the answer, in the page's language: the
 *  page calls it on every redraw, a language switch included. */
export async function updateWaits() {
  const token = ++asked;
  const request = currentRequest();
  let body = request && analyseRequest(request);
  // a rule set without flowers: the waits of the hand without them, said quietly (issue 35: it showed an error)
  const flowersLeftOut = Boolean(body?.hand.flowers) && !playsFlowers();
  if (flowersLeftOut) body = { ...body, hand: { ...body.hand, flowers: "" } };
  if (!body) {
    section().hidden = true;
    return;
  }
  try {
    const answer = await call("POST", "/v1/analyse", body);
    if (token !== asked) return;
    const complete = answer.shanten < 0; // 14 tiles that win: the Score button answers
    section().hidden = complete;
    if (!complete) {
      $("waits").replaceChildren(...(flowersLeftOut ? [line(t("waits_no_flowers"), "status")] : []), ...renderAnalysis(answer));
    }
  } catch (error) {
    if (token !== asked) return;
    section().hidden = false;
    $("waits").replaceChildren(line(errorText(error), "status error"));
  }
}

/** `request()` gives the page's score request, `flowers()` whether its rule set plays flowers; updateWaits() runs
 *  whenever the page redraws the hand. */
export function wireWaits(request, flowers) {
  currentRequest = request;
  playsFlowers = flowers;
}
