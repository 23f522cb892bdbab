// Package poll is the tests' one way to wait for a condition: check it
// often, give up after a generous deadline (the machines that run the tests
// are shared and busy), never sleep a fixed time and hope.
package poll

import (
	"testing"
	"time"
)

// Every is how often Until checks.
const Every = 20 * time.Millisecond

// Until checks cond every Every until it holds; once timeout has passed
// without it, it fails t with the message (format and args, as t.Fatalf).
func Until(t testing.TB, timeout time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf(format, args...)
		}
		time.Sleep(Every)
	}
}
