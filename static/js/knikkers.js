// Knikkers in the browser: pick a marble, send the move (htmx), animate what the server says,
// keyboard play. The server decides everything; this file only selects, sends and animates.
(function () {
  "use strict";

  var STEP_MS = 45;
  var selected = null;   // "r,c" of the picked marble
  var cursor = "0,0";    // the keyboard cursor
  var busy = false;
  var hadFocus = false;
  var loadedAt = Date.now();
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function game() { return document.getElementById("kn-game"); }
  function cell(key) {
    var g = game();
    return g ? g.querySelector('[data-cell="' + key + '"]') : null;
  }
  function actionId() {
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }

  function setSelected(key) {
    var old = selected && cell(selected);
    if (old) { old.classList.remove("is-selected"); old.removeAttribute("aria-pressed"); }
    selected = key;
    var el = key && cell(key);
    if (el && el.hasAttribute("data-colour")) {
      el.classList.add("is-selected");
      el.setAttribute("aria-pressed", "true");
    } else {
      selected = null;
    }
  }

  function flash(el) {
    if (!el) { return; }
    el.classList.remove("is-refused");
    void el.offsetWidth;  // restart the animation
    el.classList.add("is-refused");
    setTimeout(function () { el.classList.remove("is-refused"); }, 900);
  }

  function setCursor(key, focus) {
    var g = game();
    if (!g) { return; }
    var el = cell(key) || cell("0,0");
    if (!el) { return; }
    g.querySelectorAll("button[data-cell]").forEach(function (b) { b.tabIndex = -1; });
    el.tabIndex = 0;
    cursor = el.getAttribute("data-cell");
    if (focus) { el.focus(); }
  }

  function sendMove(src, dst) {
    var g = game();
    busy = true;
    htmx.ajax("POST", g.getAttribute("data-move-url"), {
      target: "#kn-game",
      swap: "outerHTML",
      values: { src: src, dst: dst, version: g.getAttribute("data-version"), action_id: actionId() }
    }).then(function () { busy = false; }, function () { busy = false; });
  }

  function onCell(el) {
    var g = game();
    if (!g || busy || g.hasAttribute("data-over")) { return; }
    var key = el.getAttribute("data-cell");
    setCursor(key, false);
    if (el.hasAttribute("data-colour")) {
      setSelected(key === selected ? null : key);
    } else if (selected) {
      sendMove(selected, key);
    } else {
      flash(el);
    }
  }

  // ---- animation of the move just made (data-last-* on #kn-game) --------------------------
  function ghostAt(board, el, colour) {
    var ghost = document.createElement("div");
    ghost.className = "kn-ghost";
    ghost.style.width = el.offsetWidth + "px";
    ghost.style.height = el.offsetHeight + "px";
    ghost.style.transform = "translate(" + el.offsetLeft + "px," + el.offsetTop + "px)";
    ghost.innerHTML = '<span class="kn-ball kn-c' + colour + '"><svg viewBox="0 0 20 20" ' +
      'aria-hidden="true"><use href="#kn-s' + colour + '"></use></svg></span>';
    board.appendChild(ghost);
    return ghost;
  }

  function parseList(text) { return (text || "").split(" ").filter(Boolean); }

  function vanishAndSpawn(g, board) {
    var cleared = parseList(g.getAttribute("data-last-cleared"));
    var points = g.getAttribute("data-last-points");
    var sx = 0, sy = 0;
    cleared.forEach(function (item) {
      var parts = item.split(",");
      var el = cell(parts[0] + "," + parts[1]);
      if (!el) { return; }
      var ghost = ghostAt(board, el, parts[2]);
      ghost.classList.add("kn-vanish");
      sx += el.offsetLeft + el.offsetWidth / 2;
      sy += el.offsetTop + el.offsetHeight / 2;
      setTimeout(function () { ghost.remove(); }, 500);
    });
    if (cleared.length && points && points !== "0") {
      var label = document.createElement("div");
      label.className = "kn-points";
      // grouped for the page's language, like the server's numbers (12.345 / 12,345)
      label.textContent = "+" + new Intl.NumberFormat(document.documentElement.lang).format(+points);
      label.style.left = sx / cleared.length + "px";
      label.style.top = sy / cleared.length + "px";
      board.appendChild(label);
      setTimeout(function () { label.remove(); }, 1200);
    }
    parseList(g.getAttribute("data-last-spawned")).forEach(function (key) {
      var el = cell(key);
      if (el) { el.classList.remove("kn-pending"); el.classList.add("kn-spawned"); }
    });
  }

  function animate(g) {
    var path = parseList(g.getAttribute("data-last-path"));
    if (path.length < 2) { return; }
    var board = g.querySelector("[data-board]");
    var dst = cell(path[path.length - 1]);
    var colour = dst && dst.getAttribute("data-colour");
    if (colour === null) {  // the moved ball vanished in a line: its colour is in the cleared list
      parseList(g.getAttribute("data-last-cleared")).forEach(function (item) {
        var p = item.split(",");
        if (p[0] + "," + p[1] === path[path.length - 1]) { colour = p[2]; }
      });
    }
    if (reduced || colour === null || !board) { vanishAndSpawn(g, board); return; }
    parseList(g.getAttribute("data-last-spawned")).forEach(function (key) {
      var el = cell(key);
      if (el) { el.classList.add("kn-pending"); }
    });
    dst.classList.add("kn-arriving");
    var ghost = ghostAt(board, cell(path[0]), colour);
    var i = 1;
    var timer = setInterval(function () {
      var el = cell(path[i]);
      if (el) { ghost.style.transform = "translate(" + el.offsetLeft + "px," + el.offsetTop + "px)"; }
      i += 1;
      if (i >= path.length) {
        clearInterval(timer);
        setTimeout(function () {
          ghost.remove();
          dst.classList.remove("kn-arriving");
          vanishAndSpawn(g, board);
        }, STEP_MS);
      }
    }, STEP_MS);
  }

  // ---- after every render of #kn-game -------------------------------------------------------
  function enhance() {
    var g = game();
    if (!g || g.getAttribute("data-enhanced")) { return; }
    g.setAttribute("data-enhanced", "1");
    loadedAt = Date.now();
    var refused = g.getAttribute("data-refused-cell");
    if (refused) {
      setSelected(selected);
      flash(cell(refused));
    } else {
      setSelected(g.getAttribute("data-last-path") ? null : selected);
      animate(g);
    }
    setCursor(cursor, hadFocus);
    hadFocus = false;
    var over = g.querySelector("[data-game-over] [data-action=new-game]");
    if (over) { over.focus(); }
    tick();
  }

  function tick() {
    var clock = document.querySelector("#kn-game .kn-clock");
    if (!clock || clock.hasAttribute("data-stopped")) { return; }
    var secs = parseInt(clock.getAttribute("data-elapsed"), 10) +
      Math.floor((Date.now() - loadedAt) / 1000);
    var m = Math.floor(secs / 60), s = secs % 60, h = Math.floor(m / 60);
    clock.textContent = h ? h + ":" + String(m % 60).padStart(2, "0") + ":" + String(s).padStart(2, "0")
      : m + ":" + String(s).padStart(2, "0");
  }
  setInterval(tick, 1000);

  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest("#kn-game button[data-cell]");
    if (el) { e.preventDefault(); onCell(el); }
    var show = e.target.closest && e.target.closest("#kn-game [data-action=show-result]");
    var over = show && document.querySelector("#kn-game dialog[data-game-over]");
    if (over) {
      over.show();
      showResultButton();
      var first = over.querySelector("[autofocus]");
      if (first) { first.focus(); }
    }
  });

  // The end dialog can be closed (its button, Esc) to look at the final board; "Show the
  // result" in the tools opens it again.
  function showResultButton() {
    var over = document.querySelector("#kn-game dialog[data-game-over]");
    var show = document.querySelector("#kn-game [data-action=show-result]");
    if (!over || !show) { return; }
    show.hidden = over.open;
    if (!over.hasAttribute("data-watched")) {
      over.setAttribute("data-watched", "");
      over.addEventListener("close", function () { showResultButton(); show.focus(); });
    }
  }
  document.addEventListener("DOMContentLoaded", showResultButton);
  document.addEventListener("htmx:afterSettle", showResultButton);

  var ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) { return; }
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var g = game();
    if (g) {
      var inBoard = t && t.closest && t.closest("#kn-game [data-board]");
      if (ARROWS[e.key] && inBoard) {
        var rc = cursor.split(",").map(Number);
        var r = Math.min(8, Math.max(0, rc[0] + ARROWS[e.key][0]));
        var c = Math.min(8, Math.max(0, rc[1] + ARROWS[e.key][1]));
        setCursor(r + "," + c, true);
        e.preventDefault();
      } else if ((e.key === "u" || e.key === "U" || e.key === "Backspace") && !busy) {
        var undo = g.querySelector("[data-action=undo]");
        if (undo && !undo.disabled) { hadFocus = !!inBoard; undo.click(); e.preventDefault(); }
      } else if (e.key === "Escape" && selected) {
        setSelected(null);
      } else if (e.key === "Escape") {
        var over = g.querySelector("dialog[data-game-over][open]");
        if (over) { over.close(); e.preventDefault(); }
      }
      return;
    }
    var state = document.getElementById("kn-replay-state");
    if (state && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      var link = state.querySelector(e.key === "ArrowLeft" ? "[data-step-link=prev]" : "[data-step-link=next]");
      if (link && link.getAttribute("aria-disabled") !== "true") { link.click(); e.preventDefault(); }
    }
  });

  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    if (target && target.id === "kn-game") {
      var status = e.detail.xhr.status;
      if (status === 409 || status === 422) { e.detail.shouldSwap = true; e.detail.isError = false; }
      var active = document.activeElement;
      hadFocus = hadFocus || !!(active && target.contains(active) && active.hasAttribute("data-cell"));
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    enhance();
    var state = document.getElementById("kn-replay-state");
    var slider = document.getElementById("kn-step");
    if (state && slider && document.activeElement !== slider) {
      slider.value = state.getAttribute("data-step");
    }
  });
  document.addEventListener("DOMContentLoaded", enhance);
})();
