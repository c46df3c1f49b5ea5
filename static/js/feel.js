// Play feel: the name counter, the second tap before scoring 0, the result brought into view
// at the end of a game, the turn panel brought into view when a turn starts, and the sticky
// header's offsets (a game's own feel is in static/js/games/<game>.js).
(function () {
  "use strict";

  // ----- name inputs: "25/24" and a message while the name is too long -----------------------
  function nameLength(value) {
    var text = (value || "").normalize ? value.normalize("NFC") : value || "";
    return Array.from(text.trim()).length;  // code points, as the server counts them
  }
  function checkName(input) {
    var count = document.querySelector("[data-name-count='" + input.id + "']");
    var error = document.querySelector("[data-name-too-long='" + input.id + "']");
    if (!count) return;
    var max = parseInt(count.getAttribute("data-max"), 10);
    var n = nameLength(input.value);
    var over = n > max;
    count.textContent = n + "/" + max;
    count.classList.toggle("over", over);
    if (error) error.hidden = !over;
    input.setCustomValidity(over && error ? error.textContent : "");
    if (over) input.setAttribute("aria-invalid", "true");
    else if (input.getAttribute("aria-invalid") === "true" && !input.hasAttribute("data-server-error")) {
      input.removeAttribute("aria-invalid");
    }
  }
  document.addEventListener("input", function (e) {
    if (e.target.matches && e.target.matches("[data-name-input]")) checkName(e.target);
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-name-input]").forEach(checkName);
  });

  // ----- scoring 0 takes a second tap ------------------------------------------------------
  // The second tap counts only once the button is armed (data-armed), SECOND_TAP_MS after the
  // first: a double tap (two clicks at once) is one tap, which only asks (found by a fresh-user
  // trial: a double click scored 0 unasked).
  var SECOND_TAP_MS = 400;
  var armed = null;
  function disarm() {
    if (!armed) return;
    armed.classList.remove("confirm");
    armed.textContent = armed.getAttribute("data-points");
    armed.removeAttribute("data-armed");
    armed = null;
  }
  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-zero-confirm]");
    if (btn && btn === armed && document.contains(btn)) {
      if (btn.getAttribute("data-armed") === "true") { armed = null; return; }  // 2nd tap: send
      e.preventDefault();  // the first tap, doubled: still asking
      e.stopImmediatePropagation();
      return;
    }
    disarm();
    if (!btn) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    armed = btn;
    setTimeout(function () {
      if (armed === btn) btn.setAttribute("data-armed", "true");
    }, SECOND_TAP_MS);
    btn.classList.add("confirm");
    btn.textContent = btn.getAttribute("data-zero-confirm");
  }, true);

  // ----- the end of a game: the result comes into view ------------------------------------
  var lastStatus = null;
  function showResult() {
    var result = document.querySelector("#live [data-result]");
    if (!result) return;
    result.scrollIntoView({ block: "start", behavior: "auto" });
    var title = result.querySelector("h2");
    // the focus goes to the title for screen readers, without a ring for the eye (a fresh
    // user's finding: a blue box round "Final ranking" on a spectator's page)
    if (title) title.focus({ preventScroll: true, focusVisible: false });
    result.classList.add("arrived");
  }

  // ----- a new turn brings its panel into view, below the sticky header --------------------
  // Only when the panel is not already fully in view; the page's scroll-padding-top (feel.css)
  // is the header's height, so the panel never lands under it.
  var myTurn = null;
  function headerBottom() {
    var bar = document.querySelector(".topbar");
    return bar ? bar.getBoundingClientRect().bottom : 0;
  }
  function showTurn() {
    var panel = document.querySelector("#live .turn[data-my-turn]");
    var mine = !!(panel && panel.getAttribute("data-my-turn") === "true");
    // also the first turn after Start (no panel before: a fresh user tapped Start at the
    // bottom of a phone's lobby and the Knister dice stayed off-screen)
    if (mine && myTurn !== true) {
      var box = panel.getBoundingClientRect();
      if (box.top < headerBottom() || box.bottom > window.innerHeight) {
        panel.scrollIntoView({ block: "start", behavior: "auto" });
      }
    }
    myTurn = panel ? mine : null;
  }

  // ----- a sheet's header sticks below a sticky turn panel (the Kniffel family's dice) ------
  function stickyOffsets() {
    var bar = document.querySelector(".topbar");
    var turn = document.querySelector("#live .turn");
    var top = bar ? bar.offsetHeight : 0;
    var sticky = turn && getComputedStyle(turn).position === "sticky";
    document.documentElement.style.setProperty("--topbar-h", top + "px");
    document.documentElement.style.setProperty("--sheet-top", (top + (sticky ? turn.offsetHeight : 0)) + "px");
  }
  window.addEventListener("resize", stickyOffsets);

  // ----- a game that starts shows its beginning ------------------------------------------
  // Start is tapped at the foot of the lobby: without this the page kept that scroll offset,
  // the middle of the new score sheet (a fresh user's finding: Ones to Sixes off screen, and
  // on a phone the sticky dice over the sheet's first rows). Everyone's page goes to the top of
  // the game area, below the sticky header (scroll-padding-top, feel.css).
  function showStart() {
    var game = document.querySelector("#live [data-game]");
    if (game) game.scrollIntoView({ block: "start", behavior: "auto" });
  }

  // The socket's first update (the hello's catch-up) may change what stands above the table
  // (a seat's countdown gone, a player arrived): a page brought to the table on opening is
  // brought there again then, unless the player has scrolled, tapped or typed since.
  var startShownOnOpen = false;
  ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (type) {
    window.addEventListener(type, function () { startShownOnOpen = false; },
                            { capture: true, passive: true });
  });

  function afterUpdate(initial) {
    var live = document.getElementById("live");
    var status = live && live.getAttribute("data-status");
    if (status === "finished" && (initial || lastStatus === "playing")) showResult();
    if (status === "playing" && !initial && lastStatus && lastStatus !== "playing") showStart();
    if (status === "playing" && !initial && startShownOnOpen) showStart();
    startShownOnOpen = false;
    // a page opened (or reloaded) during a game shows the table, not the invitation and the
    // rules above it (a fresh user's finding: on a phone the race showed four rows of its
    // board); a page the browser brings back scrolled keeps its place
    if (status === "playing" && initial && window.scrollY === 0 && !window.location.hash) {
      showStart();
      startShownOnOpen = true;
    }
    if (status) lastStatus = status;
    stickyOffsets();
    showTurn();
    if (armed && !document.contains(armed)) armed = null;
  }
  document.addEventListener("htmx:wsAfterMessage", function () { afterUpdate(false); });
  document.addEventListener("DOMContentLoaded", function () { afterUpdate(true); });
})();
