// Browser tests of `cellmate gui` (make gui-test): headless Chromium driven by Playwright.
//
// For each variant, positions are set up through the page (variant menu, start FEN, New game)
// and one move of every move kind the variant has is entered with the mouse: click the piece,
// check that the highlighted targets are exactly the engine's legal targets from that square,
// click the target (and the chooser button when several moves share from/to; the Pass button
// for a pass). After each move the page's board (piece letters per square) and FEN are checked
// against the engine's own `d` output, fetched over the page's socket. Screenshots of each
// variant go to docs/gui-<variant>.png.
//
// Environment: CELLMATE (the binary, default ../../target/quick/cellmate), CHROMIUM (default
// /usr/bin/chromium), SHOTS=0 to skip screenshots.

import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import assert from "node:assert/strict";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const binary = process.env.CELLMATE || path.join(root, "target/quick/cellmate");
const port = 18000 + Math.floor(Math.random() * 2000);
const base = `http://127.0.0.1:${port}/`;

// ----- positions -----

// A Microorganism placement from {square: letter}.
function microPlacement(cells) {
  const rows = [];
  for (let r = 16; r >= 1; r--) {
    let s = "", e = 0;
    for (let f = 0; f < 16; f++) {
      const c = cells[String.fromCharCode(97 + f) + r];
      if (c) { if (e) { s += e; e = 0; } s += c; } else e++;
    }
    if (e) s += e;
    rows.push(s);
  }
  return rows.join("/");
}

const MICRO_MANY = microPlacement({
  a1: "N", p16: "n", e2: "P", e15: "P", b1: "T", c1: "T", k4: "A", g4: "A", g5: "A",
  e5: "V", f6: "c", h3: "R", h4: "W", d8: "p",
}) + " w - 0 1 g4:cell=g5;d8:rider=R";
const MICRO_HATCH = microPlacement({ a1: "N", p16: "n", f6: "c" }) + " w - 0 1 f6:infected=V/0";
const MICRO_EP = microPlacement({ a1: "N", p16: "n", e5: "P", d4: "p" }) + " b e3,e4 0 1 -";
const MICRO_SHOW = microPlacement({
  a1: "N", p16: "n", b1: "T", c1: "T", b3: "B", d4: "P", e5: "c", g4: "A", g5: "A", h8: "W",
  m12: "v", n14: "t", o14: "t", k10: "b", l9: "a", l10: "a",
}) + " w - 0 1 b1:wall;c1:wall;b3:+AV;d4:rider=r;g4:cell=g5;l9:cell=l10;k10:+CR;n14:wall;o14:wall;e5:infected=V/1";

const RECURSION_PASS = "rnbkqbnrr6m/pppppppp8/16/16/16/12k3/PPPPPPPP8/RMBKQBNR4K3 w a w:KQkq:-:0:*:n b:-:-:0:*:n 1";
const RECURSION_STATES = "4k3R6k/14pp/16/3p12/16/2M13/16/4K3K7 w a w:-:-:0:*:a b:-:-:0:1-0:n 1";

// Each scenario: a variant, a start FEN (or null), setup moves sent over the socket, and the
// move kinds it must be able to show. Every kind listed for a variant in KINDS must be played
// by some scenario.
const SCENARIOS = [
  { variant: "chess", fen: null, kinds: ["normal", "pawn-push"] },
  { variant: "chess", fen: "r3k2r/8/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1", kinds: ["castle", "en-passant"] },
  { variant: "chess", fen: "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", kinds: ["promotion"] },
  { variant: "recursion", fen: null, kinds: ["normal", "pawn-push"] },
  { variant: "recursion", fen: RECURSION_PASS, setup: ["e2e4", "i8i1"], kinds: ["pass"] },
  { variant: "recursion", fen: RECURSION_STATES, kinds: ["normal"] },
  { variant: "microorganism", fen: MICRO_MANY, kinds: ["normal", "pawn-push", "promotion", "bond", "expand", "contract", "infect", "ride", "kill"] },
  { variant: "microorganism", fen: MICRO_HATCH, kinds: ["hatch"] },
  { variant: "microorganism", fen: MICRO_EP, kinds: ["en-passant"] },
  { variant: "immune", fen: null, kinds: ["normal"] },
  { variant: "immune", fen: "9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:9 0 1", kinds: ["normal"] },
  { variant: "immune", fen: "10/10/O9/4i5/10/10/10/4B5/10/10 w - 0 1", kinds: ["shot", "promotion"] },
];

const KINDS = {
  chess: ["castle", "en-passant", "normal", "pawn-push", "promotion"],
  recursion: ["normal", "pass", "pawn-push"],
  microorganism: ["bond", "contract", "en-passant", "expand", "hatch", "infect", "kill", "normal", "pawn-push", "promotion", "ride"],
  immune: ["normal", "promotion", "shot"],
};

// Screenshots: the engine (depth 3) makes the first move, then a piece of the side to move is
// selected so its targets show.
const SHOTS = {
  chess: { fen: "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5", select: "f6" },
  recursion: { fen: RECURSION_STATES, select: "e8" },
  microorganism: { fen: MICRO_SHOW, select: "l9" },
  immune: { fen: null, select: "e2" },
};

// ----- helpers -----

function startServer() {
  const child = spawn(binary, ["gui", "--port", String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stderr.on("data", (d) => { if (String(d).includes("open http")) resolve(child); });
    setTimeout(() => reject(new Error("server did not start")), 10000);
  });
}

// Waits until every message sent has had its reply; returns the latest state.
async function settle(page) {
  await page.waitForFunction(() => window.cellmate.pending === 0, null, { timeout: 20000 });
  return page.evaluate(() => window.cellmate.state);
}

async function lastError(page) {
  return page.evaluate(() => {
    const e = window.cellmate.messages.filter((m) => m.type === "error");
    return e.length ? e[e.length - 1].message : null;
  });
}

async function newGame(page, variant, fen) {
  await page.selectOption("#white", "human");
  await page.selectOption("#black", "human");
  await settle(page);
  await page.waitForFunction(() => !window.cellmate.state.thinking, null, { timeout: 20000 });
  await page.selectOption("#variant", variant);
  await page.fill("#startfen", fen || "");
  await page.click("#new");
  const st = await settle(page);
  assert.equal(st.variant, variant, `new game: ${await lastError(page)}`);
  if (fen) assert.equal(st.fen, fen);
  return st;
}

async function sendAndWait(page, msg) {
  await page.evaluate((m) => window.cellmate.send(m), msg);
  return settle(page);
}

// The engine's `d` output, asked over the page's own socket.
async function engineDisplay(page) {
  await settle(page);
  await page.evaluate(() => window.cellmate.send({ type: "display" }));
  await settle(page);
  return page.evaluate(() => window.cellmate.messages.filter((m) => m.type === "display").pop().text);
}

// {square: letter} from the board picture of a `d` output (any variant's layout).
function parseDisplay(text, width) {
  const out = {};
  for (const line of text.split("\n")) {
    const m = line.match(/^\s*(\d+)\s*\|(.*)\|\s*$/);
    if (!m) continue;
    let cells = m[2].split("|").map((c) => c.trim());
    if (cells.length === width + 1) cells.splice(width / 2, 1); // recursion: the gap between boards
    assert.equal(cells.length, width, `d row: ${line}`);
    cells.forEach((c, f) => { if (c) out[String.fromCharCode(97 + f) + m[1]] = c; });
  }
  return out;
}

// {square: letter} as the page draws it.
async function pageBoard(page) {
  return page.evaluate(() => {
    const out = {};
    for (const el of document.querySelectorAll("#board .sq[data-piece]")) out[el.dataset.sq] = el.dataset.piece;
    return out;
  });
}

async function checkAgainstEngine(page, label) {
  const st = await page.evaluate(() => window.cellmate.state);
  const d = await engineDisplay(page);
  const fenLine = d.split("\n").find((l) => /^(# )?Fen: /.test(l));
  assert.equal(fenLine.replace(/^(# )?Fen: /, ""), await page.inputValue("#fen"), `${label}: FEN`);
  const dBoard = parseDisplay(d, st.view.width);
  const pBoard = await pageBoard(page);
  assert.deepEqual(pBoard, dBoard, `${label}: board`);
  // Every badge of the view is drawn on its square.
  for (const s of st.view.squares) {
    const drawn = await page.$$eval(`#board .sq[data-sq="${s.square}"] .badge`, (els) => els.map((e) => e.dataset.badge));
    assert.deepEqual(drawn, s.badges.map((b) => b.kind), `${label}: badges on ${s.square}`);
  }
}

// Enters `m` (from the state's legal list) with the mouse.
async function enterMove(page, st, m) {
  if (m.kind === "pass") {
    await page.click("#pass");
  } else {
    await page.click(`#board .sq[data-sq="${m.from.name}"]`);
    const want = [...new Set(st.legal.filter((x) => x.from && x.from.name === m.from.name).map((x) => x.to.name))].sort();
    const shown = (await page.$$eval("#board .sq.target", (els) => els.map((e) => e.dataset.sq))).sort();
    assert.deepEqual(shown, want, `targets from ${m.from.name}`);
    await page.click(`#board .sq[data-sq="${m.to.name}"]`);
    const same = st.legal.filter((x) => x.from && x.from.name === m.from.name && x.to.name === m.to.name);
    if (same.length > 1) {
      await page.waitForSelector("#chooser:not([hidden])");
      const offered = (await page.$$eval("#chooser-moves button", (els) => els.map((e) => e.dataset.move))).sort();
      assert.deepEqual(offered, same.map((x) => x.text).sort(), "chooser");
      await page.click(`#chooser-moves button[data-move="${m.text}"]`);
    }
  }
  const after = await settle(page);
  // (With the engine playing the other side its reply may already be there.)
  assert.ok(after.history.length > st.history.length, `${m.text}: ${await lastError(page)}`);
  assert.equal(after.history[st.history.length].text, m.text);
  return after;
}

// ----- main -----

const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let failures = 0;
const played = {};
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("pageerror", (e) => { failures++; console.log("page error:", e.message); });
  await page.goto(base);
  await page.waitForFunction(() => window.cellmate && window.cellmate.state);

  for (const sc of SCENARIOS) {
    for (const kind of sc.kinds) {
      const label = `${sc.variant} ${kind}`;
      try {
        let st = await newGame(page, sc.variant, sc.fen);
        for (const mv of sc.setup || []) {
          st = await sendAndWait(page, { type: "move", move: mv });
          assert.equal(st.history[st.history.length - 1]?.text, mv, `setup ${mv}: ${await lastError(page)}`);
        }
        await checkAgainstEngine(page, `${label} (before)`);
        const m = st.legal.find((x) => x.kind === kind);
        assert.ok(m, `${label}: no legal move of that kind; kinds: ${[...new Set(st.legal.map((x) => x.kind))]}`);
        await enterMove(page, st, m);
        await checkAgainstEngine(page, `${label} (after ${m.text})`);
        (played[sc.variant] ||= new Set()).add(kind);
        console.log(`ok   ${label}: ${m.text}${m.seed ? " (" + m.seed + ")" : ""}`);
      } catch (e) {
        failures++;
        console.log(`FAIL ${label}: ${e.message}`);
      }
    }
  }
  for (const [v, kinds] of Object.entries(KINDS)) {
    const got = [...(played[v] || [])].sort();
    if (JSON.stringify(got) !== JSON.stringify(kinds)) {
      failures++;
      console.log(`FAIL ${v}: kinds played ${got}, expected ${kinds}`);
    } else console.log(`ok   ${v}: every move kind played (${kinds.length})`);
  }

  // Bad input over the socket: an error reply, nothing changed.
  try {
    await newGame(page, "chess", null);
    const before = await page.evaluate(() => window.cellmate.state.fen);
    const errs = await page.evaluate(() => window.cellmate.messages.filter((m) => m.type === "error").length);
    await page.evaluate(() => { window.cellmate.send("{not json"); window.cellmate.send({ type: "move", move: "e2e5" }); });
    await page.waitForFunction((k) => window.cellmate.messages.filter((m) => m.type === "error").length >= k + 2, errs);
    assert.equal(await page.evaluate(() => window.cellmate.state.fen), before);
    assert.ok((await page.textContent("#error")).length > 0, "error shown");
    console.log("ok   bad input: two error replies, position unchanged");
  } catch (e) { failures++; console.log(`FAIL bad input: ${e.message}`); }

  // Export the game as PGN and import it again through the page.
  try {
    await newGame(page, "immune", null);
    await sendAndWait(page, { type: "move", move: "a9a10" });
    const st = await sendAndWait(page, { type: "move", move: "a2a3" });
    assert.deepEqual(await page.$$eval("#moves .seed", (els) => els.map((e) => e.textContent)), ["I-a10", "BA[a3"]);
    const pgn = await page.inputValue("#pgn");
    await newGame(page, "chess", null);
    await page.fill("#import", pgn);
    await page.click("#import-btn");
    const back = await settle(page);
    assert.equal(back.variant, "immune", await lastError(page));
    assert.equal(back.fen, st.fen);
    await checkAgainstEngine(page, "PGN import");
    await page.fill("#import", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    await page.selectOption("#variant", "chess");
    await newGame(page, "chess", null);
    await page.click("#import-btn");
    assert.equal((await settle(page)).fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    await page.fill("#import", "");
    console.log("ok   PGN export and import, FEN import, seed notation in the move list");
  } catch (e) { failures++; console.log(`FAIL import/export: ${e.message}`); }

  // A second tab has its own game.
  try {
    const other = await browser.newPage();
    await other.goto(base);
    await other.waitForFunction(() => window.cellmate && window.cellmate.state);
    await newGame(other, "immune", null);
    const mine = await page.evaluate(() => window.cellmate.state);
    const st = await sendAndWait(page, { type: "state" });
    assert.equal(st.variant, "chess");
    assert.equal(st.fen, mine.fen);
    await other.close();
    console.log("ok   second tab: independent game");
  } catch (e) { failures++; console.log(`FAIL second tab: ${e.message}`); }

  // The engine answers at depth 1; watch mode plays both sides.
  try {
    await newGame(page, "microorganism", null);
    await page.selectOption("#strength", "depth:1");
    await page.selectOption("#black", "engine");
    let st = await page.evaluate(() => window.cellmate.state);
    const e2 = st.legal.find((x) => x.text === "e2e4");
    st = await enterMove(page, st, e2);
    await page.waitForFunction(() => { const s = window.cellmate.state; return s.history.length === 2 && !s.thinking; }, null, { timeout: 30000 });
    assert.ok((await page.textContent("#eval")).includes("depth"), "eval shown");
    await checkAgainstEngine(page, "engine reply");
    // Take back: the engine's reply and the player's move; the engine still plays Black.
    await page.click("#undo");
    st = await settle(page);
    assert.equal(st.history.length, 0);
    assert.equal(st.engine.black, true);
    await checkAgainstEngine(page, "take back");
    st = await enterMove(page, st, e2);
    await page.waitForFunction(() => { const s = window.cellmate.state; return s.history.length === 2 && !s.thinking; }, null, { timeout: 30000 });
    await page.selectOption("#white", "engine");
    await page.waitForFunction(() => window.cellmate.state.history.length >= 6, null, { timeout: 60000 });
    await page.selectOption("#white", "human");
    await page.selectOption("#black", "human");
    await page.waitForFunction(() => !window.cellmate.state.thinking, null, { timeout: 30000 });
    await checkAgainstEngine(page, "watch mode");
    console.log("ok   engine reply and watch mode");
  } catch (e) { failures++; console.log(`FAIL engine: ${e.message}`); }

  // A whole game through the page in each variant: the engine plays both sides at depth 1
  // until the rules end the game; the page then shows the result and takes no move. Chess and
  // Infinite Recursion from their start positions; Microorganism and Immune from small
  // positions (two Neurons and two Bacteria; a Macrophage against two Invaders), because a
  // depth-1 search from their full start still takes up to a second a move (quiescence over
  // ~150 moves) and a game from it runs for many minutes.
  const WHOLE = {
    chess: null,
    recursion: null,
    microorganism: "7n8/15b/16/16/16/16/16/16/16/16/16/16/16/16/B15/8N7 w - 0 1 -",
    immune: "4ii4/10/10/10/10/10/10/10/10/4M5 b - 0 1",
  };
  for (const [variant, fen] of Object.entries(WHOLE)) {
    try {
      await newGame(page, variant, fen);
      await page.selectOption("#strength", "depth:1");
      await page.selectOption("#white", "engine");
      await page.selectOption("#black", "engine");
      await page.waitForFunction(() => window.cellmate.state.outcome, null, { timeout: 600000 });
      const st = await settle(page);
      const status = await page.textContent("#status");
      assert.ok(status.includes(`Game over: ${st.outcome.result}`), status);
      await checkAgainstEngine(page, `${variant} game over`);
      const shown = await engineDisplay(page);
      assert.ok(shown.includes(`Fen: ${st.fen}`), "engine's d shows the final position");
      await page.selectOption("#white", "human");
      await page.selectOption("#black", "human");
      console.log(`ok   ${variant}: a whole game, ${st.history.length} plies, ${st.outcome.result} (${st.outcome.reason})`);
    } catch (e) { failures++; console.log(`FAIL ${variant} whole game: ${e.message}`); }
  }

  if (process.env.SHOTS !== "0") {
    for (const [variant, sh] of Object.entries(SHOTS)) {
      await newGame(page, variant, sh.fen);
      await sendAndWait(page, { type: "engine", white: false, black: false, depth: 3 });
      await sendAndWait(page, { type: "go" });
      await page.waitForFunction(() => { const s = window.cellmate.state; return s.history.length === 1 && !s.thinking; }, null, { timeout: 60000 });
      await page.click(`#board .sq[data-sq="${sh.select}"]`);
      const file = path.join(root, `docs/gui-${variant}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`shot ${path.relative(root, file)}`);
    }
  }
} finally {
  await browser.close();
  server.kill();
}
console.log(failures ? `${failures} failure(s)` : "all browser checks passed");
process.exit(failures ? 1 : 0);
