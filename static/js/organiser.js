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
