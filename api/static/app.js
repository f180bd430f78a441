// The Fanshot page: photo → recognised tiles → corrections → score → labelled example. No framework: the
// state (state.js) is the single source of truth and render() redraws everything from it.
import { call } from "./api.js";
import { renderBoxes, wireBoxes } from "./boxes.js";
import { $, setStatus } from "./dom.js";
import { contextRequest, renderRulesetFields, scoreRequest, wireForm } from "./form.js";
import { scoredHand, wireGame } from "./game.js";
import { renderHand } from "./hand.js";
import { openPalette, openPicker } from "./picker.js";
import { confirmationRequest, handRequest } from "./requests.js";
import { renderResult, renderResultError } from "./result.js";
import { LOW_CONFIDENCE, clearHand, loadRecognition, newMeld, placedIds, state } from "./state.js";
import { updateWaits, wireWaits } from "./waits.js";

const handActions = {
  onTile: (id) => openPicker(id, render),
  onAdd: (group) => openPalette(group, render),
  onChange: render,
};

function render() {
  renderHand(handActions);
  renderBoxes();
  updateWaits();
}

function showRecognition(recognition) {
  loadRecognition(state, recognition);
  $("photo-image").src = `/v1/recognitions/${recognition.id}/image`;
  $("photo").hidden = false;
  $("save-button").disabled = false;
  history.replaceState(null, "", `#${recognition.id}`);
}

async function upload(file) {
  const status = $("photo-status");
  setStatus(status, "Reading the tiles…");
  document.body.classList.add("busy");
  $("photo-image").src = URL.createObjectURL(file);
  $("photo").hidden = false;
  $("boxes").replaceChildren();
  const form = new FormData();
  form.append("photo", file);
  try {
    const recognition = await call("POST", "/v1/recognitions", form);
    showRecognition(recognition);
    const low = recognition.tiles.filter((tile) => tile.confidence < LOW_CONFIDENCE).length;
    setStatus(status, `Read ${recognition.tiles.length} tiles${low ? `, ${low} uncertain` : ""}.`);
    setStatus($("save-status"), "");
    render();
  } catch (error) {
    setStatus(status, `Could not read the photo: ${error.message}`, true);
  } finally {
    document.body.classList.remove("busy");
    $("photo-input").value = ""; // the same photo may be chosen again
  }
}

async function score() {
  const request = scoreRequest(handRequest(state));
  try {
    renderResult(await call("POST", "/v1/score", request));
    scoredHand(request, state.recognition?.id);
  } catch (error) {
    renderResultError(error.message);
    scoredHand(null);
  }
}

async function save() {
  const status = $("save-status");
  try {
    const saved = await call("PUT", `/v1/recognitions/${state.recognition.id}/confirmation`, confirmationRequest(state));
    const unboxed = placedIds(state).size - saved.tiles.length;
    setStatus(status, `Saved ✓ ${saved.tiles.length} labelled tiles (${new Date(saved.confirmed_at).toLocaleTimeString()})` +
      (unboxed ? `; ${unboxed} without a box on the photo — mark them so the example teaches the model every tile.` : "."));
  } catch (error) {
    setStatus(status, `Not saved: ${error.message}`, true);
  }
}

async function start() {
  wireForm();
  $("photo-input").addEventListener("change", (event) => event.target.files[0] && upload(event.target.files[0]));
  $("score-button").addEventListener("click", score);
  $("save-button").addEventListener("click", save);
  $("new-meld").addEventListener("click", () => { newMeld(state); render(); });
  $("clear-hand").addEventListener("click", () => { clearHand(state); render(); });
  $("ruleset").addEventListener("change", () => renderRulesetFields(state.rulesets));
  wireBoxes({ onClick: handActions.onTile, onDrawn: render });
  render();
  try {
    state.rulesets = await call("GET", "/v1/rulesets");
    $("ruleset").replaceChildren(...state.rulesets.map((ruleset) => new Option(`${ruleset.zh ?? ""} ${ruleset.name}`, ruleset.name)));
    renderRulesetFields(state.rulesets);
  } catch (error) {
    setStatus($("photo-status"), `Could not load the rule sets: ${error.message}`, true);
  }
  wireGame({ stake: () => contextRequest().stake });
  wireWaits(() => scoreRequest(handRequest(state)));
  const id = location.hash.slice(1);
  if (/^[0-9a-f]{32}$/.test(id)) {
    try {
      showRecognition(await call("GET", `/v1/recognitions/${id}`));
      if (state.recognition.confirmation) setStatus($("save-status"), "This photo was saved before; saving again replaces it.");
      render();
    } catch (error) {
      setStatus($("photo-status"), error.message, true);
    }
  }
}

start();
