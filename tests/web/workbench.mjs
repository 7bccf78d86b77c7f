// Browser tests of the workbench, in headless Chromium through playwright-core.
//
//   node tests/web/workbench.mjs api|page
//
// Environment: BACKTRACK_BIN (the backtrack binary), CHROMIUM (default
// /usr/bin/chromium), SCREENSHOT (where `page` saves a PNG of the page).
// `api` checks the WebAssembly module's exports against `backtrack trace`;
// `page` drives the page served by `backtrack web`. Exits non-zero on failure.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const bin = process.env.BACKTRACK_BIN;
if (!bin) throw new Error("BACKTRACK_BIN is not set");
const mode = process.argv[2];

const NEWSPAPER = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/** The statements' samples of the judge problems the page traces. */
const JUDGE_INPUTS = {
  14888: "6\n1 2 3 4 5 6\n2 1 1 1\n",
  1759: "4 6\na t c i s w\n",
  1987: "3 6\nHFDFFB\nAJHGDH\nDGAGEH\n",
};

/** The lines `backtrack trace` prints for `args` (with `input` on standard input), the summary line last. */
function trace(input, ...args) {
  let text;
  try {
    text = execFileSync(bin, ["trace", ...args], { encoding: "utf8", maxBuffer: 1 << 28, input: input || "" });
  } catch (err) {
    text = err.stdout; // exit status 1: no solution
  }
  return text.trimEnd().split("\n");
}

function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
}

function sameLines(got, want, what) {
  check(got.length === want.length, `${what}: ${got.length} lines, expected ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    check(got[i] === want[i], `${what}: line ${i + 1} is ${JSON.stringify(got[i])}, expected ${JSON.stringify(want[i])}`);
  }
}

/** Starts `backtrack web --port 0` and returns its URL and process. */
async function serve() {
  const server = spawn(bin, ["web", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let seen = "";
    server.stdout.on("data", (chunk) => {
      seen += chunk;
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(seen);
      if (m) resolve(m[0]);
    });
    server.on("exit", (code) => reject(new Error(`backtrack web exited with ${code}`)));
  });
  return { url, server };
}

async function main() {
  const { url, server } = await serve();
  const profile = mkdtempSync(join(tmpdir(), "backtrack-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  try {
    const page = browser.pages()[0] || (await browser.newPage());
    const errors = [];
    page.on("pageerror", (err) => errors.push(err.message));
    // Nothing but the local server may be reached: the page works offline.
    await page.route("**/*", (route) => (route.request().url().startsWith(url) ? route.continue() : route.abort()));
    const begin = Date.now();
    await page.goto(url);
    await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    const loadMs = Date.now() - begin;
    if (mode === "api") await api(page);
    else if (mode === "page") await workbench(page, loadMs);
    else throw new Error("mode must be api or page");
    check(errors.length === 0, "errors on the page: " + errors.join("; "));
  } finally {
    await browser.close();
    server.kill();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The module's exports, called from the page, against the binary. */
async function api(page) {
  const cases = [
    ["queens 6", true, ["queens", "6", "--order", "naive"]],
    ["queens 6", false, ["queens", "6"]],
    ["choose comb 5 3", false, ["choose", "comb", "5", "3"]],
    [`sudoku ${NEWSPAPER}`, true, ["sudoku", "--order", "naive", "--limit", "3000", NEWSPAPER]],
  ];
  // The judge problems, both ways, their input given as the page gives it.
  for (const [id, input] of Object.entries(JUDGE_INPUTS)) {
    cases.push([`boj ${id} ${input}`, true, ["boj", id, "--order", "naive"], input]);
    cases.push([`boj ${id} ${input}`, false, ["boj", id], input]);
  }
  for (const [spec, naive, args, input] of cases) {
    const want = trace(input, ...args);
    const got = await page.evaluate(async ([spec, naive]) => {
      const engine = await window.backtrack.loadEngine("backtrack.wasm");
      const h = engine.open(spec, naive);
      // Fetched in uneven pieces: each piece walks the search again from the start.
      const lines = [];
      for (let piece = 1; ; piece = piece * 2 + 1) {
        const events = engine.events(h, lines.length, piece);
        lines.push(...events.map((e) => e.line));
        if (events.length < piece || lines.length >= 3000) break;
      }
      const summary = engine.summary(h);
      const board = engine.board(h);
      engine.close(h);
      return { lines: lines.slice(0, 3000), summary, board };
    }, [spec, naive]);
    sameLines(got.lines, want.slice(0, -1), `events of ${spec}`);
    check(got.summary === want[want.length - 1], `summary of ${spec}: ${got.summary}`);
    if (spec.startsWith("sudoku")) {
      const givens = [...NEWSPAPER].map((c) => (c === "." ? 0 : +c));
      check(JSON.stringify(got.board) === JSON.stringify(givens), "the naive board starts at the givens");
    }
  }
  // The same events and summary in Korean, as `backtrack trace --lang ko` prints them.
  const korean = await page.evaluate(async () => {
    const engine = await window.backtrack.loadEngine("backtrack.wasm");
    const h = engine.open("queens 4", true);
    const lines = engine.events(h, 0, 1000, "ko").map((e) => e.line);
    const summary = engine.summary(h, "ko");
    engine.close(h);
    return { lines, summary };
  });
  const koWant = trace("", "queens", "4", "--order", "naive", "--lang", "ko");
  sameLines(korean.lines, koWant.slice(0, -1), "Korean events of queens 4");
  check(korean.summary === koWant[koWant.length - 1], "Korean summary of queens 4: " + korean.summary);
  const refused = await page.evaluate(async () => {
    const engine = await window.backtrack.loadEngine("backtrack.wasm");
    try { engine.open("queens 99", false); return "opened"; } catch (err) { return err.message; }
  });
  check(/queens trace takes N from 1 to/.test(refused), "queens 99 is refused: " + refused);
  console.log(JSON.stringify({ api: "ok", cases: cases.length }));
}

const logLines = (page, id = "#log") =>
  page.$eval(id, (el) => el.textContent.split("\n").filter((line) => line !== ""));

async function choose(page, problem) {
  await page.selectOption("#problem", problem);
}

/** The page itself: step, back, run to the end, naive against smart. */
async function workbench(page, loadMs) {
  // 8-queens: 25 steps, 5 back, then run to the end.
  await choose(page, "queens");
  await page.fill("#n", "8");
  await page.dispatchEvent("#n", "change");
  for (let i = 0; i < 25; i++) await page.click("#step");
  const full = trace("", "queens", "8");
  sameLines(await logLines(page), full.slice(0, 25), "#log after 25 steps of 8-queens");
  const queens = await page.$$eval("#board .queen", (els) => els.length);
  const placed = full.slice(0, 25).filter((l) => l.trim().startsWith("try")).length
    - full.slice(0, 25).filter((l) => l.trim().startsWith("undo")).length;
  check(queens === placed, `#board shows ${queens} queens, expected ${placed}`);
  check((await page.$$eval("#board > *", (els) => els.length)) === 64, "an 8x8 board");
  for (let i = 0; i < 5; i++) await page.click("#back");
  sameLines(await logLines(page), full.slice(0, 20), "#log after 5 steps back");
  const begin = Date.now();
  await page.click("#run");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("done"), null,
    { timeout: 120000 });
  const runMs = Date.now() - begin;
  const runInPageMs = +(await page.getAttribute("body", "data-last-run-ms"));
  check((await page.textContent("#solutions")) === "92", "8 queens have 92 solutions");
  sameLines(await logLines(page), full.slice(0, -1), "#log of the whole 8-queens search");
  const naiveFull = trace("", "queens", "8", "--order", "naive");
  check((await page.textContent("#solutions-naive")) === "92", "the naive search finds 92 too");
  sameLines(await logLines(page, "#log-naive"), naiveFull.slice(0, -1), "#log-naive of 8-queens");

  // Sudoku, naive against smart, with the conflicting cell highlighted.
  await choose(page, "sudoku");
  await page.fill("#puzzle", NEWSPAPER);
  await page.dispatchEvent("#puzzle", "change");
  check((await page.$$eval("#board .cell", (els) => els.length)) === 81, "81 cells in #board");
  check((await page.$$eval("#board-naive .cell", (els) => els.length)) === 81, "81 cells in #board-naive");
  for (let i = 0; i < 2; i++) await page.click("#step");
  const naive = trace("", "sudoku", "--order", "naive", "--limit", "2", NEWSPAPER);
  sameLines(await logLines(page, "#log-naive"), naive.slice(0, 2), "#log-naive after 2 steps");
  check((await page.$$eval("#board-naive .conflict", (els) => els.length)) === 1, "a rejection shows its conflict");
  const smart = trace("", "sudoku", NEWSPAPER);
  sameLines(await logLines(page), smart.slice(0, Math.min(2, smart.length - 1)), "#log of the smart sudoku");
  const cells = await page.$$eval("#board .cell", (els) => els.map((e) => e.textContent).join(""));
  check(cells.length === 81 && /^[1-9]+$/.test(cells), "the smart search fills the newspaper grid: " + cells);

  // A bad puzzle (a repeated digit) after a searched one: the error stays
  // through step, play and run, and nothing of the last search is left.
  const repeated = "11" + NEWSPAPER.slice(2);
  await page.fill("#puzzle", repeated);
  await page.dispatchEvent("#puzzle", "change");
  const refusal = await page.textContent("#status");
  check(refusal.startsWith("cannot start"), "a repeated digit is refused: " + refusal);
  for (const button of ["#step", "#back", "#play", "#run"]) {
    await page.click(button);
    check((await page.textContent("#status")) === refusal, `the error stays after ${button}: `
      + (await page.textContent("#status")));
  }
  for (const id of ["#nodes", "#solutions", "#events", "#nodes-naive", "#solutions-naive", "#events-naive"]) {
    check((await page.textContent(id)) === "0", `${id} is cleared after a bad puzzle: ` + (await page.textContent(id)));
  }
  for (const id of ["#board", "#board-naive", "#log", "#log-naive"]) {
    check((await page.$eval(id, (el) => el.textContent)) === "", `${id} is cleared after a bad puzzle`);
  }
  check((await page.$$eval("#path li, #path-naive li", (els) => els.length)) === 0, "no current branch is left");
  await page.fill("#puzzle", NEWSPAPER);
  await page.dispatchEvent("#puzzle", "change");
  check((await page.textContent("#status")) === "ready", "a good puzzle clears the error");

  // Each judge problem from the list: it starts from its sample, both searches run to the end and
  // their logs are the command's, the board shows the problem (numbers and gaps, letter slots, the
  // letter grid with the walk marked).
  for (const [id, input] of Object.entries(JUDGE_INPUTS)) {
    await choose(page, id);
    check((await page.inputValue("#input")) === input, `${id} starts from its sample`);
    check(!(await page.isVisible("#n")), `${id} hides N`);
    const cells = await page.$$eval("#board > *", (els) => els.length);
    const want = { 14888: 11, 1759: 4, 1987: 18 }[id];
    check(cells === want, `${id}: ${cells} cells on the board, expected ${want}`);
    for (let i = 0; i < 2; i++) await page.click("#step");
    if (id === "14888") {
      const board = await page.$$eval("#board > *", (els) => els.map((e) => e.textContent).join(" "));
      check(board.startsWith("1 + 2 + 3  4"), "14888's board shows the numbers and the operators laid: " + board);
    }
    if (id === "1987") {
      const on = await page.$$eval("#board .letter.on", (els) => els.map((e) => e.textContent).join(""));
      check(on === "HAD", "1987's board marks the walk: " + on);
    }
    await page.click("#run");
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("done"), null,
      { timeout: 60000 });
    sameLines(await logLines(page), trace(input, "boj", id).slice(0, -1), `#log of ${id}`);
    sameLines(await logLines(page, "#log-naive"), trace(input, "boj", id, "--order", "naive").slice(0, -1),
      `#log-naive of ${id}`);
    if (id === "1987") {
      check((await page.$$eval("#board .letter.on", (els) => els.length)) === 1, "the walk is back at the start");
      check((await page.textContent("#board .letter")) === "H", "the board shows the letters");
      const summary = await page.textContent("#summary");
      check(summary === "solutions 7; smart 20 nodes, naive 41 nodes", "the summary of 1987: " + summary);
    }
  }
  // A bad input is refused in words, with its line and column.
  await choose(page, "1987");
  await page.fill("#input", "3 6\nHFDFFB\nAJHGDH\nDGAGE1\n");
  await page.dispatchEvent("#input", "change");
  const refusedInput = await page.textContent("#status");
  check(/cannot start: line 4, column 6/.test(refusedInput), "a bad 1987 board is refused: " + refusedInput);

  // The N field refuses what the page cannot run: it says max 12.
  await choose(page, "queens");
  for (const bad of ["13", "0", "2.5"]) {
    await page.fill("#n", bad);
    await page.dispatchEvent("#n", "change");
    const said = await page.textContent("#status");
    check(/N must be a whole number from 1 to 12/.test(said), `N ${bad} is refused: ` + said);
    check((await page.$$eval("#board > *", (els) => els.length)) === 0, `no board for N ${bad}`);
  }
  await page.fill("#n", "12");
  await page.dispatchEvent("#n", "change");
  check((await page.textContent("#status")) === "ready", "N 12 runs");

  // The 한국어/English switch: the page's words and its status and summary in Korean, the choice
  // kept over a reload, then back to English (kept too).
  const said = async (selector) => page.textContent(selector);
  const reload = async () => {
    await page.reload();
    await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  };
  await page.fill("#n", "4");
  await page.dispatchEvent("#n", "change");
  await page.click("#lang");
  check((await said("#status")) === "준비", "the status in Korean: " + (await said("#status")));
  check((await said("h1")) === "backtrack 워크벤치", "the title in Korean: " + (await said("h1")));
  check((await said("#lang")) === "English", "the switch offers English: " + (await said("#lang")));
  check((await page.getAttribute("html", "lang")) === "ko", "the page says it is in Korean");
  await page.click("#run");
  await page.waitForFunction(() => document.getElementById("status").textContent === "완료", null, { timeout: 30000 });
  check((await said("#summary")) === "해 2개; smart 노드 16개, naive 노드 60개", "a Korean summary: " + (await said("#summary")));
  check((await said("#play")) === "재생", "the play button in Korean: " + (await said("#play")));
  // The logs speak Korean too, as `backtrack trace --lang ko` does; the switch rewrites them.
  const koLines = trace("", "queens", "4", "--lang", "ko");
  check(koLines[0].startsWith("시도 "), "a Korean trace line: " + koLines[0]);
  sameLines(await logLines(page), koLines.slice(0, -1), "#log of queens 4 in Korean");
  sameLines(await logLines(page, "#log-naive"), trace("", "queens", "4", "--order", "naive", "--lang", "ko").slice(0, -1),
    "#log-naive of queens 4 in Korean");
  await page.click("#lang");
  sameLines(await logLines(page), trace("", "queens", "4").slice(0, -1), "#log of queens 4 back in English");
  check((await said("#summary")) === "solutions 2; smart 16 nodes, naive 60 nodes", "the summary back in English: "
    + (await said("#summary")));
  check((await said("#status")) === "done", "the status back in English: " + (await said("#status")));
  await page.click("#lang");
  await reload();
  check((await said("#status")) === "준비" && (await said("#reset")) === "처음으로", "Korean is kept over a reload: "
    + (await said("#status")));
  await page.click("#lang");
  await reload();
  check((await said("#status")) === "ready" && (await said("#lang")) === "한국어", "English is kept over a reload: "
    + (await said("#status")));

  // A hard puzzle, played for a moment, for the screenshot.
  await choose(page, "sudoku");
  await page.selectOption("#sample", { label: "hard" });
  await page.$eval("#speed", (el) => { el.value = "70"; el.dispatchEvent(new Event("input")); });
  await page.click("#play");
  await page.waitForTimeout(1500);
  await page.click("#play");
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
  const readyMs = +(await page.getAttribute("body", "data-ready-ms"));
  console.log(JSON.stringify({ page: "ok", load_ms: loadMs, load_in_page_ms: readyMs, run_8_queens_ms: runMs,
    run_8_queens_in_page_ms: runInPageMs }));
}

await main();
