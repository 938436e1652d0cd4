// Round clocks count down in the browser from the seconds left when the server rendered the page
// (immune to a wrong clock on the phone); no request per second.
// <span class="clock" data-seconds-left="N" [data-paused="(paused)"]>12:34</span>
(function () {
  function fmt(s) {
    var neg = s < 0; s = Math.abs(s);
    var m = Math.floor(s / 60), r = s % 60;
    return (neg ? "−" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clock[data-seconds-left]").forEach(function (el) {
      var start = parseInt(el.dataset.secondsLeft, 10);
      if (isNaN(start)) return;
      if (el._base !== el.dataset.secondsLeft) { el._base = el.dataset.secondsLeft; el._t0 = now; }
      var left = el.dataset.paused ? start : start - Math.floor((now - el._t0) / 1000);
      // data-paused holds the page's word for it, "(paused)" in English.
      el.textContent = fmt(left) + (el.dataset.paused ? " " + (el.dataset.paused === "1" ? "(paused)" : el.dataset.paused) : "");
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
  setInterval(tick, 1000);
  setInterval(since, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();

// Polls wait while the page is hidden. A trigger filter (`every 15s [!document.hidden]`) would need eval,
// which the Content-Security-Policy forbids, so the rule lives here and the templates' triggers carry no
// filter: a request that would start while the tab is in the background is not sent; the
// `visibilitychange` trigger polls once the page is shown again.
// Only polls wait: an entry the desk queued before the tab was hidden is still sent (static/js/organiser.js).
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  if (document.hidden && elt && /\bevery\b/.test(elt.getAttribute("hx-trigger") || "")) event.preventDefault();
});
