// The kongs of players other than the winner, on a game's hand (docs/API.md "Games": the hand's `kongs`): who
// made it, which kind, and, for an exposed kong, whose discard fed it. One list control, used under the sheet for
// the next hand and in the hand editor; offered only where the game's rule set pays kongs apart from the win
// (its `kongs` table in GET /v1/rulesets/{name} is not empty).
import { call } from "./api.js";
import { button } from "./dom.js";
import { t } from "./i18n.js";

// the API's kind → the page's word for it (the meld kinds' words)
const KINDS = { concealed: "kong_concealed", exposed: "kong", added: "kong_added" };

const paying = new Map(); // rule set name → a promise: does it pay kongs apart from the win?

/** Whether rule set `name` pays kongs apart from the win, from its own data (not its name). */
export function paysKongs(name) {
  if (!paying.has(name)) {
    paying.set(name, call("GET", `/v1/rulesets/${encodeURIComponent(name)}`)
      .then((ruleset) => Object.keys(ruleset.kongs ?? {}).length > 0)
      .catch(() => { paying.delete(name); return false; }));
  }
  return paying.get(name);
}

function select(label, options, value) {
  const element = document.createElement("select");
  element.setAttribute("aria-label", label);
  element.replaceChildren(...options.map(([key, text]) => new Option(text, key)));
  element.value = value;
  return element;
}

/** One kong's row: who, which kind, fed by whom (an exposed kong only; never the kong's own player). */
function kongRow(players, kong, onChange) {
  const row = document.createElement("div");
  row.className = "kong row";
  const names = players.map((player, i) => [String(i), player.name]);
  const who = select(t("kong_player"), names, String(kong.player));
  const kind = select(t("kong_kind"), Object.entries(KINDS).map(([key, word]) => [key, t(word)]), kong.kind);
  const from = document.createElement("label");
  const fedBy = select(t("kong_from"), [], "");
  from.append(t("kong_from"), " ", fedBy);
  const fit = () => {
    const others = names.filter(([i]) => i !== who.value);
    const chosen = fedBy.value || String(kong.from ?? "");
    fedBy.replaceChildren(...others.map(([key, text]) => new Option(text, key)));
    fedBy.value = others.some(([key]) => key === chosen) ? chosen : others[0][0];
    from.hidden = kind.value !== "exposed";
  };
  for (const control of [who, kind, fedBy]) control.addEventListener("change", () => { fit(); onChange(); });
  fit();
  const remove = button("remove-kong", "✕", () => { row.remove(); onChange(); });
  remove.setAttribute("aria-label", t("kong_remove"));
  row.append(who, kind, from, remove);
  row.read = () => ({ player: Number(who.value), kind: kind.value,
    ...(kind.value === "exposed" && { from: Number(fedBy.value) }) });
  return row;
}

/** Fill `list` (an element) with `kongs` of `game`'s players, and make `add` (a button) add one more. */
export function showKongs(list, add, game, kongs = [], onChange = () => {}) {
  list.replaceChildren(...kongs.map((kong) => kongRow(game.players, kong, onChange)));
  add.onclick = () => {
    list.append(kongRow(game.players, { player: 0, kind: "concealed" }, onChange));
    onChange();
  };
}

/** The kongs `list` holds, as the API takes them. */
export const readKongs = (list) => [...list.children].map((row) => row.read());
