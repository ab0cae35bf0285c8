/* Hall standings (projector): one screenful of rows at a time; the next page every
   data-seconds s; fresh rows after the last page. Settings come from #hall-page's data
   attributes (data-seconds, data-label "Page {page} of {pages}"), so no inline script (CSP). */
(function () {
  "use strict";
  function init() {
    var label = document.getElementById("hall-page");
    if (!label) return;
    var seconds = parseInt(label.dataset.seconds, 10) || 15, page = 0;
    var pageLabel = label.dataset.label || "{page} / {pages}";
    function rows() {
      return Array.prototype.slice.call(document.querySelectorAll("#hall-standings tbody tr"));
    }
    function perPage() {
      var all = rows(); if (!all.length) return 1;
      all.forEach(function (r) { r.hidden = false; });
      var table = document.getElementById("hall-standings"), top = table.getBoundingClientRect().top;
      var head = table.tHead ? table.tHead.getBoundingClientRect().height : 0;
      var rowHeight = all[0].getBoundingClientRect().height || 40;
      return Math.max(1, Math.floor((window.innerHeight - top - head - 8) / rowHeight));
    }
    function show() {
      var all = rows(), n = perPage(), pages = Math.max(1, Math.ceil(all.length / n));
      if (page >= pages) page = 0;
      all.forEach(function (r, i) { r.hidden = i < page * n || i >= (page + 1) * n; });
      label.textContent = pages > 1
        ? pageLabel.replace("{page}", page + 1).replace("{pages}", pages) : "";
      return pages;
    }
    function next() {
      var pages = show();
      if (page + 1 >= pages) {
        fetch(window.location.href, {headers: {"HX-Request": "true"}})
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (html) { document.getElementById("hall-rows").outerHTML = html; }
            page = 0; show();
          })
          .catch(function () { page = 0; show(); });
      } else { page += 1; show(); }
    }
    show(); window.addEventListener("resize", show);
    setInterval(next, seconds * 1000);
    window.hallStandingsNext = next;  // for tests and a remote clicker
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
