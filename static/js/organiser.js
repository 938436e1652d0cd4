// Organiser desk helpers; every page works without this file.
// - After a player is added, the name field is empty and focused again (a queue at the desk).
// - Results by keyboard: Enter in the table field moves on to the result; after a result the table
//   field is focused for the next one.
(function () {
  document.addEventListener("htmx:afterSettle", function (e) {
    var t = e.detail.target;
    if (!t) return;
    if (t.id === "roster" || t.id === "table-form") {
      var input = document.querySelector(t.id === "roster" ? "#id_name" : "#tf-table");
      if (input) input.focus();
    }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !e.target || e.target.id !== "tf-table") return;
    var result = document.getElementById("tf-result");
    if (result && !result.value) { e.preventDefault(); result.focus(); }
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
