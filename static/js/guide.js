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

  // The panel is fixed at the foot of the screen: a new step brings its first target into
  // the band between the header (and, in the Kniffel family, the sticky dice) and the panel,
  // when it is not fully there; the page keeps room below its last rows for the panel.
  function bringIntoView() {
    var guide = document.getElementById("guide");
    if (!guide) return;
    document.documentElement.style.setProperty("--guide-h", guide.offsetHeight + "px");
    var step = document.getElementById("guide-step");
    var first = step ? Array.prototype.filter.call(targets(step), Boolean)[0] : null;
    if (!first) return;
    var sheetTop = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--sheet-top")) || 0;
    var bar = document.querySelector(".topbar");
    var barBottom = bar ? bar.getBoundingClientRect().bottom : 0;
    var top = first.closest("#live .turn") ? barBottom : Math.max(sheetTop, barBottom);
    var bottom = guide.getBoundingClientRect().top;
    var box = first.getBoundingClientRect();
    if (box.top >= top && box.bottom <= bottom) return;
    window.scrollBy(0, box.top - (top + Math.max(0, (bottom - top - box.height) / 2)));
  }

  document.addEventListener("htmx:afterSwap", function (e) {  // the panel's next step
    mark();
    if (e.target && e.target.id === "guide") bringIntoView();
  });
  document.addEventListener("htmx:wsAfterMessage", mark);  // the board re-rendered
})();
