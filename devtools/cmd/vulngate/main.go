// Command vulngate reads govulncheck's JSON (-format json) on standard input
// and fails when the code calls a vulnerable function, unless the advisory is
// listed with a reason in the exceptions file (-exceptions). It also fails
// on an exception that matched nothing in any of the runs it is given, so a
// stale exception cannot linger: make vuln runs it once over every module's
// output together.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// finding is the part of govulncheck's finding message vulngate reads.
type finding struct {
	OSV   string `json:"osv"`
	Trace []struct {
		Module   string `json:"module"`
		Version  string `json:"version"`
		Package  string `json:"package"`
		Function string `json:"function"`
		Receiver string `json:"receiver"`
	} `json:"trace"`
}

func main() {
	path := flag.String("exceptions", "", "file of accepted advisories: `ID reason` a line, # comments")
	flag.Parse()
	exceptions, err := readExceptions(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vulngate:", err)
		os.Exit(2)
	}
	called, err := reachable(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vulngate:", err)
		os.Exit(2)
	}
	failed := false
	ids := make([]string, 0, len(called))
	for id := range called {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if _, ok := exceptions[id]; ok {
			fmt.Printf("accepted %s (%s)\n", id, called[id])
			continue
		}
		fmt.Printf("VULNERABLE %s: the code calls %s\n", id, called[id])
		failed = true
	}
	for id := range exceptions {
		if _, ok := called[id]; !ok {
			fmt.Printf("STALE exception %s: nothing reachable matches it any more; remove it from %s\n", id, *path)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
	fmt.Printf("no reachable vulnerability outside the %d accepted\n", len(exceptions))
}

// reachable maps each advisory whose vulnerable code is called (a trace that
// names a function) to one example symbol.
func reachable(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	dec := json.NewDecoder(bufio.NewReader(r))
	for {
		var msg struct {
			Finding *finding `json:"finding"`
		}
		if err := dec.Decode(&msg); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("reading govulncheck's output: %w", err)
		}
		f := msg.Finding
		if f == nil || len(f.Trace) == 0 || f.Trace[0].Function == "" {
			continue // imported or required, not called
		}
		t := f.Trace[0]
		sym := t.Function
		if t.Receiver != "" {
			sym = t.Receiver + "." + sym
		}
		out[f.OSV] = t.Package + "." + sym + " in " + t.Module + "@" + t.Version
	}
}

func readExceptions(path string) (map[string]string, error) {
	out := map[string]string{}
	if path == "" {
		return out, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, " ")
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: %s has no reason", path, n+1, id)
		}
		out[id] = strings.TrimSpace(reason)
	}
	return out, nil
}
