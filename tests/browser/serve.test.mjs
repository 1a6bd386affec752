// `cellmate serve` from a real browser (make gui-test): a game's URL, the page's socket moved
// to it, and the game kept across a kill -9 of the server.
//
// Headless Chromium opens the page, plays e2e4 with the mouse against the engine (depth 1) and
// sees the address bar become /game/<id> once the move is stored. Once the engine has answered
// the page moves its socket to /ws?game=<id>&page=<token> (window.cellmate.socket): no error
// line, and a move sent while the new socket is still connecting (d2d4, from a hook called as
// the page moves it) is queued and played. A second page at /game/<id> watches. A new game
// after that: its first move gives another id, the socket moves again, and a move clicked right
// as the engine's answer arrives (around the move of the socket) is played. The server is
// killed with SIGKILL; a move clicked while it is down waits in the page's queue; started
// again on the same address and database, the page connects again by itself and the move is
// played. Last, a server on another port: the page opened at that /game/<id> shows the game,
// which goes on.
//
// Environment: CELLMATE (the binary, default ../../target/quick/cellmate), CHROMIUM (default
// /usr/bin/chromium).

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
const dir = mkdtempSync(path.join(os.tmpdir(), "cellmate-serve-"));
const db = path.join(dir, "games.db");

// The whole test is bounded: a hang fails it.
const deadline = setTimeout(() => { console.error("serve.test.mjs: over 90 s"); process.exit(1); }, 90_000);

// Starts `cellmate serve` on `bind` (a free port by default); resolves to
// [process, "127.0.0.1:PORT"].
function start(bind = "127.0.0.1:0") {
  return new Promise((resolve, reject) => {
    const p = spawn(binary, ["serve", "--bind", bind, "--workers", "1", "--hash", "4", "--db", db]);
    let log = "";
    p.stderr.on("data", (d) => {
      log += d;
      const m = log.match(/listening on http:\/\/(127\.0\.0\.1:\d+)/);
      if (m) resolve([p, m[1]]);
    });
    p.on("exit", (code) => reject(new Error(`cellmate serve exited (${code}): ${log}`)));
  });
}

function kill(p) {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => { p.on("exit", resolve); p.kill("SIGKILL"); });
}

// The moves of the last state the page got.
const moves = (page) => page.evaluate(() => window.cellmate.state.history.map((h) => h.text));
const plies = (page, n) => page.waitForFunction((n) => {
  const s = window.cellmate.state;
  return s && s.history.length === n && !s.thinking;
}, n, { timeout: 20_000 });

async function click(page, from, to) {
  await page.click(`[data-sq="${from}"]`);
  await page.click(`[data-sq="${to}"]`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
let server;
try {
  let addr;
  [server, addr] = await start();
  const page = await browser.newPage();
  await page.goto(`http://${addr}/`);
  await plies(page, 0);
  assert.equal(new URL(page.url()).pathname, "/", "no game stored before a move");
  assert.match(await page.evaluate(() => window.cellmate.socket), /\/ws\?page=[0-9a-f]+$/);
  await page.evaluate(() => window.cellmate.send({ type: "engine", white: false, black: true, depth: 1 }));
  // As the page moves its socket (the new one still connecting), a move is sent: it is queued.
  await page.evaluate(() => {
    window.cellmate.onMoveSocket = () => {
      window.cellmate.queuedAtMove = window.cellmate.queued;
      window.cellmate.send({ type: "move", move: "d2d4" });
      window.cellmate.queuedAfter = window.cellmate.queued;
      window.cellmate.onMoveSocket = null;
    };
  });
  await click(page, "e2", "e4");
  await plies(page, 4);
  const gamePath = new URL(page.url()).pathname;
  assert.match(gamePath, /^\/game\/[0-9a-f]{16}$/);
  const id = gamePath.slice(6);
  const first = await page.evaluate(() => ({
    socket: window.cellmate.socket, moves: window.cellmate.moves, opens: window.cellmate.opens,
    before: window.cellmate.queuedAtMove, after: window.cellmate.queuedAfter,
  }));
  assert.match(first.socket, new RegExp(`/ws\\?game=${id}&page=[0-9a-f]+$`), "the socket on the game's URL");
  assert.deepEqual([first.moves, first.opens, first.before, first.after], [1, 2, 0, 1], "one move of the socket, the move queued");
  const before = await moves(page);
  assert.deepEqual([before[0], before[2]], ["e2e4", "d2d4"]);
  assert.equal(await page.textContent("#error"), "", "an error line after the socket moved");
  const stored = await (await fetch(`http://${addr}/game/${id}/json`)).json();
  assert.deepEqual(stored.moves.map((m) => m.move), before, "the queued move stored");

  // Another page on the game watches it: the first page still plays it.
  const watcher = await browser.newPage();
  await watcher.goto(`http://${addr}${gamePath}`);
  await watcher.waitForFunction(() => window.cellmate.state && window.cellmate.state.watching === true, null, { timeout: 20_000 });
  await watcher.close();

  // A new game: its first move gives another id and the socket moves again; a move clicked as
  // soon as the engine's answer is shown (the socket moving then) is played.
  await page.click("#new");
  await plies(page, 0);
  assert.equal(new URL(page.url()).pathname, "/");
  await click(page, "e2", "e4");
  await plies(page, 2);
  await click(page, "g1", "f3");
  await plies(page, 4);
  const second = new URL(page.url()).pathname;
  assert.match(second, /^\/game\/[0-9a-f]{16}$/);
  assert.notEqual(second, gamePath);
  const now = await page.evaluate(() => ({ socket: window.cellmate.socket, moves: window.cellmate.moves }));
  assert.match(now.socket, new RegExp(`/ws\\?game=${second.slice(6)}&page=`));
  assert.equal(now.moves, 2);
  assert.equal((await moves(page))[2], "g1f3");
  assert.equal(await page.textContent("#error"), "");

  // Killed; a move clicked while the server is down waits; the server started again on the same
  // address: the page connects again, the move is sent and played.
  await kill(server);
  await page.waitForFunction(() => window.cellmate.socket && document.getElementById("error").textContent !== "", null, { timeout: 20_000 });
  await click(page, "d2", "d4");
  assert.equal(await page.evaluate(() => window.cellmate.queued), 1, "the move waits in the queue");
  [server, addr] = await start(addr);
  await plies(page, 6);
  const kept = await moves(page);
  assert.equal(kept[4], "d2d4", "the move clicked while the server was down");
  assert.equal(new URL(page.url()).pathname, second);
  assert.equal(await page.textContent("#error"), "");

  await kill(server);
  [server, addr] = await start();
  await page.goto(`http://${addr}${second}`);
  await plies(page, 6);
  assert.deepEqual(await moves(page), kept, "the game after kill -9 and restart");
  assert.equal(new URL(page.url()).pathname, second);
  await click(page, "c2", "c4");
  await plies(page, 8);
  const after = await moves(page);
  assert.deepEqual(after.slice(0, 7), [...kept, "c2c4"]);
  console.log(`serve: socket moved to ${first.socket.replace(/^.*\/ws/, "/ws")}; ${second} kept across kill -9: ${after.join(" ")}`);
} finally {
  await browser.close();
  if (server) await kill(server);
  rmSync(dir, { recursive: true, force: true });
  clearTimeout(deadline);
}
