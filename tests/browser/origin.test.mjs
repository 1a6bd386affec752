// Who may use `cellmate gui`, from a real browser (make gui-test): another web page the user
// visits must not open the board's WebSocket, and a DNS-rebinding name must not be served.
//
// A second HTTP server (node's http, port B of 127.0.0.1) serves an "evil" page whose script
// opens ws://127.0.0.1:A/ws and fetches http://127.0.0.1:A/, and records what happened in
// window.evil. Headless Chromium opens it:
//   - against `cellmate gui --port A`: the WebSocket never opens (the server answers 403,
//     Chromium reports the handshake's response code), while the board's own page at
//     http://127.0.0.1:A/ and http://localhost:A/ opens its socket and gets its state;
//   - against a second server started with `--allow-origin http://127.0.0.1:B`: the same
//     page's WebSocket opens and is answered (the page then closes it);
//   - the cross-origin fetch cannot be read either way (no CORS header is sent);
//   - with --host-resolver-rules mapping rebind.test to 127.0.0.1, http://rebind.test:A/ is
//     answered 403 "forbidden: Host or Origin".
//
// Environment: CELLMATE (the binary, default ../../target/quick/cellmate), CHROMIUM (default
// /usr/bin/chromium).

import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import path from "node:path";
import assert from "node:assert/strict";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const binary = process.env.CELLMATE || path.join(root, "target/quick/cellmate");
const portA = 20000 + Math.floor(Math.random() * 2000);
const portA2 = portA + 1;
const portB = portA + 2;
const evilOrigin = `http://127.0.0.1:${portB}`;

// ----- the other web page -----

// What the evil page's script does: the socket and a fetch of the board's page, each outcome
// pushed to window.evil; window.evil.done once the socket has closed (or answered) and both
// fetches have settled.
const EVIL_SCRIPT = `
const A = new URLSearchParams(location.search).get("port");
const r = window.evil = { ws: [], fetch: null, nocors: null, done: false };
let wsDone = false;
const finish = () => { if (wsDone && r.fetch && r.nocors) { r.done = true; document.title = JSON.stringify(r); } };
const ws = new WebSocket("ws://127.0.0.1:" + A + "/ws");
ws.onopen = () => { r.ws.push("open"); ws.send(JSON.stringify({ type: "state" })); };
ws.onmessage = (e) => { r.ws.push("message " + JSON.parse(e.data).type); ws.close(); };
ws.onerror = () => { r.ws.push("error"); };
ws.onclose = (e) => { r.ws.push("close " + e.code); wsDone = true; finish(); };
fetch("http://127.0.0.1:" + A + "/")
  .then((res) => res.text()).then((t) => "read " + t.length + " bytes", (e) => "refused: " + e.name + ": " + e.message)
  .then((s) => { r.fetch = s; finish(); });
fetch("http://127.0.0.1:" + A + "/", { mode: "no-cors" })
  .then(async (res) => res.type + ", status " + res.status + ", body " + JSON.stringify(await res.text()), (e) => "refused: " + e.message)
  .then((s) => { r.nocors = s; finish(); });
`;

function startEvil() {
  const srv = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>evil</title><p>Another web page.</p><script>${EVIL_SCRIPT}</script>`);
  });
  return new Promise((resolve, reject) => {
    srv.on("error", reject);
    srv.listen(portB, "127.0.0.1", () => resolve(srv));
  });
}

// ----- helpers -----

function startServer(port, extra = []) {
  const child = spawn(binary, ["gui", "--port", String(port), ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.stderr.on("data", (d) => { if (String(d).includes("open http")) resolve(child); });
    setTimeout(() => reject(new Error("server did not start")), 10000);
  });
}

// Opens the evil page aimed at the board on `port`; returns window.evil and Chromium's console
// errors (where it names a refused handshake's response code).
async function visitEvil(browser, port) {
  const page = await browser.newPage();
  const console_ = [];
  page.on("console", (m) => { if (m.type() === "error") console_.push(m.text()); });
  await page.goto(`${evilOrigin}/?port=${port}`);
  await page.waitForFunction(() => window.evil && window.evil.done, null, { timeout: 15000 });
  const r = await page.evaluate(() => window.evil);
  await page.close();
  return { ...r, console: console_ };
}

// Opens the board's own page at `url`: its socket opens and the server's state arrives.
async function visitBoard(browser, url) {
  const page = await browser.newPage();
  const sockets = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));
  const res = await page.goto(url);
  assert.equal(res.status(), 200, `${url}: status`);
  await page.waitForFunction(() => window.cellmate && window.cellmate.state, null, { timeout: 15000 });
  const variant = await page.evaluate(() => window.cellmate.state.variant);
  await page.close();
  return { sockets, variant };
}

// ----- main -----

const evil = await startEvil();
const server = await startServer(portA);
const allowing = await startServer(portA2, ["--allow-origin", evilOrigin]);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--host-resolver-rules=MAP rebind.test 127.0.0.1"],
});
let failures = 0;
async function check(label, f) {
  try { console.log(`ok   ${label}: ${await f()}`); } catch (e) { failures++; console.log(`FAIL ${label}: ${e.message}`); }
}
try {
  await check(`board's own page (http://127.0.0.1:${portA}/, http://localhost:${portA}/)`, async () => {
    const own = await visitBoard(browser, `http://127.0.0.1:${portA}/`);
    const local = await visitBoard(browser, `http://localhost:${portA}/`);
    // The page's socket carries its token (`page=`), which `cellmate gui` ignores.
    assert.equal(own.sockets.length, 1, `sockets: ${own.sockets}`);
    assert.match(own.sockets[0], new RegExp(`^ws://127\\.0\\.0\\.1:${portA}/ws\\?page=[0-9a-f]{24}$`));
    assert.equal(local.sockets.length, 1, `sockets: ${local.sockets}`);
    assert.match(local.sockets[0], new RegExp(`^ws://localhost:${portA}/ws\\?page=[0-9a-f]{24}$`));
    return `WebSocket opened, state received (${own.variant}) on both`;
  });

  await check(`page from ${evilOrigin} against --port ${portA}`, async () => {
    const r = await visitEvil(browser, portA);
    assert.ok(!r.ws.includes("open"), `socket opened: ${r.ws}`);
    assert.equal(r.ws[0], "error", `events: ${r.ws}`);
    assert.match(r.ws[r.ws.length - 1], /^close 1006$/, `events: ${r.ws}`);
    const refusal = r.console.find((t) => t.includes(`ws://127.0.0.1:${portA}/ws`));
    assert.ok(refusal && refusal.includes("403"), `no 403 in the console: ${r.console}`);
    assert.match(r.fetch, /^refused: TypeError/, `fetch: ${r.fetch}`);
    assert.match(r.nocors, /^opaque, status 0, body ""$/, `no-cors fetch: ${r.nocors}`);
    return `WebSocket ${r.ws.join(", ")}, never open (${refusal.replace(/^.*failed: /, "")}); `
      + `fetch ${r.fetch}; no-cors fetch ${r.nocors}`;
  });

  await check(`page from ${evilOrigin} against --port ${portA2} --allow-origin ${evilOrigin}`, async () => {
    const r = await visitEvil(browser, portA2);
    assert.deepEqual(r.ws.slice(0, 2), ["open", "message state"], `events: ${r.ws}`);
    assert.match(r.fetch, /^refused: TypeError/, `fetch: ${r.fetch}`);
    return `WebSocket ${r.ws.join(", ")}; fetch still ${r.fetch} (no CORS header)`;
  });

  await check(`DNS rebinding (rebind.test mapped to 127.0.0.1)`, async () => {
    const page = await browser.newPage();
    const res = await page.goto(`http://rebind.test:${portA}/`);
    const body = await res.text();
    await page.close();
    assert.equal(res.status(), 403);
    assert.equal(body, "forbidden: Host or Origin\n");
    return `http://rebind.test:${portA}/ answered ${res.status()} ${JSON.stringify(body.trim())}`;
  });
} finally {
  await browser.close();
  server.kill();
  allowing.kill();
  evil.close();
}
console.log(failures ? `${failures} origin failure(s)` : "all origin checks passed");
process.exit(failures ? 1 : 0);
