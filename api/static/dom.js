// Small DOM helpers shared by the page's modules.

export const $ = (id) => document.getElementById(id);

export function setStatus(element, text, isError = false) {
  element.textContent = text;
  element.classList.toggle("error", isError);
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

export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
