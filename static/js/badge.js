// The header's count of games waiting for the player's turn ([data-your-turn-count], read
// with the page) and the installed app's badge (Badging API; browsers without it: none).
// On a turn-based room's page the count follows the room live: its turn panel
// ([data-my-turn]) adds this room while it waits for the player (a fresh user's finding:
// the count stayed as the page was loaded while turns came and went).
(function () {
  "use strict";
  const count = document.querySelector("[data-your-turn-count]");
  if (!count) return;
  const badging = "setAppBadge" in navigator && "clearAppBadge" in navigator;

  function show(n) {
    count.dataset.yourTurnCount = String(n);
    count.hidden = n <= 0;
    const number = count.querySelector("[data-turn-count-number]");
    const label = count.querySelector("[data-turn-count-label]");
    if (number) number.textContent = String(n);
    if (label) label.textContent = " " + (n === 1 ? count.dataset.one : count.dataset.many);
    if (!badging) return;
    const done = n > 0 ? navigator.setAppBadge(n) : navigator.clearAppBadge();
    if (done && done.catch) done.catch(() => {});  // not installed, or not allowed: no badge
  }
  function mineHere() {
    const panel = document.querySelector("#live .turn[data-my-turn]");
    return !!panel && panel.getAttribute("data-my-turn") === "true";
  }

  const loaded = parseInt(count.dataset.yourTurnCount, 10) || 0;
  let others = null;  // the games waiting elsewhere, on a turn-based room's page
  document.addEventListener("DOMContentLoaded", function () {
    if (document.querySelector(".room-page[data-pace='turns']")) {
      others = Math.max(0, loaded - (mineHere() ? 1 : 0));
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (others !== null) show(others + (mineHere() ? 1 : 0));
  });

  // Elsewhere (no turn-based room's socket on this page) the count is asked for again every
  // POLL_MS while the page is shown, and at once when it is shown again (a fresh user's
  // finding: a page left open kept the count it was loaded with).
  const POLL_MS = 60000;
  function refresh() {
    if (others !== null || document.visibilityState !== "visible") return;
    fetch("/games/count", { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => { if (body && typeof body.count === "number") show(body.count); })
      .catch(() => {});  // offline: the next look tries again
  }
  document.addEventListener("visibilitychange", refresh);
  setInterval(refresh, POLL_MS);
  show(loaded);
})();
