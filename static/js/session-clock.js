/* The organiser console's session clock: #countdown counts down every second from its data
   attributes (data-ends, data-signal, data-remaining, data-paused); htmx replaces the panel every
   30 s, and each tick reads the element afresh, so one interval serves every refresh. */
(function () {
  "use strict";
  // h:mm:ss from an hour on, m:ss below: as the hall clock shows it (hall-clock.js, issue 33).
  function show(el, left) {
    var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60);
    el.textContent = (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(left % 60).padStart(2, "0");
  }
  function tick() {
    var el = document.getElementById("countdown");
    if (!el) return;
    if (el.dataset.paused === "1") { show(el, parseInt(el.dataset.remaining, 10) || 0); return; }
    if (!el.dataset.ends) return;
    var ends = new Date(el.dataset.ends).getTime(), signal = new Date(el.dataset.signal).getTime();
    var now = Date.now(), left = Math.max(0, Math.round((ends - now) / 1000));
    show(el, left);
    el.classList.toggle("signal", now >= signal && now < ends);
    el.classList.toggle("over", now >= ends);
  }
  function init() {
    tick(); setInterval(tick, 1000);
    document.body.addEventListener("htmx:afterSwap", tick);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
