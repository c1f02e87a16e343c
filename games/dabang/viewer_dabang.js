/* viewer_dabang.js — Da Bang's renderer in the replay viewer (the core is
 * web/assets/viewer/viewer.js, which the build follows with this file):
 * suited cards, the drawing and the declarations, trumps and level, the
 * kitty as dealt and as buried, the trick and the last trick, the
 * attackers' points, rebuilt from the bot protocol's lines
 * (schemas/bot-protocol.md). */
(function () {
  'use strict';
  var V = window.ArbViewer, el = V.el, cardList = V.cardList, cardBacks = V.cardBacks,
      removeCards = V.removeCards, SUIT_SYMBOL = V.SUIT_SYMBOL, SUIT_NAME = V.SUIT_NAME, RANK_NAME = V.RANK_NAME;

  /* cards are rank+suit, jokers BJ and RJ: "4SKSKS" → ["4S","KS","KS"] */
  function cards(text) {
    var out = [];
    var s = text.toUpperCase();
    for (var i = 0; i + 1 < s.length; i += 2) {
      if (s[i] === ':') break;
      out.push(s.slice(i, i + 2));
    }
    return out;
  }

  var RANKS = '3456789TJQKA2';
  var SUITS = 'SHCD';
  /* hands sorted as a player holds them: side suits by suit, then the
   * trumps (trump suit, level cards, 2s, jokers, DB-11) on the right. */
  function sort(list, trump, level) {
    function key(c) {
      if (c === 'BJ') return 1000;
      if (c === 'RJ') return 1001;
      var r = RANKS.indexOf(c[0]), s = SUITS.indexOf(c[1]);
      var trumpCard = c[1] === trump || c[0] === level || c[0] === '2';
      if (!trumpCard) return s * 20 + r;
      if (c[0] === level) return 900 + (c[1] === trump ? 10 : s);
      if (c[0] === '2') return 800 + (c[1] === trump ? 10 : s);
      return 700 + r;
    }
    return list.slice().sort(function (a, b) { return key(a) - key(b); });
  }

  function isPrivate(words) {
    var w = words[0];
    if (w === 'draw') return true;
    return (w === 'declare' || w === 'joker') && words[2] === 'pass';
  }

  function applyPrivate(s, seat, words) {
    var w = words[0];
    if (w === 'draw') {
      s.hands[seat] = s.hands[seat].concat(cards(words[1] || ''));
    } else if ((w === 'declare' || w === 'joker') && words[2] === 'pass') {
      s.events.push('seat ' + words[1] + ' ' + w + ': pass');
    } else if (words.length >= 3) {
      /* card-bearing versions of shared events, from the seat that sees the card */
      var who = Number(words[1]), cs = cards(words[2]);
      if (w === 'bury' && who === seat) {
        removeCards(s.hands[seat], cs); s.buried = s.buried.concat(cs);
      } else if (w === 'tribute' && who === seat && s.dajia >= 0) {
        removeCards(s.hands[seat], cs); s.hands[s.dajia] = s.hands[s.dajia].concat(cs);
      } else if (w === 'return' && who !== seat) {
        removeCards(s.hands[who], cs); s.hands[seat] = s.hands[seat].concat(cs);
      }
    } else if (w === 'take' && words.length === 2 && !/^[0-9]$/.test(words[1])) {
      s.hands[seat] = s.hands[seat].concat(cards(words[1]));
    }
  }

  function apply(s, words, line) {
    var w = words[0], seat = Number(words[1]);
    switch (w) {
      case 'deal':
        if (words[1] === 'seat') {
          for (var i = 3; i + 1 < words.length; i++) {
            if (words[i] === 'drawer') s.drawer = Number(words[i + 1]);
            if (words[i] === 'dajia') s.dajia = Number(words[i + 1]);
            if (words[i] === 'level') s.level = words[i + 1];
            if (words[i] === 'blood') s.blood = Number(words[i + 1]);
            if (words[i] === 'levels') s.levels = [words[i + 1], words[i + 2]];
          }
        }
        break;
      case 'declare': s.declares.push({ seat: seat, text: words[2] || '' }); break;
      case 'redeal':
        s.hands = s.hands.map(function () { return []; }); s.declares = [];
        s.events.push('redeal ' + (words[1] || ''));
        break;
      case 'flip': s.flip = words.slice(1); break;
      case 'trump':
        s.trump = words[1] || '';
        for (var j = 2; j + 1 < words.length; j++) {
          if (words[j] === 'level') s.level = words[j + 1];
          if (words[j] === 'dajia') s.dajia = Number(words[j + 1]);
          if (words[j] === 'by') s.trumpBy = words[j + 1];
        }
        break;
      case 'kitty': s.kitty = cards(words[1] || ''); break;
      case 'dry': s.kittyState = 'dry'; break;
      case 'joker':
        if (words[2] && words[2] !== 'pass') {
          var jc = cards(words[2]);
          removeCards(s.hands[seat], jc); s.buried = s.buried.concat(jc);
        }
        break;
      case 'buried': s.buried = cards(words[1] || ''); s.kittyState = 'shown'; break;
      case 'takeback': {
        var tc = cards(words[2] || '');
        removeCards(s.buried, tc); s.hands[seat] = s.hands[seat].concat(tc);
        break;
      }
      case 'play': {
        if (s.trickDone) {
          s.lastTrick = { plays: s.round, winner: s.trickDone.winner, points: s.trickDone.points, no: s.trickNo };
          s.round = []; s.trickDone = null; s.last = s.last.map(function () { return null; });
        }
        if (s.round.length === 0) s.trickNo++;
        var played = cards(words[2] || '');
        removeCards(s.hands[seat], played);
        var p = { seat: seat, text: words[2] || '', kind: '', cards: played };
        s.round.push(p); s.last[seat] = p;
        break;
      }
      case 'trick':
        /* the trick stays on the table until the next lead */
        s.trickDone = { winner: seat, points: Number(words[2]) };
        s.teamPoints = [Number(words[4]), Number(words[5])];
        break;
      case 'result':
        if (words[1] === 'points') {
          var info = {};
          for (var k = 1; k < words.length; k++) {
            var key = words[k];
            if (key === 'rise' || key === 'levels') { info[key] = [words[k + 1], words[k + 2]]; k += 2; }
            else if (['points', 'kitty', 'dug', 'case', 'next', 'blood', 'winner'].indexOf(key) >= 0) { info[key] = words[k + 1]; k += 1; }
          }
          s.resultInfo = info;
        } else {
          s.result = words.slice(1).map(Number);
        }
        break;
      case 'tribute': case 'return': case 'take': case 'bury': case 'end': case 'penalty':
        break;
      default: s.events.push(line);
    }
  }

  function center(v, model, s) {
    var game = model.game, dl = [];
    dl.push(el('dt', null, 'Level'), el('dd', { id: 'level' }, s.level ? (RANK_NAME[s.level] || s.level) : '\u2014',
      s.levels ? ' (team 0 at ' + s.levels[0] + ', team 1 at ' + s.levels[1] + ')' : ''));
    dl.push(el('dt', null, 'Trumps'), el('dd', { id: 'trump' },
      s.trump ? [el('span', { class: 'suitname ' + (s.trump === 'H' || s.trump === 'D' ? 'red' : 'black') },
                    (SUIT_SYMBOL[s.trump] || s.trump) + ' ' + (SUIT_NAME[s.trump] || s.trump)),
                 s.trumpBy ? ' (' + s.trumpBy + ')' : ''] : 'not fixed yet'));
    dl.push(el('dt', null, '\u6253\u5bb6 (declarer)'), el('dd', { id: 'dajia' }, s.dajia >= 0 ? v.seatLabel(model, s.dajia) : '\u2014'));
    if (s.blood) dl.push(el('dt', null, 'Tribute owed'), el('dd', null, String(s.blood)));
    dl.push(el('dt', null, 'Declarations'), el('dd', { id: 'declares' },
      s.declares.length ? s.declares.map(function (d) { return 'seat ' + d.seat + ' ' + d.text; }).join(', ') : 'none'));
    if (s.flip.length) dl.push(el('dt', null, 'Flipped'), el('dd', null, cardList(cards(s.flip.join('')), game)));
    dl.push(el('dt', null, 'Points (attackers)'), el('dd', { id: 'points' }, 'team 0: ' + s.teamPoints[0] + ', team 1: ' + s.teamPoints[1]));
    var showBuried = v.seatView < 0 || v.seatView === s.dajia || s.kittyState === 'shown';
    return [
      el('section', { class: 'auction', 'aria-label': 'declaring' }, el('h2', null, 'Declaring and trumps'), el('dl', null, dl)),
      el('section', { class: 'kitty', id: 'kitty', 'aria-label': 'kitty' }, el('h2', null, 'Kitty (\u6263\u5e95)'),
        s.kitty.length ? [el('p', null, 'as dealt:'), cardList(s.kitty, game, 'kitty as dealt')] : el('p', null, 'not shown yet'),
        s.buried.length ? [el('p', null, 'buried (' + s.buried.length + '):'),
                           showBuried ? cardList(sort(s.buried, s.trump, s.level), game, 'buried') : cardBacks(s.buried.length)] : null,
        s.kittyState === 'dry' ? el('p', null, 'the kitty went dry') : null)];
  }

  V.register('dabang', {
    title: function () { return 'Da Bang (\u6253\u68d2)'; },
    suited: true,
    cards: cards,
    sort: function (list, s) { return sort(list, s.trump, s.level); },
    init: function (s) {
      s.kitty = []; s.passes = 0; s.lastTrick = null;
      s.trump = ''; s.level = ''; s.dajia = -1; s.levels = null; s.blood = 0; s.drawer = -1;
      s.declares = []; s.flip = []; s.buried = []; s.teamPoints = [0, 0]; s.kittyState = '';
      s.resultInfo = null; s.trickDone = null;
    },
    isPrivate: isPrivate,
    applyPrivate: applyPrivate,
    apply: apply,
    role: function (s, seat) {
      var r = [];
      r.push('team ' + (seat % 2));
      if (s.dajia === seat) r.push('\u6253\u5bb6 (declarer)');
      else if (s.dajia >= 0 && s.dajia % 2 === seat % 2) r.push('declarer\u2019s partner');
      return r.join(', ');
    },
    dealtNote: ' (drawing)',
    center: center,
    trickTitle: function (s) {
      return 'Trick ' + (s.round.length ? s.trickNo : '') +
        (s.trickDone ? ': won by seat ' + s.trickDone.winner + ', ' + s.trickDone.points + ' points' : '');
    },
    afterTrick: function (v, model, s) {
      if (!s.lastTrick) return [];
      return [el('section', { class: 'trick last-trick', id: 'last-trick', 'aria-label': 'last trick' },
        el('h2', null, 'Last trick (' + s.lastTrick.no + '): won by seat ' + s.lastTrick.winner + ', ' + s.lastTrick.points + ' points'),
        el('ol', null, s.lastTrick.plays.map(function (p) {
          return el('li', { class: 'play' }, el('span', { class: 'who' }, 'seat ' + p.seat + ': '), cardList(p.cards, model.game));
        })))];
    },
    resultInfo: function (s) {
      var ri = s.resultInfo;
      if (!ri) return null;
      return el('p', { class: 'result-info' }, 'attackers\u2019 points ' + ri.points + ', kitty ' + (ri.kitty || '') +
        ', dug \u00d7' + ri.dug + ', case ' + ri['case'] +
        (ri.rise && ri.rise[0] !== '-1' ? ', team ' + ri.rise[0] + ' rises ' + ri.rise[1] : ', nobody rises') +
        (ri.levels ? ', levels ' + ri.levels.join('/') : '') + (ri.winner && ri.winner !== '-1' ? ', match won by team ' + ri.winner : ''));
    }
  });
})();
