/* The projector cycles through its slides (standings pages, "find your table", announcements), one at a time.
   Without JavaScript every slide is shown one below the other. */
(function () {
  "use strict";
  var SECONDS = 12;
  var slides = Array.prototype.slice.call(document.querySelectorAll(".slide"));
  if (slides.length < 2) { return; }
  document.body.classList.add("cycling");
  var KEY = "screen-slide:" + window.location.pathname;  // a reload (new results) goes on where it was
  var current = (parseInt(window.sessionStorage.getItem(KEY), 10) || 0) % slides.length;
  function show(index) {
    slides.forEach(function (slide, i) { slide.hidden = i !== index; });
  }
  show(current);
  window.setInterval(function () {
    current = (current + 1) % slides.length;
    window.sessionStorage.setItem(KEY, String(current));
    show(current);
  }, SECONDS * 1000);
}());
