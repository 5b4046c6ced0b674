/* Photos that fail to load become the same placeholder the server renders (docs/upstream.md §3). */
(function () {
  "use strict";

  function placeholder() {
    var box = document.createElement("div");
    box.className = "photo-placeholder";
    var text = document.createElement("span");
    // The page's own words for it, in its language.
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

  /* A photo the upstream no longer has is answered 404 with a placeholder picture (docs/poster.md
     "small fixes"), which browsers show as a loaded image: the page puts its own worded placeholder
     instead. The status comes from Resource Timing (same-origin photos only). */
  function answeredNotFound(img) {
    if (!window.performance || typeof performance.getEntriesByName !== "function") {
      return false;
    }
    var entries = performance.getEntriesByName(img.currentSrc || img.src);
    var last = entries[entries.length - 1];
    return !!last && last.responseStatus === 404;
  }
  window.petspotPhotoNotFound = answeredNotFound;

  function watch(img) {
    img.addEventListener("error", function () {
      replace(img);
    });
    img.addEventListener("load", function () {
      if (answeredNotFound(img)) {
        replace(img);
      }
    });
    if (img.complete && img.naturalWidth > 0 && answeredNotFound(img)) {
      replace(img);
    }
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
