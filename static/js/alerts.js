// Turn alerts and sounds for room pages: when it becomes this player's turn (a roll to make,
// a sum to place, a Kniffel turn) while the tab is hidden, the tab title changes and the
// phone vibrates where it can; short sounds made with Web Audio for a roll, your turn and the
// end of a game, unless the player switched sound off (remembered in localStorage).
(function () {
  "use strict";
  var KEY = "knobel.sound";
  var state = { myTurn: null, rollKey: null, status: null, title: document.title };
  // What was played, for tests and curious players: window.KnobelAlerts.played.
  // silenced: sounds left out because nobody had tapped the page yet.
  var api = window.KnobelAlerts = { played: [], vibrated: 0, silenced: 0 };

  function soundOn() {
    try { return localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }

  var ctx = null;
  function audio() {
    var Ctor = window.AudioContext || window.webkitAudioContext;
    if (!Ctor) return null;
    // Browsers refuse sound until the page has been tapped or clicked, and warn in the
    // console at every try: before that, stay silent.
    var activation = navigator.userActivation;
    if (!ctx && activation && !activation.hasBeenActive) { api.silenced += 1; return null; }
    if (!ctx) ctx = new Ctor();
    if (ctx.state === "suspended" && ctx.resume) ctx.resume().catch(function () {});
    return ctx;
  }

  // Each sound: a few tones (frequency Hz, start s, length s) with a soft envelope.
  var SOUNDS = {
    roll: [[180, 0, 0.05], [240, 0.06, 0.05], [200, 0.12, 0.06]],
    turn: [[660, 0, 0.12], [880, 0.14, 0.18]],
    end: [[523, 0, 0.15], [659, 0.16, 0.15], [784, 0.32, 0.15], [1047, 0.48, 0.35]]
  };

  function play(name) {
    if (!soundOn()) return;
    api.played.push(name);
    var ac = audio();
    if (!ac) return;
    var now = ac.currentTime;
    SOUNDS[name].forEach(function (tone) {
      var osc = ac.createOscillator(), gain = ac.createGain();
      osc.type = name === "roll" ? "triangle" : "sine";
      osc.frequency.value = tone[0];
      gain.gain.setValueAtTime(0.0001, now + tone[1]);
      gain.gain.exponentialRampToValueAtTime(0.2, now + tone[1] + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + tone[1] + tone[2]);
      osc.connect(gain).connect(ac.destination);
      osc.start(now + tone[1]);
      osc.stop(now + tone[1] + tone[2] + 0.02);
    });
  }
  api.play = play;

  function showToggle() {
    var on = soundOn();
    document.querySelectorAll("[data-sound-toggle]").forEach(function (b) {
      b.setAttribute("aria-pressed", on ? "true" : "false");
      var label = b.querySelector("[data-sound-label]");
      if (label) label.textContent = b.getAttribute(on ? "data-on" : "data-off");
    });
  }

  document.addEventListener("click", function (e) {
    var toggle = e.target.closest && e.target.closest("[data-sound-toggle]");
    if (!toggle) return;
    try { localStorage.setItem(KEY, soundOn() ? "off" : "on"); } catch (err) { /* private mode */ }
    showToggle();
    if (soundOn()) audio();  // a tap unlocks audio on phones
  });

  function alertTitle() {
    var box = document.querySelector("[data-alerts]");
    return (box && box.getAttribute("data-turn-title")) || "!";
  }

  function restoreTitle() {
    if (!document.hidden && document.title !== state.title) document.title = state.title;
  }
  document.addEventListener("visibilitychange", restoreTitle);
  window.addEventListener("focus", restoreTitle);

  function check() {
    var live = document.getElementById("live");
    if (!live) return;
    var status = live.getAttribute("data-status");
    var myTurn = !!document.querySelector("#live [data-my-turn=true]");
    var dice = document.querySelector("#live [data-roll-index][data-roll]");
    var rollKey = dice ? dice.getAttribute("data-roll-index") + "/" +
      (dice.getAttribute("data-roll-count") || "") : null;
    if (state.status !== null) {
      if (rollKey && rollKey !== state.rollKey) play("roll");
      if (myTurn && !state.myTurn) {
        play("turn");
        if (document.hidden) {
          document.title = alertTitle() + " · " + state.title;
          if (navigator.vibrate) { navigator.vibrate([200, 100, 200]); api.vibrated += 1; }
        }
      }
      if (status === "finished" && state.status === "playing") play("end");
    }
    if (!myTurn && document.title !== state.title) document.title = state.title;  // nothing waits
    state.myTurn = myTurn;
    state.rollKey = rollKey;
    state.status = status;
  }

  document.addEventListener("htmx:wsAfterMessage", check);
  document.addEventListener("DOMContentLoaded", function () {
    state.title = document.title;
    showToggle();
    check();
  });
})();
