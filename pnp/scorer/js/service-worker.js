// pnp scorer: keeps GAME-scorer.html for use offline, refreshed when online.
var CACHE = "pnp-scorer-GAME";
var FILES = ["GAME-scorer.html", "GAME-scorer.webmanifest"];
self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FILES); }));
  self.skipWaiting();
});
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", function (event) {
  if (event.request.method !== "GET") return;
  event.respondWith(fetch(event.request).then(function (response) {
    var copy = response.clone();
    if (response.ok) caches.open(CACHE).then(function (cache) { cache.put(event.request, copy); });
    return response;
  }).catch(function () {
    return caches.match(event.request, {ignoreSearch: true});
  }));
});
