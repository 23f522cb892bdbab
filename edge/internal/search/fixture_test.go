package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fixture is an index of n generated articles on the site's own words
// (the help and blog articles' vocabulary, words drawn with a skew as in
// prose), about 400 words each, plus today's content: the bench's
// "10,000 articles" stands for a help centre grown by the studio.
func fixture(t testing.TB, n int) *Index {
	ix := seeded(t)
	var vocab []string
	seen := map[string]bool{}
	ix.mu.RLock()
	for _, e := range ix.entries {
		tokens(e.doc.Title+" "+e.doc.Text, func(tk token) {
			if !seen[tk.word] {
				seen[tk.word] = true
				vocab = append(vocab, tk.word)
			}
		})
	}
	ix.mu.RUnlock()
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		// Skewed: low indexes far more often, as common words are.
		i := int(float64(len(vocab)) * r.Float64() * r.Float64() * r.Float64())
		return vocab[i]
	}
	// Made-up words too, so the vocabulary grows with the articles as a
	// real one does (names, products, places).
	made := func() string {
		const letters = "abcdefghijklmnopqrstuvwxyz"
		b := make([]byte, 4+r.IntN(7))
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	var docs []Doc
	for i := range n {
		var title, body []string
		for range 3 + r.IntN(5) {
			title = append(title, word())
		}
		for j := range 350 + r.IntN(100) {
			if j%25 == 0 {
				body = append(body, made())
			} else {
				body = append(body, word())
			}
		}
		typ := TypeHelp
		if i%3 == 0 {
			typ = TypeBlog
		}
		docs = append(docs, Doc{Type: typ, Slug: fmt.Sprintf("fixture-%d", i), URL: fmt.Sprintf("/help/category/article/fixture-%d", i),
			Title: strings.Join(title, " "), Category: "Fixture", Text: strings.Join(body, " ")})
	}
	ix.UpsertAll(docs)
	return ix
}

// benchQueries are what visitors type: whole words, typos, unfinished
// words, two-word questions, synonyms, and words the site does not have.
var benchQueries = []string{"refund", "refnd", "gst invoice", "shipping labels", "connect your domain", "refu", "tax invoice",
	"returns", "how do i cancel an order", "ai product descriptions", "festive", "zanzibar pottery", "invoce", "one click shipping courier"}

// benchSearch reports the median and 99th percentile of the searches'
// times besides the mean (p50-ms, p99-ms: bench/search.sh prints them).
func benchSearch(b *testing.B, ix *Index) {
	b.ReportAllocs()
	var times []time.Duration
	i := 0
	cpu0 := cpuTime()
	for b.Loop() {
		start := time.Now()
		ix.Search(Normalise(benchQueries[i%len(benchQueries)]), MaxResults)
		times = append(times, time.Since(start))
		i++
	}
	// The CPU one search takes, which the machine's other work does not
	// inflate as it does the wall-clock times on a busy machine.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(len(times))/1e6, "cpu-ms/op")
	slices.Sort(times)
	at := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))]) / 1e6 }
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// BenchmarkSearch is search without the result cache (every query
// computed), on today's content and on 10,000 articles (make bench shows
// p50/p99: bench/search.sh).
func BenchmarkSearch(b *testing.B) {
	b.Run("today", func(b *testing.B) { benchSearch(b, seeded(b)) })
	b.Run("10000-articles", func(b *testing.B) { benchSearch(b, fixture(b, 10000)) })
}

// cpuTime is the CPU this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
