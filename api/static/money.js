// The money behind the payments: qianggang's three stake numbers, and what each payer owes by part.
import { escapeHtml } from "./dom.js";
import { t } from "./i18n.js";

const STAKE_KEYS = { flower: "stake_flower", kong: "stake_kong", chicken: "stake_chicken" };
const PART_KEYS = { hand: "part_hand", horses: "part_horses", flowers: "part_flowers", kongs: "part_kongs" };

/** The money lines of a score response: the stake numbers (qianggang) and each payer's parts (hand, horses, ...). */
export function moneyLines(result) {
  const { stake } = result;
  const stakes = "chicken" in stake
    ? Object.entries(STAKE_KEYS).map(([name, key]) => `${t(key)} ${stake[name]}`).join(" · ") : "";
  const parts = Object.entries(result.per_payer_parts).filter(([, amount]) => amount);
  const each = parts.length ? t("money_per_payer", { total: result.per_payer,
    parts: parts.map(([name, amount]) => `${t(PART_KEYS[name])} ${amount}`).join(" + ") }) : "";
  return [stakes, each].filter(Boolean);
}

export function moneyHtml(result) {
  const lines = moneyLines(result).map((line) => `<li>${escapeHtml(line)}</li>`).join("");
  return lines ? `<ul class="money" id="money">${lines}</ul>` : "";
}
