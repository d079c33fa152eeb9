// Server push (docs/architecture.md, "Live pages"): a page with a [data-live] element opens that Server-Sent
// Events stream. While it is open the page's htmx poll (#game-live, #lobby-lists, #standings) makes no request:
// the server sends the game's live region as this viewer sees it ("live"), or says "look again" ("chat",
// "lobby", "tournament"). When the stream cannot be opened, drops, or the server lost its push ("down"), the
// poll goes on as before and the page connects again by itself (1 s, then doubling to 30 s). Without
// JavaScript none of this runs: a reload shows everything.
(function () {
  "use strict";
  // What a pushed fragment's forms carry instead of a CSRF token (games/views/live.py): the page's own goes there.
  var PLACEHOLDER = "herald-live-csrf";
  var POLLED = { "game-live": true, "lobby-lists": true, "standings": true };
  var source = null;
  var node = null;
  var connected = false;
  var allow = false;
  var retry = 1000;
  var timer = null;
  var refreshTimer = null;

  function host() {
    return document.querySelector("[data-live]");
  }

  function token() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  // The position the game page shows: its poll's seq and status cursor.
  function shown() {
    var live = document.getElementById("game-live");
    var src = live && live.getAttribute("hx-get");
    if (!src) return null;
    var query = new URLSearchParams(src.split("?")[1] || "");
    return { seq: parseInt(query.get("seq"), 10), v: query.get("v") || "" };
  }

  function streamUrl(el) {
    var url = el.getAttribute("data-live");
    var now = shown();
    return now ? url + "?seq=" + now.seq + "&v=" + encodeURIComponent(now.v) : url;
  }

  function swapLive(data) {
    var target = document.getElementById("game-live");
    var now = shown();
    if (!target || (now && (data.seq < now.seq || (data.seq === now.seq && data.v === now.v)))) return;
    var html = data.html.split(PLACEHOLDER).join(token());
    // herald.js keeps the focus and the ticked cards across a swap: it listens for these events.
    htmx.trigger(target, "htmx:beforeSwap", { target: target, elt: target, shouldSwap: true });
    htmx.swap(target, html, { swapStyle: "outerHTML" });
  }

  // Fetch a region the way its poll does (the request is this page's own, drawn for this viewer).
  function fetchRegion(el) {
    if (!el || !el.getAttribute("hx-get")) return;
    allow = true;
    try {
      var context = { source: el, target: el, swap: "outerHTML" };
      if (el.getAttribute("hx-select")) context.select = el.getAttribute("hx-select");
      htmx.ajax("GET", el.getAttribute("hx-get"), context);
    } finally {
      allow = false;
    }
  }

  // Many pages hear the same "look again": spread their requests over a second.
  function refreshSoon(id) {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(function () {
      fetchRegion(document.getElementById(id));
    }, 200 + Math.random() * 800);
  }

  function fallBack() {
    connected = false;
    if (source) source.close();
    source = null;
    clearTimeout(timer);
    timer = setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  }

  function connect() {
    clearTimeout(timer);
    if (source) source.close();
    source = null;
    connected = false;
    var el = host();
    node = el;
    if (!el || !window.EventSource || !window.htmx) return;
    var es = new EventSource(streamUrl(el));
    source = es;
    es.addEventListener("open", function () {
      connected = true;
      retry = 1000;
    });
    es.addEventListener("live", function (e) {
      swapLive(JSON.parse(e.data));
    });
    es.addEventListener("chat", function () {
      fetchRegion(document.getElementById("game-live"));
    });
    es.addEventListener("lobby", function () {
      refreshSoon("lobby-lists");
    });
    es.addEventListener("tournament", function () {
      refreshSoon("standings");
    });
    es.addEventListener("down", fallBack);
    es.onerror = fallBack;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (connected && !allow && elt && POLLED[elt.id]) event.preventDefault();
  });

  // A region fetched again may hold a new stream: the lobby's (data-live-renew) hears the games it now lists.
  document.addEventListener("htmx:afterSettle", function () {
    var el = host();
    if (!el || el === node) return;
    if (!node || el.hasAttribute("data-live-renew") || el.getAttribute("data-live") !== node.getAttribute("data-live")) {
      connect();
    } else {
      node = el;
    }
  });

  // Exposed for the browser tests: whether the stream is open now.
  window.heraldLive = {
    connected: function () {
      return connected;
    },
  };

  document.addEventListener("DOMContentLoaded", connect);
})();
