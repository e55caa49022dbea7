// The relua inspector's page: the REPL's action log and state, live over a WebSocket.
// Messages (InspectorMessage.swift): {type: "history", feature, entries, dropped, state} first on
// every connection, then {type: "entry", entry, state} as things happen. Plain DOM, no library;
// everything from the server goes in as text (textContent), never as HTML.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const log = $("log");
// State-tree nodes the user opened or closed, by path, kept across updates.
const treeToggles = new Map();
let socket = null;
let retryDelay = 500;
let entryCount = 0;

function connect() {
  setStatus("connecting", "connecting…");
  socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  socket.onopen = () => {
    retryDelay = 500;
    setStatus("live", "live");
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
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

function receive(message) {
  if (message.type === "history") {
    showFeature(message.feature);
    log.replaceChildren();
    entryCount = 0;
    const dropped = $("dropped");
    dropped.hidden = !message.dropped;
    dropped.textContent = message.dropped ? `${message.dropped} earlier entries are no longer kept.` : "";
    for (const entry of message.entries) addEntry(entry, false);
  } else if (message.type === "entry") {
    addEntry(message.entry, true);
  } else {
    return;
  }
  showState(message);
}

function showFeature(feature) {
  const element = $("feature");
  element.replaceChildren();
  if (!feature) {
    element.textContent = "no feature (the script returned none)";
    return;
  }
  element.append(feature.name);
  const file = document.createElement("span");
  file.className = "file";
  file.textContent = feature.file;
  element.append(file);
  document.title = `${feature.name} — relua inspector`;
}

// MARK: The log

function addEntry(entry, live) {
  const pane = log.parentElement;
  const atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 40;
  log.append(renderEntry(entry));
  entryCount += 1;
  $("count").textContent = `(${entryCount})`;
  $("empty").hidden = entryCount > 0;
  if (live && atBottom) pane.scrollTop = pane.scrollHeight;
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
  head.append(span("index", `${entry.index}`));
  head.append(span("name", isAction ? entry.name : `:${entry.kind}`));
  if (isAction && entry.payload) head.append(span("payload", entry.payload));
  if (isAction) head.append(span(`sender ${entry.sender}`, entry.sender));
  head.append(span("time", formatTime(entry.time)));
  head.title = isAction ? `${entry.name} ${entry.payload}`.trim() : entry.kind;
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
  head.addEventListener("click", () => {
    diff.hidden = !diff.hidden;
    head.setAttribute("aria-expanded", String(!diff.hidden));
  });
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

// MARK: The state

function showState(message) {
  const error = $("state-error");
  error.hidden = !message.stateError;
  error.textContent = message.stateError ? `The state cannot be shown: ${message.stateError}` : "";
  const tree = $("state");
  tree.replaceChildren();
  if ("state" in message) tree.append(renderValue("state", message.state, "", 0));
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
  return leaf;
}

connect();
