// The Kniffel family's own page behaviour (Kniffel, KitKniff, Yatzy; loaded by the pages of
// their rooms only): boxes keep the focus across updates and are moves, the viewer's own
// sheet column is marked, the hint's marks are laid on, and a five alike worth 50 is cheered.
(function () {
  "use strict";
  window.knobelGames.register("data-box");  // app.js runs first (base.html)

  // The viewer's own score-sheet column: the sheet is the same HTML for every viewer, the
  // frame says whose page this is.
  function markMine() {
    var frame = document.querySelector("#live [data-viewer-seat]");
    var seat = frame ? frame.getAttribute("data-viewer-seat") : "";
    document.querySelectorAll("#live th.player[data-sheet]").forEach(function (th) {
      th.classList.toggle("mine", seat !== "" && th.getAttribute("data-sheet") === seat);
    });
  }
  document.addEventListener("htmx:wsAfterMessage", markMine);
  document.addEventListener("DOMContentLoaded", markMine);

  // Hints (Kniffel family): ring the dice the hint keeps and mark its box. The hint area
  // says which (data-keep-dice, data-hint-box) and gives the words: while a hint shows, a
  // suggested die is labelled "keep" and a held one "held" (data-mark), and "keep all five"
  // labels the row "roll no more" instead of ringing every die. The dice and the sheet are
  // re-rendered on their own, so the marks are laid on again after every update. Nothing is
  // clicked.
  function markHint() {
    var area = document.querySelector("#live #kniffel-hint[data-hint-state=shown]");
    var keep = area ? (area.getAttribute("data-keep-dice") || "").split(",").filter(Boolean) : [];
    var all = keep.length === 5;
    var box = area ? area.getAttribute("data-hint-box") : null;
    document.querySelectorAll("#live [data-die]").forEach(function (die) {
      var suggested = !all && keep.indexOf(die.getAttribute("data-die")) >= 0;
      var held = die.getAttribute("data-held") === "true";
      var mark = !area ? null : suggested ? area.getAttribute("data-keep-label")
        : held ? area.getAttribute("data-held-label") : null;
      die.classList.toggle("hint-keep", suggested);
      if (mark) die.setAttribute("data-mark", mark); else die.removeAttribute("data-mark");
    });
    var row = document.querySelector("#live .dice[data-roll]");
    if (row) {
      row.classList.toggle("hint-on", !!area);
      row.classList.toggle("hint-stop", all);
      if (all) row.setAttribute("data-stop-label", area.getAttribute("data-stop-label"));
      else row.removeAttribute("data-stop-label");
    }
    document.querySelectorAll("#live .offer [data-box]").forEach(function (el) {
      el.closest(".offer").classList.toggle("hint-box", el.getAttribute("data-box") === box);
    });
  }
  document.addEventListener("htmx:wsAfterMessage", markHint);
  document.addEventListener("htmx:afterSettle", markHint);

  // ----- a five alike worth 50 is cheered -------------------------------------------------
  var fives = null, cheerTimer = null;
  function cheer(text) {
    // one cheer element, hidden again after a moment (it keeps its last text)
    var note = document.querySelector("[data-cheer]");
    if (!note) {
      note = document.createElement("div");
      note.className = "cheer";
      note.setAttribute("role", "status");
      note.setAttribute("data-cheer", "");
      document.body.appendChild(note);
    }
    note.textContent = text;
    note.hidden = false;
    clearTimeout(cheerTimer);
    cheerTimer = setTimeout(function () { note.hidden = true; }, 2600);
  }
  function checkFives() {
    var frame = document.querySelector("#live [data-celebrate-five]");
    var n = document.querySelectorAll("#live td[data-filled=yahtzee][data-value='50']").length;
    if (frame && fives !== null && n > fives) cheer(frame.getAttribute("data-celebrate-five"));
    fives = frame ? n : null;
  }
  document.addEventListener("htmx:wsAfterMessage", checkFives);
  document.addEventListener("DOMContentLoaded", checkFives);
})();
