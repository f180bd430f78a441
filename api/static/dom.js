// Small DOM helpers shared by the page's modules.

export const $ = (id) => document.getElementById(id);

const statuses = new Map(); // status line → how to word it, again after a language switch

/** Put a status line on `element`: `words` is its text, or a function giving it in the page's language now. */
export function setStatus(element, words, isError = false) {
  const say = typeof words === "function" ? words : () => words;
  statuses.set(element, { say, isError });
  element.textContent = say();
  element.classList.toggle("error", isError);
}

/** Word every status line again (the language changed). */
export function rewordStatuses() {
  for (const [element, { say, isError }] of statuses) setStatus(element, say, isError);
}

/** A <button type=button> with a class, text and click handler. */
export function button(className, text, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  if (className) element.className = className;
  if (text) element.textContent = text;
  if (onClick) element.addEventListener("click", onClick);
  return element;
}

/** An element holding `text`, with `properties` set on it (className, scope, ...): a table cell, a list item. */
export function cell(tag, text, properties = {}) {
  return Object.assign(document.createElement(tag), { textContent: text }, properties);
}

export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
