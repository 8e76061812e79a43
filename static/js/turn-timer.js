/* The tablet's turn timer (timed turns, 004 §1.1.8): each tap restarts the countdown for the player whose turn
   (or placement) begins; at zero the timer says so. It counts from the tap against this device's clock, so a
   tablet that slept still shows the right time when it wakes. */
(function () {
  "use strict";

  function text(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    document.querySelectorAll("[data-turn-timer][data-ends-at]").forEach(function (timer) {
      var left = Math.max(0, Math.ceil((parseInt(timer.getAttribute("data-ends-at"), 10) - Date.now()) / 1000));
      timer.querySelector("[data-turn-digits]").textContent = text(left);
      if (left === 0 && !timer.classList.contains("over")) {
        timer.classList.add("over");
        timer.querySelector("[data-turn-hint]").textContent = timer.getAttribute("data-over-label");
      }
    });
  }

  document.addEventListener("click", function (event) {
    var timer = event.target.closest("[data-turn-timer]");
    if (!timer) { return; }
    var seconds = parseInt(timer.getAttribute("data-seconds"), 10);
    timer.setAttribute("data-ends-at", String(Date.now() + seconds * 1000));
    timer.classList.remove("over");
    timer.classList.add("running");
    timer.querySelector("[data-turn-hint]").textContent = timer.getAttribute("data-start-label");
    tick();
  });
  window.setInterval(tick, 250);
  document.addEventListener("visibilitychange", tick);
}());
