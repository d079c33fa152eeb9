// The settings page's "Notifications in this browser": registers the service worker, subscribes with the
// site's VAPID key and posts the subscription to the site (or removes it). Shown only where the browser has
// service workers and the Push API.
// On every signed-in page (base.html's sign-out form carries the addresses): signing out unsubscribes this
// browser, so the next person here gets none of this account's notifications; and once per tab and account,
// a browser subscription the site says is not this account's (left by someone who never signed out here) is
// dropped (correspondence/push.py, subscription_claim).
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

  // Settles once the page has asked whether this browser's subscription is this account's (see below).
  var checked = Promise.resolve();

  function pushable() {
    return "serviceWorker" in navigator && "PushManager" in window;
  }

  // This browser's subscription under the site's worker, if it has one (registers nothing).
  function currentSubscription(form) {
    return navigator.serviceWorker.getRegistration(form.dataset.pushWorker).then(function (reg) {
      return reg ? reg.pushManager.getSubscription() : null;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-push-signout") || form.dataset.pushDone || !pushable()) return;
    event.preventDefault();
    var finished = false;
    function signOut() {
      if (finished) return;
      finished = true;
      form.dataset.pushDone = "1";
      form.submit();
    }
    setTimeout(signOut, 2000);  // a slow push service must not keep anyone signed in
    currentSubscription(form).then(function (sub) {
      if (!sub) return;
      return post(form.dataset.pushUnsubscribe, { endpoint: sub.endpoint }).catch(function () {}).then(function () {
        return sub.unsubscribe();
      });
    }).catch(function () {}).then(signOut);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-push-signout]");
    if (!form || !pushable()) return;
    var key = "herald-push-checked-" + form.dataset.pushUser;
    try { if (sessionStorage.getItem(key)) return; } catch (e) { return; }
    checked = currentSubscription(form).then(function (sub) {
      if (!sub) return;
      return fetch(form.dataset.pushCheck, {
        method: "POST", credentials: "same-origin", body: JSON.stringify({ endpoint: sub.endpoint }),
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }
      }).then(function (r) {
        if (r.status === 404) return sub.unsubscribe();
      });
    }).then(function () {
      try { sessionStorage.setItem(key, "1"); } catch (e) { /* private mode: ask again next page */ }
    }).catch(function () {});
  });

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
    checked.then(function () { return ready; }).then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(show, function () { show(null); });

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
