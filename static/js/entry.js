/* Phone entry (issue 18): the scoreboard folds to one line once the page scrolls, and choosing
   the winner brings "who dealt in", han and fu under it without a swipe. */
(function () {
  "use strict";
  function init() {
    var board = document.getElementById("scoreboard"), form = document.getElementById("hand-form");
    if (!board || !form) return;
    function fold() { board.classList.toggle("compact", window.scrollY > 40); }
    window.addEventListener("scroll", fold, {passive: true}); fold();
    form.addEventListener("change", function (event) {
      var input = event.target;
      if (input.name !== "winners" || !input.checked) return;
      var outcome = form.querySelector("input[name=outcome]:checked");
      var target = outcome && outcome.value === "ron"
        ? form.querySelector("fieldset.only-ron")
        : form.querySelector('.winner-block[data-seat="' + input.value + '"]');
      if (!target) return;
      board.classList.add("compact");
      var top = target.getBoundingClientRect().top + window.scrollY - board.offsetHeight - 6;
      window.scrollTo({top: Math.max(top, 0), behavior: "instant"});
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
