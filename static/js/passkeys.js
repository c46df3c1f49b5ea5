// Passkeys on "Your devices" (app/web/passkeys.py): add one for this player, sign in with one
// after cookies were cleared or on a new browser. The server checks every step; this only
// carries the browser's WebAuthn answers (base64url JSON) to it.
(function () {
  "use strict";
  const root = document.querySelector("[data-passkeys]");
  if (!root) return;
  const status = root.querySelector("[data-passkey-status]");
  if (!window.PublicKeyCredential || !navigator.credentials) {
    root.querySelectorAll("[data-add-passkey], [data-passkey-signin]").forEach((b) => { b.hidden = true; });
    if (status) status.textContent = root.dataset.unsupported || "";
    return;
  }

  function toBuffer(text) {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
  }
  function toText(buffer) {
    let bin = "";
    new Uint8Array(buffer).forEach((b) => { bin += String.fromCharCode(b); });
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function creationOptions(o) {
    if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
    return Object.assign({}, o, {
      challenge: toBuffer(o.challenge),
      user: Object.assign({}, o.user, { id: toBuffer(o.user.id) }),
      excludeCredentials: (o.excludeCredentials || []).map((c) => Object.assign({}, c, { id: toBuffer(c.id) })),
    });
  }
  function requestOptions(o) {
    if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
    return Object.assign({}, o, {
      challenge: toBuffer(o.challenge),
      allowCredentials: (o.allowCredentials || []).map((c) => Object.assign({}, c, { id: toBuffer(c.id) })),
    });
  }
  function asJSON(cred) {
    if (cred.toJSON) return cred.toJSON();
    const r = cred.response, out = { id: cred.id, rawId: toText(cred.rawId), type: cred.type,
      clientExtensionResults: cred.getClientExtensionResults(), response: { clientDataJSON: toText(r.clientDataJSON) } };
    if (r.attestationObject) out.response.attestationObject = toText(r.attestationObject);
    if (r.authenticatorData) out.response.authenticatorData = toText(r.authenticatorData);
    if (r.signature) out.response.signature = toText(r.signature);
    if (r.userHandle) out.response.userHandle = toText(r.userHandle);
    return out;
  }
  async function post(url, body) {
    const r = await fetch(url, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body || {}) });
    let data = {};
    try { data = await r.json(); } catch (e) { data = {}; }
    if (!r.ok) throw new Error(data.message || root.dataset.failed || "");
    return data;
  }
  function say(text) { if (status) status.textContent = text; }

  async function add(button) {
    button.disabled = true;
    try {
      const options = await post("/passkeys/register/options");
      const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
      await post("/passkeys/register", asJSON(cred));
      window.location.reload();
    } catch (e) {
      say(e.message || root.dataset.failed || "");
    } finally { button.disabled = false; }
  }
  async function signIn(button) {
    button.disabled = true;
    try {
      const options = await post("/passkeys/signin/options");
      const cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
      const done = await post("/passkeys/signin", asJSON(cred));
      window.location.assign(done.next || "/");
    } catch (e) {
      say(e.message || root.dataset.failed || "");
    } finally { button.disabled = false; }
  }
  root.addEventListener("click", (event) => {
    const addButton = event.target.closest("[data-add-passkey]");
    if (addButton) { event.preventDefault(); add(addButton); return; }
    const signButton = event.target.closest("[data-passkey-signin]");
    if (signButton) { event.preventDefault(); signIn(signButton); }
  });
})();
