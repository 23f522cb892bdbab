package token

import "encoding/base64"

func base64URL(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
