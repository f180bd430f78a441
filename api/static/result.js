// The score result: headline, fans, payments.
import { $, escapeHtml } from "./dom.js";
import { seatName } from "./tiles.js";

export function renderResult(result) {
  const seat = $("seat_wind").value;
  const flags = [result.capped && "capped 爆胡", result.limit && "limit hand"].filter(Boolean).join(", ");
  const fans = result.fans.map((fan) => `<tr class="fan"><td lang="zh">${escapeHtml(fan.zh)}</td><td>${escapeHtml(fan.en)}</td><td>${fan.fan}</td></tr>`).join("");
  const payments = Object.entries(result.payments).map(([s, amount]) =>
    `<li class="${s === seat ? "winner" : ""}"><span>${seatName(s)}</span><b>${amount > 0 ? "+" : ""}${amount}</b></li>`).join("");
  const groups = escapeHtml(result.decomposition?.groups?.map((group) => group.tiles).join(" ") ?? "");
  const warnings = (result.warnings || []).map((warning) => `<li>${escapeHtml(typeof warning === "string" ? warning : JSON.stringify(warning))}</li>`).join("");
  $("result").innerHTML = `
    <p class="headline"><b id="fan-total">${result.fan_total}</b> fan · <b id="points">${result.points}</b> points
      ${flags ? `<span class="badge">${flags}</span>` : ""}</p>
    <table class="fans"><thead><tr><th>番种</th><th>Fan</th><th>番</th></tr></thead><tbody>${fans}</tbody></table>
    <h3>Payments</h3><ul class="payments">${payments}</ul>
    ${groups ? `<p class="notation">${groups}</p>` : ""}
    ${warnings ? `<ul class="warnings">${warnings}</ul>` : ""}`;
}

export function renderResultError(message) {
  $("result").replaceChildren(Object.assign(document.createElement("p"), { className: "status error", textContent: message }));
}
