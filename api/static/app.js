// The Fanshot page: photo → recognised tiles → corrections → score → labelled example. No framework: the
// state below is the single source of truth and render() redraws everything from it.
import { ALL_CODES, SEATS, notation, parseNotation, seatName, tileFace, tileName } from "./tiles.js";

const LOW_CONFIDENCE = 0.6;
const MELD_KINDS = {
  chow: "Chow 吃", pung: "Pung 碰", kong: "Exposed kong 明杠", kong_added: "Added kong 补杠",
  kong_concealed: "Concealed kong 暗杠",
};

const state = {
  recognition: null,
  tiles: new Map(), // id → {id, code, box, confidence, alternatives, edited}; ids of detections = their index
  concealed: [], // tile ids, in the order shown
  flowers: [],
  melds: [], // {kind, tiles: [id], fed_by}
  winning: null, // tile id
  marking: null, // id of the tile whose box is being drawn on the photo
  rulesets: [],
  nextId: 100000,
};

const $ = (id) => document.getElementById(id);

async function api(method, url, body) {
  const init = { method, headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(url, init);
  const isJson = (response.headers.get("content-type") || "").includes("json");
  const data = isJson ? await response.json() : null;
  if (!response.ok) {
    const message = data?.errors?.map((e) => e.message).join("; ") || `HTTP ${response.status}`;
    throw new Error(message);
  }
  return data;
}

function setStatus(element, text, isError = false) {
  element.textContent = text;
  element.classList.toggle("error", isError);
}

// ---- state changes -------------------------------------------------------------------------------------------

function addTile(code) {
  const id = state.nextId++;
  state.tiles.set(id, { id, code, box: null, confidence: 1, alternatives: [], edited: true });
  return id;
}

function loadRecognition(recognition) {
  state.recognition = recognition;
  state.tiles.clear();
  recognition.tiles.forEach((tile, index) => {
    state.tiles.set(index, {
      id: index, code: tile.code, box: tile.box, confidence: tile.confidence ?? 1,
      alternatives: (tile.alternatives || []).filter((alternative) => ALL_CODES.includes(alternative.code)),
      edited: false,
    });
  });
  placeFromHand(recognition.hand || {}, recognition.groups || []);
  $("photo-image").src = `/v1/recognitions/${recognition.id}/image`;
  $("photo").hidden = false;
  $("save-button").disabled = false;
  history.replaceState(null, "", `#${recognition.id}`);
}

/** Lay the detections out as the proposed hand says: each hand tile takes a detection of the same code, from
 *  the recogniser's group of that kind where it can (a concealed kong may take face-down tiles); detections
 *  the hand leaves out stay visible as standing tiles. */
function placeFromHand(hand, groups) {
  const free = [...state.tiles.keys()];
  const inGroups = (kind) => new Set(groups.filter((group) => group.kind === kind).flatMap((group) => group.tiles));
  const take = (code, preferred, allowBack = false) => {
    const find = (wanted, where) => free.findIndex((id) => state.tiles.get(id).code === wanted && (!where || where.has(id)));
    let index = find(code, preferred);
    if (index < 0) index = find(code);
    if (index < 0 && allowBack) index = find("back", preferred);
    if (index < 0 && allowBack) index = find("back");
    return index >= 0 ? free.splice(index, 1)[0] : addTile(code);
  };
  const melded = inGroups("meld");
  state.melds = (hand.melds || []).map((meld) => ({
    kind: meld.kind === "kong" && meld.concealed ? "kong_concealed" : meld.kind === "kong" && meld.added ? "kong_added" : meld.kind,
    tiles: parseNotation(meld.tiles).map((code) => take(code, melded, Boolean(meld.concealed))),
    fed_by: meld.fed_by || "",
  }));
  const flowers = inGroups("flowers");
  state.flowers = parseNotation(hand.flowers).map((code) => take(code, flowers));
  const concealed = inGroups("concealed");
  state.concealed = parseNotation(hand.concealed).map((code) => take(code, concealed));
  for (const id of free) (state.tiles.get(id).code.endsWith("f") ? state.flowers : state.concealed).push(id);
  const winners = state.concealed.filter((id) => state.tiles.get(id).code === hand.winning_tile);
  state.winning = winners.at(-1) ?? state.concealed.at(-1) ?? null;
}

function groupOf(id) {
  if (state.concealed.includes(id)) return state.concealed;
  if (state.flowers.includes(id)) return state.flowers;
  return state.melds.find((meld) => meld.tiles.includes(id))?.tiles ?? null;
}

function placedIds() {
  return new Set([...state.concealed, ...state.flowers, ...state.melds.flatMap((meld) => meld.tiles)]);
}

function removeTile(id) {
  const group = groupOf(id);
  if (group) group.splice(group.indexOf(id), 1);
  if (state.winning === id) state.winning = state.concealed.at(-1) ?? null;
}

function moveTile(id, target) {
  removeTile(id);
  target.push(id);
  if (state.winning === null && target === state.concealed) state.winning = id;
}

function setCode(id, code) {
  const tile = state.tiles.get(id);
  tile.code = code;
  tile.edited = true;
}

// ---- the score request and the confirmation -------------------------------------------------------------

const codesOf = (ids) => ids.map((id) => state.tiles.get(id).code);

function meldRequest(meld) {
  const codes = codesOf(meld.tiles);
  if (meld.kind === "kong_concealed") {
    const face = codes.find((code) => code !== "back"); // a concealed kong shows two backs
    return { kind: "kong", tiles: face ? notation([face, face, face, face]) : "", concealed: true };
  }
  if (meld.kind === "kong_added") return { kind: "kong", tiles: notation(codes), added: true };
  if (meld.kind === "kong") return { kind: "kong", tiles: notation(codes), ...(meld.fed_by && { fed_by: meld.fed_by }) };
  return { kind: meld.kind, tiles: notation(codes) };
}

function handRequest() {
  return {
    concealed: notation(codesOf(state.concealed)),
    melds: state.melds.filter((meld) => meld.tiles.length).map(meldRequest),
    flowers: notation(codesOf(state.flowers)),
    winning_tile: state.winning === null ? "" : state.tiles.get(state.winning).code,
  };
}

function number(id) {
  const value = $(id).value.trim();
  return value === "" ? undefined : Number(value);
}

function contextRequest() {
  const win = document.querySelector("input[name=win]:checked").value;
  const context = { win, seat_wind: $("seat_wind").value, prevalent_wind: $("prevalent_wind").value };
  if (win === "discard") context.discarder = $("discarder").value;
  const special = [...document.querySelectorAll("input[name=special]:checked")].map((box) => box.value);
  if (special.length) context.special = special;
  for (const key of ["liable", "kong_fed_by"]) if ($(key).value) context[key] = $(key).value;
  for (const key of ["ghosts", "horses"]) {
    if (!$(`${key}-field`).hidden && $(key).value.trim()) context[key] = $(key).value.trim();
  }
  const stake = { unit: number("stake-unit"), fee: number("stake-fee") };
  if (!document.querySelector(".qianggang").hidden) {
    for (const key of ["flower", "kong", "chicken"]) stake[key] = number(`stake-${key}`);
  }
  context.stake = Object.fromEntries(Object.entries(stake).filter(([, value]) => value !== undefined));
  return context;
}

function scoreRequest() {
  const request = { ruleset: $("ruleset").value, hand: handRequest(), context: contextRequest() };
  if (!$("ghost-mode-field").hidden && $("ghost-mode").value) request.options = { ghosts: $("ghost-mode").value };
  return request;
}

function confirmationRequest() {
  const { width, height } = state.recognition.image;
  const placed = placedIds();
  // In detection order, so a label keeps the index the recognition gave its tile.
  const tiles = [...state.tiles.values()].filter((tile) => tile.box && placed.has(tile.id)).map((tile) => {
    const [x1, y1, x2, y2] = tile.box;
    const clamp = (value, limit) => Math.min(Math.max(value, 0), limit);
    return { code: tile.code, box: [clamp(x1, width), clamp(y1, height), clamp(x2, width), clamp(y2, height)] };
  });
  return { tiles, hand: handRequest() };
}

// ---- rendering -----------------------------------------------------------------------------------------------

function isLow(tile) {
  return !tile.edited && tile.confidence < LOW_CONFIDENCE;
}

function tileButton(id) {
  const tile = state.tiles.get(id);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tile-button";
  button.dataset.tile = id;
  button.classList.toggle("low", isLow(tile));
  button.classList.toggle("winning", id === state.winning);
  button.classList.toggle("unseen", !tile.box);
  button.append(tileFace(tile.code));
  button.addEventListener("click", () => openPicker(id));
  return button;
}

function addButton(target) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "add-tile";
  button.textContent = "+";
  button.setAttribute("aria-label", "Add a tile");
  button.addEventListener("click", () => openPalette(target));
  return button;
}

function renderGroup(container, ids) {
  container.replaceChildren(...ids.map(tileButton), addButton(ids));
}

function seatOptions(select, optional) {
  const current = select.value;
  select.replaceChildren(...(optional ? [new Option("—", "")] : []), ...SEATS.map((seat) => new Option(seatName(seat), seat)));
  if (current) select.value = current;
}

function renderMelds() {
  $("melds").replaceChildren(...state.melds.map((meld, index) => {
    const group = document.createElement("div");
    group.className = "group meld";
    const head = document.createElement("div");
    head.className = "group-head";
    const kind = document.createElement("select");
    kind.setAttribute("aria-label", `Meld ${index + 1} kind`);
    for (const [value, label] of Object.entries(MELD_KINDS)) kind.add(new Option(label, value));
    kind.value = meld.kind;
    kind.addEventListener("change", () => { meld.kind = kind.value; render(); });
    head.append(kind);
    if (meld.kind === "kong") {
      const fedBy = document.createElement("select");
      fedBy.setAttribute("aria-label", "Kong made from the discard of");
      seatOptions(fedBy, true);
      fedBy.options[0].text = "fed by —";
      fedBy.value = meld.fed_by;
      fedBy.addEventListener("change", () => { meld.fed_by = fedBy.value; render(); });
      head.append(fedBy);
    }
    const dissolve = document.createElement("button");
    dissolve.type = "button";
    dissolve.className = "quiet";
    dissolve.textContent = "Dissolve";
    dissolve.addEventListener("click", () => {
      state.concealed.push(...meld.tiles);
      state.melds.splice(index, 1);
      render();
    });
    head.append(dissolve);
    const tiles = document.createElement("div");
    tiles.className = "tiles";
    renderGroup(tiles, meld.tiles);
    group.append(head, tiles);
    return group;
  }));
}

function renderBoxes() {
  const recognition = state.recognition;
  const boxes = [];
  if (recognition) {
    const { width, height } = recognition.image;
    const placed = placedIds();
    for (const tile of state.tiles.values()) {
      if (!tile.box || !placed.has(tile.id)) continue;
      const [x1, y1, x2, y2] = tile.box;
      const box = document.createElement("button");
      box.type = "button";
      box.className = "box";
      box.classList.toggle("low", isLow(tile));
      box.classList.toggle("edited", tile.edited);
      box.dataset.tile = tile.id;
      Object.assign(box.style, {
        left: `${(100 * x1) / width}%`, top: `${(100 * y1) / height}%`,
        width: `${(100 * (x2 - x1)) / width}%`, height: `${(100 * (y2 - y1)) / height}%`,
      });
      box.setAttribute("aria-label", `${tileName(tile.code)}, ${Math.round(100 * tile.confidence)}% sure`);
      const label = document.createElement("span");
      label.textContent = tile.code;
      box.append(label);
      box.addEventListener("click", () => openPicker(tile.id));
      boxes.push(box);
    }
  }
  $("boxes").replaceChildren(...boxes);
}

function describeSuggestion(suggestion) {
  if (suggestion.text) return suggestion.text;
  return changesOf(suggestion).map((change) => `tile ${change.tile + 1}: ${change.from ?? ""} → ${change.to}`).join(", ");
}

function changesOf(suggestion) {
  const changes = suggestion.changes ?? (suggestion.tile !== undefined ? [suggestion] : []);
  return changes.map((change) => ({ tile: change.tile ?? change.index, from: change.from, to: change.to ?? change.code }));
}

function renderSuggestions() {
  const applied = (suggestion) => {
    const changes = changesOf(suggestion);
    return changes.length > 0 && changes.every((change) => state.tiles.get(change.tile)?.code === change.to);
  };
  const suggestions = (state.recognition?.suggestions ?? []).filter((suggestion) => !applied(suggestion));
  $("suggestions-section").hidden = suggestions.length === 0;
  $("suggestions").replaceChildren(...suggestions.map((suggestion) => {
    const item = document.createElement("li");
    const p = suggestion.p ?? suggestion.probability;
    item.textContent = describeSuggestion(suggestion) + (p === undefined || suggestion.text ? "" : ` (p ${p.toFixed(2)})`);
    const apply = document.createElement("button");
    apply.type = "button";
    apply.textContent = "Apply";
    apply.addEventListener("click", () => {
      for (const change of changesOf(suggestion)) if (state.tiles.has(change.tile)) setCode(change.tile, change.to);
      render();
    });
    item.append(" ", apply);
    return item;
  }));
}

function render() {
  renderGroup($("concealed"), state.concealed);
  renderGroup($("flowers"), state.flowers);
  renderMelds();
  renderBoxes();
  renderSuggestions();
  const hand = handRequest();
  const melds = hand.melds.map((meld) => `${meld.concealed ? "暗" : ""}${meld.tiles}`).join(" ");
  $("hand-summary").textContent = [hand.concealed, melds, hand.flowers && `花 ${hand.flowers}`,
    hand.winning_tile && `winning ${hand.winning_tile}`].filter(Boolean).join(" · ");
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function renderResult(result) {
  const seat = $("seat_wind").value;
  const flags = [result.capped && "capped 爆胡", result.limit && "limit hand"].filter(Boolean).join(", ");
  const fans = result.fans.map((fan) => `<tr class="fan"><td lang="zh">${escapeHtml(fan.zh)}</td><td>${escapeHtml(fan.en)}</td><td>${fan.fan}</td></tr>`).join("");
  const payments = Object.entries(result.payments).map(([s, amount]) =>
    `<li class="${s === seat ? "winner" : ""}"><span>${seatName(s)}</span><b>${amount > 0 ? "+" : ""}${amount}</b></li>`).join("");
  const groups = escapeHtml(result.decomposition?.groups?.map((group) => group.tiles).join(" ") ?? "");
  const warnings = (result.warnings || []).map((warning) => `<li>${escapeHtml(typeof warning === "string" ? warning : JSON.stringify(warning))}</li>`).join("");
  $("result").innerHTML = `
    <p class="headline"><b id="fan-total">${result.fan_total}</b> fan · <b id="points">${result.points}</b> points
      ${flags ? `<span class="badge">${flags}</span>` : ""}</p>
    <table class="fans"><thead><tr><th>番种</th><th>Fan</th><th>番</th></tr></thead><tbody>${fans}</tbody></table>
    <h3>Payments</h3><ul class="payments">${payments}</ul>
    ${groups ? `<p class="notation">${groups}</p>` : ""}
    ${warnings ? `<ul class="warnings">${warnings}</ul>` : ""}`;
}

function renderRulesetFields() {
  const summary = state.rulesets.find((ruleset) => ruleset.name === $("ruleset").value);
  const options = summary?.options ?? {};
  const ghosts = summary?.name === "tuidaohu"; // ghost tiles are a 推倒胡 rule (RULES.md)
  $("ghost-mode-field").hidden = !ghosts;
  $("ghosts-field").hidden = !ghosts;
  $("horses-field").hidden = !options.horses;
  for (const field of document.querySelectorAll(".qianggang")) field.hidden = !options.flowers;
}

// ---- the tile picker -----------------------------------------------------------------------------------------

function paletteButton(code, onPick, note = "") {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "pick";
  button.dataset.code = code;
  button.append(tileFace(code));
  if (note) {
    const small = document.createElement("small");
    small.textContent = note;
    button.append(small);
  }
  button.addEventListener("click", () => {
    onPick(code);
    $("picker").close();
    render();
  });
  return button;
}

function showPicker(title, onPick, alternatives, actions) {
  $("picker-title").textContent = title;
  $("picker-alternatives").replaceChildren(...(alternatives.length
    ? [Object.assign(document.createElement("h3"), { textContent: "Most likely" }),
      Object.assign(document.createElement("div"), { className: "palette likely" })]
    : []));
  const likely = $("picker-alternatives").querySelector(".likely");
  for (const alternative of alternatives) {
    likely.append(paletteButton(alternative.code, onPick, alternative.p === undefined ? "" : `${Math.round(100 * alternative.p)}%`));
  }
  $("palette").replaceChildren(...ALL_CODES.map((code) => paletteButton(code, onPick)));
  $("picker-actions").replaceChildren(...actions.map(([label, action]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", () => {
      action();
      $("picker").close();
      render();
    });
    return button;
  }));
  $("picker").showModal();
}

function openPicker(id) {
  const tile = state.tiles.get(id);
  const sure = tile.box && !tile.edited ? ` · ${Math.round(100 * tile.confidence)}% sure` : "";
  const actions = [];
  if (state.concealed.includes(id) && state.winning !== id) actions.push(["★ Winning tile", () => { state.winning = id; }]);
  if (!state.concealed.includes(id)) actions.push(["→ Standing", () => moveTile(id, state.concealed)]);
  state.melds.forEach((meld, index) => {
    if (!meld.tiles.includes(id)) actions.push([`→ Meld ${index + 1}`, () => moveTile(id, meld.tiles)]);
  });
  actions.push(["→ New meld", () => {
    const meld = { kind: "pung", tiles: [], fed_by: "" };
    state.melds.push(meld);
    moveTile(id, meld.tiles);
  }]);
  if (!state.flowers.includes(id)) actions.push(["→ Flowers", () => moveTile(id, state.flowers)]);
  if (state.recognition) actions.push([tile.box ? "□ Redraw its box" : "□ Mark it on the photo", () => startMarking(id)]);
  actions.push(["✕ Remove", () => removeTile(id)]);
  showPicker(`${tileName(tile.code)}${sure}`, (code) => setCode(id, code), tile.alternatives, actions);
}

function openPalette(target) {
  showPicker("Add a tile", (code) => moveTile(addTile(code), target), [], []);
}

// ---- drawing a box for a tile the recogniser missed (or boxed badly): its label for the dataset --------

function startMarking(id) {
  state.marking = id;
  $("photo").classList.add("marking");
  setStatus($("photo-status"), `Drag a box around the ${tileName(state.tiles.get(id).code)} on the photo.`);
  $("photo").scrollIntoView({ block: "center" });
}

function photoPoint(event) {
  const rect = $("photo-image").getBoundingClientRect();
  const { width, height } = state.recognition.image;
  const clamp = (value) => Math.min(Math.max(value, 0), 1);
  return [clamp((event.clientX - rect.left) / rect.width) * width, clamp((event.clientY - rect.top) / rect.height) * height];
}

function wireMarking() {
  const photo = $("photo");
  let start = null;
  const boxFrom = (end) => [Math.min(start[0], end[0]), Math.min(start[1], end[1]), Math.max(start[0], end[0]), Math.max(start[1], end[1])];
  photo.addEventListener("pointerdown", (event) => {
    if (state.marking === null) return;
    event.preventDefault();
    photo.setPointerCapture(event.pointerId);
    start = photoPoint(event);
  });
  photo.addEventListener("pointermove", (event) => {
    if (start === null) return;
    state.tiles.get(state.marking).box = boxFrom(photoPoint(event));
    renderBoxes();
  });
  photo.addEventListener("pointerup", (event) => {
    if (start === null) return;
    const [x1, y1, x2, y2] = boxFrom(photoPoint(event));
    const tile = state.tiles.get(state.marking);
    tile.box = x2 - x1 >= 2 && y2 - y1 >= 2 ? [x1, y1, x2, y2] : null; // a tap is not a box
    tile.edited = true;
    start = null;
    state.marking = null;
    photo.classList.remove("marking");
    setStatus($("photo-status"), tile.box ? "Box drawn." : "No box drawn: drag across the tile.");
    render();
  });
}

// ---- wiring ---------------------------------------------------------------------------------------------------

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
    const recognition = await api("POST", "/v1/recognitions", form);
    loadRecognition(recognition);
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
  try {
    renderResult(await api("POST", "/v1/score", scoreRequest()));
  } catch (error) {
    $("result").innerHTML = "";
    $("result").append(Object.assign(document.createElement("p"), { className: "status error", textContent: error.message }));
  }
}

async function save() {
  const status = $("save-status");
  try {
    const saved = await api("PUT", `/v1/recognitions/${state.recognition.id}/confirmation`, confirmationRequest());
    const unboxed = placedIds().size - saved.tiles.length;
    setStatus(status, `Saved ✓ ${saved.tiles.length} labelled tiles (${new Date(saved.confirmed_at).toLocaleTimeString()})` +
      (unboxed ? `; ${unboxed} without a box on the photo — mark them so the example teaches the model every tile.` : "."));
  } catch (error) {
    setStatus(status, `Not saved: ${error.message}`, true);
  }
}

async function start() {
  for (const select of document.querySelectorAll("select.seat")) seatOptions(select, select.classList.contains("optional"));
  const keepDiscarderApart = () => { // nobody wins on their own discard
    if ($("discarder").value === $("seat_wind").value) $("discarder").value = SEATS.find((seat) => seat !== $("seat_wind").value);
  };
  $("seat_wind").addEventListener("change", keepDiscarderApart);
  keepDiscarderApart();
  $("photo-input").addEventListener("change", (event) => event.target.files[0] && upload(event.target.files[0]));
  $("score-button").addEventListener("click", score);
  $("save-button").addEventListener("click", save);
  $("new-meld").addEventListener("click", () => { state.melds.push({ kind: "pung", tiles: [], fed_by: "" }); render(); });
  $("clear-hand").addEventListener("click", () => {
    Object.assign(state, { concealed: [], flowers: [], melds: [], winning: null });
    render();
  });
  for (const radio of document.querySelectorAll("input[name=win]")) {
    radio.addEventListener("change", () => { $("discarder-field").hidden = radio.value !== "discard" || !radio.checked; });
  }
  $("ruleset").addEventListener("change", renderRulesetFields);
  wireMarking();
  render();
  try {
    state.rulesets = await api("GET", "/v1/rulesets");
    $("ruleset").replaceChildren(...state.rulesets.map((ruleset) => new Option(`${ruleset.zh ?? ""} ${ruleset.name}`, ruleset.name)));
    renderRulesetFields();
  } catch (error) {
    setStatus($("photo-status"), `Could not load the rule sets: ${error.message}`, true);
  }
  const id = location.hash.slice(1);
  if (/^[0-9a-f]{32}$/.test(id)) {
    try {
      loadRecognition(await api("GET", `/v1/recognitions/${id}`));
      if (state.recognition.confirmation) setStatus($("save-status"), "This photo was saved before; saving again replaces it.");
      render();
    } catch (error) {
      setStatus($("photo-status"), error.message, true);
    }
  }
}

start();
