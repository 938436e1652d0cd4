// Public pages: the name filter, skipping unchanged polls, and the venue screen's paging (the round clock is
// static/js/clock.js, as on every page).
// Everything here is an enhancement: each page reads fine without JavaScript.
(function () {
  "use strict";

  // --- Matching as the server does for ?q= (tournament/text/name_search.py, `fold`): NFKC, case, katakana =
  // hiragana, no spaces, variant kanji unified, Danish letters as typed without them, no accents.
  // The tables are name_search's, written here by `manage.py fold_table` (never by hand: a test checks them).
  var FOLD = {"apostrophes": "`\u00b4\u02bc\u2018\u2019", "letters": {"\u00df": "ss", "\u00e4": "ae", "\u00e5": "a", "\u00e6": "ae", "\u00f6": "o", "\u00f8": "o", "\u51a8": "\u5bcc", "\u570b": "\u56fd", "\u5be6": "\u5b9f", "\u5d5c": "\u5d0e", "\u5d8b": "\u5cf6", "\u5d8c": "\u5cf6", "\u5ee3": "\u5e83", "\u5f4c": "\u5f25", "\u5fb7": "\u5fb3", "\u60e0": "\u6075", "\u6589": "\u658e", "\u66fe": "\u66fd", "\u6801": "\u67f3", "\u69c7": "\u69d9", "\u6afb": "\u685c", "\u6dfa": "\u6d45", "\u6fa4": "\u6ca2", "\u6ff1": "\u6d5c", "\u6ff5": "\u6d5c", "\u7028": "\u702c", "\u771e": "\u771f", "\u7c60": "\u7bed", "\u85cf": "\u8535", "\u9089": "\u8fba", "\u908a": "\u8fba", "\u9ad9": "\u9ad8", "\u9f4a": "\u658e", "\u9f4b": "\u658e", "\u9f8d": "\u7adc", "\ufa11": "\u5d0e"}};
  var APOSTROPHE = new RegExp("[" + FOLD.apostrophes + "]", "g");
  var LETTER = new RegExp("[" + Object.keys(FOLD.letters).join("") + "]", "g");
  function fold(text) {
    // Every apostrophe is the same: a phone types ' where the registration has ’ (O’Brien).
    return text.replace(APOSTROPHE, "'").normalize("NFKC").toLowerCase()
      .replace(/[\u30a1-\u30f6]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0x60); })
      .replace(/\s+/g, "").replace(LETTER, function (c) { return FOLD.letters[c]; })
      .normalize("NFKD").replace(/[\u0300-\u036f]/g, "").normalize("NFC").replace(/aa/g, "a");
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

  // --- Venue screen: as large as the screen allows, every name whole ---------------------------------
  // The rows' natural widths are measured once at a reference size; widths and heights scale with the
  // font size, so for each column count the largest font that fits both ways is a division.
  // A row's last cell may be secondary (`.sub`: the opponent; the record and tie-breakers). It can stand in
  // the row ("inline"), on a smaller line under the name ("stacked"), on that line without its `.more` part
  // ("brief": the record without the tie-breakers), or be left out ("primary"): a small event gets the names
  // really large, and the secondary figures stay wherever they do not cost that.
  // Only when even the smallest legible size (a 46th of the screen's height) cannot show every row does
  // the list page, at that size, by itself every 12 s (or with the arrow keys).
  var REFERENCE_PX = 40, COLUMN_GAP_EM = 0.8, CELL_GAP_EM = 0.4, ROW_PAD_EM = 0.4, SLACK_EM = 0.1, SUB_EM = 0.5, PAGE_MS = 12000;
  var MODES = ["inline", "stacked", "brief", "primary"];
  var screenPage = 0, screenPages = 1, pageTimer = null;

  function setMode(el, mode) {
    MODES.forEach(function (m) { el.classList.toggle(m, m === mode && m !== "inline"); });
  }

  // A row's height as laid out (in em): the list in one column of the given cells, at the reference size.
  function rowsHeight(list, items, mode, cells) {
    setMode(list, mode);
    list.style.setProperty("--cells", template(cells));
    list.style.setProperty("--cols", 1);
    list.style.setProperty("--rows", items.length);
    var height = 0;
    for (var k = 0; k < Math.min(items.length, 8); k++) height = Math.max(height, items[k].getBoundingClientRect().height);
    return height / REFERENCE_PX;
  }

  function template(cells) {
    return cells.map(function (w, i) {
      return i === cells.length - 1 ? "minmax(" + w.toFixed(3) + "em, 1fr)" : w.toFixed(3) + "em";
    }).join(" ");
  }

  function measureRows(list, legend, items) {
    list.classList.remove("fitted");
    setMode(list, "inline");
    list.classList.add("measuring");
    list.style.fontSize = REFERENCE_PX + "px";
    for (var i = 0; i < items.length; i++) items[i].hidden = false;
    var widths = [];
    for (var k = 0; k < items.length; k++) {
      var cells = items[k].children;
      for (var c = 0; c < cells.length; c++) {
        widths[c] = Math.max(widths[c] || 0, cells[c].getBoundingClientRect().width);
      }
    }
    if (legend) {
      // A column is as wide as its heading too (“TABLE” over one-digit table numbers).
      legend.classList.remove("fitted");
      setMode(legend, "inline");
      legend.style.fontSize = REFERENCE_PX + "px";
      legend.querySelectorAll(".legend-row").forEach(function (r) { r.remove(); });
      legend.querySelectorAll(":scope > span").forEach(function (label, c) {
        label.hidden = false;
        // A number's heading is right-aligned and may reach into the name's column instead.
        if (!label.classList.contains("num")) widths[c] = Math.max(widths[c] || 0, label.getBoundingClientRect().width);
      });
    }
    var last = items[0].lastElementChild;
    var hasSub = !!last && last.classList.contains("sub"), hasMore = hasSub && !!last.querySelector(".more");
    var subEm = { stacked: 0, brief: 0 };
    ["stacked", "brief"].forEach(function (mode) {
      if (!hasSub || (mode === "brief" && !hasMore)) return;
      setMode(list, mode);  // the secondary cell on its own, smaller line
      for (var s = 0; s < items.length; s++) {
        var sub = items[s].lastElementChild;
        if (sub) subEm[mode] = Math.max(subEm[mode], sub.getBoundingClientRect().width / REFERENCE_PX);
      }
    });
    list.classList.remove("measuring");
    // A little slack per cell: sub-pixel rounding at another size must never cut a letter.
    var cellsEm = widths.map(function (w) { return w / REFERENCE_PX + SLACK_EM; });
    var subCol = parseInt(list.dataset.subCol || "1", 10);
    list.classList.add("fitted");
    var modes = MODES.filter(function (mode) {
      return mode === "inline" || (hasSub && (mode !== "brief" || hasMore));
    }).map(function (mode) {
      var shown = mode === "inline" ? cellsEm : cellsEm.slice(0, -1);
      var rowEm = shown.reduce(function (a, b) { return a + b; }, 0) + CELL_GAP_EM * (shown.length - 1) + ROW_PAD_EM;
      if (subEm[mode] !== undefined) {
        // The secondary line starts under the name (column subCol) and may be wider than the cells above it.
        var before = shown.slice(0, subCol - 1).reduce(function (a, b) { return a + b + CELL_GAP_EM; }, 0);
        rowEm = Math.max(rowEm, before + subEm[mode] + SLACK_EM + ROW_PAD_EM);
      }
      var rowHeight = rowsHeight(list, items, mode, shown);
      return { mode: mode, cells: shown, width: rowEm, height: rowHeight, subCol: subCol };
    });
    list.classList.remove("fitted");
    setMode(list, "inline");
    return modes;
  }

  // The largest size at which every row fits on one screen, and the column count that gives it.
  function onePage(n, row, width, height, extraEm, maxPx) {
    var best = null;
    for (var cols = 1; cols <= Math.min(n, 16); cols++) {
      var rows = Math.ceil(n / cols);
      var byWidth = width / (cols * row.width + (cols - 1) * COLUMN_GAP_EM);
      var byHeight = height / (rows * row.height + extraEm);
      var px = Math.min(byWidth, byHeight, maxPx);
      // More columns only when that gives larger text.
      if (!best || px > best.px * 1.001) best = { px: px, cols: cols, rows: rows, pages: 1, row: row };
    }
    return best;
  }

  // The smallest text on a screen (the CSS's --floor): 20 px at 1080p, legible from 5 m (docs/sections.md).
  function floorPx() { return Math.max(16, window.innerHeight * 0.0186); }

  function chooseLayout(n, modes, width, height, extraEm) {
    var minPx = Math.max(12, window.innerHeight / 46), maxPx = window.innerHeight / 11;
    // A line of its own under the name is set smaller (SUB_EM): only where it stays legible itself.
    var readable = function (l) { return l.row.mode === "inline" || l.row.mode === "primary" || l.px * SUB_EM >= 0.8 * minPx; };
    var fits = modes.map(function (row) { return onePage(n, row, width, height, extraEm, maxPx); }).filter(readable);
    var largest = Math.max.apply(null, fits.map(function (f) { return f.px; }));
    if (largest >= minPx) {
      // The most complete row whose letters are as large as the largest layout's (within 3 %), or large
      // enough from across the room anyway (an 18th of the screen's height, 60 px at 1080p): the secondary
      // figures only where they cost the names nothing that matters.
      var enough = Math.min(0.97 * largest, window.innerHeight / 18);
      for (var k = 0; k < fits.length; k++) if (fits[k].px >= enough) return fits[k];
    }
    // Too many rows for one screen: page at the smallest legible size, with the row that needs the fewest
    // pages (a person waits less for theirs); of two as good, the one that shows more.
    var paged = modes.map(function (row) {
      var px = Math.max(floorPx(), Math.min(minPx, width / row.width));
      var cols = Math.max(1, Math.min(n, Math.floor((width / px + COLUMN_GAP_EM) / (row.width + COLUMN_GAP_EM))));
      var rows = Math.max(1, Math.floor((height / px - extraEm) / row.height));
      return { px: px, cols: cols, rows: rows, pages: Math.ceil(n / (cols * rows)), row: row };
    }).filter(readable);
    var legible = paged.filter(function (l) { return l.px >= minPx * 0.999; });
    return (legible.length ? legible : paged).reduce(function (best, l) {
      return l.pages < best.pages || (l.pages === best.pages && l.px > best.px * 1.001) ? l : best;
    });
  }

  function applyLayout(list, legend, items, layout) {
    var row = layout.row;
    var perPage = layout.cols * layout.rows;
    var cells = template(row.cells);
    [list, legend].forEach(function (el) {
      if (!el) return;
      el.style.fontSize = layout.px.toFixed(2) + "px";
      el.style.setProperty("--cols", layout.cols);
      el.style.setProperty("--rows", layout.rows);
      el.style.setProperty("--cells", cells);
      el.style.setProperty("--sub-col", row.subCol);
      setMode(el, row.mode);
      el.classList.add("fitted");
    });
    screenPages = layout.pages;
    screenPage = ((screenPage % screenPages) + screenPages) % screenPages;
    for (var k = 0; k < items.length; k++) items[k].hidden = Math.floor(k / perPage) !== screenPage;
    if (legend) {
      // One legend row above each column of rows, cut like them.
      var labels = legend.querySelectorAll(":scope > span");
      legend.querySelectorAll(".legend-row").forEach(function (r) { r.remove(); });
      var shownCols = Math.min(layout.cols, Math.ceil((items.length - screenPage * perPage) / layout.rows));
      for (var c = 0; c < shownCols; c++) {
        var legendRow = document.createElement("div");
        legendRow.className = "legend-row";
        labels.forEach(function (label) {
          var copy = label.cloneNode(true);
          copy.hidden = false;  // the originals are hidden once laid out
          legendRow.appendChild(copy);
        });
        legend.appendChild(legendRow);
      }
      labels.forEach(function (label) { label.hidden = true; });
    }
  }

  // Where the rows end: above the language switcher and the full-screen button in the bottom corners.
  function listBottom() {
    var corner = document.querySelector(".screen-languages");
    return window.innerHeight - (corner ? corner.offsetHeight + 4 : 0);
  }

  // What still goes wrong at the chosen size (font metrics differ a hair between sizes): "cut" when a cell's
  // text is wider than its cell, "low" when the last row falls off the bottom of the screen.
  function problem(list) {
    var cut = false, bottom = 0;
    list.querySelectorAll("li:not([hidden])").forEach(function (item) {
      bottom = Math.max(bottom, item.getBoundingClientRect().bottom);
      for (var c = 0; c < item.children.length; c++) {
        var cell = item.children[c];
        if (cell.offsetParent !== null && cell.scrollWidth > cell.clientWidth + 0.5) cut = true;
      }
    });
    return cut ? "cut" : bottom > listBottom() + 0.5 ? "low" : "";
  }

  // Each board on the screen (one; or a venue's sections, public/venue_screen.html) keeps its own page.
  var boardPages = {}, boardCounts = {};
  function boardKey(board) { return board.id || board.getAttribute("aria-label") || "board"; }

  function layoutScreen() {
    document.querySelectorAll(".screen .board").forEach(function (board) {
      if (board.hidden) return;
      var key = boardKey(board);
      screenPage = boardPages[key] || 0;
      screenPages = 1;
      layoutBoard(board);
      boardPages[key] = screenPage;
      boardCounts[key] = screenPages;
    });
  }

  function layoutBoard(board) {
    var list = board.querySelector(".board-list");
    var label = board.querySelector(".board-page");
    if (!list) { if (label) label.textContent = ""; return; }
    var items = list.children;
    if (!items.length) return;
    var legend = board.querySelector(".board-legend");
    // Every page is cut from the same layout: computed once per list and screen size, then reused.
    var key = [window.innerWidth, window.innerHeight, items.length].join("x");
    if (!list._layout || list._layout.key !== key) {
      var modes = measureRows(list, legend, items);
      var width = board.clientWidth;
      // The legend sits above the list and scales with it (one line of .6em type).
      var height = listBottom() - (legend || list).getBoundingClientRect().top - 8;
      var layout = chooseLayout(items.length, modes, width, height, legend ? 0.8 : 0);
      var page = screenPage;
      screenPage = 0;
      applyLayout(list, legend, items, layout);
      // Step down until no cell is cut and every row of a full page is on the screen: a paged list loses a
      // row per column (it is at its smallest legible size already), a list on one page a little of its size.
      // Never below the floor a screen is read at from 5 m (`floorPx`): there, a row less per column instead.
      for (var tries = 0, wrong = problem(list); tries < 24 && wrong; tries++, wrong = problem(list)) {
        if (wrong === "low" && layout.pages > 1 && layout.rows > 1) {
          layout.rows -= 1;
        } else if (layout.px * 0.97 >= floorPx()) {
          layout.px *= 0.97;
        } else if (wrong === "low" && layout.rows > 1) {
          layout.rows -= 1;
        } else {
          break;
        }
        layout.pages = Math.ceil(items.length / (layout.rows * layout.cols));
        applyLayout(list, legend, items, layout);
      }
      screenPage = page;
      list._layout = { key: key, layout: layout };
    }
    applyLayout(list, legend, items, list._layout.layout);
    if (label) {
      label.textContent = screenPages > 1
        ? (board.dataset.pageText || "Page {page} of {pages}").replace("{page}", screenPage + 1).replace("{pages}", screenPages)
        : "";
    }
  }

  function turnScreenPage(step) {
    Object.keys(boardPages).forEach(function (key) { boardPages[key] += step; });
    layoutScreen();
  }

  // --- A venue's screen: a shell of its sections, each board fetched on its own (public/venue_screen.html) --
  // Side by side, every board is fetched and polls itself. In turns, one section at a time shows every page of
  // its list, then the next; only the board on turn is asked for (and the next, a turn ahead, so that it shows
  // at once): a hidden board's poll is not sent.
  var TURN_MS = 8000, turn = 0;
  function turnPanels() { return document.querySelectorAll(".venue.layout-turns > .panels > .panel"); }

  function showTurn() {
    var panels = turnPanels();
    if (!panels.length) return;
    turn = ((turn % panels.length) + panels.length) % panels.length;
    panels.forEach(function (panel, k) { panel.hidden = k !== turn; });
  }

  function fetchPanel(panel) {
    if (!panel || panel._loading || !window.htmx) return;
    panel._loading = panel._wanted = true;
    var done = function () { panel._loading = false; };
    htmx.ajax("GET", panel.getAttribute("hx-get"), { source: panel, target: panel, swap: "outerHTML" }).then(done, done);
  }

  // The boards to ask for now: every one side by side; in turns the one on turn and the next. With `all`
  // false, only those not fetched yet (a new shell's).
  function fetchPanels(all) {
    var side = document.querySelectorAll(".venue.layout-side > .panels > .panel");
    var turns = turnPanels();
    var wanted = side.length ? Array.prototype.slice.call(side) : turns.length ? [turns[turn % turns.length], turns[(turn + 1) % turns.length]] : [];
    wanted.forEach(function (panel) { if (all || panel.classList.contains("pending")) fetchPanel(panel); });
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (elt.classList && elt.classList.contains("panel") && elt.hidden && !elt._wanted) e.preventDefault();
    elt._wanted = false;
  });

  function nextTurn(step) {
    var panels = turnPanels();
    if (!panels.length) return;
    var key = boardKey(panels[turn % panels.length]);
    var page = (boardPages[key] || 0) + step;
    if (page >= 0 && page < (boardCounts[key] || 1)) {
      boardPages[key] = page;
    } else {
      boardPages[key] = 0;
      turn += step;
      fetchPanels(true);
    }
    showTurn();
    layoutScreen();
  }

  function initScreen() {
    if (!document.querySelector(".screen")) return;
    var turns = turnPanels().length > 0;
    var period = turns ? TURN_MS : PAGE_MS;
    var advance = function (step) { if (turns) nextTurn(step); else turnScreenPage(step); };
    if (pageTimer) clearInterval(pageTimer);
    pageTimer = setInterval(function () { advance(1); }, period);
    document.addEventListener("keydown", function (e) {
      var step = { ArrowRight: 1, PageDown: 1, " ": 1, ArrowLeft: -1, PageUp: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      advance(step);
      // A page turned by hand stays for a full period.
      clearInterval(pageTimer);
      pageTimer = setInterval(function () { advance(1); }, period);
    });
  }

  // The screen's own controls show while the mouse moves or Tab is pressed, then hide again (screen.css).
  function initPointing() {
    if (!document.querySelector(".screen")) return;
    var timer = null;
    var show = function () {
      document.body.classList.add("pointing");
      clearTimeout(timer);
      timer = setTimeout(function () { document.body.classList.remove("pointing"); }, 4000);
    };
    ["mousemove", "touchstart"].forEach(function (name) { document.addEventListener(name, show, { passive: true }); });
    // The Tab key reaches them; the arrow keys that turn the pages leave them hidden.
    document.addEventListener("keydown", function (e) { if (e.key === "Tab") show(); });
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
  // Only a poll (a GET) is skipped: the answer to a form sent from the page (a report, refused or not) is
  // always drawn, with its message, even when the page it carries has the version already shown.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr, target = e.detail.target;
    var tag = xhr.getResponseHeader("ETag");
    var verb = ((e.detail.requestConfig && e.detail.requestConfig.verb) || "get").toLowerCase();
    // A board not drawn yet (a venue screen's new shell) is drawn whatever it was before.
    if (tag && target.id && verb === "get" && seen[target.id] === tag && !target.classList.contains("pending")) {
      e.detail.shouldSwap = false;
    } else if (target.id) {
      seen[target.id] = tag;
    }
  });
  // A venue's screen in turns: the new board shows the section on turn at once, not every section for a moment.
  document.addEventListener("htmx:afterSwap", showTurn);
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("form[data-filter]").forEach(applyFilter);
    showTurn();
    fetchPanels(false);
    layoutScreen();
  });

  // --- A refused code (HTTP 429): the form's button waits out the turn, counting down on itself -------
  function initRetry() {
    document.querySelectorAll("[data-retry-after]").forEach(function (note) {
      var button = note.closest("form") && note.closest("form").querySelector("button[type=submit]");
      if (!button || button._waiting) return;
      button._waiting = true;
      var label = button.textContent, left = parseInt(note.dataset.retryAfter, 10) || 0;
      function step() {
        if (left <= 0) { button.disabled = false; button.textContent = label; button._waiting = false; return; }
        button.disabled = true;
        button.textContent = label + " (" + left + ")";
        left -= 1;
        setTimeout(step, 1000);
      }
      step();
    });
  }

  function init() {
    initRetry();
    initFilters();
    initFullscreen();
    initPointing();
    showTurn();
    fetchPanels(false);
    layoutScreen();
    initScreen();
    window.addEventListener("resize", layoutScreen);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
