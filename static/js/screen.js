/* The projector cycles through its slides (standings pages, "find your table", announcements), one at a time;
   a big game's seating comes in parts (data-next-part): after this part's last slide it goes on to the next part.
   Without JavaScript every slide is shown one below the other, with links to the other parts. */
(function () {
  "use strict";
  var SECONDS = 12;
  var slides = Array.prototype.slice.call(document.querySelectorAll(".slide"));
  if (slides.length < 2) { return; }
  document.body.classList.add("cycling");
  var KEY = "screen-slide:" + window.location.pathname + window.location.search;  // a reload (new results) goes on where it was
  var main = document.querySelector("[data-next-part]");
  var current = (parseInt(window.sessionStorage.getItem(KEY), 10) || 0) % slides.length;
  function show(index) {
    slides.forEach(function (slide, i) { slide.hidden = i !== index; });
  }
  show(current);
  window.setInterval(function () {
    if (main && current + 1 >= slides.length) {
      window.sessionStorage.setItem(KEY, "0");
      window.location.assign(main.getAttribute("data-next-part"));
      return;
    }
    current = (current + 1) % slides.length;
    window.sessionStorage.setItem(KEY, String(current));
    show(current);
  }, SECONDS * 1000);
}());
