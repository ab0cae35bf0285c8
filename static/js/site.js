/* Small behaviours of every page, from static files so the Content-Security-Policy needs no
   inline script (issue 16): a read-only field with data-select-on-click selects its text. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("input[data-select-on-click]")) target.select();
  });

  /* Issue 30.5: the offline worker keeps the referee pages of one user. Every page, the login
     and logged-out pages too, tells it who is logged in now (body data-offline-user, "" for
     nobody): another user, or nobody, and it drops the pages it kept (templates/scoring/sw.js).
     Logging out from any page drops them at once. Only where a worker was registered. */
  var body = document.body;
  var user = body ? body.getAttribute("data-offline-user") : null;
  var scope = body ? body.getAttribute("data-offline-scope") : null;
  if (user === null || !scope || !("serviceWorker" in navigator)) return;
  function tell(message) {
    return navigator.serviceWorker
      .getRegistration(scope)
      .then(function (registration) {
        var worker = registration && (registration.active || registration.waiting);
        if (worker) worker.postMessage(message);
      })
      .catch(function () {});
  }
  tell({ type: "user", user: user });
  document.querySelectorAll("form[action$='/logout/']").forEach(function (form) {
    form.addEventListener("submit", function () {
      tell({ type: "user", user: "" });
    });
  });
})();
