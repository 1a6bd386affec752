// A player's journey through the board page of `cellmate serve` (make gui-test), per variant at
// a laptop's window (1024×700, mouse) and a phone's (390×844, touch):
//
// - the whole board and the controls one needs (variant, New game, Go, Take back) are in the
//   window without scrolling, and the page is no wider than the window;
// - the variant menu keeps the player's choice while states arrive (a strength change answers
//   with one), and New game then starts that variant;
// - the player plays a few moves (clicks, or taps on the phone) against the engine (depth 1),
//   the side that moves first in the variant (Immune Chess: the Invaders);
// - the move list is numbered as moves, the first mover on the left; the evaluation graph has
//   the engine's scores;
// - the page is reloaded mid-game: the same game (its /game/<id> URL), the graph kept, and it
//   goes on;
// - the server is killed (SIGKILL) mid-game and started again: the page connects again by
//   itself and the game goes on;
// - the piece guide draws a piece type's moves, exactly the legal moves the server sent;
// - a screenshot of the window: docs/gui-<variant>-<laptop|phone>.png.
//
// Then importing a FEN of another variant than the menu's picks that variant.
//
// Environment: CELLMATE (the binary), CHROMIUM (default /usr/bin/chromium), SHOTS=0 to skip the
// screenshots.

import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import assert from "node:assert/strict";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const binary = process.env.CELLMATE || path.join(root, "target/quick/cellmate");
const dir = mkdtempSync(path.join(os.tmpdir(), "cellmate-journey-"));
const deadline = setTimeout(() => { console.error("journey.test.mjs: over 10 minutes"); process.exit(1); }, 600_000);

const SIZES = {
  laptop: { viewport: { width: 1024, height: 700 }, hasTouch: false },
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 },
};
const VARIANTS = ["chess", "recursion", "microorganism", "immune"];
const PLAYER_MOVES = 2; // the player's moves before the reload (each answered by the engine)

function start(bind = "127.0.0.1:0") {
  return new Promise((resolve, reject) => {
    const p = spawn(binary, ["serve", "--bind", bind, "--workers", "1", "--hash", "8", "--db", path.join(dir, "games.db")]);
    let log = "";
    p.stderr.on("data", (d) => {
      log += d;
      const m = log.match(/listening on http:\/\/(127\.0\.0\.1:\d+)/);
      if (m) resolve([p, m[1]]);
    });
    p.on("exit", (code) => reject(new Error(`cellmate serve exited (${code}): ${log}`)));
  });
}

// The server killed with SIGKILL and started again on the same address and database.
let server;
let addr;
async function restart() {
  await new Promise((resolve) => { server.on("exit", resolve); server.kill("SIGKILL"); });
  [server, addr] = await start(addr);
}

async function settle(page) {
  await page.waitForFunction(() => window.cellmate && window.cellmate.state && window.cellmate.pending === 0, null, { timeout: 30000 });
  return page.evaluate(() => window.cellmate.state);
}

// Waits until the game has `n` plies and the engine is not thinking.
async function plies(page, n) {
  await page.waitForFunction((n) => {
    const s = window.cellmate && window.cellmate.state;
    return s && s.history.length === n && !s.thinking && window.cellmate.pending === 0;
  }, n, { timeout: 60000 });
  return page.evaluate(() => window.cellmate.state);
}

// Is the element wholly inside the window as it is scrolled now?
async function inWindow(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;
  });
}

async function checkFits(page, label) {
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const sel of ["#board", "#variant", "#new", "#go", "#undo", "#status"]) {
    assert.ok(await inWindow(page, sel), `${label}: ${sel} is not wholly in the window`);
  }
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(wide <= 0, `${label}: the page is ${wide}px wider than the window`);
}

// A move of the side to move whose from/to pair is unique (no chooser), picked by `k`.
function pickMove(st, k) {
  const pairs = {};
  for (const m of st.legal) if (m.from) pairs[m.from.name + m.to.name] = (pairs[m.from.name + m.to.name] || 0) + 1;
  const ok = st.legal.filter((m) => m.from && pairs[m.from.name + m.to.name] === 1 && /^[a-p][0-9]+[a-p][0-9]+$/.test(m.text));
  assert.ok(ok.length, "no move to enter");
  return ok[(k * 7 + 3) % ok.length];
}

async function enter(page, touch, m) {
  const press = (sq) => (touch ? page.tap(`#board .sq[data-sq="${sq}"]`) : page.click(`#board .sq[data-sq="${sq}"]`));
  await press(m.from.name);
  const shown = await page.$$eval("#board .sq.target", (els) => els.map((e) => e.dataset.sq));
  assert.ok(shown.includes(m.to.name), `${m.text}: target ${m.to.name} not shown`);
  await press(m.to.name);
}

// The move list as text lines.
const moveRows = (page) => page.$$eval("#moves .moverow", (rows) => rows.map((r) => [...r.children].map((c) => c.textContent).join(" ")));

async function journey(browser, addr, variant, sizeName) {
  const label = `${variant} ${sizeName}`;
  const size = SIZES[sizeName];
  const context = await browser.newContext(size);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    await page.goto(`http://${addr}/`);
    await settle(page);
    // The menu keeps the choice while a state arrives; New game starts it.
    await page.selectOption("#white", "human");
    await page.selectOption("#black", "human");
    await page.selectOption("#variant", variant);
    await page.selectOption("#strength", "depth:1");
    await settle(page);
    assert.equal(await page.inputValue("#variant"), variant, `${label}: the menu jumped back`);
    await page.click("#new");
    let st = await settle(page);
    assert.equal(st.variant, variant, `${label}: New game started ${st.variant}`);
    // The engine plays the side that moves second.
    const [human, engine] = st.first_side === "white" ? ["#white", "#black"] : ["#black", "#white"];
    await page.selectOption(human, "human");
    await page.selectOption(engine, "engine");
    st = await settle(page);
    await checkFits(page, label);

    let n = 0;
    for (let i = 0; i < PLAYER_MOVES; i++) {
      const m = pickMove(st, i);
      await enter(page, size.hasTouch, m);
      n += 2;
      st = await plies(page, n);
      assert.equal(st.history[n - 2].text, m.text, `${label}: played ${st.history[n - 2].text}, not ${m.text}`);
    }
    // Numbered as moves, the first mover on the left.
    const rows = await moveRows(page);
    assert.equal(rows.length, PLAYER_MOVES, `${label}: rows ${JSON.stringify(rows)}`);
    assert.ok(rows[0].startsWith("1. ") && rows[0].includes(st.history[0].text) && rows[0].includes(st.history[1].text), rows[0]);
    assert.equal(st.history[0].side, st.first_side);
    const points = Number(await page.$eval("#evalgraph", (e) => e.dataset.points));
    assert.ok(points >= 1, `${label}: no score in the evaluation graph`);
    await checkFits(page, `${label} after ${n} plies`);

    // Reload mid-game: the same game at its URL, and it goes on.
    const url = new URL(page.url()).pathname;
    assert.match(url, /^\/game\/[0-9a-f]+$/, `${label}: no game URL`);
    const before = st.history.map((h) => h.text);
    await page.reload();
    st = await plies(page, n);
    assert.deepEqual(st.history.map((h) => h.text), before, `${label}: the game after the reload`);
    assert.equal(await page.inputValue("#variant"), variant);
    assert.ok(Number(await page.$eval("#evalgraph", (e) => e.dataset.points)) >= points, `${label}: graph lost on reload`);
    await checkFits(page, `${label} after the reload`);
    const m = pickMove(st, 5);
    await enter(page, size.hasTouch, m);
    n += 2;
    st = await plies(page, n);
    assert.equal(st.history[n - 2].text, m.text);

    // The server killed (kill -9) as soon as the player's move is stored, the engine's answer
    // perhaps not yet found, and started again: the page connects again by itself, the game
    // comes back from the store and the engine answers.
    const m2 = pickMove(st, 2);
    await enter(page, size.hasTouch, m2);
    await page.waitForFunction((n) => window.cellmate.state.history.length >= n, n + 1, { timeout: 30000 });
    const opens = await page.evaluate(() => window.cellmate.opens);
    await restart();
    n += 2;
    // A state from the new server process (on a socket opened after the kill: the old one may
    // have sent the engine's answer just before it), with the engine's answer.
    await page.waitForFunction(([opens, n]) => window.cellmate.opens > opens &&
      window.cellmate.messages.slice(window.cellmate.openedAt).some((x) => x.type === "state" && x.history.length === n && !x.thinking),
    [opens, n], { timeout: 60000 });
    st = await plies(page, n);
    assert.equal(st.history[n - 2].text, m2.text, `${label}: the player's move after the restart`);
    assert.equal(new URL(page.url()).pathname, url, `${label}: another game after the restart`);
    assert.equal(await page.textContent("#error"), "", `${label}: an error line after the restart`);
    await checkFits(page, `${label} after the restart`);

    // The piece guide: the first piece type's moves, as the server sent them.
    const guideReply = page.waitForFunction(() => window.cellmate.messages.some((x) => x.type === "guide" && x.letter));
    const letter = await page.$eval("#guide-piece", (s) => s.options[1].value);
    await page.selectOption("#guide-piece", letter);
    await guideReply;
    await settle(page);
    const g = await page.evaluate(() => window.cellmate.messages.filter((x) => x.type === "guide" && x.letter).pop());
    const drawn = (await page.$$eval("#guide-board .sq.target", (els) => els.map((e) => e.dataset.sq))).sort();
    assert.deepEqual(drawn, [...new Set(g.legal.map((x) => x.to.name))].sort(), `${label}: guide targets`);
    assert.equal(await page.$eval(`#guide-board .sq[data-sq="${g.square}"]`, (e) => e.dataset.piece), letter);
    assert.ok((await page.textContent("#guide-about")).includes(g.about));

    // A piece selected, for the picture.
    const sel = pickMove(st, 1);
    await page.click(`#board .sq[data-sq="${sel.from.name}"]`);
    await page.evaluate(() => window.scrollTo(0, 0));
    if (process.env.SHOTS !== "0") {
      const file = path.join(root, `docs/gui-${variant}-${sizeName}.png`);
      await page.screenshot({ path: file });
      console.log(`shot ${path.relative(root, file)}`);
    }
    assert.deepEqual(errors, [], `${label}: page errors`);
    console.log(`ok   ${label}: fits, ${n} plies (${st.history.map((h) => h.text).join(" ")}), reload and kill -9 kept ${url}, guide ${g.name}: ${drawn.length} targets`);
    return 0;
  } catch (e) {
    console.log(`FAIL ${label}: ${e.message}`);
    return 1;
  } finally {
    await context.close();
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let failures = 0;
try {
  [server, addr] = await start();
  const only = process.env.ONLY ? process.env.ONLY.split(",") : null;
  for (const variant of VARIANTS) {
    for (const sizeName of Object.keys(SIZES)) {
      if (only && !only.includes(variant) && !only.includes(sizeName)) continue;
      failures += await journey(browser, addr, variant, sizeName);
    }
  }
  // Import picks the variant by itself: an Immune Chess FEN with the menu on chess.
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
    await page.goto(`http://${addr}/`);
    await settle(page);
    await page.selectOption("#variant", "chess");
    const fen = "4ii4/10/10/10/10/10/10/10/10/4M5 b - 0 1";
    await page.fill("#import", fen);
    await page.click("#import-btn");
    let st = await settle(page);
    assert.equal(st.variant, "immune");
    assert.equal(st.fen, fen);
    assert.equal(await page.inputValue("#variant"), "immune", "the menu follows the import");
    await page.fill("#import", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1");
    await page.click("#import-btn");
    st = await settle(page);
    const err = await page.textContent("#error");
    assert.match(err, /^This is not a FEN of any variant: read as immune,/, err);
    assert.equal(st.fen, fen, "a bad import changes nothing");
    await page.close();
    console.log(`ok   import: an Immune Chess FEN with the menu on chess opens Immune Chess; a bad one says: ${err}`);
  } catch (e) { failures++; console.log(`FAIL import: ${e.message}`); }
} finally {
  await browser.close();
  if (server) server.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  clearTimeout(deadline);
}
console.log(failures ? `${failures} failure(s)` : "all journeys passed");
process.exit(failures ? 1 : 0);
