// The relua inspector's page: the REPL's action log, its state, screens and effects, live over a
// WebSocket, and the REPL driven from here (send, jump, cancel, export). Protocol v2
// (InspectorMessage.swift): the server sends `history` first on every connection, then `entry` as
// things happen and `live` when only the screens or effects changed, each with LIVE (screens,
// effects, actions, travel, export); the page sends requests with a number of its own, answered by
// a `result` with that number. Plain DOM, no library; everything from the server goes in as text
// (textContent), never as HTML.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const log = $("log");
// State-tree nodes the user opened or closed, by path, kept across updates.
const treeToggles = new Map();
let socket = null;
let retryDelay = 500;
let entryCount = 0;

// What the page knows: the entries by index, the state now, the latest LIVE.
const entries = new Map();
let currentState = { state: null };
let live = { screens: [], effects: [], actions: [], travel: true, export: { actions: 0, since: "open" } };
let feature = null;

// Time travel: the entry whose state is shown (null: now), and the states asked for, by index
// (the state after an entry never changes within a feature).
let selected = null;
// The places of the state that hold shared values (tree path → key), marked in the state tree.
let sharedMarks = new Map();
const stateCache = new Map();

// Requests: a counter, and the callback waiting for each one's result.
let nextRequest = 1;
const pending = new Map();

function connect() {
  setStatus("connecting", "connecting…");
  socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  socket.onopen = () => {
    retryDelay = 500;
    setStatus("live", "live");
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    // Requests sent on this connection will not be answered.
    for (const callback of pending.values()) callback({ error: "the connection to the REPL dropped" });
    pending.clear();
    // The REPL quit, or the connection dropped: try again (the history comes again on reconnect).
    setStatus("closed", `disconnected — retrying in ${Math.round(retryDelay / 100) / 10} s`);
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  };
}

function setStatus(kind, text) {
  const status = $("status");
  status.className = `status ${kind}`;
  status.textContent = text;
}

// Sends `message` with a new request number; `callback` gets the result (or an {error}).
function request(message, callback) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    callback({ error: "not connected to the REPL" });
    return;
  }
  const number = nextRequest++;
  pending.set(number, callback);
  socket.send(JSON.stringify({ type: message.type, request: number, ...message }));
}

function receive(message) {
  if (message.type === "result") {
    const callback = pending.get(message.request);
    if (callback) {
      pending.delete(message.request);
      callback(message);
    } else if (message.error) {
      console.warn("relua inspector:", message.error);
    }
    return;
  }
  if (message.type === "history") {
    showFeature(message.feature);
    log.replaceChildren();
    entries.clear();
    entryCount = 0;
    // A new feature (or a new connection) starts over: nothing selected, nothing cached.
    stateCache.clear();
    selected = null;
    const dropped = $("dropped");
    dropped.hidden = !message.dropped;
    dropped.textContent = message.dropped ? `${message.dropped} earlier entries are no longer kept.` : "";
    for (const entry of message.entries) addEntry(entry, false);
  } else if (message.type === "entry") {
    addEntry(message.entry, true);
  } else if (message.type !== "live") {
    return;
  }
  if (message.live) showLive(message.live);
  if (message.type !== "live") {
    currentState = "state" in message ? { state: message.state } : { stateError: message.stateError || "no state" };
    showState();
  }
}

function showFeature(value) {
  feature = value;
  const element = $("feature");
  element.replaceChildren();
  if (!value) {
    element.textContent = "no feature (the script returned none)";
    return;
  }
  element.append(value.name);
  const file = document.createElement("span");
  file.className = "file";
  file.textContent = value.file;
  element.append(file);
  document.title = `${value.name} — relua inspector`;
}

// MARK: The log

function addEntry(entry, live) {
  const pane = log.parentElement;
  const atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  entries.set(entry.index, entry);
  log.append(renderEntry(entry));
  entryCount += 1;
  $("count").textContent = `(${entryCount})`;
  $("empty").hidden = entryCount > 0;
  if (live && atBottom) pane.scrollTop = pane.scrollHeight;
}

// "counter.setCount 5", ":undo", ":jump → #3"; a long payload (a search response) cut short.
function describe(entry) {
  if (entry.kind === "action") {
    const payload = entry.payload || "";
    return `${entry.name} ${payload.length > 40 ? payload.slice(0, 39) + "…" : payload}`.trim();
  }
  if (entry.kind === "jump") return `:jump → #${entry.to}`;
  return `:${entry.kind}`;
}

function renderEntry(entry) {
  const item = document.createElement("li");
  const isAction = entry.kind === "action";
  item.className = `entry ${isAction ? "action" : "replaced"}${entry.diff.length ? "" : " unchanged"}`;
  item.dataset.index = entry.index;
  const head = document.createElement("button");
  head.type = "button";
  head.className = "entry-head";
  head.setAttribute("aria-expanded", "false");
  head.setAttribute("aria-pressed", "false");
  head.append(span("index", `${entry.index}`));
  head.append(span("name", isAction ? entry.name : entry.kind === "jump" ? `:jump → #${entry.to}` : `:${entry.kind}`));
  if (isAction && entry.payload) head.append(span("payload", entry.payload));
  if (isAction) head.append(span(`sender ${entry.sender}`, entry.sender));
  head.append(span("time", formatTime(entry.time)));
  head.title = `${isAction ? `${entry.name} ${entry.payload}`.trim() : describe(entry)} — click for its diff and the state after it`;
  item.append(head);
  const diff = document.createElement("pre");
  diff.className = "diff";
  diff.hidden = true;
  for (const line of entry.diff.length ? entry.diff : ["(no change)"]) {
    const trimmed = line.trimStart();
    const kind = trimmed.startsWith("−") ? "removed" : trimmed.startsWith("+") ? "added" : "";
    const element = kind ? span(kind, line) : document.createTextNode(line + "\n");
    diff.append(element);
  }
  item.append(diff);
  // A click selects the entry (its diff, and the state after it); a second click goes back to now.
  head.addEventListener("click", () => select(selected === entry.index ? null : entry.index));
  return item;
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function formatTime(milliseconds) {
  const date = new Date(milliseconds);
  const pad = (n, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

// MARK: Time travel

function select(index) {
  selected = index;
  for (const item of log.children) {
    const isSelected = Number(item.dataset.index) === index;
    item.classList.toggle("selected", isSelected);
    item.querySelector(".entry-head").setAttribute("aria-pressed", String(isSelected));
    item.querySelector(".entry-head").setAttribute("aria-expanded", String(isSelected));
    item.querySelector(".diff").hidden = !isSelected;
  }
  showTravelError("");
  if (index !== null && !stateCache.has(index)) {
    request({ type: "stateAt", index }, (result) => {
      // (A refusal is kept too: an entry no longer kept does not come back.)
      stateCache.set(index, result.error ? { unavailable: result.error }
        : "state" in result ? { state: result.state } : { stateError: result.stateError || "no state" });
      if (selected === index) showState();
    });
  }
  showState();
}

function showTravelError(text) {
  const error = $("travel-error");
  error.hidden = !text;
  error.textContent = text;
}

function jump() {
  const index = selected;
  if (index === null) return;
  $("jump").disabled = true;
  request({ type: "jump", index }, (result) => {
    updateJumpButton();
    if (result.error) {
      if (selected === index) showTravelError(result.error);
      return;
    }
    // The REPL is at that state now (its jump entry follows): show now.
    if (selected === index) select(null);
  });
}

function updateJumpButton() {
  const button = $("jump");
  button.disabled = !live.travel;
  button.title = live.travel
    ? "Make this the REPL's state (as :undo would), recorded as a jump entry"
    : "The REPL is recording a test (:record): jumping is off until :stop";
}

// MARK: The state

// The state now, or the state after the selected entry (with a banner saying so).
function showState() {
  const travel = $("travel");
  let shown = currentState;
  if (selected === null) {
    travel.hidden = true;
    $("state-when").textContent = "now";
  } else {
    const entry = entries.get(selected);
    travel.hidden = false;
    const latest = Math.max(...entries.keys()) === selected;
    $("travel-title").textContent =
      `State after #${selected} ${entry ? describe(entry) : ""}`.trim() + (latest ? " — the latest entry" : " — viewing the past");
    $("state-when").textContent = `after #${selected}`;
    // The state after the latest entry is the state now: shown until the answer comes.
    shown = stateCache.get(selected) || (latest ? currentState : { loading: true });
  }
  const error = $("state-error");
  const problem = shown.stateError ? `The state cannot be shown: ${shown.stateError}`
    : shown.unavailable ? `The state after #${selected} cannot be had: ${shown.unavailable}`
    : shown.loading ? "loading…" : "";
  error.hidden = !problem;
  error.textContent = problem;
  error.classList.toggle("error", !shown.loading);
  const tree = $("state");
  tree.classList.toggle("past", selected !== null);
  tree.replaceChildren();
  if ("state" in shown) tree.append(renderValue("state", shown.state, "", 0));
}

// A value as a tree: tables as <details> (open two levels deep unless the user chose), scalars
// as one line.
function renderValue(key, value, path, depth) {
  if (value !== null && typeof value === "object") {
    const details = document.createElement("details");
    details.dataset.path = path;
    details.open = treeToggles.has(path) ? treeToggles.get(path) : depth < 2;
    details.addEventListener("toggle", () => treeToggles.set(path, details.open));
    const summary = document.createElement("summary");
    summary.append(span("key", key));
    const count = Array.isArray(value) ? value.length : Object.keys(value).length;
    summary.append(span("summary-note", Array.isArray(value) ? ` [${count}]` : ` {${count}}`));
    markShared(summary, path);
    details.append(summary);
    const children = Array.isArray(value) ? value.map((v, i) => [`[${i + 1}]`, v]) : Object.entries(value);
    for (const [childKey, child] of children) {
      details.append(renderValue(childKey, child, `${path}/${childKey}`, depth + 1));
    }
    return details;
  }
  const leaf = document.createElement("div");
  leaf.className = "leaf";
  leaf.dataset.path = path;
  leaf.append(span("key", key), document.createTextNode(" = "));
  const kind = typeof value === "string" ? "string" : typeof value === "number" ? "number" : "boolean";
  leaf.append(span(kind, typeof value === "string" ? JSON.stringify(value) : String(value)));
  markShared(leaf, path);
  return leaf;
}

// A shared value's place gets its key beside it (only in the state now: a past state's places
// may differ).
function markShared(element, path) {
  const key = selected === null ? sharedMarks.get(path) : undefined;
  if (key === undefined) return;
  const mark = span("shared-mark", `shared: ${key}`);
  mark.title = "A shared value: every holder of this key sees the same value";
  element.append(" ", mark);
}

// MARK: LIVE: screens, effects, the send form's actions, export

// What was drawn last, as JSON: each part is redrawn only when it changed, so a button being
// clicked, a choice or a payload being typed survive the LIVE that comes with every entry (an
// effect's timer sends one a second).
const drawn = { screens: "", effects: "", actions: "", shared: "" };

function changed(part, value) {
  const key = JSON.stringify(value);
  if (drawn[part] === key) return false;
  drawn[part] = key;
  return true;
}

function showLive(value) {
  live = value;
  if (changed("screens", value.screens || [])) showScreens(value.screens || []);
  if (changed("effects", value.effects || [])) showEffects(value.effects || []);
  if (changed("actions", value.actions || [])) showActions(value.actions || []);
  if (changed("shared", value.shared || [])) {
    sharedMarks = new Map((value.shared || []).map((place) => [place.path, place.key]));
    showState();
  }
  updateJumpButton();
  const exported = value.export || { actions: 0, since: "open" };
  $("export-summary").textContent = `${exported.actions} action${exported.actions === 1 ? "" : "s"} since ${exported.since}`;
}

let drawnScreenCount = 0;
const kindNames = { root: "", pushed: "pushed", presented: "presented", alert: "alert", confirmationDialog: "confirmation dialog" };

// The navigation as a row of small phones, root first; an alert or a confirmation dialog is drawn
// as a dialog box over the screen that presents it.
function showScreens(screens) {
  const row = $("screens");
  row.replaceChildren();
  let presenter = null;
  screens.forEach((screen, position) => {
    const isTop = position === screens.length - 1;
    const isDialog = screen.kind === "alert" || screen.kind === "confirmationDialog";
    const card = document.createElement(isDialog ? "div" : "article");
    card.className = `screen kind-${screen.kind}${isTop ? " top" : ""}${isDialog ? " dialog" : ""}`;
    card.setAttribute("role", isDialog ? "dialog" : "listitem");
    card.dataset.name = screen.name;
    card.dataset.place = screen.place;
    if (isTop) card.setAttribute("aria-current", "true");
    const bar = document.createElement("div");
    bar.className = "screen-bar";
    const name = span("screen-name", screen.name);
    name.id = `screen-${position}-name`;
    card.setAttribute("aria-labelledby", name.id);
    bar.append(name);
    if (kindNames[screen.kind]) bar.append(span(`badge ${screen.kind}`, kindNames[screen.kind]));
    if (screen.close) {
      const close = document.createElement("button");
      close.type = "button";
      close.className = "close";
      close.textContent = "×";
      close.title = `Close: send ${screen.close}`;
      close.setAttribute("aria-label", `Close ${screen.name} (sends ${screen.close})`);
      // A pushed screen's close (popFrom) takes its stack id: closePayload.
      const message = { type: "send", action: screen.close };
      if ("closePayload" in screen) message.payload = screen.closePayload;
      close.addEventListener("click", () => request(message, (result) => showError("screens-error", result.error)));
      bar.append(close);
    }
    card.append(bar);
    if (screen.place) card.append(span("screen-place", screen.place));
    // What its lifecycle sent when it appeared (its feature's task = "…").
    if (screen.tasks) card.append(span("screen-tasks", `task: ${screen.tasks.join(", ")}`));
    const body = document.createElement("div");
    body.className = "screen-body";
    const text = document.createElement("pre");
    text.className = "screen-text";
    text.textContent = screen.text;
    body.append(text);
    card.append(body);
    if (isDialog && presenter) {
      // In the presenter's card, on its dimmed view (style.css).
      presenter.classList.add("has-dialog");
      presenter.querySelector(".screen-body").append(card);
    } else {
      row.append(card);
      presenter = card;
    }
  });
  // A new screen on top: scroll the row to it (only the row: the pane stays where it is).
  if (screens.length !== drawnScreenCount) row.scrollLeft = row.scrollWidth;
  drawnScreenCount = screens.length;
}

function showEffects(effects) {
  const list = $("effects");
  list.replaceChildren();
  if (effects.length === 0) {
    const none = document.createElement("li");
    none.className = "note none";
    none.textContent = "(no effect is running)";
    list.append(none);
    return;
  }
  for (const effect of effects) {
    const item = document.createElement("li");
    item.className = "effect";
    item.dataset.id = effect.id;
    const ids = effect.cancelIDs || [];
    const named = effect.name ? ` "${effect.name}"${effect.place ? ` (${effect.place})` : ""}` : "";
    const label = `#${effect.id} effect${named} — ${ids.length ? `cancellable as ${ids.join(", ")}` : "not cancellable by id"}`;
    const text = span("effect-label", label);
    if (effect.concatenation) text.append(span("note", " (a concatenation)"));
    item.append(text);
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "cancel";
    cancel.textContent = "Cancel";
    cancel.setAttribute("aria-label", `Cancel effect #${effect.id}`);
    cancel.addEventListener("click", () => {
      cancel.disabled = true;
      request({ type: "cancel", effect: effect.id }, (result) => {
        cancel.disabled = false;
        showError("effects-error", result.error);
      });
    });
    item.append(cancel);
    list.append(item);
  }
}

function showError(id, text) {
  const element = $(id);
  element.hidden = !text;
  element.textContent = text || "";
}

// MARK: The send form

// The payload type the field was made for (kept while the chosen action's type is the same).
let drawnPayloadType;

function showActions(actions) {
  const choice = $("send-action");
  const previous = choice.value;
  choice.replaceChildren();
  for (const action of actions) {
    const option = document.createElement("option");
    option.value = action.path;
    option.textContent = action.payload ? `${action.path} (${action.payload})` : action.path;
    choice.append(option);
  }
  if (actions.some((action) => action.path === previous)) choice.value = previous;
  $("send-button").disabled = actions.length === 0;
  showPayloadField();
}

function chosenAction() {
  const path = $("send-action").value;
  return (live.actions || []).find((action) => action.path === path) || null;
}

// The payload's input for the chosen action's declared type (kept while the type is the same).
function showPayloadField() {
  const action = chosenAction();
  const type = action ? action.payload : null;
  if (type === drawnPayloadType) return;
  drawnPayloadType = type;
  const field = $("payload-field");
  field.replaceChildren();
  $("payload-label").hidden = !type;
  $("payload-type").textContent = type || "";
  if (!type) return;
  const optional = type.endsWith("?");
  const base = optional ? type.slice(0, -1) : type;
  let input;
  if (base === "integer" || base === "float" || base === "number") {
    input = document.createElement("input");
    input.type = "number";
    input.step = base === "integer" ? "1" : "any";
    input.dataset.kind = "number";
  } else if (base === "string") {
    input = document.createElement("input");
    input.type = "text";
    input.dataset.kind = "string";
  } else if (base === "boolean") {
    input = document.createElement("select");
    for (const value of optional ? ["", "true", "false"] : ["true", "false"]) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = value || "(none)";
      input.append(option);
    }
    input.dataset.kind = "boolean";
  } else {
    input = document.createElement("textarea");
    input.rows = 3;
    input.spellcheck = false;
    input.placeholder = base.startsWith("{") ? "[1, 2]" : "JSON";
    input.dataset.kind = "json";
  }
  input.id = "send-payload";
  input.name = "payload";
  input.dataset.optional = String(optional);
  if (optional && input.dataset.kind !== "boolean") input.placeholder = "(empty: no payload)";
  field.append(input);
}

// The payload as JSON for the request: {value}, {} for none, or {error}.
function readPayload() {
  const input = $("send-payload");
  if (!input) return {};
  const text = input.value;
  if (input.dataset.kind === "string" && input.dataset.optional !== "true") return { value: text };
  // An empty field sends no payload: right for an optional one; for another the server says
  // what the action expects, as the REPL does.
  if (text.trim() === "") return {};
  switch (input.dataset.kind) {
    case "number": {
      const value = Number(text);
      return Number.isFinite(value) ? { value } : { error: `${text} is not a number` };
    }
    case "string":
      return { value: text };
    case "boolean":
      return { value: text === "true" };
    default:
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        return { error: `the payload is not JSON: ${error.message}` };
      }
  }
}

let latestSend = 0;

function submitSend(event) {
  event.preventDefault();
  const action = $("send-action").value;
  if (!action) return;
  const payload = readPayload();
  if (payload.error) {
    showError("send-error", payload.error);
    return;
  }
  const message = { type: "send", action };
  if ("value" in payload) message.payload = payload.value;
  // Sends may overlap (click, click): the latest one's result is the one shown.
  const mine = ++latestSend;
  request(message, (result) => {
    if (mine === latestSend) showError("send-error", result.error);
  });
}

// MARK: Export

function exportTest() {
  const button = $("export-button");
  button.disabled = true;
  const exported = live.export || { actions: 0, since: "open" };
  request({ type: "export" }, (result) => {
    button.disabled = false;
    showError("export-error", result.error);
    if (result.error) return;
    $("export-text").textContent = result.text;
    download(result.fileName, result.text);
    const note = $("export-note");
    // Beside the feature script: relua test finds the feature's modules from there.
    const folder = feature && feature.file.includes("/") ? feature.file.slice(0, feature.file.lastIndexOf("/") + 1) : "";
    const command = document.createElement("code");
    command.textContent = `relua test ${folder}${result.fileName}`;
    note.replaceChildren(
      `${result.fileName}: ${exported.actions} action${exported.actions === 1 ? "" : "s"} since ${exported.since}` +
        " — save it beside the feature script and run ", command);
    note.hidden = false;
  });
}

function download(fileName, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/x-lua;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

$("back-to-now").addEventListener("click", () => select(null));
$("jump").addEventListener("click", jump);
$("send-action").addEventListener("change", showPayloadField);
$("send-form").addEventListener("submit", submitSend);
$("export-button").addEventListener("click", exportTest);
showEffects([]);
updateJumpButton();

connect();
