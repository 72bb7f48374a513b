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

// A translated string from the #strings block with its %(key)s fields filled in; names are
// wrapped in bidi isolates so they keep their place in any script.
function fmt(key, values) {
  return strings[key].replace(/%\((\w+)\)s/g, (_, name) => {
    const value = String(values[name]);
    return name === "name" ? `\u2068${value}\u2069` : value;
  });
}

// In-page confirmation (never the browser's confirm()): resolves true when the player says yes.
// staleWhen as for openWatched: a question the game moved on from closes as a No.
function ask(message, staleWhen = null) {
  const dialog = document.getElementById("ask-dialog");
  dialog.querySelector("[data-ask-text]").textContent = message;
  dialog.returnValue = "";
  openWatched(dialog, staleWhen);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

// The language this page was drawn in: its parts are asked for in it (see select_locale).
const pageLanguage = encodeURIComponent(document.documentElement.lang);

// After Undo or Remove: what was taken away, with a Redo that puts it back where it was.
// Kept for the tab (sessionStorage) while it is offered: a reload in those seconds must not
// lose an undone exchange, which the camera cannot offer again as it does tiles.
const REDO_MS = 20000;
const REDO_KEY = "qwirkle-redo";
let redoTurn = null;
// Answers how many pixels of room the notice took (see roomForNotice).
function offerRedo(message, turn, until = Date.now() + REDO_MS) {
  const notice = document.getElementById("notice");
  if (!notice) return 0;
  redoTurn = turn;
  sessionStorage.setItem(REDO_KEY, JSON.stringify({ game: gameId, message, turn, until }));
  notice.querySelector("[data-notice-text]").textContent = message;
  notice.querySelector("[data-action=redo]").textContent = turn.edited ? strings.undo_edit : strings.redo;
  notice.hidden = false;
  clearTimeout(offerRedo.timer);
  offerRedo.timer = setTimeout(clearRedo, until - Date.now());
  return roomForNotice(notice);
}

function clearRedo() {
  const notice = document.getElementById("notice");
  if (notice) notice.hidden = true;
  redoTurn = null;
  sessionStorage.removeItem(REDO_KEY);
  if (notice) roomForNotice(notice);
}

// The notice floats above the Confirm bar for 20 seconds: while it shows, the page ends that
// much lower (--notice), so every line of it can be scrolled clear of the notice. Answers
// the room added, by which a page that just offered it moves up: what was being read above
// the bar stays in view instead of going under the notice.
function roomForNotice(notice) {
  const before = parseFloat(body.style.getPropertyValue("--notice")) || 0;
  const room = notice.hidden ? 0 : Math.ceil(notice.getBoundingClientRect().height) + 12;
  body.style.setProperty("--notice", `${room}px`);
  return room - before;
}

// The Redo this tab offered before a reload, for the rest of its time.
function offerRedoAgain() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(REDO_KEY));
  } catch (err) {
    kept = null;
  }
  if (kept && kept.game === gameId && kept.until > Date.now()) {
    offerRedo(kept.message, kept.turn, kept.until);
    if (state) redoStillFits(state);
  } else {
    sessionStorage.removeItem(REDO_KEY);
  }
}

// --- dialogs the game moves on under ------------------------------------------------------
// A dialog is about the game as it was when it opened: the move shown, the turns. Should
// another device (or the camera) change that meanwhile, what the dialog would send is
// refused ("there is no move waiting for confirmation"), or acts on what nobody looked at.
// So each dialog opens with a staleWhen(state) that names, once the game moved on, the
// string that says how; the dialog then closes and says it.
function openWatched(dialog, staleWhen) {
  dialog.staleWhen = staleWhen;
  dialog.opener = likeOf(document.activeElement);
  dialog.showModal();
}

// --- where the keyboard's focus goes ------------------------------------------------------
// A part drawn afresh replaces the button a player was on (the tile just fixed, Undo, the
// button that opened a dialog): the focus fell to the top of the page, where a keyboard or a
// screen reader started again. It goes to the same button drawn anew (by its data-*), else to
// one that does the same, else to the part itself.
const FOCUS_KEYS = ["action", "fix", "add", "open", "aside", "editFix", "index", "count"];

function likeOf(el) {
  const part = el && el.closest ? el.closest("[data-part]") : null;
  if (!part) return [];
  const data = FOCUS_KEYS.filter((key) => el.dataset && el.dataset[key] !== undefined);
  const attr = (key) => `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(el.dataset[key])}"]`;
  const tag = el.tagName.toLowerCase();
  const likes = data.length ? [tag + data.map(attr).join(""), tag + attr(data[0])] : [];
  return [...likes, `[data-part="${part.dataset.part}"]`];
}

function focusLike(likes) {
  for (const selector of likes) {
    const found = document.querySelector(selector);
    if (!found || !found.getClientRects().length || found.disabled) continue;
    if (found.matches("[data-part]")) found.tabIndex = -1;
    found.focus({ preventScroll: true });
    return;
  }
}

// Focus left on nothing (the page's body), as a part drawn afresh or a closed dialog leaves it.
const focusLost = () => !document.activeElement || document.activeElement === body;

document.addEventListener("close", (event) => {
  if (focusLost() && event.target.opener) focusLike(event.target.opener);
}, true);

function closeStaleDialogs(data) {
  let why = null;
  for (const dialog of document.querySelectorAll("dialog[open]")) {
    const stale = dialog.staleWhen ? dialog.staleWhen(data) : null;
    if (stale) {
      dialog.close();
      why = why || stale;
    }
  }
  if (why) toast(strings[why]);
}

// The tiles of a move or a turn as "x,y,code" items, the pending move's key's own parts.
const tileItems = (tiles) => (tiles || []).map((t) => `${t.x},${t.y},${t.code}`).sort().join(";");
const sortedKey = (key) => key.split(";").sort().join(";");

// What became of the move shown as key when the fix dialog opened on it, once another
// move (or none) is shown: confirmed, set aside ("not a move"), or changed.
function whatBecameOf(key, turns, data) {
  if (data.ended) return "stale_ended";
  if (data.pending && data.pending.key === key) return null;
  const last = data.turns[data.turns.length - 1];
  if (data.turns.length > turns && last && tileItems(last.tiles) === sortedKey(key)) {
    return "stale_confirmed";
  }
  const aside = new Set(tileItems(data.ignored).split(";"));
  if (key.split(";").every((item) => aside.has(item))) return "stale_dismissed";
  return "stale_changed";
}

// A dialog that names the turns it saw (an exchange, an edit, Undo and Remove): the server
// refuses it once they changed, and an ended game takes no exchange.
const turnsMovedOn = (turns, endedToo = false) => (data) => {
  if (endedToo && data.ended) return "stale_ended";
  return data.turns.length !== turns ? "stale_turns" : null;
};

// A state-changing request: the cookie carries the table token, the header the CSRF token.
// Answers the new state, or null when refused; refused(answer), where given, hears why.
async function send(method, path, payload, refused = null) {
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
  if (!response.ok && data.reason_code === "not_joined") return joinAgain();
  if (!response.ok) {
    toast(`${strings.failed} ${data.error || response.status}`);
    // Refused because the game changed meanwhile (another tablet answered first): show it
    // as it is now, even while the live stream is down and would not bring the change.
    if (response.status === 409 && gameId) await refreshState();
    if (refused) await refused(data);
    return null;
  }
  if (data.version) applyState(data);
  return data;
}

// A device no longer joined (another one asked for a New PIN) was told to enter the PIN on a
// page drawn with no PIN box: drawn afresh from the top, the page asks for it there.
function joinAgain() {
  history.scrollRestoration = "manual";
  location.reload();
  return null;
}

async function refreshState() {
  try {
    const response = await fetch(api("/state"));
    if (response.ok) applyState(await response.json());
  } catch (err) {
    // out of reach: the stream, once it reconnects, brings the state
  }
}

const api = (rest) => `/api/games/${gameId}${rest}`;

// The move a button was drawn for: the server refuses the tap if another move is shown by
// then (a double tap, a second tablet), rather than confirm a move nobody looked at.
const shownBy = (button) => ({ shown: button.closest("[data-shown]").dataset.shown });

// --- live updates -------------------------------------------------------------------------
let redraw = null;        // the redraw under way (a promise), null when none is
let redrawAgain = false;  // the state changed during it: it goes round once more

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
  // in the page's own language, whatever another tab has since chosen (see select_locale)
  const html = await fetchText(`/games/${gameId}/part/${el.dataset.part}?view=${view}&lang=${pageLanguage}`);
  if (html === null) return;
  // The move card keeps its height once its move is answered, until the next move shows:
  // fallen to "No move waiting", it moved Undo and End game by hundreds of pixels under a
  // finger, and again when the next move came.
  const was = el.querySelector(".pending")?.offsetHeight || 0;
  const focused = el.contains(document.activeElement) ? likeOf(document.activeElement) : [];
  el.innerHTML = html;
  if (focused.length && focusLost()) focusLike(focused);
  const empty = el.querySelector(".pending.empty");
  if (empty && was) empty.style.setProperty("--kept", `${was}px`);
}

// The TV shows a new turn's score large for a few seconds.
let lastTurnSeen = null;
function flashLastMove() {
  const last = document.querySelector(".tv .last-move");
  const index = last ? Number(last.dataset.lastTurn) : -1;
  const flash = document.getElementById("flash");
  if (flash && last && lastTurnSeen !== null && index > lastTurnSeen) {
    flash.replaceChildren(last.cloneNode(true));
    flash.hidden = false;
    clearTimeout(flashLastMove.timer);
    flashLastMove.timer = setTimeout(() => { flash.hidden = true; }, 5000);
  }
  lastTurnSeen = index;
}

const LEAST_BOARD_PX = 180;  // about four rows: less is no board to look at; scroll instead
function fitAboveBar(scroll) {
  scroll.style.maxHeight = "";
  const bar = document.querySelector("[data-action-bar]");
  if (!bar || !scroll.closest(".pending")) return;
  const barTop = bar.getBoundingClientRect().top;
  const frame = scroll.getBoundingClientRect();
  if (barTop >= innerHeight || frame.top >= barTop) return;  // a bar at the side, or a page scrolled on
  const room = barTop - frame.top - 8;
  if (room < frame.height && room >= LEAST_BOARD_PX) scroll.style.maxHeight = `${room}px`;
}

// The TV's side column hides what runs past its foot: the waiting move's doubt (app.css)
// gives up lines, three down to one, until the rest of its card fits under the scores. (It
// is measured held at its height: given way, the card would always seem to fit.)
function fitTvDoubt() {
  const card = document.querySelector(".tv-side .pending"), doubt = card?.querySelector(".doubt");
  if (!doubt) return;
  doubt.style.flexShrink = "0";
  for (let lines = 3; lines >= 1; lines--) {
    doubt.style.setProperty("--doubt-lines", lines);
    if (card.scrollHeight <= card.clientHeight) break;
  }
  doubt.style.flexShrink = "";
}

// Nobody scrolls a TV: the winner card's type (app.css, --winner-fit) gives way in steps
// until the card shows whole. With six 24-letter names on a 1280 x 720 or 1024 x 768
// screen its last lines (the end bonus, part of the best turn) lay out of sight inside it.
const LEAST_WINNER_FIT = 0.6;
function fitTvWinner() {
  const card = document.querySelector(".tv.ended .winner");
  if (!card) return;
  for (let fit = 1; fit >= LEAST_WINNER_FIT; fit -= 0.05) {
    card.style.setProperty("--winner-fit", fit);
    if (card.scrollHeight <= card.clientHeight) break;
  }
}

// What the TV fits to its screen, redone whenever its parts or the screen change.
function fitTv() {
  fitTvDoubt();
  fitTvWinner();
}
fitTv();
window.addEventListener("resize", fitTv);
document.fonts?.ready.then(fitTv);  // a web font set late changes the lines

// A board bigger than its box (its + cells stay a finger wide) scrolls to the move waiting,
// or to its middle for a move entered by hand, across and down. On a phone the box ends
// above the Confirm bar where there is room: a board game's 16 rows under a warning ran
// behind the bar, and the move's own row, the board's last, lay under it.
function showWaitingTiles() {
  for (const scroll of document.querySelectorAll(".board-scroll")) {
    fitAboveBar(scroll);
    const fits = scroll.scrollWidth <= scroll.clientWidth && scroll.scrollHeight <= scroll.clientHeight;
    if (fits) continue;
    const tiles = Array.from(scroll.querySelectorAll(".new"), (t) => t.getBoundingClientRect());
    const board = scroll.querySelector("svg").getBoundingClientRect();
    const left = tiles.length ? Math.min(...tiles.map((b) => b.left)) : board.left;
    const right = tiles.length ? Math.max(...tiles.map((b) => b.right)) : board.right;
    const top = tiles.length ? Math.min(...tiles.map((b) => b.top)) : board.top;
    const bottom = tiles.length ? Math.max(...tiles.map((b) => b.bottom)) : board.bottom;
    const frame = scroll.getBoundingClientRect();
    scroll.scrollLeft += (left + right) / 2 - (frame.left + frame.width / 2);
    scroll.scrollTop += (top + bottom) / 2 - (frame.top + frame.height / 2);
  }
  markAllHiddenSides();
}

// The sides of a board's box beyond which some of it lies out of sight fade out (app.css),
// as it opens and as players scroll: nothing else said that tiles lay off to the side.
function markHiddenSides(scroll) {
  const x = scroll.scrollLeft, y = scroll.scrollTop;
  scroll.classList.toggle("more-left", x > 1);
  scroll.classList.toggle("more-right", x + scroll.clientWidth < scroll.scrollWidth - 1);
  scroll.classList.toggle("more-up", y > 1);
  scroll.classList.toggle("more-down", y + scroll.clientHeight < scroll.scrollHeight - 1);
}
const markAllHiddenSides = () => document.querySelectorAll(".board-scroll").forEach(markHiddenSides);
showWaitingTiles();
document.addEventListener("toggle", showWaitingTiles, true);  // "Enter it by hand" opened
window.addEventListener("resize", markAllHiddenSides);  // a phone turned
document.addEventListener("scroll", (event) => {  // (a box's scroll reaches here only so)
  if (event.target.classList?.contains("board-scroll")) markHiddenSides(event.target);
}, true);

// A phone held sideways has room for the header, the turn and the move's title, not the move:
// a move that arrives (or is waiting when the page opens) below the fold is scrolled up to the
// top, once per move, so that what Confirm confirms is in sight beside it.
const SHORT_SCREEN = window.matchMedia("(orientation: landscape) and (max-height: 540px)");
let moveBroughtUp = null;
function bringUpWaitingMove() {
  const card = document.querySelector(".view-tablet .pending[data-shown]");
  const key = card ? card.dataset.shown : null;
  if (!card || key === moveBroughtUp || !SHORT_SCREEN.matches) return;
  moveBroughtUp = key;
  const board = card.querySelector(".board-scroll, svg.board");
  if (board && board.getBoundingClientRect().top > innerHeight / 2) card.scrollIntoView({ block: "start" });
}
bringUpWaitingMove();

// A screen reader hears the move waiting in one line (its card's data-said, then why the
// game refuses it) when one comes up or it changes (a tile fixed), not at each redraw; nor
// the one the page opened on, which it reads with the page. Answers [the move, its line].
function waitingMoveSaid() {
  const card = document.querySelector("[data-said]");
  if (!card) return ["", ""];
  const reason = card.querySelector(".reason");
  return [card.dataset.shown, card.dataset.said + (reason ? reason.textContent.trim() : "")];
}
let moveSaid = waitingMoveSaid().join("\n");
function sayWaitingMove() {
  const [move, said] = waitingMoveSaid();
  if (said && `${move}\n${said}` !== moveSaid) document.getElementById("said").textContent = said;
  moveSaid = `${move}\n${said}`;
}

// Answers a promise settled once the parts show the latest state, for what must be done
// on the page as redrawn (see keepAboveNotice).
function refreshParts() {
  if (redraw) {
    redrawAgain = true;
    return redraw;
  }
  redraw = (async () => {
    do {
      redrawAgain = false;
      await Promise.all(Array.from(document.querySelectorAll("[data-part]"), refreshPart));
      showWaitingTiles();
      fitTv();
      bringUpWaitingMove();
      sayWaitingMove();
      flashLastMove();
    } while (redrawAgain);
    redraw = null;
  })();
  return redraw;
}

// Redo is offered only while the turns are as the undo left them: once another device has
// confirmed, entered or taken back a turn, the server would refuse it (it might put back a
// turn entered again meanwhile), so the offer goes rather than fail when tapped. An edit's
// Undo names the turn as edited (see saveEdit): it stays while other turns come and go, and
// goes once another device changes that turn (it would overwrite that change). Neither is
// offered once the game ended: tapped, it got "the game is over".
function redoStillFits(data) {
  if (!redoTurn || !data.turns) return;
  const stale = redoTurn.edited
    ? turnWas(data.turns[redoTurn.index]) !== turnWas(redoTurn.edited)
    : data.turns.length !== redoTurn.turns;
  if (stale || data.ended) clearRedo();
}

function applyState(data) {
  // A new game was started at the table: the table and tablet views follow it.
  if (data.current_game && String(data.current_game) !== gameId && ["table", "tablet"].includes(view)) {
    location.href = `/games/${data.current_game}/${view}`;
    return;
  }
  redoStillFits(data);
  closeStaleDialogs(data);
  if (data.version === body.dataset.version) { state = data; return; }
  state = data;
  body.dataset.version = data.version;
  // The TV's winner card stands over the board once the game ended, as on a fresh load.
  document.querySelector(".tv")?.classList.toggle("ended", Boolean(data.ended));
  previewWhilePlaying(Boolean(data.ended));
  refreshParts();
}

let source = null;
const ASSETS_KEY = "qwirkle-assets-reloaded";

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
  // Each stream first names the script the server now serves: a page left open through an
  // upgrade of the app reloads, once (should a reload still bring the old page, say from a
  // cache, it does not try again for that version); not while a dialog is open, where a
  // player may be half-way through a fix (a later stream tries again).
  source.addEventListener("hello", (event) => {
    const served = JSON.parse(event.data).assets;
    if (body.dataset.assets && served !== body.dataset.assets && !document.querySelector("dialog[open]")
        && sessionStorage.getItem(ASSETS_KEY) !== served) {
      sessionStorage.setItem(ASSETS_KEY, served);
      location.reload();
    }
  });
  // The server ends every stream after a while and says so: connect again at once, as
  // planned, rather than wait for the error and the browser's retry ("Connection lost"
  // would show for 2 s each time on a TV that is only following the game).
  source.addEventListener("end", () => {
    source.close();
    listen();
  });
  source.onopen = () => { offline.hidden = true; };
  source.onerror = () => {
    offline.hidden = false;
    // The browser retries by itself after a network error, but gives up for good after an
    // HTTP error (say, a proxy's 502 while the server restarts): start a new stream then.
    if (source.readyState === EventSource.CLOSED) setTimeout(listen, 3000);
  };
}

// Safari may show a page from its back-forward cache as it was left, with its stream
// closed and its buttons drawn for a game that has moved on: draw it afresh instead.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) location.reload();
});

// A tablet waking up: make sure the stream is alive (it may have been dropped while asleep).
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") flashLastMove();
  listen();
});

// --- fixing tiles ------------------------------------------------------------------------
// A likely reading is one tap; otherwise pick colour and shape (in any order) and "Use this
// tile". Every label is built from the same names as the colour and shape buttons.
const fixDialog = document.getElementById("fix-dialog");

function tileSvg(colour, shape, extra = "") {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", `tile ${extra}`);
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = `<rect class="tile-bg" x="1" y="1" width="38" height="38" rx="6"/><use href="#s-${shape}" class="c-${colour}"/>`;
  return svg;
}

function tileName(colour, shape) {
  const c = fixDialog.querySelector(`[data-pick-colour="${colour}"]`);
  const s = fixDialog.querySelector(`[data-pick-shape="${shape}"]`);
  return `${c ? c.getAttribute("aria-label") : colour} ${s ? s.getAttribute("aria-label") : shape}`;
}

function openFix(tiles, index, onDone, staleWhen) {
  fixing = { tiles: tiles.map((t) => ({ ...t })), index, onDone };
  // A tile added where the camera saw none has no label yet, and nothing to remove.
  const adding = !tiles[index].colour;
  fixDialog.querySelector("[data-remove]").hidden = adding;
  fixDialog.querySelector("#fix-title").firstChild.textContent =
    `${adding ? strings.add_tile : strings.fix_tile} `;
  const likely = fixDialog.querySelector("[data-likely]");
  likely.replaceChildren();
  for (const alt of tiles[index].alternatives || []) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.likelyColour = alt.colour;
    button.dataset.likelyShape = alt.shape;
    const label = tileName(alt.colour, alt.shape);
    button.setAttribute("aria-label", label);
    button.append(tileSvg(alt.colour, alt.shape, "small"), label);
    likely.append(button);
  }
  fixDialog.querySelector("[data-likely-box]").hidden = !likely.children.length;
  markChoice();
  openWatched(fixDialog, staleWhen);
}

// A choice shown chosen by its outline, and said so to a screen reader.
function choose(button, chosen) {
  button.classList.toggle("chosen", chosen);
  button.setAttribute("aria-pressed", String(chosen));
}

function markChoice() {
  const tile = fixing.tiles[fixing.index];
  fixDialog.querySelectorAll("[data-pick-colour]").forEach((b) => choose(b, b.dataset.pickColour === tile.colour));
  fixDialog.querySelectorAll("[data-pick-shape]").forEach((b) => choose(b, b.dataset.pickShape === tile.shape));
  const preview = fixDialog.querySelector("[data-fix-preview]");
  const whole = Boolean(tile.colour && tile.shape);
  preview.replaceChildren(...(whole ? [tileSvg(tile.colour, tile.shape)] : []));
  preview.setAttribute("aria-label", whole ? tileName(tile.colour, tile.shape) : "");
  fixDialog.querySelector("[data-fix-use]").disabled = !whole;
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
    const data = button.dataset;
    if (data.likelyColour) {
      Object.assign(tile, { colour: data.likelyColour, shape: data.likelyShape });
      finishFix(fixing.tiles);
    } else if (data.pickColour || data.pickShape) {
      if (data.pickColour) tile.colour = data.pickColour;
      if (data.pickShape) tile.shape = data.pickShape;
      markChoice();
    } else if (button.hasAttribute("data-fix-use")) {
      finishFix(fixing.tiles);
    } else if (button.hasAttribute("data-remove")) {
      finishFix(fixing.tiles.filter((_, i) => i !== fixing.index));
    }
  });
}

const plainTiles = (tiles) => tiles.map(({ x, y, colour, shape }) => ({ x, y, colour, shape }));

// --- editing a past turn ------------------------------------------------------------------
const editDialog = document.getElementById("edit-dialog");
// {index, tiles, was}: was, the turn as the edit began; for the start, index "start" and
// was {tiles}, the start as the edit began.
let editing = null;

function drawEditTiles() {
  const list = editDialog.querySelector("[data-edit-tiles]");
  list.replaceChildren();
  editing.tiles.forEach((t, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile-button";
    button.dataset.editFix = i;
    // named as the move card's tiles are: a picture alone was a button with no name
    button.setAttribute("aria-label", tileName(t.colour, t.shape));
    button.append(tileSvg(t.colour, t.shape));
    item.append(button);
    list.append(item);
  });
}

// A turn (or the start, as {tiles}) in words that compare equal when nothing of it changed.
// With its id: an exchange or a pass that another device's removal moved into its place is
// its like in every other way.
const turnWas = (turn) => (turn ? `${turn.id} ${turn.kind} ${turn.count} ${tileItems(turn.tiles)}` : "");

// The question before Undo or Remove is stale once the turns changed (the server refuses
// it), this turn did (a Redo would put the turn back as it was before another device's
// edit), or the game ended (its turns are final there; Play on opens them again).
function turnMovedOn(index, turns, turn) {
  const was = turnWas(turn);
  const byCount = turnsMovedOn(turns, true);
  return (data) => byCount(data) || (turnWas(data.turns[index]) === was ? null : "stale_turns");
}

// An edit names what it began from (see saveEdit): a turn, or the board game's start as
// {tiles}. So turns confirmed or taken back after it leave it open: at a busy table one
// always is, and the fixes made so far were lost. It is stale once what it edits (`of` the
// state) changed or went, or another turn took its place (a turn before it removed), or the
// game ended.
const editedChanged = (of, was, stale) => (data) => {
  if (data.ended) return "stale_ended";
  return turnWas(of(data)) === turnWas(was) ? null : stale;
};

// The board game's start is edited in the same dialog, its tiles' labels only: it is no
// one's turn, and every turn is judged again with it once saved.
function openStartEdit() {
  const was = { tiles: state.start };
  editing = { index: "start", was, tiles: state.start.map((t) => ({ ...t })),
    staleWhen: editedChanged((data) => ({ tiles: data.start }), was, "stale_start") };
  drawEditTiles();
  editDialog.querySelector("[data-edit-title]").textContent = fmt("edit_start_title", {});
  editDialog.querySelector("[data-edit-now]").textContent = "";
  editDialog.querySelector("[data-action=save-edit]").disabled = false;
  editDialog.querySelector("[data-action=save-edit]").hidden = false;
  editDialog.querySelector("[data-edit-hint]").hidden = false;
  editDialog.querySelector("[data-action=edit-pass]").hidden = true;
  editDialog.querySelector("[data-edit-exchange]").hidden = true;
  openWatched(editDialog, editing.staleWhen);
}

// now: what the turn is, in words, from its Edit button (counted with plural forms there).
function openEdit(index, now) {
  const turn = state.turns[index];
  editing = { index, was: turn,
    tiles: turn.kind === "place" ? turn.tiles.map((t) => ({ ...t })) : [],
    staleWhen: editedChanged((data) => data.turns[index], turn, "stale_turn") };
  drawEditTiles();
  const name = state.players[turn.player].name;
  editDialog.querySelector("[data-edit-title]").textContent = fmt("edit_title", { n: index + 1, name });
  editDialog.querySelector("[data-edit-now]").textContent = now;
  editDialog.querySelector("[data-edit-now]").classList.remove("reason");
  editDialog.querySelector("[data-action=save-edit]").disabled = false;
  // Only what can be saved: tiles to fix for a placement; a pass only once the bag is empty.
  editDialog.querySelector("[data-action=save-edit]").hidden = !editing.tiles.length;
  editDialog.querySelector("[data-edit-hint]").hidden = !editing.tiles.length;
  // Only what that turn could have been: the bag as it was then, not as it is now.
  editDialog.querySelector("[data-action=edit-pass]").hidden = turn.kind === "pass" || turn.bag_before > 0;
  editDialog.querySelector("[data-edit-exchange]").hidden = turn.bag_before === 0;
  editDialog.querySelectorAll("[data-action=edit-exchange]").forEach((b) => {
    b.hidden = Number(b.dataset.count) > turn.bag_before;
    choose(b, turn.kind === "exchange" && Number(b.dataset.count) === turn.count);
  });
  openWatched(editDialog, editing.staleWhen);
}

// After each fix the dialog says what the turn would become, or why the game would refuse
// it, and holds Save back meanwhile: it went on saying what the turn was ("Now: 3 tiles for 3
// points") above a Save that the server then refused, which closed it and lost the fixes.
async function checkEdit() {
  const asked = editing;
  const check = (asked.checks = (asked.checks || 0) + 1);
  const save = editDialog.querySelector("[data-action=save-edit]");
  const now = editDialog.querySelector("[data-edit-now]");
  save.hidden = !asked.tiles.length;
  save.disabled = true;
  now.classList.remove("reason");
  if (!asked.tiles.length || asked.index === "start") { save.disabled = false; return; }
  const data = await send("POST", api(`/turns/${asked.index}/check`),
    { kind: "place", tiles: plainTiles(asked.tiles) });
  if (editing !== asked || asked.checks !== check) return;  // a later fix asked again
  save.disabled = Boolean(data) && !data.legal;  // unanswered: the server judges the Save
  if (!data) return;
  now.textContent = data.said;
  now.classList.toggle("reason", !data.legal);
}

// A saved edit offers Undo in the Redo notice: one tap on "Make it an exchange of: 3" took a
// placement's tiles out of the game, and no edit of an exchange can lay them again. Each
// names the turn it changes as it found it ("was", with its id): the server refuses it once
// another device changed that turn, or removed it and moved a like one into its place, where
// the later of two edits silently undid the earlier.
async function saveEdit(turn) {
  editDialog.close();
  const { index, was } = editing;
  editing = null;
  if (index === "start") {
    await send("PUT", api("/start"), { tiles: turn.tiles, was });
    return;
  }
  const data = await send("PUT", api(`/turns/${index}`), { ...turn, was });
  if (!data) return;
  const values = { n: index + 1, name: state.players[was.player].name };
  window.scrollBy(0, offerRedo(fmt("edited", values), { index, turn: was, edited: data.turns[index] }));
}

// Undo and Remove take a turn away after an in-page question, then offer Redo. Both say
// which turns the question was about, and the id of the turn it named: if another device
// took one back or added one meanwhile, the server refuses rather than take back a turn
// nobody was asked about. The question closes too once another device edits that turn:
// answered Yes, its Redo put the turn back as it was asked about, and that edit was lost.
async function takeBack(index, question, done) {
  const turn = state.turns[index];
  const turns = state.turns.length;
  const values = { n: index + 1, name: state.players[turn.player].name };
  if (!(await ask(fmt(question, values), turnMovedOn(index, turns, turn)))) return;
  const sent = done === "undone"
    ? send("POST", api("/undo"), { index, id: turn.id })
    : send("DELETE", api(`/turns/${index}`), { turns, id: turn.id });
  const data = await sent;
  if (data) {
    window.scrollBy(0, offerRedo(fmt(done, values), { index, turn, turns: data.turns.length }));
    // Not awaited: act() takes no other tap until this returns, and Redo may come first.
    Promise.resolve(redraw).then(() => keepAboveNotice(document.querySelector(".other-turns .bag")));
  }
}

// The bag's count under Undo says what the undo gave back, so it shows while the Redo
// notice does: the tiles undone still lie on the table, and the camera's offer of them,
// drawn above, pushed the count down under the notice (or the Confirm bar) for its seconds.
function keepAboveNotice(el) {
  const notice = document.getElementById("notice");
  if (!el || !notice || notice.hidden) return;
  const under = el.getBoundingClientRect().bottom + 12 - notice.getBoundingClientRect().top;
  if (under > 0) window.scrollBy(0, under);
}

// The bag decides what the exchange and end dialogs offer. An exchange names the turns it
// saw; the end dialog follows the bag while it is open (the move that empties it, confirmed
// on another tablet, makes "who went out" a choice), says whether a move still waits, and
// closes once the game ended.
function openDialog(id) {
  const dialog = document.getElementById(id);
  const turns = state ? state.turns.length : 0;
  dialog.dataset.turns = turns;
  fitToState(dialog, state || { bag_size: 0, pending: null });
  const staleWhen = id === "exchange-dialog" ? turnsMovedOn(turns, true)
    : (data) => { fitToState(dialog, data); return data.ended ? "stale_ended" : null; };
  openWatched(dialog, staleWhen);
}

function fitToState(dialog, data) {
  const bag = data.bag_size;
  dialog.querySelectorAll("[data-action=exchange]").forEach((b) => {
    b.hidden = Number(b.dataset.count) > bag;
  });
  const wentOut = dialog.querySelector("[data-went-out-choices]");
  if (wentOut) {
    // Only the player who laid the last turn's tiles can have emptied their hand.
    const seat = data.went_out_seat ?? null;
    wentOut.querySelectorAll("[data-went-out]").forEach((b) => {
      b.hidden = Number(b.dataset.wentOut) !== seat;
    });
    wentOut.hidden = bag > 0 || seat === null;
    dialog.querySelector("[data-bag-note]").hidden = bag === 0;
    dialog.querySelector("[data-pending-note]").hidden = !data.pending;
  }
}

// --- buttons ------------------------------------------------------------------------------
const actions = {
  confirm: (b) => { clearRedo(); return send("POST", api("/pending/confirm"), shownBy(b)); },
  dismiss: (b) => send("POST", api("/pending/dismiss"), shownBy(b)),
  swap: (b) => send("POST", api("/pending/swap"), shownBy(b)),
  part: (b) => send("POST", api("/pending/part"), shownBy(b)),
  join: (b) => send("POST", api("/pending/join"), shownBy(b)),
  // Both name the turns shown (for an exchange, when its dialog opened): should another
  // tablet enter the same exchange first, the server refuses the second.
  pass: () => send("POST", api("/turns"), { kind: "pass", turns: state.turns.length }),
  exchange: (b) => {
    const dialog = document.getElementById("exchange-dialog");
    dialog.close();
    return send("POST", api("/turns"),
      { kind: "exchange", count: Number(b.dataset.count), turns: Number(dialog.dataset.turns) });
  },
  undo: (b) => takeBack(Number(b.dataset.index), "ask_undo", "undone"),
  void: (b) => takeBack(Number(b.dataset.index), "ask_void", "removed"),
  redo: async () => {
    const taken = redoTurn;
    clearRedo();
    if (taken && taken.edited) {
      await send("PUT", api(`/turns/${taken.index}`), { ...taken.turn, was: taken.edited });
    } else if (taken) {
      await send("POST", api("/redo"), taken);
    }
  },
  finish: (b) => {
    document.getElementById("end-dialog").close();
    const seat = b.dataset.wentOut;
    return send("POST", api("/finish"), { went_out: seat === "" ? null : Number(seat) });
  },
  edit: (b) => openEdit(Number(b.dataset.index), b.dataset.now),
  "edit-start": () => openStartEdit(),
  "save-edit": () => saveEdit({ kind: "place", tiles: plainTiles(editing.tiles) }),
  "edit-pass": () => saveEdit({ kind: "pass" }),
  "edit-exchange": (b) => saveEdit({ kind: "exchange", count: Number(b.dataset.count) }),
  // The tiles set aside that were tapped, or all of them when none was.
  restore: (b) => {
    const chosen = Array.from(b.closest("[data-reconcile]").querySelectorAll("[data-aside][aria-pressed=true]"),
      (t) => t.dataset.aside.split(",").map(Number));
    return send("POST", api("/ignored/restore"), chosen.length ? { cells: chosen } : {});
  },
  "table-check": () => send("POST", api("/table/check"), {}),
  // Asked first, for one tile as for the whole table: one tap by a guest could take a scored
  // turn out of the game. Each names the boards shown, so a view that changed meanwhile is
  // not applied unseen.
  "table-accept": async (b) => {
    const shown = b.closest("[data-view]").dataset.view;
    const one = b.dataset.x !== undefined;
    const changes = one ? 1 : Number(b.dataset.changes || 0);
    const sameView = (data) => (data.camera_board && data.camera_board.key === shown ? null : "stale_view");
    if (changes && !(await ask(fmt("ask_accept", { n: changes }), sameView))) return;
    const cells = one ? { cells: [[Number(b.dataset.x), Number(b.dataset.y)]] } : {};
    return send("POST", api("/table/accept"), { ...cells, shown });
  },
  // The camera misreads tiles the game holds: the game's labels stay, for one tile or all.
  "table-keep": (b) => {
    const shown = b.closest("[data-view]").dataset.view;
    const cells = b.dataset.x === undefined ? {} : { cells: [[Number(b.dataset.x), Number(b.dataset.y)]] };
    return send("POST", api("/table/keep"), { ...cells, shown });
  },
  "play-on": async () => {
    const stillEnded = (data) => (data.ended ? null : "stale_played_on");
    if (await ask(strings.ask_play_on, stillEnded)) await send("POST", api("/play-on"), {});
  },
  "new-pin": async () => {
    if (await ask(strings.ask_pin) && await send("POST", "/api/auth/rotate", {})) location.reload();
  },
  // Asked first: one tap moved the TV and every tablet to an old game, and the camera then
  // offered the tiles of the game just played as a move in it.
  resume: async (b) => {
    const id = b.dataset.gameId;
    if (!(await ask(strings.ask_resume))) return;
    if (await send("POST", `/api/games/${id}/resume`)) location.href = `/games/${id}/tablet`;
  },
};

// A button of a card that the page has not yet redrawn for what the game shows now: the
// second tap of a double tap on Confirm, when the first was answered in between, or "the
// table is right" as the camera's view changes. The server would refuse it
// (pending_changed, view_changed); it is not sent at all.
function drawnForAnother(target) {
  if (!state) return false;
  const move = target.closest("[data-shown]");
  if (move) return move.dataset.shown !== (state.pending ? state.pending.key : "");
  const view = ["table-accept", "table-keep"].includes(target.dataset.action) && target.closest("[data-view]");
  return Boolean(view && view.dataset.view !== (state.camera_board ? state.camera_board.key : ""));
}

// The action under way: a second tap while it runs (a double tap on Pass) does nothing. A
// request that hangs frees the buttons after a few seconds all the same.
let acting = null;
const ACTING_MS = 5000;

function act(target) {
  if (acting || drawnForAnother(target)) return;
  const mine = {};
  acting = mine;
  const release = () => { if (acting === mine) acting = null; };
  Promise.resolve(actions[target.dataset.action](target)).finally(release);
  setTimeout(release, ACTING_MS);
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-action], [data-open], [data-fix], [data-edit-fix], [data-add], [data-aside]");
  if (!target || target.disabled) return;
  if (target.dataset.aside !== undefined) {
    const pressed = target.getAttribute("aria-pressed") !== "true";
    target.setAttribute("aria-pressed", String(pressed));
    // its ring on the picture of where the tiles lie shows which one was tapped
    const ring = target.closest("[data-reconcile]").querySelector(`.aside-where [data-mark="${target.dataset.aside}"]`);
    if (ring) ring.classList.toggle("chosen", pressed);
  } else if (target.dataset.action) {
    act(target);
  } else if (target.dataset.open) {
    openDialog(target.dataset.open);
  } else if (target.dataset.editFix !== undefined) {
    openFix(editing.tiles, Number(target.dataset.editFix), (tiles) => {
      editing.tiles = tiles;
      drawEditTiles();
      checkEdit();
    }, editing.staleWhen);
  } else if (target.dataset.fix !== undefined && state && state.pending && body.dataset.csrf) {
    const shown = state.pending.key;  // the move being fixed, should another replace it
    const turns = state.turns.length;
    openFix(state.pending.tiles, Number(target.dataset.fix), (tiles) => {
      if (tiles.length) send("POST", api("/pending"), { tiles: plainTiles(tiles), shown });
      else send("POST", api("/pending/dismiss"), { shown });
    }, (data) => whatBecameOf(shown, turns, data));
  } else if (target.dataset.add !== undefined && state && body.dataset.csrf) {
    addTile(target.dataset.add.split(",").map(Number));
  }
});

// The board's "+" cells are no <button> (an SVG has none): Enter and Space press them as
// they press a button.
document.addEventListener("keydown", (event) => {
  const target = event.target.closest?.("[role=button]:not(button)");
  if (!target || (event.key !== "Enter" && event.key !== " ")) return;
  event.preventDefault();
  target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
});

// A tile the camera missed, added to the move waiting; with none waiting, the first tile of
// a move entered by hand.
function addTile([x, y]) {
  const turns = state.turns.length;
  const waiting = state.pending;
  const tiles = waiting ? waiting.tiles : [];
  const staleWhen = waiting ? (data) => whatBecameOf(waiting.key, turns, data)
    : (data) => (data.ended ? "stale_ended" : data.pending ? "stale_arrived" : turnsMovedOn(turns)(data));
  openFix([...tiles, { x, y, colour: null, shape: null }], tiles.length, (fixed) => {
    // "" names no move: the server refuses it if one came in meanwhile
    send("POST", api("/pending"), { tiles: plainTiles(fixed), shown: waiting ? waiting.key : "" });
  }, staleWhen);
}

// --- joining, set-up, language ------------------------------------------------------------
const joinForm = document.querySelector("[data-join]");
if (joinForm) {
  const refused = (message) => {  // by the PIN box, which is emptied for the next try
    const said = joinForm.querySelector("[data-join-error]");
    said.textContent = message;
    said.hidden = false;
    joinForm.pin.value = "";
    joinForm.pin.focus();
  };
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
      refused(strings.offline);
      return;
    }
    const data = await response.json().catch(() => ({}));
    if (response.ok) location.reload();
    else refused(data.error || response.status);
  });
}

const setupForm = document.querySelector("[data-setup]");
// The set's six colours as chosen on the set-up page (the table's own set comes first).
const chosenColours = () => setupForm.querySelector("[name=colours]:checked").value.split(",");
if (setupForm) {
  let starting = false;  // a double tap on "Start the game" must not start two games
  setupForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (starting) return;
    starting = true;
    try {
      await startGame();
    } finally {
      starting = false;
    }
  });
  const startGame = async () => {
    // Every seat's field, blank ones too: the server closes the gaps, and names the seat of
    // a name it refuses as this form numbers it.
    const players = Array.from(setupForm.querySelectorAll("[name=player]"), (i) => i.value);
    const colours = chosenColours();
    const watch = setupForm.querySelector("[name=watch]").checked;
    if (!(await send("POST", "/api/options", { qwirkle_watch: watch }))) return;
    // The game this page saw at the table: refused if another tablet started one since
    // (its players would lose their table unseen); once told, a second press takes the
    // table. Only then: a start refused for a name took the new game as seen, untold.
    const seen = setupForm.dataset.replaces;
    const data = await send("POST", "/api/games",
      { players, colours, replaces: seen === "" ? null : Number(seen) },
      (refusal) => (refusal.reason_code === "table_changed" ? seeTable() : null));
    if (data) location.href = `/games/${data.id}/tablet`;
  };
  const seeTable = async () => {
    try {
      const response = await fetch("/api/state");
      if (response.ok) setupForm.dataset.replaces = (await response.json()).id;
    } catch (err) {
      // out of reach: the next press is refused again, and tries again
    }
  };
}

// The camera preview is one long response: it ends after a while (the server bounds every
// stream), fails while the server restarts, or is refused when too many are open. Each time,
// ask again a little later, so the TV never freezes on an old picture.
// A picture put away (see previewWhilePlaying) is not asked for.
for (const preview of document.querySelectorAll("img.preview")) {
  let attempt = 0;
  const again = () => {
    attempt += 1;
    setTimeout(() => {
      if (!preview.hidden) preview.src = `${preview.dataset.stream}?n=${attempt}`;
    }, attempt > 1 ? 3000 : 500);
  };
  preview.addEventListener("load", again);
  preview.addEventListener("error", again);
}

// The TV plays the camera while the game goes on, as the page draws it on a fresh load: one
// loaded while the game stood ended starts it once play goes on, and an ended game puts it
// away (its stream freed) under the winner card.
function previewWhilePlaying(ended) {
  const preview = document.querySelector(".tv img.preview");
  if (!preview || preview.hidden === ended) return;
  preview.hidden = ended;
  if (ended) preview.removeAttribute("src");
  else preview.src = preview.dataset.stream;
}

// The set block shows the colours chosen above; learning reads the camera's picture.
const setCard = document.querySelector("[data-set-card]");
if (setupForm && setCard) {
  const showColours = () => {
    const colours = chosenColours();
    for (const row of setCard.querySelectorAll("[data-colour]")) {
      row.hidden = !colours.includes(row.dataset.colour);
    }
  };
  setupForm.addEventListener("change", showColours);
  showColours();
  setCard.querySelector("[data-learn-set]").addEventListener("click", async () => {
    if (await send("POST", "/api/set", { colours: chosenColours() })) location.reload();
  });
  setCard.querySelector("[data-forget-set]")?.addEventListener("click", async () => {
    if (await send("DELETE", "/api/set")) location.reload();
  });
}

// The set-up page has no game to stream: its camera check polls the camera's status.
const cameraPart = document.querySelector("[data-camera-part]");
if (cameraPart) {
  setInterval(async () => {
    const html = await fetchText(`/part/camera?lang=${pageLanguage}`);
    if (html !== null) cameraPart.innerHTML = html;
  }, 2000);
}

const mergeForm = document.querySelector("[data-merge]");
if (mergeForm) {
  mergeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = (name) => mergeForm.elements.namedItem(name).value;
    const names = { name: field("name"), into: field("into") };
    if (await send("POST", "/api/players/merge", names)) location.reload();
  });
}

const joined = document.querySelector("[data-joined]");
if (joined) location.replace(joined.dataset.joined);

const languageMenu = document.querySelector("[data-language-menu]");
if (languageMenu) {
  languageMenu.querySelector("select").addEventListener("change", () => languageMenu.submit());
}

flashLastMove();
offerRedoAgain();
listen();
