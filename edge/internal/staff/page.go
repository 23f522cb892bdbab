package staff

import (
	"context"
	"html/template"
	"net/http"
	"strings"

	"omnibus/edge/internal/security"
)

// The studio's sign-in page, /staff/sign-in, drawn by the edge (as the
// insights page is): it depends on the sessions only the edge resolves,
// and its one script, inline under the site's CSP with this answer's
// nonce, runs the passkey ceremonies (navigator.credentials) against the
// JSON endpoints of signin.go: the sign-in, the enrolments, and the
// re-check a studio session needs before granting, revoking or publishing
// (the studio's pages link here with ?next= when one was refused). No other page loads it.

// Pages wraps the page handler: GET /staff/sign-in answers here.
func (s *Service) Pages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == SignInPath && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			s.signInPage(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

type pageState struct {
	Nonce     string
	Next      string
	Email     string
	Role      string
	InStudio  bool // a studio session
	SignedIn  bool // a merchant session
	Staff     bool
	Passkeys  int
	Fresh     bool // merchant sign-in recent enough to enrol
	TOTP      bool // allowed by an admin
	TOTPReady bool // confirmed
}

// safeNext keeps a return address inside the studio.
func safeNext(v string) string {
	if v == "/staff" || (strings.HasPrefix(v, "/staff/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, "\\\r\n") && v != SignInPath) {
		return v
	}
	return "/staff"
}

func (s *Service) signInPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	st := pageState{Nonce: security.Nonce(r), Next: safeNext(r.URL.Query().Get("next"))}
	if sess, err := s.current(ctx, r); err == nil && sess != nil {
		st.InStudio, st.Staff, st.Email, st.Role = true, true, sess.Member.Email, sess.Member.Role.String()
	}
	if s.opt.Account != nil {
		if id, at, ok := s.opt.Account(w, r); ok {
			st.SignedIn = true
			st.Fresh = s.now().Sub(at) <= s.opt.EnrolWindow
			if m, err := s.Members.Lookup(ctx, id); err == nil && m.Role != None {
				st.Staff, st.Email, st.Role = true, m.Email, m.Role.String()
				st.Passkeys, st.TOTP, st.TOTPReady = s.factors(ctx, id)
			}
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store, private")
	h.Set("X-Robots-Tag", "noindex, nofollow")
	if r.Method == http.MethodGet {
		if err := signInTemplate.Execute(w, st); err != nil {
			s.log.WarnContext(ctx, "staff: sign-in page", "err", err)
		}
	}
}

// factors: the member's passkeys, whether TOTP is allowed and set up.
func (s *Service) factors(ctx context.Context, id uint64) (passkeys int, allowed, ready bool) {
	var n int64
	s.db.WithContext(ctx).Model(&passkeyRow{}).Where("account_id = ?", id).Count(&n)
	allowed, _ = s.totpAllowed(ctx, id)
	var t int64
	s.db.WithContext(ctx).Model(&totpRow{}).Where("account_id = ? AND confirmed_at IS NOT NULL", id).Count(&t)
	return int(n), allowed, t > 0
}

var signInTemplate = template.Must(template.New("signin").Parse(`<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Studio sign-in — Omnibus staff</title>
<link rel="icon" href="/favicon.webp" type="image/webp">
<style nonce="{{.Nonce}}">
:root{color-scheme:light dark}
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:32rem;padding:2rem 1.5rem}
h1{font-size:1.5rem}button,input{font:inherit;padding:.5rem .9rem;border-radius:.4rem}
button{background:#4338ca;color:#fff;border:0;cursor:pointer;margin:.25rem 0}
input{border:1px solid #888;width:9rem}form{margin:1rem 0}
#status{min-height:1.5em;font-weight:600}a{color:#4338ca}.muted{opacity:.8}
</style>
</head>
<body>
<main data-next="{{.Next}}">
<h1>Studio sign-in</h1>
{{if .InStudio}}
<p>You are signed in to the studio as <strong>{{.Email}}</strong> ({{.Role}}).</p>
<p><a href="{{.Next}}">Continue to the studio</a> · <a href="/staff/insights">Insights</a></p>
<p>Granting and revoking roles and publishing need your second factor confirmed within the last few minutes.</p>
<button type="button" id="recheck-passkey">Confirm it is you with your passkey</button>
{{if .TOTPReady}}<form id="recheck-totp"><label>Or a code from your authenticator app <input name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required></label>
<button type="submit">Confirm with the code</button></form>{{end}}
<button type="button" id="add-passkey">Add another passkey</button>
<button type="button" id="sign-out">Sign out of the studio</button>
{{else if not .SignedIn}}
<p>The studio is for Omnibus staff. First <a href="/login">sign in to your account</a> with your password or Google, then come back here: the studio then asks for your passkey.</p>
{{else if not .Staff}}
<p>This account has no staff role. An admin can grant one.</p>
{{else}}
<p>Signed in on the site as <strong>{{.Email}}</strong> ({{.Role}}). The studio needs your second factor too.</p>
{{if .Passkeys}}
<button type="button" id="sign-in-passkey">Sign in with your passkey</button>
{{else if .Fresh}}
<p>Add a passkey (your device's screen lock or a security key) to use the studio.</p>
<button type="button" id="enrol-passkey">Add a passkey</button>
{{else}}
<p>To add your first passkey, <a href="/login">sign in to your account again</a> (for your security this must be within the last few minutes), then come back.</p>
{{end}}
{{if .TOTP}}{{if .TOTPReady}}
<form id="totp-form"><label>Code from your authenticator app <input name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required></label>
<button type="submit">Sign in with the code</button></form>
<form id="recovery-form"><label>Or a recovery code <input name="recoveryCode" autocomplete="off" maxlength="11" required></label>
<button type="submit">Use the recovery code</button></form>
{{else if .Fresh}}
<button type="button" id="enrol-totp">Set up an authenticator app</button>
<div id="totp-setup" hidden><p>Add this key to your authenticator app: <code id="totp-secret"></code></p>
<form id="totp-confirm"><label>Then type its code <input name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required></label>
<button type="submit">Confirm</button></form></div>
{{end}}{{end}}
{{end}}
<p id="status" role="status" aria-live="polite"></p>
<pre id="recovery" hidden></pre>
</main>
<script nonce="{{.Nonce}}">
(() => {
  const next = document.querySelector("main").dataset.next;
  const status = (t) => { document.getElementById("status").textContent = t; };
  const buf = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer;
  const b64 = (b) => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  async function api(path, body) {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: body === undefined ? "" : JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.errorDetail || "Something went wrong (" + res.status + ").");
    return data;
  }
  function credentialJSON(c) {
    const r = c.response, out = { id: c.id, rawId: b64(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(), response: { clientDataJSON: b64(r.clientDataJSON) } };
    if (c.authenticatorAttachment) out.authenticatorAttachment = c.authenticatorAttachment;
    if (r.attestationObject) { out.response.attestationObject = b64(r.attestationObject); if (r.getTransports) out.response.transports = r.getTransports(); }
    if (r.authenticatorData) { out.response.authenticatorData = b64(r.authenticatorData); out.response.signature = b64(r.signature); if (r.userHandle) out.response.userHandle = b64(r.userHandle); }
    return out;
  }
  async function enrol() {
    const o = (await api("/api/v1/staff/enrol/passkey/options")).publicKey;
    o.challenge = buf(o.challenge); o.user.id = buf(o.user.id);
    (o.excludeCredentials || []).forEach((d) => { d.id = buf(d.id); });
    const c = await navigator.credentials.create({ publicKey: o });
    await api("/api/v1/staff/enrol/passkey?name=" + encodeURIComponent(navigator.platform || "Passkey"), credentialJSON(c));
  }
  async function signIn() {
    const o = (await api("/api/v1/staff/sign-in/options")).publicKey;
    o.challenge = buf(o.challenge);
    (o.allowCredentials || []).forEach((d) => { d.id = buf(d.id); });
    const c = await navigator.credentials.get({ publicKey: o });
    await api("/api/v1/staff/sign-in/passkey", credentialJSON(c));
  }
  async function recheck() {
    const o = (await api("/api/v1/staff/session/recheck/options")).publicKey;
    o.challenge = buf(o.challenge);
    (o.allowCredentials || []).forEach((d) => { d.id = buf(d.id); });
    const c = await navigator.credentials.get({ publicKey: o });
    await api("/api/v1/staff/session/recheck", credentialJSON(c));
  }
  const on = (id, ev, f) => { const el = document.getElementById(id); if (el) el.addEventListener(ev, async (e) => {
    e.preventDefault(); status("Working…");
    try { await f(e); } catch (err) { status(err.message || String(err)); }
  }); };
  const go = () => { status("Signed in. Opening the studio…"); location.assign(next); };
  on("sign-in-passkey", "click", async () => { await signIn(); go(); });
  on("enrol-passkey", "click", async () => { await enrol(); go(); });
  on("add-passkey", "click", async () => { await enrol(); status("Passkey added."); });
  on("recheck-passkey", "click", async () => { await recheck(); go(); });
  on("recheck-totp", "submit", async (e) => { await api("/api/v1/staff/session/recheck", { code: e.target.code.value }); go(); });
  on("sign-out", "click", async () => { await api("/api/v1/staff/sign-out"); location.reload(); });
  on("totp-form", "submit", async (e) => { await api("/api/v1/staff/sign-in/totp", { code: e.target.code.value }); go(); });
  on("recovery-form", "submit", async (e) => { await api("/api/v1/staff/sign-in/totp", { recoveryCode: e.target.recoveryCode.value }); go(); });
  on("enrol-totp", "click", async () => {
    const d = await api("/api/v1/staff/enrol/totp");
    document.getElementById("totp-secret").textContent = d.secret;
    document.getElementById("totp-setup").hidden = false; status("");
  });
  on("totp-confirm", "submit", async (e) => {
    const d = await api("/api/v1/staff/enrol/totp/confirm", { code: e.target.code.value });
    const pre = document.getElementById("recovery");
    pre.textContent = "Recovery codes (each works once; keep them safe, they are not shown again):\n" + d.recoveryCodes.join("\n");
    pre.hidden = false; status("Authenticator app set up. You are signed in to the studio.");
  });
})();
</script>
</body>
</html>
`))
