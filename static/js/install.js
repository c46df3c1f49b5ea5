// The installable web app (app/web/pwa.py): registers the service worker at the root scope,
// which shows push notifications and opens the room a notification names. Nothing else runs
// through it: pages load from the network as always.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  });
})();
