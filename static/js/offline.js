/* Hanchan: the referee's entry page keeps working when the hall's Wi-Fi drops (issue 21).
 *
 * - registers the service worker (scoring/offline.py) that keeps the referee's pages;
 * - online with nothing waiting, Confirm posts the form as always (the server renders errors,
 *   conflicts and "Hand saved.");
 * - offline, or while hands of this game wait, Confirm keeps the hand in IndexedDB with a fresh
 *   Idempotency-Key and the game version it was entered against, and shows it as waiting;
 * - when the connection returns the waiting hands are sent in order to the API
 *   (POST /api/v1/games/<id>/hands/ with Idempotency-Key): a lost answer is retried with the
 *   same key, so the server applies each hand exactly once (club.idempotency);
 * - a 409 (another referee wrote meanwhile) or a refusal (game finalized or locked) stops the
 *   queue and shows both sides: the server's hands and the phone's, and the referee chooses.
 *
 * Issue 33: the phone keeps score. Queued hands are applied to the scoreboard and the hand
 * list (marked "waiting") with scoreboard.js and the generated payment table (paytable.js,
 * from the engine's points.py), and the payment preview after every tap comes from the same
 * table, without a round trip (the server still checks every hand; typed tiles and hands the
 * table cannot pay ask the server). The server's answer replaces the phone's figures.
 * Plain JavaScript, no framework; every text comes translated from the page (offline-config).
 */
(function () {
  "use strict";

  var configNode = document.getElementById("offline-config");
  var config = configNode ? JSON.parse(configNode.textContent) : null;
  if (!config) return;
  var T = config.strings;
  var Q = self.HanchanQueue;

  function fmt(text, args) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(args, key) ? String(args[key]) : all;
    });
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(child);
    });
    return node;
  }

  // ---------------------------------------------------------------- the service worker
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(config.sw, { scope: config.scope }).catch(function () {});
    if (config.warm && config.warm.length) {
      navigator.serviceWorker.ready.then(function (registration) {
        if (registration.active) registration.active.postMessage({ type: "warm", urls: config.warm });
      });
    }
    // The worker sent the queue in the background (Background Sync): show the new table.
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type !== "sent") return;
      counted(data);
      render().then(afterFlush);
    });
    // Logging out forgets the referee pages kept on the phone.
    document.querySelectorAll("form[action$='/logout/']").forEach(function (form) {
      form.addEventListener("submit", function () {
        var worker = navigator.serviceWorker.controller;
        if (worker) worker.postMessage({ type: "forget" });
        Q.clearMeta().catch(function () {});
      });
    });
  }

  // ---------------------------------------------------------------- the queue (offline-queue.js)
  function allItems() {
    return Q.items(config.user);
  }
  var putItem = Q.put;
  var gameItems = Q.gameItems;
  function deleteItems(ids) {
    return Q.remove(ids);
  }

  // ---------------------------------------------------------------- hands as the server writes them
  function name(players, seat) {
    return typeof seat === "number" && seat >= 0 && seat < players.length ? players[seat] : "?";
  }

  function winText(win, players) {
    var value;
    if (win.yakuman) value = win.yakuman === 1 ? T.yakuman : T.double_yakuman;
    else if (win.fu) value = fmt(T.han_fu, { han: win.han, fu: win.fu });
    else value = fmt(T.han, { han: win.han });
    return name(players, win.winner) + " " + value;
  }

  // The same line as scoring.views.describe_hand, from the same translated texts.
  function describe(hand, players) {
    var seats = function (list) {
      return (list || [])
        .map(function (s) {
          return name(players, s);
        })
        .join(", ");
    };
    var text;
    if (hand.outcome === "ron") {
      text = fmt(T.ron, {
        wins: (hand.wins || [])
          .map(function (w) {
            return winText(w, players);
          })
          .join(", "),
        loser: name(players, hand.loser),
      });
    } else if (hand.outcome === "tsumo") text = fmt(T.tsumo, { win: winText((hand.wins || [{}])[0], players) });
    else if (hand.outcome === "draw") text = fmt(T.draw, { who: seats(hand.tenpai) || T.nobody });
    else if (hand.outcome === "nagashi") text = fmt(T.nagashi, { who: seats(hand.nagashi) });
    else if (hand.outcome === "chombo") text = fmt(T.chombo, { who: name(players, hand.offender) });
    else text = T.abortive;
    return hand.time_signal ? text + " · " + T.time_signal : text;
  }

  // The form's fields as {name: [values]} (checked chips, chosen options, typed tiles).
  function fieldsOf(form) {
    var fields = {};
    new FormData(form).forEach(function (value, key) {
      (fields[key] = fields[key] || []).push(String(value));
    });
    return fields;
  }

  // The form's taps as one game-record hand, as scoring.forms.HandEntryForm.clean builds it
  // (the server checks it again when it arrives; this only keeps incomplete hands off the queue).
  function handFromFields(fields) {
    var errors = [];
    var one = function (field) {
      return (fields[field] || [""])[0];
    };
    var seatsOf = function (field) {
      return (fields[field] || [])
        .filter(function (v) {
          return v !== "";
        })
        .map(Number)
        .sort(function (a, b) {
          return a - b;
        });
    };
    var outcome = one("outcome");
    if (!outcome) return { errors: [T.what_happened + " " + T.required] };
    var hand = { outcome: outcome, riichi: seatsOf("riichi") };
    var winners = seatsOf("winners");
    var tiles = one("tiles").trim();
    if (outcome === "ron" || outcome === "tsumo") {
      if (!winners.length) return { errors: [T.choose_winner] };
      if (outcome === "tsumo" && winners.length > 1) return { errors: [T.tsumo_one] };
      if (outcome === "ron") {
        var loser = one("loser");
        if (loser === "") return { errors: [T.choose_loser] };
        if (winners.indexOf(Number(loser)) >= 0) return { errors: [T.loser_wins] };
        hand.loser = Number(loser);
      }
      hand.wins = [];
      winners.forEach(function (seat) {
        var win = { winner: seat };
        var yakuman = one("yakuman_" + seat);
        var han = one("han_" + seat);
        var fu = one("fu_" + seat);
        if (yakuman) win.yakuman = Number(yakuman);
        else if (han) {
          win.han = Number(han);
          if (fu) win.fu = Number(fu);
          else if (Number(han) < 5) errors.push(T.choose_fu);
        } else errors.push(T.choose_han);
        var pao = one("pao_" + seat);
        if (pao) {
          if (Number(pao) === seat) errors.push(T.pao_self);
          win.pao = Number(pao);
        }
        hand.wins.push(win);
      });
      if (errors.length) return { errors: errors };
    } else if (outcome === "draw" || outcome === "nagashi") {
      hand.tenpai = seatsOf("tenpai");
      if (outcome === "nagashi") {
        hand.nagashi = seatsOf("nagashi");
        if (!hand.nagashi.length) return { errors: [T.choose_nagashi] };
      }
    } else if (outcome === "chombo") {
      var offender = one("offender");
      if (offender === "") return { errors: [T.choose_offender] };
      hand.offender = Number(offender);
    }
    if (tiles && (["ron", "tsumo"].indexOf(outcome) < 0 || winners.length !== 1)) {
      return { errors: [T.tiles_single] };
    }
    if (one("time_signal")) hand.time_signal = true; // EMA 2025 7.4
    return { hand: hand, tiles: tiles, errors: [] };
  }

  // ---------------------------------------------------------------- sending
  var csrfToken = null;
  function csrf() {
    if (csrfToken) return csrfToken;
    var input = document.querySelector("input[name='csrfmiddlewaretoken']");
    return input ? input.value : "";
  }

  var flushing = false;
  var retryTimer = null;
  var retryDelay = 1000;
  var sentThisRun = 0;
  var lastVersion = {};

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = setTimeout(function () {
      retryTimer = null;
      flush();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30000);
  }

  function counted(result) {
    sentThisRun += result.sent || 0;
    Object.keys(result.lastVersion || {}).forEach(function (game) {
      lastVersion[game] = result.lastVersion[game];
    });
  }

  // Send every game's waiting hands, oldest first; a game stops at its first conflict.
  function flush() {
    if (flushing || !navigator.onLine) return Promise.resolve();
    flushing = true;
    render();
    var queue = Q.sender({
      user: config.user,
      hands_api: config.hands_api,
      entry: config.entry,
      csrf: csrf(),
      onCsrf: function (token) {
        csrfToken = token;
        remember();
      },
    });
    return queue
      .flush()
      .then(function (result) {
        counted(result);
        if (result.error) scheduleRetry(); // offline again, or the server is away
        else retryDelay = 1000;
        flushing = false;
        return render();
      })
      .then(afterFlush);
  }

  // What the service worker needs to send the queue with the page closed (Background Sync).
  function remember() {
    return Q.setMeta({
      user: config.user,
      hands_api: config.hands_api,
      entry: config.entry,
      csrf: csrf(),
    }).catch(function () {});
  }

  function askForSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready
      .then(function (registration) {
        if (registration.sync) return registration.sync.register(Q.SYNC_TAG);
      })
      .catch(function () {});
  }

  // A form the service worker kept when its POST failed (sw.js): make it a waiting hand.
  function claimKept() {
    if (here === null) return Promise.resolve();
    return Q.everything().then(function (everything) {
      var kept = everything.filter(function (item) {
        return item.raw && item.game === here;
      });
      if (!kept.length) return;
      var chain = Promise.resolve();
      kept.forEach(function (item) {
        chain = chain.then(function () {
          return allItems().then(function (items) {
            var mine = gameItems(items, here).filter(function (i) {
              return !i.raw;
            });
            var last = mine[mine.length - 1];
            var parsed = handFromFields(item.raw);
            var version = Number((item.raw.expected_version || [config.version])[0]);
            item.user = config.user;
            item.version = last ? last.version + 1 : version;
            item.baseHands = last ? last.baseHands : config.hands;
            item.hand = parsed.hand || {};
            item.tiles = parsed.tiles || "";
            item.summary = parsed.hand ? describe(parsed.hand, config.players) : parsed.errors.join(" ");
            item.state = parsed.errors.length ? "refused" : "waiting";
            item.message = parsed.errors.join(" ");
            item.attempts = 0;
            delete item.raw;
            return putItem(item);
          });
        });
      });
      return chain.then(function () {
        flash(T.queued);
      });
    });
  }

  // ---------------------------------------------------------------- the page
  var form = document.getElementById("hand-form");
  var status = document.getElementById("net-status");
  var panel = document.getElementById("offline-queue");
  var listNode = document.getElementById("offline-queue-list");
  var conflictNode = document.getElementById("offline-conflict");
  var noteNode = document.getElementById("offline-queue-note");
  var countNode = document.getElementById("offline-queue-count");
  var flashNode = document.getElementById("offline-flash");
  var details = document.getElementById("offline-queue-details");
  var preview = document.getElementById("preview");
  var here = config.page === "entry" ? config.game : null;
  var waitingHere = 0;

  function flash(text) {
    if (!flashNode) return;
    flashNode.textContent = text;
    flashNode.hidden = !text;
  }

  function setStatus(state, text, queued) {
    if (!status) return;
    status.dataset.state = state;
    status.dataset.queued = String(queued);
    status.querySelector(".text").textContent = text;
    var count = status.querySelector(".count");
    var full = fmt(T.waiting_count, { count: queued });
    count.hidden = !queued;
    count.textContent = "";
    count.title = full;
    count.appendChild(el("span", { class: "sr-only", text: full }));
    count.appendChild(el("span", { "aria-hidden": "true", text: String(queued) }));
  }

  function render() {
    return allItems()
      .then(function (items) {
        var mine = here === null ? [] : gameItems(items, here);
        waitingHere = mine.length;
        var blocked = items.some(function (item) {
          return item.state !== "waiting";
        });
        var state;
        if (blocked) state = "conflict";
        else if (!navigator.onLine) state = "offline";
        else if (items.length) state = flushing ? "sending" : "queued";
        else state = "online";
        var text = {
          conflict: T.conflict_short,
          offline: T.offline,
          sending: T.sending,
          queued: T.online,
          online: T.online,
        }[state];
        setStatus(state, text, items.length);
        if (panel) renderQueue(mine, items.length - mine.length);
        return items;
      })
      .catch(function () {});
  }

  function renderQueue(mine, elsewhere) {
    keepScore(mine);
    panel.hidden = mine.length === 0 && elsewhere === 0;
    countNode.textContent = String(mine.length);
    listNode.textContent = "";
    mine.forEach(function (item) {
      var badge = T["badge_" + item.state] || T.badge_waiting;
      listNode.appendChild(
        el("li", { "data-state": item.state }, [
          el("span", { class: "grow", text: item.summary }),
          el("span", { class: "badge warn", text: badge }),
        ]),
      );
    });
    noteNode.textContent = (mine.length ? (canScore ? T.queue_counted : T.queue_note) : "") + (elsewhere ? " " + fmt(T.other_tables, { count: elsewhere }) : "");
    var stuck = mine.filter(function (item) {
      return item.state !== "waiting";
    })[0];
    if (stuck) details.open = true;
    renderConflict(stuck, mine);
  }

  function button(text, cls, id, handler) {
    var node = el("button", { type: "button", class: cls, id: id, text: text });
    node.addEventListener("click", handler);
    return node;
  }

  // Both sides of a conflict: the server's hands since the phone's last look, and the phone's.
  function renderConflict(stuck, mine) {
    conflictNode.textContent = "";
    conflictNode.hidden = !stuck;
    if (!stuck) return;
    conflictNode.dataset.kind = stuck.state;
    var title = {
      conflict: T.conflict_title,
      finalized: T.finalized_title,
      refused: T.refused_title,
      auth: T.auth_title,
    }[stuck.state];
    conflictNode.appendChild(el("p", {}, [el("strong", { text: title })]));
    if (stuck.message && (stuck.state === "refused" || stuck.state === "finalized")) conflictNode.appendChild(el("p", { class: "small", id: "offline-conflict-message", text: stuck.message }));
    var current = stuck.current;
    if (current && stuck.state !== "auth") {
      var players = (current.seats || [])
        .slice()
        .sort(function (a, b) {
          return a.seat - b.seat;
        })
        .map(function (s) {
          return s.player && s.player.name ? s.player.name.replace(/\s*\[[^\]]*\]$/, "") : "?";
        });
      if (!players.length) players = config.players;
      var theirs = (current.hands || []).slice(stuck.baseHands || 0);
      var serverList = el(
        "ol",
        { class: "small", id: "offline-server-hands" },
        theirs.map(function (h) {
          return el("li", { text: describe(h.data || {}, players) });
        }),
      );
      var summaryHands = (current.summary && current.summary.hands) || [];
      var scores = summaryHands.length ? summaryHands[summaryHands.length - 1].scores : null;
      var server = el("div", { class: "side" }, [
        el("h3", { text: T.server_side }),
        theirs.length ? serverList : el("p", { class: "small muted", text: T.no_new_hands }),
        scores ? el("p", { class: "small", text: fmt(T.scores, { scores: scores.join(" / ") }) }) : null,
      ]);
      var yours = el("div", { class: "side" }, [
        el("h3", { text: T.yours }),
        el(
          "ol",
          { class: "small", id: "offline-your-hands" },
          mine.map(function (item) {
            return el("li", { text: item.summary });
          }),
        ),
      ]);
      if (stuck.state === "conflict") conflictNode.appendChild(el("p", { class: "small", text: T.conflict_help }));
      conflictNode.appendChild(el("div", { class: "sides" }, [server, yours]));
    }
    var actions = el("div", { class: "actions" });
    if (stuck.state === "conflict" && current && current.status !== "finished") {
      actions.appendChild(button(T.send_mine, "", "offline-send-mine", function () { sendMineAfter(mine, current); }));
    }
    if (stuck.state === "refused") {
      actions.appendChild(button(T.discard_one, "secondary", "offline-discard-one", function () { discardOne(stuck, mine); }));
      actions.appendChild(button(T.retry, "secondary", "offline-retry", function () { retry(mine); }));
    }
    if (stuck.state === "auth") {
      var next = encodeURIComponent(location.pathname);
      actions.appendChild(el("a", { class: "button", href: config.login + "?next=" + next, text: T.login }));
      actions.appendChild(button(T.retry, "secondary", "offline-retry", function () { retry(mine); }));
    }
    actions.appendChild(button(T.discard_mine, "danger", "offline-discard-mine", function () { discardAll(mine); }));
    conflictNode.appendChild(actions);
  }

  // The referee keeps the server's hands and sends theirs after them: a new version, so new
  // keys (the old ones were refused, nothing was stored under them).
  function sendMineAfter(mine, current) {
    var updates = mine.map(function (item, index) {
      item.version = current.version + index;
      item.baseHands = (current.hands || []).length;
      item.key = Q.uuid();
      item.state = "waiting";
      item.message = "";
      item.current = null;
      return putItem(item);
    });
    return Promise.all(updates).then(render).then(flush);
  }

  function discardAll(mine) {
    return deleteItems(
      mine.map(function (item) {
        return item.id;
      }),
    ).then(function () {
      location.reload();
    });
  }

  // Drop the refused hand; the later ones go one version lower (it never got in).
  function discardOne(stuck, mine) {
    var rest = mine.filter(function (item) {
      return item.id !== stuck.id;
    });
    rest.forEach(function (item, index) {
      item.version = stuck.version + index;
      item.state = "waiting";
      item.key = Q.uuid();
    });
    return deleteItems([stuck.id])
      .then(function () {
        return Promise.all(rest.map(putItem));
      })
      .then(function () {
        if (!rest.length) location.reload();
        else return render().then(flush);
      });
  }

  function retry(mine) {
    return Promise.all(
      mine.map(function (item) {
        item.state = "waiting";
        return putItem(item);
      }),
    )
      .then(render)
      .then(flush);
  }

  // ---------------------------------------------------------------- the phone keeps score (issue 33)
  var S = self.HanchanScore;
  var canScore = !!(S && self.HanchanPayTable && config.rules && config.table && here !== null);
  var currentMine = [];
  var boardShowsPhone = false;
  var WINDS = "ESWN";

  function handsOf(mine) {
    return mine
      .filter(function (item) {
        return item.hand && item.hand.outcome;
      })
      .map(function (item) {
        return item.hand;
      });
  }

  // The table after the server's hands and the phone's waiting ones.
  function phoneTable(mine) {
    return S.replay(config.rules, handsOf(mine), config.table);
  }

  function countText(list, n) {
    return list[n] !== undefined ? list[n] : list[list.length - 1].replace(String(list.length - 1), String(n));
  }

  function showBoard(after, scores, endedBy) {
    var board = document.getElementById("scoreboard");
    if (!board) return;
    var round = board.querySelector(".round");
    round.textContent = after.round;
    if (endedBy) {
      round.appendChild(document.createTextNode(" · "));
      round.appendChild(el("span", { class: "badge", text: endedBy === "time" ? T.game_over_time : T.game_over }));
    }
    board.querySelector(".honba").textContent = countText(T.honba_n, after.honba);
    board.querySelector(".riichi-sticks").textContent = countText(T.sticks_n, after.riichi_sticks);
    var n = config.players.length;
    board.querySelectorAll(".seat[data-seat]").forEach(function (node) {
      var seat = Number(node.dataset.seat);
      node.classList.toggle("dealer", seat === after.dealer);
      node.querySelector(".wind").textContent = WINDS.charAt((seat - after.dealer + n) % n);
      node.querySelector(".score").textContent = String(scores[seat]);
    });
  }

  function showWaitingRows(result, mine) {
    var table = document.getElementById("hands");
    if (!table) return;
    var body = table.tBodies[0];
    body.querySelectorAll("tr.phone-row").forEach(function (row) {
      row.remove();
    });
    mine.forEach(function (item, i) {
      var out = result.hands[i];
      var cells = [
        el("td", { class: "r", text: out ? out.round + (out.honba ? "-" + out.honba : "") : "?" }),
        el("td", {}, [document.createTextNode(item.summary + " "), el("span", { class: "badge warn", text: T["badge_" + item.state] || T.badge_waiting })]),
      ];
      config.players.forEach(function (name, seat) {
        cells.push(el("td", { class: "num", text: out ? String(out.scores[seat]) : "?" }));
      });
      cells.push(el("td", {}));
      body.insertBefore(el("tr", { class: "phone-row", "data-state": item.state }, cells), body.firstChild);
    });
    var wrap = document.getElementById("hands-wrap");
    if (wrap) wrap.hidden = body.rows.length === 0;
    var none = document.getElementById("no-hands");
    if (none) none.hidden = body.rows.length > 0;
  }

  function keepScore(mine) {
    currentMine = mine;
    if (!canScore) return;
    if (!mine.length) {
      // Everything was sent: the server's table replaces the phone's.
      if (boardShowsPhone) refreshFromServer();
      return;
    }
    var result = phoneTable(mine);
    var last = result.hands.length ? result.hands[result.hands.length - 1] : null;
    // Once a hand ends the game the board stands as at that hand's start, as the server's does
    // (scoring.selectors.table_state): "E4 · game over", not the round that would come next.
    var atLast = last ? { round: last.round, honba: last.honba, riichi_sticks: last.riichi_sticks, dealer: last.dealer } : null;
    var after = result.ended_by && atLast ? atLast : result.after || atLast;
    if (after) showBoard(after, result.scores || last.scores, result.ended_by);
    showWaitingRows(result, mine);
    boardShowsPhone = true;
  }

  // The entry page as the server has it now, swapped in part (scoreboard, hands, versions,
  // messages), keeping what the referee is typing.
  function swapFrom(doc) {
    var after = document.getElementById("hand-list");
    ["scoreboard", "hand-list", "chombos", "game-actions", "unconfirmed"].forEach(function (id) {
      var mineNode = document.getElementById(id), theirs = doc.getElementById(id);
      if (mineNode && theirs) mineNode.innerHTML = theirs.innerHTML;
      else if (mineNode) mineNode.remove();
      else if (theirs && after) after.parentNode.insertBefore(document.importNode(theirs, true), after.nextSibling);
      if (theirs && id !== "scoreboard" && id !== "unconfirmed") after = document.getElementById(id) || after;
    });
    var fresh = doc.getElementById("offline-config");
    if (fresh) {
      var next = JSON.parse(fresh.textContent);
      ["version", "hands", "table", "players"].forEach(function (key) {
        config[key] = next[key];
      });
    }
    document.querySelectorAll("input[name='expected_version']").forEach(function (input) {
      input.value = String(config.version);
    });
    boardShowsPhone = false;
  }

  function refreshFromServer() {
    return fetch(location.pathname, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        swapFrom(new DOMParser().parseFromString(html, "text/html"));
      })
      .catch(function () {});
  }

  function clearPreview() {
    previewedHere = false;
    if (preview) preview.textContent = "";
    var line = document.getElementById("preview-line");
    if (line) line.textContent = "";
  }

  function trunc(name) {
    return name.length > 12 ? name.slice(0, 11) + "…" : name; // Django's truncatechars:12
  }

  function signed(delta) {
    return (delta > 0 ? "+" : "") + delta;
  }

  // The payment preview on the phone: what _preview.html shows, from the local table. False
  // where the server must answer (typed tiles, a hand the table cannot pay).
  var previewedHere = false;
  function localPreview() {
    previewedHere = false;
    if (!canScore || !form || !preview) return false;
    if (formIsPristine()) return true; // nothing tapped yet: nothing to preview
    var parsed = handFromFields(fieldsOf(form));
    var line = document.getElementById("preview-line");
    if (parsed.tiles) return false;
    preview.textContent = "";
    if (parsed.errors.length) {
      var list = el("ul", { class: "errorlist" }, parsed.errors.map(function (e) { return el("li", { text: e }); }));
      preview.appendChild(el("div", { class: "alert", role: "alert" }, [document.createTextNode(T.not_complete + " "), list]));
      if (line) {
        line.textContent = "";
        line.appendChild(el("span", { class: "neg", text: T.not_complete_line }));
      }
      previewedHere = true;
      return true;
    }
    var base = phoneTable(currentMine);
    if (base.error !== undefined || base.next === null) return false;
    var from = { wind: base.state.wind, kyoku: base.state.kyoku, honba: base.state.honba, sticks: base.state.sticks, scores: base.scores, signal: base.signal, count: config.table.count + handsOf(currentMine).length };
    var result = S.replay(config.rules, [parsed.hand], from);
    if (result.error !== undefined) return false;
    var out = result.hands[0], hand = parsed.hand, players = config.players;
    var rows = players.map(function (name, seat) {
      var delta = out.deltas[seat];
      return el("tr", {}, [
        el("td", { text: name }),
        el("td", { class: "num" + (delta > 0 ? " pos" : delta < 0 ? " neg" : ""), text: signed(delta) }),
        el("td", { class: "num", text: String(out.scores[seat]) }),
      ]);
    });
    preview.appendChild(
      el("table", { id: "preview-table" }, [
        el("thead", {}, [el("tr", {}, [el("th", { text: T.player }), el("th", { class: "num", text: T.change }), el("th", { class: "num", text: T.then })])]),
        el("tbody", {}, rows),
      ]),
    );
    var chombo = null;
    if (hand.outcome === "chombo") {
      // EMA 2025 3.4.6: nothing is paid at the table; the offender loses points after uma.
      var points = config.rules.chombo.mode === "penalty" ? config.rules.chombo.points : null;
      chombo = { name: name(players, hand.offender), points: points };
      var text = points ? fmt(T.chombo_after_uma, chombo) : fmt(T.chombo_at_table, chombo);
      preview.appendChild(el("p", { id: "preview-chombo" }, [el("span", { class: "badge warn", text: T.chombo_badge }), document.createTextNode(" " + text)]));
    }
    var ends = result.next === null;
    var badge = null;
    if (ends) badge = el("span", { class: "badge", text: result.ended_by === "time" ? T.ends_game_time : T.ends_game });
    else if (hand.time_signal && config.rules.time_limit === "ema") badge = el("span", { class: "badge warn", text: T.one_more_hand });
    if (badge) preview.appendChild(el("p", {}, [badge]));
    if (line) {
      line.textContent = "";
      var parts = [];
      if (chombo && chombo.points) parts.push(el("span", { class: "neg", text: fmt(T.chombo_line, { name: trunc(chombo.name), points: chombo.points }) }));
      players.forEach(function (player, seat) {
        var delta = out.deltas[seat];
        if (delta) {
          parts.push(el("span", { class: "pay " + (delta > 0 ? "pos" : "neg") }, [
            el("span", { class: "who", text: trunc(player) }),
            document.createTextNode(" "),
            el("span", { class: "amt", text: signed(delta) }),
          ]));
        }
      });
      if (!parts.length && !(chombo && chombo.points)) line.textContent = T.no_change;
      parts.forEach(function (part, i) {
        if (i) line.appendChild(el("span", { class: "sep", text: "·" }));
        line.appendChild(part);
      });
    }
    previewedHere = true;
    return true;
  }

  function formIsPristine() {
    return !form || !form.querySelector("input[name='outcome']:checked");
  }

  function afterFlush(items) {
    if (!sentThisRun || !items) return;
    var leftHere = here === null ? 0 : gameItems(items, here).length;
    var sent = sentThisRun;
    sentThisRun = 0;
    if (here === null || leftHere) return;
    if (lastVersion[here] === undefined) return;
    if (formIsPristine()) {
      // Show the table as the server now has it.
      try {
        sessionStorage.setItem("hanchan-offline-flash", T.all_sent);
      } catch (e) {
        /* private mode: no message after the reload */
      }
      location.reload();
    } else {
      document.querySelectorAll("input[name='expected_version']").forEach(function (input) {
        input.value = String(lastVersion[here]);
      });
      flash(T.all_sent + " (" + sent + ")");
    }
  }

  function showOfflinePreview() {
    if (!preview || (navigator.onLine && waitingHere === 0)) return;
    if (canScore && formIsPristine()) return; // the phone previews the next tap itself
    if (localPreview()) return;
    preview.textContent = "";
    var text = navigator.onLine ? T.preview_waiting : T.preview_offline;
    preview.appendChild(el("p", { class: "small offline-note", id: "preview-offline", text: text }));
    var line = document.getElementById("preview-line");
    if (line) line.textContent = "";
  }

  if (form) {
    form.addEventListener("submit", function (event) {
      var online = navigator.onLine && waitingHere === 0;
      if (online && (!canScore || !window.fetch || !window.DOMParser)) return; // the usual POST
      event.preventDefault();
      if (confirming) return; // the last Confirm's answer is still on its way
      var parsed = handFromFields(fieldsOf(form));
      if (parsed.errors.length) {
        if (preview) {
          preview.textContent = "";
          var list = el(
            "ul",
            { class: "errorlist" },
            parsed.errors.map(function (e) {
              return el("li", { text: e });
            }),
          );
          preview.appendChild(el("div", { class: "alert", role: "alert", id: "offline-form-errors" }, [document.createTextNode(T.not_complete + " "), list]));
        }
        return;
      }
      // The form is emptied as the hand leaves it, not when the answer comes: taps made while
      // the answer is on its way belong to the next hand and are kept (a late answer emptied
      // them: a riichi tapped right after Confirm was lost).
      var sent = fieldsOf(form);
      form.reset();
      var tiles = form.querySelector("details.tiles");
      if (tiles) tiles.open = false;
      clearPreview();
      // The page goes back to the top now, as the thumb leaves Confirm, not when the answer
      // comes: a scroll then would move the next hand's chips under a tap already pressed.
      window.scrollTo(0, 0);
      // "Enter the final scores from paper" belongs to a game without hands: it goes now too
      // (hidden: the answer removes it), not above the next hand's chips when the answer comes.
      var paper = document.getElementById("paper-link");
      if (paper) paper.hidden = true;
      if (online) confirmOnline(parsed, sent);
      else queueHand(parsed, sent);
    });

    // Issue 33: Confirm is one request and a partial swap (scoreboard, hand list, form,
    // messages) instead of POST, redirect and a whole page load. The server answers the
    // X-Hanchan-Swap request with the entry page itself; anything but a page that still has
    // the hand form (errors, a conflict, the game over) is shown as the server renders it.
    var confirming = false;
    function confirmOnline(parsed, sent) {
      var button = document.getElementById("confirm-hand");
      if (button) button.disabled = true;
      confirming = true;
      // The last hand's "Hand saved." makes way now for "Sending…", which the answer's message
      // replaces in the same place: the form below does not move when the answer comes.
      var said = pendingMessage();
      // The time signal box goes once a hand carries the signal (EMA 2025 7.4): hidden now (a
      // refused hand is posted again with it), removed when the answer comes.
      var signalBox = form.querySelector("fieldset.time-signal");
      if (signalBox && sent.time_signal) signalBox.hidden = true;
      var body = new URLSearchParams();
      Object.keys(sent).forEach(function (key) {
        sent[key].forEach(function (value) {
          body.append(key, value);
        });
      });
      var done = function () {
        confirming = false;
        if (button) button.disabled = false;
      };
      fetch(form.action, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "X-Hanchan-Swap": "1" },
      })
        .then(function (response) {
          return response.text().then(function (html) {
            var doc = new DOMParser().parseFromString(html, "text/html");
            var fresh = doc.getElementById("hand-form");
            if (response.ok && fresh && doc.getElementById("scoreboard")) {
              swapFrom(doc);
              // The time signal box goes once a hand carries the signal (EMA 2025 7.4).
              var box = form.querySelector("fieldset.time-signal");
              if (box && !fresh.querySelector("fieldset.time-signal")) box.remove();
              else if (box) box.hidden = false;
              ["time-signal-note", "paper-link"].forEach(function (id) {
                var node = document.getElementById(id);
                if (node && !doc.getElementById(id)) node.remove();
                else if (node) node.hidden = false;
              });
              var theirs = doc.querySelector("#main > .messages");
              if (theirs) said.replaceWith(document.importNode(theirs, true));
              else said.remove();
              done();
              if (formIsPristine()) {
                clearPreview();
              } else {
                // The next hand, tapped meanwhile: previewed again from the saved table.
                form.dispatchEvent(new Event("change", { bubbles: true }));
              }
              return;
            }
            var theirMain = doc.getElementById("main");
            if (response.ok) {
              // Saved, and the page changed shape (the game is over: "Finalize" instead of
              // the form): the server's page content as it is. Never posted again.
              if (!theirMain) {
                location.reload();
                return;
              }
              swapFrom(doc);
              document.getElementById("main").innerHTML = theirMain.innerHTML;
              window.scrollTo(0, 0);
              return;
            }
            // Refused (a conflict, a locked game, the engine's check): the server's page, as
            // the form's own POST shows it (nothing was saved, so posting again is harmless),
            // with the hand as it was sent.
            fill(sent);
            HTMLFormElement.prototype.submit.call(form);
          });
        })
        .catch(function () {
          // No answer: the phone keeps the hand (if the server did save it, the queue's 409
          // finds it there and takes it as arrived).
          said.remove();
          done();
          queueHand(parsed, sent);
        });
    }

    function pendingMessage() {
      document.querySelectorAll("#main > .messages").forEach(function (node) {
        node.remove();
      });
      var main = document.getElementById("main");
      var node = el("ul", { class: "messages", id: "confirm-message" }, [el("li", { class: "info", text: T.sending })]);
      main.insertBefore(node, main.firstChild);
      return node;
    }

    // The form's fields as fieldsOf() read them.
    function fill(fields) {
      Array.prototype.forEach.call(form.elements, function (input) {
        if (!input.name || input.name === "csrfmiddlewaretoken") return;
        var values = fields[input.name] || [];
        if (input.type === "checkbox" || input.type === "radio") input.checked = values.indexOf(input.value) >= 0;
        else if (input.type !== "hidden" && input.type !== "submit" && input.type !== "button") input.value = values[0] || "";
      });
    }

    // `sent`: the form's fields as Confirm took them (the form is empty again, or holds the
    // next hand's taps).
    function queueHand(parsed, sent) {
      // The note and the waiting list above the form show now, with the tap on Confirm, not
      // when IndexedDB answers: the form below does not move under the next hand's taps.
      flash(T.queued);
      if (panel) panel.hidden = false;
      allItems()
        .then(function (items) {
          var mine = gameItems(items, config.game);
          var last = mine[mine.length - 1];
          var versionInput = form.querySelector("input[name='expected_version']");
          var version = last ? last.version + 1 : Number(versionInput ? versionInput.value : config.version);
          return putItem({
            game: config.game,
            user: config.user,
            key: Q.uuid(),
            version: version,
            baseHands: last ? last.baseHands : config.hands,
            hand: parsed.hand,
            tiles: parsed.tiles,
            summary: describe(parsed.hand, config.players),
            enteredAt: new Date().toISOString(),
            attempts: 0,
            state: "waiting",
          });
        })
        .then(
          function () {
            flash(T.queued);
            if (formIsPristine()) {
              if (canScore) clearPreview();
              else showOfflinePreview();
            }
            return render().then(function (items) {
              // The next hand, tapped meanwhile: previewed after the hand just kept.
              if (!formIsPristine()) showOfflinePreview();
              return items;
            });
          },
          function (error) {
            // Not kept on the phone: the hand goes back into the form, unless the next one
            // is being tapped already.
            flash("");
            render();
            if (formIsPristine()) fill(sent);
            throw error;
          },
        )
        .then(function () {
          askForSync();
          if (navigator.onLine) flush();
        });
    }
    // Offline, the preview request cannot reach the server: say when it comes back. With hands
    // waiting, the server's preview would start from the table without them: not asked.
    document.body.addEventListener("htmx:sendError", showOfflinePreview);
    // Every tap previews on the phone at once; htmx asks the server only when the phone
    // cannot answer (typed tiles, a hand the table cannot pay).
    form.addEventListener("change", localPreview);
    form.addEventListener("input", function (event) {
      if (event.target && event.target.name === "tiles") localPreview();
    });
    form.addEventListener("htmx:beforeRequest", function (event) {
      // A preview still delayed (hx-trigger delay) when a fast Confirm swap emptied the form
      // would only say "Not complete yet" about the hand just saved: nothing to ask.
      if ((previewedHere || formIsPristine()) && event.detail && event.detail.elt === form) {
        event.preventDefault();
        return;
      }
      if (navigator.onLine && waitingHere === 0) return;
      event.preventDefault();
      showOfflinePreview();
    });
  }

  // Correcting, deleting or finalizing goes after the waiting hands, and needs the server.
  var corrections =
    "form[action$='/entry/last/delete/'], form[action$='/entry/finalize/'], a[href$='/entry/last/'], " +
    "a[href*='/entry/hands/'][href$='/edit/']";
  // Delegated: the hand list and the actions are swapped in after each Confirm (issue 33).
  function needsServer(event) {
    var node = event.target && event.target.closest ? event.target.closest(corrections) : null;
    if (!node || (event.type === "click") !== (node.tagName !== "FORM")) return;
    if (navigator.onLine && waitingHere === 0) return;
    event.preventDefault();
    flash(T.needs_connection);
    window.scrollTo(0, 0);
  }
  document.addEventListener("submit", needsServer, true);
  document.addEventListener("click", needsServer, true);
  window.addEventListener("online", function () {
    retryDelay = 1000;
    flash("");
    var note = document.getElementById("preview-offline");
    if (note) note.remove(); // the next change asks the server again
    render().then(flush);
  });
  window.addEventListener("offline", function () {
    render();
    showOfflinePreview();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") render().then(flush);
  });

  try {
    var note = sessionStorage.getItem("hanchan-offline-flash");
    if (note) {
      sessionStorage.removeItem("hanchan-offline-flash");
      flash(note);
    }
  } catch (e) {
    /* no sessionStorage */
  }
  if (!navigator.onLine) {
    // A copy from the phone's cache: its messages belong to an earlier visit.
    document.querySelectorAll(".messages").forEach(function (node) {
      node.hidden = true;
    });
    showOfflinePreview();
  }
  remember();
  claimKept()
    .catch(function () {})
    .then(render)
    .then(flush);
})();
