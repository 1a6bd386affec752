// cellmate's board page. No rules here: the server sends the position's picture and every
// legal move (from/to squares, kind, text); the page filters them by the clicked square and
// asks the player to choose when several moves share from and to.
"use strict";

const $ = (id) => document.getElementById(id);
let ws = null;
let state = null;
let selected = null; // the name of the selected square
let flipped = false;
let lastInfo = null;

// ----- piece images -----

// The one lookup for a piece's picture: an <img> when the server has an image for the
// variant's FEN letter (state.images: letter -> URL, from the table built into the binary, see
// src/gui/mod.rs), else the letter itself in a disk (white disk for White, dark for Black).
function pieceImage(variant, letter, color, name, size) {
  const table = state && state.variant === variant ? state.images || {} : {};
  const url = table[letter];
  if (url) {
    const img = document.createElement("img");
    img.className = "piece";
    img.src = url;
    img.alt = letter;
    img.title = name;
    return img;
  }
  const d = document.createElement("div");
  d.className = "piece " + color;
  d.textContent = letter.toUpperCase();
  d.title = color + " " + name;
  d.style.fontSize = Math.max(9, Math.round(size * 0.46)) + "px";
  return d;
}

// ----- socket -----

// Every message gets exactly one reply (marked `reply`); `pending` counts those still due,
// queued ones included. A message sent while the socket is not open (connecting again after a
// server restart, or moving to the game's URL) waits in `queue` and goes out, in order, once
// the socket opens; past QUEUE_MAX waiting the page says it is not connected.
const QUEUE_MAX = 100;
const queue = [];
function send(msg) {
  const text = typeof msg === "string" ? msg : JSON.stringify(msg);
  if (ws && ws.readyState === WebSocket.OPEN && !queue.length) ws.send(text);
  else if (queue.length < QUEUE_MAX) queue.push(text);
  else { showError("not connected to the engine: this was not sent; reload the page"); return; }
  window.cellmate.pending++;
}

// This page's random name for itself, sent with its socket (`page=`): under `cellmate serve`
// a newer socket of the same page on the same game takes the game over from the older one.
const pageToken = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
// The game the socket was opened on (`?game=`), null for a new game's socket.
let socketGame = null;

// `cellmate serve` keeps games: a game's page is /game/<id>, and its socket opens that game.
// `old`: the socket being replaced, closed once the new one has its first message (by then the
// server has handed the game over to the new one), or if the new one fails.
function connect(old) {
  const game = location.pathname.match(/^\/game\/([0-9a-f]+)$/);
  socketGame = game ? game[1] : null;
  const sock = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?" +
    (game ? "game=" + game[1] + "&" : "") + "page=" + pageToken);
  ws = sock;
  // The time control chosen for the next game is the server's socket's: told again.
  if (clockChosen) send(clockChosen);
  const retire = () => { if (old) { old.close(); old = null; } };
  sock.onmessage = (ev) => {
    retire();
    const msg = JSON.parse(ev.data);
    if (msg.reply) window.cellmate.pending--;
    // The lines above the board (watching, clock, queue) are set before the board is sized.
    if (msg.type === "state") { state = msg; showError(""); showGame(msg.game); showHosted(msg); showClock(msg); render(); }
    else if (msg.type === "queue") { showQueue(msg); if (state) render(); }
    else if (msg.type === "info") { lastInfo = msg; recordEval(msg); renderInfo(); renderEvalGraph(); }
    else if (msg.type === "guide") { guideReply(msg); }
    else if (msg.type === "error") { showError(msg.message); }
    else if (msg.type === "display") { $("display").textContent = msg.text; }
    window.cellmate.messages.push(msg);
    moveSocket();
  };
  sock.onopen = () => {
    reconnects = 0;
    // For tests: how many sockets opened, and where the newest one's messages begin.
    window.cellmate.opens++;
    window.cellmate.openedAt = window.cellmate.messages.length;
    while (queue.length && sock.readyState === WebSocket.OPEN) sock.send(queue.shift());
  };
  sock.onclose = (ev) => {
    retire();
    // Replies still due on the lost socket will not come; queued messages wait for the next.
    window.cellmate.pending = queue.length;
    if (ev.code === 4000) { showError("closed after a long time without a move; reload the page to go on"); return; }
    // Its game taken over by another socket of this page (not one the page still uses).
    if (ev.code === 4001) return;
    // A lost connection (a server restart, a network drop) is opened again: the game's URL
    // brings the stored game back (`cellmate serve`).
    if (reconnects >= RECONNECTS) { showError("disconnected from the engine; reload the page"); return; }
    reconnects++;
    showError("connection lost; connecting again…");
    setTimeout(connect, Math.min(4000, 250 * 2 ** reconnects));
  };
}
// How often a lost connection is tried again (after 0.5 s, 1 s, 2 s, then every 4 s).
const RECONNECTS = 20;
let reconnects = 0;

// `cellmate serve`: once the page's game has an id (stored at its first move) and its socket was
// opened without it (a new game, an import, a new game after another), the socket moves to the
// game's URL, /ws?game=<id>, so that a proxy routing by game id (docs/hosting.md) sends it to the
// same server as the game's watchers. At a quiet moment — no reply due, the engine not
// thinking — so that nothing is in flight; the new socket opens before the old one closes, and
// what the player does meanwhile is queued (`send`).
function moveSocket() {
  if (!state || !state.game || state.game === socketGame || state.watching) return;
  if (state.thinking || window.cellmate.pending > 0 || ws.readyState !== WebSocket.OPEN) return;
  const old = ws;
  old.onmessage = null;
  old.onclose = null;
  old.onopen = null;
  window.cellmate.moves++;
  connect(old);
  if (window.cellmate.onMoveSocket) window.cellmate.onMoveSocket();
}

// The address bar shows the stored game's URL (`cellmate serve`; `cellmate gui` stores none).
function showGame(id) {
  if (id === undefined) return;
  const path = id ? "/game/" + id : "/";
  if (location.pathname !== path) history.replaceState(null, "", path);
}

function showError(text) { $("error").textContent = text; }

// ----- rendering -----

// ----- fitting the window -----

// The squares' size in pixels: the board fills the room the window leaves it — beside the
// panel on a wide window, the window's width on a narrow one (the panel then goes below) —
// and the height below the controls, so the whole board shows without scrolling.
function squareSize(v) {
  const wrap = $("boardwrap");
  const narrow = window.innerWidth < 800; // style.css's @media (max-width: 799px)
  const panel = narrow ? 0 : $("right").getBoundingClientRect().width + 16 * 1.0 + 28;
  const room = document.documentElement.clientWidth;
  const width = (narrow ? room - 14 : room - panel - 16) - 4;
  const top = wrap.getBoundingClientRect().top + window.scrollY;
  const height = window.innerHeight - top - 10;
  const fit = Math.floor(Math.min(width / v.width, height / v.height));
  return Math.max(16, Math.min(72, fit));
}

let resizeTimer = null;
function watchWindowSize() {
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (state) render(); }, 60);
  });
}

// Screen column and row of a board square.
function place(file, rank, v) {
  return flipped ? [v.width - 1 - file, rank] : [file, v.height - 1 - rank];
}

function render() {
  const v = state.view;
  renderSubBoards(v);
  const size = squareSize(v);
  const board = $("board");
  board.innerHTML = "";
  board.style.gridTemplateColumns = `repeat(${v.width}, ${size}px)`;
  board.style.gridTemplateRows = `repeat(${v.height}, ${size}px)`;
  const byName = {};
  for (const s of v.squares) byName[s.square] = s;
  const froms = new Set(state.legal.filter((m) => m.from).map((m) => m.from.name));
  const targets = new Set(state.legal.filter((m) => m.from && m.from.name === selected).map((m) => m.to.name));
  const last = lastMoveSquares();
  const gapFiles = new Set(v.boards.slice(1).map((b) => b.first_file));
  const inactive = new Set();
  for (const b of v.boards) if (!b.active) for (let f = b.first_file; f <= b.last_file; f++) inactive.add(f);
  for (let rank = 0; rank < v.height; rank++) {
    for (let file = 0; file < v.width; file++) {
      const name = squareName(file, rank, v);
      const d = document.createElement("div");
      d.className = "sq " + ((file + rank) % 2 ? "light" : "dark");
      d.dataset.sq = name;
      const [col, row] = place(file, rank, v);
      d.style.gridColumn = col + 1;
      d.style.gridRow = row + 1;
      if (gapFiles.has(file) && !flipped) d.classList.add("boardgap");
      if (inactive.has(file) && v.boards.some((b) => b.active)) d.classList.add("inactive");
      if (name === selected) d.classList.add("selected");
      if (froms.has(name) && !selected) d.classList.add("from");
      if (targets.has(name)) d.classList.add("target");
      if (last.has(name)) d.classList.add("lastmove");
      const s = byName[name];
      if (s) {
        d.classList.add("occupied");
        d.appendChild(pieceImage(state.variant, s.piece.letter, s.piece.color, s.piece.name, size));
        const tips = [s.piece.color + " " + s.piece.name + " on " + name];
        for (const b of s.badges) {
          d.classList.add(b.kind);
          const span = document.createElement("span");
          span.className = "badge " + b.kind;
          span.dataset.badge = b.kind;
          span.textContent = b.label;
          d.appendChild(span);
          tips.push(b.text);
        }
        d.title = tips.join("\n");
        d.dataset.piece = s.piece.letter;
      }
      if (row === v.height - 1) addCoord(d, "file", name.replace(/[0-9]+$/, ""));
      if (col === 0) addCoord(d, "rank", name.replace(/^[a-z]+/, ""));
      d.addEventListener("click", () => clickSquare(name));
      board.appendChild(d);
    }
  }
  $("subboards").style.width = v.width * size + 4 + "px";
  renderPanel();
}

function addCoord(d, cls, text) {
  const c = document.createElement("span");
  c.className = "coord " + cls;
  c.textContent = text;
  d.appendChild(c);
}

function squareName(file, rank) {
  return String.fromCharCode(97 + file) + (rank + 1);
}

function lastMoveSquares() {
  const out = new Set();
  const h = state.history;
  if (!h.length) return out;
  for (const m of h[h.length - 1].text.match(/[a-p](1[0-6]|[1-9])/g) || []) out.add(m);
  return out;
}

function renderSubBoards(v) {
  const el = $("subboards");
  el.innerHTML = "";
  const boards = flipped ? v.boards.slice().reverse() : v.boards;
  for (const b of boards) {
    const d = document.createElement("div");
    d.className = "sub" + (b.active ? " active" : "");
    d.dataset.board = b.name;
    d.style.flex = `${b.last_file - b.first_file + 1} 1 0`;
    d.innerHTML = `<b>Board ${esc(b.name)}</b> — ${esc(b.side_to_move)} to move, result <b class="result">${esc(b.result)}</b><br>${esc(b.note)}`;
    el.appendChild(d);
  }
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

function renderPanel() {
  const st = state;
  let status;
  if (st.outcome) status = `Game over: ${st.outcome.result} (${st.outcome.reason})`;
  else status = `${st.view.side_to_move === "white" ? "White" : "Black"} to move` + (st.thinking ? " — engine thinking…" : "");
  $("status").textContent = status;
  keepVariantMenu(st);
  $("white").value = st.engine.white ? "engine" : "human";
  $("black").value = st.engine.black ? "engine" : "human";
  const strength = st.engine.depth ? "depth:" + st.engine.depth : st.engine.movetime ? "movetime:" + st.engine.movetime : "nodes:" + st.engine.nodes;
  if ([...$("strength").options].some((o) => o.value === strength)) $("strength").value = strength;
  renderMoves(st);
  $("held").innerHTML = st.view.held.map((h) => `<li>${h.piece.color} ${esc(h.piece.name)} (${esc(h.piece.letter)}) ${esc(h.note)}</li>`).join("") || "<li>none</li>";
  $("notes").innerHTML = st.view.notes.map((n) => `<li>${esc(n)}</li>`).join("");
  $("fen").value = st.fen;
  $("pgn").value = st.pgn;
  $("display").textContent = st.display;
  $("pass").disabled = !st.legal.some((m) => m.kind === "pass") || st.thinking;
  lastInfo = st.info;
  renderInfo();
  renderEvalGraph();
  guideFollowVariant(st.variant);
  const kinds = [...new Set(st.legal.map((m) => m.kind))].sort();
  $("legend").textContent = "Legal move kinds here: " + (kinds.join(", ") || "none");
  $("chooser").hidden = true;
}

function renderInfo() {
  if (!lastInfo) { $("eval").textContent = "–"; $("pv").textContent = ""; return; }
  $("eval").textContent = `${lastInfo.score} (White's view)  depth ${lastInfo.depth}  ${lastInfo.nodes} nodes`;
  $("pv").textContent = lastInfo.pv.join(" ");
}

// ----- the variant menu -----

// The menu shows the player's choice: it follows the game's variant only when that changes
// (a new game, an import), not on every state, so choosing a variant and then New game starts
// that variant.
let menuVariant = null;
function keepVariantMenu(st) {
  if (st.variant !== menuVariant) {
    menuVariant = st.variant;
    $("variant").value = st.variant;
  }
}

// ----- the move list -----

// Numbered as moves: one line per move number, the side that moves first in the variant
// (state.first_side: White, or Immune Chess's Invaders, IM-3) on the left. A game from a FEN
// with the other side to move starts its first line with "…".
function renderMoves(st) {
  const box = $("moves");
  box.innerHTML = "";
  let row = null;
  let number = 0;
  const cell = (m) => {
    const span = document.createElement("span");
    span.className = "mv";
    if (!m) { span.textContent = "…"; return span; }
    span.innerHTML = `<span class="coords">${esc(m.text)}</span>` + (m.seed ? `<span class="seed">${esc(m.seed)}</span>` : "");
    return span;
  };
  for (const m of st.history) {
    if (!row || m.side === st.first_side || row.childElementCount >= 3) {
      number++;
      row = document.createElement("div");
      row.className = "moverow";
      row.innerHTML = `<span class="num">${number}.</span>`;
      box.appendChild(row);
      if (m.side !== st.first_side) row.appendChild(cell(null));
    }
    row.appendChild(cell(m));
  }
  box.scrollTop = box.scrollHeight;
}

// ----- the evaluation graph -----

// The engine's scores over the game (White's view), one point per position it searched, kept
// in sessionStorage with the game's start and moves (one game: a reload or a take-back keeps
// the scores of the moves still played, another game replaces them).
const EVAL_KEY = "cellmate-evals";
const EVAL_CAP = 1000; // centipawns at the graph's edge; a mate is drawn there
function evalGame(st) {
  let g = null;
  try { g = JSON.parse(sessionStorage.getItem(EVAL_KEY) || "null"); } catch (e) { g = null; }
  const moves = st.history.map((m) => m.text);
  if (!g || g.start !== st.start_fen || !Array.isArray(g.moves) || typeof g.evals !== "object") {
    return { start: st.start_fen, moves, evals: {} };
  }
  let same = 0;
  while (same < g.moves.length && same < moves.length && g.moves[same] === moves[same]) same++;
  if (same < g.moves.length && same < moves.length) {
    // Another line from ply `same` on: keep the scores up to there.
    for (const ply of Object.keys(g.evals)) if (Number(ply) > same) delete g.evals[ply];
    g.moves = moves;
  } else if (moves.length > g.moves.length) g.moves = moves;
  g.common = same;
  return g;
}
function scoreCp(text) {
  if (text.startsWith("#")) return Number(text.slice(1)) >= 0 ? EVAL_CAP : -EVAL_CAP;
  return Math.max(-EVAL_CAP, Math.min(EVAL_CAP, Math.round(Number(text) * 100)));
}
function recordEval(info) {
  if (!state || !info || typeof info.score !== "string") return;
  const g = evalGame(state);
  g.evals[state.history.length] = scoreCp(info.score);
  delete g.common;
  try { sessionStorage.setItem(EVAL_KEY, JSON.stringify(g)); } catch (e) { /* full: not kept */ }
}
function gameEvals(st) {
  const g = evalGame(st);
  return Object.entries(g.evals)
    .map(([ply, v]) => [Number(ply), v])
    .filter(([ply]) => ply <= st.history.length)
    .sort((x, y) => x[0] - y[0]);
}
function renderEvalGraph() {
  const svg = $("evalgraph");
  if (!state) return;
  const pts = gameEvals(state);
  const W = 300, H = 60, n = Math.max(state.history.length, 1);
  const x = (ply) => (ply / n) * W;
  const y = (cp) => H / 2 - (cp / EVAL_CAP) * (H / 2 - 3);
  let body = `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#bbb" stroke-width="1"/>`;
  if (pts.length) {
    const line = pts.map(([p, v]) => `${x(p).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    body += `<polyline points="${line}" fill="none" stroke="#1565c0" stroke-width="2" vector-effect="non-scaling-stroke"/>`;
    body += pts.map(([p, v]) => `<circle cx="${x(p).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2" fill="#1565c0" data-ply="${p}" data-cp="${v}"><title>ply ${p}: ${(v / 100).toFixed(2)}</title></circle>`).join("");
  } else {
    body += `<text x="${W / 2}" y="${H / 2 - 6}" text-anchor="middle" font-size="11" fill="#888">the engine's scores show here</text>`;
  }
  svg.innerHTML = body;
  svg.dataset.points = String(pts.length);
}

// ----- the piece guide -----

// Pick a piece type of the game's variant: the server puts it alone on an empty board and
// answers with its legal moves there (the rules' own, src/gui/guide.rs) and a sentence.
let guideVariant = null;
let guideData = null;
function guideFollowVariant(variant) {
  if (variant === guideVariant) return;
  guideVariant = variant;
  guideData = null;
  $("guide-board").innerHTML = "";
  $("guide-about").textContent = "";
  send({ type: "guide", variant });
}
function guideReply(msg) {
  if (msg.variant !== guideVariant) return;
  const sel = $("guide-piece");
  if (!msg.letter) {
    sel.innerHTML = `<option value="">choose a piece…</option>` +
      msg.pieces.map((p) => `<option value="${esc(p.letter)}">${esc(p.name || p.letter)}</option>`).join("");
    return;
  }
  guideData = msg;
  sel.value = msg.letter;
  renderGuide();
}
function renderGuide() {
  const g = guideData;
  const box = $("guide-board");
  box.innerHTML = "";
  if (!g) return;
  const v = g.view;
  const avail = Math.max(120, $("right").getBoundingClientRect().width - 4);
  const size = Math.max(12, Math.min(30, Math.floor(avail / v.width)));
  box.style.gridTemplateColumns = `repeat(${v.width}, ${size}px)`;
  box.style.gridTemplateRows = `repeat(${v.height}, ${size}px)`;
  const targets = new Set(g.legal.map((m) => m.to && m.to.name));
  const piece = v.squares[0];
  for (let rank = 0; rank < v.height; rank++) {
    for (let file = 0; file < v.width; file++) {
      const name = squareName(file, rank);
      const d = document.createElement("div");
      d.className = "sq " + ((file + rank) % 2 ? "light" : "dark");
      d.dataset.sq = name;
      d.style.gridColumn = file + 1;
      d.style.gridRow = v.height - rank;
      if (targets.has(name)) d.classList.add("target");
      if (piece && piece.square === name) {
        d.classList.add("occupied");
        d.dataset.piece = piece.piece.letter;
        d.appendChild(pieceImage(g.variant, piece.piece.letter, piece.piece.color, piece.piece.name, size));
      }
      box.appendChild(d);
    }
  }
  $("guide-about").textContent = `${g.name} (${g.legal.length} moves from ${g.square} here): ${g.about}`;
}
function initGuide() {
  $("guide-piece").addEventListener("change", () => {
    const letter = $("guide-piece").value;
    if (!letter) { guideData = null; renderGuide(); $("guide-about").textContent = ""; return; }
    send({ type: "guide", variant: guideVariant, letter });
  });
}

// ----- move entry -----

function clickSquare(name) {
  if (!state || state.thinking || state.outcome) return;
  const legal = state.legal.filter((m) => m.from);
  if (selected) {
    const cands = legal.filter((m) => m.from.name === selected && m.to.name === name);
    if (cands.length === 1) { play(cands[0]); return; }
    if (cands.length > 1) { choose(cands); return; }
    if (name === selected) { selected = null; render(); return; }
  }
  selected = legal.some((m) => m.from.name === name) ? name : null;
  render();
}

function describeMove(m) {
  const t = m.seed ? `${m.text} (${m.seed})` : m.text;
  return `${m.kind}: ${t}`;
}

function choose(cands) {
  $("chooser-title").textContent = `${cands.length} moves go from ${cands[0].from.name} to ${cands[0].to.name}; choose one:`;
  const box = $("chooser-moves");
  box.innerHTML = "";
  for (const m of cands) {
    const b = document.createElement("button");
    b.textContent = describeMove(m);
    b.dataset.move = m.text;
    b.addEventListener("click", () => play(m));
    box.appendChild(b);
  }
  $("chooser").hidden = false;
}

function play(m) {
  selected = null;
  $("chooser").hidden = true;
  send({ type: "move", move: m.text });
}

// ----- controls -----

function engineSettings() {
  const [k, v] = $("strength").value.split(":");
  const msg = { type: "engine", white: $("white").value === "engine", black: $("black").value === "engine" };
  msg[k] = Number(v);
  return msg;
}

function init() {
  // For tests: `socket` is the socket's URL now, `moves` how often it moved to its game's URL,
  // `queued` the messages waiting for it to open, `onMoveSocket` called as it moves.
  window.cellmate = { messages: [], pending: 0, opens: 0, openedAt: 0, moves: 0, get state() { return state; }, get socket() { return ws && ws.url; }, get queued() { return queue.length; }, send, pieceImage };
  const variants = ["chess", "recursion", "microorganism", "immune"];
  $("variant").innerHTML = variants.map((v) => `<option>${v}</option>`).join("");
  $("new").addEventListener("click", () => {
    selected = null;
    send({ type: "new", variant: $("variant").value, fen: $("startfen").value });
  });
  for (const id of ["white", "black", "strength"]) $(id).addEventListener("change", () => send(engineSettings()));
  $("go").addEventListener("click", () => send({ type: "go" }));
  $("stop").addEventListener("click", () => send({ type: "stop" }));
  $("undo").addEventListener("click", () => { selected = null; send({ type: "undo" }); });
  $("pass").addEventListener("click", () => {
    const m = state && state.legal.find((x) => x.kind === "pass");
    if (m) play(m);
  });
  $("flip").addEventListener("click", () => { flipped = !flipped; if (state) render(); });
  $("chooser-cancel").addEventListener("click", () => { selected = null; render(); });
  $("import-btn").addEventListener("click", () => send({ type: "import", text: $("import").value, variant: $("variant").value }));
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && selected) { selected = null; render(); } });
  initGuide();
  watchWindowSize();
  connect();
}

// ----- cellmate serve: a watched game -----

// A page that opened a game another page plays watches it (state.watching): one line says so.
function showHosted(st) {
  const el = $("hosted");
  if (!el) return;
  el.textContent = st.watching ? "Watching: this game is played on another page; its moves appear here as they are played." : "";
}

// ----- the search queue -----

// When every search worker is busy the engine's move waits its turn: one line says the place.
function showQueue(msg) {
  const el = $("queue");
  if (el) el.textContent = msg.place ? `Waiting for a free engine: place ${msg.place} of ${msg.waiting} in line.` : "";
}

// ----- cellmate serve: game clocks -----

// The server keeps each side's clock (state.clock: time left in ms at at_ms, the running side,
// the side whose time is up); the page counts the running one down between states. The time
// control menu (shown only by `cellmate serve`, whose states have a clock) sends `clock`: it
// times the game if no move is played yet, else the next game.
let clockShown = null;
// The player's last choice in the menu, sent again on a new socket (it times the next game).
let clockChosen = null;
let clockTimer = null;
function showClock(st) {
  const el = $("clock");
  const menu = $("timecontrol");
  if (!el || !menu || !("clock" in st)) return;
  menu.parentElement.hidden = false;
  if (!menu.dataset.ready) {
    menu.dataset.ready = "1";
    menu.addEventListener("change", () => {
      const [base, inc] = menu.value.split("+").map(Number);
      clockChosen = menu.value === "none" ? { type: "clock", base_ms: null } : { type: "clock", base_ms: base * 60000, inc_ms: inc * 1000 };
      send(clockChosen);
    });
  }
  clockShown = st.clock ? { c: st.clock, at: Date.now() } : null;
  if (!clockTimer) clockTimer = setInterval(tickClock, 250);
  tickClock();
}

function tickClock() {
  const el = $("clock");
  if (!clockShown) { el.textContent = ""; return; }
  const c = clockShown.c;
  const left = (side) => c[side + "_ms"] - (c.running === side ? Date.now() - clockShown.at : 0);
  const fmt = (ms) => {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };
  const flag = c.flag || ["white", "black"].find((side) => c.running === side && left(side) <= 0);
  el.textContent = `White ${fmt(left("white"))}${c.running === "white" ? " ◀" : ""} · Black ${fmt(left("black"))}${c.running === "black" ? " ◀" : ""}` +
    (flag ? ` — ${flag === "white" ? "White" : "Black"}'s time is up` : "");
}

init();
