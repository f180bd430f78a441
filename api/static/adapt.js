// "Teach Fanshot your tiles" (issue 34): once the table has saved enough photos, offer to adapt the recogniser to
// them (a background job), follow its progress and time left, then show how the new version and the one it started
// from read the user's own held-out photos, with one tap to keep it or roll back. Learning as you play (issue 52):
// teaching is offered again from 10 photos new to the version in use, and builds on that version; a job the server
// started by itself (--adapt auto) is followed the same way. The models section lists the versions
// with their held-out figures, switches between them, and starts teaching before the offer, saying what is missing.
import { call } from "./api.js";
import { $, button, cell, setStatus } from "./dom.js";
import { errorText, t } from "./i18n.js";

const POLL_MS = 1000;
const JOB_KEY = "fanshot-adapt-job"; // the job followed, and the version in use before it: a reload resumes it
const MIN_PROGRESS = 0.05; // below this, the time a job took so far says too little about the rest

/** Seconds a job still needs, from the share done in the time it took so far (both stamps are the server's, so the
 *  phone's clock does not matter), less `sinceUpdate` seconds that passed on this phone since that stamp came; null
 *  while too little is done to tell, or when the job is not running. */
export function secondsLeft(job, sinceUpdate = 0) {
  const elapsed = (Date.parse(job.updated_at) - Date.parse(job.created_at)) / 1000;
  if (job.state !== "running" || !(job.progress >= MIN_PROGRESS && job.progress < 1) || !(elapsed > 0)) return null;
  return Math.max(0, elapsed * (1 - job.progress) / job.progress - sinceUpdate);
}

/** The time left in words: seconds (in fives) under a minute, else whole minutes. */
export function timeLeftText(seconds) {
  if (seconds < 10) return t("time_left_few");
  if (seconds < 60) return t("time_left_s", { n: Math.round(seconds / 5) * 5 });
  return t("time_left_min", { n: Math.round(seconds / 60) });
}

/** Whether to offer teaching: once `photos_suggested` saved photos are new to the version in use and to the last
 *  teaching (the server counts them: `new_photos`). */
export const offersTeaching = (listing) => listing.new_photos >= listing.photos_suggested;

/** The offer's words: the first teaching, or teaching again from the version in use (issue 52: learning as you
 *  play), and whether the server would start it by itself. */
export function offerText(listing) {
  const again = listing.active === "base" ? t("teach_offer", { n: listing.confirmed_photos })
    : t("teach_again_offer", { n: listing.new_photos, version: listing.active });
  return listing.adapt_auto ? `${again} ${t("teach_auto")}` : again;
}

/** What the models section says of the saved photos: how many more teaching needs, or would use to learn well. */
export function photosNote(listing) {
  const { confirmed_photos: n, photos_needed: needed, photos_suggested: suggested } = listing;
  if (n < needed) return t("teach_needs", { n, more: needed - n, needed, suggested });
  if (n < suggested) return t("teach_weak", { n, more: suggested - n, suggested });
  return t("teach_enough", { n });
}

/** The taps a finished job offers: each a phrase and the version it switches to (null: leave things as they are). */
export function resultChoices(job, previous) {
  if (!job.version) return [{ words: "close", version: null }];
  if (!job.outcome.activated) return [{ words: "teach_use_anyway", version: job.version }, { words: "teach_keep_current", version: null }];
  const back = previous && previous !== job.version ? [{ words: "teach_roll_back", version: previous }] : [];
  return [{ words: "teach_keep", version: null }, ...back];
}

/** What a finished job did, in a phrase: a version in use, one made but not switched to, or none. */
const outcomeWords = (job) => (!job.version ? "teach_nothing" : job.outcome.activated ? "teach_activated" : "teach_not_activated");

const versionName = (id) => (id === "base" ? t("model_base") : id);

// The page's picture of teaching: the last listing, the job followed, and the version in use before it.
const teaching = { listing: null, job: null, previous: null };

function versionItem(version) {
  const item = document.createElement("li");
  const figures = version.held_out;
  item.textContent = `${versionName(version.id)}${figures
    ? ` — ${t(figures.kind === "deep" ? "adapted_deep" : "adapted_head")}, ${t("model_figures", { photos: figures.photos, f1: figures.f1.toFixed(3), base_f1: figures.base_f1.toFixed(3), from: versionName(version.started_from ?? "base") })}`
    : ""} `;
  const link = document.createElement("a");
  link.href = version.figures; // its per-class figures, as JSON
  link.textContent = t("class_figures");
  item.append(link, " ");
  if (version.active) item.append(t("active_model"));
  else item.append(button("quiet", t("use_model"), () => use(version.id)));
  return item;
}

/** Before (the version teaching started from) and after, on the user's own photos that the adaptation did not
 *  learn from. */
function figuresTable(figures, startedFrom = "base") {
  const row = (...cells) => {
    const tr = document.createElement("tr");
    tr.append(...cells);
    return tr;
  };
  const whole = (n) => t("teach_of", { n, photos: figures.photos });
  $("teach-figures").replaceChildren(
    cell("caption", t("teach_held_out", { photos: figures.photos })),
    row(cell("td", ""), cell("th", t("teach_before", { version: versionName(startedFrom) }), { scope: "col" }),
      cell("th", t("teach_after"), { scope: "col" })),
    row(cell("th", t("teach_f1"), { scope: "row" }), cell("td", figures.base_f1.toFixed(3)),
      cell("td", figures.f1.toFixed(3))),
    row(cell("th", t("teach_whole"), { scope: "row" }), cell("td", whole(figures.base_exact_photos)),
      cell("td", whole(figures.exact_photos))),
  );
}

function renderResult(job) {
  const figures = job.outcome.figures;
  $("teach-outcome").textContent = t(outcomeWords(job));
  figuresTable(figures, job.outcome.started_from);
  $("teach-kind").textContent = t("teach_kind", { kind: t(figures.kind === "deep" ? "adapted_deep" : "adapted_head") });
  $("teach-choices").replaceChildren(...resultChoices(job, teaching.previous).map(({ words, version }, n) =>
    button(n === 0 ? "primary" : "", t(words), () => choose(version))));
}

/** Draw teaching in the page's language: the offer, the running job or its result, and the models section. */
export function renderAdapt() {
  const { listing, job } = teaching;
  const running = job !== null && (job.state === "queued" || job.state === "running");
  const finished = job !== null && job.state === "done";
  const offered = listing !== null && offersTeaching(listing);
  $("teach-offer").hidden = running || finished || !offered;
  $("teach-running").hidden = !running;
  $("teach-result").hidden = !finished;
  $("teach-section").hidden = !running && !finished && !offered && !$("adapt-status").textContent;
  if (offered) $("teach-offer-text").textContent = offerText(listing);
  if (finished) renderResult(job);
  const tooFew = listing !== null && listing.confirmed_photos < listing.photos_needed;
  for (const id of ["teach-button", "adapt-button"]) $(id).disabled = running || tooFew;
  $("teach-count").textContent = listing ? photosNote(listing) : "";
  $("model-versions").replaceChildren(...(listing?.versions ?? []).map(versionItem));
}

/** Ask again how many photos are saved and which versions there are (after a save, a switch or a job). */
export async function refreshAdapt() {
  try {
    teaching.listing = await call("GET", "/v1/models");
  } catch (error) {
    setStatus($("adapt-status"), () => errorText(error), true);
  }
  renderAdapt();
  const running = teaching.listing?.job;
  if (running && !teaching.job) { // one this phone did not start (--adapt auto, another phone): followed here too
    teaching.previous = teaching.listing.active;
    localStorage.setItem(JOB_KEY, JSON.stringify({ id: running.id, previous: teaching.previous }));
    $("teach-section").hidden = false;
    follow(running);
  }
}

async function switchTo(id) {
  try {
    teaching.listing = await call("PUT", "/v1/models/active", { version: id });
    renderAdapt();
    return true;
  } catch (error) {
    setStatus($("adapt-status"), () => errorText(error), true);
    return false;
  }
}

/** Switch to version `id` from the list, and say so. */
async function use(id) {
  if (await switchTo(id)) setStatus($("adapt-status"), () => t("teach_using", { version: versionName(id) }));
  renderAdapt();
}

/** One tap on a finished job: switch to `version` (roll back, or use the new one anyway) or leave things be. */
async function choose(version) {
  const job = teaching.job;
  if (!job) return; // a second tap while the first one's switch was answered
  if (version !== null && !(await switchTo(version))) return;
  localStorage.removeItem(JOB_KEY);
  teaching.job = null;
  const words = version === null ? (job.version && job.outcome.activated ? "teach_kept" : "")
    : version === job.version ? "teach_using" : "teach_rolled_back";
  setStatus($("adapt-status"), () => (words ? t(words, { version: versionName(version) }) : ""));
  await refreshAdapt();
}

function showProgress(job, sinceUpdate) {
  $("adapt-progress").value = job.progress;
  const left = secondsLeft(job, sinceUpdate);
  setStatus($("adapt-status"), () => [t("teach_running", { p: Math.round(100 * job.progress) }),
    left === null ? "" : timeLeftText(left)].filter(Boolean).join(" · "));
  $("adapt-step").textContent = job.message; // the server's own account of the step, in English
}

async function follow(job) {
  teaching.job = job;
  renderAdapt();
  let stamp = null;
  let seenAt = 0;
  while (job.state === "queued" || job.state === "running") {
    if (job.updated_at !== stamp) [stamp, seenAt] = [job.updated_at, Date.now()];
    showProgress(job, (Date.now() - seenAt) / 1000);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await call("GET", `/v1/models/adapt/${job.id}`);
    teaching.job = job;
  }
  if (job.state === "failed") {
    localStorage.removeItem(JOB_KEY);
    teaching.job = null;
    setStatus($("adapt-status"), () => t("teach_failed", { error: job.message }), true);
  } else {
    setStatus($("adapt-status"), "");
  }
  await refreshAdapt();
}

async function teach() {
  try {
    teaching.previous = (await call("GET", "/v1/models")).active; // the version to roll back to
    const job = await call("POST", "/v1/models/adapt");
    localStorage.setItem(JOB_KEY, JSON.stringify({ id: job.id, previous: teaching.previous }));
    $("teach-section").hidden = false;
    $("teach-section").scrollIntoView({ block: "nearest" });
    await follow(job);
  } catch (error) {
    teaching.job = null;
    setStatus($("adapt-status"), () => errorText(error), true);
    renderAdapt();
  }
}

/** A job this phone started before a reload: follow it on, or show its result if it finished meanwhile. */
async function resume() {
  const kept = JSON.parse(localStorage.getItem(JOB_KEY) ?? "null");
  if (!kept || teaching.job) return; // none, or already followed (`refreshAdapt` found it running)
  teaching.previous = kept.previous;
  try {
    await follow(await call("GET", `/v1/models/adapt/${kept.id}`));
  } catch (error) {
    if (error.status === 404) localStorage.removeItem(JOB_KEY); // gone (another database): the offer stands again
    teaching.job = null;
    setStatus($("adapt-status"), () => errorText(error), true);
    renderAdapt();
  }
}

export function wireAdapt() {
  $("teach-button").addEventListener("click", teach);
  $("adapt-button").addEventListener("click", teach);
  $("models-section").addEventListener("toggle", () => {
    if ($("models-section").open && !teaching.job) refreshAdapt(); // another phone may have taught or switched
  });
  refreshAdapt().then(resume);
}
