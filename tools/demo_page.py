#!/usr/bin/env python3
"""Writes OUT/demo.html: the demo's markers on a map, each placed by its anchor.

Reads what `make demo` wrote into OUT:
  listings/index.json  `pinmint batch` over docs/demo/listings.geojson: one price
                       tag per listing, with its coordinates and Leaflet iconSize /
                       iconAnchor (points); files listings/ID.png and ID@2x.png.
  seeds@2x.png/.json   `pinmint sprite` of the four seed markers (MapLibre sprite).
  price-tag.json ...   `pinmint render --meta` of each seed: the anchors.
With MapLibre GL JS in OUT/maplibre (`make demo` copies it there from `make maplibre`)
the page is a MapLibre map: the seed sprite and the listings' @2x PNGs are embedded
as data: URLs and added with map.addImage (so the page also works opened as a file,
where MapLibre may not fetch), each placed with the `icon-anchor` / `icon-offset` of
its @1x metadata. Else, with Debian's libjs-leaflet (/usr/share/javascript/leaflet,
copied into OUT/leaflet), a Leaflet map; else plain HTML with absolutely positioned
images. All draw their own background (no tiles, no network). A small red ring
marks every marker's coordinate: each pointer's tip must sit in its ring.
"""
import base64
import json
import os
import shutil
import sys

LEAFLET = "/usr/share/javascript/leaflet"


def main(out):
    index = json.load(open(os.path.join(out, "listings", "index.json"), encoding="utf-8"))
    listings = []
    for entry in index["markers"]:
        if entry["pixelRatio"] != 1 or entry.get("variant") != "default":
            continue
        retina = entry["file"].replace(".png", "@2x.png")
        listings.append({"id": entry["id"], "lnglat": entry["coordinates"], "url": "listings/" + entry["file"],
                         "retina": "listings/" + retina if os.path.exists(os.path.join(out, "listings", retina)) else None,
                         "size": entry["leaflet"]["iconSize"], "anchor": entry["leaflet"]["iconAnchor"]})

    sprite = json.load(open(os.path.join(out, "seeds@2x.json"), encoding="utf-8"))
    sheet_width = max(e["x"] + e["width"] for e in sprite.values())
    # Seed anchors from `pinmint render --meta`, placed along the map's southern edge. The
    # sheet is @2x, so its @2x entries: their Leaflet anchor is in CSS pixels of the @2x
    # image (a marker's @1x and @2x sizes are each whole pixels and may differ by one).
    seeds = []
    places = [[121.5545, 25.0290], [121.5600, 25.0290], [121.5660, 25.0290], [121.5700, 25.0290], [121.5740, 25.0290]]
    names = [("price-tag", "price-tag"), ("callout", "callout"), ("avatar", "avatar"), ("avatar-selected", "avatar"), ("pin", "pin")]
    for (sprite_id, meta_name), place in zip(names, places):
        meta = [m for m in json.load(open(os.path.join(out, meta_name + ".json"), encoding="utf-8"))
                if m["pixelRatio"] == 2 and m["id"] == sprite_id]
        entry = sprite[sprite_id]
        seeds.append({"id": sprite_id, "meta": meta_name, "lnglat": place, "x": entry["x"] / 2, "y": entry["y"] / 2,
                      "size": [entry["width"] / 2, entry["height"] / 2], "anchor": meta[0]["leaflet"]["iconAnchor"]})

    data = json.dumps({"listings": listings, "seeds": seeds, "sheet": {"url": "seeds@2x.png", "width": sheet_width / 2}},
                      ensure_ascii=False)
    if os.path.exists(os.path.join(out, "maplibre", "maplibre-gl.js")):
        data = json.dumps(maplibre_data(out, index, sprite, seeds), ensure_ascii=False)
        page = MAPLIBRE_PAGE
    elif os.path.exists(os.path.join(LEAFLET, "leaflet.js")):
        target = os.path.join(out, "leaflet")
        os.makedirs(target, exist_ok=True)
        for name in ("leaflet.js", "leaflet.css"):
            shutil.copyfile(os.path.join(LEAFLET, name), os.path.join(target, name))
        page = LEAFLET_PAGE
    else:
        page = PLAIN_PAGE
    with open(os.path.join(out, "demo.html"), "w", encoding="utf-8") as f:
        f.write(page.replace("__DATA__", data))
    kind = "MapLibre GL JS" if page is MAPLIBRE_PAGE else "Leaflet" if page is LEAFLET_PAGE else "plain HTML"
    print(f"wrote {os.path.join(out, 'demo.html')} ({len(listings)} listings, {len(seeds)} seed markers from the sprite, {kind})")


def data_url(path):
    with open(path, "rb") as image:
        return "data:image/png;base64," + base64.b64encode(image.read()).decode()


def maplibre_data(out, index, sprite, seeds):
    """Features for the MapLibre page: each with its image (2x pixels) and @1x anchor and offset."""
    images, features = {}, []
    at_one = {(e["id"], e.get("variant")): e for e in index["markers"] if e["pixelRatio"] == 1}
    for entry in index["markers"]:
        if entry["pixelRatio"] != 2 or entry.get("variant") != "default":
            continue
        image_id = "listing-" + entry["id"]
        images[image_id] = {"url": data_url(os.path.join(out, "listings", entry["file"])), "pixelRatio": 2}
        maplibre = at_one.get((entry["id"], "default"), entry)["maplibre"]
        features.append({"lnglat": entry["coordinates"], "image": image_id,
                         "anchor": maplibre["icon-anchor"], "offset": maplibre["icon-offset"]})
    # The seeds from the sprite sheet: cut out in the page, with their sprite entries.
    for seed in seeds:
        meta = [m for m in json.load(open(os.path.join(out, seed["meta"] + ".json"), encoding="utf-8"))
                if m["pixelRatio"] == 1 and m["id"] == seed["id"]][0]
        features.append({"lnglat": seed["lnglat"], "image": seed["id"],
                         "anchor": meta["maplibre"]["icon-anchor"], "offset": meta["maplibre"]["icon-offset"]})
    return {"images": images, "features": features, "sheet": {"url": data_url(os.path.join(out, "seeds@2x.png")),
            "entries": {s["id"]: sprite[s["id"]] for s in seeds}}}


STYLE = """
  body { margin: 0; font: 14px 'Noto Sans', sans-serif; }
  #map { position: absolute; inset: 0; background: #eef1ec; overflow: hidden; }
  #title { position: absolute; z-index: 1000; left: 12px; top: 10px; background: #fffffffa; padding: 6px 10px;
           border-radius: 4px; box-shadow: 0 1px 3px #0003; }
  .ring { position: absolute; width: 8px; height: 8px; margin: -5px 0 0 -5px; border: 1px solid #e53935; border-radius: 50%; }
"""

LEAFLET_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Pinmint demo</title>
<link rel="stylesheet" href="leaflet/leaflet.css"><script src="leaflet/leaflet.js"></script>
<style>""" + STYLE + """</style></head>
<body><div id="map"></div>
<div id="title">Pinmint: price tags from <code>pinmint batch</code> (GeoJSON), seed markers from a <code>pinmint sprite</code>;
red rings mark the coordinates</div>
<script>
const data = __DATA__;
const map = L.map('map', {zoomControl: false, attributionControl: false}).setView([25.0335, 121.5640], 16);
// A drawn background instead of tiles: blocks, streets and a park.
for (let lat = 25.026; lat <= 25.042; lat += 0.002)
  L.polyline([[lat, 121.548], [lat, 121.580]], {color: '#ffffff', weight: lat.toFixed(3).endsWith('4') ? 9 : 5}).addTo(map);
for (let lng = 121.548; lng <= 121.580; lng += 0.003)
  L.polyline([[25.024, lng], [25.044, lng]], {color: '#ffffff', weight: 5}).addTo(map);
L.rectangle([[25.0352, 121.5652], [25.0368, 121.5688]], {color: '#a5d6a7', fillColor: '#c8e6c9', fillOpacity: 1, weight: 1}).addTo(map);
for (const m of data.listings) {
  const icon = L.icon({iconUrl: m.url, iconRetinaUrl: m.retina || m.url, iconSize: m.size, iconAnchor: m.anchor});
  L.marker([m.lnglat[1], m.lnglat[0]], {icon, title: m.id}).addTo(map);
}
for (const s of data.seeds) {
  const html = `<div style="width:${s.size[0]}px;height:${s.size[1]}px;background:url(${data.sheet.url}) -${s.x}px -${s.y}px / ${data.sheet.width}px auto"></div>`;
  const icon = L.divIcon({html, className: '', iconSize: s.size, iconAnchor: s.anchor});
  L.marker([s.lnglat[1], s.lnglat[0]], {icon, title: s.id}).addTo(map);
}
for (const m of data.listings.concat(data.seeds))
  L.circleMarker([m.lnglat[1], m.lnglat[0]], {radius: 4, color: '#e53935', weight: 1, fill: false, pane: 'markerPane'}).addTo(map);
</script></body></html>
"""

MAPLIBRE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Pinmint demo</title>
<link rel="stylesheet" href="maplibre/maplibre-gl.css"><script src="maplibre/maplibre-gl.js"></script>
<style>""" + STYLE + """</style></head>
<body><div id="map"></div>
<div id="title">Pinmint on MapLibre GL JS: price tags from <code>pinmint batch</code> (GeoJSON), seed markers from a
<code>pinmint sprite</code>; red rings mark the coordinates</div>
<script>
const data = __DATA__;
// A drawn background instead of tiles: streets and a park.
const streets = [];
for (let lat = 25.026; lat <= 25.042; lat += 0.002) streets.push({type: 'Feature', properties: {wide: lat.toFixed(3).endsWith('4')},
  geometry: {type: 'LineString', coordinates: [[121.548, lat], [121.580, lat]]}});
for (let lng = 121.548; lng <= 121.580; lng += 0.003) streets.push({type: 'Feature', properties: {wide: false},
  geometry: {type: 'LineString', coordinates: [[lng, 25.024], [lng, 25.044]]}});
const park = {type: 'Feature', properties: {}, geometry: {type: 'Polygon',
  coordinates: [[[121.5652, 25.0352], [121.5688, 25.0352], [121.5688, 25.0368], [121.5652, 25.0368], [121.5652, 25.0352]]]}};
const points = data.features.map((f) => ({type: 'Feature', properties: f, geometry: {type: 'Point', coordinates: f.lnglat}}));
const map = new maplibregl.Map({container: 'map', center: [121.5640, 25.0335], zoom: 15, attributionControl: false,
  style: {version: 8, sources: {
      streets: {type: 'geojson', data: {type: 'FeatureCollection', features: streets}},
      park: {type: 'geojson', data: park},
      markers: {type: 'geojson', data: {type: 'FeatureCollection', features: points}}},
    layers: [
      {id: 'ground', type: 'background', paint: {'background-color': '#eef1ec'}},
      {id: 'park', type: 'fill', source: 'park', paint: {'fill-color': '#c8e6c9', 'fill-outline-color': '#a5d6a7'}},
      {id: 'streets', type: 'line', source: 'streets', paint: {'line-color': '#ffffff', 'line-width': ['case', ['get', 'wide'], 9, 5]}}]}});
async function decoded(url) { const image = new Image(); image.src = url; await image.decode(); return image; }
map.on('load', async () => {
  const bounds = new maplibregl.LngLatBounds();
  for (const f of data.features) bounds.extend(f.lnglat);
  map.fitBounds(bounds, {padding: {top: 150, bottom: 40, left: 120, right: 120}, animate: false});
  for (const [id, image] of Object.entries(data.images))
    map.addImage(id, await decoded(image.url), {pixelRatio: image.pixelRatio});
  // The seed sprite sheet (@2x), cut into its images as MapLibre would from the sprite's JSON.
  const sheet = await decoded(data.sheet.url), canvas = document.createElement('canvas');
  canvas.width = sheet.width; canvas.height = sheet.height;
  const context = canvas.getContext('2d', {willReadFrequently: true}); context.drawImage(sheet, 0, 0);
  for (const [id, e] of Object.entries(data.sheet.entries))
    map.addImage(id, context.getImageData(e.x, e.y, e.width, e.height), {pixelRatio: e.pixelRatio,
      ...(e.content ? {content: e.content} : {}), ...(e.stretchX ? {stretchX: e.stretchX} : {}), ...(e.stretchY ? {stretchY: e.stretchY} : {})});
  // The markers once their images are in the map (a symbol laid out before would stay without its icon).
  map.addLayer({id: 'markers', type: 'symbol', source: 'markers', layout: {'icon-image': ['get', 'image'],
    'icon-anchor': ['get', 'anchor'], 'icon-offset': ['get', 'offset'], 'icon-allow-overlap': true}});
  map.addLayer({id: 'rings', type: 'circle', source: 'markers', paint: {'circle-radius': 4, 'circle-color': 'rgba(0, 0, 0, 0)',
    'circle-stroke-color': '#e53935', 'circle-stroke-width': 1}});
});
</script></body></html>
"""

PLAIN_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Pinmint demo</title>
<style>""" + STYLE + """
  #map { background-color: #eef1ec;
         background-image: linear-gradient(#fff 5px, transparent 5px), linear-gradient(90deg, #fff 5px, transparent 5px);
         background-size: 130px 110px; }
  img, .seed { position: absolute; }
</style></head>
<body><div id="map"></div>
<div id="title">Pinmint: price tags from <code>pinmint batch</code> (GeoJSON), seed markers from a <code>pinmint sprite</code>;
red rings mark the coordinates</div>
<script>
const data = __DATA__;
const map = document.getElementById('map');
// A linear projection of the demo's area onto the window.
const west = 121.550, east = 121.578, south = 25.027, north = 25.041;
const place = ([lng, lat]) => [(lng - west) / (east - west) * innerWidth, (north - lat) / (north - south) * innerHeight];
for (const m of data.listings) {
  const [x, y] = place(m.lnglat), image = document.createElement('img');
  image.src = m.url; if (m.retina) image.srcset = `${m.url} 1x, ${m.retina} 2x`;
  Object.assign(image.style, {left: `${x - m.anchor[0]}px`, top: `${y - m.anchor[1]}px`, width: `${m.size[0]}px`, height: `${m.size[1]}px`});
  map.appendChild(image);
}
for (const s of data.seeds) {
  const [x, y] = place(s.lnglat), div = document.createElement('div');
  div.className = 'seed';
  Object.assign(div.style, {left: `${x - s.anchor[0]}px`, top: `${y - s.anchor[1]}px`, width: `${s.size[0]}px`, height: `${s.size[1]}px`,
                            background: `url(${data.sheet.url}) -${s.x}px -${s.y}px / ${data.sheet.width}px auto`});
  map.appendChild(div);
}
for (const m of data.listings.concat(data.seeds)) {
  const [x, y] = place(m.lnglat), ring = document.createElement('div');
  ring.className = 'ring'; Object.assign(ring.style, {left: `${x}px`, top: `${y}px`});
  map.appendChild(ring);
}
</script></body></html>
"""

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out")
