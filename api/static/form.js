// The "how it was won" form and the rule set choice: read into a score request, restored from a saved one,
// and fitted to the rule set (what it does not play is hidden or greyed out).
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { SEATS, seatName, tileName } from "./tiles.js";

const STAKES = ["unit", "fee", "flower", "kong", "chicken"];

function number(id) {
  const value = $(id).value.trim();
  return value === "" ? undefined : Number(value);
}

export function contextRequest() {
  const win = document.querySelector("input[name=win]:checked").value;
  const context = { win, seat_wind: $("seat_wind").value, prevalent_wind: $("prevalent_wind").value };
  if (win === "discard") context.discarder = $("discarder").value;
  const special = [...document.querySelectorAll("input[name=special]:checked")].map((box) => box.value);
  if (special.length) context.special = special;
  for (const key of ["liable", "kong_fed_by"]) if ($(key).value) context[key] = $(key).value;
  for (const key of ["ghosts", "horses"]) {
    if (!$(`${key}-field`).hidden && $(key).value.trim()) context[key] = $(key).value.trim();
  }
  const shown = STAKES.filter((key) => !$(`stake-${key}`).closest("label").hidden);
  context.stake = Object.fromEntries(shown.map((key) => [key, number(`stake-${key}`)]).filter(([, value]) => value !== undefined));
  return context;
}

/** The score request but its hand: {ruleset, options?, context}. */
export function scoringChoices() {
  const choices = { ruleset: $("ruleset").value, context: contextRequest() };
  if (!$("ghost-mode-field").hidden && $("ghost-mode").value) choices.options = { ghosts: $("ghost-mode").value };
  return choices;
}

/** Put saved choices back into the form (a reload of a saved photo). */
export function restoreChoices({ ruleset, options, context }, rulesets) {
  if (ruleset && [...$("ruleset").options].some((option) => option.value === ruleset)) $("ruleset").value = ruleset;
  $("ghost-mode").value = options?.ghosts ?? "";
  if (context) {
    for (const radio of document.querySelectorAll("input[name=win]")) radio.checked = radio.value === (context.win ?? "self_draw");
    for (const key of ["seat_wind", "prevalent_wind", "discarder", "liable", "kong_fed_by"]) {
      if (context[key] !== undefined) $(key).value = context[key];
    }
    for (const box of document.querySelectorAll("input[name=special]")) box.checked = (context.special ?? []).includes(box.value);
    for (const key of ["ghosts", "horses"]) $(key).value = context[key] ?? "";
    for (const key of STAKES) if (context.stake?.[key] !== undefined) $(`stake-${key}`).value = context.stake[key];
  }
  renderRulesetFields(rulesets);
}

/** Fill a select with the four seats (the dealer named), or with the four winds (`wind`: the prevalent wind is
 *  a wind, nobody's seat). */
export function seatOptions(select, optional, { wind = false } = {}) {
  const current = select.value;
  const name = wind ? tileName : seatName;
  select.replaceChildren(...(optional ? [new Option(t("nobody"), "")] : []), ...SEATS.map((seat) => new Option(name(seat), seat)));
  if (current) select.value = current;
}

export const rulesetSummary = (rulesets) => rulesets.find((ruleset) => ruleset.name === $("ruleset").value);

/** Show the fields the rule set uses; grey out the win it forbids; say how many horses to draw. */
export function renderRulesetFields(rulesets) {
  const summary = rulesetSummary(rulesets);
  const options = summary?.options ?? {};
  const ghosts = summary?.ghosts_in_play === true; // by its ghosts option, or because it scores them (推倒胡)
  $("ghost-mode-field").hidden = !ghosts;
  $("ghosts-field").hidden = !ghosts;
  $("horses-field").hidden = !options.horses;
  $("horses-hint").textContent = options.horses ? t("horses_hint", { n: options.horses_without_ghost, m: options.horses_with_ghost }) : "";
  for (const field of document.querySelectorAll(".qianggang")) field.hidden = !options.flowers;
  const discard = document.querySelector("input[name=win][value=discard]");
  discard.disabled = options.discard_win === false;
  discard.closest("label").title = discard.disabled ? t("not_in_ruleset") : "";
  if (discard.disabled && discard.checked) document.querySelector("input[name=win][value=self_draw]").checked = true;
  $("discarder-field").hidden = !discard.checked;
  const multiWin = document.querySelector("input[name=special][value=multi_win]"); // 截胡: one winner a discard
  multiWin.closest("label").hidden = !options.multi_win;
  if (!options.multi_win) multiWin.checked = false;
}

export function renderSeats() {
  for (const select of document.querySelectorAll("select.seat")) seatOptions(select, select.classList.contains("optional"));
  for (const select of document.querySelectorAll("select.wind")) seatOptions(select, false, { wind: true });
}

/** Wire the form; `onChange()` after any change of it. */
export function wireForm(onChange) {
  renderSeats();
  const keepDiscarderApart = () => { // nobody wins on their own discard
    if ($("discarder").value === $("seat_wind").value) $("discarder").value = SEATS.find((seat) => seat !== $("seat_wind").value);
  };
  $("seat_wind").addEventListener("change", keepDiscarderApart);
  keepDiscarderApart();
  for (const radio of document.querySelectorAll("input[name=win]")) {
    radio.addEventListener("change", () => { $("discarder-field").hidden = radio.value !== "discard" || !radio.checked; });
  }
  $("context-section").addEventListener("input", onChange);
  $("context-section").addEventListener("change", onChange);
}
