// Command gofloor is an informational row of make bench: Go's net/http with
// no framework, no middleware and no cache logic, answering every request
// with one file's bytes from memory and the headers the edge sends on a
// cache hit. It is the floor for any Go server on the machine, so the gap
// between it and nginx (row a) is the part of b/a that the edge's own code
// cannot close.
//
//	gofloor ADDR FILE
package main

import (
	"log"
	"net/http"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: gofloor ADDR FILE")
	}
	body, err := os.ReadFile(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	length := []string{strconv.Itoa(len(body))}
	log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Content-Type"] = []string{"text/html; charset=utf-8"}
		h["Content-Encoding"] = []string{"br"}
		h["Vary"] = []string{"Accept-Encoding"}
		h["Content-Length"] = length
		w.Write(body)
	})))
}
