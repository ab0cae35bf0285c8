/* Hanchan: "Call a referee" without a connection (issue 35.2). The button's form is sent with
 * fetch; when the network fails, the call is kept on the phone (localStorage
 * "hanchan-referee-calls") like a hand in the offline queue, and sent when the connection
 * returns (the browser's "online" event, or the next page load). Any answer from the server
 * ends a kept call: a call still open there is answered 200, not made twice; a refusal (the
 * per-table limit) would be refused again. The texts come from the form's data attributes. */
(function () {
  "use strict";

  var KEY = "hanchan-referee-calls";

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(KEY) || "[]");
    } catch (error) {
      return [];
    }
  }

  function save(list) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(list));
    } catch (error) {
      /* private mode without storage: the call is only tried now */
    }
  }

  function say(text) {
    document.querySelectorAll(".call-referee .call-status").forEach(function (out) {
      out.textContent = text;
    });
  }

  function post(call) {
    var body = new FormData();
    body.append("csrfmiddlewaretoken", call.csrf);
    body.append("next", call.next);
    // No redirect followed: the flash message waits for the next page the phone shows.
    return fetch(call.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      headers: { "X-CSRFToken": call.csrf },
    });
  }

  var flushing = false;

  function flush() {
    var kept = load();
    if (!kept.length || flushing) return;
    flushing = true;
    var left = [];
    var chain = Promise.resolve();
    kept.forEach(function (call) {
      chain = chain.then(function () {
        return post(call).catch(function () {
          left.push(call);
        });
      });
    });
    chain.then(function () {
      flushing = false;
      save(left);
      var form = document.querySelector(".call-referee");
      if (!left.length && form) say(form.dataset.sent || "");
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("call-referee")) return;
    event.preventDefault();
    var call = {
      url: form.action,
      csrf: form.querySelector("[name=csrfmiddlewaretoken]").value,
      next: (form.querySelector("[name=next]") || { value: "" }).value,
      at: new Date().toISOString(),
    };
    post(call).then(
      function () {
        window.location.reload(); // the page shows the server's message
      },
      function () {
        var kept = load().filter(function (other) {
          return other.url !== call.url; // one kept call per table is enough
        });
        kept.push(call);
        save(kept);
        say(form.dataset.queued || "");
      },
    );
  });

  window.addEventListener("online", flush);
  flush();
})();
