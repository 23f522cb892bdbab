package cache

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// RunPurgeCommand is the edge binary's "purge" subcommand:
//
//	edge purge --path /pricing | --prefix /blog | --all [--url http://127.0.0.1:8080] [--wait 10s]
//
// It asks the running edge's purge endpoint with the token from
// CACHE_PURGE_TOKEN, so on PostgreSQL the purge reaches every instance, and
// returns once every live edge has applied it (and warmed its new copies),
// printing each edge and when; exit 1, naming the edges, when some did not
// within --wait. addr is the edge's LISTEN_ADDR (the default --url).
func RunPurgeCommand(args []string, addr, token string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("edge purge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t Target
	fs.StringVar(&t.Path, "path", "", "purge one page (every query of it), e.g. /pricing")
	fs.StringVar(&t.Prefix, "prefix", "", "purge every page whose path starts with this, e.g. /blog")
	fs.BoolVar(&t.All, "all", false, "purge every page")
	url := fs.String("url", localURL(addr), "the running edge")
	wait := fs.Duration("wait", DefaultPurgeTimeout, "how long to wait for every edge to apply the purge (at most 1m)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: edge purge --path /x | --prefix /blog | --all [--url "+localURL(addr)+"]")
		fmt.Fprintln(stderr, "The token is read from CACHE_PURGE_TOKEN.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := t.Validate(); err != nil || fs.NArg() > 0 || *wait <= 0 || *wait > time.Minute {
		fs.Usage()
		return 2
	}
	if token == "" {
		fmt.Fprintln(stderr, "edge purge: CACHE_PURGE_TOKEN is not set (it must match the running edge's)")
		return 2
	}
	body, _ := json.Marshal(purgeBody{Target: t, WaitSeconds: wait.Seconds()})
	req, err := http.NewRequest(http.MethodPost, strings.TrimRight(*url, "/")+PurgePath, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(stderr, "edge purge:", err)
		return 2
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := (&http.Client{Timeout: *wait + 30*time.Second}).Do(req)
	if err != nil {
		fmt.Fprintln(stderr, "edge purge:", err)
		return 1
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if res.StatusCode != http.StatusOK {
		var e struct {
			ErrorDetail string `json:"errorDetail"`
			Ack         *Ack   `json:"ack"`
		}
		if json.Unmarshal(raw, &e) != nil || e.ErrorDetail == "" {
			e.ErrorDetail = strings.TrimSpace(string(raw))
		}
		if e.Ack != nil {
			printAck(stdout, t, *e.Ack)
		}
		fmt.Fprintf(stderr, "edge purge: %s: %s\n", res.Status, e.ErrorDetail)
		return 1
	}
	var out PurgeResult
	if err := json.Unmarshal(raw, &out); err != nil {
		fmt.Fprintln(stderr, "edge purge: unexpected answer:", string(raw))
		return 1
	}
	printAck(stdout, t, out.Ack)
	return 0
}

// printAck writes a purge's acknowledgement, one line per edge.
func printAck(w io.Writer, t Target, a Ack) {
	fmt.Fprintf(w, "purged %s: %d pages on the edge asked; applied by %d edges\n", t, a.Purged, len(a.Edges))
	for _, e := range a.Edges {
		warmed := "does not warm"
		switch {
		case e.Warmed > 0:
			warmed = "warmed after " + e.Warmed.Round(time.Millisecond).String()
		case e.WarmPending:
			warmed = "still warming"
		}
		fmt.Fprintf(w, "  %s: applied after %s, %s\n", e.Edge, e.Applied.Round(time.Millisecond), warmed)
	}
	for _, m := range a.Missing {
		fmt.Fprintf(w, "  %s: NOT applied\n", m)
	}
}

// localURL turns a listen address (":8080", "0.0.0.0:8080") into a URL on
// loopback.
func localURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://127.0.0.1:8080"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
