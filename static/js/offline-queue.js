/* Hanchan: the phone's queue of hands waiting to send (issue 21), shared by the entry page
 * (static/js/offline.js) and the service worker (templates/scoring/sw.js, importScripts), so
 * the hands also go out from the background when the connection returns with the page closed.
 *
 * IndexedDB "hanchan-offline": store "queue" (one hand each: game, user, Idempotency-Key,
 * the version it was entered against, the hand, its state) and store "meta" (the logged-in
 * referee and the URLs, written by the page, forgotten at logout).
 *
 * Sending: oldest first per game, POST /api/v1/games/<id>/hands/ with the hand's
 * Idempotency-Key (club.idempotency: a retry after a lost answer gets the stored answer, the
 * hand is applied once). A conflict or refusal stops that game's queue until the referee
 * chooses on the entry page. No texts here: the page shows everything.
 */
(function (global) {
  "use strict";

  var DB_NAME = "hanchan-offline";
  var DB_VERSION = 2;
  var STORE = "queue";
  var META = "meta";
  var LOCK = "hanchan-offline-queue";
  var dbPromise = null;

  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB_NAME, DB_VERSION);
        request.onupgradeneeded = function () {
          var database = request.result;
          if (!database.objectStoreNames.contains(STORE)) {
            var store = database.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
            store.createIndex("game", "game");
          }
          if (!database.objectStoreNames.contains(META)) {
            database.createObjectStore(META, { keyPath: "name" });
          }
        };
        request.onsuccess = function () {
          var database = request.result;
          database.onversionchange = function () {
            database.close();
            dbPromise = null;
          };
          resolve(database);
        };
        request.onerror = function () {
          dbPromise = null;
          reject(request.error);
        };
      });
    }
    return dbPromise;
  }

  function run(storeName, mode, work) {
    return db().then(function (database) {
      return new Promise(function (resolve, reject) {
        // A queued hand must survive the browser being closed or killed right after
        // "queued" shows: Chromium's default (relaxed) durability may report a write
        // complete before it reaches the disk. Browsers without the option ignore it.
        var tx = database.transaction(
          storeName,
          mode,
          mode === "readwrite" ? { durability: "strict" } : undefined,
        );
        var result;
        tx.oncomplete = function () {
          resolve(result);
        };
        tx.onerror = tx.onabort = function () {
          reject(tx.error);
        };
        work(tx.objectStore(storeName), function (value) {
          result = value;
        });
      });
    });
  }

  // Every queued item (any user, kept forms included), oldest first.
  function everything() {
    return run(STORE, "readonly", function (store, done) {
      var request = store.getAll();
      request.onsuccess = function () {
        done(
          request.result.sort(function (a, b) {
            return a.id - b.id;
          }),
        );
      };
    });
  }

  function items(user) {
    return everything().then(function (all) {
      return all.filter(function (item) {
        return item.user === user;
      });
    });
  }

  function put(item) {
    return run(STORE, "readwrite", function (store, done) {
      var request = store.put(item);
      request.onsuccess = function () {
        done(request.result);
      };
    });
  }

  function remove(ids) {
    return run(STORE, "readwrite", function (store) {
      ids.forEach(function (id) {
        store.delete(id);
      });
    });
  }

  function gameItems(list, game) {
    return list.filter(function (item) {
      return item.game === game;
    });
  }

  function setMeta(value) {
    return run(META, "readwrite", function (store) {
      store.put(Object.assign({ name: "session" }, value));
    });
  }

  function getMeta() {
    return run(META, "readonly", function (store, done) {
      var request = store.get("session");
      request.onsuccess = function () {
        done(request.result || null);
      };
    });
  }

  function clearMeta() {
    return run(META, "readwrite", function (store) {
      store.delete("session");
    });
  }

  function uuid() {
    if (global.crypto && global.crypto.randomUUID) return global.crypto.randomUUID();
    var bytes = global.crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map
      .call(bytes, function (b) {
        return (b + 256).toString(16).slice(1);
      })
      .join("");
  }

  // Canonical JSON (sorted keys) to compare a hand the server holds with one on the phone.
  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object") {
      return (
        "{" +
        Object.keys(value)
          .sort()
          .map(function (k) {
            return JSON.stringify(k) + ":" + canonical(value[k]);
          })
          .join(",") +
        "}"
      );
    }
    return JSON.stringify(value);
  }

  // How many of the phone's first waiting hands the server already holds, as its newest ones.
  function ownHands(current, list) {
    if (!current || !current.hands || !list.length) return 0;
    var base = list[0].baseHands || 0;
    var theirs = current.hands.slice(base);
    if (!theirs.length || theirs.length > list.length) return 0;
    for (var i = 0; i < theirs.length; i++) {
      if (canonical(theirs[i].data) !== canonical(list[i].hand)) return 0;
      if ((theirs[i].tiles || "") !== (list[i].tiles || "")) return 0;
    }
    return theirs.length;
  }

  function withLock(work) {
    var locks = global.navigator && global.navigator.locks;
    if (locks && locks.request) return locks.request(LOCK, work);
    return work();
  }

  function gameUrl(template, game) {
    return template.replace("987654321", String(game));
  }

  /* A sender for one referee: options {user, hands_api, entry, csrf, onCsrf, checkUser}
   * (checkUser: first make sure the browser is still logged in as `user`; the worker's case).
   * flush() resolves to {sent, lastVersion: {game: version}, error}: error is true when the
   * connection failed on the way (the hands stay, with their keys, for the next try). */
  function sender(options) {
    var token = options.csrf || "";
    var sent = 0;
    var lastVersion = {};

    // A fresh CSRF token (a cached page may carry one from before a new login), or null when
    // the session is gone (the entry page then redirects to the login page).
    function refreshCsrf(game) {
      return fetch(gameUrl(options.entry, game), {
        credentials: "same-origin",
        cache: "no-store",
        redirect: "manual",
      })
        .then(function (response) {
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          var found = html ? /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html) : null;
          token = found ? found[1] : "";
          if (token && options.onCsrf) options.onCsrf(token);
          return token || null;
        });
    }

    // One POST: {kind: "saved"|"retry"|"conflict"|"finalized"|"refused"|"auth", ...}; a
    // network failure rejects.
    function post(item, secondTry) {
      var body = { version: item.version, hand: item.hand };
      if (item.tiles) body.tiles = item.tiles;
      return fetch(gameUrl(options.hands_api, item.game), {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "Idempotency-Key": item.key,
          "X-CSRFToken": token,
        },
        body: JSON.stringify(body),
      }).then(function (response) {
        return response
          .json()
          .catch(function () {
            return {};
          })
          .then(function (data) {
            var status = response.status;
            if (status === 200 || status === 201) return { kind: "saved", game: data };
            if (status === 409 && data.field === "Idempotency-Key") return { kind: "retry" };
            if (status === 409) {
              var current = data.current || null;
              var kind = current && current.status === "finished" ? "finalized" : "conflict";
              return { kind: kind, current: current, message: data.message || "" };
            }
            if (status === 403 && !secondTry) {
              // A stale CSRF token, or the session ended: find out which with a fresh page.
              return refreshCsrf(item.game).then(function (fresh) {
                return fresh ? post(item, true) : { kind: "auth", message: "" };
              });
            }
            if (status === 400 && data.field === "status") {
              return { kind: "finalized", message: data.message || "" };
            }
            if (status === 400 || status === 403 || status === 404 || status === 422) {
              var message = data.message || data.detail || "";
              if (!message && typeof data === "object") message = JSON.stringify(data);
              return { kind: "refused", message: message };
            }
            return { kind: "retry" };
          });
      });
    }

    function fetchGame(game) {
      var url = gameUrl(options.hands_api, game).replace(/hands\/$/, "");
      return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) {
          return r.ok ? r.json() : null;
        })
        .catch(function () {
          return null;
        });
    }

    // The rest of a game's queue goes on after `version` (the hands were entered in order).
    function rebase(rest, version, hands) {
      rest.forEach(function (next, index) {
        next.version = version + index;
        next.baseHands = hands;
      });
      return Promise.all(rest.map(put));
    }

    function sendGame(list) {
      if (!list.length || list[0].state !== "waiting") return Promise.resolve();
      var item = list[0];
      item.attempts = (item.attempts || 0) + 1;
      return put(item)
        .then(function () {
          return post(item);
        })
        .then(function (answer) {
          if (answer.kind === "saved") {
            sent += 1;
            var rest = list.slice(1);
            return remove([item.id])
              .then(function () {
                return rebase(rest, answer.game.version, (answer.game.hands || []).length);
              })
              .then(function () {
                lastVersion[item.game] = answer.game.version;
                return sendGame(rest);
              });
          }
          if (answer.kind === "retry") throw new Error("retry");
          var own = answer.kind === "conflict" ? ownHands(answer.current, list) : 0;
          if (own) {
            // The server's new hands are this phone's first ones: a form posted on a failing
            // connection did arrive, only its answer was lost. They are in; go on after them.
            sent += own;
            var after = list.slice(own);
            var ids = list.slice(0, own).map(function (i) {
              return i.id;
            });
            return remove(ids)
              .then(function () {
                return rebase(after, answer.current.version, answer.current.hands.length);
              })
              .then(function () {
                lastVersion[item.game] = answer.current.version;
                return sendGame(after);
              });
          }
          item.state = answer.kind;
          item.message = answer.message || "";
          var current = answer.current ? Promise.resolve(answer.current) : fetchGame(item.game);
          return current.then(function (game) {
            item.current = game;
            return put(item);
          });
        });
    }

    // Who the browser is logged in as now, from the entry page (its offline-config), with a
    // fresh CSRF token: the worker sends nothing for a referee who is no longer logged in.
    function loggedIn(game) {
      return fetch(gameUrl(options.entry, game), {
        credentials: "same-origin",
        cache: "no-store",
        redirect: "manual",
      })
        .then(function (response) {
          return response.ok ? response.text() : "";
        })
        .then(function (html) {
          var found = /<script id="offline-config" type="application\/json">([^<]*)<\/script>/.exec(html);
          var csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html);
          if (csrf) token = csrf[1];
          return found ? JSON.parse(found[1]).user : null;
        });
    }

    function flush() {
      return withLock(function () {
        return items(options.user).then(function (all) {
          var games = [];
          all.forEach(function (item) {
            if (!item.raw && games.indexOf(item.game) < 0) games.push(item.game);
          });
          if (options.checkUser && games.length) {
            return loggedIn(games[0]).then(function (user) {
              if (user === options.user) return sendAll(all, games);
            });
          }
          return sendAll(all, games);
        });
      }).then(
        function () {
          return { sent: sent, lastVersion: lastVersion, error: false };
        },
        function () {
          return { sent: sent, lastVersion: lastVersion, error: true };
        },
      );
    }

    function sendAll(all, games) {
      var chain = Promise.resolve();
      games.forEach(function (game) {
        chain = chain.then(function () {
          return sendGame(gameItems(all, game));
        });
      });
      return chain;
    }

    return { flush: flush };
  }

  global.HanchanQueue = {
    SYNC_TAG: "hanchan-queue",
    everything: everything,
    items: items,
    put: put,
    remove: remove,
    gameItems: gameItems,
    setMeta: setMeta,
    getMeta: getMeta,
    clearMeta: clearMeta,
    uuid: uuid,
    sender: sender,
  };
})(self);
