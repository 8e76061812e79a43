/* The stage page's swap: tick a seat, then another; a third tick drops the oldest, so a tap on a tablet
   always means "this one instead". The bar names the two players picked. Without this file the boxes
   still work: tick two and press the button. */
(function () {
  "use strict";

  function label(box) {
    const text = box.labels && box.labels[0] ? box.labels[0].textContent : box.value;
    return text.replace(/\s+/g, " ").trim();
  }

  document.querySelectorAll("form[data-swap]").forEach((form) => {
    const picked = [];
    const output = form.querySelector(".swap-picked");
    form.addEventListener("change", (event) => {
      const box = event.target;
      if (box.name !== "seat") return;
      const at = picked.indexOf(box);
      if (at >= 0) picked.splice(at, 1);
      if (box.checked) picked.push(box);
      while (picked.length > 2) picked.shift().checked = false;
      if (output) output.textContent = picked.map(label).join(" ⇄ ");
    });
  });
})();
