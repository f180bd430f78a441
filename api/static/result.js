// The score result: headline, fans, payments, kong payments and horses; or why there is none, with a way on.
import { $, button, escapeHtml } from "./dom.js";
import { seatWithPlayer } from "./game.js";
import { localName, t, tParts } from "./i18n.js";
import { moneyHtml } from "./money.js";
import { codesOf, tileFace } from "./tiles.js";

const signed = (amount) => `${amount > 0 ? "+" : ""}${amount}`;
const isFixed = (fan) => fan.kind === "fixed_points";

/** The kong payments as what each seat gains (+) or pays (−): the API lists what each payer pays (positive), all
 *  to the winner `seat`. */
export function kongTransfers(kongPayments, seat) {
  const paid = Object.entries(kongPayments ?? {});
  if (!paid.length) return {};
  const total = paid.reduce((sum, [, amount]) => sum + amount, 0);
  return { [seat]: total, ...Object.fromEntries(paid.map(([payer, amount]) => [payer, -amount])) };
}

/** The headline: fan (null for a fixed-points win: 满鬼 is "6 points", not "0 fan · 6 points"), points, and
 *  the badge only where a cap cut the fan or a limit hand went beyond the cap. */
export function headline(result) {
  const fixed = result.fans.find(isFixed);
  const cap = result.options?.cap;
  const beyondCap = result.limit && !fixed && typeof cap === "number" && cap >= 0 && result.fan_total > cap;
  const badge = result.capped ? t("capped", { cap }) : beyondCap ? t("limit") : "";
  return { fan: fixed ? null : result.fan_total, points: result.points, badge };
}

export function renderResult(result, seat) {
  const { fan, points, badge } = headline(result);
  const rows = result.fans.map((item) => `<tr class="fan"><td>${escapeHtml(localName(item))}</td>` +
    `<td>${isFixed(item) ? t("fixed_points", { n: item.fan }) : `${item.fan} ${t("fan")}`}</td></tr>`).join("");
  const seatList = (amounts, className) => `<ul class="${className}">${Object.entries(amounts).map(([s, amount]) =>
    `<li class="${s === seat ? "winner" : ""}"><span>${escapeHtml(seatWithPlayer(s))}</span><b>${signed(amount)}</b></li>`).join("")}</ul>`;
  const kongs = Object.keys(result.kong_payments ?? {}).length
    ? `<h3>${t("kong_payments")}</h3>${seatList(kongTransfers(result.kong_payments, seat), "kong-payments")}` : "";
  const horses = result.horses ? '<p class="horses"></p>' : "";
  const groups = escapeHtml(result.decomposition?.groups?.map((group) => group.tiles).join(" ") ?? "");
  const warnings = (result.warnings || []).map((warning) => `<li>${escapeHtml(String(warning))}</li>`).join("");
  $("result").innerHTML = `
    <p class="headline">${fan === null ? "" : `<b id="fan-total">${fan}</b> ${t("fan")} · `}<b id="points">${points}</b> ${t("points", { n: points })}
      ${badge ? `<span class="badge">${escapeHtml(badge)}</span>` : ""}</p>
    <table class="fans"><thead><tr><th>${t("fan_name")}</th><th>${t("fan_column")}</th></tr></thead><tbody>${rows}</tbody></table>
    ${horses}
    <h3>${t("payments")}</h3>${moneyHtml(result)}${seatList(result.payments, "payments")}
    ${kongs}
    ${groups ? `<p class="notation">${groups}</p>` : ""}
    ${warnings ? `<ul class="warnings">${warnings}</ul>` : ""}`;
  if (result.horses) { // the horses drawn as tiles, not as notation (issue 35)
    const tiles = Object.assign(document.createElement("span"), { className: "horse-tiles" });
    tiles.append(...codesOf(result.horses.tiles).map(tileFace));
    $("result").querySelector(".horses").append(...tParts("horses_hit", { tiles, n: result.horses.hits }));
  }
}

export function clearResult() {
  $("result").replaceChildren();
}

export function renderResultError(message) {
  $("result").replaceChildren(Object.assign(document.createElement("p"), { className: "status error", textContent: message }));
}

/** The hand has flowers but the rule set plays without them: score without them, or switch to `withFlowers`. */
export function renderFlowerChoice(ruleset, withFlowers, { leaveOut, switchTo }) {
  const note = Object.assign(document.createElement("p"), { className: "status", textContent: t("no_flowers", { ruleset: localName(ruleset) }) });
  const choices = document.createElement("div");
  choices.className = "row flower-choice";
  choices.append(button("", t("leave_flowers"), leaveOut));
  if (withFlowers) choices.append(button("", t("switch_ruleset", { ruleset: localName(withFlowers) }), () => switchTo(withFlowers.name)));
  $("result").replaceChildren(note, choices);
}
