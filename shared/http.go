package shared

import (
	_ "embed"
	"encoding/json"
	"sort"
	"strings"
)

//go:embed http.json
var httpJSON []byte

// HTTPNames are the cookie and header names of http.json, shared with the
// renderer (ssr/app/lib/http-names.ts reads the same file).
type HTTPNames struct {
	// SessionCookie is the opaque session cookie the edge sets.
	SessionCookie string `json:"sessionCookie"`
	// StaffSessionCookie is the studio session (edge/internal/staff):
	// separate from the merchant's, opened only by a second factor (a
	// passkey, or a TOTP code an admin allowed), short-lived (hours),
	// HttpOnly and SameSite=Strict. The renderer never reads it.
	StaffSessionCookie string `json:"staffSessionCookie"`
	// DeviceCookie marks a browser that signed in to an account before
	// (OWASP's device cookie): signed by the edge, it exempts that browser
	// from the per-account sign-in limit strangers' guesses run into.
	DeviceCookie string `json:"deviceCookie"`
	// ThemeCookie is the visitor's colour theme, light or dark (absent:
	// system; any other value counts as system). Set by the theme buttons
	// (POST /api/v1/theme without JavaScript, the switcher's script with
	// it); the renderer puts the dark class on <html> from it, and the page
	// cache keeps one copy of a page per value (edge/internal/theme).
	ThemeCookie string `json:"themeCookie"`
	// AccountHeader carries the edge's resolved sign-in state to the
	// renderer as JSON {"isLoggedIn":true,"omnicustomerStatus":"..."}; absent
	// for anonymous visitors. Stripped from incoming requests.
	AccountHeader string `json:"accountHeader"`
	// NonceHeader carries the per-answer CSP nonce to the renderer.
	// Stripped from incoming requests.
	NonceHeader string `json:"nonceHeader"`
	// RequestIDHeader is the request id echoed on answers and sent to the renderer.
	RequestIDHeader string `json:"requestIdHeader"`
	// FormStateHeader carries a refused no-JavaScript form post to the
	// renderer, which renders the page with it (edge/internal/forms: the
	// form, its values, its errors). Stripped from incoming requests.
	FormStateHeader string `json:"formStateHeader"`
	// MerchantHeader carries the signed-in merchant's overview (store,
	// status, plan, the plan order awaiting payment) to the pages whose
	// route names "merchant" in edgeData; base64url JSON.
	MerchantHeader string `json:"merchantHeader"`
	// OrderHeader carries the order named by ?order= when the signed-in
	// visitor owns it, to the pages whose route names "order"; base64url JSON.
	OrderHeader string `json:"orderHeader"`
	// PaymentHeader carries the test-mode payment named by ?session= when the
	// signed-in visitor owns it, to the pages whose route names "payment";
	// base64url JSON.
	PaymentHeader string `json:"paymentHeader"`
	// ContentHeader carries what a content page shows (an article, a
	// policy, a list of articles, or a draft on a preview link) from the
	// edge's content store, base64url JSON (docs/studio-api.md).
	ContentHeader string `json:"contentHeader"`
	// SearchHeader carries the results of ?q= (the query as searched, the
	// results with their marked snippets, or why there are none) to the
	// pages whose route names "search" in edgeData; base64url JSON
	// (edge/internal/search).
	SearchHeader string `json:"searchHeader"`
	// StudioHeader carries a studio page's data to the renderer (the list,
	// the item being edited, its revisions, a diff, preview links, view
	// counts), base64url JSON, only on a staff member's request for a page
	// under /staff (edge/internal/studiopages). Stripped from incoming
	// requests.
	StudioHeader string `json:"studioHeader"`
	// CardHeader carries the words of a preview card (base64url JSON
	// {title, section, description}) on the edge's own request for its
	// drawing (edge/internal/ogcard, ssr/app/lib/og-card.server.ts).
	CardHeader string `json:"cardHeader"`
	// CardVersion names the preview card's look: part of the key a drawn
	// card is stored under, so a new look draws every card again.
	CardVersion string `json:"cardVersion"`
}

// EdgePrefix starts the name of every header only the edge sets.
const EdgePrefix = "X-Omnibus-"

// EdgeHeaders are the headers of http.json only the edge sets (every
// X-Omnibus-* name in it): the edge strips them all from incoming requests.
var EdgeHeaders = func() []string {
	var all map[string]any
	if err := json.Unmarshal(httpJSON, &all); err != nil {
		panic("shared/http.json: " + err.Error())
	}
	var names []string
	for _, v := range all {
		if s, ok := v.(string); ok && strings.HasPrefix(s, EdgePrefix) {
			names = append(names, s)
		}
	}
	sort.Strings(names)
	return names
}()

// HTTP is http.json, parsed once.
var HTTP = func() HTTPNames {
	var n HTTPNames
	if err := json.Unmarshal(httpJSON, &n); err != nil {
		panic("shared/http.json: " + err.Error())
	}
	return n
}()
