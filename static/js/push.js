// "Notify me" on Your games (app/push): asks the browser for permission only when the player
// taps [data-push-enable], subscribes with the server's VAPID key and stores the subscription
// (POST /push/subscriptions); [data-push-disable] removes it (DELETE). The state shows on the
// button's section as data-push="on|off|blocked|unsupported".
(function () {
  "use strict";
  const root = document.querySelector("[data-push]");
  if (!root) return;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function keyBytes(text) {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  }
  function show(state) { root.dataset.push = state; }
  async function send(method, body) {
    const r = await fetch("/push/subscriptions", { method: method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body) });
    if (!r.ok && r.status !== 404) throw new Error(String(r.status));
  }
  async function current() {
    const registration = await navigator.serviceWorker.ready;
    return registration.pushManager.getSubscription();
  }
  async function enable() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") { show("blocked"); return; }
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready);
    const key = (await (await fetch("/push/key", { credentials: "same-origin" })).json()).key;
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    }
    await send("POST", subscription.toJSON());
    show("on");
  }
  async function disable() {
    const subscription = await current();
    if (subscription) {
      await send("DELETE", { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    show("off");
  }

  if (!supported) { show("unsupported"); return; }
  if (Notification.permission === "denied") show("blocked");
  else current().then((s) => show(s ? "on" : "off")).catch(() => show("off"));
  root.addEventListener("click", (event) => {
    if (event.target.closest("[data-push-enable]")) {
      event.preventDefault();
      enable().catch(() => show(Notification.permission === "denied" ? "blocked" : "off"));
    } else if (event.target.closest("[data-push-disable]")) {
      event.preventDefault();
      disable().catch(() => show("off"));
    }
  });
})();
