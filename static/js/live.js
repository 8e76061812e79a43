/* Live public pages: ask the tournament's tiny version endpoint every few seconds (the browser revalidates with
   its ETag, so "nothing new" is a 304 the server answers without rendering), and again within a second while it
   says a newer version's pages are being made ("coming"); when the version changes, htmx
   refreshes the page's live regions ([data-live-region], hx-trigger="results-changed") or, on the projector
   (data-live-reload), the whole page. Without JavaScript the pages are simply static. */
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root || !window.fetch) { return; }
  var url = root.getAttribute("data-live-url");
  var version = root.getAttribute("data-live-version");
  var every = (parseInt(root.getAttribute("data-poll-seconds"), 10) || 4) * 1000;

  function refresh() {
    if (root.hasAttribute("data-live-reload")) { window.location.reload(); return; }
    if (!window.htmx) { return; }
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      window.htmx.trigger(region, "results-changed");
    });
  }

  function poll() {
    if (document.hidden) { window.setTimeout(poll, every); return; }
    window.fetch(url, { cache: "no-cache", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && data.version && data.version !== version) {
          version = data.version;
          refresh();
        }
        // a newer version's pages are being made: ask again soon rather than at the next tick
        return data && data.coming ? (parseInt(data.soon, 10) || 1) * 1000 : every;
      })
      .catch(function () { return every; /* offline for a moment: try again at the next tick */ })
      .then(function (wait) { window.setTimeout(poll, wait); });
  }
  window.setTimeout(poll, every);
}());
