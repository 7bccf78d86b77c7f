// The workbench page: loads backtrack.wasm (the library's traces behind a
// small C-like ABI, see crates/backtrack-wasm) and plays the events.
"use strict";

// ---- The WebAssembly module -------------------------------------------------

/** Loads the module at `url` and wraps its exports. */
async function loadEngine(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": " + response.status);
  const bytes = await response.arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  return new Engine(instance.exports);
}

class Engine {
  constructor(exports) {
    this.x = exports;
    this.decoder = new TextDecoder();
    this.encoder = new TextEncoder();
  }
  /** The answer of the last call, as text. */
  out() {
    const bytes = new Uint8Array(this.x.memory.buffer, this.x.bt_out_ptr(), this.x.bt_out_len());
    return this.decoder.decode(bytes);
  }
  /** Opens `spec` ("queens 8", "sudoku ...", "choose perm 4 2"); throws with the reason. */
  open(spec, naive) {
    const bytes = this.encoder.encode(spec);
    const ptr = this.x.bt_alloc(bytes.length);
    new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
    const handle = this.x.bt_open(ptr, bytes.length, naive ? 1 : 0);
    if (handle === 0) throw new Error(this.out());
    return handle;
  }
  close(handle) { this.x.bt_close(handle); }
  /** Events `skip..skip + max`, their texts in `lang` ("en", "ko"); fewer than `max` means the trace ended. */
  events(handle, skip, max, lang) {
    const n = this.x.bt_events(handle, skip, max, langNumber(lang));
    if (n === 0) return [];
    const kinds = { t: "try", r: "reject", u: "undo", d: "dead", s: "solution" };
    return this.out().split("\n").slice(0, n).map((record) => {
      const f = record.split("\t");
      const changes = f[6] === "" ? [] : f[6].split(",").map((c) => c.split(":").map(Number));
      return {
        kind: kinds[f[0]], depth: +f[1], focus: +f[2], conflict: +f[3],
        nodes: +f[4], solutions: +f[5], changes, choice: f[7], line: f[8],
      };
    });
  }
  /** The board before the first event. */
  board(handle) {
    this.x.bt_board(handle);
    const text = this.out();
    return text === "" ? [] : text.split(",").map(Number);
  }
  /** The summary line of `backtrack trace` in `lang` (searches the whole problem). */
  summary(handle, lang) {
    this.x.bt_summary(handle, langNumber(lang));
    return this.out();
  }
}

/** The module's number for a language: 1 Korean, 0 English. */
const langNumber = (lang) => (lang === "ko" ? 1 : 0);

// ---- One search, played forward and back ------------------------------------

/** Events fetched from the module at a time. */
const CHUNK = 4000;
/** Events a page keeps at most per search. */
const MAX_EVENTS = 200000;

class Tracer {
  constructor(engine, spec, naive) {
    this.engine = engine;
    this.handle = engine.open(spec, naive);
    this.start = engine.board(this.handle);
    this.board = this.start.slice();
    this.events = [];
    this.pos = 0;
    this.fetchedAll = false;
    this.capped = false;
    this.path = [];
  }
  close() { this.engine.close(this.handle); }
  /** Whether every event has been played. */
  get done() { return this.fetchedAll && this.pos >= this.events.length; }
  ensure(count) {
    while (!this.fetchedAll && this.events.length < count) {
      if (this.events.length >= MAX_EVENTS) { this.fetchedAll = true; this.capped = true; break; }
      const more = this.engine.events(this.handle, this.events.length, CHUNK, language);
      for (const e of more) this.events.push(e);
      if (more.length < CHUNK) this.fetchedAll = true;
    }
  }
  /** Fetches the events fetched so far again, their texts in the page's language. */
  relabel() {
    const fetched = this.events.length;
    this.events = [];
    this.fetchedAll = this.capped = false;
    this.ensure(fetched);
    this.path = [];
    for (const e of this.events.slice(0, this.pos)) {
      if (e.kind === "try") this.path.push(e.choice);
      else if (e.kind === "undo") this.path.pop();
    }
  }
  /** Plays one event; returns it, or null at the end. */
  forward() {
    this.ensure(this.pos + 1);
    if (this.pos >= this.events.length) return null;
    const e = this.events[this.pos++];
    for (const [cell, , after] of e.changes) this.board[cell] = after;
    if (e.kind === "try") this.path.push(e.choice);
    else if (e.kind === "undo") this.path.pop();
    return e;
  }
  /** Takes one event back; returns it, or null at the start. */
  back() {
    if (this.pos === 0) return null;
    const e = this.events[--this.pos];
    for (const [cell, before] of e.changes) this.board[cell] = before;
    if (e.kind === "try") this.path.pop();
    else if (e.kind === "undo") this.path.push(e.choice);
    return e;
  }
  /** The last event played, if any. */
  get current() { return this.pos > 0 ? this.events[this.pos - 1] : null; }
}

// ---- The page ---------------------------------------------------------------

const $ = (id) => document.getElementById(id);

/** One side of the page: a tracer and its board, path, counters and log. */
class View {
  constructor(suffix) {
    this.board = $("board" + suffix);
    this.path = $("path" + suffix);
    this.log = $("log" + suffix);
    this.nodes = $("nodes" + suffix);
    this.solutions = $("solutions" + suffix);
    this.events = $("events" + suffix);
    this.tracer = null;
    this.pending = "";
  }
  reset(tracer, problem, size, givens) {
    if (this.tracer) this.tracer.close();
    this.tracer = tracer;
    this.problem = problem;
    this.size = size;
    this.givens = givens;
    this.log.textContent = "";
    this.pending = "";
    this.buildBoard();
    this.render();
  }
  buildBoard() {
    const b = this.board;
    b.textContent = "";
    this.cells = [];
    if (!this.tracer) return;
    const n = this.tracer.start.length;
    if (this.problem === "queens") {
      const side = this.size;
      b.style.gridTemplateColumns = `repeat(${side}, auto)`;
      for (let i = 0; i < n; i++) {
        const d = document.createElement("div");
        d.className = "sq" + (((i / side | 0) + i % side) % 2 ? " dark" : "");
        b.append(d);
        this.cells.push(d);
      }
    } else if (this.problem === "sudoku") {
      const side = Math.round(Math.sqrt(n)), box = Math.round(Math.sqrt(side));
      b.style.gridTemplateColumns = `repeat(${side}, auto)`;
      for (let i = 0; i < n; i++) {
        const d = document.createElement("div");
        const r = i / side | 0, c = i % side;
        d.className = "cell" + (c % box === box - 1 && c < side - 1 ? " right" : "")
          + (r % box === box - 1 && r < side - 1 ? " below" : "");
        b.append(d);
        this.cells.push(d);
      }
    } else if (this.problem === "1987") {
      b.style.gridTemplateColumns = `repeat(${this.size}, auto)`;
      for (let i = 0; i < n; i++) {
        const d = document.createElement("div");
        d.className = "letter";
        b.append(d);
        this.cells.push(d);
      }
    } else {
      b.style.gridTemplateColumns = `repeat(${Math.max(n, 1)}, auto)`;
      for (let i = 0; i < n; i++) {
        const d = document.createElement("div");
        // 14888 alternates numbers and the gaps between them.
        d.className = this.problem === "14888" && i % 2 === 0 ? "num" : "slot";
        b.append(d);
        this.cells.push(d);
      }
    }
  }
  /** Writes the log again from the events played (after a switch of language). */
  relog() {
    const t = this.tracer;
    this.pending = "";
    this.log.textContent = t ? t.events.slice(0, t.pos).map((e) => e.line + "\n").join("") : "";
    this.log.scrollTop = this.log.scrollHeight;
  }
  /** Adds an event's line to the log (written out at the next render). */
  logged(e) { this.pending += e.line + "\n"; }
  /** Removes the last line of the log. */
  unlogged() {
    if (this.pending !== "") {
      const cut = this.pending.lastIndexOf("\n", this.pending.length - 2);
      this.pending = this.pending.slice(0, cut + 1);
      return;
    }
    const last = this.log.lastChild;
    if (!last) return;
    const cut = last.data.lastIndexOf("\n", last.data.length - 2);
    if (cut < 0) last.remove(); else last.data = last.data.slice(0, cut + 1);
  }
  render() {
    const t = this.tracer;
    if (this.pending !== "") {
      this.log.append(document.createTextNode(this.pending));
      this.pending = "";
      this.log.scrollTop = this.log.scrollHeight;
    }
    if (!t) {
      // No search (a puzzle that cannot start): nothing of the last one stays.
      this.nodes.textContent = this.solutions.textContent = this.events.textContent = "0";
      this.path.textContent = "";
      return;
    }
    const e = t.current;
    this.nodes.textContent = e ? e.nodes : 0;
    this.solutions.textContent = e ? e.solutions : 0;
    this.events.textContent = t.pos;
    const focus = e && e.kind !== "dead" && e.kind !== "solution" ? e.focus : -1;
    const conflict = e && e.kind === "reject" ? e.conflict : -1;
    const ghost = e && e.kind === "reject" ? tried(e, this.problem) : null;
    this.cells.forEach((d, i) => {
      const v = t.board[i];
      d.classList.toggle("focus", i === focus);
      d.classList.toggle("rejected", i === focus && e.kind === "reject");
      d.classList.toggle("conflict", i === conflict);
      const isGhost = i === focus && ghost !== null;
      d.classList.toggle("ghost", isGhost);
      if (this.problem === "queens") {
        d.classList.toggle("queen", v === 1 || isGhost);
      } else if (this.problem === "sudoku") {
        d.textContent = isGhost ? ghost : v === 0 ? "" : symbol(v);
        d.classList.toggle("given", this.givens[i] !== 0);
      } else if (this.problem === "1987") {
        // A letter, 1 for A; 26 more on the walk.
        d.textContent = String.fromCharCode(64 + ((v - 1) % 26) + 1);
        d.classList.toggle("on", v > 26);
      } else if (this.problem === "14888") {
        d.textContent = isGhost ? ghost : i % 2 === 0 ? v : v === 0 ? "" : OPERATORS[v - 1];
      } else if (this.problem === "1759") {
        d.textContent = isGhost ? ghost : v === 0 ? "" : String.fromCharCode(96 + v);
      } else {
        d.textContent = isGhost ? ghost : v === 0 ? "" : v;
      }
    });
    this.path.textContent = "";
    for (const choice of t.path) {
      const li = document.createElement("li");
      li.textContent = choice;
      this.path.append(li);
    }
  }
}

/** The value a rejected choice tried ("r1c4=7" gives "7", "row 2 col 3" a queen, "× 4" the sign, "t" the letter). */
function tried(e, problem) {
  const choice = e.choice;
  if (problem === "14888") return choice.split(" ")[0];
  if (problem === "1759") return choice;
  const m = /=(\S+)/.exec(choice);
  return m ? m[1] : "";
}

/** The signs of 14888's operators, as the board numbers them from 1. */
const OPERATORS = ["+", "-", "\u00d7", "\u00f7"];

/** A sample input of each judge problem the page traces (the statements' own samples). */
const BOJ_SAMPLES = {
  14888: "6\n1 2 3 4 5 6\n2 1 1 1\n",
  1759: "4 6\na t c i s w\n",
  1987: "3 6\nHFDFFB\nAJHGDH\nDGAGEH\n",
};

function symbol(v) {
  return v <= 9 ? String(v) : String.fromCharCode(55 + v);
}

class Workbench {
  constructor(engine) {
    this.engine = engine;
    this.smart = new View("");
    this.naive = new View("-naive");
    this.mode = "idle"; // idle, playing, running
    this.frame = 0;
    this.carry = 0;
    for (const id of ["n", "m", "kind", "puzzle", "input"]) $(id).addEventListener("change", () => this.reset());
    $("problem").addEventListener("change", () => {
      // A judge problem starts from its sample input.
      if (BOJ_SAMPLES[$("problem").value]) $("input").value = BOJ_SAMPLES[$("problem").value];
      this.reset();
    });
    $("sample").addEventListener("change", () => { $("puzzle").value = $("sample").value; this.reset(); });
    $("reset").addEventListener("click", () => this.reset());
    $("step").addEventListener("click", () => { this.stop(); this.step(); this.render(); });
    $("back").addEventListener("click", () => { this.stop(); this.back(); this.render(); });
    $("play").addEventListener("click", () => (this.mode === "playing" ? this.stop() : this.start("playing")));
    $("run").addEventListener("click", () => this.start("running"));
    $("lang").addEventListener("click", () => this.speak(language === "ko" ? "en" : "ko"));
    $("speed").addEventListener("input", () => this.showRate());
    this.showRate();
    this.reset();
  }
  /** Events per second at the slider's position: 1 to 2000, evenly on a log scale. */
  get rate() { return Math.round(Math.pow(2000, $("speed").value / 100)); }
  showRate() { $("rate").textContent = say("rate", this.rate); }
  spec() {
    const problem = $("problem").value;
    // The page runs what its fields allow, and refuses the rest in words.
    for (const id of problem === "choose" ? ["n", "m"] : problem === "queens" ? ["n"] : []) {
      const field = $(id), value = Number(field.value);
      if (field.value.trim() === "" || !Number.isInteger(value) || value < +field.min || value > +field.max) {
        throw new Error(`${id.toUpperCase()} must be a whole number from ${field.min} to ${field.max}`);
      }
    }
    if (problem === "queens") return `queens ${$("n").value}`;
    if (problem === "sudoku") return `sudoku ${$("puzzle").value.trim()}`;
    if (BOJ_SAMPLES[problem]) return `boj ${problem} ${$("input").value}`;
    return `choose ${$("kind").value} ${$("n").value} ${$("m").value}`;
  }
  reset() {
    this.stop();
    const problem = $("problem").value;
    const boj = problem in BOJ_SAMPLES;
    for (const el of document.querySelectorAll(".for-queens, .for-sudoku, .for-choose, .for-boj")) {
      el.classList.toggle("hidden", !el.classList.contains("for-" + (boj ? "boj" : problem)));
    }
    $("naive").classList.toggle("hidden", problem === "choose");
    this.summary = null;
    this.showSummary();
    try {
      const spec = this.spec();
      // The board's width: N for queens, C (the second number of the input) for 1987.
      const size = problem === "1987" ? +$("input").value.trim().split(/\s+/)[1] : +$("n").value;
      const naive = problem === "choose" ? null : new Tracer(this.engine, spec, true);
      // The naive search starts from the givens alone; the smart one has
      // already placed what they force.
      const givens = naive ? naive.start : [];
      this.smart.reset(new Tracer(this.engine, spec, false), problem, size, givens);
      this.naive.reset(naive, problem, size, givens);
      this.status("ready");
    } catch (err) {
      this.smart.reset(null, problem, 0, []);
      this.naive.reset(null, problem, 0, []);
      this.status("cannotStart", err.message);
    }
  }
  views() { return [this.smart, this.naive].filter((v) => v.tracer); }
  /** One event on each side; false when both are at their end. */
  step() {
    let moved = false;
    for (const v of this.views()) {
      const e = v.tracer.forward();
      if (e) { v.logged(e); moved = true; }
    }
    return moved;
  }
  back() {
    for (const v of this.views()) if (v.tracer.back()) v.unlogged();
  }
  start(mode) {
    if (!this.views().length) return;
    this.mode = mode;
    this.showPlay();
    this.status(mode === "playing" ? "playing" : "running");
    let last = performance.now();
    this.began = last;
    this.carry = 0;
    const tick = (now) => {
      if (this.mode !== mode) return;
      const deadline = performance.now() + 10;
      let more = true;
      if (mode === "playing") {
        this.carry += ((now - last) / 1000) * this.rate;
        last = now;
        while (this.carry >= 1 && more && performance.now() < deadline) { this.carry -= 1; more = this.step(); }
        if (this.carry > 1) this.carry = 1;
      } else {
        while (more && performance.now() < deadline) {
          for (let i = 0; i < 64 && more; i++) more = this.step();
        }
      }
      this.render();
      if (!more || this.views().every((v) => v.tracer.done)) { this.finish(); return; }
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }
  showPlay() { $("play").textContent = say(this.mode === "playing" ? "pause" : "play"); }
  stop() {
    const was = this.mode;
    this.mode = "idle";
    this.showPlay();
    if (was === "idle") return; // an error or "ready" stays until the input changes
    cancelAnimationFrame(this.frame);
    this.status("paused");
  }
  finish() {
    // Milliseconds the last play or run took, for the tests.
    document.body.dataset.lastRunMs = (performance.now() - this.began).toFixed(0);
    this.stop();
    this.render();
    const capped = this.views().some((v) => v.tracer.capped);
    this.status(capped ? "doneCut" : "done", MAX_EVENTS);
    this.summary = {
      solutions: $("solutions").textContent,
      nodes: this.views().map((v) => [v === this.smart ? "smart" : "naive", v.tracer.current ? v.tracer.current.nodes : 0]),
    };
    this.showSummary();
  }
  showSummary() { $("summary").textContent = this.summary ? say("summary", this.summary) : ""; }
  /** Shows the status `key` of [`WORDS`], in the page's language, and keeps it to show again on a switch. */
  status(key, ...args) {
    this.said = [key, ...args];
    $("status").textContent = say(key, ...args);
  }
  /** Shows every word of the page in `lang`, and remembers the choice. */
  speak(lang) {
    setLanguage(lang);
    for (const v of this.views()) {
      v.tracer.relabel();
      v.relog();
    }
    this.render();
    this.showRate();
    this.showPlay();
    this.showSummary();
    if (this.said) this.status(...this.said);
  }
  render() { for (const v of [this.smart, this.naive]) v.render(); }
}

/**
 * The page's words in English and in Korean: a string, or a function of what
 * the words are about. Elements with `data-i18n="key"` show `WORDS[lang][key]`.
 */
const WORDS = {
  en: {
    title: "backtrack workbench",
    intro: "The search of the backtrack library, compiled to WebAssembly, event by event: every try, "
      + "every rejection by a constraint, every undo, dead end and solution.",
    problem: "problem", queens: "N-queens", sudoku: "sudoku", choose: "choose", kind: "kind",
    boj14888: "14888 inserting operators", boj1759: "1759 making passwords", boj1987: "1987 alphabet", input: "input",
    perm: "permutations", comb: "combinations", sample: "sample", newspaper: "newspaper", hard: "hard",
    givens17: "17 givens", puzzle: "puzzle", reset: "reset", back: "\u25c0 back", step: "step \u25b6",
    run: "run to end", speed: "speed", smart: "smart", smartNote: "(the library's search)", naive: "naive",
    naiveNote: "(textbook order, every alternative checked)", nodes: "nodes", solutions: "solutions",
    events: "events", branch: "current branch", play: "play", pause: "pause",
    rate: (n) => `${n} events/s`,
    loading: "loading", ready: "ready", playing: "playing", running: "running to the end", paused: "paused",
    done: "done", doneCut: (most) => `done (a search was cut at ${most} events: backtrack trace shows it all)`,
    cannotStart: (why) => "cannot start: " + why,
    cannotLoad: (why) => "cannot load backtrack.wasm: " + why,
    summary: (s) => `solutions ${s.solutions}; ${s.nodes.map(([side, n]) => `${side} ${n} nodes`).join(", ")}`,
    switchTo: "한국어",
  },
  ko: {
    title: "backtrack 워크벤치",
    intro: "WebAssembly로 컴파일한 backtrack 라이브러리의 탐색을 사건 하나씩 봅니다: 시도, 제약에 걸린 거절, "
      + "되돌리기, 막다른 길, 해.",
    problem: "문제", queens: "N-퀸", sudoku: "스도쿠", choose: "순열·조합", kind: "종류",
    boj14888: "14888 연산자 끼워넣기", boj1759: "1759 암호 만들기", boj1987: "1987 알파벳", input: "입력",
    perm: "순열", comb: "조합", sample: "예제", newspaper: "신문", hard: "어려운 퍼즐",
    givens17: "힌트 17개", puzzle: "퍼즐", reset: "처음으로", back: "\u25c0 뒤로", step: "한 단계 \u25b6",
    run: "끝까지", speed: "속도", smart: "smart", smartNote: "(라이브러리의 탐색)", naive: "naive",
    naiveNote: "(교과서 순서, 모든 후보를 검사)", nodes: "노드", solutions: "해", events: "사건",
    branch: "현재 가지", play: "재생", pause: "일시 정지",
    rate: (n) => `초당 ${n}개 사건`,
    loading: "불러오는 중", ready: "준비", playing: "재생 중", running: "끝까지 실행 중", paused: "일시 정지됨",
    done: "완료", doneCut: (most) => `완료 (탐색을 사건 ${most}개에서 잘랐습니다: backtrack trace는 전부 보여 줍니다)`,
    cannotStart: (why) => "시작할 수 없습니다: " + why,
    cannotLoad: (why) => "backtrack.wasm을 불러올 수 없습니다: " + why,
    summary: (s) => `해 ${s.solutions}개; ${s.nodes.map(([side, n]) => `${side} 노드 ${n}개`).join(", ")}`,
    switchTo: "English",
  },
};

/** Where the page keeps the chosen language between visits. */
const LANGUAGE_KEY = "backtrack-lang";

/** The page's language: the one chosen before, else English. */
let language = (() => {
  try { return localStorage.getItem(LANGUAGE_KEY) === "ko" ? "ko" : "en"; } catch { return "en"; }
})();

/** The words for `key` in the page's language. */
function say(key, ...args) {
  const words = WORDS[language][key];
  return typeof words === "function" ? words(...args) : words;
}

/** Puts every `data-i18n` element of the page in `lang` and remembers it. */
function setLanguage(lang) {
  language = lang;
  try { localStorage.setItem(LANGUAGE_KEY, lang); } catch { /* a page without storage still switches */ }
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = say(el.dataset.i18n);
  $("lang").textContent = say("switchTo");
}

window.backtrack = { loadEngine, Engine, Tracer };
window.addEventListener("DOMContentLoaded", async () => {
  setLanguage(language);
  $("status").textContent = say("loading");
  try {
    const engine = await loadEngine("backtrack.wasm");
    window.workbench = new Workbench(engine);
    document.body.dataset.ready = "1";
    // Milliseconds from the start of navigation to a page ready to search.
    document.body.dataset.readyMs = performance.now().toFixed(0);
  } catch (err) {
    $("status").textContent = say("cannotLoad", err.message);
  }
});
