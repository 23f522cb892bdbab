// Package logtest holds what a test needs to read a log while the code under
// test is still writing it from other goroutines.
package logtest

import (
	"bytes"
	"sync"
)

// Buffer is a log sink that is safe to write from the server's goroutines
// and read from the test's.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
