// The daily challenge's share button: the phone's share sheet where there is one, else the
// text (with its link) copied to the clipboard; the text is also in [data-share-text].
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-daily-share]");
    if (!button) return;
    var text = document.querySelector("[data-share-text]").value;
    var done = function () {
      var label = button.textContent;
      button.textContent = button.getAttribute("data-copied");
      button.setAttribute("data-shared", "copied");
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    if (navigator.share) {
      navigator.share({ text: text }).then(function () {
        button.setAttribute("data-shared", "sheet");
      }, function () {});
      return;
    }
    var field = document.querySelector("[data-share-text]");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () {
        field.select(); document.execCommand("copy"); done();
      });
    } else {
      field.select(); document.execCommand("copy"); done();
    }
  });
})();
