/* Hanchan: the rules engine's hand settlement and game flow on the referee's phone (issue 33).
 *
 * A port of scoring/engine/settle.py and flow.py (the same names, the same rule sections),
 * reading what a win is worth from the generated payment table (paytable.js, from
 * scoring/engine/points.py). The phone uses it for the scoreboard while hands wait offline
 * and for the payment preview after every tap; the server checks every hand when it arrives
 * and its answer replaces the phone's. tests/browser/test_browser_scoreboard_js.py replays
 * random games of every preset here and in the engine and compares every hand.
 * Plain JavaScript, no DOM: also loadable in a worker.
 */
(function (global) {
  "use strict";

  var WINDS = "ESWN";
  var EAST = 0, SOUTH = 1;
  var ROUND_NAMES = ["east", "south", "west", "north"];

  function table() {
    return global.HanchanPayTable;
  }

  function variant(rules) {
    return [rules.players, rules.kiriage ? 1 : 0, rules.han_limit, rules.double_yakuman ? 1 : 0].join("|");
  }

  // [ron, tsumo from the dealer, tsumo from each other] of a win (points.hand_payment).
  function payment(win, dealer, rules) {
    var key;
    if (win.yakuman) key = "y" + win.yakuman;
    else if (win.han >= 5) key = String(Math.min(win.han, 13));
    else key = win.han + "/" + win.fu;
    var row = (table().rows[variant(rules)] || {})[key];
    if (!row) return null; // not a hand the engine accepts: the server says why
    return dealer ? { ron: row[3], fromDealer: 0, fromOther: row[4] } : { ron: row[0], fromDealer: row[1], fromOther: row[2] };
  }

  function zeros(n) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(0);
    return out;
  }

  function has(list, seat) {
    return (list || []).indexOf(seat) >= 0;
  }

  // Seats in turn order after `first` (EMA 2025 3.3.10).
  function turnOrder(first, seats, players) {
    return seats.slice().sort(function (a, b) {
      return ((a - first + players) % players) - ((b - first + players) % players);
    });
  }

  function paySticks(deltas, hand, t, rules, winners) {
    var pot = t.sticks + (hand.riichi || []).length;
    if (winners.length > 1 && rules.multi_ron_riichi === "own_back") {
      winners.forEach(function (seat) {
        if (has(hand.riichi, seat)) {
          deltas[seat] += rules.riichi_stick;
          pot -= 1;
        }
      });
    }
    deltas[winners[0]] += pot * rules.riichi_stick;
  }

  function settleRon(hand, t, rules, deltas) {
    var bySeat = {};
    hand.wins.forEach(function (w) {
      bySeat[w.winner] = w;
    });
    var order = turnOrder(hand.loser, hand.wins.map(function (w) { return w.winner; }), rules.players);
    for (var i = 0; i < order.length; i++) {
      var seat = order[i], win = bySeat[seat];
      var pay = payment(win, seat === t.dealer, rules);
      if (!pay) return null;
      var ron = pay.ron;
      // EMA 2025 3.4.4: on a multiple ron the discarder pays the counters to every winner.
      var honba = i === 0 || rules.multi_ron_honba === "each" ? rules.honba_ron * t.honba : 0;
      deltas[seat] += ron + honba;
      if (win.pao !== undefined && win.pao !== null && win.pao !== hand.loser) {
        // EMA 2025 3.3.7: liable player and discarder share the value equally.
        var half = Math.floor(ron / 2);
        var liableHonba = rules.pao_ron_honba === "liable" ? honba : 0;
        deltas[win.pao] -= half + liableHonba;
        deltas[hand.loser] -= ron - half + honba - liableHonba;
      } else deltas[hand.loser] -= ron + honba;
    }
    paySticks(deltas, hand, t, rules, order);
    var stays = Object.prototype.hasOwnProperty.call(bySeat, t.dealer);
    return { deltas: deltas, sticksAfter: 0, dealerStays: stays, counter: stays ? "add" : "reset" };
  }

  function settleTsumo(hand, t, rules, deltas) {
    var win = hand.wins[0], seat = win.winner;
    var pay = payment(win, seat === t.dealer, rules);
    if (!pay) return null;
    for (var payer = 0; payer < rules.players; payer++) {
      if (payer === seat) continue;
      var share = (payer === t.dealer ? pay.fromDealer : pay.fromOther) + rules.honba_tsumo * t.honba;
      // EMA 2025 3.3.7: on a tsumo the liable player alone pays everything.
      deltas[win.pao !== undefined && win.pao !== null ? win.pao : payer] -= share;
      deltas[seat] += share;
    }
    paySticks(deltas, hand, t, rules, [seat]);
    var stays = seat === t.dealer;
    return { deltas: deltas, sticksAfter: 0, dealerStays: stays, counter: stays ? "add" : "reset" };
  }

  function dealerStaysOnDraw(hand, t, rules) {
    if (rules.dealer_stays_on_draw === "always") return true;
    if (rules.dealer_stays_on_draw === "never") return false;
    return has(hand.tenpai, t.dealer); // EMA 2025 3.4.5
  }

  function settleDraw(hand, t, rules, deltas) {
    var tenpai = (hand.tenpai || []).filter(function (s, i, all) {
      return all.indexOf(s) === i;
    });
    if (tenpai.length > 0 && tenpai.length < rules.players) {
      // EMA 2025 3.4.2: the noten players pay the pool, shared by the tenpai players.
      var noten = rules.players - tenpai.length;
      for (var seat = 0; seat < rules.players; seat++) {
        if (has(tenpai, seat)) deltas[seat] += Math.floor(rules.noten_total / tenpai.length);
        else deltas[seat] -= Math.floor(rules.noten_total / noten);
      }
    }
    // EMA 2025 3.4.2: riichi bets stay on the table after a draw.
    return { deltas: deltas, sticksAfter: t.sticks + (hand.riichi || []).length, dealerStays: dealerStaysOnDraw(hand, t, rules), counter: "add" };
  }

  function settleNagashi(hand, t, rules, deltas) {
    // WDMC 2019 4.1.6.2: a tsumo mangan from every other seat (a yakuman with 3 players).
    var three = rules.players === 3;
    for (var i = 0; i < hand.nagashi.length; i++) {
      var seat = hand.nagashi[i];
      var pay = payment(three ? { yakuman: 1 } : { han: 5 }, seat === t.dealer, rules);
      for (var payer = 0; payer < rules.players; payer++) {
        if (has(hand.nagashi, payer)) continue;
        var share = payer === t.dealer ? pay.fromDealer : pay.fromOther;
        deltas[payer] -= share;
        deltas[seat] += share;
      }
    }
    return { deltas: deltas, sticksAfter: t.sticks + (hand.riichi || []).length, dealerStays: dealerStaysOnDraw(hand, t, rules), counter: "add" };
  }

  function settleChombo(hand, t, rules, deltas) {
    // EMA 2025 3.4.6: a re-deal; this hand's riichi bets are returned.
    (hand.riichi || []).forEach(function (seat) {
      deltas[seat] += rules.riichi_stick;
    });
    if (rules.chombo.mode === "penalty") {
      return { deltas: deltas, sticksAfter: t.sticks, dealerStays: true, counter: "keep", penalty: [hand.offender, rules.chombo.points] };
    }
    for (var seat = 0; seat < rules.players; seat++) {
      if (seat === hand.offender) continue;
      // WDMC 2019 3.10: 4,000 to or from the dealer, 2,000 between non-dealers.
      var share = hand.offender === t.dealer || seat === t.dealer ? 4000 : 2000;
      deltas[seat] += share;
      deltas[hand.offender] -= share;
    }
    return { deltas: deltas, sticksAfter: t.sticks, dealerStays: true, counter: "keep" };
  }

  function settle(hand, t, rules) {
    var deltas = zeros(rules.players);
    (hand.riichi || []).forEach(function (seat) {
      deltas[seat] -= rules.riichi_stick; // EMA 2025 3.3.10 step 3: the bet
    });
    if (hand.outcome === "ron") return settleRon(hand, t, rules, deltas);
    if (hand.outcome === "tsumo") return settleTsumo(hand, t, rules, deltas);
    if (hand.outcome === "draw") return settleDraw(hand, t, rules, deltas);
    if (hand.outcome === "nagashi") return settleNagashi(hand, t, rules, deltas);
    if (hand.outcome === "abortive") {
      var counter = rules.abortive_draws === "counter" ? "add" : "keep"; // WDMC 2019 3.8
      return { deltas: deltas, sticksAfter: t.sticks + (hand.riichi || []).length, dealerStays: true, counter: counter };
    }
    return settleChombo(hand, t, rules, deltas);
  }

  // ---------------------------------------------------------------- flow.py
  function label(state) {
    return WINDS.charAt(state.wind) + (state.kyoku + 1);
  }

  // The round that ends the game: south (EMA 2025 3.5), east in an east-only game
  // (`east_only`, scoring/engine/README.md); the one after it is the extra round `west_round`
  // plays (west; south when east-only).
  function lastRound(rules) {
    return rules.east_only ? EAST : SOUTH;
  }

  function allLast(state, rules) {
    var last = lastRound(rules);
    return state.kyoku === rules.players - 1 && (state.wind === last || state.wind === last + 1);
  }

  function dealerTop(dealer, scores, rules) {
    var others = -Infinity;
    scores.forEach(function (s, seat) {
      if (seat !== dealer && s > others) others = s;
    });
    if (scores[dealer] <= others) return false;
    return !rules.west_round || scores[dealer] >= rules.return_points;
  }

  function max(list) {
    return Math.max.apply(null, list);
  }

  function advance(state, settled, scores, rules, moreHands, hand) {
    var honba = { add: state.honba + 1, reset: 0, keep: state.honba }[settled.counter];
    var nxt;
    if (settled.dealerStays) nxt = { wind: state.wind, kyoku: state.kyoku, honba: honba, sticks: settled.sticksAfter };
    else {
      var kyoku = state.kyoku + 1, wind = state.wind;
      if (kyoku === rules.players) {
        kyoku = 0; // EMA 2025 3.5: every seat has dealt, next round
        wind += 1;
      }
      nxt = { wind: wind, kyoku: kyoku, honba: honba, sticks: settled.sticksAfter };
    }
    if (rules.bust && Math.min.apply(null, scores) < 0) return [nxt, "bust"]; // WDMC 2019 3.0
    if (settled.dealerStays && allLast(state, rules) && rules.agari_yame !== "none" && dealerTop(state.kyoku, scores, rules) && (rules.agari_yame === "auto" || !moreHands)) {
      return [nxt, "dealer_top"]; // WDMC 2019 3.7.2
    }
    var last = lastRound(rules);
    var extra = last + 1; // the west round (the south round in an east-only game)
    var suddenDeath = rules.west_sudden_death === "wdmc";
    var nonDealerWon = (hand.outcome === "ron" || hand.outcome === "tsumo") && (hand.wins || []).some(function (w) { return w.winner !== state.kyoku; });
    if (suddenDeath && state.wind === extra && nonDealerWon) return [nxt, ROUND_NAMES[extra]]; // WDMC 2019 3.7.1
    if (rules.west_round && state.wind === extra && max(scores) >= rules.return_points && (!settled.dealerStays || dealerTop(state.kyoku, scores, rules))) {
      return [nxt, ROUND_NAMES[extra]]; // "west" ("south" when east-only)
    }
    // EMA 2025 3.5: the game ends after the south round (the east round when east-only;
    // WDMC 2019 3.7.1: unless the all-last hand was a draw with the dealer noten).
    var west = rules.west_round && max(scores) < rules.return_points;
    if (suddenDeath && (hand.outcome === "draw" || hand.outcome === "nagashi") && !has(hand.tenpai, state.kyoku)) west = true;
    if (nxt.wind === extra && state.wind === last && !west) return [nxt, ROUND_NAMES[last] + rules.players];
    if (nxt.wind > extra) return [nxt, ROUND_NAMES[extra] + rules.players];
    return [nxt, null];
  }

  /* Replay `hands` from `from` ({wind, kyoku, honba, sticks, scores, signal, count}: the table
   * before them, `count` hands played, `signal` the 0-based hand marked with the EMA 2025 7.4
   * time signal or null; omitted: the start of a game). Returns {hands: [{round, honba,
   * riichi_sticks, dealer, deltas, scores}], next, ended_by, state, scores} as the engine's
   * replay; {error: index} at the first hand the table cannot pay (the server decides). */
  function replay(rules, hands, from) {
    from = from || {};
    var state = { wind: from.wind || 0, kyoku: from.kyoku || 0, honba: from.honba || 0, sticks: from.sticks || 0 };
    var scores = (from.scores || []).slice();
    if (!scores.length) for (var s = 0; s < rules.players; s++) scores.push(rules.start_points);
    var signal = from.signal === undefined ? null : from.signal;
    var count = from.count || 0;
    var endedBy = from.ended_by || null;
    var out = [];
    for (var i = 0; i < hands.length; i++) {
      var hand = hands[i], index = count + i;
      if (endedBy !== null) return { error: i, over: true, hands: out, ended_by: endedBy };
      if (hand.time_signal && rules.time_limit === "ema") signal = index;
      var t = { dealer: state.kyoku, honba: state.honba, sticks: state.sticks };
      var settled = settle(hand, t, rules);
      if (!settled) return { error: i, hands: out };
      scores = scores.map(function (score, seat) {
        return score + settled.deltas[seat];
      });
      out.push({ round: label(state), honba: state.honba, riichi_sticks: state.sticks, dealer: state.kyoku, deltas: settled.deltas.slice(), scores: scores.slice(), penalty: settled.penalty || null });
      var step = advance(state, settled, scores, rules, i + 1 < hands.length, hand);
      state = step[0];
      endedBy = step[1];
      // EMA 2025 7.4: the signal hand and one more (a chombo counts) have been played.
      if (endedBy === null && rules.time_limit === "ema" && signal !== null && index >= signal + 1) endedBy = "time";
    }
    var next = { round: label(state), honba: state.honba, riichi_sticks: state.sticks, dealer: state.kyoku };
    return { hands: out, next: endedBy === null ? next : null, ended_by: endedBy, state: state, after: next, scores: scores, signal: signal };
  }

  global.HanchanScore = { payment: payment, settle: settle, replay: replay, WINDS: WINDS };
})(typeof self !== "undefined" ? self : this);
