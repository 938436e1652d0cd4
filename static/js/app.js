// Polls wait while the page is hidden. A trigger filter (`every 15s [!document.hidden]`) would need eval,
// which the Content-Security-Policy forbids, so the rule lives here and the templates' triggers carry no
// filter: a request that would start while the tab is in the background is not sent; the
// `visibilitychange` trigger polls once the page is shown again.
// Only polls wait: an entry the desk queued before the tab was hidden is still sent (static/js/organiser.js).
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  if (document.hidden && elt && /\bevery\b/.test(elt.getAttribute("hx-trigger") || "")) event.preventDefault();
});
