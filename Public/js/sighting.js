// The sighting form's and the owner's page's enhancements (docs/sightings.md). Without JavaScript the form
// works as it is (a typed place, or the page's location in its hidden fields) and the owner's page is a list.
// With it: "Use my location" or a tap on the form's small map fills the hidden fields, and the owner's page shows
// its sightings on a map.
(function () {
  "use strict";

  function setupForm(form) {
    var latitude = form.querySelector("[data-sighting-lat]");
    var longitude = form.querySelector("[data-sighting-lng]");
    if (!latitude || !longitude) return;
    var status = form.querySelector("[data-sighting-located]");
    var marker = null, map = null;

    function place(lat, lng) {
      latitude.value = lat.toFixed(5);
      longitude.value = lng.toFixed(5);
      if (status) status.textContent = lat.toFixed(4) + ", " + lng.toFixed(4);
      if (!map) return;
      if (marker) { marker.setLatLng([lat, lng]); } else { marker = window.L.marker([lat, lng], { keyboard: false }).addTo(map); }
    }

    // The small map: a tap is where the pet was seen. It starts at the pet's last-seen point (or the country).
    var container = form.querySelector("[data-sighting-pick]");
    if (container && window.L && window.PetSpot && window.PetSpot.TileLayer) {
      var hint = form.querySelector("[data-sighting-pick-hint]");
      if (hint) hint.hidden = false;
      container.hidden = false;
      var lat = parseFloat(container.getAttribute("data-lat")), lng = parseFloat(container.getAttribute("data-lng"));
      var known = isFinite(lat) && isFinite(lng);
      var start = function () {
        if (map) return;
        map = window.L.map(container, { zoomControl: true }).setView(known ? [lat, lng] : [52.07, 19.48], known ? 14 : 6);
        new window.PetSpot.TileLayer(container.getAttribute("data-tiles"), {
          maxZoom: 19, attribution: container.getAttribute("data-attribution") || ""
        }).addTo(map);
        map.on("click", function (event) { place(event.latlng.lat, event.latlng.lng); });
        var typed = [parseFloat(latitude.value), parseFloat(longitude.value)];
        if (isFinite(typed[0]) && isFinite(typed[1])) place(typed[0], typed[1]);
      };
      // Folded in a <details> on the details page: Leaflet needs the map's size, so it starts when shown.
      var folded = container.closest("details");
      if (folded && !folded.open) {
        folded.addEventListener("toggle", function () { if (folded.open) start(); });
      } else {
        start();
      }
    }

    var holder = form.querySelector("[data-sighting-locate]");
    if (!holder || !navigator.geolocation) return;
    holder.hidden = false;
    holder.querySelector("button").addEventListener("click", function () {
      navigator.geolocation.getCurrentPosition(function (position) {
        place(position.coords.latitude, position.coords.longitude);
        if (map) map.setView([position.coords.latitude, position.coords.longitude], 16);
      }, function () {
        if (status) status.textContent = "—";
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
    var Tiles = (window.PetSpot && window.PetSpot.TileLayer) || L.TileLayer;
    new Tiles(container.getAttribute("data-tiles"), { maxZoom: 19, attribution: container.getAttribute("data-attribution") || "" }).addTo(map);
    points.forEach(function (point) { L.marker(point, { keyboard: false }).addTo(map); });
    map.fitBounds(points, { maxZoom: 15, padding: [24, 24] });
  }

  function start() {
    document.querySelectorAll("[data-sighting-form]").forEach(setupForm);
    document.querySelectorAll("[data-sighting-map]").forEach(setupMap);
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
