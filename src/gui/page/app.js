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

// Every message gets exactly one reply (marked `reply`); `pending` counts those still due.
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    window.cellmate.pending++;
    ws.send(typeof msg === "string" ? msg : JSON.stringify(msg));
  }
}

// `cellmate serve` keeps games: a game's page is /game/<id>, and its socket opens that game.
function connect() {
  const game = location.pathname.match(/^\/game\/([0-9a-f]+)$/);
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" +
    (game ? "?game=" + game[1] : ""));
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.reply) window.cellmate.pending--;
    if (msg.type === "state") { state = msg; showError(""); showGame(msg.game); render(); showHosted(msg); showClock(msg); }
    else if (msg.type === "queue") { showQueue(msg); }
    else if (msg.type === "info") { lastInfo = msg; renderInfo(); }
    else if (msg.type === "error") { showError(msg.message); }
    else if (msg.type === "display") { $("display").textContent = msg.text; }
    window.cellmate.messages.push(msg);
  };
  ws.onclose = () => { showError("disconnected from the engine; reload the page"); };
}

// The address bar shows the stored game's URL (`cellmate serve`; `cellmate gui` stores none).
function showGame(id) {
  if (id === undefined) return;
  const path = id ? "/game/" + id : "/";
  if (location.pathname !== path) history.replaceState(null, "", path);
}

function showError(text) { $("error").textContent = text; }

// ----- rendering -----

function squareSize(v) {
  const big = Math.max(v.width, v.height);
  return big >= 16 ? 40 : big >= 10 ? 52 : 64;
}

// Screen column and row of a board square.
function place(file, rank, v) {
  return flipped ? [v.width - 1 - file, rank] : [file, v.height - 1 - rank];
}

function render() {
  const v = state.view;
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
  renderSubBoards(v, size);
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

function renderSubBoards(v, size) {
  const el = $("subboards");
  el.innerHTML = "";
  const boards = flipped ? v.boards.slice().reverse() : v.boards;
  for (const b of boards) {
    const d = document.createElement("div");
    d.className = "sub" + (b.active ? " active" : "");
    d.dataset.board = b.name;
    d.style.width = (b.last_file - b.first_file + 1) * size + "px";
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
  $("variant").value = st.variant;
  $("white").value = st.engine.white ? "engine" : "human";
  $("black").value = st.engine.black ? "engine" : "human";
  const strength = st.engine.depth ? "depth:" + st.engine.depth : st.engine.movetime ? "movetime:" + st.engine.movetime : "nodes:" + st.engine.nodes;
  if ([...$("strength").options].some((o) => o.value === strength)) $("strength").value = strength;
  const moves = $("moves");
  moves.innerHTML = "";
  st.history.forEach((m) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="coords">${esc(m.text)}</span>` + (m.seed ? `<span class="seed">${esc(m.seed)}</span>` : "");
    moves.appendChild(li);
  });
  moves.scrollTop = moves.scrollHeight;
  $("held").innerHTML = st.view.held.map((h) => `<li>${h.piece.color} ${esc(h.piece.name)} (${esc(h.piece.letter)}) ${esc(h.note)}</li>`).join("") || "<li>none</li>";
  $("notes").innerHTML = st.view.notes.map((n) => `<li>${esc(n)}</li>`).join("");
  $("fen").value = st.fen;
  $("pgn").value = st.pgn;
  $("display").textContent = st.display;
  $("pass").disabled = !st.legal.some((m) => m.kind === "pass") || st.thinking;
  lastInfo = st.info;
  renderInfo();
  const kinds = [...new Set(st.legal.map((m) => m.kind))].sort();
  $("legend").textContent = "Legal move kinds here: " + (kinds.join(", ") || "none");
  $("chooser").hidden = true;
}

function renderInfo() {
  if (!lastInfo) { $("eval").textContent = "–"; $("pv").textContent = ""; return; }
  $("eval").textContent = `${lastInfo.score} (White's view)  depth ${lastInfo.depth}  ${lastInfo.nodes} nodes`;
  $("pv").textContent = lastInfo.pv.join(" ");
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
  window.cellmate = { messages: [], pending: 0, get state() { return state; }, send, pieceImage };
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
  $("import-btn").addEventListener("click", () => send({ type: "import", text: $("import").value }));
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && selected) { selected = null; render(); } });
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
      send(menu.value === "none" ? { type: "clock", base_ms: null } : { type: "clock", base_ms: base * 60000, inc_ms: inc * 1000 });
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
