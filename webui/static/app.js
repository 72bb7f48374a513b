// The page script: live updates over Server-Sent Events, and the tablet's buttons.
// Every string a player reads comes from the server (templates or the #strings block), so
// this file holds no text of its own.
"use strict";

const body = document.body;
const gameId = body.dataset.game;
const view = body.dataset.view;
const strings = JSON.parse(document.getElementById("strings").textContent);
// The latest game state: the one the page was rendered from, then each from the stream.
const initial = document.getElementById("initial-state");
let state = initial ? JSON.parse(initial.textContent) : null;
let fixing = null;         // {tiles, index, onDone} while the fix dialog is open

function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 6000);
}

// A state-changing request: the cookie carries the table token, the header the CSRF token.
async function send(method, path, payload) {
  const options = {
    method,
    headers: { "X-CSRF-Token": body.dataset.csrf, "Content-Type": "application/json" },
    credentials: "same-origin",
  };
  if (payload !== undefined) options.body = JSON.stringify(payload);
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    toast(`${strings.failed} ${strings.offline}`);
    return null;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    toast(`${strings.failed} ${data.error || response.status}`);
    return null;
  }
  if (data.version) applyState(data);
  return data;
}

const api = (rest) => `/api/games/${gameId}${rest}`;

// --- live updates -------------------------------------------------------------------------
let refreshing = false;
let refreshAgain = false;

// A page fragment, or null while the server is out of reach (the stream's reconnection
// brings the next refresh).
async function fetchText(url) {
  try {
    const response = await fetch(url);
    return response.ok ? await response.text() : null;
  } catch (err) {
    return null;
  }
}

async function refreshPart(el) {
  const html = await fetchText(`/games/${gameId}/part/${el.dataset.part}?view=${view}`);
  if (html !== null) el.innerHTML = html;
}

async function refreshParts() {
  if (refreshing) { refreshAgain = true; return; }
  refreshing = true;
  await Promise.all(Array.from(document.querySelectorAll("[data-part]"), refreshPart));
  refreshing = false;
  if (refreshAgain) { refreshAgain = false; refreshParts(); }
}

function applyState(data) {
  // A new game was started at the table: the table and tablet views follow it.
  if (data.current_game && String(data.current_game) !== gameId && ["table", "tablet"].includes(view)) {
    location.href = `/games/${data.current_game}/${view}`;
    return;
  }
  if (data.version === body.dataset.version) { state = data; return; }
  state = data;
  body.dataset.version = data.version;
  refreshParts();
}

let source = null;

function listen() {
  if (!gameId || (source && source.readyState !== EventSource.CLOSED)) return;
  // Resume from what this page shows: a tablet that slept gets the current state at once.
  const since = encodeURIComponent(body.dataset.version || "");
  source = new EventSource(api(`/events?last_event_id=${since}`));
  const offline = document.getElementById("offline");
  source.addEventListener("state", (event) => {
    offline.hidden = true;
    applyState(JSON.parse(event.data));
  });
  source.onopen = () => { offline.hidden = true; };
  source.onerror = () => {
    offline.hidden = false;
    // The browser retries by itself after a network error, but gives up for good after an
    // HTTP error (say, a proxy's 502 while the server restarts): start a new stream then.
    if (source.readyState === EventSource.CLOSED) setTimeout(listen, 3000);
  };
}

// A tablet waking up: make sure the stream is alive (it may have been dropped while asleep).
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") listen();
});

// --- fixing tiles ------------------------------------------------------------------------
const fixDialog = document.getElementById("fix-dialog");

function openFix(tiles, index, onDone) {
  fixing = { tiles: tiles.map((t) => ({ ...t })), index, onDone };
  const likely = fixDialog.querySelector("[data-likely]");
  likely.replaceChildren();
  for (const alt of tiles[index].alternatives || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.colour = alt.colour;
    button.dataset.shape = alt.shape;
    const label = fixDialog.querySelector(`[data-colour="${alt.colour}"]`);
    const shape = fixDialog.querySelector(`[data-shape="${alt.shape}"]`);
    button.textContent = `${label ? label.textContent.trim() : alt.colour} ${shape ? shape.textContent.trim() : alt.shape}`;
    likely.append(button);
  }
  likely.hidden = !likely.children.length;
  markChoice();
  fixDialog.showModal();
}

function markChoice() {
  const tile = fixing.tiles[fixing.index];
  fixDialog.querySelectorAll("[data-colour]").forEach((b) => {
    b.classList.toggle("chosen", !b.dataset.shape && b.dataset.colour === tile.colour);
  });
  fixDialog.querySelectorAll("[data-shape]").forEach((b) => {
    b.classList.toggle("chosen", !b.dataset.colour && b.dataset.shape === tile.shape);
  });
}

function finishFix(tiles) {
  fixDialog.close();
  const done = fixing.onDone;
  fixing = null;
  done(tiles);
}

if (fixDialog) {
  fixDialog.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || !fixing) return;
    const tile = fixing.tiles[fixing.index];
    if (button.dataset.colour) tile.colour = button.dataset.colour;
    if (button.dataset.shape) tile.shape = button.dataset.shape;
    if (button.dataset.colour || button.dataset.shape) {
      finishFix(fixing.tiles);
    } else if (button.hasAttribute("data-remove")) {
      finishFix(fixing.tiles.filter((_, i) => i !== fixing.index));
    }
  });
}

const plainTiles = (tiles) => tiles.map(({ x, y, colour, shape }) => ({ x, y, colour, shape }));

// --- editing a past turn ------------------------------------------------------------------
const editDialog = document.getElementById("edit-dialog");
let editing = null;  // {index, tiles}

function drawEditTiles() {
  const list = editDialog.querySelector("[data-edit-tiles]");
  list.replaceChildren();
  editing.tiles.forEach((t, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile-button";
    button.dataset.editFix = i;
    button.innerHTML = `<svg class="tile" viewBox="0 0 40 40"><rect class="tile-bg" x="1" y="1" width="38" height="38" rx="6"/><use href="#s-${t.shape}" class="c-${t.colour}"/></svg>`;
    item.append(button);
    list.append(item);
  });
}

function openEdit(index) {
  const turn = state.turns[index];
  editing = { index, tiles: turn.kind === "place" ? turn.tiles.map((t) => ({ ...t })) : [] };
  drawEditTiles();
  editDialog.querySelector("[data-action=save-edit]").hidden = !editing.tiles.length;
  editDialog.showModal();
}

async function saveEdit(turn) {
  editDialog.close();
  await send("PUT", api(`/turns/${editing.index}`), turn);
  editing = null;
}

// --- buttons ------------------------------------------------------------------------------
const actions = {
  confirm: () => send("POST", api("/pending/confirm")),
  dismiss: () => send("POST", api("/pending/dismiss")),
  pass: () => send("POST", api("/turns"), { kind: "pass" }),
  exchange: (b) => {
    document.getElementById("exchange-dialog").close();
    return send("POST", api("/turns"), { kind: "exchange", count: Number(b.dataset.count) });
  },
  undo: () => confirm(strings.undo) && send("POST", api("/undo")),
  void: (b) => confirm(strings.void) && send("DELETE", api(`/turns/${b.dataset.index}`)),
  finish: (b) => {
    document.getElementById("end-dialog").close();
    const seat = b.dataset.wentOut;
    return send("POST", api("/finish"), { went_out: seat === "" ? null : Number(seat) });
  },
  edit: (b) => openEdit(Number(b.dataset.index)),
  "save-edit": () => saveEdit({ kind: "place", tiles: plainTiles(editing.tiles) }),
  "edit-pass": () => saveEdit({ kind: "pass" }),
  "edit-exchange": (b) => saveEdit({ kind: "exchange", count: Number(b.dataset.count) }),
  restore: () => send("POST", api("/ignored/restore"), {}),
  "table-check": () => send("POST", api("/table/check"), {}),
  "table-accept": (b) => send("POST", api("/table/accept"),
    b.dataset.x === undefined ? {} : { cells: [[Number(b.dataset.x), Number(b.dataset.y)]] }),
};

document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-action], [data-open], [data-fix], [data-edit-fix]");
  if (!target || target.disabled) return;
  if (target.dataset.action) {
    actions[target.dataset.action](target);
  } else if (target.dataset.open) {
    document.getElementById(target.dataset.open).showModal();
  } else if (target.dataset.editFix !== undefined) {
    openFix(editing.tiles, Number(target.dataset.editFix), (tiles) => {
      editing.tiles = tiles;
      drawEditTiles();
    });
  } else if (target.dataset.fix !== undefined && state && state.pending && body.dataset.csrf) {
    openFix(state.pending.tiles, Number(target.dataset.fix), (tiles) => {
      if (tiles.length) send("POST", api("/pending"), { tiles: plainTiles(tiles) });
      else send("POST", api("/pending/dismiss"));
    });
  }
});

// --- joining, set-up, language ------------------------------------------------------------
const joinForm = document.querySelector("[data-join]");
if (joinForm) {
  joinForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    let response;
    try {
      response = await fetch("/api/join", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ pin: joinForm.pin.value }),
      });
    } catch (err) {
      toast(strings.offline);
      return;
    }
    const data = await response.json().catch(() => ({}));
    if (response.ok) location.reload();
    else toast(data.error || response.status);
  });
}

const setupForm = document.querySelector("[data-setup]");
if (setupForm) {
  setupForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = Array.from(setupForm.querySelectorAll("[name=player]"), (i) => i.value.trim())
      .filter(Boolean);
    const sixth = setupForm.querySelector("[name=sixth]:checked").value;
    const colours = ["red", "orange", "yellow", "green", "blue", sixth];
    const data = await send("POST", "/api/games", { players, colours });
    if (data) location.href = `/games/${data.id}/tablet`;
  });
}

// The set-up page has no game to stream: its camera check polls the camera's status.
const cameraPart = document.querySelector("[data-camera-part]");
if (cameraPart) {
  setInterval(async () => {
    const html = await fetchText("/part/camera");
    if (html !== null) cameraPart.innerHTML = html;
  }, 2000);
}

const joined = document.querySelector("[data-joined]");
if (joined) location.replace(joined.dataset.joined);

const languageMenu = document.querySelector("[data-language-menu]");
if (languageMenu) {
  languageMenu.querySelector("select").addEventListener("change", () => languageMenu.submit());
}

listen();
