// `cellmate serve` from a real browser (make gui-test): a game's URL, and the game kept across
// a kill -9 of the server.
//
// Headless Chromium opens the page, plays e2e4 with the mouse against the engine (depth 1) and
// sees the address bar become /game/<id> once the move is stored; the server is killed with
// SIGKILL and started again on the same database (another port); the page opened at that
// /game/<id> shows both moves, and the game goes on (d2d4, the engine answers).
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

// Starts `cellmate serve` on a free port; resolves to [process, "127.0.0.1:PORT"].
function start() {
  return new Promise((resolve, reject) => {
    const p = spawn(binary, ["serve", "--bind", "127.0.0.1:0", "--workers", "1", "--hash", "4", "--db", db]);
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
  await page.evaluate(() => window.cellmate.send({ type: "engine", white: false, black: true, depth: 1 }));
  await click(page, "e2", "e4");
  await plies(page, 2);
  const gamePath = new URL(page.url()).pathname;
  assert.match(gamePath, /^\/game\/[0-9a-f]{16}$/);
  const before = await moves(page);
  assert.equal(before[0], "e2e4");

  await kill(server);
  [server, addr] = await start();
  await page.goto(`http://${addr}${gamePath}`);
  await plies(page, 2);
  assert.deepEqual(await moves(page), before, "the game after kill -9 and restart");
  assert.equal(new URL(page.url()).pathname, gamePath);
  await click(page, "d2", "d4");
  await plies(page, 4);
  const after = await moves(page);
  assert.deepEqual(after.slice(0, 3), [...before, "d2d4"]);
  console.log(`serve: ${gamePath} kept across kill -9: ${after.join(" ")}`);
} finally {
  await browser.close();
  if (server) await kill(server);
  rmSync(dir, { recursive: true, force: true });
  clearTimeout(deadline);
}
