/* "Notify me on this phone" on a player's private page (issue 25): subscribes this browser to Web Push with the
   site's VAPID key and gives the server its endpoint and keys, or takes them back. The page renders the box hidden
   and only where the deployment configures Web Push; this script shows it only where the browser can push (a
   service worker, the Push API and notifications), so without JavaScript or support the page is as before.
   The same service worker as the referee's tablet (/sw.js, scope "/") shows the notifications. */
"use strict";

(() => {
  const box = document.getElementById("push-notice");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return;
  const button = box.querySelector("button");
  const status = box.querySelector("[role=status]");
  const csrf = box.querySelector("input[name=csrfmiddlewaretoken]").value;

  const keyBytes = (base64url) => {
    const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  };

  const post = (url, subscription) => {
    const json = subscription.toJSON();
    const body = new URLSearchParams({ endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth });
    return fetch(url, { method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": csrf } })
      .then((response) => { if (!response.ok) throw new Error(String(response.status)); });
  };

  const show = (subscribed, message) => {
    button.textContent = subscribed ? box.dataset.stop : box.dataset.start;
    status.textContent = message === undefined ? (subscribed ? box.dataset.on : "") : message;
  };

  navigator.serviceWorker.register(box.dataset.worker, { scope: "/" }).then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.pushManager.getSubscription().then((current) => {
      let subscription = current;
      show(Boolean(subscription));
      box.hidden = false;
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          if (subscription) {
            await post(box.dataset.unsubscribe, subscription);
            await subscription.unsubscribe();
            subscription = null;
            show(false, box.dataset.off);
          } else if (await Notification.requestPermission() !== "granted") {
            show(false, box.dataset.denied);
          } else {
            const fresh = await registration.pushManager.subscribe({
              userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
            try {
              await post(box.dataset.subscribe, fresh);
            } catch (error) {
              await fresh.unsubscribe();  // the server does not know it: no subscription nothing is sent to
              throw error;
            }
            subscription = fresh;
            show(true);
          }
        } catch (error) {
          show(Boolean(subscription), box.dataset.failed);
        } finally {
          button.disabled = false;
        }
      });
    }))
    .catch(() => { /* no worker (private mode, old browser): the box stays hidden, the page works as before */ });
})();
