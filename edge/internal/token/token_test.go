package token

import (
	"regexp"
	"testing"
)

func TestNewIsLongRandomAndURLSafe(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		tok := New()
		if len(tok) != Len || !regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(tok) || seen[tok] {
			t.Fatalf("token %q", tok)
		}
		seen[tok] = true
	}
}

func TestHashIsStableHexSHA256(t *testing.T) {
	if got := Hash("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("Hash(abc) = %s", got)
	}
}
