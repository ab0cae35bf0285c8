/* The hand entry page for keyboard users (issue 22).
 * - Enter on a choice chip chooses it, as Space does, instead of submitting the form (a valid
 *   hand was saved before riichi was ticked).
 * - A focused control is never left under the sticky scoreboard (top) or the sticky confirm
 *   bar (bottom): the scroll padding is their heights and the stylesheet's --sticky-gap, kept
 *   in step by a ResizeObserver (issue 33: a tap that grew the bar, the preview line shown or
 *   wrapped, left the padding at the bar's old height until the next scroll or focus), and a
 *   control still covered after the browser's own scrolling is scrolled clear.
 */
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form) return;
  var root = document.documentElement;
  var board = document.getElementById("scoreboard");
  var bar = form.querySelector(".confirm-bar");
  var GAP = 8; // between a control scrolled clear and a bar
  // The scroll padding's margin past a bar (static/css/hanchan.css --sticky-gap, 16 px).
  var PAD = parseFloat(getComputedStyle(root).getPropertyValue("--sticky-gap")) || 2 * GAP;

  form.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches(".chip input, .toggle input")) return;
    event.preventDefault();
    if (input.type === "checkbox" || !input.checked) input.click();
  });

  function pad() {
    if (board) root.style.scrollPaddingTop = board.offsetHeight + PAD + "px";
    if (bar) root.style.scrollPaddingBottom = bar.offsetHeight + PAD + "px";
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
  if (window.ResizeObserver) {
    var sizes = new ResizeObserver(pad); // after layout, before the frame is painted
    if (board) sizes.observe(board);
    if (bar) sizes.observe(bar);
  } else {
    window.addEventListener("resize", pad);
    window.addEventListener("scroll", pad, {passive: true});
  }
  document.addEventListener("focusin", function (event) {
    pad();
    clear(event.target);
  });
})();
