// The score result: headline, fans, the money behind the payments, payments.
import { $, escapeHtml } from "./dom.js";
import { seatName } from "./tiles.js";

const PART_NAMES = { hand: "hand 番", horses: "horses 马", flowers: "flowers 花", kongs: "kongs 杠" };

/** The money lines: qianggang's three stake numbers, and what each payer owes by part (hand, horses, ...). */
export function moneyLines(result) {
  const stake = result.stake;
  const stakes = "chicken" in stake
    ? `Stake 花 flower ${stake.flower} · 杠 kong ${stake.kong} · 鸡胡 chicken ${stake.chicken}` : "";
  const parts = Object.entries(result.per_payer_parts).filter(([, amount]) => amount);
  const each = parts.length
    ? `Per payer ${result.per_payer} = ${parts.map(([name, amount]) => `${PART_NAMES[name]} ${amount}`).join(" + ")}` : "";
  return [stakes, each].filter(Boolean);
}

export function renderResult(result) {
  const seat = $("seat_wind").value;
  const flags = [result.capped && "capped 爆胡", result.limit && "limit hand"].filter(Boolean).join(", ");
  const fans = result.fans.map((fan) => `<tr class="fan"><td lang="zh">${escapeHtml(fan.zh)}</td><td>${escapeHtml(fan.en)}</td><td>${fan.fan}</td></tr>`).join("");
  const payments = Object.entries(result.payments).map(([s, amount]) =>
    `<li class="${s === seat ? "winner" : ""}"><span>${seatName(s)}</span><b>${amount > 0 ? "+" : ""}${amount}</b></li>`).join("");
  const groups = escapeHtml(result.decomposition?.groups?.map((group) => group.tiles).join(" ") ?? "");
  const money = moneyLines(result).map((line) => `<li>${escapeHtml(line)}</li>`).join("");
  const warnings = (result.warnings || []).map((warning) => `<li>${escapeHtml(typeof warning === "string" ? warning : JSON.stringify(warning))}</li>`).join("");
  $("result").innerHTML = `
    <p class="headline"><b id="fan-total">${result.fan_total}</b> fan · <b id="points">${result.points}</b> points
      ${flags ? `<span class="badge">${flags}</span>` : ""}</p>
    <table class="fans"><thead><tr><th>番种</th><th>Fan</th><th>番</th></tr></thead><tbody>${fans}</tbody></table>
    <h3>Payments</h3>${money ? `<ul class="money" id="money">${money}</ul>` : ""}<ul class="payments">${payments}</ul>
    ${groups ? `<p class="notation">${groups}</p>` : ""}
    ${warnings ? `<ul class="warnings">${warnings}</ul>` : ""}`;
}

export function renderResultError(message) {
  $("result").replaceChildren(Object.assign(document.createElement("p"), { className: "status error", textContent: message }));
}
