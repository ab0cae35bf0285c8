/* The hand entry page for keyboard users (issue 22).
 * - Enter on a choice chip chooses it, as Space does, instead of submitting the form (a valid
 *   hand was saved before riichi was ticked).
 * - A focused control is never left under the sticky scoreboard (top) or the sticky confirm
 *   bar (bottom): the scroll padding follows their heights, and a control still covered after
 *   the browser's own scrolling is scrolled clear.
 */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form) return;
  var root = document.documentElement;
  var board = document.getElementById("scoreboard");
  var bar = form.querySelector(".confirm-bar");
  var GAP = 8;

  form.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches(".chip input, .toggle input")) return;
    event.preventDefault();
    if (input.type === "checkbox" || !input.checked) input.click();
  });

  function pad() {
    if (board) root.style.scrollPaddingTop = board.offsetHeight + 2 * GAP + "px";
    if (bar) root.style.scrollPaddingBottom = bar.offsetHeight + 2 * GAP + "px";
  }

  function overlap(a, b) {
    return a.top < b.bottom && a.bottom > b.top && a.left < b.right && a.right > b.left;
  }

  function clear(target) {
    if ((board && board.contains(target)) || (bar && bar.contains(target))) return;
    var rect = target.getBoundingClientRect();
    if (!rect.height) return;
    if (bar) {
      var b = bar.getBoundingClientRect();
      if (overlap(rect, b)) window.scrollBy(0, rect.bottom - b.top + GAP);
      rect = target.getBoundingClientRect();
    }
    if (board) {
      var t = board.getBoundingClientRect();
      if (overlap(rect, t)) window.scrollBy(0, rect.top - t.bottom - GAP);
    }
  }

  pad();
  window.addEventListener("resize", pad);
  window.addEventListener("scroll", pad, {passive: true});
  document.addEventListener("focusin", function (event) {
    pad();
    clear(event.target);
  });
})();
