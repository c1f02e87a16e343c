/* viewer.js — arbiter's replay viewer: steps through a match transcript
 * (the records of `arbiter replay FILE --json`) decision by decision and
 * draws every seat's hand, the auction, the kitty, the trick, the clocks
 * and the penalties. This is the core, which knows no game: each game's
 * renderer (games/<game>/viewer_<game>.js) registers itself by the game's
 * name with ArbViewer.register, and the build appends the renderers to
 * this file (web/meson.build), so the page loads one script.
 *
 * Data contract (docs/web.md, "Replay viewer"): window.ARB_TRANSCRIPT, an
 * array of record objects or one string of NDJSON, when a page defines it
 * before this script runs
 * (a static report, opened from file://, cannot fetch); otherwise the
 * NDJSON at the URL in data-src of <main id="viewer">.
 *
 * Why it is built this way:
 * - Everything a bot wrote (its name, its stderr, a penalty's detail) is
 *   untrusted: the DOM is built with createElement and textContent only,
 *   never innerHTML.
 * - A 1,000-deal transcript is half a million records: loading only finds
 *   where each game starts (from the "type" prefix of each line, without
 *   parsing it); a game is parsed and replayed the first time it is shown,
 *   and only the current position is drawn.
 * - The hands are rebuilt from the bot protocol lines the referee sent
 *   (schemas/bot-protocol.md): a public event reaches every seat, so it is
 *   applied once (the n-th public line any seat receives is the n-th event
 *   of the deal, whichever bot is still listening); private lines (hand,
 *   draw, a card buried or given) are applied from their only receiver. */
(function () {
  'use strict';

  /* ---------- small DOM helpers (text only) ---------- */

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k === 'class') node.className = v;
        else if (k === 'text') node.textContent = v;
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    if (typeof child === 'string' || typeof child === 'number')
      node.appendChild(document.createTextNode(String(child)));
    else node.appendChild(child);
  }

  function fill(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    for (var i = 1; i < arguments.length; i++) append(node, arguments[i]);
  }

  /* ---------- the transcript source: objects, or NDJSON lines parsed lazily ---------- */

  function ObjectSource(records) {
    this.n = records.length;
    this.type = function (i) { var r = records[i]; return r && typeof r === 'object' ? String(r.type) : ''; };
    this.get = function (i) { return records[i]; };
  }

  var TYPE_PREFIX = '{"type":"';

  /* NDJSON kept as one string: a line is an offset pair, sliced and parsed
   * only when a game that holds it is shown (half a million small strings
   * would cost more than the whole index). */
  function LineSource(text) {
    var starts = [], ends = [];
    var pos = 0, len = text.length;
    while (pos < len) {
      var nl = text.indexOf('\n', pos);
      if (nl < 0) nl = len;
      var e = nl;
      if (e > pos && text.charCodeAt(e - 1) === 13) e--;
      if (e > pos) { starts.push(pos); ends.push(e); }
      pos = nl + 1;
    }
    var cache = new Map();
    var self = this;
    this.n = starts.length;
    this.type = function (i) {
      var a = starts[i];
      if (text.startsWith(TYPE_PREFIX, a)) {
        var end = text.indexOf('"', a + TYPE_PREFIX.length);
        if (end > 0 && end < ends[i]) return text.slice(a + TYPE_PREFIX.length, end);
      }
      var r = self.get(i);
      return r ? String(r.type) : '';
    };
    this.get = function (i) {
      if (cache.has(i)) return cache.get(i);
      var r = null;
      try { r = JSON.parse(text.slice(starts[i], ends[i])); } catch (e) { r = { type: 'unreadable', line: i + 1 }; }
      if (cache.size > 20000) cache.clear();   /* bounded: a game is a few hundred records */
      cache.set(i, r);
      return r;
    };
  }

  /* ---------- the index: where each game starts, built in one pass ---------- */

  function buildIndex(src) {
    var idx = { header: null, info: null, end: null, digest: null, replay: null,
                games: [], botends: [], errors: [] };
    var cur = null;
    for (var i = 0; i < src.n; i++) {
      var t = src.type(i);
      switch (t) {
        case 'send': case 'ask': case 'recv': case 'verdict': case 'penalty':
          break;
        case 'deal':
          if (cur) cur.end = i;
          cur = { start: i, end: src.n, deal: src.get(i), result: null, model: null };
          idx.games.push(cur);
          break;
        case 'result':
          if (cur) cur.result = src.get(i);
          break;
        case 'restart':
          if (cur) { cur.end = i; cur = null; }
          break;
        case 'end':
          if (cur) { cur.end = i; cur = null; }
          idx.end = src.get(i);
          break;
        case 'botend': idx.botends.push(src.get(i)); break;
        case 'header': idx.header = src.get(i); break;
        case 'info': idx.info = src.get(i); break;
        case 'digest': idx.digest = src.get(i); break;
        case 'replay': idx.replay = src.get(i); break;
        case 'corrupt': case 'unreadable': idx.errors.push(src.get(i)); break;
        default: break;
      }
    }
    return idx;
  }

  /* ---------- cards ---------- */

  var SUIT_SYMBOL = { S: '\u2660', H: '\u2665', C: '\u2663', D: '\u2666' };
  var SUIT_NAME = { S: 'spades', H: 'hearts', C: 'clubs', D: 'diamonds' };
  var RANK_NAME = { T: '10' };

  function removeCards(hand, cards) {
    cards.forEach(function (c) {
      var k = hand.indexOf(c);
      if (k >= 0) hand.splice(k, 1);
    });
  }

  /* A card as the game writes it: a rank, or with a suited game's renderer
   * (suited: true) rank then suit; jokers B/R or BJ/RJ. */
  function cardNode(card, game) {
    var joker = card === 'B' || card === 'R' || card === 'BJ' || card === 'RJ';
    if (joker) {
      var big = card[0] === 'R';
      return el('li', { class: 'card joker ' + (big ? 'red' : 'black'),
                        title: big ? 'big (red) joker' : 'small (black) joker' },
                el('span', { class: 'rank', text: 'JKR' }),
                el('span', { class: 'suit', 'aria-hidden': 'true', text: big ? '\u2605' : '\u2606' }));
    }
    var rank = card[0];
    var shown = RANK_NAME[rank] || rank;
    if (rendererOf(game).suited) {
      var suit = card[1];
      return el('li', { class: 'card ' + (suit === 'H' || suit === 'D' ? 'red' : 'black'),
                        title: shown + ' of ' + (SUIT_NAME[suit] || suit) },
                el('span', { class: 'rank', text: shown }),
                el('span', { class: 'suit', 'aria-hidden': 'true', text: SUIT_SYMBOL[suit] || suit }));
    }
    return el('li', { class: 'card', title: shown }, el('span', { class: 'rank', text: shown }));
  }

  function cardList(cards, game, label) {
    return el('ul', { class: 'cards', 'aria-label': label || null },
              cards.map(function (c) { return cardNode(c, game); }));
  }

  function cardBacks(n) {
    var ul = el('ul', { class: 'cards backs', 'aria-label': n + ' hidden cards' });
    for (var i = 0; i < n; i++) ul.appendChild(el('li', { class: 'card back', 'aria-hidden': 'true' }));
    return ul;
  }

  /* ---------- the games' renderers ---------- */

  /* name → renderer. A renderer (games/<game>/viewer_<game>.js) has:
   *   title(cfg)            the match's title
   *   suited                cards are rank+suit (else ranks)
   *   cards(text)           a card list of the protocol → card strings
   *   sort(cards, s)        a hand as its player holds it
   *   init(s)               the game's fields of a fresh state
   *   isPrivate(words)      a line only its receiver sees, beyond hand/note (optional)
   *   applyPrivate(s, seat, words)  a line as its receiver sees it (optional)
   *   apply(s, words, line) a public event, applied once
   *   role(s, seat)         the seat's role, '' for none
   *   dealtNote             said after "the cards are dealt" ('' for none)
   *   center(v, model, s)   the sections before the trick (auction, kitty…)
   *   trickTitle(s)         the heading of the current trick
   *   afterTrick(v, model, s)  sections after it (optional)
   *   resultInfo(s)         a line under the scores, or null (optional) */
  var RENDERERS = {};

  /* A game no renderer knows: its cards shown as the words the bots got. */
  var PLAIN = {
    title: function (cfg) { return String(cfg.game || 'an unknown game'); },
    suited: false,
    cards: function (text) { return text ? [text] : []; },
    sort: function (cards) { return cards; },
    init: function () {},
    apply: function (s, words, line) {
      if (words[0] === 'result') s.result = words.slice(1).map(Number);
      else if (['counts', 'penalty', 'deal', 'end'].indexOf(words[0]) < 0) s.events.push(line);
    },
    role: function () { return ''; },
    dealtNote: '',
    center: function () { return []; },
    trickTitle: function () { return 'Round'; }
  };

  function rendererOf(game) { return RENDERERS[game] || PLAIN; }

  window.ArbViewer = {
    register: function (name, renderer) { RENDERERS[name] = renderer; },
    el: el, fill: fill, cardList: cardList, cardBacks: cardBacks, removeCards: removeCards,
    SUIT_SYMBOL: SUIT_SYMBOL, SUIT_NAME: SUIT_NAME, RANK_NAME: RANK_NAME
  };

  /* ---------- a game's replay: records → a snapshot per decision ---------- */

  function newState(game, deal, nseats, r) {
    var s = {
      game: game, nseats: nseats, botAt: deal.bot_at || [],
      hands: [], last: [], clocks: [],
      round: [], trickNo: 0,
      result: null, penalties: [], notes: [],
      actor: -1, action: null, decision: 0, byReferee: false, kind: '', events: []
    };
    for (var i = 0; i < nseats; i++) {
      s.hands.push([]); s.last.push(null);
      s.clocks.push({ move: null, bank: null, deal: null, wall: null, cpu: null, kind: '' });
    }
    r.init(s);
    return s;
  }

  /* recv kinds, as referee/transcript_read.c names them */
  var REPLY_KINDS = ['line', 'timeout', 'too-long', 'closed', 'exited', 'crashed'];

  function clone(s) { return JSON.parse(JSON.stringify(s)); }

  function nseatsOf(idx, deal) {
    var cfg = idx.header && idx.header.config;
    if (cfg && typeof cfg.players === 'number') return cfg.players;
    return (deal.bot_at || []).length || 3;
  }

  function gameName(idx) {
    var cfg = idx.header && idx.header.config;
    return cfg && typeof cfg.game === 'string' ? cfg.game : '';
  }

  /* Lines only their receiver sees: never counted as public events. */
  function isPrivate(words, r) {
    var w = words[0];
    if (w === 'hand' || w === 'note') return true;
    return r.isPrivate ? r.isPrivate(words) : false;
  }

  function applyPrivate(s, seat, words, r) {
    var w = words[0];
    if (w === 'hand') s.hands[seat] = r.cards(words[1] || '');
    else if (w === 'note') s.notes.push({ seat: seat, text: words.slice(1).join(' ') });
    else if (r.applyPrivate) r.applyPrivate(s, seat, words);
  }

  /* Replay one game's records; snapshot after each decision. A decision's
   * step starts with its first record (ask, penalty or verdict) and holds
   * every event the referee sent until the next decision is asked. */
  function analyseGame(idx, src, gi) {
    var g = idx.games[gi];
    if (g.model) return g.model;
    var game = gameName(idx), rd = rendererOf(game);
    var deal = g.deal;
    var nseats = nseatsOf(idx, deal);
    var s = newState(deal.game, deal, nseats, rd);
    var botAt = s.botAt;
    var seatOf = function (bot) { return botAt.indexOf(bot); };
    var pubCount = [], processed = 0, i;
    for (i = 0; i < nseats; i++) pubCount.push(0);
    var steps = [];
    var moveMs = null;
    var cfg = idx.header && idx.header.config;
    if (cfg && Array.isArray(cfg.clock)) moveMs = cfg.clock[0];

    function startStep(decision) {
      steps.push({ decision: s.decision, state: clone(s) });
      s.decision = decision; s.action = null; s.actor = -1; s.byReferee = false;
      s.kind = ''; s.events = []; s.stepPenalties = [];
    }

    s.stepPenalties = [];
    for (i = g.start + 1; i < g.end; i++) {
      var t = src.type(i);
      if (t === 'botend' || t === 'restart') continue;
      var r = src.get(i);
      if (!r) continue;
      if ((t === 'ask' || t === 'penalty' || t === 'verdict') && typeof r.decision === 'number' && r.decision > s.decision)
        startStep(r.decision);
      var seat;
      if (t === 'send') {
        seat = seatOf(r.bot);
        if (seat < 0 || typeof r.line !== 'string') continue;
        var words = r.line.split(' ');
        if (isPrivate(words, rd)) { applyPrivate(s, seat, words, rd); continue; }
        applyPrivate(s, seat, words, rd);
        pubCount[seat]++;
        if (pubCount[seat] <= processed) continue;
        processed = pubCount[seat];
        rd.apply(s, words, r.line);
      } else if (t === 'ask') {
        seat = seatOf(r.bot);
        if (seat < 0) continue;
        var m = /\btime (-?\d+) (-?\d+) (-?\d+)/.exec(r.request || '');
        if (m) {
          var c = s.clocks[seat];
          c.move = Number(m[1]); c.deal = Number(m[2]); c.bank = Number(m[3]);
          c.wall = null; c.cpu = null; c.kind = '';
        }
        s.actor = seat;
      } else if (t === 'recv') {
        seat = seatOf(r.bot);
        if (seat < 0) continue;
        var ck = s.clocks[seat];
        /* the numeric kind first: `replay --json` names it "line" for a
           timeout (kind 1) in this version */
        ck.wall = r.wall_ns; ck.cpu = r.cpu_ns;
        ck.kind = REPLY_KINDS[r.kind] || r.kind_name || '';
        ck.reply = r.line;
        if (ck.bank !== null && ck.move !== null && typeof r.wall_ns === 'number') {
          var over = r.wall_ns / 1e6 - ck.move;
          ck.bankAfter = Math.max(0, Math.round(ck.bank - Math.max(0, over)));
        }
      } else if (t === 'verdict') {
        s.actor = r.seat; s.action = String(r.action); s.byReferee = !!r.by_referee;
      } else if (t === 'penalty') {
        var pen = { decision: r.decision, seat: r.seat, bot: r.bot, reason: String(r.reason),
                    consequence: String(r.consequence), detail: String(r.detail) };
        s.penalties.push(pen); s.stepPenalties.push(pen);
      } else if (t === 'result') {
        s.scoreRecord = r.score; s.forfeitBot = r.forfeit_bot;
      }
    }
    steps.push({ decision: s.decision, state: clone(s) });
    void moveMs;
    g.model = { game: game, nseats: nseats, botAt: botAt, steps: steps };
    return g.model;
  }

  /* ---------- the viewer ---------- */

  function Viewer(root, idx, src, t0) {
    this.root = root; this.idx = idx; this.src = src;
    this.game = gameName(idx);
    this.g = 0; this.step = 0; this.seatView = -1;
    this.build();
    var self = this;
    this.totalsBefore = null;
    if (!this.restoreFromHash()) this.show(0, 0);
    window.addEventListener('hashchange', function () { self.restoreFromHash(); });
    document.addEventListener('keydown', function (e) { self.onKey(e); });
    window.ARB_VIEWER = this;
    window.ARB_VIEWER_OPEN_MS = performance.now() - t0;
    root.setAttribute('data-ready', 'true');
  }

  Viewer.prototype.bots = function () {
    var cfg = this.idx.header && this.idx.header.config;
    return cfg && Array.isArray(cfg.bots) ? cfg.bots : [];
  };

  Viewer.prototype.botName = function (bot) {
    var b = this.bots()[bot];
    return b && b.name !== undefined ? String(b.name) : 'bot ' + bot;
  };

  Viewer.prototype.seatLabel = function (model, seat) {
    if (seat < 0 || seat === undefined) return '';
    return 'seat ' + seat + ' (' + this.botName(model.botAt[seat]) + ')';
  };

  Viewer.prototype.build = function () {
    var self = this, idx = this.idx;
    var cfg = (idx.header && idx.header.config) || {};
    var title = rendererOf(this.game).title(cfg);
    function button(id, label, key, fn) {
      var b = el('button', { type: 'button', id: id, 'aria-keyshortcuts': key, title: label + ' (' + key + ')' }, label);
      b.addEventListener('click', fn);
      return b;
    }
    this.seatSelect = el('select', { id: 'seat-view' });
    this.seatSelect.addEventListener('change', function () {
      self.seatView = Number(self.seatSelect.value); self.render();
    });
    this.range = el('input', { type: 'range', id: 'step-range', min: 0, max: 0, value: 0, 'aria-label': 'decision in this deal' });
    this.range.addEventListener('input', function () { self.show(self.g, Number(self.range.value)); });
    this.position = el('p', { class: 'position', id: 'position' });
    this.announce = el('p', { class: 'announce', id: 'announce', 'aria-live': 'polite', role: 'status' });
    this.table = el('section', { class: 'table', id: 'table', 'aria-label': 'the table' });
    this.center = el('section', { class: 'center', id: 'center', 'aria-label': 'auction, kitty and trick' });
    this.scores = el('section', { class: 'panel', id: 'scores', 'aria-labelledby': 'scores-h' });
    this.clocks = el('section', { class: 'panel', id: 'clocks', 'aria-labelledby': 'clocks-h' });
    this.pens = el('section', { class: 'panel', id: 'penalties', 'aria-labelledby': 'penalties-h' });

    var summary = [];
    summary.push(title);
    if (cfg.rules) summary.push('rules ' + cfg.rules);
    if (cfg.seed !== undefined) summary.push('seed ' + cfg.seed);
    summary.push(idx.games.length + (idx.games.length === 1 ? ' deal' : ' deals'));
    var status = null;
    if (idx.replay) {
      var rp = idx.replay;
      var ok = rp.digest_ok && rp.reproduced;
      status = el('p', { class: 'status ' + (ok ? 'ok' : 'bad'), id: 'replay-status' },
        rp.error ? 'cannot judge: ' + rp.error :
        (rp.digest_ok ? 'digest ok' : 'digest does NOT match: ' + (rp.digest_error || '')) + ' \u00b7 ' +
        (rp.reproduced ? 'every verdict reproduced' : 'NOT reproduced: ' + (rp.divergence || '')));
    }

    var help = el('details', { class: 'help', id: 'help' },
      el('summary', null, 'Keys'),
      el('dl', null,
        el('dt', null, el('kbd', null, '\u2192'), ' / ', el('kbd', null, '\u2190')), el('dd', null, 'next / previous decision'),
        el('dt', null, el('kbd', null, 'Home'), ' / ', el('kbd', null, 'End')), el('dd', null, 'start / end of the deal'),
        el('dt', null, el('kbd', null, 'PageDown'), ' / ', el('kbd', null, 'PageUp'), ' or ', el('kbd', null, ']'), ' / ', el('kbd', null, '[')),
        el('dd', null, 'next / previous deal'),
        el('dt', null, el('kbd', null, '0'), '\u2013', el('kbd', null, '9'), ', ', el('kbd', null, 'a')), el('dd', null, 'one seat\u2019s view / every hand'),
        el('dt', null, el('kbd', null, '?')), el('dd', null, 'show or hide this help')),
      el('p', null, 'The address of the page (#g=GAME&d=DECISION&seat=N) links to the position shown.'));
    this.help = help;

    fill(this.root,
      el('header', { class: 'match' },
        el('h1', null, 'Replay: ', title),
        el('p', { class: 'summary', id: 'summary' }, summary.join(' \u00b7 ')),
        status,
        this.botsPanel()),
      el('nav', { class: 'controls', 'aria-label': 'replay controls' },
        el('div', { class: 'buttons' },
          button('b-prev-deal', '\u00ab deal', 'PageUp', function () { self.deal(-1); }),
          button('b-first', '\u21e4 first', 'Home', function () { self.first(); }),
          button('b-prev', '\u2190 prev', 'ArrowLeft', function () { self.move(-1); }),
          button('b-next', 'next \u2192', 'ArrowRight', function () { self.move(1); }),
          button('b-last', 'last \u21e5', 'End', function () { self.last(); }),
          button('b-next-deal', 'deal \u00bb', 'PageDown', function () { self.deal(1); })),
        el('label', { class: 'range' }, el('span', { class: 'visually-hidden' }, 'decision'), this.range),
        el('label', { class: 'seatview' }, 'View: ', this.seatSelect),
        this.position),
      this.announce,
      el('div', { class: 'board' }, this.table, this.center),
      el('div', { class: 'panels' }, this.scores, this.clocks, this.pens),
      help);
  };

  Viewer.prototype.botsPanel = function () {
    var self = this, idx = this.idx;
    var items = this.bots().map(function (b, i) {
      var ends = idx.botends.filter(function (e) { return e.bot === i; });
      return el('li', { class: 'bot' },
        el('strong', { class: 'bot-name' }, self.botName(i)),
        ends.map(function (e) {
          return el('div', { class: 'botend' },
            ' \u2014 ' + (e.ended || e.status_text || ('status ' + e.status)) + (e.sandbox ? ' [' + e.sandbox + ']' : ''),
            e.stderr ? el('details', null, el('summary', null, 'stderr (' + String(e.stderr).length + ' bytes)'),
                                       el('pre', { class: 'stderr' }, String(e.stderr))) : null);
        }));
    });
    var end = idx.end && idx.end.summary;
    var totals = end && Array.isArray(end.totals) ?
      el('p', { id: 'totals' }, 'Match totals: ' + end.totals.map(function (v, i) {
        return self.botName(i) + ' ' + (v > 0 ? '+' : '') + v;
      }).join(', ')) : null;
    return el('details', { class: 'bots', id: 'bots' }, el('summary', null, 'Bots (' + this.bots().length + ')'),
              el('ul', null, items), totals);
  };

  Viewer.prototype.model = function () { return analyseGame(this.idx, this.src, this.g); };

  Viewer.prototype.show = function (g, step) {
    var n = this.idx.games.length;
    if (n === 0) { this.renderEmpty(); return; }
    g = Math.max(0, Math.min(n - 1, g));
    this.g = g;
    var model = this.model();
    this.step = Math.max(0, Math.min(model.steps.length - 1, step));
    this.render();
  };

  Viewer.prototype.move = function (d) {
    var model = this.model();
    var s = this.step + d;
    if (s >= model.steps.length && this.g + 1 < this.idx.games.length) { this.show(this.g + 1, 0); return; }
    if (s < 0 && this.g > 0) {
      this.g -= 1; this.show(this.g, this.model().steps.length - 1); return;
    }
    this.show(this.g, s);
  };
  Viewer.prototype.first = function () { this.show(this.g, 0); };
  Viewer.prototype.last = function () { this.show(this.g, this.model().steps.length - 1); };
  Viewer.prototype.deal = function (d) { this.show(this.g + d, 0); };

  Viewer.prototype.onKey = function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === 'SELECT' || tag === 'TEXTAREA' || (tag === 'INPUT' && e.target.type !== 'range')) return;
    var handled = true;
    switch (e.key) {
      case 'ArrowRight': this.move(1); break;
      case 'ArrowLeft': this.move(-1); break;
      case 'Home': this.first(); break;
      case 'End': this.last(); break;
      case 'PageDown': case ']': this.deal(1); break;
      case 'PageUp': case '[': this.deal(-1); break;
      case '?': this.help.open = !this.help.open; break;
      case 'a': this.setSeatView(-1); break;
      default:
        if (/^[0-9]$/.test(e.key) && Number(e.key) < this.model().nseats) this.setSeatView(Number(e.key));
        else handled = false;
    }
    if (handled) e.preventDefault();
  };

  Viewer.prototype.setSeatView = function (seat) { this.seatView = seat; this.render(); };

  Viewer.prototype.restoreFromHash = function () {
    var h = (location.hash || '').replace(/^#/, '');
    if (!h) return false;
    var p = {};
    h.split('&').forEach(function (kv) { var a = kv.split('='); p[a[0]] = decodeURIComponent(a[1] || ''); });
    if (p.g === undefined) return false;
    var g = Math.max(0, Math.min(this.idx.games.length - 1, parseInt(p.g, 10) || 0));
    this.g = g;
    var model = this.model();
    var d = parseInt(p.d, 10) || 0, step = 0;
    for (var i = 0; i < model.steps.length; i++) if (model.steps[i].decision <= d) step = i;
    var seat = p.seat === undefined ? -1 : parseInt(p.seat, 10);
    this.seatView = seat >= 0 && seat < model.nseats ? seat : -1;
    this.show(g, step);
    return true;
  };

  Viewer.prototype.renderEmpty = function () {
    fill(this.table, el('p', null, 'This transcript holds no deal.'));
    this.announce.textContent = 'No deal to show.';
  };

  Viewer.prototype.render = function () {
    var model = this.model();
    var st = model.steps[this.step];
    var s = st.state;
    var self = this;
    var game = model.game;
    /* the seat selector follows the game's seats (a seat's bot changes between deals) */
    var opts = [el('option', { value: -1 }, 'Every hand')];
    for (var k = 0; k < model.nseats; k++) opts.push(el('option', { value: k }, 'Seat ' + k + ' only \u2014 ' + this.botName(model.botAt[k])));
    fill(this.seatSelect, opts);
    this.seatSelect.value = String(this.seatView);
    this.range.max = String(model.steps.length - 1);
    this.range.value = String(this.step);

    var gRec = this.idx.games[this.g].deal;
    this.position.textContent = 'Deal ' + (this.g + 1) + ' of ' + this.idx.games.length +
      ' (game ' + this.g + (gRec.seating ? ', seating ' + gRec.seating : '') + ') \u00b7 ' +
      (this.step === 0 ? 'the deal' : 'decision ' + st.decision) +
      ' \u00b7 step ' + this.step + ' of ' + (model.steps.length - 1);

    /* the announcement: what happened at this step */
    var text;
    if (this.step === 0) text = 'Deal ' + (this.g + 1) + ': the cards are dealt' + rendererOf(game).dealtNote + '.';
    else {
      text = 'Decision ' + st.decision + ': ' + this.seatLabel(model, s.actor) + ' ' + (s.action === null ? '(no verdict)' : s.action);
      if (s.kind) text += ' (' + s.kind.replace(/_/g, ' ') + ')';
      if (s.byReferee) text += ', played by the referee';
      s.stepPenalties.forEach(function (p) { text += '; penalty: ' + p.reason + ', ' + p.consequence; });
      if (s.result && this.step === model.steps.length - 1) text += '; result ' + s.result.join(' ');
      text += '.';
    }
    this.announce.textContent = text;

    this.renderTable(model, s);
    this.renderCenter(model, s);
    this.renderScores(model, s);
    this.renderClocks(model, s);
    this.renderPenalties(model, s);

    var hash = '#g=' + this.g + '&d=' + st.decision + (this.seatView >= 0 ? '&seat=' + this.seatView : '');
    if (location.hash !== hash) {
      try { history.replaceState(null, '', hash); } catch (e) { /* some file:// contexts refuse */ }
    }
    void self;
  };

  Viewer.prototype.roleOf = function (model, s, seat) {
    return rendererOf(model.game).role(s, seat);
  };

  Viewer.prototype.renderTable = function (model, s) {
    var self = this;
    var seats = [];
    for (var seat = 0; seat < model.nseats; seat++) {
      var hand = s.hands[seat] || [];
      var sorted = rendererOf(model.game).sort(hand, s);
      var visible = this.seatView < 0 || this.seatView === seat;
      var role = this.roleOf(model, s, seat);
      var last = s.last[seat];
      var c = s.clocks[seat];
      seats.push(el('section', {
          class: 'seat' + (s.actor === seat && this.step > 0 ? ' actor' : '') + (visible ? '' : ' hidden-hand'),
          'data-seat': seat, 'aria-label': 'seat ' + seat },
        el('h2', null, 'Seat ' + seat + ' \u00b7 ', el('span', { class: 'name' }, this.botName(model.botAt[seat])),
           role ? el('span', { class: 'role' }, ' \u2014 ' + role) : null),
        el('p', { class: 'count' }, hand.length + (hand.length === 1 ? ' card' : ' cards') +
           (c && c.bank !== null ? ' \u00b7 bank ' + (c.bankAfter !== undefined ? c.bankAfter : c.bank) + ' ms' : '')),
        visible ? cardList(sorted, model.game, 'hand of seat ' + seat) : cardBacks(hand.length),
        el('div', { class: 'last', role: 'group', 'aria-label': 'last play of seat ' + seat },
          last ? (last.pass ? el('span', { class: 'pass' }, 'pass') :
                  [cardList(last.cards, model.game), last.kind ? el('span', { class: 'kind' }, last.kind.replace(/_/g, ' ')) : null])
               : null)));
    }
    fill(this.table, seats);
    void self;
  };

  Viewer.prototype.renderCenter = function (model, s) {
    var self = this, game = model.game, rd = rendererOf(game);
    var parts = rd.center(this, model, s);
    var round = s.round.map(function (p) {
      return el('li', { class: 'play' + (p.pass ? ' pass' : '') },
        el('span', { class: 'who' }, 'seat ' + p.seat + ': '),
        p.pass ? 'pass' : [cardList(p.cards, game), p.kind ? el('span', { class: 'kind' }, ' ' + p.kind.replace(/_/g, ' ')) : null]);
    });
    parts.push(el('section', { class: 'trick', id: 'trick', 'aria-label': 'current trick' },
      el('h2', null, rd.trickTitle(s)),
      round.length ? el('ol', null, round) : el('p', null, 'no play yet')));
    if (rd.afterTrick) parts = parts.concat(rd.afterTrick(this, model, s));
    if (s.events.length) parts.push(el('ul', { class: 'events' }, s.events.map(function (e) { return el('li', null, e); })));
    fill(this.center, parts);
    void self;
  };

  /* Match totals per bot from the result records of the games before g. */
  Viewer.prototype.totalsBeforeGame = function (g) {
    if (!this.totalsCache) {
      var acc = [], cache = [];
      var nbots = this.bots().length;
      for (var b = 0; b < nbots; b++) acc.push(0);
      this.idx.games.forEach(function (gm) {
        cache.push(acc.slice());
        var r = gm.result, at = gm.deal.bot_at || [];
        if (r && Array.isArray(r.score)) r.score.forEach(function (v, seat) { if (at[seat] !== undefined) acc[at[seat]] += v; });
      });
      this.totalsCache = cache;
    }
    return this.totalsCache[g];
  };

  Viewer.prototype.renderScores = function (model, s) {
    var self = this;
    var before = this.totalsBeforeGame(this.g) || [];
    var score = s.result;
    var rows = [];
    for (var seat = 0; seat < model.nseats; seat++) {
      var bot = model.botAt[seat];
      var v = score ? score[seat] : null;
      var tb = before[bot] || 0;
      rows.push(el('tr', null,
        el('th', { scope: 'row' }, 'seat ' + seat + ' ', el('span', { class: 'name' }, this.botName(bot))),
        el('td', { class: 'num' }, v === null ? '\u2014' : (v > 0 ? '+' : '') + v),
        el('td', { class: 'num' }, String(score ? tb + v : tb))));
    }
    var rd = rendererOf(model.game);
    var info = rd.resultInfo ? rd.resultInfo(s) : null;
    fill(this.scores, el('h2', { id: 'scores-h' }, 'Scores'),
      el('table', null,
        el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'seat'), el('th', { scope: 'col' }, 'this deal'),
                                         el('th', { scope: 'col' }, 'match so far'))),
        el('tbody', null, rows)),
      info);
    void self;
  };

  function ms(ns) { return typeof ns === 'number' ? (ns / 1e6).toFixed(ns < 1e7 ? 3 : 1) + ' ms' : '\u2014'; }

  Viewer.prototype.renderClocks = function (model, s) {
    var rows = [];
    for (var seat = 0; seat < model.nseats; seat++) {
      var c = s.clocks[seat];
      rows.push(el('tr', { class: s.actor === seat && this.step > 0 ? 'actor' : null },
        el('th', { scope: 'row' }, 'seat ' + seat),
        el('td', { class: 'num' }, ms(c.wall)),
        el('td', { class: 'num' }, ms(c.cpu)),
        el('td', { class: 'num' }, c.bank === null ? '\u2014' : (c.bankAfter !== undefined ? c.bankAfter : c.bank) + ' ms'),
        el('td', null, c.kind && c.kind !== 'line' ? c.kind : '')));
    }
    fill(this.clocks, el('h2', { id: 'clocks-h' }, 'Clocks (last decision of each seat)'),
      el('table', null,
        el('thead', null, el('tr', null, el('th', { scope: 'col' }, 'seat'), el('th', { scope: 'col' }, 'wall'),
          el('th', { scope: 'col' }, 'CPU'), el('th', { scope: 'col' }, 'bank left'), el('th', { scope: 'col' }, 'reply'))),
        el('tbody', null, rows)));
  };

  Viewer.prototype.renderPenalties = function (model, s) {
    var self = this;
    var current = st_decision(model, this.step);
    var items = s.penalties.map(function (p) {
      var ends = self.idx.botends.filter(function (e) { return e.bot === p.bot && e.status !== 0 && e.status !== -1; });
      var how = (p.reason === 'exited' || p.reason === 'crashed' || p.reason === 'closed') && ends.length ? ' (' + (ends[0].ended || ends[0].status_text) + ')' : '';
      return el('li', { class: 'penalty' + (p.decision === current ? ' current' : '') },
        el('strong', null, 'decision ' + p.decision + ', ' + self.seatLabel(model, p.seat) + ': '),
        p.reason + how + ' \u2192 ' + p.consequence,
        el('div', { class: 'detail' }, p.detail));
    });
    fill(this.pens, el('h2', { id: 'penalties-h' }, 'Penalties in this deal'),
      items.length ? el('ul', null, items) : el('p', null, 'none so far'),
      s.notes.length ? el('details', null, el('summary', null, 'notes to the bots (' + s.notes.length + ')'),
        el('ul', null, s.notes.map(function (n) { return el('li', null, 'seat ' + n.seat + ': ' + n.text); }))) : null);
  };

  function st_decision(model, step) { return model.steps[step].decision; }

  /* ---------- start ---------- */

  function start() {
    var t0 = performance.now();
    /* the standalone page's <main id="viewer">, or the section of the
       server's and the report's replay page (web/web_pages.c) */
    var root = document.getElementById('viewer') || document.getElementById('arb-viewer');
    if (!root) return;
    function fail(msg) {
      fill(root, el('p', { class: 'error', role: 'alert' }, msg));
    }
    var timings = window.ARB_VIEWER_TIMINGS = {};
    function go(src) {
      var t1 = performance.now();
      var idx = buildIndex(src);
      timings.index_ms = performance.now() - t1;
      if (!idx.header) { fail('Not an arbiter transcript: no header record.'); return; }
      new Viewer(root, idx, src, t0);
    }
    if (Array.isArray(window.ARB_TRANSCRIPT)) { go(new ObjectSource(window.ARB_TRANSCRIPT)); return; }
    /* a string: the NDJSON itself (a 40 MB string literal parses far faster
       than the same records as an array literal) */
    if (typeof window.ARB_TRANSCRIPT === 'string') { go(new LineSource(window.ARB_TRANSCRIPT)); return; }
    var url = root.getAttribute('data-src') || root.getAttribute('data-transcript-url');
    if (!url) { fail('No transcript: define window.ARB_TRANSCRIPT or data-src.'); return; }
    root.setAttribute('aria-busy', 'true');
    fetch(url, { credentials: 'same-origin' }).then(function (res) {
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.text();
    }).then(function (text) {
      timings.fetch_ms = performance.now() - t0;
      root.removeAttribute('aria-busy');
      go(new LineSource(text));
    }).catch(function (e) {
      root.removeAttribute('aria-busy');
      fail('Cannot load the transcript (' + url + '): ' + e.message);
    });
  }

  /* after the whole script: the games' renderers follow this core in it */
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else setTimeout(start, 0);
})();
