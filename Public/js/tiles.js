// The one tile layer of every Leaflet map of the site (map.js, report.js, sighting.js), loaded right after
// Leaflet wherever a page has a map (Templates/layout.mustache).
(function () {
  "use strict";
  var L = window.L;
  if (!L) return;
  window.PetSpot = window.PetSpot || {};

  /* Leaflet cancels a tile by pointing it at a data: URL, which our Content-Security-Policy
     (img-src 'self') refuses and reports as an error: this layer drops such a tile instead. */
  window.PetSpot.TileLayer = L.TileLayer.extend({
    _abortLoading: function () {
      var key, tile;
      for (key in this._tiles) {
        if (this._tiles[key].coords.z !== this._tileZoom) {
          tile = this._tiles[key].el;
          tile.onload = L.Util.falseFn;
          tile.onerror = L.Util.falseFn;
          if (!tile.complete) {
            L.DomUtil.remove(tile);
            delete this._tiles[key];
          }
        }
      }
    },
    _removeTile: function (key) {
      return L.GridLayer.prototype._removeTile.call(this, key);
    }
  });
})();
