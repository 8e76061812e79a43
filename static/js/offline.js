/* The referee's tablet without a network (issue 28); loaded on the referee's pages only.
   - registers the service worker (/sw.js) and, on the desk, asks it to keep the desk and its game's sheets
   - with no network (or while a table already has actions waiting), the sheet's scores, signatures and sign-off
     are queued in IndexedDB instead of posted; the sheet shows them as "saved on this tablet, not yet sent"
   - the queue is sent in order when the network returns and on "Send now", one action per request, to
     /referee/<slug>/tables/<id>/send/; each action carries the sheet version it was made on, which is what the
     server already uses to apply an action once however often it arrives
   - a sheet changed on the server meanwhile stops that table's queue and shows both versions side by side; the
     referee chooses. A refused action stays in the queue with the server's reasons until the referee acts.
   - a banner says online/offline and how many actions wait; the desk marks the tables waiting on this tablet.
   Every string shown comes from the templates' data attributes (translated there). */
(function () {
  "use strict";

  const state = document.getElementById("tablet-state");
  if (!state || !("indexedDB" in window)) return;
  const user = state.dataset.user;
  const text = (name) => state.dataset[name] || "";

  // ---- IndexedDB: one store of actions, in the order they were made (auto-increment id) ----
  let database = null;
  function db() {
    if (database) return Promise.resolve(database);
    return new Promise((resolve, reject) => {
      const request = indexedDB.open("catan-offline", 1);
      request.onupgradeneeded = () => request.result.createObjectStore("actions", { keyPath: "id", autoIncrement: true });
      request.onsuccess = () => { database = request.result; database.onversionchange = () => database.close(); resolve(database); };
      request.onerror = () => reject(request.error);
    });
  }
  function store(mode, work) {
    return db().then((d) => new Promise((resolve, reject) => {
      const transaction = d.transaction("actions", mode);
      const result = work(transaction.objectStore("actions"));
      transaction.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      transaction.onerror = () => reject(transaction.error);
    }));
  }
  const allActions = () => store("readonly", (s) => s.getAll()).then((list) => list.filter((a) => a.user === user));
  const putAction = (action) => store("readwrite", (s) => s.put(action));
  const removeActions = (ids) => store("readwrite", (s) => ids.forEach((id) => s.delete(id)));

  // ---- The service worker ----
  if ("serviceWorker" in navigator && state.dataset.worker) {
    navigator.serviceWorker.register(state.dataset.worker, { scope: "/" }).then(() => {
      if (!state.dataset.home || !navigator.onLine) return;  // the desk only, and online
      // the desk (as shown and as the sheets' "All tables" link names it), the referee's home, and this game's sheets
      const keep = new Set([location.pathname + location.search, location.pathname, state.dataset.home]);
      const game = document.querySelector(".game-tabs a.active");
      if (game) keep.add(location.pathname + game.getAttribute("href"));
      document.querySelectorAll("a.table-card").forEach((card) => keep.add(new URL(card.href).pathname));
      navigator.serviceWorker.ready.then((registration) => {
        registration.active.postMessage({ type: "keep", user, urls: [...keep] });
      });
    }).catch(() => { /* no worker (private mode, old browser): the pages still work online */ });
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.type === "kept") state.dataset.kept = "1";
    });
  }

  // ---- The sheet ----
  const sheet = document.querySelector("[data-offline-sheet]");
  const tableId = sheet ? Number(sheet.dataset.table) : null;
  const sheetText = (name) => (sheet && sheet.dataset[name]) || "";

  function formFields(form, submitter) {
    const fields = {};
    new FormData(form).forEach((value, name) => { if (name !== "csrfmiddlewaretoken") fields[name] = String(value); });
    if (submitter && submitter.name) fields[submitter.name] = submitter.value;
    return fields;
  }

  function unchangedScores(form) {
    return Array.from(form.querySelectorAll("input")).every((input) =>
      input.type === "hidden" || (input.type === "radio" ? input.checked === input.defaultChecked
        : input.value === input.defaultValue));
  }

  function scoresComplete(form) {
    const vps = Array.from(form.querySelectorAll("input.vp-input"));
    const winner = form.querySelector("input[type=radio]:checked");
    return vps.every((input) => input.value !== "" && Number(input.value) >= 0 && Number(input.value) <= 12)
      && (winner || vps.filter((input) => Number(input.value) >= 10).length === 1);
  }

  async function queueForm(form, submitter) {
    const kind = form.dataset.offline;
    const fields = formFields(form, submitter);
    const mine = (await allActions()).filter((a) => a.table === tableId);
    const base = {
      user, table: tableId, kind, fields, made: new Date().toISOString(),
      send: sheet.dataset.send, page: sheet.dataset.page, label: sheet.dataset.label, pending: state.dataset.pending,
    };
    if (kind === "scores") {
      if (!scoresComplete(form)) { showNote(sheetText("incomplete"), "error"); return; }
      const earlier = mine.find((a) => a.kind === "scores");
      const baseVersion = earlier ? earlier.fields.base_version : fields.base_version;
      fields.base_version = baseVersion;
      // Saving what the sheet already holds keeps its version and signatures; new content makes the next version.
      const same = !earlier && Number(baseVersion) > 0 && unchangedScores(form);
      await removeActions(mine.map((a) => a.id));
      await putAction({ ...base, predicted: Number(baseVersion) + (same ? 0 : 1) });
    } else {
      const save = mine.find((a) => a.kind === "scores");
      if (save) fields.version = String(save.predicted);
      await putAction(base);
    }
    await render();
    sync();
  }

  // Which tables have actions waiting, kept up to date by render(): a submit must be decided at once, before htmx
  // sends it (this listener runs in the capture phase, after app.js's confirmation).
  let waitingTables = new Set();

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!sheet || !form.dataset || !form.dataset.offline) return;
    if (navigator.onLine && !waitingTables.has(tableId) && form.dataset.tabletOnly === undefined) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    queueForm(form, event.submitter);
  }, true);

  function showNote(message, kind) {
    const note = document.getElementById("tablet-note");
    if (!note) return;
    note.textContent = message;
    note.className = "message " + (kind || "warning");
    note.hidden = !message;
  }

  function setRowSigned(row, label) {
    row.classList.add("signed", "signed-here");
    row.querySelectorAll("details, form").forEach((element) => { element.hidden = true; });
    if (!row.querySelector(".tablet-signed")) {
      const note = document.createElement("span");
      note.className = "tablet-signed";
      note.textContent = "✓ " + label;
      row.append(note);
    }
  }

  function fillScores(form, fields) {
    form.querySelectorAll("input, select, textarea").forEach((field) => {
      if (!field.name || field.type === "hidden") return;
      if (field.type === "radio") field.checked = fields[field.name] === field.value;
      else if (field.name in fields) field.value = fields[field.name];
    });
    form.dataset.winnerTouched = "1";
  }

  function describe(scores, start, end) {
    const list = document.createElement("ul");
    scores.forEach((s) => {
      const item = document.createElement("li");
      const name = document.createElement("bdi");
      name.textContent = s.player;
      item.append(name, `: ${s.vp === null || s.vp === undefined ? "—" : s.vp}`);
      if (s.winner) item.append(` (${sheetText("winner")})`);
      list.append(item);
    });
    if (start || end) {
      const times = document.createElement("li");
      times.textContent = `${start || "—"} – ${end || "—"}`;
      list.append(times);
    }
    return list;
  }

  function tabletScores(save) {
    const form = document.querySelector("form[data-offline=scores]");
    const names = {};
    if (form) form.querySelectorAll(".score-row").forEach((row) => {
      const input = row.querySelector("input.vp-input");
      names[input.name.slice(3)] = row.querySelector(".player-name bdi").textContent;
    });
    return Object.keys(names).map((entry) => ({
      player: names[entry], vp: save.fields["vp_" + entry], winner: save.fields.winner === entry,
    }));
  }

  function renderProblem(mine) {
    const panel = document.getElementById("tablet-conflict");
    const stuck = mine.find((a) => a.conflict || a.errors);
    panel.hidden = !stuck;
    if (!stuck) return;
    const server = stuck.server;
    const save = mine.find((a) => a.kind === "scores");
    panel.querySelector(".tablet-conflict-why").textContent = stuck.conflict
      ? sheetText("conflict") : sheetText("refused") + " " + stuck.errors.join(" ");
    panel.querySelector(".server-title").textContent = sheetText("serverVersion").replace("{v}", server.version)
      + " · " + server.status_label;
    panel.querySelector(".server-version").replaceChildren(describe(server.scores, server.start_time, server.end_time));
    const tablet = panel.querySelector(".tablet-version");
    const signed = mine.filter((a) => a.kind === "sign").length;
    const offPart = mine.some((a) => a.kind === "sign-off") ? [sheetText("signedOffHere")] : [];
    tablet.replaceChildren(save ? describe(tabletScores(save), save.fields.start_time, save.fields.end_time) : "");
    const extra = document.createElement("p");
    extra.textContent = [sheetText("signaturesHere").replace("{n}", signed), ...offPart].join(" · ");
    tablet.append(extra);
    const canSend = stuck.conflict && save && !server.locked && server.status !== "signed";
    panel.querySelector(".send-mine").hidden = !canSend;
    panel.querySelector(".edit-mine").hidden = !stuck.errors;
  }

  async function renderSheet(actions) {
    const mine = actions.filter((a) => a.table === tableId);
    const save = mine.find((a) => a.kind === "scores");
    const form = document.querySelector("form[data-offline=scores]");
    const steps = document.getElementById("tablet-steps");
    if (save && form) {
      fillScores(form, save.fields);
      // app.js's draft note ("typed but not saved") does not apply: these values are saved, on this tablet
      form.querySelectorAll(".message").forEach((note) => {
        if (note.textContent === form.dataset.restoredText) note.remove();
      });
    }
    document.querySelectorAll("[data-server-steps]").forEach((section) => { section.hidden = Boolean(save); });
    if (steps) steps.hidden = !save;
    const rows = Array.from(document.querySelectorAll(
      save ? "#tablet-steps .signature-row" : "[data-server-steps] .signature-row"));
    const signedHere = new Set(mine.filter((a) => a.kind === "sign").map((a) => a.fields.entry));
    rows.forEach((row) => { if (signedHere.has(row.dataset.entry)) setRowSigned(row, sheetText("signedHere")); });
    const signOff = document.querySelector(save ? "#tablet-steps form[data-offline=sign-off]"
      : "[data-server-steps] form[data-offline=sign-off]");
    const offHere = mine.some((a) => a.kind === "sign-off");
    if (form) form.querySelector("button[type=submit]").disabled = offHere;  // signed off: the scores stay
    if (signOff) {
      const button = signOff.querySelector("button[type=submit]");
      const everyone = rows.length > 0 && rows.every((row) => row.classList.contains("signed"));
      if (button) button.disabled = !everyone || offHere;
      if (offHere) signOff.hidden = true;
    }
    let note = "";
    if (offHere) note = sheetText("signedOffHere");
    else if (save) note = sheetText("savedHere");
    else if (mine.length) note = sheetText("waitingHere");
    showNote(note, "warning");
    renderProblem(mine);
  }

  // ---- The desk: tables whose actions wait on this tablet ----
  function renderDesk(actions) {
    const waiting = new Set(actions.map((a) => String(a.table)));
    document.querySelectorAll("[data-desk-table]").forEach((item) => {
      const card = item.querySelector(".table-card");
      let mark = item.querySelector(".tablet-local-note");
      if (waiting.has(item.dataset.deskTable)) {
        if (!mark) {
          mark = document.createElement("span");
          mark.className = "tablet-waiting-note tablet-local-note";
          mark.textContent = text("onTablet");
          card.append(mark);
        }
      } else if (mark) {
        mark.remove();
      }
    });
  }

  // ---- The banner ----
  async function render() {
    const actions = await allActions();
    waitingTables = new Set(actions.map((a) => a.table));
    state.hidden = false;
    state.classList.toggle("offline", !navigator.onLine);
    state.querySelector(".tablet-connection").textContent = navigator.onLine ? text("online") : text("offline");
    state.querySelector(".tablet-count").textContent = String(actions.length);
    state.querySelector(".tablet-send").hidden = !actions.length;
    const stuck = actions.filter((a) => a.conflict || a.errors);
    const problem = state.querySelector(".tablet-problem");
    problem.replaceChildren();
    if (stuck.length) {
      problem.append(text("choose") + " ");
      stuck.forEach((a, n) => {
        const link = document.createElement("a");
        link.href = a.page;
        link.textContent = a.label;
        problem.append(...(n ? [", ", link] : [link]));
      });
    } else if (state.dataset.problem) {
      problem.append(text(state.dataset.problem));
    }
    problem.hidden = !problem.childNodes.length;
    if (sheet) await renderSheet(actions);
    renderDesk(actions);
  }

  // ---- Sending, in order ----
  function csrfToken() {
    const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.split("=")[1]);
    const headers = document.body.getAttribute("hx-headers");
    return headers ? JSON.parse(headers)["X-CSRFToken"] : "";
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", redirect: "manual", headers: { "X-CSRFToken": csrfToken() }, body,
    });
  }

  // Tell the server which tables of each tournament still wait on this tablet (the organizer's list of missing
  // results shows them); once a tournament's list is empty and said so, nothing more is sent for it.
  async function report(urls) {
    const actions = await allActions();
    for (const url of urls) {
      const tables = [...new Set(actions.filter((a) => a.pending === url).map((a) => String(a.table)))];
      const said = "catan-reported:" + url;
      if (!tables.length && !localStorage.getItem(said)) continue;
      try {
        const response = await post(url, new URLSearchParams(tables.map((table) => ["tables", table])));
        if (response.ok && tables.length) localStorage.setItem(said, "1");
        else if (response.ok) localStorage.removeItem(said);
      } catch (error) {
        return;  // offline again: the next sync reports
      }
    }
  }

  let syncing = false;
  async function sync() {
    if (syncing || !navigator.onLine) return;
    syncing = true;
    let sent = 0;
    delete state.dataset.problem;
    const tournaments = new Set(state.dataset.pending ? [state.dataset.pending] : []);
    try {
      const actions = await allActions();
      actions.forEach((a) => { if (a.pending) tournaments.add(a.pending); });
      const blocked = new Set(actions.filter((a) => a.conflict || a.errors).map((a) => a.table));
      for (const action of actions) {
        if (blocked.has(action.table)) continue;
        let response;
        try {
          response = await post(action.send,
            new URLSearchParams({ ...action.fields, kind: action.kind }));
        } catch (error) {
          break;  // the network went away again: the rest waits
        }
        const answer = (response.headers.get("content-type") || "").includes("json") ? await response.json() : null;
        if (response.ok && answer) {
          await removeActions([action.id]);
          sent += 1;
          if (action.kind === "scores" && answer.server.version !== action.predicted) {
            // the server kept the version (the same scores were there): the signatures made here are on it
            const later = (await allActions()).filter((a) => a.table === action.table && a.fields.version
              && Number(a.fields.version) === action.predicted);
            await Promise.all(later.map((a) => putAction({ ...a, fields: { ...a.fields, version: String(answer.server.version) } })));
          }
        } else if ((response.status === 409 || response.status === 422) && answer) {
          await putAction({ ...action, conflict: answer.conflict || null, errors: answer.errors || null, server: answer.server });
          blocked.add(action.table);
        } else {
          state.dataset.problem = response.type === "opaqueredirect" || response.status === 403
            ? "signIn" : "failed";
          break;
        }
      }
      await report(tournaments);
    } finally {
      syncing = false;
    }
    await render();
    const left = (await allActions()).filter((a) => a.table === tableId);
    if (sent && (!sheet || !left.length)) window.location.reload();
  }

  // ---- Choosing on a conflict ----
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("#tablet-conflict button, .tablet-send");
    if (!button) return;
    if (button.classList.contains("tablet-send")) { sync(); return; }
    const mine = (await allActions()).filter((a) => a.table === tableId);
    const stuck = mine.find((a) => a.conflict || a.errors);
    if (!stuck) return;
    if (button.classList.contains("keep-server")) {
      if (!window.confirm(sheetText("confirmDrop"))) return;
      await removeActions(mine.map((a) => a.id));
      window.location.reload();
    } else if (button.classList.contains("edit-mine")) {
      const form = document.querySelector("form[data-offline=scores]");
      await removeActions(mine.map((a) => a.id));
      if (form) form.dispatchEvent(new Event("input", { bubbles: true }));  // app.js keeps it as a draft
      await render();
    } else if (button.classList.contains("send-mine")) {
      const next = stuck.server.version + 1;
      await Promise.all(mine.map((a) => putAction({
        ...a, conflict: null, errors: null, server: null,
        ...(a.kind === "scores" ? { predicted: next, fields: { ...a.fields, base_version: String(stuck.server.version) } }
          : { fields: { ...a.fields, version: String(next) } }),
      })));
      sync();
    }
  });

  // ---- Signing out with actions waiting deletes them: ask first ----
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.action || !/\/accounts\/logout\/$/.test(new URL(form.action, location.href).pathname)) return;
    const count = Number(state.querySelector(".tablet-count").textContent);
    if (count && !window.confirm(text("signOutWaiting").replace("{n}", count))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  window.addEventListener("online", () => { render(); sync(); });
  window.addEventListener("offline", render);
  htmx.onLoad(() => { allActions().then(renderDesk); });
  render().then(sync);
})();
