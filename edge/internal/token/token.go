// Package token makes the secrets the edge hands out (session cookies,
// confirmation and reset links) and the hashes it stores instead of them:
// a stolen database row cannot be replayed.
package token

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// Len is the length of a token New makes (32 random bytes, base64url).
const Len = 43

// New is 32 random bytes, base64url without padding: 256 bits, URL- and
// cookie-safe. crypto/rand.Text would give 26 characters (130 bits); the
// existing tokens are 43, and stored hashes do not care which.
func New() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64URL(b)
}

// Hash is what is stored for a token: hex SHA-256 (a token is random and
// long, so a slow hash adds nothing).
func Hash(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}
