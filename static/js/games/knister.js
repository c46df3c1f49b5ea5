// Knister's own page behaviour (loaded by the pages of Knister rooms only): its cells keep
// the focus across updates and are moves, and arrow keys move between the open cells.
(function () {
  "use strict";
  window.knobelGames.register("data-cell");  // app.js runs first (base.html)

  // Arrow keys move between the open cells of a sheet (role=grid; Tab reaches them too).
  var STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  document.addEventListener("keydown", function (e) {
    var step = STEPS[e.key];
    var from = step && e.target.closest && e.target.closest("#live [role=grid] button[data-cell]");
    if (!from) return;
    var grid = from.closest("[role=grid]");
    var rc = from.getAttribute("data-cell").split(",").map(Number);
    for (var n = 1; n < 10; n++) {
      var next = grid.querySelector('button[data-cell="' + (rc[0] + step[0] * n) + "," +
                                    (rc[1] + step[1] * n) + '"]');
      if (next) { next.focus(); e.preventDefault(); return; }
    }
  });
})();
