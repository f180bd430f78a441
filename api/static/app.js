// The Fanshot page: photo → recognised tiles → corrections → score → labelled example. No framework: the
// state (state.js) is the single source of truth and render() redraws everything from it.
import { refreshAdapt, renderAdapt, wireAdapt } from "./adapt.js";
import { call, callTagged, qrOf, upload, worthRetrying } from "./api.js";
import { cancelMarking, renderBoxes, wireBoxes } from "./boxes.js";
import { closeCamera, wireCamera } from "./camera.js";
import { $, button, rewordStatuses, setStatus } from "./dom.js";
import { applyDraft, draftOf, dropDraft, keepDraft, readDraft } from "./drafts.js";
import {
  contextRequest, renderRulesetFields, renderSeats, restoreChoices, rulesetSummary, scoringChoices, startingRuleset,
  wireForm,
} from "./form.js";
import { renderGame, scoredHand, wireGame } from "./game.js";
import { renderHand } from "./hand.js";
import { LANGUAGES, currentLanguage, errorText, languageFor, languageName, localName, setLanguage, t, translatePage } from "./i18n.js";
import { keepForLater, pending, sendPending, unreachable } from "./outbox.js";
import { preparePhoto } from "./photo.js";
import { openPalette, openPicker } from "./picker.js";
import { confirmationRequest, handRequest } from "./requests.js";
import { clearResult, renderFlowerChoice, renderResult, renderResultError } from "./result.js";
import {
  LOW_CONFIDENCE, clearHand, deleteTile, loadRecognition, newMeld, page, pickWinning, resetPhoto, saveWarning, state,
  typeHand, undoClear,
} from "./state.js";
import { setVocabulary, tileName } from "./tiles.js";
import { updateWaits, wireWaits } from "./waits.js";

const PHOTO_ID = /^[0-9a-f]{32}$/;

const handActions = {
  onTile: (id) => openPicker(id, changed),
  onAdd: (group) => openPalette(group, changed),
  onChange: changed,
};

function render() {
  renderBoxes();
  renderHand(handActions, rulesetSummary(page.rulesets)?.options);
  const ready = state.recognition !== null && !document.body.classList.contains("busy");
  $("save-button").disabled = !ready || page.saving;
  updateWaits();
}

function forgetResult() {
  page.redrawResult = null;
  clearResult();
  scoredHand(null);
}

/** The hand, the context or the rule set changed: the result on screen no longer answers it, and a photo's fix
 *  is unsaved until Save. */
function changed() {
  forgetResult();
  if (state.recognition) noteFix();
  render();
}

/** Say the photo has unsaved changes and keep them on this device, so leaving the photo never loses them. */
function noteFix() {
  page.edits += 1;
  page.unsaved = true;
  const kept = keepDraft(localStorage, state.recognition.id, draftOf(state, scoringChoices()));
  setStatus($("save-status"), () => t(kept ? "unsaved" : "unsaved_not_kept"));
}

/** The address of photo `id`: the page's own, with its query (`?game=`) kept. */
const photoAddress = (id) => `${location.pathname}${location.search}${id ? `#${id}` : ""}`;

function setBusy(busy) {
  document.body.classList.toggle("busy", busy);
  // Another photo may be chosen meanwhile (page.photoToken drops the older answer); nothing else acts on a hand.
  for (const id of ["score-button", "save-button", "new-meld", "clear-hand"]) $(id).disabled = busy;
  $("hand-section").inert = busy;
  $("photo-progress").hidden = !busy;
  if (busy) $("photo-progress").removeAttribute("value");
}

function showPhoto(src) {
  $("photo-image").src = src;
  $("photo").hidden = false;
}


/** The upload of a photo: the one path a chosen photo, a camera shot and a kept shot take. */
function sendPhoto(photo, onProgress = () => {}) {
  const form = new FormData();
  form.append("photo", photo);
  return upload("/v1/recognitions", form, onProgress);
}

/** Show the server's reading of the photo on the page, with its address and what was read. */
function showReading(recognition) {
  loadRecognition(state, recognition);
  page.shownPhoto = recognition.id;
  history.replaceState(null, "", photoAddress(recognition.id));
  const n = recognition.tiles.length;
  const low = recognition.tiles.filter((tile) => tile.confidence < LOW_CONFIDENCE).length;
  // no tile read: say how to get a reading, not just the count (issue 35)
  setStatus($("photo-status"), () => (!n ? t("read_none") : low ? t("read_uncertain", { n, low }) : t("read", { n })));
}

/** Keep `photo` on this device to send when the server is back; false where the device cannot keep it. */
const keptForLater = (photo) => keepForLater(photo, { name: photo.name, kept_at: Date.now() }).then(() => true, () => false);

async function readPhoto(file) {
  const token = ++page.photoToken;
  page.retryFile = null;
  page.waitingShot = false;
  $("retry-photo").hidden = true;
  resetPhoto(state); // one state per photo: nothing of the previous one can be scored or saved
  // a history entry per photo: Back returns to the previous one (its fixes kept as a draft)
  if (page.shownPhoto) history.pushState(null, "", photoAddress(null));
  page.shownPhoto = null;
  page.unsaved = false;
  setStatus($("save-status"), "");
  setStatus($("hand-status"), "");
  changed();
  setBusy(true);
  const status = $("photo-status");
  let photo = file;
  try {
    setStatus(status, () => t("preparing"));
    photo = await preparePhoto(file);
    if (page.photoUrl) URL.revokeObjectURL(page.photoUrl);
    page.photoUrl = URL.createObjectURL(photo);
    showPhoto(page.photoUrl); // the local copy at once; the boxes come with the answer
    const recognition = await sendPhoto(photo, (fraction) => {
      if (token !== page.photoToken) return;
      $("photo-progress").value = fraction;
      setStatus(status, () => fraction < 1 ? t("uploading", { p: Math.round(100 * fraction) }) : t("reading"));
    });
    if (token !== page.photoToken) return;
    showReading(recognition);
  } catch (error) {
    if (token !== page.photoToken) return;
    if (unreachable(error) && await keptForLater(photo)) {
      if (token !== page.photoToken) return; // kept all the same: sent with the others when the server is back
      showWaiting(); // the preview stays
      return;
    }
    // The preview stays (it is the photo chosen); where trying again can help (no connection, a busy or failing
    // server), Retry sends the same file again instead of making the player choose it again (issue 35).
    // a file that is no image leaves no broken-image icon behind (issue 50)
    const shown = page.photoUrl && $("photo-image").src === page.photoUrl
      && await $("photo-image").decode().then(() => true, () => false);
    if (token !== page.photoToken) return;
    if (!shown) $("photo").hidden = true;
    page.retryFile = worthRetrying(error) ? file : null;
    $("retry-photo").hidden = page.retryFile === null;
    setStatus(status, () => t("read_failed", { error: errorText(error) }), true);
  } finally {
    if (token === page.photoToken) {
      setBusy(false);
      $("photo-input").value = ""; // the same photo may be chosen again
      render();
    }
  }
}

/** The shot on screen waits on this device for the server: read once it is back (online, the next load, or Try
 *  again). */
function showWaiting() {
  page.waitingShot = true;
  $("retry-photo").hidden = false;
  setStatus($("photo-status"), () => t("kept_offline"), true);
  retryKeptLater();
}

// While shots wait on this device, the page tries the server again this often: a server that was down (the
// network never went, so no `online` comes) gets them as soon as it answers, without a reload (issue 50).
const KEPT_RETRY_MS = 5000;
const retryKeptLater = () => {
  clearTimeout(page.keptTimer);
  page.keptTimer = setTimeout(sendKept, KEPT_RETRY_MS);
};

/** Wherever the page goes (Back, Forward, another photo), shots still kept stay in sight with Try again: on
 *  screen where no photo is shown, else counted under the photo's status. */
async function keepKeptInSight() {
  await showKeptShot();
  const kept = await pending().catch(() => []);
  page.keptNotes = page.keptNotes.filter(([key]) => key !== "kept_waiting");
  if (kept.length && !page.waitingShot) page.keptNotes.push(["kept_waiting", kept.length]);
  showKeptNotes();
  if (kept.length) retryKeptLater();
}

/** The newest shot an earlier visit kept, on screen as waiting, where the address names no photo to show. */
async function showKeptShot() {
  const kept = await pending().catch(() => []); // this device keeps nothing (IndexedDB off)
  if (!kept.length || page.shownPhoto) return;
  page.photoUrl = URL.createObjectURL(kept.at(-1).blob);
  showPhoto(page.photoUrl);
  showWaiting();
}

/** Send the shots kept on this device while the server was unreachable. The page shows the reading of the last
 *  one sent where it was waiting on a kept shot or shows no photo; otherwise the readings are linked below. */
async function sendKept() {
  clearTimeout(page.keptTimer);
  if (page.waitingShot) setStatus($("photo-status"), () => t("kept_sending"));
  const report = await sendPending((blob, meta) => sendPhoto(new File([blob], meta.name, { type: blob.type })))
    .catch(() => null); // this device keeps nothing (IndexedDB off): there is nothing to send
  if (!report) return;
  const free = page.waitingShot || (!page.shownPhoto && !document.body.classList.contains("busy"));
  const sent = report.sent.map(({ answer }) => answer);
  const shown = free ? sent.pop() : undefined;
  if (shown) {
    ++page.photoToken;
    page.waitingShot = false;
    page.retryFile = null;
    $("retry-photo").hidden = true;
    if (page.shownPhoto) history.pushState(null, "", photoAddress(null));
    showPhoto(`/v1/recognitions/${shown.id}/image`);
    showReading(shown);
    render();
  } else if (page.waitingShot) { // still waiting, or refused for good (said below)
    page.waitingShot = report.left > 0;
    $("retry-photo").hidden = !page.waitingShot;
    setStatus($("photo-status"), page.waitingShot ? () => t("kept_offline") : "", page.waitingShot);
  }
  page.keptNotes = [
    ...sent.map((recognition) => ["kept_sent", recognition.id]),
    ...report.refused.map(({ error }) => ["kept_refused", error]),
    ...(report.left && !page.waitingShot ? [["kept_waiting", report.left]] : []),
  ];
  showKeptNotes();
  if (report.left) retryKeptLater();
}


/** The line under the photo's status about kept shots: read ones (linked), refused ones (why), ones waiting. */
function showKeptNotes() {
  let line = $("kept-status");
  if (!line) {
    line = Object.assign(document.createElement("p"), { id: "kept-status", className: "status" });
    line.setAttribute("role", "status");
    $("photo-status").after(line);
  }
  const words = {
    kept_sent: (id) => [t("kept_sent"), " ", Object.assign(document.createElement("a"), { href: photoAddress(id), textContent: t("kept_open") })],
    kept_refused: (error) => [t("kept_refused", { error: errorText(error) })],
    kept_waiting: (n) => [t("kept_waiting", { n }), " ", button("", t("retry_photo"), sendKept)],
  };
  line.replaceChildren(...page.keptNotes.flatMap(([key, value], index) => [...(index ? [" "] : []), ...words[key](value)]));
  line.hidden = page.keptNotes.length === 0;
}

function showResult(draw) {
  page.redrawResult = draw;
  draw();
}

async function score(options = {}) {
  const hand = handRequest(state, options);
  if (!hand.winning_tile) { // the scorer would name the empty field; the player needs to know what to do
    showResult(() => renderResultError(errorText({ errors: [{ code: "winning_tile_missing" }] })));
    return;
  }
  const ruleset = rulesetSummary(page.rulesets);
  if (hand.flowers && ruleset && !ruleset.options.flowers) {
    const withFlowers = page.rulesets.find((summary) => summary.options.flowers);
    showResult(() => renderFlowerChoice(ruleset, withFlowers, {
      leaveOut: () => score({ withFlowers: false }),
      switchTo: (name) => { $("ruleset").value = name; renderRulesetFields(page.rulesets); changed(); score(); },
    }));
    return;
  }
  const request = { ...scoringChoices(), hand };
  try {
    const result = await call("POST", "/v1/score", request);
    const seat = $("seat_wind").value;
    showResult(() => renderResult(result, seat));
    scoredHand(request, state.recognition?.id);
  } catch (error) {
    showResult(() => renderResultError(errorText(error)));
    scoredHand(null);
    pointAtFedBy(error);
  }
}

/** A refusal about who fed a kong points at the meld's own fed-by choice, the one place to say it. */
function pointAtFedBy(error) {
  const meld = /^hand\.melds\[(\d+)\]\.fed_by$/.exec(error.errors?.[0]?.detail?.field ?? "");
  const control = meld && document.querySelectorAll("#melds .meld")[Number(meld[1])]?.querySelector(".fed-by");
  control?.setAttribute("aria-invalid", "true");
  control?.focus();
}

// A save in flight: Save stays disabled until it answers, so a double tap neither writes twice nor takes the
// second request's 412 (its own first write) for someone else's save (issue 35).

async function save() {
  if (page.saving) return;
  const status = $("save-status");
  const warning = saveWarning(state);
  if (warning && !window.confirm(t(warning.key, warning))) {
    setStatus(status, () => t("save_cancelled"));
    return;
  }
  page.saving = true;
  $("save-button").disabled = true;
  const { id } = state.recognition;
  const sent = page.edits;
  try {
    const body = confirmationRequest(state, scoringChoices());
    const { data: saved, etag } = await callTagged("PUT", `/v1/recognitions/${id}/confirmation`, body,
      state.etag ? { "if-match": state.etag } : {});
    refreshAdapt(); // one more saved photo: teaching Fanshot the table's tiles may be offered now
    if (state.recognition?.id !== id) { // another photo meanwhile: this one is saved, its draft done with
      dropDraft(localStorage, id);
      return;
    }
    state.recognition.confirmation = saved;
    state.etag = etag;
    if (page.edits !== sent) { // fixed again while saving: that fix is still unsaved, its draft now over this save
      keepDraft(localStorage, id, draftOf(state, scoringChoices()));
      return;
    }
    page.unsaved = false;
    dropDraft(localStorage, id);
    const unboxed = [...state.tiles.values()].filter((tile) => !tile.box).length;
    setStatus(status, () => [t("saved", { n: saved.tiles.filter((tile) => tile.box).length, time: new Date(saved.confirmed_at).toLocaleTimeString() }),
      unboxed ? t("unboxed", { n: unboxed }) : ""].filter(Boolean).join(" "));
  } catch (error) {
    setStatus(status, () => t("not_saved", { error: errorText(error) }), true);
  } finally {
    page.saving = false;
    render();
  }
}

/** A box was drawn for tile `id`: the server names what is in it. A tile drawn to be added takes that name;
 *  one whose code the player chose keeps it, with the server's reading offered in the picker. */
async function nameDrawnTile(id) {
  const tile = state.tiles.get(id);
  render();
  if (!tile?.box) {
    if (tile?.pending) deleteTile(state, id);
    setStatus($("photo-status"), () => t("no_box"));
    render();
    return;
  }
  try {
    const named = await call("POST", `/v1/recognitions/${state.recognition.id}/classify`, { box: tile.box.map((v) => Math.round(v * 10) / 10) });
    if (tile.pending) Object.assign(tile, { code: named.code, confidence: named.confidence, alternatives: named.alternatives, edited: false });
    else tile.alternatives = [{ code: named.code, p: named.confidence }, ...named.alternatives].filter((choice) => choice.code !== tile.code);
    delete tile.pending;
    pickWinning(state);
    setStatus($("photo-status"), () => t("looks_like", { tile: tileName(named.code), p: Math.round(100 * named.confidence) }));
  } catch (error) {
    if (tile.pending) deleteTile(state, id); // unnamed, it would stand in the hand as a face-down tile (issue 50)
    setStatus($("photo-status"), () => t("naming_failed", { error: errorText(error) }), true);
  }
  changed();
}

/** A hand typed in notation, read by the server's parser (POST /v1/notation); a bad tile is selected in the field. */
async function typeHandIn(event) {
  event.preventDefault();
  const input = $("hand-text");
  try {
    typeHand(state, await call("POST", "/v1/notation", { text: input.value }));
    input.removeAttribute("aria-invalid");
    setStatus($("type-status"), "");
    changed();
  } catch (error) {
    const bad = error.errors?.[0]?.detail;
    input.setAttribute("aria-invalid", "true");
    input.focus();
    if (typeof bad?.position === "number") input.setSelectionRange(bad.position, bad.position + (bad.token?.length || 1));
    setStatus($("type-status"), () => errorText(error), true);
  }
}

function renderLanguage() {
  translatePage(document);
  $("language").value = currentLanguage();
  $("manifest").href = `/static/manifest.${currentLanguage()}.json`; // the home-screen app's name in this language
  const ruleset = $("ruleset").value; // kept through the new option names, before the fields fit the rule set
  $("ruleset").replaceChildren(...page.rulesets.map(rulesetOption));
  if (ruleset) $("ruleset").value = ruleset;
  renderSeats();
  renderGame(); // after the seats: it names each seat's player
  renderAdapt();
  renderRulesetFields(page.rulesets);
  render();
  page.redrawResult?.();
  rewordStatuses();
  showKeptNotes();
}

/** A rule set's choice: its name without the note in brackets, which cut the name off on a phone (issue 35); the
 *  whole name as its tooltip. */
function rulesetOption(summary) {
  const whole = localName(summary);
  const option = new Option(whole.replace(/\s*[(（][^()（）]*[)）]$/, ""), summary.name);
  option.title = whole;
  return option;
}

function switchLanguage() {
  setLanguage($("language").value);
  localStorage.setItem("fanshot-language", currentLanguage());
  renderLanguage();
}

/** Show photo `id` as it was left: its saved work, then the unsaved fixes kept on this device, if any. */
async function restore(id) {
  const token = ++page.photoToken; // an upload or another photo still loading answers too late
  page.shownPhoto = id;
  leavePhoto();
  try {
    const { data: recognition, etag } = await callTagged("GET", `/v1/recognitions/${id}`);
    if (token !== page.photoToken) return;
    loadRecognition(state, recognition);
    state.etag = etag;
    showPhoto(`/v1/recognitions/${id}/image`);
    const saved = recognition.confirmation;
    if (saved) {
      restoreChoices(saved, page.rulesets);
      // said once, by Save, where "saving again replaces it" is about (issue 50: it was said twice)
      setStatus($("save-status"), () => t("restored", { time: new Date(saved.confirmed_at).toLocaleString() }));
    }
    const draft = readDraft(localStorage, id);
    if (draft) {
      restoreChoices(applyDraft(state, draft), page.rulesets);
      page.unsaved = true;
      setStatus($("photo-status"), () => t("draft_restored"));
      setStatus($("save-status"), () => t("unsaved"));
    }
  } catch (error) {
    if (token !== page.photoToken) return;
    setStatus($("photo-status"), () => errorText(error), true);
  }
  render();
}

/** Leave the photo shown (its fixes are in its draft): an empty page until the next one is shown. */
function leavePhoto() {
  resetPhoto(state);
  page.unsaved = false;
  page.retryFile = null;
  page.waitingShot = false; // a kept shot is shown again where no other photo is (keepKeptInSight)
  $("retry-photo").hidden = true;
  $("photo").hidden = true;
  setBusy(false);
  for (const id of ["photo-status", "save-status", "hand-status"]) setStatus($(id), "");
  forgetResult();
}

/** Show the photo the address names (Back, Forward, a pasted link or a changed #id), or none. */
async function followAddress() {
  const id = PHOTO_ID.test(location.hash.slice(1)) ? location.hash.slice(1) : null;
  if (id === page.shownPhoto) return; // popstate and hashchange both come for one step back
  if (id) {
    await restore(id);
  } else {
    ++page.photoToken;
    page.shownPhoto = null;
    leavePhoto();
    render();
  }
  await keepKeptInSight();
}

/** "Add a hand" on the game's sheet: the phone's camera or its photos at once, the photo's section in view
 *  with the framing-guide camera and the tile picker as the other ways in. */
function addPhoto() {
  $("photo-input").click();
  $("capture").scrollIntoView({ block: "start" });
}

async function start() {
  setLanguage(localStorage.getItem("fanshot-language") ?? languageFor(navigator.language));
  // each language named in its own words, so a reader finds theirs whatever the page speaks now
  $("language").replaceChildren(...LANGUAGES.map((lang) => Object.assign(new Option(languageName(lang), lang), { lang })));
  try {
    [page.rulesets] = await Promise.all([call("GET", "/v1/rulesets"), call("GET", "/v1/tiles").then(setVocabulary)]);
  } catch (error) {
    setStatus($("photo-status"), () => t("rulesets_failed", { error: errorText(error) }), true);
  }
  wireForm(changed);
  renderLanguage();
  if (page.rulesets.length) $("ruleset").value = startingRuleset(page.rulesets, navigator.language);
  renderRulesetFields(page.rulesets);
  $("language").addEventListener("change", switchLanguage);
  // the page's own address, for the next phone at the table: drawn when the menu opens, for the address then
  $("page-menu").addEventListener("toggle", () => { $("page-qr").src = qrOf(`${location.origin}/`); });
  $("photo-button").addEventListener("click", () => $("photo-input").click());
  $("retry-photo").addEventListener("click",
    () => (page.waitingShot ? sendKept() : page.retryFile && readPhoto(page.retryFile)));
  $("photo-input").addEventListener("change", (event) => {
    if (!event.target.files[0]) return;
    closeCamera(); // a photo chosen instead of the camera's
    readPhoto(event.target.files[0]);
  });
  wireCamera(readPhoto); // a camera shot goes through the same upload as a chosen photo
  $("score-button").addEventListener("click", () => score());
  $("save-button").addEventListener("click", save);
  $("new-meld").addEventListener("click", () => { newMeld(state); changed(); });
  $("clear-hand").addEventListener("click", () => {
    cancelMarking(); // a tile still being drawn is not part of the hand to clear (nor to bring back with Undo)
    clearHand(state);
    setStatus($("hand-status"), () => t("cleared"));
    changed();
  });
  $("undo-clear").addEventListener("click", () => { undoClear(state); setStatus($("hand-status"), ""); changed(); });
  $("ruleset").addEventListener("change", () => { renderRulesetFields(page.rulesets); changed(); });
  $("type-hand").addEventListener("submit", typeHandIn);
  wireBoxes({ onClick: handActions.onTile, onDrawn: nameDrawnTile, onCancelled: changed });
  wireGame({ stake: () => contextRequest().stake, addHand: addPhoto });
  wireAdapt();
  wireWaits(() => ({ ...scoringChoices(), hand: handRequest(state) }),
    () => rulesetSummary(page.rulesets)?.options?.flowers !== false);
  window.addEventListener("popstate", followAddress);
  window.addEventListener("hashchange", followAddress);
  window.addEventListener("beforeunload", (event) => {
    if (page.unsaved) event.preventDefault(); // the browser asks before leaving; the draft is kept either way
  });
  window.addEventListener("online", sendKept);
  await followAddress();
  if (!page.shownPhoto) await keepKeptInSight(); // the shots an earlier visit kept, in sight
  render();
  sendKept(); // shots kept by an earlier visit
  document.body.dataset.ready = "true"; // for tests: the page is wired
  keepForOffline();
}

/** The service worker (/sw.js) keeps the page, the model and the runtime on this device, so the page and its
 *  camera mode open with no network. Browsers run workers on https and localhost only. */
function keepForOffline() {
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { type: "module" })
    .catch((error) => console.warn("Fanshot works online only here: its service worker did not start.", error));
}

start();
