/* Progressive enhancement for the staff screens; every page also works without it.
   - VP steppers and winner pre-selection (the single player with 10 or more VP)
   - what was typed survives a failed submit (kept in localStorage until the save succeeds)
   - a banner when the venue's connection drops
   - a signature pad that stores the drawing as an SVG path
   - the penalty form suggests the VP of the chosen kind
   - actions that cannot be undone ask first (forms with data-confirm)
   - the open language menu closes on a tap outside it or on Escape */
(function () {
  "use strict";

  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "422", swap: true },
    { code: "[45]..", swap: false, error: true },
  ];

  function vpInputs(form) {
    return Array.from(form.querySelectorAll("input.vp-input"));
  }

  function preselectWinner(form) {
    if (form.dataset.winnerTouched) return;
    const high = vpInputs(form).filter((input) => Number(input.value) >= 10 && input.value !== "");
    if (high.length !== 1) return;
    const row = high[0].closest(".score-row");
    const radio = row && row.querySelector("input[type=radio]");
    if (radio) radio.checked = true;
  }

  function draftKey(form) {
    return form.dataset.draftKey ? "catan-draft:" + form.dataset.draftKey : null;
  }

  function typedValues(form) {
    const values = {};
    form.querySelectorAll("input, select, textarea").forEach((field) => {
      if (!field.name || field.type === "hidden" || field.type === "submit") return;
      if (field.type === "radio") {
        if (field.checked) values[field.name] = field.value;
      } else {
        values[field.name] = field.value;
      }
    });
    return values;
  }

  function saveDraft(form) {
    const key = draftKey(form);
    if (!key) return;
    try { localStorage.setItem(key, JSON.stringify(typedValues(form))); } catch (e) { /* storage full or private */ }
  }

  function restoreDraft(form) {
    const key = draftKey(form);
    if (!key) return;
    const prefix = key.replace(/-\d+$/, "-");
    Object.keys(localStorage).forEach((k) => {
      if (k.startsWith(prefix) && k !== key) localStorage.removeItem(k);
    });
    const stored = localStorage.getItem(key);
    if (!stored) return;
    const draft = JSON.parse(stored);
    const shown = typedValues(form);
    const names = new Set([...Object.keys(draft), ...Object.keys(shown)]);
    if (![...names].some((name) => (draft[name] || "") !== (shown[name] || ""))) return;
    form.querySelectorAll("input, select, textarea").forEach((field) => {
      if (!field.name || field.type === "hidden" || field.type === "submit") return;
      if (field.type === "radio") field.checked = draft[field.name] === field.value;
      else field.value = draft[field.name] || "";
    });
    form.dataset.winnerTouched = "1";
    const note = document.createElement("p");
    note.className = "message warning";
    note.setAttribute("role", "status");
    note.textContent = form.dataset.restoredText;
    form.prepend(note);
  }

  function initSheetForm(form) {
    restoreDraft(form);
    form.addEventListener("input", () => { preselectWinner(form); saveDraft(form); });
    form.addEventListener("change", (event) => {
      if (event.target.type === "radio") form.dataset.winnerTouched = "1";
      saveDraft(form);
    });
    form.querySelectorAll("button.step").forEach((button) => {
      button.addEventListener("click", () => {
        const input = button.parentElement.querySelector("input");
        const next = Math.min(12, Math.max(0, (Number(input.value) || 0) + Number(button.dataset.step)));
        input.value = String(next);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  function initSignaturePad(form) {
    const pad = form.querySelector(".signature-pad");
    if (!pad) return;
    const canvas = pad.querySelector("canvas");
    const image = form.querySelector("input[name=image]");
    const drawButton = form.querySelector(".draw-submit");
    const context = canvas.getContext("2d");
    let path = "";
    let drawing = false;
    pad.hidden = false;
    context.lineWidth = 3;
    context.lineCap = "round";

    function point(event) {
      const box = canvas.getBoundingClientRect();
      return [
        Math.round(((event.clientX - box.left) * canvas.width) / box.width),
        Math.round(((event.clientY - box.top) * canvas.height) / box.height),
      ];
    }
    canvas.addEventListener("pointerdown", (event) => {
      drawing = true;
      canvas.setPointerCapture(event.pointerId);
      const [x, y] = point(event);
      path += `M${x} ${y}`;
      context.beginPath();
      context.moveTo(x, y);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!drawing) return;
      const [x, y] = point(event);
      path += `L${x} ${y}`;
      context.lineTo(x, y);
      context.stroke();
    });
    canvas.addEventListener("pointerup", () => {
      drawing = false;
      image.value = path;
      drawButton.hidden = path === "";
    });
    pad.querySelector(".clear-signature").addEventListener("click", () => {
      context.clearRect(0, 0, canvas.width, canvas.height);
      path = "";
      image.value = "";
      drawButton.hidden = true;
    });
  }

  function initPenaltyForm(select) {
    const vp = select.form.querySelector("input[name=vp]");
    if (!vp) return;
    const deduction = select.form.querySelector("select[name=deduction]");
    // what a late arrival or a fixed VP deduction costs under the tournament's ruleset (the form offers only those)
    const fixed = deduction ? JSON.parse(deduction.dataset.deductionVp || "{}") : {};
    const suggested = () => {
      if (select.value === "lateness") return Number(select.dataset.latenessVp);
      if (select.value === "vp_deduction") return deduction ? fixed[deduction.value] : undefined;
      return 0;
    };
    const suggest = () => {
      const value = suggested();
      if (value !== undefined) vp.value = String(value);
    };
    select.addEventListener("change", suggest);
    if (deduction) deduction.addEventListener("change", suggest);
  }

  htmx.onLoad((root) => {
    root.querySelectorAll("select[name=kind]").forEach(initPenaltyForm);
    root.querySelectorAll("form.sheet-form").forEach(initSheetForm);
    root.querySelectorAll("form.signature-form").forEach(initSignaturePad);
  });

  document.addEventListener("submit", (event) => {
    const message = event.target.dataset && event.target.dataset.confirm;
    if (message && !window.confirm(message)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("click", (event) => {
    document.querySelectorAll("details.language-menu[open]").forEach((menu) => {
      if (!menu.contains(event.target)) menu.open = false;
    });
  });
  document.addEventListener("keydown", (event) => {
    const menu = event.key === "Escape" && document.querySelector("details.language-menu[open]");
    if (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });

  document.addEventListener("htmx:sendError", () => {
    const banner = document.getElementById("connection-banner");
    if (banner) banner.hidden = false;
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const banner = document.getElementById("connection-banner");
    if (banner && event.detail.successful) banner.hidden = true;
    const refused = document.getElementById("request-error");
    if (refused && event.detail.successful) refused.hidden = true;
  });
  document.addEventListener("htmx:responseError", (event) => {
    const refused = document.getElementById("request-error");
    if (!refused) return;
    const status = event.detail.xhr.status;
    refused.textContent = status === 403 ? refused.dataset.forbidden
      : status === 404 ? refused.dataset.missing : refused.dataset.failed;
    refused.hidden = false;
    refused.scrollIntoView({ block: "center" });
  });
})();
