/* Hall displays (projector): the full-screen button. A static file, no inline script (CSP). */
(function () {
  "use strict";
  function init() {
    var button = document.getElementById("fullscreen");
    if (button) {
      button.addEventListener("click", function () {
        var root = document.documentElement;
        if (root.requestFullscreen) root.requestFullscreen();
      });
    }
    document.addEventListener("fullscreenchange", function () {
      document.body.classList.toggle("is-fullscreen", !!document.fullscreenElement);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
