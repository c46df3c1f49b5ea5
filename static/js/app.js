// Knobel's own small scripts. Everything else is htmx.
(function () {
  "use strict";
})();
