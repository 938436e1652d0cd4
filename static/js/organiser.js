// Organiser desk helpers; every page works without this file.
// - After a player is added, the name field is empty and focused again (a queue at the desk).
// - Results by keyboard: the Table field has focus when the page opens; Enter in it moves on to the
//   result (its text selected). After a refusal the field that was wrong has focus with its text selected, so typing
//   replaces it; after a result both fields are empty and Table has focus; when a stored result would
//   be replaced, the Replace button has focus (Enter answers it, Escape keeps the stored result); a top-cut
//   result is confirmed the same way (Confirm has focus, Escape cancels it).
(function () {
  function focusTableForm(form) {
    var target = form.querySelector("[aria-invalid=true]") ||
      form.querySelector("[data-answer=replace], [data-answer=confirm]") || form.querySelector("#tf-table");
    if (!target) return;
    target.focus();
    if (target.select) target.select();
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("table-form");
    if (form) focusTableForm(form);
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    var t = e.detail.target;
    if (t && t.id === "roster") {
      var input = document.querySelector("#id_name");
      if (input) input.focus();
    }
  });
  // Right after the swap, in the same task (the form settles at once: settle:0ms), so a key typed at
  // once lands in the selected field of a form htmx already handles.
  document.addEventListener("htmx:afterSwap", function (e) {
    var t = e.detail.target;
    // An outerHTML swap leaves `target` detached: look the new form up.
    var form = t && t.id === "table-form" && document.getElementById("table-form");
    if (form) focusTableForm(form);
  });
  document.addEventListener("keydown", function (e) {
    var el = e.target;
    if (!el || !el.closest) return;
    var form = el.closest("#table-form");
    if (!form) return;
    if (e.key === "Escape") {
      var keep = form.querySelector("[data-answer=keep]");
      if (keep) { e.preventDefault(); keep.click(); }
      return;
    }
    if (e.key !== "Enter" || el.id !== "tf-table") return;
    // Enter after the table always goes on to the result (selected, so typing replaces it).
    var result = document.getElementById("tf-result");
    if (result) { e.preventDefault(); result.focus(); result.select(); }
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
