// The money behind the payments: qianggang's three stake numbers, and what each payer owes by part.
import { escapeHtml } from "./dom.js";

const PART_NAMES = { hand: "hand 番", horses: "horses 马", flowers: "flowers 花", kongs: "kongs 杠" };

/** The money lines of a score response: the stake numbers (qianggang) and each payer's parts (hand, horses, ...). */
export function moneyLines(result) {
  const { stake } = result;
  const stakes = "chicken" in stake
    ? `Stake 花 flower ${stake.flower} · 杠 kong ${stake.kong} · 鸡胡 chicken ${stake.chicken}` : "";
  const parts = Object.entries(result.per_payer_parts).filter(([, amount]) => amount);
  const each = parts.length
    ? `Per payer ${result.per_payer} = ${parts.map(([name, amount]) => `${PART_NAMES[name]} ${amount}`).join(" + ")}` : "";
  return [stakes, each].filter(Boolean);
}

export function moneyHtml(result) {
  const lines = moneyLines(result).map((line) => `<li>${escapeHtml(line)}</li>`).join("");
  return lines ? `<ul class="money" id="money">${lines}</ul>` : "";
}
