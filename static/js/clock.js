// Every clock of the app, on every page (templates/base.html): the round clocks and a job's seconds.
// A round clock counts down in the browser, no request per second, written as the server writes it
// (tournament/text/l10n.py, `clock`: 49:05, 1:30:00, −0:30 once over time). Its element says where it counts from:
//   <span class="clock" data-seconds-left="N">   the seconds left when the server rendered the page;
//   <span class="clock" data-deadline="MS">      the deadline (ms since 1970), corrected for a phone whose
//                                                 clock is wrong by the Date header of the page's polls;
//   <span class="clock" data-left="N">           a clock standing still (paused).
// `data-paused` holds the page's word for a paused clock, "(paused)" in English.
(function () {
  "use strict";

  var skew = 0;

  function fmt(s) {
    var neg = s < 0; s = Math.abs(s);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = h ? h + ":" + (m < 10 ? "0" : "") + m : String(m);
    return (neg ? "−" : "") + mm + ":" + (r < 10 ? "0" : "") + r;
  }

  function secondsLeft(el, now) {
    var d = el.dataset;
    if (d.deadline) return Math.ceil((parseInt(d.deadline, 10) - (now + skew)) / 1000);
    if (d.left) return parseInt(d.left, 10);
    var start = parseInt(d.secondsLeft, 10);
    if (isNaN(start)) return NaN;
    if (el._base !== d.secondsLeft) { el._base = d.secondsLeft; el._t0 = now; }
    return d.paused ? start : start - Math.floor((now - el._t0) / 1000);
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clock[data-seconds-left], .clock[data-deadline], .clock[data-left]").forEach(function (el) {
      var left = secondsLeft(el, now);
      if (isNaN(left)) return;
      var paused = el.dataset.paused;
      el.textContent = fmt(left) + (paused ? " " + (paused === "1" ? "(paused)" : paused) : "");
      el.classList.toggle("over", left < 0);
    });
  }

  // A job's "started 4 s ago" (templates/organiser/_job.html) counts on the same way: <span data-seconds-since="4">.
  function since() {
    var now = Date.now();
    document.querySelectorAll("[data-seconds-since]").forEach(function (el) {
      var start = parseInt(el.dataset.secondsSince, 10);
      if (isNaN(start)) return;
      if (el._t0 === undefined) el._t0 = now;
      el.textContent = String(start + Math.floor((now - el._t0) / 1000));
    });
  }

  document.addEventListener("htmx:afterRequest", function (e) {
    var date = e.detail.xhr && e.detail.xhr.getResponseHeader("Date");
    if (!date) return;
    var offset = Date.parse(date) - Date.now();
    // The header has one-second resolution; only a real difference is worth correcting.
    skew = Math.abs(offset) > 2000 ? offset : 0;
  });
  document.addEventListener("htmx:afterSettle", tick);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tick);
  else tick();
  setInterval(tick, 1000);
  setInterval(since, 1000);
})();
