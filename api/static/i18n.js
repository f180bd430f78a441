// The page's words, one module per language under i18n/ (every heading, button, status line and error, keyed by
// the API's error code, never its field path), and how the page uses them. Static HTML names its text with
// data-i18n attributes.

import * as en from "./i18n/en.js";
import * as zhHans from "./i18n/zh-Hans.js";

/** Each language's tables by its BCP 47 code: WORDS, PLURAL_FORMS and REFUSALS. */
const TABLES = { en, "zh-Hans": zhHans };
const table = (name) => Object.fromEntries(Object.entries(TABLES).map(([lang, tables]) => [lang, tables[name]]));
const WORDS = table("WORDS");

export const LANGUAGES = Object.keys(WORDS);
let language = "en";

export const currentLanguage = () => language;

const RENAMED = { zh: "zh-Hans" }; // a choice kept on the device under the code it once had

export function setLanguage(lang) {
  const code = RENAMED[lang] ?? lang;
  language = WORDS[code] ? code : "en";
}

/** A name the API gives in both scripts ({zh, en}: a tile, a fan, a rule set) as the page's language shows it:
 *  the Chinese alone in Chinese, the Chinese and then the English in English. */
export const localName = (named) => (language === "en" ? `${named.zh} ${named.en}` : named.zh);

const phrase = (key) => WORDS[language][key] ?? WORDS.en[key] ?? key;

/** Where a language words a count otherwise (Intl.PluralRules' categories): phrase key -> category -> words.
 *  Chinese has no plural; English words one thing apart ("Read 1 tile.", not "Read 1 tiles."). */
export const PLURAL_FORMS = table("PLURAL_FORMS");

/** The phrase `key` in the current language, in its plural form for the count `values.n` where it has one,
 *  with {name} placeholders filled from `values`. */
export function t(key, values = {}) {
  const forms = typeof values.n === "number" ? PLURAL_FORMS[language][key] : undefined;
  const words = forms?.[new Intl.PluralRules(language).select(values.n)] ?? phrase(key);
  return words.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** The phrase `key` as pieces to append to an element: its {name} placeholders filled from `values`, where a
 *  value may be a DOM node (a tile picture inside a sentence, wherever each language puts it). */
export function tParts(key, values = {}) {
  const fill = (name) => (typeof values[name] === "object" ? values[name] : String(values[name] ?? ""));
  return phrase(key).split(/\{(\w+)\}/).map((piece, i) => (i % 2 ? fill(piece) : piece)).filter((piece) => piece !== "");
}

// Refusals worded by the API's `detail` (issue 35): each names the field at fault and its fix. A refusal is worded
// by the most specific words whose placeholders its detail fills: code@field#reason, code#reason, code@field,
// then the code's own words. Fields are the request's paths, a meld's index as [].
const REFUSALS = table("REFUSALS");

let nameTile = (code) => code;

/** How refusals name tiles (tiles.js gives the served vocabulary's names; i18n.js cannot import it). */
export function nameTilesWith(namer) {
  nameTile = namer;
}

const holes = (words) => [...words.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
const fill = (words, values) => words.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? phrase(name)));

/** The values a refusal's words may use: its detail, with names in the page's language. */
function refusalValues(item, status) {
  const detail = item.detail ?? {};
  const values = { ...detail, ...(status !== undefined && { status }) };
  if (typeof detail.position === "number") values.at = detail.position + 1;
  if (typeof detail.most === "number") values.most = detail.most.toLocaleString(language);
  const meld = /^hand\.melds\[(\d+)\]/.exec(detail.field ?? "");
  if (meld) values.n = Number(meld[1]) + 1;
  for (const key of ["special", "win", "kind"]) if (detail[key]) values[key] = phrase(detail[key]);
  if (detail.kind === "kong") values.kind = phrase("refusal_kong");
  if (detail.seat) values.seat = nameTile(detail.seat);
  if (Array.isArray(detail.tiles)) values.tiles = detail.tiles.map(nameTile).join(t("game_and"));
  return values;
}

/** One refusal in words: the field it names, then the most specific words its detail fills. */
function wordRefusal(item, status, about) {
  const values = refusalValues(item, status);
  const field = (item.detail?.field ?? "").replace(/\[\d+\]/g, "[]");
  const reason = item.detail?.reason;
  const own = WORDS[language].errors;
  const fits = (words) => Boolean(words) && holes(words).every((hole) => hole in values || hole in WORDS[language]);
  const detailed = [field && reason && `${item.code}@${field}#${reason}`, reason && `${item.code}#${reason}`,
    field && `${item.code}@${field}`, item.code].map((key) => key && REFUSALS[language].errors[key]).find(fits);
  const text = fill((!about || !own[`${about}_${item.code}`]) && detailed
    || (own[`${about}_${item.code}`] ?? own[item.code] ?? own.unknown), { code: item.code, ...values });
  const label = REFUSALS[language].fields[field];
  if (label) return `${fill(label, values)}${phrase("field_separator")}${text}`;
  return language === "en" ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Plain words for an API refusal (an ApiError's `errors`, each with a `code` and maybe a `detail`) or a failed
 *  connection. `about` names what was asked for where a code needs it ("game": `not_found` is then the game). */
export function errorText(error, about = "") {
  const items = error.errors?.length ? error.errors : [{ code: error.code ?? "network" }];
  return [...new Set(items.map((item) => wordRefusal(item, error.status, about)))].join(" ");
}

/** Every element with data-i18n (text), data-i18n-aria (aria-label), data-i18n-alt or data-i18n-title. */
export function translatePage(root) {
  root.documentElement.lang = language;
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-aria]")) element.setAttribute("aria-label", t(element.dataset.i18nAria));
  for (const element of root.querySelectorAll("[data-i18n-alt]")) element.alt = t(element.dataset.i18nAlt);
  root.title = t("title");
}

export const WORD_KEYS = Object.fromEntries(LANGUAGES.map((lang) => [lang, Object.keys(WORDS[lang])]));
/** Every phrase of a language, errors as "errors.code". */
export const phrases = (lang) => Object.fromEntries(Object.entries(WORDS[lang]).flatMap(([key, value]) =>
  (typeof value === "string" ? [[key, value]] : Object.entries(value).map(([code, text]) => [`errors.${code}`, text]))));
export const ERROR_CODES = Object.fromEntries(LANGUAGES.map((lang) =>
  [lang, [...Object.keys(WORDS[lang].errors), ...Object.keys(REFUSALS[lang].errors)]]));
/** The request fields a refusal may name, with their labels. */
export const REFUSAL_FIELDS = Object.fromEntries(LANGUAGES.map((lang) => [lang, Object.keys(REFUSALS[lang].fields)]));
