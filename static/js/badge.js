// The installed app's badge (Badging API) shows how many games wait for the player's turn:
// the header's [data-your-turn-count] carries the number on every page that read it (a page
// without the element leaves the badge as it is). Browsers without the API do nothing.
(function () {
  "use strict";
  const count = document.querySelector("[data-your-turn-count]");
  if (!count || !("setAppBadge" in navigator) || !("clearAppBadge" in navigator)) return;
  const n = parseInt(count.dataset.yourTurnCount, 10) || 0;
  const done = n > 0 ? navigator.setAppBadge(n) : navigator.clearAppBadge();
  if (done && done.catch) done.catch(() => {});  // not installed, or not allowed: no badge
})();
