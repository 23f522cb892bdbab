package server_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"omnibus/edge/internal/server"
)

// An answer written whole (its Content-Length in one Write, as a cache hit
// and a small static file are) reaches the visitor in one piece, however it
// straddles net/http's 4 KB buffer: the client's kernel receives it in one
// TCP segment (loopback carries up to 64 KB in one), so the client is woken
// once per answer, not twice (decision 0015, fifth round). An answer written
// in parts still goes out as it is written, and every answer arrives intact,
// with the security headers, on one kept-alive connection.
func TestWholeAnswerGoesOutAtOnce(t *testing.T) {
	if !canCountSegments {
		t.Skip("counting TCP segments needs Linux's TCP_INFO")
	}
	body := func(n int) []byte { return bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n] }
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		b := body(n)
		if r.URL.Path == "/parts" { // a stream: the first half now, the rest later
			w.Write(b[:n/2])
			http.NewResponseController(w).Flush()
			w.Write(b[n/2:])
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(n))
		w.Write(b)
	})
	addr := strings.TrimPrefix(serve(t, server.Options{Pages: pages}), "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	get := func(path string, n int) uint32 {
		t.Helper()
		before := dataSegments(t, c.(*net.TCPConn))
		fmt.Fprintf(c, "GET %s?n=%d HTTP/1.1\r\nHost: x\r\n\r\n", path, n)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || !bytes.Equal(got, body(n)) {
			t.Fatalf("%s of %d bytes: %d bytes arrived (%v)", path, n, len(got), err)
		}
		if res.Header.Get("X-Frame-Options") == "" || res.Header.Get("Content-Security-Policy") == "" {
			t.Fatalf("%s of %d bytes came without the security headers: %v", path, n, res.Header)
		}
		return dataSegments(t, c.(*net.TCPConn)) - before
	}
	// 3,000 and 5,000 bytes end in net/http's buffer after it was written
	// once; 40,000 bytes pass it by.
	for _, n := range []int{3000, 5000, 40000} {
		for range 3 {
			if segs := get("/whole", n); segs != 1 {
				t.Errorf("an answer of %d bytes written whole arrived in %d pieces, want 1", n, segs)
			}
		}
	}
	// The measure sees pieces: a stream flushed halfway arrives in two.
	if segs := get("/parts", 40000); segs < 2 {
		t.Errorf("a stream flushed halfway arrived in %d piece(s), want 2 or more", segs)
	}
	if segs := get("/whole", 100); segs != 1 {
		t.Errorf("a small answer arrived in %d pieces", segs)
	}
}
