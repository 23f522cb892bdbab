// Command slowest prints the slowest tests of make test, so that whoever
// adds a slow test sees it and the suite stays fast as it grows.
//
//	slowest [-n 10] FILE...     the n slowest tests of each suite in FILEs
//	go test -json ./... | slowest -go-filter FILE
//
// A FILE is one of the three reports make test writes under build/test-times:
// `go test -json` events (*.go.json), vitest's JSON reporter (vitest.json)
// or Playwright's JSON reporter (playwright.json); the kind is read from the
// content. With -go-filter it reads `go test -json` on stdin, copies it to
// FILE, and prints what plain `go test` prints (each package's result, and
// the whole output of a test that failed), so the log stays readable.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

type result struct {
	suite, name string
	took        time.Duration
}

func main() {
	n := flag.Int("n", 10, "how many of the slowest tests to print per suite")
	filter := flag.String("go-filter", "", "read go test -json on stdin, save it to this file, print the plain output")
	flag.Parse()
	if *filter != "" {
		if err := goFilter(os.Stdin, os.Stdout, *filter); err != nil {
			fmt.Fprintln(os.Stderr, "slowest:", err)
			os.Exit(1)
		}
		return
	}
	bySuite := map[string][]result{}
	for _, f := range flag.Args() {
		rs, err := read(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "slowest: %s: %v\n", f, err)
			continue
		}
		for _, r := range rs {
			bySuite[r.suite] = append(bySuite[r.suite], r)
		}
	}
	suites := make([]string, 0, len(bySuite))
	for s := range bySuite {
		suites = append(suites, s)
	}
	sort.Strings(suites)
	for _, s := range suites {
		rs := bySuite[s]
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].took > rs[j].took })
		fmt.Printf("The %d slowest %s tests (of %d):\n", min(*n, len(rs)), s, len(rs))
		for _, r := range rs[:min(*n, len(rs))] {
			fmt.Printf("  %8.1fs  %s\n", r.took.Seconds(), r.name)
		}
	}
}

// goEvent is one line of `go test -json` (cmd/test2json).
type goEvent struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

func read(file string) ([]result, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(b, &probe) == nil {
		switch {
		case probe["testResults"] != nil:
			return vitest(b)
		case probe["suites"] != nil:
			return playwright(b)
		}
	}
	return goTests(b), nil
}

// goTests are the top-level tests that passed or failed, by package: a
// subtest's time is part of its parent's.
func goTests(b []byte) []result {
	var rs []result
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e goEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Test == "" || strings.Contains(e.Test, "/") {
			continue
		}
		if e.Action == "pass" || e.Action == "fail" {
			rs = append(rs, result{"Go", e.Package + " " + e.Test, secs(e.Elapsed)})
		}
	}
	return rs
}

func vitest(b []byte) ([]result, error) {
	var r struct {
		TestResults []struct {
			Name             string
			AssertionResults []struct {
				FullName string
				Duration float64
			}
		}
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	var rs []result
	for _, f := range r.TestResults {
		for _, a := range f.AssertionResults {
			rs = append(rs, result{"vitest", filepath.Base(f.Name) + " › " + a.FullName, secs(a.Duration / 1000)})
		}
	}
	return rs, nil
}

type pwSuite struct {
	Title string
	File  string
	Specs []struct {
		Title string
		Tests []struct {
			ProjectName string
			Results     []struct{ Duration float64 }
		}
	}
	Suites []pwSuite
}

func playwright(b []byte) ([]result, error) {
	var r struct{ Suites []pwSuite }
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	var rs []result
	var walk func(s pwSuite, prefix string)
	walk = func(s pwSuite, prefix string) {
		name := s.Title
		if prefix != "" {
			name = prefix + " › " + s.Title
		}
		for _, sp := range s.Specs {
			for _, t := range sp.Tests {
				var d float64
				for _, res := range t.Results { // retries included: all of it was waited for
					d += res.Duration
				}
				rs = append(rs, result{"Playwright", name + " › " + sp.Title, secs(d / 1000)})
			}
		}
		for _, c := range s.Suites {
			walk(c, name)
		}
	}
	for _, s := range r.Suites {
		walk(s, "")
	}
	return rs, nil
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// goFilter copies go test -json from in to file and prints the plain output.
func goFilter(in io.Reader, out io.Writer, file string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	held := map[string][]string{} // a running test's output, printed if it fails
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		f.Write(append(line, '\n'))
		var e goEvent
		if json.Unmarshal(line, &e) != nil {
			fmt.Fprintln(out, string(line)) // not an event: the build's own words
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "output" && e.Test != "":
			held[key] = append(held[key], e.Output)
		case e.Action == "output":
			// The package's own lines: its result, and a build failure or panic.
			if o := e.Output; !strings.HasPrefix(o, "=== ") && !strings.HasPrefix(o, "--- PASS") && !strings.HasPrefix(o, "PASS") && !strings.HasPrefix(o, "--- SKIP") {
				fmt.Fprint(out, o)
			}
		case e.Action == "fail" && e.Test != "":
			fmt.Fprint(out, strings.Join(held[key], ""))
			delete(held, key)
		case e.Action == "pass" || e.Action == "skip":
			delete(held, key)
		}
	}
	return sc.Err()
}
