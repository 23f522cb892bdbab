package shared

import _ "embed"

// AuthJSON is content/auth.json: the words of the sign-in pages and the
// messages the edge answers the account endpoints with (errorDetail), keyed
// by the codes of a refused no-JavaScript form post's state (edge
// internal/forms) and of /login?error=<code> (Google sign-in, confirmation).
//
//go:embed content/auth.json
var AuthJSON []byte
