/* PetSpot location flow (docs/upstream.md §4, as the mobile apps ask).
   The server reads the location from the URL only (no cookies): this script asks the browser once
   per session and reloads with ?lat&lng (granted) or ?location=denied (denied). Codes 2 and 3
   (unavailable, timeout) are a silent fallback. Without this script every page still works. */
(function () {
  "use strict";

  var ASKED_KEY = "petspot.locationAsked";
  var DISMISSED_KEY = "petspot.bannerDismissed";
  var OPTIONS = { enableHighAccuracy: false, timeout: 10000, maximumAge: 300000 };

  function storageGet(key) {
    try {
      return window.sessionStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  function storageSet(key, value) {
    try {
      window.sessionStorage.setItem(key, value);
      return true;
    } catch (e) {
      return false;
    }
  }

  function storageRemove(key) {
    try {
      window.sessionStorage.removeItem(key);
    } catch (e) {
      /* storage unavailable: nothing to remove */
    }
  }

  function currentURL() {
    return new URL(window.location.href);
  }

  function goTo(url) {
    // replace: the intermediate page without a location does not stay in the history.
    window.location.replace(url.toString());
  }

  function urlWithPosition(position) {
    var url = currentURL();
    url.searchParams.set("lat", position.coords.latitude.toFixed(4));
    url.searchParams.set("lng", position.coords.longitude.toFixed(4));
    url.searchParams.delete("location");
    url.searchParams.delete("page"); // distances change the result set: start at page 1
    return url;
  }

  function urlDenied() {
    var url = currentURL();
    url.searchParams.delete("lat");
    url.searchParams.delete("lng");
    url.searchParams.set("location", "denied");
    return url;
  }

  function canAsk() {
    return "geolocation" in navigator && typeof navigator.geolocation.getCurrentPosition === "function";
  }

  /* onUnavailable runs for codes 2 and 3 (and any other failure). */
  function ask(onUnavailable) {
    try {
      navigator.geolocation.getCurrentPosition(
        function (position) {
          goTo(urlWithPosition(position));
        },
        function (error) {
          if (error && error.code === 1) {
            goTo(urlDenied());
          } else if (onUnavailable) {
            onUnavailable();
          }
        },
        OPTIONS
      );
    } catch (e) {
      if (onUnavailable) {
        onUnavailable();
      }
    }
  }

  function banners() {
    return document.querySelectorAll('[data-testid="location-banner"]');
  }

  function hideBanners() {
    var list = banners();
    for (var i = 0; i < list.length; i++) {
      list[i].hidden = true;
    }
  }

  function onRetry(event) {
    if (!canAsk()) {
      return; // follow the link: the page without location=denied
    }
    event.preventDefault();
    var href = event.currentTarget.href;
    storageRemove(DISMISSED_KEY);
    storageRemove(ASKED_KEY);
    storageSet(ASKED_KEY, "1");
    ask(function () {
      // Unavailable or timed out: do what the link does without JavaScript.
      window.location.assign(href);
    });
  }

  function onDismiss(event) {
    event.preventDefault();
    storageSet(DISMISSED_KEY, "1");
    hideBanners();
  }

  function start() {
    var body = document.body;
    if (!body) {
      return;
    }

    if (storageGet(DISMISSED_KEY) === "1") {
      hideBanners();
    }

    var retry = document.querySelectorAll('[data-action="retry-location"]');
    for (var i = 0; i < retry.length; i++) {
      retry[i].addEventListener("click", onRetry);
    }
    var dismiss = document.querySelectorAll('[data-action="dismiss-banner"]');
    for (var j = 0; j < dismiss.length; j++) {
      dismiss[j].addEventListener("click", onDismiss);
    }

    // Ask only on pages without a location, never on error pages, and once per session.
    if (body.dataset.location !== "unknown") {
      return;
    }
    if (document.querySelector('[data-testid="error-message"]')) {
      return;
    }
    if (storageGet(ASKED_KEY) !== null || !canAsk()) {
      return;
    }
    // Without working storage we could not remember having asked: do not nag on every page.
    if (!storageSet(ASKED_KEY, "1")) {
      return;
    }
    ask(null);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
