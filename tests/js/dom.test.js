// Status lines are worded again when the language changes: each remembers how to word itself.
import assert from "node:assert/strict";
import { test } from "node:test";

import { rewordStatuses, setStatus } from "../../api/static/dom.js";
import { setLanguage, t } from "../../api/static/i18n.js";

const line = () => ({ textContent: "", classList: { toggle(name, on) { this[name] = on; } } });

test("a status line given as words of the moment is reworded after a language switch; plain text stays", () => {
  const [status, plain] = [line(), line()];
  setLanguage("en");
  setStatus(status, () => t("read", { n: 14 }), true);
  setStatus(plain, "#3");
  assert.equal(status.textContent, "Read 14 tiles.");
  setLanguage("zh-Hans");
  rewordStatuses();
  assert.deepEqual([status.textContent, status.classList.error, plain.textContent], ["读到 14 张牌。", true, "#3"]);
  setLanguage("en");
});
