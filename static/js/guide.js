// The guided first round (docs/rules.md, "Guided first round"): the board shows where the
// strong bot's advice in the guide panel (#guide-step) points: the cell to write a Knister sum
// in, the dice to keep and the box to write in the Kniffel family. Each target is ringed
// (.guide-target) and labelled for screen readers by the panel's own words; the marks are
// laid on again whenever the panel or the board changed. Nothing is clicked for the player.
(function () {
  "use strict";

  function targets(step) {
    var phase = step.getAttribute("data-guide-phase");
    if (phase === "place" && step.getAttribute("data-guide-cell")) {
      return document.querySelectorAll('#live [data-cell="' + step.getAttribute("data-guide-cell") + '"]');
    }
    if (phase === "keep") {
      var keep = (step.getAttribute("data-keep-dice") || "").split(",").filter(Boolean);
      return keep.map(function (i) { return document.querySelector('#live [data-die="' + i + '"]'); });
    }
    if (phase === "box" && step.getAttribute("data-guide-box")) {
      return document.querySelectorAll('#live .offer [data-box="' + step.getAttribute("data-guide-box") + '"]');
    }
    return [];
  }

  function mark() {
    document.querySelectorAll("#live .guide-target").forEach(function (el) {
      el.classList.remove("guide-target");
    });
    var step = document.getElementById("guide-step");
    if (!step) return;
    Array.prototype.forEach.call(targets(step), function (el) {
      if (el) el.classList.add("guide-target");
    });
  }

  document.addEventListener("htmx:afterSwap", mark);  // the panel's next step
  document.addEventListener("htmx:wsAfterMessage", mark);  // the board re-rendered
})();
