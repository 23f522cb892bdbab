package edgetest_test

import (
	"io"
	"net/http"
	"testing"

	"omnibus/edge/internal/edgetest"
)

// BenchmarkAppCacheHitLoopback is BenchmarkAppCacheHit over loopback TCP
// with Go's own client: net/http's cost per answer (system calls, the
// response header's copy and its writing) shows beside the edge's in a CPU
// profile, which the in-process benchmarks cannot show. The client's cost is
// in the same profile, so ns/op is not make bench's figure.
//
//	go test ./internal/edgetest -run '^$' -bench AppCacheHitLoopback -cpuprofile cpu.out
func BenchmarkAppCacheHitLoopback(b *testing.B) {
	e := edgetest.Start(b, edgetest.Options{})
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	cl := &http.Client{Transport: tr}
	get := func() string {
		req, _ := http.NewRequest(http.MethodGet, e.URL+"/", nil)
		req.Header.Set("Accept-Encoding", "br")
		res, err := cl.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.Header.Get("X-Cache")
	}
	get()
	if get() != "HIT" {
		b.Fatal("not a hit")
	}
	b.SetParallelism(8) // several connections, as wrk uses
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			get()
		}
	})
}
