// The settings page's "Notifications in this browser": registers the service worker, subscribes with the
// site's VAPID key and posts the subscription to the site (or removes it). Shown only where the browser has
// service workers and the Push API.
(function () {
  "use strict";

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (e) { return ""; }
  }

  function keyBytes(base64url) {
    var s = base64url.replace(/-/g, "+").replace(/_/g, "/");
    s += "===".slice((s.length + 3) % 4);
    var raw = atob(s), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }
    }).then(function (r) { if (!r.ok) throw new Error(r.status); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("push-setup");
    if (!box || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
    box.hidden = false;
    var state = document.getElementById("push-state"), on = document.getElementById("push-on"),
        off = document.getElementById("push-off");

    function show(sub) {
      var denied = Notification.permission === "denied";
      state.textContent = sub ? box.dataset.onText : denied ? box.dataset.deniedText : box.dataset.offText;
      on.hidden = !!sub || denied;
      off.hidden = !sub;
    }

    var ready = navigator.serviceWorker.register(box.dataset.worker).then(function () {
      return navigator.serviceWorker.ready;
    });
    ready.then(function (reg) { return reg.pushManager.getSubscription(); }).then(show, function () { show(null); });

    on.addEventListener("click", function () {
      Notification.requestPermission().then(function (answer) {
        if (answer !== "granted") return show(null);
        return ready.then(function (reg) {
          return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
        }).then(function (sub) {
          return post(box.dataset.subscribe, sub.toJSON()).then(function () { show(sub); });
        });
      }).catch(function () { show(null); });
    });

    off.addEventListener("click", function () {
      ready.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
        if (!sub) return show(null);
        return post(box.dataset.unsubscribe, { endpoint: sub.endpoint }).then(function () {
          return sub.unsubscribe();
        }).then(function () { show(null); });
      }).catch(function () { show(null); });
    });
  });
})();
