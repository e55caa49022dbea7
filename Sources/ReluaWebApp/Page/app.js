// relua app's page: draws a feature's screens from their view trees and keeps them current from
// the server's messages over one WebSocket (docs/DESIGN-NOTES.md, "Web app"):
//   server → page  {type:"screens", screens:[…]}       every screen, on connect
//                  {type:"open", index, screen}         a screen appeared
//                  {type:"close", place}                a screen went
//                  {type:"patch", place, patches:[…]}   a screen's tree changed (replace / rows)
//                  {type:"ok"|"error", screen, at, message}  the answer to what the page sent
//   page → server  {screen, at, input} | {close} | {alert, button}
// Plain DOM, no framework: each node of a tree keeps its element (node._el), and a patch is
// applied to the tree and its elements together, reusing what did not change (focus survives).
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
let socket = null;
let screens = [];
let sequence = 0;

// A debug hook for tests: every message received (its type and size), and a way to send one.
const debug = { messages: [], send: (message) => send(message), get screens() { return screens; } };
window.reluaApp = debug;

function connect() {
  socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => setStatus("live", "open"));
  socket.addEventListener("close", () => setStatus("disconnected", "closed"));
  socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    debug.messages.push({ type: message.type, bytes: event.data.length, text: event.data });
    if (debug.messages.length > 500) debug.messages.shift();
    receive(message);
  });
}

function setStatus(text, kind) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.className = "status " + kind;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// MARK: Messages

function receive(message) {
  switch (message.type) {
    case "screens":
      screens = message.screens.map(makeScreen);
      layout();
      break;
    case "open": {
      const screen = makeScreen(message.screen);
      screens.splice(Math.min(message.index, screens.length), 0, screen);
      layout();
      break;
    }
    case "close":
      screens = screens.filter((screen) => screen.place !== message.place);
      layout();
      break;
    case "patch": {
      const screen = screens.find((s) => s.place === message.place);
      if (screen) applyPatches(screen, message.patches);
      break;
    }
    case "ok":
      clearErrors();
      break;
    case "error":
      showError(message);
      break;
  }
}

function makeScreen(data) {
  const screen = { ...data, body: document.createElement("div") };
  screen.body.className = "screen";
  screen.body.dataset.place = data.place;
  if (screen.tree) screen.body.append(render(screen.tree, screen, true));
  return screen;
}

// MARK: Navigation: layers of screens (the root's stack, each sheet with its stack, alerts)

function layout() {
  const layers = [];
  for (const screen of screens) {
    if (screen.kind === "stack" && layers.length > 0 && layers[layers.length - 1].kind !== "alert") {
      layers[layers.length - 1].screens.push(screen);
    } else {
      layers.push({ kind: screen.kind, screens: [screen] });
    }
  }
  const main = document.getElementById("main");
  const crumbs = document.getElementById("crumbs");
  const back = document.getElementById("back");
  const rootLayer = layers[0];
  crumbs.replaceChildren();
  main.replaceChildren();
  back.hidden = true;
  if (rootLayer) {
    crumbItems(crumbs, rootLayer.screens);
    const top = rootLayer.screens[rootLayer.screens.length - 1];
    main.append(top.body);
    if (top.kind === "stack") {
      back.hidden = false;
      back.onclick = () => send({ close: top.place });
    }
  }
  const holder = document.getElementById("layers");
  for (const dialog of holder.querySelectorAll("dialog")) if (dialog.open) dialog.close();
  holder.replaceChildren();
  for (const layer of layers.slice(1)) {
    const dialog = layer.kind === "alert" ? alertDialog(layer.screens[0]) : sheetDialog(layer.screens);
    holder.append(dialog);
    dialog.showModal();
  }
}

function crumbItems(list, stack) {
  stack.forEach((screen, index) => {
    const item = document.createElement("li");
    item.textContent = screen.name;
    if (index === stack.length - 1) item.setAttribute("aria-current", "page");
    list.append(item);
  });
}

function sheetDialog(stack) {
  const sheet = stack[0];
  const top = stack[stack.length - 1];
  const dialog = document.createElement("dialog");
  dialog.className = "sheet";
  dialog.dataset.place = sheet.place;
  const bar = document.createElement("div");
  bar.className = "sheet-bar";
  if (top.kind === "stack") bar.append(button("‹ Back", () => send({ close: top.place }), "back"));
  const title = document.createElement("h2");
  title.id = "sheet-title-" + (++sequence);
  const crumbs = document.createElement("ol");
  crumbs.className = "crumbs";
  title.textContent = stack.map((s) => s.name).join(" › ");
  dialog.setAttribute("aria-labelledby", title.id);
  bar.append(title);
  // A sheet whose presenter gives it a bar (relua.ui.toolbar: Cancel/Add) closes by that bar;
  // otherwise it gets a Close of the page's own. Escape closes it either way.
  if (!ownBar(top.tree)) bar.append(button("Close", () => send({ close: sheet.place }), "close"));
  const body = document.createElement("div");
  body.className = "sheet-body";
  body.append(top.body);
  dialog.append(bar, body);
  // Escape closes it through the store (the state says what is shown).
  dialog.addEventListener("cancel", (event) => { event.preventDefault(); send({ close: sheet.place }); });
  return dialog;
}

function ownBar(tree) {
  const first = tree && tree.kind === "vstack" ? tree.children[0] : tree;
  return !!first && first.kind === "toolbar" && !first.screen;
}

function alertDialog(screen) {
  const dialog = document.createElement("dialog");
  dialog.className = "alert";
  dialog.dataset.place = screen.place;
  dialog.setAttribute("role", "alertdialog");
  const alert = screen.alert || { buttons: ["OK"] };
  if (alert.title) {
    const title = document.createElement("h2");
    title.id = "alert-title-" + (++sequence);
    title.textContent = alert.title;
    dialog.setAttribute("aria-labelledby", title.id);
    dialog.append(title);
  }
  if (alert.message) {
    const message = document.createElement("p");
    message.textContent = alert.message;
    dialog.append(message);
  }
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  alert.buttons.forEach((label, index) => buttons.append(button(label, () => send({ alert: screen.place, button: index }))));
  dialog.append(buttons);
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    if (screen.closeAction) send({ close: screen.place });
  });
  return dialog;
}

function button(label, action, className) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (className) element.className = className;
  element.addEventListener("click", action);
  return element;
}

// MARK: Trees

function children(node) {
  switch (node.kind) {
    case "vstack": case "hstack": case "section": case "toolbar": return node.children;
    case "list": return node.rows.map((row) => row.content);
    default: return [];
  }
}

function setChild(parent, index, child) {
  if (parent.kind === "list") parent.rows[index].content = child;
  else parent.children[index] = child;
}

function nodeAt(tree, at) {
  let node = tree;
  for (const index of at) {
    const below = children(node);
    if (!(index >= 0 && index < below.length)) return null;
    node = below[index];
  }
  return node;
}

function pathOf(node, target, path = []) {
  if (node === target) return path;
  const below = children(node);
  for (let i = 0; i < below.length; i++) {
    const found = pathOf(below[i], target, path.concat(i));
    if (found) return found;
  }
  return null;
}

function decoded(jsonText) {
  if (jsonText === undefined) return null;
  try { return JSON.parse(jsonText); } catch { return null; }
}

// Works the control `node` of `screen`: its path in the tree last received.
function work(screen, node, input) {
  const at = pathOf(screen.tree, node);
  if (!at) return;
  const message = { screen: screen.place, at };
  if (input !== undefined) message.input = input;
  send(message);
}

function render(node, screen, isRoot = false) {
  const element = build(node, screen, isRoot);
  element._node = node;
  node._el = element;
  return element;
}

function build(node, screen, isRoot) {
  const create = (tag, className) => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    return element;
  };
  switch (node.kind) {
    case "text": {
      const element = create(isRoot ? "pre" : "span", isRoot ? "" : "text");
      element.textContent = node.text;
      return element;
    }
    case "vstack": case "hstack": {
      const element = create("div", node.kind);
      for (const child of node.children) element.append(render(child, screen));
      return element;
    }
    case "toolbar": {
      // Another screen's bar (a sheet's, given by its presenter) is drawn on that screen, not here.
      if (node.screen) { const element = create("span"); element.hidden = true; return element; }
      const element = create("div", "toolbar");
      element.setAttribute("role", "toolbar");
      for (const child of node.children) element.append(render(child, screen));
      return element;
    }
    case "section": {
      const element = create("section");
      const title = create("h2");
      title.textContent = node.title;
      element.append(title);
      for (const child of node.children) element.append(render(child, screen));
      return element;
    }
    case "button": case "link": {
      const element = create("button", node.kind === "link" ? "link" : "");
      element.type = "button";
      element.textContent = node.kind === "link" ? node.label + " ›" : node.label;
      element.addEventListener("click", () => work(screen, element._node));
      return element;
    }
    case "textField": {
      const element = create("label", "field");
      const label = create("span");
      label.textContent = node.label;
      const input = create("input");
      input.type = "text";
      input.value = decoded(node.binding.value) ?? "";
      input.addEventListener("input", () => work(screen, element._node, input.value));
      element.append(label, input);
      return element;
    }
    case "toggle": {
      const element = create("label", "toggle");
      const input = create("input");
      input.type = "checkbox";
      input.checked = decoded(node.binding.value) === true;
      const label = create("span");
      label.textContent = node.label;
      input.addEventListener("change", () => work(screen, element._node, input.checked));
      element.append(input, label);
      return element;
    }
    case "stepper": {
      const element = create("div", "stepper");
      element.setAttribute("role", "group");
      const id = "control-" + (++sequence);
      const label = create("label");
      label.htmlFor = id;
      label.textContent = node.label;
      const input = create("input");
      input.type = "number";
      input.id = id;
      input.step = "1";
      const value = () => { const v = decoded((element._node || node).binding.value); return typeof v === "number" ? v : 0; };
      input.value = String(value());
      const minus = button("−", () => work(screen, element._node, value() - 1));
      minus.setAttribute("aria-label", "Decrease " + node.label);
      const plus = button("+", () => work(screen, element._node, value() + 1));
      plus.setAttribute("aria-label", "Increase " + node.label);
      input.addEventListener("change", () => {
        const text = input.value.trim();
        work(screen, element._node, /^-?\d+$/.test(text) ? Number(text) : text);
      });
      element.append(label, minus, input, plus);
      return element;
    }
    case "picker": {
      const element = create("label", "field");
      const label = create("span");
      label.textContent = node.label;
      const select = create("select");
      fillOptions(select, node);
      select.addEventListener("change", () => work(screen, element._node, select.value));
      element.append(label, select);
      return element;
    }
    case "list": {
      const element = create("ul", "list");
      for (const row of node.rows) element.append(renderRow(row, screen));
      return element;
    }
    case "replHint": {
      // What to type in the REPL (relua.ui.replHint): nothing to show on a page, a place kept.
      const element = create("span");
      element.hidden = true;
      return element;
    }
    case "image": {
      const element = create("img");
      element.src = node.url;
      element.alt = node.alt;
      return element;
    }
    default: {
      const element = create("span", "text");
      element.textContent = `(${node.kind})`;
      return element;
    }
  }
}

function fillOptions(select, node) {
  select.replaceChildren();
  const value = decoded(node.binding.value);
  for (const option of node.options) {
    const element = document.createElement("option");
    element.value = option;
    element.textContent = option;
    element.selected = option === value;
    select.append(element);
  }
}

function renderRow(row, screen) {
  const item = document.createElement("li");
  item.dataset.id = row.id;
  item.append(render(row.content, screen));
  row._li = item;
  return item;
}

// `next` takes the place of `old` (whose element is on the page): elements of the same shape are
// kept and updated, so that a field being typed in keeps its focus and caret. Returns `next`.
function reconcile(old, next, screen) {
  if (old.kind !== next.kind || !old._el) return replaceElement(old, next, screen);
  const element = old._el;
  const keep = () => { element._node = next; next._el = element; return next; };
  switch (next.kind) {
    case "text":
      if (element.textContent !== next.text) element.textContent = next.text;
      return keep();
    case "button": case "link": {
      const text = next.kind === "link" ? next.label + " ›" : next.label;
      if (element.textContent !== text) element.textContent = text;
      return keep();
    }
    case "textField": {
      element.querySelector("span").textContent = next.label;
      const input = element.querySelector("input");
      const value = decoded(next.binding.value) ?? "";
      if (document.activeElement !== input && input.value !== value) input.value = value;
      return keep();
    }
    case "toggle":
      element.querySelector("span").textContent = next.label;
      element.querySelector("input").checked = decoded(next.binding.value) === true;
      return keep();
    case "stepper": {
      element.querySelector("label").textContent = next.label;
      const value = decoded(next.binding.value);
      const input = element.querySelector("input");
      if (document.activeElement !== input) input.value = String(typeof value === "number" ? value : 0);
      return keep();
    }
    case "picker":
      element.querySelector("span").textContent = next.label;
      fillOptions(element.querySelector("select"), next);
      return keep();
    case "replHint":
      return keep();
    case "image":
      if (element.getAttribute("src") !== next.url) element.src = next.url;
      element.alt = next.alt;
      return keep();
    case "vstack": case "hstack": case "section": case "toolbar": {
      if (next.kind === "toolbar" && (next.screen || old.screen)) return replaceElement(old, next, screen);
      if (next.kind === "section") element.querySelector("h2").textContent = next.title;
      next.children = next.children.map((child, i) => {
        if (i < old.children.length) return reconcile(old.children[i], child, screen);
        element.append(render(child, screen));
        return child;
      });
      for (const gone of old.children.slice(next.children.length)) if (gone._el) gone._el.remove();
      return keep();
    }
    case "list":
      setRows(old, next.rows.map((r) => r.id), next.rows, screen);
      next.rows = old.rows;
      return keep();
    default:
      return replaceElement(old, next, screen);
  }
}

function replaceElement(old, next, screen) {
  const element = render(next, screen, old._el && old._el.tagName === "PRE");
  if (old._el) old._el.replaceWith(element);
  return next;
}

// A list's rows become `ids` in that order: a row in `given` gets that content (reconciled with
// what it showed under that id), another keeps its own; rows whose id is gone are removed.
function setRows(list, ids, given, screen) {
  const old = new Map(list.rows.map((row) => [row.id, row]));
  const contents = new Map(given.map((row) => [row.id, row.content]));
  const rows = [];
  for (const id of ids) {
    const before = old.get(id);
    const content = contents.get(id);
    if (before && content) {
      before.content = reconcile(before.content, content, screen);
      rows.push(before);
    } else if (before) {
      rows.push(before);
    } else if (content) {
      const row = { id, content };
      renderRow(row, screen);
      rows.push(row);
    }
  }
  const kept = new Set(rows);
  for (const row of list.rows) if (!kept.has(row) && row._li) row._li.remove();
  const element = list._el;
  rows.forEach((row, index) => {
    if (element.children[index] !== row._li) element.insertBefore(row._li, element.children[index] || null);
  });
  list.rows = rows;
}

function applyPatches(screen, patches) {
  for (const patch of patches) {
    const target = nodeAt(screen.tree, patch.at);
    if (!target) { console.warn("a patch for a node that is not there", patch); continue; }
    if (patch.op === "replace") {
      const next = reconcile(target, patch.node, screen);
      if (patch.at.length === 0) {
        screen.tree = next;
      } else {
        const parent = nodeAt(screen.tree, patch.at.slice(0, -1));
        setChild(parent, patch.at[patch.at.length - 1], next);
      }
    } else if (patch.op === "rows" && target.kind === "list") {
      setRows(target, patch.ids || target.rows.map((row) => row.id), patch.rows || [], screen);
    }
  }
}

// MARK: Errors next to the control that caused them

function clearErrors() {
  for (const element of document.querySelectorAll(".control-error")) element.remove();
  document.getElementById("problem").hidden = true;
}

function showError(message) {
  clearErrors();
  const screen = screens.find((s) => s.place === message.screen);
  const node = screen && screen.tree && message.at ? nodeAt(screen.tree, message.at) : null;
  if (node && node._el) {
    const error = document.createElement("span");
    error.className = "error control-error";
    error.setAttribute("role", "alert");
    error.textContent = message.message;
    node._el.insertAdjacentElement("afterend", error);
  } else {
    const problem = document.getElementById("problem");
    problem.textContent = message.message;
    problem.hidden = false;
  }
}

connect();
