/* herzla's pages, kept up to date while several phones share an evening or a table.
 *
 * A page that shows a document names, on its <body>, the address of the document's revision
 * (data-live), the revision it shows (data-revision) and its own address (data-page). Every
 * second, while the page is in view, this asks for the revision (a few bytes, or a bodiless
 * 304 while it is the one shown; at once when the page comes back into view); when it has
 * grown, it fetches the page again and puts in what changed: the whole page, or, when the
 * person has begun to fill in a form (or the form holds an entry kept back), every part but
 * that form, with a line saying the evening changed. The page works without this script: it
 * only spares a reload. Nothing is fetched from anywhere but this app.
 *
 * Also: a <select data-autosubmit> sends its form when changed (the desk's choice of contract
 * shows that contract's tally at once), so the button beside it, for a page without this
 * script, is hidden. */
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    var button = select.form && select.form.querySelector("[data-hide-live]");
    if (button) {
      button.hidden = true;
    }
    select.addEventListener("change", function () { select.form.submit(); });
  });
  // the app installs on a phone (static/sw.js: its shell and the last view of an evening
  // readable without a connection; browsers offer it over HTTPS and on this machine alone)
  if (navigator.serviceWorker && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {});
  }
  var body = document.body;
  var revisionUrl = body.getAttribute("data-live");
  if (!revisionUrl || !window.fetch || !window.DOMParser) {
    return;
  }
  var shown = body.getAttribute("data-revision");
  var pageUrl = body.getAttribute("data-page") || window.location.pathname;
  var PERIOD = 1000;
  var touched = false;
  var busy = false;

  document.addEventListener("input", function () { touched = true; }, true);
  document.addEventListener("change", function () { touched = true; }, true);

  function held(form) {
    return touched || (form && form.hasAttribute("data-kept"));
  }

  function note(text) {
    var line = document.getElementById("live-note");
    if (line) {
      line.textContent = text;
      line.hidden = false;
    }
  }

  function replaceParts(fresh) {
    var main = document.querySelector("main");
    var keep = document.querySelector("[data-live-form]");
    var form = keep ? keep.querySelector("form[data-kept]") || keep.querySelector("form") : null;
    if (!held(form)) {
      main.replaceWith(document.adoptNode(fresh.querySelector("main")));
      return;
    }
    var anchor = keep;
    fresh.querySelectorAll("main > [data-live-part]").forEach(function (part) {
      var old = part.id ? document.getElementById(part.id) : null;
      var node = document.adoptNode(part);
      if (old) {
        old.replaceWith(node);
      } else {
        anchor.after(node);
      }
      anchor = node;
    });
    note(body.getAttribute("data-changed-note") || "");
  }

  function refresh(revision) {
    return fetch(pageUrl, {credentials: "same-origin", cache: "no-store"})
      .then(function (answer) {
        if (!answer.ok) {
          throw new Error("page " + answer.status);
        }
        return answer.text();
      })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, "text/html");
        var title = fresh.querySelector("title");
        if (title) {
          document.title = title.textContent;
        }
        replaceParts(fresh);
        drawn = Date.now();
        shown = String(revision);
        body.setAttribute("data-revision", shown);
      });
  }

  function poll() {
    if (busy || document.hidden) {
      return;
    }
    busy = true;
    // a conditional poll: the revision shown as the tag, answered 304 (no body) while
    // nothing changed
    fetch(revisionUrl, {credentials: "same-origin", cache: "no-store",
                        headers: {"Accept": "application/json",
                                  "If-None-Match": '"' + shown + '"'}})
      .then(function (answer) {
        if (answer.status === 304) {
          return null;
        }
        if (answer.status === 404) {
          note(body.getAttribute("data-deleted-note") || "");
          window.clearInterval(timer);
          return null;
        }
        return answer.ok ? answer.json() : null;
      })
      .then(function (got) {
        var tag = got ? String(got.tag || got.revision) : shown;
        if (tag !== shown) {
          return refresh(tag);
        }
        return null;
      })
      .catch(function () { /* the server is away a moment: ask again next time */ })
      .then(function () { busy = false; });
  }

  var timer = window.setInterval(poll, PERIOD);
  // the countdowns (data-countdown: seconds from when the page was drawn) tick down
  var drawn = Date.now();
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (node) {
      var left = Math.max(0, Number(node.getAttribute("data-countdown")) -
                             Math.floor((Date.now() - drawn) / 1000));
      var seconds = left % 60;
      node.textContent = Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
    });
  }
  window.setInterval(tick, 1000);
  // a phone woken from sleep (or a tab shown again) asks at once
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      poll();
    }
  });
})();
