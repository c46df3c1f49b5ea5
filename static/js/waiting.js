// A room's "the game has already started" page (templates/rooms/gone.html) looks again by
// itself: every 5 s, while the page is in view, it asks the room's public state, and shows
// the room afresh once its game is no longer running (a fresh user's finding: the page stayed
// as it was after the game ended, and only a reload offered the next game).
(function () {
  "use strict";
  var EVERY_MS = 5000;
  function look() {
    var waits = document.querySelector("[data-waits-for-room]");
    if (!waits || document.hidden) return;
    var code = waits.getAttribute("data-waits-for-room");
    fetch("/r/" + encodeURIComponent(code) + "/state.json", { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (state && state.status !== "playing") window.location.reload();
      })
      .catch(function () {});
  }
  setInterval(look, EVERY_MS);
})();
