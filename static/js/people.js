/* Players, entries and check-in pages; each works without it.
   - "select all" boxes (hidden without JavaScript, where each row is chosen on its own)
   - at the check-in desk, after a player is checked in the search box is ready for the next name, and the
     confirmation of a late arrival has its button under the thumb */
(function () {
  "use strict";
  document.querySelectorAll("[data-select-all]").forEach(function (box) {
    var form = box.closest("form");
    var name = box.dataset.selectAll;
    box.closest(".select-all").hidden = false;
    box.addEventListener("change", function () {
      form.querySelectorAll('input[type=checkbox][name="' + name + '"]').forEach(function (row) {
        row.checked = box.checked;
      });
    });
  });

  var checkedIn = false;
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    checkedIn = event.target.classList && event.target.classList.contains("checkin-form");
  });
  document.body.addEventListener("htmx:load", function (event) {
    var confirm = event.target.querySelector && event.target.querySelector(".checkin-confirm button");
    if (confirm) {
      confirm.focus();
      return;
    }
    var search = document.getElementById("checkin-q");
    if (!checkedIn || !search) return;
    checkedIn = false;
    search.focus();
    search.select();
  });
})();
