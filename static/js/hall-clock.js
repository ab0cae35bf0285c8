/* Hall clock (projector): ticks every second from the server's times; the fragment is
   refreshed every 10 s (htmx). The sound button's labels are its data-on / data-off. */
(function () {
  "use strict";
  function init() {
    var sound = false, lastState = null, audio = null;
    var button = document.getElementById("sound");
    if (button) {
      button.addEventListener("click", function () {
        sound = !sound; button.setAttribute("aria-pressed", String(sound));
        button.textContent = sound ? button.dataset.off : button.dataset.on;
        if (sound && !audio) { audio = new (window.AudioContext || window.webkitAudioContext)(); }
      });
    }
    function beep(times) {  // EMA 2025 7.4: a clear sound when 15 minutes remain
      if (!sound || !audio) return;
      for (var i = 0; i < times; i++) {
        var o = audio.createOscillator(), g = audio.createGain(), t = audio.currentTime + i * 0.7;
        o.frequency.value = 880; o.connect(g); g.connect(audio.destination);
        g.gain.setValueAtTime(0.4, t); g.gain.exponentialRampToValueAtTime(0.001, t + 0.6);
        o.start(t); o.stop(t + 0.6);
      }
    }
    function tick() {
      var el = document.getElementById("hall-countdown"), box = document.getElementById("hall-clock");
      if (!el || !box) return;
      var paused = el.dataset.paused === "1", state = box.dataset.state;
      var left = parseInt(el.dataset.remaining, 10) || 0;
      if (!paused && el.dataset.ends) {
        var now = Date.now(), ends = new Date(el.dataset.ends).getTime();
        var signal = new Date(el.dataset.signal).getTime();
        left = Math.max(0, Math.round((ends - now) / 1000));
        state = now >= ends ? "time_up" : (now >= signal ? "signal" : "playing");
      }
      if (el.dataset.ends) {
        var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60);
        var s = String(left % 60).padStart(2, "0");
        el.textContent = (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + s;
      }
      if (!paused && box.dataset.state !== "closed") {
        box.classList.toggle("signal", state === "signal");
        box.classList.toggle("over", state === "time_up");
        document.querySelectorAll("[data-for-state]").forEach(function (n) {
          n.hidden = n.dataset.forState !== state;
        });
        if (lastState === "playing" && state === "signal") beep(3);
        if (lastState === "signal" && state === "time_up") beep(1);
      }
      lastState = state;
    }
    tick(); setInterval(tick, 1000);
    document.body.addEventListener("htmx:afterSwap", tick);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
