// Public pages: the name filter, the round clock, skipping unchanged polls, and the venue screen's paging.
// Everything here is an enhancement: each page reads fine without JavaScript.
(function () {
  "use strict";

  // --- Matching as the server does for ?q= (tournament/name_search.py): NFKC, case, katakana = hiragana, no accents
  function fold(text) {
    // Every apostrophe is the same: a phone types ' where the registration has ’ (O’Brien).
    return text.replace(/[\u2019\u2018`\u00b4\u02bc]/g, "'").normalize("NFKC").toLowerCase()
      .replace(/[\u30a1-\u30f6]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0x60); })
      .normalize("NFKD").replace(/[\u0300-\u036f]/g, "").normalize("NFC");
  }

  // --- Pairings: narrow the list as you type (the server filters ?q= when there is no JavaScript) --
  function applyFilter(form) {
    var list = document.querySelector(form.dataset.filter);
    if (!list) return;
    var q = fold(form.elements.q.value.trim());
    var rows = list.querySelectorAll("tr[data-name]");
    var shown = 0;
    rows.forEach(function (row) {
      // A player who is not in the round (dropped, entering later) shows only when searched for.
      var found = fold(row.dataset.name).indexOf(q) !== -1 ||
        (row.dataset.reading && fold(row.dataset.reading).indexOf(q) !== -1);
      var hit = q ? found : !("absent" in row.dataset);
      row.hidden = !hit;
      if (hit) shown++;
    });
    var none = list.querySelector(".none-found");
    if (none) none.hidden = shown > 0 || rows.length === 0;
    var count = document.getElementById("filter-count");
    // The page gives the sentence in its language: data-one / data-other with {count}.
    var sentence = shown === 1 ? form.dataset.one || "{count} player matches." : form.dataset.other || "{count} players match.";
    if (count) count.textContent = q ? sentence.replace("{count}", shown) : "";
  }

  function initFilters() {
    document.querySelectorAll("form[data-filter]").forEach(function (form) {
      if (form._filtering) return;
      form._filtering = true;
      form.classList.add("js-filter");
      form.elements.q.addEventListener("input", function () { applyFilter(form); });
      form.addEventListener("submit", function (e) { e.preventDefault(); applyFilter(form); });
      applyFilter(form);
    });
  }

  // --- The round clock: counts down from the server's deadline, no request per second ----------------
  // `skew` corrects a phone whose clock is wrong, from the Date header of the polls.
  var skew = 0;
  function fmt(s) {
    var neg = s < 0; s = Math.abs(s);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = h ? h + ":" + (m < 10 ? "0" : "") + m : String(m);
    return (neg ? "−" : "") + mm + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll(".clock[data-deadline], .clock[data-left]").forEach(function (el) {
      var left = el.dataset.deadline
        ? Math.ceil((parseInt(el.dataset.deadline, 10) - now) / 1000)
        : parseInt(el.dataset.left, 10);
      if (isNaN(left)) return;
      el.textContent = fmt(left) + (el.dataset.paused ? " " + (el.dataset.paused === "1" ? "(paused)" : el.dataset.paused) : "");
      el.classList.toggle("over", left < 0);
    });
  }

  // --- Venue screen: as large as the screen allows, every name whole ---------------------------------
  // The rows' natural widths are measured once at a reference size; widths and heights scale with the
  // font size, so for each column count the largest font that fits both ways is a division. The best
  // count wins; only when even the smallest legible size (a 46th of the screen's height) cannot show
  // every row does the list page, at that size, by itself every 12 s (or with the arrow keys).
  var REFERENCE_PX = 20, COLUMN_GAP_EM = 1.2, CELL_GAP_EM = 0.5, ROW_PAD_EM = 0.6, PAGE_MS = 12000;
  var screenPage = 0, screenPages = 1, pageTimer = null;

  function measureRows(list, items) {
    list.classList.remove("fitted");
    list.classList.add("measuring");
    list.style.fontSize = REFERENCE_PX + "px";
    for (var i = 0; i < items.length; i++) items[i].hidden = false;
    var widths = [], height = 0;
    for (var k = 0; k < items.length; k++) {
      var cells = items[k].children;
      for (var c = 0; c < cells.length; c++) {
        widths[c] = Math.max(widths[c] || 0, cells[c].getBoundingClientRect().width);
      }
      if (k < 8) height = Math.max(height, items[k].getBoundingClientRect().height);
    }
    list.classList.remove("measuring");
    // A little slack per cell: sub-pixel rounding at another size must never cut a letter.
    var cellsEm = widths.map(function (w) { return w / REFERENCE_PX + 0.15; });
    var rowEm = cellsEm.reduce(function (a, b) { return a + b; }, 0) + CELL_GAP_EM * (cellsEm.length - 1) + ROW_PAD_EM;
    return { cells: cellsEm, width: rowEm, height: height / REFERENCE_PX };
  }

  function chooseLayout(n, row, width, height, extraEm) {
    var minPx = Math.max(12, window.innerHeight / 46), maxPx = window.innerHeight / 11;
    var best = null;
    for (var cols = 1; cols <= Math.min(n, 16); cols++) {
      var rows = Math.ceil(n / cols);
      var byWidth = width / (cols * row.width + (cols - 1) * COLUMN_GAP_EM);
      var byHeight = height / (rows * row.height + extraEm);
      var px = Math.min(byWidth, byHeight, maxPx);
      if (!best || px > best.px * 1.001) best = { px: px, cols: cols, rows: rows, pages: 1 };
    }
    if (best.px >= minPx) return best;
    // Too many rows for one screen: page at the smallest legible size (smaller only if one row is wider than the screen).
    var px2 = Math.min(minPx, width / row.width);
    var cols2 = Math.max(1, Math.min(n, Math.floor((width / px2 + COLUMN_GAP_EM) / (row.width + COLUMN_GAP_EM))));
    var rows2 = Math.max(1, Math.floor((height / px2 - extraEm) / row.height));
    return { px: px2, cols: cols2, rows: rows2, pages: Math.ceil(n / (cols2 * rows2)) };
  }

  function applyLayout(list, legend, items, row, layout) {
    var perPage = layout.cols * layout.rows;
    var template = row.cells.map(function (w, i) {
      return i === row.cells.length - 1 ? "minmax(" + w.toFixed(3) + "em, 1fr)" : w.toFixed(3) + "em";
    }).join(" ");
    [list, legend].forEach(function (el) {
      if (!el) return;
      el.style.fontSize = layout.px.toFixed(2) + "px";
      el.style.setProperty("--cols", layout.cols);
      el.style.setProperty("--rows", layout.rows);
      el.style.setProperty("--cells", template);
      el.classList.add("fitted");
    });
    screenPages = layout.pages;
    screenPage = ((screenPage % screenPages) + screenPages) % screenPages;
    for (var k = 0; k < items.length; k++) items[k].hidden = Math.floor(k / perPage) !== screenPage;
    if (legend) {
      var cells = legend.querySelectorAll(":scope > span");
      legend.querySelectorAll(".legend-row").forEach(function (r) { r.remove(); });
      var shownCols = Math.min(layout.cols, Math.ceil((items.length - screenPage * perPage) / layout.rows));
      for (var c = 0; c < shownCols; c++) {
        var legendRow = document.createElement("div");
        legendRow.className = "legend-row";
        cells.forEach(function (cell) { legendRow.appendChild(cell.cloneNode(true)); });
        legend.appendChild(legendRow);
      }
      cells.forEach(function (cell) { cell.hidden = true; });
    }
  }

  // What still goes wrong at the chosen size (font metrics differ a hair between sizes): "cut" when a cell's
  // text is wider than its cell, "low" when the last row falls off the bottom of the screen.
  function problem(list) {
    var cut = false, bottom = 0;
    list.querySelectorAll("li:not([hidden])").forEach(function (item) {
      bottom = Math.max(bottom, item.getBoundingClientRect().bottom);
      for (var c = 0; c < item.children.length; c++) {
        if (item.children[c].scrollWidth > item.children[c].clientWidth + 0.5) cut = true;
      }
    });
    return cut ? "cut" : bottom > window.innerHeight + 0.5 ? "low" : "";
  }

  function layoutScreen() {
    var list = document.querySelector(".screen .board-list");
    var label = document.querySelector(".screen .board-page");
    if (!list) { if (label) label.textContent = ""; return; }
    var items = list.children;
    if (!items.length) return;
    var legend = document.querySelector(".screen .board-legend");
    var board = list.closest(".board");
    // Every page is cut from the same layout: computed once per list and screen size, then reused.
    var key = [window.innerWidth, window.innerHeight, items.length].join("x");
    if (!list._layout || list._layout.key !== key) {
      var row = measureRows(list, items);
      var width = board.clientWidth;
      // The legend sits above the list and scales with it (one line of .6em type).
      var height = window.innerHeight - (legend || list).getBoundingClientRect().top - 8;
      var layout = chooseLayout(items.length, row, width, height, legend ? 0.8 : 0);
      var page = screenPage;
      screenPage = 0;
      applyLayout(list, legend, items, row, layout);
      // Step down until no cell is cut and every row of a full page is on the screen: a paged list loses a
      // row per column (it is at its smallest legible size already), a list on one page a little of its size.
      for (var tries = 0, wrong = problem(list); tries < 12 && wrong; tries++, wrong = problem(list)) {
        if (wrong === "low" && layout.pages > 1 && layout.rows > 1) {
          layout.rows -= 1;
          layout.pages = Math.ceil(items.length / (layout.rows * layout.cols));
        } else {
          layout.px *= 0.97;
        }
        applyLayout(list, legend, items, row, layout);
      }
      screenPage = page;
      list._layout = { key: key, row: row, layout: layout };
    }
    applyLayout(list, legend, items, list._layout.row, list._layout.layout);
    if (label) {
      label.textContent = screenPages > 1
        ? (board.dataset.pageText || "Page {page} of {pages}").replace("{page}", screenPage + 1).replace("{pages}", screenPages)
        : "";
    }
  }

  function turnScreenPage(step) {
    screenPage += step;
    layoutScreen();
  }

  function initScreen() {
    if (!document.querySelector(".screen")) return;
    if (pageTimer) clearInterval(pageTimer);
    pageTimer = setInterval(function () { turnScreenPage(1); }, PAGE_MS);
    document.addEventListener("keydown", function (e) {
      var step = { ArrowRight: 1, PageDown: 1, " ": 1, ArrowLeft: -1, PageUp: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      turnScreenPage(step);
      // A page turned by hand stays for a full period.
      clearInterval(pageTimer);
      pageTimer = setInterval(function () { turnScreenPage(1); }, PAGE_MS);
    });
  }

  function initFullscreen() {
    var button = document.querySelector(".screen .fullscreen");
    if (!button || !document.documentElement.requestFullscreen) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      document.documentElement.requestFullscreen().catch(function () {});
    });
    document.addEventListener("fullscreenchange", function () { button.hidden = !!document.fullscreenElement; });
  }

  // --- Polling: the browser revalidates (304) and hands htmx the same page; don't redraw it ----------
  var seen = {};
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr, target = e.detail.target;
    var tag = xhr.getResponseHeader("ETag");
    if (tag && target.id && seen[target.id] === tag) {
      e.detail.shouldSwap = false;
    } else if (target.id) {
      seen[target.id] = tag;
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var date = e.detail.xhr.getResponseHeader("Date");
    if (!date) return;
    var offset = Date.parse(date) - Date.now();
    // The header has one-second resolution; only a real difference is worth correcting.
    skew = Math.abs(offset) > 2000 ? offset : 0;
  });
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("form[data-filter]").forEach(applyFilter);
    layoutScreen();
    tick();
  });

  function init() {
    initFilters();
    initFullscreen();
    layoutScreen();
    tick();
    setInterval(tick, 1000);
    initScreen();
    window.addEventListener("resize", layoutScreen);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
