/* herzla's service worker: the app installs on a phone's home screen, and its shell (the style
 * sheets, the script, the icons) and the last view of each evening's score pad opened on this
 * phone stay readable without a connection.
 *
 * - Pages are asked of the network first, always: while the network is there, a page is never
 *   shown from the cache.  Only when it fails is the copy kept on this phone shown, with the
 *   page's own line (hidden while online) saying that it is the last view kept, not the
 *   evening as it is now.
 * - The copies kept are of the score pads (/evenings/ID) alone, each under its own address:
 *   no table's page (a seat's cards), no page opened with a seat's key or a token in its
 *   address, nothing of the API.
 * - Nothing but this app's own addresses is touched. */
"use strict";

var SHELL = "herzla-shell-1";
var PAGES = "herzla-pages-1";
var SHELL_FILES = ["/static/app.css", "/static/live.js", "/static/favicon.svg",
                   "/static/icon-192.png", "/static/icon-512.png", "/drawing.css"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return cache.addAll(SHELL_FILES);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n !== SHELL && n !== PAGES;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function keptPage(url) {
  return /^\/evenings\/[A-Za-z0-9_-]{1,32}$/.test(url.pathname) && url.search === "";
}

function offline(answer) {
  // the page holds its own line for this, hidden, in the page's language: shown here
  return answer.text().then(function (text) {
    return new Response(text.replace('id="offline" role="status" hidden',
                                     'id="offline" role="status"'), {
      status: 200, headers: {"Content-Type": "text/html; charset=utf-8"}});
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;
  }
  if (SHELL_FILES.indexOf(url.pathname) >= 0) {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(url.pathname);
    }));
    return;
  }
  if (request.mode !== "navigate") {
    return;
  }
  event.respondWith(fetch(request).then(function (answer) {
    if (answer.ok && keptPage(url)) {
      var copy = answer.clone();
      caches.open(PAGES).then(function (cache) { return cache.put(url.href, copy); });
    }
    return answer;
  }).catch(function (failure) {
    if (!keptPage(url)) {
      throw failure;
    }
    return caches.match(url.href, {cacheName: PAGES}).then(function (kept) {
      if (!kept) {
        throw failure;
      }
      return offline(kept);
    });
  }));
});
