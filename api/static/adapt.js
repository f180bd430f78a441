// "Adapt to my tiles": adapt the recogniser to the saved (confirmed) photos as a background job, follow its
// progress, list the model versions with their held-out figures and switch between them (or back).
import { call } from "./api.js";
import { $, button, setStatus } from "./dom.js";
import { errorText, t } from "./i18n.js";

const POLL_MS = 1000;

function versionItem(version) {
  const item = document.createElement("li");
  const figures = version.held_out;
  item.textContent = `${version.id === "base" ? t("model_base") : version.id}${figures
    ? ` — ${t(figures.kind === "deep" ? "adapted_deep" : "adapted_head")}, ${t("model_figures", { photos: figures.photos, f1: figures.f1.toFixed(3), base_f1: figures.base_f1.toFixed(3) })}`
    : ""} `;
  const link = document.createElement("a");
  link.href = version.figures; // its per-class figures, as JSON
  link.textContent = t("class_figures");
  item.append(link, " ");
  if (version.active) item.append(t("active_model"));
  else item.append(button("quiet", t("use_model"), () => switchTo(version.id)));
  return item;
}

let shown = []; // the versions listed, worded again after a language switch

async function showVersions() {
  shown = (await call("GET", "/v1/models")).versions;
  renderVersions();
}

/** List the model versions in the page's language (issue 35: the list kept the language it was drawn in). */
export function renderVersions() {
  $("model-versions").replaceChildren(...shown.map(versionItem));
}

async function switchTo(id) {
  try {
    await call("PUT", "/v1/models/active", { version: id });
    await showVersions();
  } catch (error) {
    setStatus($("adapt-status"), errorText(error), true);
  }
}

async function follow(job) {
  const progress = $("adapt-progress");
  progress.hidden = false;
  while (job.state === "queued" || job.state === "running") {
    progress.value = job.progress;
    setStatus($("adapt-status"), job.message);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await call("GET", `/v1/models/adapt/${job.id}`);
  }
  progress.hidden = true;
  setStatus($("adapt-status"), job.message, job.state === "failed");
  await showVersions();
}

async function adapt() {
  $("adapt-button").disabled = true;
  try {
    await follow(await call("POST", "/v1/models/adapt"));
  } catch (error) {
    $("adapt-progress").hidden = true;
    setStatus($("adapt-status"), errorText(error), true);
  } finally {
    $("adapt-button").disabled = false;
  }
}

export function wireAdapt() {
  $("adapt-button").addEventListener("click", adapt);
  $("models-section").addEventListener("toggle", () => {
    if ($("models-section").open) showVersions().catch((error) => setStatus($("adapt-status"), errorText(error), true));
  });
}
