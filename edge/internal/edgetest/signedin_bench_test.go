package edgetest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
)

// BenchmarkSignedInPage is a signed-in visitor's / through the whole edge
// and the real renderer: the session lookup, the cache's
// bypass, the render and the compression, as make bench's row (h) measures
// it with wrk. With -cpuprofile it shows where the edge's share goes.
//
//	go test ./internal/edgetest -run '^$' -bench SignedInPage -cpuprofile cpu.out
func BenchmarkSignedInPage(b *testing.B) {
	e := edgetest.Start(b, edgetest.Options{RealRenderer: true})
	req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/oaccount/register", strings.NewReader(`{"name":"Bench","email":"bench@example.com","password":"correct horse battery","storeName":"Bench Shop"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		b.Fatalf("register: %v %v", err, res)
	}
	res.Body.Close()
	var cookie string
	for _, c := range res.Cookies() {
		if c.Name == "omnibus_session" {
			cookie = c.Name + "=" + c.Value
		}
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	cl := &http.Client{Transport: tr}
	get := func() {
		req, _ := http.NewRequest(http.MethodGet, e.URL+"/", nil)
		req.Header.Set("Accept-Encoding", "br")
		req.Header.Set("User-Agent", edgetest.ChromeUA)
		req.Header.Set("Cookie", cookie)
		res, err := cl.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("X-Cache") == "HIT" {
			b.Fatalf("signed-in /: %d %s", res.StatusCode, res.Header.Get("X-Cache"))
		}
	}
	get()
	b.SetParallelism(2)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			get()
		}
	})
}
