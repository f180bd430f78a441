// The "how it was won" form and the rule set choice: read into a score request, fitted to the rule set.
import { $ } from "./dom.js";
import { SEATS, seatName } from "./tiles.js";

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
  const stake = { unit: number("stake-unit"), fee: number("stake-fee") };
  if (!document.querySelector(".qianggang").hidden) {
    for (const key of ["flower", "kong", "chicken"]) stake[key] = number(`stake-${key}`);
  }
  context.stake = Object.fromEntries(Object.entries(stake).filter(([, value]) => value !== undefined));
  return context;
}

export function scoreRequest(hand) {
  const request = { ruleset: $("ruleset").value, hand, context: contextRequest() };
  if (!$("ghost-mode-field").hidden && $("ghost-mode").value) request.options = { ghosts: $("ghost-mode").value };
  return request;
}

export function seatOptions(select, optional) {
  const current = select.value;
  select.replaceChildren(...(optional ? [new Option("—", "")] : []), ...SEATS.map((seat) => new Option(seatName(seat), seat)));
  if (current) select.value = current;
}

export function renderRulesetFields(rulesets) {
  const summary = rulesets.find((ruleset) => ruleset.name === $("ruleset").value);
  const options = summary?.options ?? {};
  const ghosts = summary?.name === "tuidaohu"; // ghost tiles are a 推倒胡 rule (RULES.md)
  $("ghost-mode-field").hidden = !ghosts;
  $("ghosts-field").hidden = !ghosts;
  $("horses-field").hidden = !options.horses;
  for (const field of document.querySelectorAll(".qianggang")) field.hidden = !options.flowers;
}

export function wireForm() {
  for (const select of document.querySelectorAll("select.seat")) seatOptions(select, select.classList.contains("optional"));
  const keepDiscarderApart = () => { // nobody wins on their own discard
    if ($("discarder").value === $("seat_wind").value) $("discarder").value = SEATS.find((seat) => seat !== $("seat_wind").value);
  };
  $("seat_wind").addEventListener("change", keepDiscarderApart);
  keepDiscarderApart();
  for (const radio of document.querySelectorAll("input[name=win]")) {
    radio.addEventListener("change", () => { $("discarder-field").hidden = radio.value !== "discard" || !radio.checked; });
  }
}
