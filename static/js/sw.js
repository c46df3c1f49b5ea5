// Knobel's service worker (served at /sw.js: the root scope; app/web/pwa.py). It shows the
// pushes the server sends (app/push: title, body, url, tag, optional count) and opens or
// focuses the page a notification names. It does not touch page loads.
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  const shown = self.registration.showNotification(data.title || "Knobel", {
    body: data.body || "",
    tag: data.tag || undefined,
    icon: "/static/icons/icon-192.png",
    data: { url: typeof data.url === "string" ? data.url : "/" },
  });
  const badge = (typeof data.count === "number" && self.navigator.setAppBadge)
    ? self.navigator.setAppBadge(data.count).catch(function () {}) : Promise.resolve();
  event.waitUntil(Promise.all([shown, badge]));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const wanted = new URL((event.notification.data && event.notification.data.url) || "/",
                         self.location.origin);
  if (wanted.origin !== self.location.origin) return;  // only our own pages
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (pages) {
      for (const page of pages) {
        if (page.url === wanted.href && "focus" in page) return page.focus();
      }
      return self.clients.openWindow(wanted.href);
    }));
});
