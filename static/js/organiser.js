// Organiser desk helpers; every page works without this file.
// Typing at the desk never waits for the server, and nothing the server sends lands where the typist types.
// - A form with data-queue="LOG" (the round page's keyboard entry, the players page's quick add) is not posted by
//   the browser: Enter takes what its fields hold at that moment, empties them and keeps the focus in the first one
//   for the next entry, and adds a line to the running list #LOG (a copy of <template id="LOG-line">, what was typed
//   filled into its [data-field] parts). The entries are sent one after another, in the order typed; each answer
//   replaces its own line (stored ✓, refused ✗ and why, or a question with its own buttons) and, out of band, the
//   rows and counts it changed. Keys typed while an entry is on its way simply go into the next one.
// - An entry the server did not answer stays in the list with "Send again"; the ones typed after it wait for it.
// - A question ("Table 8 already has ½-½. Replace it with 1-0?") takes no focus and no queued key: it is answered by
//   its buttons only (a click, or Tab to them; Escape there keeps the stored result), and the focus goes back to the
//   entry afterwards.
// - Enter in the Table field moves on to the Result field (its text selected, so typing replaces it).
(function () {
  var queues = {}, lines = 0, answering = null;

  function firstField(form) { return form.querySelector("input:not([type=hidden])"); }

  function queueOf(form) {
    var id = form.dataset.queue;
    if (!queues[id]) queues[id] = { form: form, items: [], busy: false, stopped: false, sent: 0 };
    return queues[id];
  }

  function take(form) {
    var q = queueOf(form), values = {}, typed = false;
    new FormData(form).forEach(function (value, key) { values[key] = value; });
    form.querySelectorAll("input:not([type=hidden])").forEach(function (input) {
      if (input.value.trim()) typed = true;
      input.value = "";
    });
    firstField(form).focus();
    if (!typed) return;  // Enter on empty fields: nothing to send
    // Each entry is its own submission: a repeat of it (Send again after a lost answer) is recognised as one.
    if (values.once) values.once += "." + (++q.sent);
    var template = document.getElementById(form.dataset.queue + "-line");
    var line = template.content.firstElementChild.cloneNode(true);
    line.id = form.dataset.queue + "-" + (++lines);
    line.querySelectorAll("[data-field]").forEach(function (el) {
      var value = (values[el.dataset.field] || "").trim();
      el.textContent = el.dataset.format ? el.dataset.format.replace("{value}", value) : value;
    });
    document.getElementById(form.dataset.queue).prepend(line);
    q.items.push({ line: line, values: values });
    send(q);
  }

  function send(q) {
    if (q.busy || q.stopped || !q.items.length) return;
    var item = q.items[0], line = item.line, text = line.querySelector(".entry-text");
    q.busy = true;
    line.classList.replace("waiting", "sending");
    text.textContent = text.dataset.sending;
    htmx.ajax("POST", q.form.action, { source: line, target: line, swap: "outerHTML", values: item.values })
      .catch(function () {})
      .then(function () {
        q.busy = false;
        if (line.isConnected) return notAnswered(q, item);  // no answer took its place
        q.items.shift();
        send(q);
      });
  }

  function notAnswered(q, item) {
    var line = item.line, text = line.querySelector(".entry-text"), again = line.querySelector("[data-resend]");
    q.stopped = true;
    line.classList.remove("sending");
    line.classList.add("failed");
    text.textContent = text.dataset.failed;
    again.hidden = false;
    again.addEventListener("click", function () {
      again.hidden = true;
      line.classList.replace("failed", "waiting");
      q.stopped = false;
      send(q);
    }, { once: true });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var hint = document.getElementById("tf-queue");
    if (hint) hint.hidden = false;
    var form = document.getElementById("table-form");
    if (form) firstField(form).focus();
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.matches && form.matches(".entry .replace-question") && !e.defaultPrevented) {
      // A question's button answered in the moment between its line's swap and htmx taking up the new form
      // (a quick click, Escape at once) would post the form itself and reload the page, list and all: send it
      // as htmx would have.
      e.preventDefault();
      var values = {};
      new FormData(form).forEach(function (value, key) { values[key] = value; });
      if (e.submitter && e.submitter.name) values[e.submitter.name] = e.submitter.value;
      htmx.ajax("POST", form.action, { source: form, target: form.closest("li"), swap: "outerHTML", values: values });
      return;
    }
    if (!form.dataset || !form.dataset.queue) return;
    e.preventDefault();
    take(form);
  });
  // An answer that is not the entry's own line (a login page after the session ended, say) is not shown in its
  // place: the line stays, with Send again.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target, xhr = e.detail.xhr;
    if (!target || !target.id || !target.matches(".entry.sending")) return;
    var asked = new URL(e.detail.requestConfig.path, location.href).pathname;
    if (!xhr.responseURL || new URL(xhr.responseURL).pathname !== asked) e.detail.shouldSwap = false;
  });
  window.addEventListener("beforeunload", function (e) {
    for (var id in queues) {
      if (queues[id].items.length) { e.preventDefault(); e.returnValue = ""; return; }
    }
  });

  document.addEventListener("keydown", function (e) {
    var el = e.target;
    if (!el || !el.closest) return;
    if (e.key === "Escape" && el.closest(".entry .replace-question")) {
      var keep = el.closest(".replace-question").querySelector("[data-answer=keep]");
      if (keep) { e.preventDefault(); keep.click(); }
      return;
    }
    if (e.key !== "Enter" || el.id !== "tf-table") return;
    var result = document.getElementById("tf-result");
    if (result) { e.preventDefault(); result.focus(); result.select(); }
  });
  // Once a question is answered its line is replaced: the focus goes back to the entry it came from.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.matches && elt.matches(".entry .replace-question")) answering = elt.closest(".desk-log");
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!answering) return;
    var form = document.querySelector("form[data-queue='" + answering.id + "']");
    answering = null;
    if (form && (!document.activeElement || document.activeElement === document.body)) {
      firstField(form).focus({ preventScroll: true });
    }
  });
  // A result typed by table: flash the row that changed so the eye finds it.
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var el = e.detail.target;
    if (el && el.classList && el.classList.contains("match")) {
      el.classList.add("flash");
      setTimeout(function () { el.classList.remove("flash"); }, 1200);
    }
  });
})();

// The round page follows the phones by itself (#round-live polls every few seconds, templates/organiser/round.html).
// - Each poll says which version the page shows (If-None-Match): an unchanged round answers 304, and nothing is redrawn.
// - A poll waits while the judge's own click or entry is on its way (that answer updates the page itself).
// - A changed round replaces the counts, filters and lists, but not what the judge is working in: a row holding the
//   focus, a question ("Replace with…?") or a request keeps its current element; a part holding the focus is left as is.
(function () {
  function poller(e) { var elt = e.detail.elt; return elt && elt.id === "round-live" ? elt : null; }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = poller(e);
    if (elt && elt.dataset.etag) e.detail.headers["If-None-Match"] = elt.dataset.etag;
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (poller(e) && document.querySelector(".htmx-request:not(#round-live)")) e.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    var elt = poller(e);
    if (!elt) return;
    var xhr = e.detail.xhr, tag = xhr.getResponseHeader("ETag");
    if (xhr.status === 304 || !tag || tag === elt.dataset.etag) { e.detail.shouldSwap = false; return; }
    elt.dataset.etag = tag;
  });
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var fragment = e.detail.fragment, fresh = fragment && fragment.firstElementChild, old = e.detail.target;
    if (!fresh || !fresh.hasAttribute("data-live")) return;
    var focus = document.activeElement;
    old.querySelectorAll("tr.match").forEach(function (row) {
      var busy = row.contains(focus) || row.classList.contains("asking") || row.querySelector(".htmx-request");
      var twin = busy && row.id && fresh.querySelector("#" + CSS.escape(row.id));
      if (twin) twin.setAttribute("hx-preserve", "true");
    });
    if (focus && focus !== document.body && old.contains(focus) && !focus.closest("tr.match")) e.detail.shouldSwap = false;
  });
})();

// A round the worker pairs (#job-status, templates/organiser/_job.html) is polled every 2 s: each poll says which
// state the page shows (If-None-Match), an unchanged job answers 304 and nothing is redrawn; a changed one replaces
// the box, and the stored draft answers with a redirect to it (HX-Redirect).
(function () {
  function poller(e) { var elt = e.detail.elt; return elt && elt.id === "job-status" ? elt : null; }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = poller(e);
    if (elt && elt.dataset.etag) e.detail.headers["If-None-Match"] = elt.dataset.etag;
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (poller(e) && e.detail.xhr.status === 304) e.detail.shouldSwap = false;
  });
})();

// A player's personal link as text (templates/organiser/player_card.html): "Copy link" puts it on the clipboard.
// Without the script (or the clipboard) the field is there to select and copy by hand.
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.dataset.copy);
      if (!field || !navigator.clipboard) return;
      button.hidden = false;
      var label = button.textContent;
      button.addEventListener("click", function () {
        field.select();
        navigator.clipboard.writeText(field.value).then(function () {
          button.textContent = button.dataset.copied;
          setTimeout(function () { button.textContent = label; }, 2000);
        });
      });
    });
  });
  document.addEventListener("focusin", function (e) {
    if (e.target && e.target.id === "personal-link") e.target.select();
  });
})();

// The New event form's time zone, when the organiser has no venue yet and their language names none (English): the
// browser's own zone, when the list has it. Without this script the server's zone stays chosen.
(function () {
  document.querySelectorAll("select[data-browser-zone]").forEach(function (select) {
    var zone;
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    if (!zone || select.value !== "") return;
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === zone) { select.value = zone; return; }
    }
  });
})();
