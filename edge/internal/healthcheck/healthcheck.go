// Package healthcheck is the edge binary's "healthcheck" subcommand: the
// probe container runtimes run inside the edge's image (distroless: no curl,
// no shell).
//
//	edge healthcheck           GET /healthz: the process serves (liveness)
//	edge healthcheck --ready   GET /readyz: pages can be served (the renderer
//	                           answers, not draining; a database outage is
//	                           reported in the body, not failed on)
//
// It asks the edge on loopback at LISTEN_ADDR's port and exits 0 on a 200,
// 1 on anything else (another status, no answer within --timeout).
package healthcheck

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Run probes the edge listening on addr (LISTEN_ADDR, such as ":8080") and
// returns the exit code.
func Run(args []string, addr string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("edge healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ready := fs.Bool("ready", false, "probe /readyz (pages can be served) instead of /healthz")
	timeout := fs.Duration("timeout", 3*time.Second, "give up after this long")
	url := fs.String("url", LocalURL(addr), "the running edge")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	path := "/healthz"
	if *ready {
		path = "/readyz"
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url+path, nil)
	if err != nil {
		fmt.Fprintln(stderr, "healthcheck:", err)
		return 2
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(stderr, "healthcheck: unhealthy:", err)
		return 1
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if res.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "healthcheck: unhealthy: %s %s: %s\n", path, res.Status, body)
		return 1
	}
	fmt.Fprintf(stdout, "healthcheck: %s %s\n", path, res.Status)
	return 0
}

// LocalURL turns a listen address (":8080", "0.0.0.0:8080", "[::]:8080",
// "127.0.0.1:8121") into the URL of that listener from inside its own
// host: loopback unless it is bound to one address.
func LocalURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "http://127.0.0.1:8080"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
