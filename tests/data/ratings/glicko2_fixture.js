// glicko2_fixture.js — reference values for `arbiter rate --system glicko2`
// from the JavaScript glicko2 library (npm glicko2@1.2.2), the library
// the issue names. Run: npm install glicko2@1.2.2 && node glicko2_fixture.js
// It writes glicko2.in (games, "---" between rating periods, sit-outs
// included) and glicko2.out (what arbiter must print, to 1e-9).
const fs = require('fs');
const { Glicko2 } = require('glicko2');
let seed = 20261124;
function rnd() {   // a fixed LCG: the same file every run
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const g = new Glicko2({ tau: 0.5, rating: 1500, rd: 350, vol: 0.06 });
const players = {};
const names = [];
for (let i = 0; i < 40; i++) names.push('p' + String(i).padStart(2, '0'));
const lines = [];
for (let period = 0; period < 30; period++) {
  const matches = [];
  const ngames = period % 7 === 3 ? 0 : 1 + Math.floor(rnd() * 25);   // some empty periods
  const pool = names.slice(0, 10 + Math.floor(period * 30 / 30));   // new players join over time
  for (let k = 0; k < ngames; k++) {
    const a = pool[Math.floor(rnd() * pool.length)];
    let b = pool[Math.floor(rnd() * pool.length)];
    if (a === b) continue;
    const r = rnd(), s = r < 0.45 ? 1 : r < 0.55 ? 0.5 : 0;
    for (const n of [a, b]) if (!players[n]) players[n] = g.makePlayer(1500, 350, 0.06);
    matches.push([players[a], players[b], s]);
    lines.push(`${a} ${b} ${s}`);
  }
  g.updateRatings(matches);
  lines.push('---');
}
fs.writeFileSync('glicko2.in', lines.join('\n') + '\n');
const out = Object.keys(players).sort().map(n =>
  `${n} ${players[n].getRating()} ${players[n].getRd()} ${players[n].getVol()}`);
fs.writeFileSync('glicko2.out', out.join('\n') + '\n');
