/* The poster's Print button (docs/poster.md): shown only when this script runs. */
(function () {
  "use strict";
  var button = document.querySelector("[data-print]");
  if (!button) return;
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
})();
