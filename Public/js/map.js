/* The maps: /map (every listed place as a clustered pin) and the details page's small
   map (the pet's pin). Leaflet and Leaflet.markercluster come from Debian, served by us.

   The page holds everything a pin needs: each place of the /map list carries data-lat, data-lng
   and data-status, and its list entry is the pin's popup (cloned as DOM nodes, so upstream text
   is never parsed as HTML here). Without JavaScript, or without Leaflet, the map stays hidden and
   the list is the page. */
(function () {
  "use strict";

  var L = window.L;
  if (!L) {
    return;
  }

  function number(text) {
    var value = parseFloat(text);
    return isFinite(value) ? value : null;
  }

  /* A pin coloured by status (CSS: .pin-missing, .pin-found, .pin-closed). */
  function pinIcon(status) {
    return L.divIcon({
      className: "pin pin-" + (/^[a-z]+$/.test(status) ? status : "unknown"),
      iconSize: [26, 26],
      iconAnchor: [13, 26],
      popupAnchor: [0, -24]
    });
  }

  /* A cluster: its count (a number we computed, never upstream text) in a coloured disc. */
  function clusterIcon(cluster) {
    var count = cluster.getChildCount();
    var size = count < 10 ? "small" : count < 100 ? "medium" : "large";
    return L.divIcon({
      html: "<div><span>" + String(count) + "</span></div>",
      className: "marker-cluster marker-cluster-" + size,
      iconSize: [40, 40]
    });
  }

  /* The box a photo that cannot be shown becomes (docs/upstream.md §3 "Image not available"). */
  function placeholder(text) {
    var box = document.createElement("div");
    box.className = "map-place-photo photo-placeholder";
    var label = document.createElement("span");
    label.textContent = text || "";
    box.appendChild(label);
    return box;
  }

  function escapeText(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return "&#" + c.charCodeAt(0) + ";";
    });
  }

  // Public/js/tiles.js: the layer that drops a cancelled tile instead of a CSP report.
  var TileLayer = window.PetSpot.TileLayer;

  /* A Leaflet map in `container` with our tile layer; a short notice when no tile can be loaded. */
  function baseMap(container, notice) {
    container.hidden = false;
    var map = L.map(container, { keyboard: true, worldCopyJump: true, zoomControl: false });
    // The zoom buttons' titles come from the page, in its language.
    var zoom = {};
    if (container.getAttribute("data-zoom-in")) {
      zoom.zoomInTitle = container.getAttribute("data-zoom-in");
    }
    if (container.getAttribute("data-zoom-out")) {
      zoom.zoomOutTitle = container.getAttribute("data-zoom-out");
    }
    L.control.zoom(zoom).addTo(map);
    map.attributionControl.setPrefix(false);
    var attribution = '<a href="https://www.openstreetmap.org/copyright" rel="noopener" target="_blank">' +
      escapeText(container.getAttribute("data-attribution") || "") + "</a>";
    var tiles = new TileLayer(container.getAttribute("data-tiles"), {
      minZoom: 0,
      maxZoom: 19,
      attribution: attribution
    });
    var loaded = 0;
    tiles.on("tileload", function () {
      loaded += 1;
    });
    tiles.on("tileerror", function () {
      if (loaded === 0) {
        container.classList.add("map-without-tiles");
        container.setAttribute("data-tiles-failed", "1");
        if (notice) {
          notice.hidden = false;
        }
      }
    });
    tiles.addTo(map);
    return map;
  }

  /* /map: every place with coordinates as a pin, clustered; the visitor and the range when located. */
  function petsMap(container) {
    var notice = document.querySelector("[data-map-notice]");
    var places = document.querySelectorAll("li[data-pet-id][data-lat]");
    var map = baseMap(container, notice);
    var group = L.markerClusterGroup({
      chunkedLoading: true,
      showCoverageOnHover: false,
      maxClusterRadius: 50,
      iconCreateFunction: clusterIcon
    });
    var markers = [];
    Array.prototype.forEach.call(places, function (place) {
      var lat = number(place.getAttribute("data-lat"));
      var lng = number(place.getAttribute("data-lng"));
      if (lat === null || lng === null) {
        return;
      }
      var link = place.querySelector("[data-details-link]");
      var marker = L.marker([lat, lng], {
        icon: pinIcon(place.getAttribute("data-status")),
        title: link ? link.textContent : "",
        keyboard: true,
        riseOnHover: true
      });
      marker.bindPopup(function () {
        var body = place.querySelector("[data-place-body]").cloneNode(true);
        body.classList.add("map-popup");
        var photo = body.querySelector("img[data-photo]");
        if (photo) {
          // The list's photo script watches the list's own images, not this copy.
          var failed = function () {
            if (photo.parentNode) {
              photo.parentNode.replaceChild(placeholder(container.getAttribute("data-placeholder")), photo);
            }
          };
          photo.addEventListener("error", failed);
          // A 404 with the placeholder picture loads: photos.js tells it apart by its status.
          photo.addEventListener("load", function () {
            if (window.petspotPhotoNotFound && window.petspotPhotoNotFound(photo)) {
              failed();
            }
          });
        }
        return body;
      }, { minWidth: 220, maxWidth: 280 });
      marker.on("add", function () {
        var icon = marker.getElement();
        if (icon) {
          icon.setAttribute("data-pet-id", place.getAttribute("data-pet-id"));
          icon.setAttribute("role", "button");
          icon.setAttribute("aria-label", marker.options.title);
        }
      });
      markers.push(marker);
    });
    group.addLayers(markers);
    map.addLayer(group);

    var bounds = markers.length ? group.getBounds() : null;
    var lat = number(container.getAttribute("data-visitor-lat"));
    var lng = number(container.getAttribute("data-visitor-lng"));
    var here = lat !== null && lng !== null ? L.latLng(lat, lng) : null;
    var range = number(container.getAttribute("data-range-m"));
    if (here) {
      // The circle's own bounds need a map with a view; the square around it does not.
      var area = range ? here.toBounds(2 * range) : L.latLngBounds(here, here);
      bounds = bounds ? bounds.extend(area) : area;
    }
    if (bounds && bounds.isValid()) {
      map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    } else {
      map.setView([20, 0], 2);
    }
    if (here) {
      if (range) {
        L.circle(here, { radius: range, className: "visitor-range", interactive: false }).addTo(map);
      }
      L.circleMarker(here, { radius: 7, className: "visitor-position" })
        .bindTooltip(container.getAttribute("data-visitor-label") || "")
        .addTo(map);
    }
    var skip = document.querySelector("[data-map-skip]");
    if (skip) {
      skip.hidden = false;
    }
    window.petspotMap = { map: map, group: group, markers: markers };
  }

  /* Details: the pet's pin on a small map. */
  function pinMap(container) {
    var lat = number(container.getAttribute("data-lat"));
    var lng = number(container.getAttribute("data-lng"));
    if (lat === null || lng === null) {
      return;
    }
    var notice = container.parentNode.querySelector("[data-map-notice]");
    var map = baseMap(container, notice);
    L.marker([lat, lng], {
      icon: pinIcon(container.getAttribute("data-status")),
      keyboard: false,
      interactive: false
    }).addTo(map);
    map.setView([lat, lng], 15);
  }

  function start() {
    var all = document.querySelector("[data-pets-map]");
    if (all) {
      petsMap(all);
    }
    var one = document.querySelector("[data-pin-map]");
    if (one) {
      pinMap(one);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
