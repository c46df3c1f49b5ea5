// The home page asks for the player's name once (#player-name): every form on the page sends
// it (its hidden [data-shared-name]) as it is typed; a form sent without one, or with one too
// long, asks for it there.
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
    // an empty name (where one is needed) or one too long (the counter's message) is asked
    // for again here, once, instead of coming back from the server as a second message
    var empty = !field.value.trim() && !e.target.hasAttribute("data-name-optional");
    if (empty || (field.value.trim() && !field.checkValidity())) {
      e.preventDefault();
      field.focus();
      field.reportValidity();
    }
  }, true);
})();
