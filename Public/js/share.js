/* Share button on the details page: the Web Share API where there is one, else copy the link.
   The read-only field next to the button already shows the link without JavaScript. */
(function () {
  "use strict";

  function absolute(url) {
    try {
      return new URL(url, window.location.href).href;
    } catch (e) {
      return url;
    }
  }

  function setStatus(container, text) {
    var status = container.querySelector("[data-share-status]");
    if (!status) {
      return;
    }
    // Clear first so that screen readers announce a repeated message again.
    status.textContent = "";
    window.setTimeout(function () {
      status.textContent = text;
    }, 50);
  }

  function copyWithField(field) {
    if (!field) {
      return false;
    }
    try {
      field.focus();
      field.select();
      field.setSelectionRange(0, field.value.length);
      return document.execCommand("copy");
    } catch (e) {
      return false;
    }
  }

  function copy(url, field) {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      return navigator.clipboard.writeText(url).then(
        function () {
          return true;
        },
        function () {
          return copyWithField(field);
        }
      );
    }
    return Promise.resolve(copyWithField(field));
  }

  // The messages come from the page, in its language: data-share-copied and
  // data-share-prompt on the button.
  function copyAndReport(url, field, container, button) {
    var copiedText = button.getAttribute("data-share-copied") || "";
    var promptText = button.getAttribute("data-share-prompt") || "";
    copy(url, field)
      .then(function (copied) {
        setStatus(container, copied ? copiedText : promptText);
      })
      .catch(function () {
        setStatus(container, promptText);
      });
  }

  function onClick(event) {
    var button = event.currentTarget;
    var container = button.closest("section") || document;
    var field = container.querySelector("[data-share-field]");
    var url = absolute(button.getAttribute("data-share-url") || window.location.href);
    var title = button.getAttribute("data-share-title") || document.title;

    if (navigator.share) {
      var shared;
      try {
        shared = navigator.share({ title: title, url: url });
      } catch (e) {
        shared = Promise.reject(e);
      }
      Promise.resolve(shared).catch(function (error) {
        if (error && error.name === "AbortError") {
          return; // the visitor closed the share sheet
        }
        copyAndReport(url, field, container, button);
      });
      return;
    }
    copyAndReport(url, field, container, button);
  }

  function start() {
    var buttons = document.querySelectorAll('[data-testid="share-button"]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].addEventListener("click", onClick);
    }
    // Show a full URL in the fallback field when the server only knew the path.
    var fields = document.querySelectorAll("[data-share-field]");
    for (var j = 0; j < fields.length; j++) {
      fields[j].value = absolute(fields[j].value);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
