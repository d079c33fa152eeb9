// Tells a player whose game page is open that a move is now theirs: the tab's title starts with "(1)" and its
// icon gets a red dot while the move is owed; optionally a short sound (this browser's choice, kept in
// localStorage) and, while the tab is in the background, a browser notification (when the player allowed them).
// The page learns of the move by its poll (htmx swaps #game-live); the region says data-owed="<sentence>"
// while this viewer owes a move. Without JavaScript none of this runs, and the page works as before.
(function () {
  "use strict";
  var SOUND_KEY = "herald.sound";
  var owedBefore = null;

  function baseTitle() {
    return document.title.replace(/^\(\d+\) /, "");
  }

  function icon(owed) {
    var link = document.querySelector("link[rel=icon][data-owed-href]");
    if (!link) return;
    if (!link.dataset.plainHref) link.dataset.plainHref = link.getAttribute("href");
    link.setAttribute("href", owed ? link.dataset.owedHref : link.dataset.plainHref);
  }

  function beep() {
    var Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return;
    try {
      var ctx = new Audio();
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.4);
    } catch (e) { /* a browser that refuses sound before a click: the title still says it */ }
  }

  function notify(text) {
    if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
    try {
      var n = new Notification(text, { tag: location.pathname, icon: document.querySelector("link[rel=icon]").href });
      n.onclick = function () { window.focus(); n.close(); };
    } catch (e) { /* Chrome on Android allows notifications only from a service worker: push covers it */ }
  }

  function update() {
    var live = document.getElementById("game-live");
    if (!live) return;
    var owedText = live.getAttribute("data-owed");
    var owed = owedText !== null;
    document.title = owed ? "(1) " + baseTitle() : baseTitle();
    icon(owed);
    if (owed && owedBefore === false) {
      if (localStorage.getItem(SOUND_KEY) === "1") beep();
      notify(owedText);
    }
    owedBefore = owed;
  }

  function soundToggle() {
    var box = document.getElementById("move-sound");
    if (!box || box.dataset.ready) return;  // a swapped region brings a new box; each gets one listener
    box.dataset.ready = "1";
    box.closest("[hidden]") && box.closest("[hidden]").removeAttribute("hidden");
    box.checked = localStorage.getItem(SOUND_KEY) === "1";
    box.addEventListener("change", function () {
      localStorage.setItem(SOUND_KEY, box.checked ? "1" : "0");
      if (box.checked) beep();
    });
  }

  document.addEventListener("DOMContentLoaded", function () { update(); soundToggle(); });
  document.addEventListener("htmx:afterSettle", function () { update(); soundToggle(); });
})();
