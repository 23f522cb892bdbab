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
//	edge purge --path /pricing | --prefix /blog | --all [--url http://127.0.0.1:8080]
//
// It asks the running edge's purge endpoint with the token from
// CACHE_PURGE_TOKEN, so on PostgreSQL the purge reaches every instance. addr
// is the edge's LISTEN_ADDR (the default --url). It returns the exit code.
func RunPurgeCommand(args []string, addr, token string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("edge purge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t Target
	fs.StringVar(&t.Path, "path", "", "purge one page (every query of it), e.g. /pricing")
	fs.StringVar(&t.Prefix, "prefix", "", "purge every page whose path starts with this, e.g. /blog")
	fs.BoolVar(&t.All, "all", false, "purge every page")
	url := fs.String("url", localURL(addr), "the running edge")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: edge purge --path /x | --prefix /blog | --all [--url "+localURL(addr)+"]")
		fmt.Fprintln(stderr, "The token is read from CACHE_PURGE_TOKEN.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := t.Validate(); err != nil || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if token == "" {
		fmt.Fprintln(stderr, "edge purge: CACHE_PURGE_TOKEN is not set (it must match the running edge's)")
		return 2
	}
	body, _ := json.Marshal(t)
	req, err := http.NewRequest(http.MethodPost, strings.TrimRight(*url, "/")+PurgePath, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(stderr, "edge purge:", err)
		return 2
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		fmt.Fprintln(stderr, "edge purge:", err)
		return 1
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if res.StatusCode != http.StatusOK {
		var e struct {
			ErrorDetail string `json:"errorDetail"`
		}
		if json.Unmarshal(raw, &e) != nil || e.ErrorDetail == "" {
			e.ErrorDetail = strings.TrimSpace(string(raw))
		}
		fmt.Fprintf(stderr, "edge purge: %s: %s\n", res.Status, e.ErrorDetail)
		return 1
	}
	var out PurgeResult
	if err := json.Unmarshal(raw, &out); err != nil {
		fmt.Fprintln(stderr, "edge purge: unexpected answer:", string(raw))
		return 1
	}
	where := "this instance (SQLite: the only one)"
	if out.Broadcast {
		where = "the instance asked; sent to every other instance"
	}
	fmt.Fprintf(stdout, "purged %s: %d pages on %s\n", t, out.Purged, where)
	return 0
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
