// Public pages: the name filter, the round clock, skipping unchanged polls, and the venue screen's paging.
// Everything here is an enhancement: each page reads fine without JavaScript.
(function () {
  "use strict";

  // --- Accent- and case-insensitive matching, as the server does for ?q= -------------------------
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  // --- Pairings: narrow the list as you type (the server filters ?q= when there is no JavaScript) --
  function applyFilter(form) {
    var list = document.querySelector(form.dataset.filter);
    if (!list) return;
    var q = fold(form.elements.q.value.trim());
    var rows = list.querySelectorAll("tr[data-name]");
    var shown = 0;
    rows.forEach(function (row) {
      var hit = !q || fold(row.dataset.name).indexOf(q) !== -1;
      row.hidden = !hit;
      if (hit) shown++;
    });
    var none = list.querySelector(".none-found");
    if (none) none.hidden = shown > 0 || rows.length === 0;
    var count = document.getElementById("filter-count");
    if (count) count.textContent = q ? shown + (shown === 1 ? " player matches." : " players match.") : "";
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
      el.textContent = fmt(left) + (el.dataset.paused ? " (paused)" : "");
      el.classList.toggle("over", left < 0);
    });
  }

  // --- Venue screen: columns that page by themselves -----------------------------------------------
  var screenPage = 0;
  function layoutScreen() {
    var list = document.querySelector(".screen .board-list");
    if (!list) return;
    var items = list.children;
    if (!items.length) return;
    list.classList.add("paged");
    for (var i = 0; i < items.length; i++) items[i].hidden = false;
    var top = list.getBoundingClientRect().top;
    var available = window.innerHeight - top - 36;  // room for the full-screen button
    var rowHeight = items[0].getBoundingClientRect().height || 40;
    var cols = parseInt(getComputedStyle(list).getPropertyValue("--cols"), 10) || 3;
    // Fill the screen's height, but spread a short list over every column.
    var rows = Math.max(1, Math.min(Math.floor(available / rowHeight), Math.ceil(items.length / cols)));
    var perPage = rows * cols;
    var pages = Math.max(1, Math.ceil(items.length / perPage));
    screenPage = screenPage % pages;
    list.style.setProperty("--rows", rows);
    for (var k = 0; k < items.length; k++) {
      items[k].hidden = Math.floor(k / perPage) !== screenPage;
    }
    var label = document.querySelector(".screen .board-page");
    if (label) label.textContent = pages > 1 ? "Page " + (screenPage + 1) + " of " + pages : "";
  }
  function nextScreenPage() {
    screenPage++;
    layoutScreen();
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
    if (document.querySelector(".screen")) setInterval(nextScreenPage, 12000);
    window.addEventListener("resize", layoutScreen);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
