// Talk at the table (docs/rules.md, "Talk at the table"): reactions shown for a moment on
// the sender's seat, the chat's input emptied once its line is taken, the chat's newest
// line in view. The server sends every part; this only places and tidies them.
(function () {
  "use strict";

  var SHOWN_MS = 3500;
  var pendingChat = null;  // the action id of the chat line this page sent last

  function showReaction(flash) {
    var seat = flash.getAttribute("data-seat");
    var bubble = flash.querySelector(".reaction-bubble");
    var place = seat && document.querySelector('#seats [data-seat="' + seat + '"]');
    if (!bubble || !place) return;
    var shown = bubble.cloneNode(true);
    shown.setAttribute("aria-hidden", "true");  // #reaction-flash reads it out once
    var old = place.querySelector(".reaction-bubble");
    if (old) old.remove();
    place.appendChild(shown);
    setTimeout(function () { shown.remove(); }, SHOWN_MS);
  }

  function scrollChat() {
    var log = document.querySelector("#chat-log .chat-lines");
    if (log) log.scrollTop = log.scrollHeight;
  }

  // After each socket message: what it replaced is a new element (an update swaps by id).
  var seen = { flash: null, log: null };
  document.addEventListener("htmx:wsAfterMessage", function () {
    var flash = document.getElementById("reaction-flash");
    if (flash && flash !== seen.flash) {
      seen.flash = flash;
      showReaction(flash);
    }
    var log = document.getElementById("chat-log");
    if (log && log !== seen.log) {
      seen.log = log;
      scrollChat();
    }
    var ack = document.getElementById("room-ack");
    if (pendingChat && ack && ack.getAttribute("data-ack") === pendingChat) {
      pendingChat = null;
      var form = document.querySelector("#talk-controls .chat-form");
      if (form) form.reset();
    }
  });

  document.addEventListener("htmx:wsAfterSend", function (e) {
    try {
      var sent = JSON.parse(e.detail.message);
      if (sent.type === "chat") pendingChat = sent.action_id;
    } catch (err) { /* not ours */ }
  });

  document.addEventListener("DOMContentLoaded", function () {
    seen.flash = document.getElementById("reaction-flash");
    seen.log = document.getElementById("chat-log");
    scrollChat();
  });
})();
