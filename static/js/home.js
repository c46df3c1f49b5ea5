// The home page asks for the player's name once (#player-name): every form on the page sends
// it (its hidden [data-shared-name]) as it is typed; a form sent without one asks for it there.
(function () {
  "use strict";

  function nameField() { return document.querySelector("[data-player-name]"); }

  document.addEventListener("input", function (e) {
    if (!e.target.matches || !e.target.matches("[data-player-name]")) return;
    document.querySelectorAll("[data-shared-name]").forEach(function (hidden) {
      hidden.value = e.target.value;
    });
  });

  document.addEventListener("submit", function (e) {
    var hidden = e.target.querySelector && e.target.querySelector("[data-shared-name]");
    var field = nameField();
    if (!hidden || !field) return;
    hidden.value = field.value;
    if (!field.value.trim() && !e.target.hasAttribute("data-name-optional")) {
      e.preventDefault();
      field.focus();
      field.reportValidity();
    }
  }, true);
})();
