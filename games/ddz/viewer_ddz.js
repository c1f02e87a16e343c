/* viewer_ddz.js — Dou Dizhu's renderer in the replay viewer (the core is
 * web/assets/viewer/viewer.js, which the build follows with this file):
 * the cards as ranks, the auction, the landlord, the kitty and the round,
 * rebuilt from the bot protocol's lines (schemas/bot-protocol.md). */
(function () {
  'use strict';
  var V = window.ArbViewer, el = V.el, cardList = V.cardList, removeCards = V.removeCards;

  var ORDER = '3456789TJQKA2BR';

  /* cards are ranks: "555666+4K" → ["5","5","5","6","6","6","4","K"] */
  function cards(text) {
    var out = [];
    for (var i = 0; i < text.length; i++) {
      var c = text[i].toUpperCase();
      if (ORDER.indexOf(c) >= 0) out.push(c);
    }
    return out;
  }

  function sort(list) {
    return list.slice().sort(function (a, b) { return ORDER.indexOf(a) - ORDER.indexOf(b); });
  }

  function apply(s, words, line) {
    var w = words[0], seat = Number(words[1]);
    switch (w) {
      case 'first': s.first = seat; break;
      case 'redeal':
        s.auction = []; s.landlord = -1; s.kitty = [];
        s.events.push('redeal ' + (words[1] || ''));
        break;
      case 'bid':
        s.auction.push({ seat: seat, text: words[2] === '0' ? 'pass' : 'bid ' + words[2] }); break;
      case 'call': case 'rob': case 'double': case 'show': case 'claim':
        s.auction.push({ seat: seat, text: words[2] === '1' ? w : 'no ' + w }); break;
      case 'landlord': s.landlord = seat; s.stake = Number(words[2]); break;
      case 'kitty':
        s.kitty = cards(words[1] || '');
        if (s.landlord >= 0) s.hands[s.landlord] = s.hands[s.landlord].concat(s.kitty);
        break;
      case 'wild': s.events.push('wild ' + words.slice(1).join(' ')); break;
      case 'shown': s.shown.push(seat); break;
      case 'play': {
        if (s.round.length === 0 || s.passes >= s.nseats - 1) {
          s.round = []; s.last = s.last.map(function () { return null; }); s.trickNo++;
        }
        var played = cards(words[2] || '');
        removeCards(s.hands[seat], played);
        var p = { seat: seat, text: words[2] || '', kind: words[3] || '', cards: played };
        s.round.push(p); s.last[seat] = p; s.passes = 0; s.kind = p.kind;
        break;
      }
      case 'pass': {
        var q = { seat: seat, text: 'pass', kind: '', cards: [], pass: true };
        s.round.push(q); s.last[seat] = q; s.passes++;
        break;
      }
      case 'result':
        s.result = words.slice(1).map(Number);
        break;
      default:
        if (w !== 'counts' && w !== 'penalty' && w !== 'deal' && w !== 'end') s.events.push(line);
    }
  }

  V.register('doudizhu', {
    title: function (cfg) { return 'Dou Dizhu (\u6597\u5730\u4e3b), ' + (cfg.players || 3) + ' players'; },
    suited: false,
    cards: cards,
    sort: function (list) { return sort(list); },
    init: function (s) {
      s.auction = []; s.first = -1; s.landlord = -1; s.stake = 0; s.kitty = []; s.shown = []; s.passes = 0;
    },
    apply: apply,
    role: function (s, seat) {
      if (s.landlord < 0) return '';
      return s.landlord === seat ? 'landlord (\u5730\u4e3b)' : 'peasant';
    },
    dealtNote: '',
    center: function (v, model, s) {
      var auction = s.auction.map(function (a) { return el('li', null, 'seat ' + a.seat + ': ' + a.text); });
      return [
        el('section', { class: 'auction', id: 'auction', 'aria-label': 'auction' }, el('h2', null, 'Auction'),
          s.first >= 0 ? el('p', null, 'seat ' + s.first + ' speaks first') : null,
          auction.length ? el('ol', null, auction) : null,
          el('p', { id: 'landlord' }, s.landlord >= 0 ? 'Landlord (\u5730\u4e3b): ' + v.seatLabel(model, s.landlord) + ', stake ' + s.stake : 'no landlord yet')),
        el('section', { class: 'kitty', id: 'kitty', 'aria-label': 'kitty' }, el('h2', null, 'Kitty (\u5e95\u724c)'),
          s.kitty.length ? cardList(sort(s.kitty), model.game, 'kitty') : el('p', null, 'face down'))];
    },
    trickTitle: function () { return 'Round'; }
  });
})();
