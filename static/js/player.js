// The player's own page (templates/player/me.html). Everything here is an enhancement: the forms post and
// the page reloads without JavaScript.
//
// One tap sends one thing. Venue Wi-Fi can take seconds to carry a report: from the tap until the answer
// arrives (the page's live part, htmx; or the next page, without it), the tapped button says it is busy, every other button of the page is disabled (a second tap of
// the same button would post again, a tap of another would silently replace the report), and the page's
// poll waits (it would redraw live buttons over the busy ones).
//
// The page polls every 3 s (a 304 while nothing changed) and says when the phone has no network; when the
// network comes back it asks at once (the `online` trigger of #live).
(function () {
  "use strict";

  var sending = false;

  function setSending(on, button) {
    sending = on;
    var note = document.getElementById("sending");
    if (note) note.hidden = !on;
    document.querySelectorAll("form[data-once] button, form[data-once] input").forEach(function (el) {
      el.disabled = on;
    });
    document.querySelectorAll("button.busy").forEach(function (el) {
      el.classList.remove("busy");
      el.removeAttribute("aria-busy");
    });
    if (on && button) {
      button.classList.add("busy");
      button.setAttribute("aria-busy", "true");
    }
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches("form[data-once]")) return;
    if (sending) {
      e.preventDefault();
      return;
    }
    sending = true;
    var button = e.submitter;
    // The browser reads the form (and the tapped button's value) right after this event: disable after it.
    setTimeout(function () { setSending(true, button); }, 0);
  });

  // Back to this page from the browser's history: it is not sending anything any more.
  window.addEventListener("pageshow", function (e) {
    if (e.persisted) setSending(false);
  });

  document.addEventListener("htmx:beforeRequest", function (e) {
    if (sending) e.preventDefault();
  });

  function setOffline(off) {
    var note = document.getElementById("offline");
    if (note) note.hidden = !off;
    document.body.classList.toggle("offline", off);
  }
  window.addEventListener("offline", function () { setOffline(true); });
  window.addEventListener("online", function () { setOffline(false); });
  document.addEventListener("htmx:sendError", function () { setOffline(true); });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.xhr && e.detail.xhr.status > 0) setOffline(false);
    // A report sent by the page has its answer (or failed): the page is live again.
    if (e.detail.requestConfig && e.detail.requestConfig.verb === "post") setSending(false);
  });
  document.addEventListener("DOMContentLoaded", function () {
    if (navigator.onLine === false) setOffline(true);
  });
})();
