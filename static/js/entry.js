/* Phone entry (issue 18): the scoreboard folds to one line once the page scrolls, and choosing
   the winner brings "who dealt in", han and fu under it without a swipe.
   Issue 33: folding must not move what is under the referee's finger. The board is sticky, so
   its height is part of the page: folding 117 px away moved every chip up (a tap pressed on one
   chip was released on another and lost), and the shorter page pulled the scroll back under
   40 px, which unfolded the board again. A spacer under the board takes the height the fold
   gives up, so the page below never moves; only the board's own drawing shrinks. */
(function () {
  "use strict";
  function init() {
    var board = document.getElementById("scoreboard"), form = document.getElementById("hand-form");
    if (!board || !form) return;
    var spacer = document.createElement("div");
    spacer.className = "scoreboard-spacer";
    spacer.setAttribute("aria-hidden", "true");
    board.parentNode.insertBefore(spacer, board.nextSibling);
    function setFolded(folded) {
      if (folded === board.classList.contains("compact")) return;
      if (!folded) {
        board.classList.remove("compact");
        spacer.style.height = "";
        return;
      }
      // Both change in one go: a layout in between (the page shorter by the fold) would let
      // Chrome's scroll anchoring pull the page up, back under 40 px.
      var gives = board.getBoundingClientRect().height - foldedHeight();
      board.classList.add("compact");
      spacer.style.height = Math.max(gives, 0) + "px";
    }
    // The folded board's height, measured on a copy out of the page's flow.
    function foldedHeight() {
      var copy = board.cloneNode(true);
      copy.removeAttribute("id");
      copy.setAttribute("aria-hidden", "true");
      copy.classList.add("compact");
      copy.style.position = "absolute";
      copy.style.visibility = "hidden";
      copy.style.width = board.getBoundingClientRect().width + "px";
      copy.style.boxSizing = "border-box";
      board.parentNode.appendChild(copy);
      var height = copy.getBoundingClientRect().height;
      copy.remove();
      return height;
    }
    function fold() { setFolded(window.scrollY > 40); }
    window.addEventListener("scroll", fold, {passive: true}); fold();
    form.addEventListener("change", function (event) {
      var input = event.target;
      if (input.name !== "winners" || !input.checked) return;
      var outcome = form.querySelector("input[name=outcome]:checked");
      var target = outcome && outcome.value === "ron"
        ? form.querySelector("fieldset.only-ron")
        : form.querySelector('.winner-block[data-seat="' + input.value + '"]');
      if (!target) return;
      setFolded(true);
      var top = target.getBoundingClientRect().top + window.scrollY - board.offsetHeight - 6;
      window.scrollTo({top: Math.max(top, 0), behavior: "instant"});
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
