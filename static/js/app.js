// Knobel's own small scripts; everything else is htmx and its ws extension.
(function () {
  "use strict";

  // Reconnect quickly after an outage: 0.5..4 s, never the extension's 64 s maximum.
  function reconnectDelay(retry) {
    var max = Math.min(4000, 500 * Math.pow(2, retry));
    return max / 2 + Math.random() * max / 2;
  }
  if (window.htmx) htmx.config.wsReconnectDelay = reconnectDelay;

  // A form refused and shown again (a bad name, a full room): the address bar shows the
  // form's page, not the POST address, so a reload asks nothing and opens the page
  // (app/web/form_urls.py: page_address).
  var pageAddress = document.querySelector("meta[name=knobel-page-address]");
  if (pageAddress && window.history && history.replaceState) {
    history.replaceState(history.state, "", pageAddress.getAttribute("content"));
  }

  // What each game adds (static/js/games/<game>.js, loaded by the pages of its rooms only):
  // ``focusKeys``, the attributes naming its controls (the focus comes back to the same one
  // after an update); ``playable``, selectors of its controls that play (the focus may go
  // there when the control it had is gone); ``moves``, selectors of its controls whose send is
  // a move (the page shows "sending" until the answer). This file names no game.
  var games = window.knobelGames = { focusKeys: [], playable: [], moves: [] };
  // A game's controls named by the attribute ``attr`` (its cells, boxes...): kept focused across
  // updates, played, and sent as moves.
  games.register = function (attr) {
    games.focusKeys.push(attr);
    games.playable.push("button[" + attr + "]");
    games.moves.push("[" + attr + "]");
  };

  // An id for every action sent over the room socket, so a repeated send is applied once.
  function newId() {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  // The room version this page shows: the marker #live-version, which every update carries
  // (an update may replace only some parts of #live, never #live itself).
  function liveVersion() {
    var marker = document.getElementById("live-version") || document.getElementById("live");
    var v = marker ? parseInt(marker.getAttribute("data-version"), 10) : NaN;
    return isNaN(v) ? -1 : v;
  }

  // Keep #live's data-version / data-status (used by styles and tests) in step with it.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var marker = document.getElementById("live-version");
    var live = document.getElementById("live");
    if (!marker || !live) return;
    ["data-version", "data-status"].forEach(function (name) {
      var value = marker.getAttribute(name);
      if (value !== null && live.getAttribute(name) !== value) live.setAttribute(name, value);
    });
  });

  // A second tap on Roll right after the first would roll again on the fresh page (the new
  // Roll button is drawn under the finger). A Roll tap is ignored when the last thing this page
  // sent was a roll (a hold in between means the next roll is meant) and it comes within 600 ms
  // of that roll being sent or of the first update after it being drawn: the window counts from
  // the fresh button, so a slow answer does not let the double tap's second tap through.
  var DOUBLE_TAP_MS = 600;
  var lastSent = { roll: false, at: 0, drawn: 0 };
  document.addEventListener("click", function (e) {
    var roll = e.target.closest && e.target.closest("[data-action=roll]");
    if (!roll || !lastSent.roll) return;
    var now = Date.now();
    if (now - lastSent.at < DOUBLE_TAP_MS || now - lastSent.drawn < DOUBLE_TAP_MS) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);
  document.addEventListener("htmx:wsConfigSend", function (e) {
    var elt = e.target;
    lastSent = { roll: !!(elt && elt.matches && elt.matches("[data-action=roll]")),
                 at: Date.now(), drawn: 0 };
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (lastSent.roll && !lastSent.drawn) lastSent.drawn = Date.now();
  });

  // hx-confirm guards htmx requests, not ws-send: ask here, before the ws extension sees the
  // click (capture phase), and swallow the click when the player cancels.
  document.addEventListener("click", function (e) {
    var elt = e.target.closest && e.target.closest("[ws-send][hx-confirm]");
    if (elt && !window.confirm(elt.getAttribute("hx-confirm"))) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);

  // What every action is decided on: the room version, the game number and the game's own,
  // as the server put them on the marker with the state this page shows. The server refuses an action whose basis is no longer current.
  function liveBasis() {
    var marker = document.getElementById("live-version");
    try {
      return JSON.parse((marker && marker.getAttribute("data-basis")) || "{}");
    } catch (err) {
      return {};
    }
  }

  // A room action decided on the room version (Start, Play again, Add a bot...: the page's
  // data-once-actions, from app/rooms/rules.py) sent again while the page still shows the
  // version it was first sent at is the same tap repeated: dropped, as the first is on its
  // way (the server would refuse the second as stale, with an alert). After 3 s, or on a new
  // socket, a repeat goes out (the first may have been lost with the connection). The same
  // tap again (the same values: a bot of the same level...) within DOUBLE_TAP_MS of the first
  // is a double tap even when the answer came in between (a fresh user's finding: two taps
  // 0.23 s apart on "Add a bot" added two bots); other values are a new decision.
  var sentOnce = {};  // type -> {version, at, values}
  document.addEventListener("htmx:wsOpen", function () { sentOnce = {}; });
  document.addEventListener("htmx:wsConfigSend", function (e) {
    var page = e.target.closest && e.target.closest("[data-once-actions]");
    var type = e.detail.parameters.type;
    if (!page || (" " + page.getAttribute("data-once-actions") + " ").indexOf(" " + type + " ") < 0) return;
    var version = liveVersion(), sent = sentOnce[type], now = Date.now();
    var values = JSON.stringify(e.detail.parameters);
    if (sent && ((sent.version === version && now - sent.at < 3000) ||
                 (sent.values === values && now - sent.at < DOUBLE_TAP_MS))) {
      e.preventDefault();
      return;
    }
    sentOnce[type] = { version: version, at: now, values: values };
  });

  // This page's own actions not yet answered (action id -> when sent). A room action decided
  // on the room version (a once action) sent while one is unanswered waits for that answer
  // and goes out decided on the version it made: the page's own change never makes its next
  // tap stale (a host who changes an option and taps Start at once was refused, "the table
  // changed"). An answer that never comes (a lost socket) stops counting after 5 s.
  var unanswered = {}, held = [], answeredAt = -1;
  var ANSWER_WAIT_MS = 5000;
  function waiting() {
    var now = Date.now();
    Object.keys(unanswered).forEach(function (id) {
      if (now - unanswered[id] > ANSWER_WAIT_MS) delete unanswered[id];
    });
    return Object.keys(unanswered).length > 0 || liveVersion() < answeredAt;
  }
  function isOnceAction(elt, type) {
    var page = elt && elt.closest && elt.closest("[data-once-actions]");
    return !!page && (" " + page.getAttribute("data-once-actions") + " ").indexOf(" " + type + " ") >= 0;
  }
  function holdBehindOwn(e, params, own) {
    if (!isOnceAction(e.target, params.type) || (!held.length && !waiting())) return false;
    e.preventDefault();
    var trigger = e.detail.triggeringEvent;
    if (trigger && trigger.type === "submit") trigger.preventDefault();
    held.push({ params: params, own: own, elt: e.target, socket: e.detail.socketWrapper });
    setTimeout(releaseHeld, ANSWER_WAIT_MS + 100);
    return true;
  }
  function releaseHeld() {
    while (held.length && !waiting()) {
      var item = held.shift();
      var params = item.params, basis = liveBasis();
      Object.keys(basis).forEach(function (key) {
        if (item.own.indexOf(key) < 0) params[key] = basis[key];
      });
      params.version = liveVersion();
      unanswered[params.action_id] = Date.now();
      item.socket.send(JSON.stringify(params), item.elt);
    }
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    var ack = document.getElementById("room-ack");
    var error = document.getElementById("room-error");
    var id = ack && ack.getAttribute("data-ack");
    if (id && unanswered[id]) {
      delete unanswered[id];
      answeredAt = Math.max(answeredAt, parseInt(ack.getAttribute("data-version"), 10) || -1);
    }
    id = error && error.getAttribute("data-action-id");
    if (id) delete unanswered[id];
    releaseHeld();
  });
  document.addEventListener("htmx:wsOpen", function () {
    unanswered = {};
    answeredAt = -1;
    held = [];  // a new socket: the page catches up first; the player taps again
  });

  document.addEventListener("htmx:wsConfigSend", function (e) {
    if (e.defaultPrevented) return;
    var params = e.detail.parameters;
    var basis = liveBasis(), own = Object.keys(params);
    Object.keys(basis).forEach(function (key) {
      if (!(key in params)) params[key] = basis[key];  // a button's own value wins
    });
    params.action_id = newId();
    params.version = liveVersion();
    // Pass and play: a game action sent while the page fills in for a seat without a phone
    // names that seat (the server allows it from the host's device only).
    var acting = document.querySelector("#acting-for[data-acting-seat]");
    var elt0 = e.target;
    if (acting && elt0 && elt0.closest && elt0.closest("#live [data-game]") && !("seat" in params)) {
      params.seat = parseInt(acting.getAttribute("data-acting-seat"), 10);
    }
    e.detail.headers = null; // the server ignores them; keep messages small
    var elt = e.target;
    if (holdBehindOwn(e, params, own)) return;
    unanswered[params.action_id] = Date.now();
    var moves = ["[data-action=roll]", "[data-enter-sum]", "[data-action=enter-dice]"].concat(games.moves);
    if (elt && elt.matches && elt.matches(moves.join(", "))) {
      document.body.classList.add("sending");
    }
  });

  // The browser knows before the socket does that the network is gone (a phone between
  // networks keeps a dead socket open for long): say so at once, and reconnect (a fresh
  // socket, whose hello catches the page up) as soon as the network is back.
  var liveSocket = null;
  window.addEventListener("offline", function () {
    if (!liveSocket) return;
    document.body.classList.add("offline");
    document.body.classList.remove("online", "sending");
  });
  window.addEventListener("online", function () {
    if (liveSocket) liveSocket.reconnect();
  });

  // The ws extension reconnects by itself only after closes 1006, 1011, 1012 and 1013; every
  // other close by the server (1009 message too big, 1008 refused, 1000, 1001, a proxy's own
  // code) would leave the page frozen. Those reconnect here, with the same capped back-off
  // (counted on while each socket closes within 10 s of opening, so a server that keeps
  // refusing is asked at most every 4 s); the new socket's hello catches the page up
  // (docs/architecture.md, "Reconnecting").
  var SELF_RECONNECTING = [1006, 1011, 1012, 1013];
  var ownRetries = 0, ownTimer = null, openedAt = 0, leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });
  document.addEventListener("htmx:wsClose", function (e) {
    var code = e.detail && e.detail.event ? e.detail.event.code : 1006;
    var wrapper = e.detail && e.detail.socketWrapper;
    if (leaving || !wrapper || SELF_RECONNECTING.indexOf(code) >= 0 || ownTimer) return;
    if (!document.body.contains(e.target)) return;  // the socket's element left the page
    if (Date.now() - openedAt > 10000) ownRetries = 0;
    ownTimer = setTimeout(function () {
      ownTimer = null;
      ownRetries += 1;
      wrapper.reconnect();
    }, reconnectDelay(ownRetries));
  });

  document.addEventListener("htmx:wsOpen", function (e) {
    openedAt = Date.now();
    liveSocket = e.detail.socketWrapper;
    document.body.classList.remove("offline");
    document.body.classList.add("online");
    e.detail.socketWrapper.sendImmediately(
      JSON.stringify({ type: "hello", version: liveVersion(), own: ownParts() })
    );
  });

  document.addEventListener("htmx:wsClose", function () {
    document.body.classList.add("offline");
    document.body.classList.remove("online", "sending");
  });

  // Keyboard players keep their place: a live update replaces the part holding the focused
  // control (a die, a box, a cell, Roll); afterwards the same control, or else the first
  // control of the same part, gets the focus back instead of the page's start.
  var focusKey = null;
  function keyOf(el) {
    if (!el || el === document.body || !el.closest("#live")) return null;
    var keys = ["data-die"].concat(games.focusKeys, ["data-action"]);
    for (var i = 0; i < keys.length; i++) {
      var name = keys[i];
      if (el.hasAttribute(name)) {
        var sel = "[" + name + '="' + el.getAttribute(name) + '"]';
        if (el.hasAttribute("data-column")) sel += '[data-column="' + el.getAttribute("data-column") + '"]';
        return { sel: sel, part: idOf(el.parentElement), region: regionOf(el) };
      }
    }
    return { sel: el.id ? "#" + el.id : null, part: idOf(el.parentElement), region: regionOf(el) };
  }
  function idOf(el) {  // the nearest element around (an offer's own id is replaced with it)
    var part = el && el.closest("#live [id]");
    return part && part.id;
  }
  function regionOf(el) {  // e.g. the score sheet: focusable, and left in place by updates
    var region = el.closest("#live [tabindex='0'][id]");
    return region && region.id;
  }
  // When neither is left (Roll gone after rolling, a hint opened), the next thing to play:
  // an open cell, a die or box on offer, or another action of the game area; never one that
  // leaves the room or removes a seat (found by a fresh-user test: after scoring, the focus
  // landed on "Leave room", one Enter from its confirmation). With nothing to play (the turn
  // passed on), the region the control was in (the score sheet) keeps the focus.
  function playable() {
    return games.playable.concat(["button[data-die]",
      "button[data-action]:not([data-action=leave]):not([data-action=remove-seat])" +
      ":not([data-action=stop])"]).map(function (s) { return s + ":not([disabled])"; }).join(", ");
  }
  // The focus comes back with its ring only after keys: after a tap or a click the page only
  // keeps the focus where it was, ringless (a fresh user's finding: a ring around the die or
  // box just tapped, after every update, on a phone).
  var byKeys = false;
  document.addEventListener("keydown", function (e) {
    if (!e.ctrlKey && !e.metaKey && !e.altKey) byKeys = true;
  }, true);
  document.addEventListener("pointerdown", function () { byKeys = false; }, true);
  function remember() { focusKey = keyOf(document.activeElement); }
  function restore() {
    var key = focusKey;
    focusKey = null;
    var active = document.activeElement;
    if (!key || (active && active !== document.body && document.contains(active))) return;
    var live = document.getElementById("live");
    var target = key.sel && live && live.querySelector(key.sel + ":not([disabled])");
    if (!target && key.part) {
      var part = document.getElementById(key.part);
      target = part && part.querySelector("button:not([disabled]), [href], [tabindex='0']");
    }
    if (!target && live) target = live.querySelector(playable());
    if (!target && key.region) target = document.getElementById(key.region);
    if (target) target.focus({ preventScroll: true, focusVisible: byKeys });
  }
  // One render per room version (app/web/room_frames.py): a frame that begins with
  // <!--shared--> is the same for every viewer; it leaves alone the parts this page lists in
  // #own-parts (its sheet to fill, "your turn", its seat), which come in its own frame.
  var sharedFrame = false;
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var message = e.detail && e.detail.message;
    sharedFrame = typeof message === "string" && message.lastIndexOf("<!--shared-->", 0) === 0;
  });
  document.addEventListener("htmx:wsAfterMessage", function () { sharedFrame = false; });
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    if (!sharedFrame) return;
    var own = document.getElementById("own-parts");
    var target = e.detail && e.detail.target;
    if (own && target && target.id &&
        (" " + own.getAttribute("data-ids") + " ").indexOf(" " + target.id + " ") >= 0) {
      e.detail.shouldSwap = false;
    }
  });
  // The hello lists them too: a page that got a version's shared frame but lost its own
  // frame (the connection dropped between the two) is sent its own parts again.
  function ownParts() {
    var own = document.getElementById("own-parts");
    return own ? own.getAttribute("data-ids") || "" : "";
  }
  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:wsAfterMessage", restore);
  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("htmx:afterSettle", restore);

  // Dice roll animation: only when a new roll arrives, not on every update.
  var lastRoll = null;
  // Error messages fade after a few seconds.
  var toastTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var target = e.detail && e.detail.target;
    if (target && target.id === "room-error" && target.textContent.trim()) {
      clearTimeout(toastTimer);
      toastTimer = setTimeout(function () {
        var toast = document.getElementById("room-error");
        if (toast) { toast.textContent = ""; toast.className = "toast"; }
      }, 4000);
    }
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    document.body.classList.remove("sending");
    var dice = document.querySelector("#live [data-roll-index]");
    if (!dice) return;
    var key = dice.getAttribute("data-roll-index") + "/" + (dice.getAttribute("data-roll-count") || "");
    if (lastRoll !== null && key !== lastRoll && dice.hasAttribute("data-roll")) {
      dice.classList.add("rolling");
    }
    lastRoll = key;
  });

  // Timers: count down to data-deadline (epoch ms, set by the server); data-deadline-text
  // is the translated sentence with {s} for the seconds left, or {mm:ss} for them as
  // minutes and seconds (long timers). A data-deadline that is not a number (an ISO time:
  // the rows of Your games) is no timer and is left alone.
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var at = +el.getAttribute("data-deadline");
      if (!isFinite(at)) return;
      var left = Math.max(0, Math.round((at - Date.now()) / 1000));
      var text = el.getAttribute("data-deadline-text");
      var mmss = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      var out = el.querySelector("[data-timer-text]") || el;  // keep the icon beside it
      out.textContent = text ? text.replace("{s}", left).replace("{mm:ss}", mmss) : left + " s";
      el.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tick, 500);
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("DOMContentLoaded", tick);

  // Moments in the reader's own time zone and language: <time datetime=ISO data-local-time>
  // with data-local-text, the translated sentence with {time} (a turn-based room's
  // deadlines: "turn until Mon 14:00"); the server wrote UTC as the fallback.
  function localTimes() {
    var lang = document.documentElement.lang || undefined;
    var format = new Intl.DateTimeFormat(lang, { weekday: "short", hour: "2-digit", minute: "2-digit" });
    document.querySelectorAll("time[data-local-time]:not([data-localised])").forEach(function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at.getTime())) return;
      el.textContent = (el.getAttribute("data-local-text") || "{time}").replace("{time}", format.format(at));
      el.setAttribute("data-localised", "");
    });
  }
  document.addEventListener("htmx:wsAfterMessage", localTimes);
  document.addEventListener("DOMContentLoaded", localTimes);

  // Once the game has started, fold the invitation panel away (it can be opened again).
  var lastStatus = null;
  document.addEventListener("htmx:wsAfterMessage", function () {
    var live = document.getElementById("live");
    var status = live && live.getAttribute("data-status");
    if (lastStatus === "lobby" && status && status !== "lobby") {
      var share = document.querySelector("details.share");
      if (share) share.open = false;
    }
    if (status) lastStatus = status;
  });

  // Print the finished game's sheets (print stylesheet in rooms.css).
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("[data-action=print]")) window.print();
  });

  // Copy and share the room link.
  document.addEventListener("click", function (e) {
    var copy = e.target.closest("[data-copy]");
    if (copy) {
      var input = document.querySelector(copy.getAttribute("data-copy"));
      var done = function () {
        var label = copy.textContent;
        copy.textContent = copy.getAttribute("data-copied");
        setTimeout(function () { copy.textContent = label; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () {
          input.select(); document.execCommand("copy"); done();
        });
      } else {
        input.select(); document.execCommand("copy"); done();
      }
    }
    var share = e.target.closest("[data-share]");
    if (share && navigator.share) {
      navigator.share({ title: share.getAttribute("data-share-title"),
                        url: share.getAttribute("data-share") }).catch(function () {});
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (navigator.share) {
      document.querySelectorAll("[data-share]").forEach(function (b) { b.hidden = false; });
    }
    var liveEl = document.getElementById("live");
    if (liveEl) lastStatus = liveEl.getAttribute("data-status");
    var live = document.querySelector("#live [data-roll-index]");
    if (live) lastRoll = live.getAttribute("data-roll-index") + "/" + (live.getAttribute("data-roll-count") || "");
  });
})();
