/* Photos that fail to load become the same placeholder the server renders (product-spec §3). */
(function () {
  "use strict";

  function placeholder() {
    var box = document.createElement("div");
    box.className = "photo-placeholder";
    var text = document.createElement("span");
    // The page's own words for it, in its language (issue 14).
    var source = document.querySelector("[data-text-photo-missing]");
    text.textContent = (source && source.getAttribute("data-text-photo-missing")) || "";
    box.appendChild(text);
    return box;
  }

  function replace(img) {
    if (!img.parentNode || img.getAttribute("data-photo-failed") === "1") {
      return;
    }
    img.setAttribute("data-photo-failed", "1");
    img.parentNode.replaceChild(placeholder(), img);
  }

  function watch(img) {
    img.addEventListener("error", function () {
      replace(img);
    });
    // The error may have fired before this script ran (scripts are deferred).
    if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) {
      if (typeof img.decode === "function") {
        // decode() rejects for a broken image and waits for a lazy one still to load.
        img.decode().catch(function () {
          replace(img);
        });
      } else {
        replace(img);
      }
    }
  }

  function start() {
    var images = document.querySelectorAll("img[data-photo]");
    for (var i = 0; i < images.length; i++) {
      watch(images[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
