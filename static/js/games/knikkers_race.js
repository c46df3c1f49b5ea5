// The Knikkers race (templates/rooms/knikkers_race/): keeps the own board's form from being
// sent (a move goes over the room socket) and steps a finished race's replays.
// Loaded with the race's game area, which may arrive again over the socket: runs once.
(function () {
  "use strict";
  if (window.knobelRace) return;
  window.knobelRace = true;

  // Enter on a picked marble would submit the form around the board: moves are sent by the
  // cell buttons (ws-send), never by the form.
  document.addEventListener("submit", function (event) {
    if (event.target.closest(".race-form")) event.preventDefault();
  });

  // A marble of `colour`, cloned from the marbles the template rendered once (#race-marbles).
  function marble(colour) {
    var marbles = document.getElementById("race-marbles");
    var found = marbles && marbles.content.querySelector(".kn-c" + colour);
    return found ? found.cloneNode(true) : null;
  }

  // A replay's slider: the board, points and move number at step `this.value`
  // (data-frames: per step 81 cells, "." or a colour; data-scores: per step the points).
  document.addEventListener("input", function (event) {
    var slider = event.target;
    if (!slider.matches || !slider.matches("[data-replay-step]")) return;
    var figure = slider.closest("[data-replay]");
    if (!figure) return;
    var step = +slider.value;
    var frame = figure.getAttribute("data-frames").split("|")[step] || "";
    figure.querySelectorAll("[data-cell]").forEach(function (cell, n) {
      var colour = frame.charAt(n);
      var ball = colour && colour !== "." ? marble(colour) : null;
      if (ball) cell.setAttribute("data-colour", colour); else cell.removeAttribute("data-colour");
      cell.replaceChildren.apply(cell, ball ? [ball] : []);
    });
    figure.querySelector("[data-replay-score]").textContent =
      figure.getAttribute("data-scores").split(",")[step];
    figure.querySelector("[data-replay-at]").textContent = step;
  });
})();
