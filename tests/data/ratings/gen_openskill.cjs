// gen_openskill.cjs — makes the Weng–Lin reference fixture with the openskill
// library itself (version 5.0.1), so tests/unit/test_rating_wl.c and the CLI
// test can check arbiter's ratings against it without node at run time.
//
//   mkdir /tmp/os && cd /tmp/os && npm install openskill@5.0.1
//   cd tests/data/ratings && NODE_PATH=/tmp/os/node_modules node gen_openskill.cjs
//
// Writes, for each model M (plackett-luce, bradley-terry, thurstone-mosteller):
//   openskill-M.trace     every match and the ratings of its players after it
//   openskill-M.expected  what `arbiter rate --system openskill --model M`
//                         prints for openskill-matches.txt
// and openskill-matches.txt, the random matches as `arbiter rate` reads them.
// The random matches (the same for all models): 2-8 teams of 1-3 players
// out of 40, ranks a permutation half the time, else drawn with repeats
// (ties, gaps); then, in the traces only, a few matches between extreme
// ratings that take the library's approximations for tiny probabilities.
// Seeded: running it again gives the same files.
'use strict'
const fs = require('fs')
const { rate, rating } = require('openskill')
const { plackettLuce, bradleyTerryFull, thurstoneMostellerFull } = require('openskill/models')

const VERSION = '5.0.1'
const MODELS = [
  ['plackett-luce', plackettLuce],
  ['bradley-terry', bradleyTerryFull],
  ['thurstone-mosteller', thurstoneMostellerFull],
]
const NPLAYERS = 40
const NMATCHES = 300

// mulberry32: a small seeded generator, so the fixture is reproducible.
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const rand = rng(20260514)
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1))

// A match: [{rank, ids: [...]}, ...]
const matches = []
for (let m = 0; m < NMATCHES; m++) {
  const nteams = int(2, 8)
  const pool = [...Array(NPLAYERS).keys()]
  for (let i = pool.length - 1; i > 0; i--) {
    const j = int(0, i)
    ;[pool[i], pool[j]] = [pool[j], pool[i]]
  }
  let ranks
  if (rand() < 0.5) {
    ranks = [...Array(nteams).keys()].map((i) => i + 1)
    for (let i = ranks.length - 1; i > 0; i--) {
      const j = int(0, i)
      ;[ranks[i], ranks[j]] = [ranks[j], ranks[i]]
    }
  } else {
    ranks = Array.from({ length: nteams }, () => int(1, nteams))
  }
  let next = 0
  const teams = ranks.map((rank) => ({ rank, ids: pool.slice(next, (next += int(1, 3))) }))
  matches.push({ teams })
}

// Extreme matches: set ratings (init), then play. Far-apart ratings with
// an upset, and ties between them, drive v, w, vt and wt to their limits.
const extreme = [
  { init: [[100, 400, 1], [101, -400, 1]], teams: [{ rank: 1, ids: [101] }, { rank: 2, ids: [100] }] },
  { init: [[100, 400, 1], [101, -400, 1]], teams: [{ rank: 1, ids: [100] }, { rank: 1, ids: [101] }] },
  { init: [[100, 60, 0.5], [101, -60, 0.5], [102, 0, 0.5]],
    teams: [{ rank: 3, ids: [100] }, { rank: 1, ids: [101] }, { rank: 1, ids: [102] }] },
  { init: [[100, 25, 0.01], [101, 25, 30], [102, 30, 0.2], [103, 10, 12]],
    teams: [{ rank: 2, ids: [100, 101] }, { rank: 1, ids: [102, 103] }] },
  { init: [[100, 1000, 2], [101, -1000, 2], [102, 0, 8], [103, 500, 3]],
    teams: [{ rank: 4, ids: [100] }, { rank: 2, ids: [101, 102] }, { rank: 2, ids: [103] }] },
]

const name = (id) => 'p' + id
const fmt = (x) => String(x)
const teamsText = (teams) => teams.map((t) => t.ids.map(name).join('+') + ':' + t.rank).join(' ')

fs.writeFileSync('openskill-matches.txt', matches.map((m) => teamsText(m.teams)).join('\n') + '\n')

for (const [model, fn] of MODELS) {
  const ratings = new Map()
  const get = (id) => ratings.get(id) || rating()
  const out = [
    `# openskill ${VERSION} (npm), model ${model}, default options; made by gen_openskill.cjs`,
    '# m N: a match of N teams; t RANK ID...: a team; p ID MU SIGMA: a player after the match;',
    '# i ID MU SIGMA: a player\'s rating set before a match. Players start at the defaults.',
  ]
  const play = (m) => {
    for (const [id, mu, sigma] of m.init || []) {
      ratings.set(id, rating({ mu, sigma }))
      out.push(`i ${id} ${fmt(mu)} ${fmt(sigma)}`)
    }
    out.push(`m ${m.teams.length}`)
    for (const t of m.teams) out.push(`t ${t.rank} ${t.ids.join(' ')}`)
    const after = rate(m.teams.map((t) => t.ids.map(get)), { model: fn, rank: m.teams.map((t) => t.rank) })
    m.teams.forEach((t, i) => t.ids.forEach((id, k) => {
      ratings.set(id, after[i][k])
      out.push(`p ${id} ${fmt(after[i][k].mu)} ${fmt(after[i][k].sigma)}`)
    }))
  }
  matches.forEach(play)
  const names = [...ratings.keys()].map((id) => [name(id), ratings.get(id)])
  names.sort(([a], [b]) => (Buffer.compare(Buffer.from(a), Buffer.from(b))))
  fs.writeFileSync(`openskill-${model}.expected`, names.map(([n, r]) => `${n} ${fmt(r.mu)} ${fmt(r.sigma)}`).join('\n') + '\n')
  extreme.forEach(play)
  fs.writeFileSync(`openskill-${model}.trace`, out.join('\n') + '\n')
}
