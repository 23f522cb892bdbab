// Command gofloor is row (e) of make bench: Go's net/http with no framework,
// no middleware and no cache logic, answering every request with the edge's
// cached answer from memory: the same body and the same response headers the
// edge sends on a cache hit (HEADERS, as `curl -D` printed them).
// It is the floor for any Go server sending that answer on the machine: the
// gap between it and nginx (row a) is Go's HTTP stack, and the gap between
// the edge (row b) and it is the edge's own work.
//
//	gofloor ADDR FILE HEADERS
//
// Date and Content-Length are net/http's own.
package main

import (
	"bufio"
	"bytes"
	"log"
	"net/http"
	"net/textproto"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 4 {
		log.Fatal("usage: gofloor ADDR FILE HEADERS")
	}
	body, err := os.ReadFile(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	answer, err := readHeaders(os.Args[3])
	if err != nil {
		log.Fatal(err)
	}
	answer["Content-Length"] = []string{strconv.Itoa(len(body))}
	log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range answer {
			h[k] = v
		}
		w.Write(body)
	})))
}

// readHeaders reads the header block `curl -D` wrote (status line first),
// leaving out the headers net/http writes itself.
func readHeaders(path string) (http.Header, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tp := textproto.NewReader(bufio.NewReader(bytes.NewReader(append(bytes.TrimRight(raw, "\r\n"), "\r\n\r\n"...))))
	if _, err := tp.ReadLine(); err != nil { // HTTP/1.1 200 OK
		return nil, err
	}
	mh, err := tp.ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	h := http.Header(mh)
	for _, own := range []string{"Date", "Content-Length", "Connection", "Keep-Alive"} {
		delete(h, own)
	}
	return h, nil
}
