// The report form's enhancements (docs/report-flow.md). Without JavaScript the form works as it
// is: two number fields for the place, the browser's own checks, the server's answer. With it:
// "Use my location", a small map to tap the place, a check of the photo's size before a 20 MB
// upload starts, one submission per click, and Copy / Print on the result page.
(function () {
  "use strict";

  function escapeText(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }

  function setupLocation(picker) {
    var latitude = document.querySelector("[data-latitude]");
    var longitude = document.querySelector("[data-longitude]");
    var tools = picker.querySelector("[data-location-tools]");
    var status = picker.querySelector("[data-location-status]");
    var container = picker.querySelector("[data-report-map]");
    if (!latitude || !longitude || !tools) return;
    tools.hidden = false;
    var map = null;
    var marker = null;

    function place(lat, lng, zoom) {
      latitude.value = lat.toFixed(5);
      longitude.value = lng.toFixed(5);
      if (!map) return;
      var point = [lat, lng];
      if (marker) { marker.setLatLng(point); } else { marker = window.L.marker(point, { keyboard: false }).addTo(map); }
      map.setView(point, zoom || map.getZoom());
    }

    if (window.L && container) {
      // Public/js/tiles.js: the layer that drops a cancelled tile instead of a CSP report.
      var QuietTileLayer = window.PetSpot.TileLayer;
      container.hidden = false;
      var start = [parseFloat(latitude.value), parseFloat(longitude.value)];
      var known = isFinite(start[0]) && isFinite(start[1]);
      map = window.L.map(container, { zoomControl: true }).setView(known ? start : [52.07, 19.48], known ? 15 : 6);
      map.zoomControl.getContainer().querySelector(".leaflet-control-zoom-in").title = picker.getAttribute("data-zoom-in");
      map.zoomControl.getContainer().querySelector(".leaflet-control-zoom-out").title = picker.getAttribute("data-zoom-out");
      new QuietTileLayer(picker.getAttribute("data-tiles"), {
        maxZoom: 19, attribution: escapeText(picker.getAttribute("data-attribution") || "")
      }).addTo(map);
      if (known) place(start[0], start[1]);
      map.on("click", function (event) { place(event.latlng.lat, event.latlng.lng); });
      var update = function () {
        var lat = parseFloat(latitude.value), lng = parseFloat(longitude.value);
        if (isFinite(lat) && isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) place(lat, lng);
      };
      latitude.addEventListener("change", update);
      longitude.addEventListener("change", update);
    }

    var button = tools.querySelector("[data-use-location]");
    button.addEventListener("click", function () {
      if (!navigator.geolocation) { status.textContent = picker.getAttribute("data-text-failed"); return; }
      status.textContent = picker.getAttribute("data-text-locating");
      navigator.geolocation.getCurrentPosition(function (position) {
        status.textContent = "";
        place(position.coords.latitude, position.coords.longitude, 16);
      }, function () {
        status.textContent = picker.getAttribute("data-text-failed");
      }, { timeout: 10000, maximumAge: 60000 });
    });
  }

  function setupForm(form) {
    var input = form.querySelector("[data-photo-input]");
    var limit = 20 * 1024 * 1024;
    if (input) {
      input.addEventListener("change", function () {
        var file = input.files && input.files[0];
        input.setCustomValidity(file && file.size > limit ? input.getAttribute("data-text-too-big") : "");
        input.reportValidity();
      });
    }
    form.addEventListener("submit", function (event) {
      var button = form.querySelector("[data-submit]");
      if (form.getAttribute("data-sending") === "yes") { event.preventDefault(); return; }
      form.setAttribute("data-sending", "yes");
      if (button) { button.textContent = button.getAttribute("data-text-submitting"); button.setAttribute("aria-disabled", "true"); }
    });
    var summary = document.querySelector("[data-error-summary]");
    if (summary) summary.focus();
  }

  function setupResult() {
    var actions = document.querySelector("[data-code-actions]");
    var code = document.querySelector("[data-code]");
    if (!actions || !code) return;
    actions.hidden = false;
    var copy = actions.querySelector("[data-copy-code]");
    copy.addEventListener("click", function () {
      var done = function () { copy.textContent = copy.getAttribute("data-text-copied"); };
      if (navigator.clipboard) { navigator.clipboard.writeText(code.textContent.trim()).then(done, function () {}); }
    });
    actions.querySelector("[data-print]").addEventListener("click", function () { window.print(); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var picker = document.querySelector("[data-location-picker]");
    if (picker) setupLocation(picker);
    var form = document.querySelector("[data-report-form]");
    if (form) setupForm(form);
    setupResult();
  });
})();
