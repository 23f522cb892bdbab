package poll

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntilWaitsForTheCondition(t *testing.T) {
	var n atomic.Int32
	Until(t, 5*time.Second, func() bool { return n.Add(1) >= 3 }, "never reached 3")
	if n.Load() != 3 {
		t.Fatalf("checked %d times, want 3", n.Load())
	}
}

// fake records a failure instead of stopping the test.
type fake struct {
	testing.TB
	failed string
}

func (f *fake) Helper() {}
func (f *fake) Fatalf(format string, args ...any) {
	f.failed = format
	panic(f)
}

func TestUntilFailsAfterTheTimeout(t *testing.T) {
	f := &fake{TB: t}
	start := time.Now()
	func() {
		defer func() { recover() }()
		Until(f, 100*time.Millisecond, func() bool { return false }, "still false")
	}()
	if f.failed != "still false" || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("failed %q after %v", f.failed, time.Since(start))
	}
}
