/* Small behaviours of every page, from static files so the Content-Security-Policy needs no
   inline script (issue 16): a read-only field with data-select-on-click selects its text. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("input[data-select-on-click]")) target.select();
  });
})();
