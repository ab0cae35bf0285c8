/* Issue 33 (tests/browser/test_browser_table_fit.py): every table of the page fits its box,
 * nothing in a cell is cut off, each word of a name and each number is on one line. */
(() => {
  const problems = [];
  const lines = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  if (document.documentElement.scrollWidth > window.innerWidth)
    problems.push('page scrolls sideways: ' + document.documentElement.scrollWidth);
  for (const table of document.querySelectorAll('main table')) {
    const box = table.parentElement.getBoundingClientRect();
    const rect = table.getBoundingClientRect();
    if (rect.width === 0) continue;
    if (rect.right > box.right + 1 || rect.right > window.innerWidth)
      problems.push('table ' + (table.id || table.className) + ' is ' + Math.round(rect.width) + ' px wide in ' + Math.round(box.width));
    for (const cell of table.querySelectorAll('td, th'))
      if (cell.scrollWidth > cell.clientWidth + 1 && getComputedStyle(cell).textOverflow !== 'ellipsis')
        problems.push('"' + cell.textContent.trim() + '" is cut off');
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const cell = node.parentElement.closest('td, th');
      if (!cell || node.parentElement.closest('.sr-only')) continue;
      let at = 0;
      // A compound name may wrap after its hyphen ("Anna-/Lena"), as text does.
      for (const word of text.split(/(\s+|(?<=-))/).filter(w => w !== undefined)) {
        if (word.trim()) {
          const range = document.createRange();
          range.setStart(node, at); range.setEnd(node, at + word.length);
          const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
          if (tops.size > 1) problems.push('"' + word + '" breaks in ' + cell.tagName);
        }
        at += word.length;
      }
      if (/^[-+]?\d+$/.test(text.trim()) && lines(node) > 1) problems.push(text + ' wraps');
    }
  }
  return problems;
})
