// The sighting form's and the owner's page's enhancements (docs/sightings.md). Without JavaScript the form
// works as it is (a typed place, or the page's location in its hidden fields) and the owner's page is a list.
// With it: "Use my location" fills the hidden fields, and the owner's page shows its sightings on a map.
(function () {
  "use strict";

  function setupForm(form) {
    var holder = form.querySelector("[data-sighting-locate]");
    var latitude = form.querySelector("[data-sighting-lat]");
    var longitude = form.querySelector("[data-sighting-lng]");
    if (!holder || !latitude || !longitude || !navigator.geolocation) return;
    var status = holder.querySelector("[data-sighting-located]");
    holder.hidden = false;
    holder.querySelector("button").addEventListener("click", function () {
      navigator.geolocation.getCurrentPosition(function (position) {
        latitude.value = position.coords.latitude.toFixed(5);
        longitude.value = position.coords.longitude.toFixed(5);
        status.textContent = position.coords.latitude.toFixed(4) + ", " + position.coords.longitude.toFixed(4);
      }, function () {
        status.textContent = "—";
      }, { timeout: 10000, maximumAge: 60000 });
    });
  }

  function setupMap(container) {
    var L = window.L;
    if (!L) return;
    var points = [];
    document.querySelectorAll("[data-sighting-id]").forEach(function (item) {
      var lat = parseFloat(item.getAttribute("data-lat")), lng = parseFloat(item.getAttribute("data-lng"));
      if (isFinite(lat) && isFinite(lng)) points.push([lat, lng]);
    });
    if (points.length === 0) return;
    container.hidden = false;
    var map = L.map(container, { zoomControl: true });
    L.tileLayer(container.getAttribute("data-tiles"), { maxZoom: 19, attribution: container.getAttribute("data-attribution") || "" }).addTo(map);
    points.forEach(function (point) { L.marker(point, { keyboard: false }).addTo(map); });
    map.fitBounds(points, { maxZoom: 15, padding: [24, 24] });
  }

  function start() {
    document.querySelectorAll("[data-sighting-form]").forEach(setupForm);
    document.querySelectorAll("[data-sighting-map]").forEach(setupMap);
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
