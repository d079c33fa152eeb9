// Keeps a keyboard user's place when htmx swaps a region of the page (a move's
// answer, a poll): the control that had the focus is found again in the new
// region (same tag, name and value, or same text), else the game's status
// (whose turn it is now), so Tab goes on from where the player was instead of
// from the top of the page. Never another button: after "Play all Treasures"
// the board's first button is "End turn", and a second Enter would end the
// turn without buying.
(function () {
  "use strict";
  var wanted = null;

  function describe(el) {
    return { tag: el.tagName, name: el.getAttribute("name"), value: el.getAttribute("value"),
             text: (el.textContent || "").trim() };
  }

  function find(want) {
    var all = document.querySelectorAll(want.tag.toLowerCase());
    var byText = null;
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      if (el.disabled) continue;
      if (want.name !== null && el.getAttribute("name") === want.name && el.getAttribute("value") === want.value) {
        return el;
      }
      if (!byText && want.text && (el.textContent || "").trim() === want.text) byText = el;
    }
    return byText || document.getElementById("game-status");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = document.activeElement;
    var target = event.detail.target;
    // A second swap before the first one settled (the move's answer, then its push) finds the focus
    // already gone with the first: it must not forget what the first swap is to restore.
    if (el && el !== document.body && target && target.contains(el)) wanted = describe(el);
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!wanted) return;
    var el = document.activeElement;
    if (!el || el === document.body) {
      var again = find(wanted);
      // The same control found again stays where the eye is; the status, when the pressed control is
      // gone (a Buy that ended the turn), is scrolled into view, or the focus ring would be off-screen.
      if (again) again.focus({ preventScroll: again.id !== "game-status" });
    }
    wanted = null;
  });

  // Sign-up: the browser's time zone goes with the form (a hidden field), so dates are the player's own from the
  // start. Without JavaScript the field stays empty and the account keeps UTC, changeable in the settings.
  document.addEventListener("DOMContentLoaded", function () {
    var fields = document.querySelectorAll("input[data-browser-time-zone]");
    if (!fields.length || !window.Intl) return;
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    for (var i = 0; i < fields.length; i++) if (!fields[i].value) fields[i].value = zone;
  });

  // The cards a player has ticked survive a redraw of the same question: the poll redraws the board at
  // every move, and in some games (rules versions) others play on while a player chooses.
  var ticked = null;

  function choiceKey(form) {
    var head = document.getElementById("h-decision");
    var legend = form.querySelector("legend");
    var values = Array.prototype.map.call(form.querySelectorAll("input[type=checkbox]"), function (box) {
      return box.value;
    });
    return [head ? head.textContent.trim() : "", legend ? legend.textContent.trim() : ""].concat(values).join("\u001f");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var form = target && target.querySelector ? target.querySelector(".decision form.choices") : null;
    ticked = null;
    if (!form) return;
    // A form sent (htmx marks it with htmx-request until its answer is drawn) has been answered: the next
    // question may look the same (a card played twice, asking over a hand drawn back alike) and starts unticked.
    // Unless the answer was refused (a 4xx drawn with its reason): the same question is asked again.
    var sent = event.detail.requestConfig && event.detail.requestConfig.elt;
    var xhr = event.detail.xhr;
    if (sent && form.contains(sent) ? !(xhr && xhr.status >= 400) : form.classList.contains("htmx-request")) return;
    var on = [];
    form.querySelectorAll("input[type=checkbox]").forEach(function (box, i) {
      if (box.checked) on.push(i);
    });
    if (on.length) ticked = { key: choiceKey(form), on: on };
  });

  // Restored on afterSwap, which htmx fires in the same task as the swap: on afterSettle (20 ms later) a second
  // swap (the push and the poll answering the same move) could come between, find the new boxes not yet ticked
  // and forget what was ticked.
  document.addEventListener("htmx:afterSwap", function () {
    if (!ticked) return;
    var form = document.querySelector(".decision form.choices");
    if (form && choiceKey(form) === ticked.key) {
      var boxes = form.querySelectorAll("input[type=checkbox]");
      ticked.on.forEach(function (i) {
        if (boxes[i]) boxes[i].checked = true;
      });
    }
    ticked = null;
  });

  // A form sent back with errors (sign-up, sign-in, settings): start at its first invalid field, else at its
  // errors, rather than at the top of the page.
  document.addEventListener("DOMContentLoaded", function () {
    var bad = document.querySelector("main [aria-invalid=true]") || document.querySelector("main .errorlist");
    if (!bad) return;
    if (!bad.matches("input, select, textarea")) bad.setAttribute("tabindex", "-1");
    bad.focus();
  });
})();

// The new-game form: "Picked: N of 10" counts the ticked kingdom cards as one picks them (the number is also
// drawn by a CSS counter, but a screen reader is told only through this text and its aria-live paragraph).
(function () {
  "use strict";
  function count() {
    var out = document.querySelector("[data-kingdom-count]");
    if (!out) return;
    out.textContent = String(document.querySelectorAll(".kingdom-pick input[name=cards]:checked").length);
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "cards") count();
  });
  document.addEventListener("DOMContentLoaded", count);
})();
