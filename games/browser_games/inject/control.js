// PlayBench's page control for browser games, added with Playwright's add_init_script so it
// runs before any game script (docs/reference/browser-games.md: the harness, not the game,
// owns time and randomness). Written for PlayBench; it keeps GameWorld's hook names so a game
// written for GameWorld finds them.
//
// Time: the page sees one game clock. performance.now(), Date.now(), new Date(),
// requestAnimationFrame timestamps and timer due times all read it. While paused the game clock
// stands still, timers wait and animation frames are held; at speed x it runs x times real time.
// Randomness: Math.random is a mulberry32 generator seeded from window.__PB_SEED (set by an
// earlier init script) or __setDeterministicSeed(seed).
// Stepped time: with window.__PB_STEPPED set by an earlier init script (the paused settings),
// the game clock starts paused and only __advanceGame(ms) moves it, on a fixed grid of 60
// animation frames per game second with every timer fired at its due time. What the game
// computes then depends on the seed and the inputs alone, not on how fast the machine is, so
// an episode replays to the same states (docs/replay.md).
(() => {
  'use strict';
  if (window.__pbControl) return;
  const realPerfNow = performance.now.bind(performance);
  const RealDate = Date;
  const realSetTimeout = window.setTimeout.bind(window);
  const realClearTimeout = window.clearTimeout.bind(window);
  const realRaf = window.requestAnimationFrame.bind(window);
  const realCancelRaf = window.cancelAnimationFrame.bind(window);
  // A fixed calendar origin: the same seed and actions give the same Date values.
  const EPOCH_MS = typeof window.__PB_EPOCH_MS === 'number' ? window.__PB_EPOCH_MS : 1767225600000;

  const stepped = window.__PB_STEPPED === true;
  const clock = {paused: stepped, speed: 1, game: 0, lastReal: realPerfNow(), pausedAtReal: null};
  function now() {
    const r = realPerfNow();
    if (!clock.paused) clock.game += (r - clock.lastReal) * clock.speed;
    clock.lastReal = r;
    return clock.game;
  }

  // ---- timers: due times in game milliseconds, driven by one real timer ----
  let nextId = 1;
  const timers = new Map();  // id -> {due, fn, args, every}
  let driver = null;
  function arm() {
    if (driver !== null) { realClearTimeout(driver); driver = null; }
    if (clock.paused || timers.size === 0) return;
    let soonest = Infinity;
    for (const t of timers.values()) soonest = Math.min(soonest, t.due);
    const wait = Math.max(0, (soonest - now()) / clock.speed);
    driver = realSetTimeout(fire, wait);
  }
  function fire() {
    driver = null;
    if (clock.paused) return;
    const t0 = now();
    const ready = [...timers.entries()].filter(([, t]) => t.due <= t0)
      .sort((a, b) => a[1].due - b[1].due || a[0] - b[0]);
    for (const [id, t] of ready) {
      if (!timers.has(id)) continue;
      if (t.every === null) timers.delete(id); else t.due += Math.max(1, t.every);
      try {
        if (typeof t.fn === 'function') t.fn(...t.args); else (0, eval)(String(t.fn));
      } catch (err) { realSetTimeout(() => { throw err; }, 0); }
      if (clock.paused) break;
    }
    arm();
  }
  let firing = 0;  // > 0 while timer callbacks run during __advanceGame
  function addTimer(fn, delay, args, repeat) {
    // While stepping, a timer set from a timer waits at least 4 ms (browsers clamp nested
    // timers the same way), so a zero-delay chain cannot hold game time still forever.
    const ms = Math.max(firing > 0 ? 4 : 0, Number(delay) || 0);
    const id = nextId++;
    timers.set(id, {due: now() + ms, fn, args, every: repeat ? ms : null});
    arm();
    return id;
  }
  function clearTimer(id) { if (timers.delete(id)) arm(); }
  window.setTimeout = (fn, delay, ...args) => addTimer(fn, delay, args, false);
  window.setInterval = (fn, delay, ...args) => addTimer(fn, delay, args, true);
  window.clearTimeout = clearTimer;
  window.clearInterval = clearTimer;

  // ---- animation frames: held while paused, stamped with game time ----
  let nextFrame = 1;
  const frames = new Map();  // our id -> {fn, real}
  function frameRequest(id) {
    const entry = frames.get(id);
    entry.real = realRaf(() => {
      const e = frames.get(id);
      if (!e) return;
      if (clock.paused) { e.real = null; return; }  // re-requested on resume
      frames.delete(id);
      e.fn(now());
    });
  }
  window.requestAnimationFrame = (fn) => {
    const id = nextFrame++;
    frames.set(id, {fn, real: null});
    if (!clock.paused) frameRequest(id);
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    const e = frames.get(id);
    if (!e) return;
    frames.delete(id);
    if (e.real !== null) realCancelRaf(e.real);
  };

  // ---- clocks ----
  performance.now = () => now();
  function GameDate(...args) {
    if (!new.target) return new RealDate(EPOCH_MS + now()).toString();
    return args.length === 0 ? new RealDate(EPOCH_MS + now()) : new RealDate(...args);
  }
  GameDate.prototype = RealDate.prototype;
  GameDate.now = () => Math.floor(EPOCH_MS + now());
  GameDate.parse = RealDate.parse;
  GameDate.UTC = RealDate.UTC;
  window.Date = GameDate;

  // ---- randomness: mulberry32 ----
  const rng = {seed: 0, state: 0};
  function seedWith(seed) {
    rng.seed = (Number(seed) >>> 0);
    rng.state = rng.seed;
  }
  seedWith(typeof window.__PB_SEED === 'number' ? window.__PB_SEED : 0);
  Math.random = () => {
    rng.state = (rng.state + 0x6D2B79F5) >>> 0;
    let t = rng.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  // ---- the harness's calls ----
  window.__pauseGame = () => {
    if (clock.paused) return true;
    now();
    clock.paused = true;
    if (driver !== null) { realClearTimeout(driver); driver = null; }
    return true;
  };
  window.__resumeGame = () => {
    if (!clock.paused) return true;
    clock.lastReal = realPerfNow();
    clock.paused = false;
    for (const [id, e] of frames) if (e.real === null) frameRequest(id);
    arm();
    return true;
  };
  window.__setGameSpeed = (x) => {
    const v = Number(x);
    if (!(v > 0) || !Number.isFinite(v)) throw new Error('game speed must be a positive number');
    now();
    clock.speed = v;
    arm();
    return v;
  };
  window.__getGameSpeedState = () => ({paused: clock.paused, speed: clock.speed,
                                       gameTimeMs: now()});
  // ---- stepped time: the harness moves the paused clock itself ----
  const FRAME_MS = 1000 / 60;
  let frameNo = 0;  // animation frames run so far on the grid k * FRAME_MS
  function report(err) { realSetTimeout(() => { throw err; }, 0); }
  function fireDueTimers() {
    const ready = [...timers.entries()].filter(([, t]) => t.due <= clock.game)
      .sort((a, b) => a[1].due - b[1].due || a[0] - b[0]);
    firing += 1;
    try {
      for (const [id, t] of ready) {
        if (!timers.has(id)) continue;
        if (t.every === null) timers.delete(id); else t.due += Math.max(1, t.every);
        try {
          if (typeof t.fn === 'function') t.fn(...t.args); else (0, eval)(String(t.fn));
        } catch (err) { report(err); }
      }
    } finally { firing -= 1; }
  }
  function runHeldFrames() {
    const held = [...frames.entries()].filter(([, e]) => e.real === null);
    for (const [id, e] of held) {
      if (!frames.has(id)) continue;
      frames.delete(id);
      try { e.fn(clock.game); } catch (err) { report(err); }
    }
  }
  // A task boundary between frames, so promise jobs and event handlers queued by one frame
  // run before the next, as they would between real frames.
  function yieldTask() {
    return new Promise((done) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done();
      channel.port2.postMessage(0);
    });
  }
  window.__advanceGame = async (ms) => {
    if (!clock.paused) throw new Error('the game clock is running; pause it before advancing');
    const end = clock.game + Math.max(0, Number(ms) || 0) * clock.speed;
    // after a stretch of real time (a manual __resumeGame) the grid continues from now
    frameNo = Math.max(frameNo, Math.floor(clock.game / FRAME_MS));
    for (;;) {
      let next = (frameNo + 1) * FRAME_MS;
      for (const t of timers.values()) next = Math.min(next, t.due);
      if (next > end) break;
      clock.game = Math.max(clock.game, next);
      fireDueTimers();
      if (clock.game >= (frameNo + 1) * FRAME_MS) {
        frameNo += 1;
        runHeldFrames();
      }
      await yieldTask();
    }
    clock.game = end;
    return clock.game;
  };

  window.__setDeterministicSeed = (seed) => { seedWith(seed); return rng.seed; };
  window.__getDeterministicSeed = () => rng.seed;
  window.__resetRandom = () => { rng.state = rng.seed; return rng.seed; };
  window.__pbControl = {version: 2, now, stepped};
})();
