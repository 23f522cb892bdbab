package shared

import _ "embed"

// AuthJSON is content/auth.json: the words of the sign-in pages and the
// messages the edge answers the account endpoints with (errorDetail), keyed
// by the codes a no-JavaScript form post carries back in ?error=<code>.
//
//go:embed content/auth.json
var AuthJSON []byte
