/* The map-study countdown: every screen counts down to the end time the server sent, corrected by the
   difference between the server's clock and this device's (measured when the page arrived, then asked), so all
   screens agree, after a reload too, and a phone that slept shows the right time when it wakes. Clocks
   that htmx swaps in are picked up at the next tick. Without JavaScript the page shows the end time. */
(function () {
  "use strict";

  function text(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  /* When this device received the page, on its own clock: the moment the server's time on the page was true
     (the page may take a while to load on a slow phone). Clocks htmx swaps in later are measured on arrival. */
  var navigation = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  var receivedAgo = navigation ? Math.max(0, performance.now() - navigation.responseStart) : 0;
  var pageReceived = Date.now() - receivedAgo;
  document.querySelectorAll("[data-study-clock]").forEach(function (clock) {
    clock.setAttribute("data-received-ms", String(pageReceived));
  });

  /* A public page may come from a cache, its server time stale: ask the tournament's version endpoint, uncached,
     for the server's time now, and take the middle of the round trip. */
  var measured = null;
  var live = document.getElementById("live");
  if (live && window.fetch && document.querySelector("[data-study-clock]")) {
    var asked = Date.now();
    window.fetch(live.getAttribute("data-live-url"), { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && data.now) { measured = data.now - (asked + Date.now()) / 2; tick(); }
      })
      .catch(function () { /* offline: the page's own server time stands */ });
  }

  function tick() {
    document.querySelectorAll("[data-study-clock][data-ends-at-ms]").forEach(function (clock) {
      if (!clock.hasAttribute("data-offset-ms")) {
        var serverNow = parseInt(clock.getAttribute("data-server-now-ms"), 10);
        var received = parseInt(clock.getAttribute("data-received-ms"), 10) || Date.now();
        clock.setAttribute("data-offset-ms", String(serverNow - received));
      }
      var offset = measured !== null ? measured : parseInt(clock.getAttribute("data-offset-ms"), 10);
      var endsAt = parseInt(clock.getAttribute("data-ends-at-ms"), 10);
      var left = Math.max(0, Math.ceil((endsAt - (Date.now() + offset)) / 1000));
      var digits = clock.querySelector("[data-clock-digits]");
      if (digits && digits.textContent !== text(left)) { digits.textContent = text(left); }
      if (left === 0 && clock.getAttribute("data-state") !== "ended") {
        clock.setAttribute("data-state", "ended");
        clock.classList.remove("state-running");
        clock.classList.add("state-ended");
        var note = clock.querySelector("[data-clock-note]");
        if (note) {
          var strong = document.createElement("strong");
          strong.textContent = clock.getAttribute("data-ended-label");
          note.replaceChildren(strong);
        }
      }
    });
  }

  tick();
  window.setInterval(tick, 250);
  document.addEventListener("visibilitychange", tick);
}());
