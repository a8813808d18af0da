// Probe: a test game for PlayBench's browser-games harness. It reads time and randomness only
// through Math.random, performance.now, setInterval and requestAnimationFrame, as the harness
// requires, so pausing and seeding control it.
(() => {
  const canvas = document.getElementById('c');
  const ctx = canvas.getContext('2d');
  let s = null;
  let t0 = 0;
  function fresh(seed) {
    return {seed, status: 'ready', pos: 0, score: 0, clicks: 0, ticks: 0, bonuses: [],
            frames: 0, over: false, outcome: null, reason: null};
  }
  setInterval(() => { if (s && s.status === 'playing') s.ticks += 1; }, 50);
  function draw() {
    if (s) {
      s.frames += 1;
      ctx.fillStyle = '#102030'; ctx.fillRect(0, 0, 1280, 720);
      ctx.fillStyle = '#506070';
      for (let i = 0; i < 10; i++) ctx.fillRect(140 + i * 100, 400, 90, 20);
      ctx.fillStyle = s.over ? '#e04040' : '#40e080';
      ctx.beginPath(); ctx.arc(185 + Math.min(s.pos, 9) * 100, 370, 25, 0, 7); ctx.fill();
      ctx.fillStyle = '#ffffff'; ctx.font = '32px sans-serif';
      ctx.fillText(`score ${s.score}  ticks ${s.ticks}  frame ${s.frames}`, 40, 60);
    }
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);
  document.addEventListener('keydown', (e) => {
    if (!s || s.status !== 'playing' || e.repeat) return;
    if (e.key === 'ArrowRight') {
      const bonus = Math.random() < 0.5 ? 0 : 1;
      s.pos += 1; s.score += 1 + bonus; s.bonuses.push(bonus);
    } else if (e.key === 'ArrowDown') {
      s.over = true; s.status = 'terminal'; s.outcome = 'failure'; s.reason = 'fell';
    }
  });
  document.addEventListener('mousedown', () => { if (s && s.status === 'playing') s.clicks += 1; });
  window.gameAPI = {
    version: '2.0',
    capabilities: {seed: true, pause: true},
    init(config) { s = fresh(config && config.seed); t0 = performance.now(); },
    reset(options) { s = fresh(options && options.seed); },
    restart() { s = fresh(s ? s.seed : 0); s.status = 'playing'; },
    start() { if (s) s.status = 'playing'; },
    getState() {
      const now = performance.now();
      return {
        schemaVersion: '2.0', gameId: '01_probe', seed: s ? s.seed : null,
        timestampMs: Date.now(), gameTimeMs: now - t0, status: s ? s.status : 'loading',
        is_actionable: !!s && s.status === 'playing',
        terminal: {isTerminal: !!s && s.over, outcome: s ? s.outcome : null,
                   reason: s ? s.reason : null},
        game_state: {score: s ? s.score : 0, level: 1, pos: s ? s.pos : 0,
                     clicks: s ? s.clicks : 0, bonuses: s ? s.bonuses.slice() : []},
        metrics: {primary_score: s ? s.score : 0, best_score: s ? s.score : 0},
        debug: {ticks: s ? s.ticks : 0, frames: s ? s.frames : 0},
      };
    },
  };
})();
