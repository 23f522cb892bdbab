package stack

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Ports of this test (the deploy range).
const (
	varnishEdgePort     = 18220
	varnishRendererPort = 18221
	varnishPort         = 18222
	varnishAdminPort    = 18223
)

// startVarnish runs Debian's varnishd in the foreground with the shipped
// deploy/varnish/default.vcl, its backend pointed at edgePort: that one
// line is the only change (the docs say to make it). It returns the
// process and its working directory (varnishlog -n reads its log there).
func startVarnish(t *testing.T, edgePort int) (*proc, string) {
	t.Helper()
	varnishd := requireTool(t, "varnishd", "varnish", "/usr/sbin/varnishd")
	vcl, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "varnish", "default.vcl"))
	if err != nil {
		t.Fatal(err)
	}
	port := regexp.MustCompile(`(?m)^(\s*\.port\s*=\s*)"\d+";`)
	if len(port.FindAll(vcl, -1)) != 1 {
		t.Fatal("deploy/varnish/default.vcl: want exactly one backend .port line")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "test.vcl")
	if err := os.WriteFile(path, port.ReplaceAll(vcl, []byte(fmt.Sprintf(`${1}"%d";`, edgePort))), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	p := start(t, "varnishd", dir, hostEnv(), []string{varnishd, "-F",
		"-n", work, "-j", "none",
		"-a", fmt.Sprintf("127.0.0.1:%d", varnishPort), "-T", fmt.Sprintf("127.0.0.1:%d", varnishAdminPort),
		"-f", path, "-s", "malloc,64m",
		// Bans are checked as objects are looked up; the lurker need not wait.
		"-p", "ban_lurker_sleep=0.1"})
	return p, work
}

// backendLog is what Varnish's shared-memory log holds so far for its
// fetches of path from the edge: each record of the given tag (varnishlog
// -d: what is logged, then exit), one slice of fields per fetch.
func backendLog(t *testing.T, work, path, tag string) [][]string {
	t.Helper()
	varnishlog := requireTool(t, "varnishlog", "varnish", "/usr/bin/varnishlog")
	out, err := exec.Command(varnishlog, "-d", "-n", work, "-b", "-q", `BereqURL eq "`+path+`"`, "-i", tag).CombinedOutput()
	if err != nil {
		t.Fatalf("varnishlog: %v\n%s", err, out)
	}
	var fetches [][]string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "*" && f[1] == "<<":
			fetches = append(fetches, nil) // a backend transaction begins
		case len(f) >= 2 && f[1] == tag && len(fetches) > 0:
			fetches[len(fetches)-1] = f[2:] // its last record of the tag
		}
	}
	return fetches
}

// waitBackendLog waits until Varnish has logged want fetches of path (a
// transaction's records reach the log when it ends, which may be just after
// its answer).
func waitBackendLog(t *testing.T, work, path, tag string, want int) [][]string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := backendLog(t, work, path, tag)
		if len(got) >= want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestVarnishInFrontOfTheEdge is the CDN the docs recommend, in front of a
// real edge: anonymous pages and assets are shared and kept as the edge
// says, a visitor with a session never gets the shared copy (nor the
// reverse), and a purge on the edge reaches the cache in front.
func TestVarnishInFrontOfTheEdge(t *testing.T) {
	requireBuild(t)
	edgeBin := buildEdge(t)
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	cdn := fmt.Sprintf("http://127.0.0.1:%d", varnishPort)
	edgeURL := fmt.Sprintf("http://127.0.0.1:%d", varnishEdgePort)

	vp, work := startVarnish(t, varnishEdgePort)
	ep := start(t, "edge", filepath.Join(repoRoot, "edge"), hostEnv(
		"OMNIBUS_ENV=development",
		"DATA_DIR="+t.TempDir(),
		"LISTEN_ADDR=127.0.0.1:"+fmtPort(varnishEdgePort),
		"RENDERER_PORT="+fmtPort(varnishRendererPort),
		"SSR_DIR="+filepath.Join(repoRoot, "ssr"),
		"PUBLIC_URL="+cdn,
		"CACHE_PURGE_TOKEN="+token,
		"CACHE_WARM=0", // the test reads a purged page as a MISS at the edge; warming would render it again at once
		"CDN_PURGE_URLS="+cdn+"/",
	), []string{edgeBin})
	waitHTTP(t, ep, edgeURL+"/readyz", 90*time.Second)
	waitHTTP(t, vp, cdn+"/robots.txt", 30*time.Second)

	type page struct {
		status           int
		cdnCache, edgeCC string
		edgeCache, body  string
		setCookie        []string
	}
	fetch := func(path string, header map[string]string) page {
		t.Helper()
		res, body := get(t, "GET", cdn+path, header)
		return page{res.StatusCode, res.Header.Get("X-CDN-Cache"), res.Header.Get("Cache-Control"),
			res.Header.Get("X-Cache"), body, res.Header.Values("Set-Cookie")}
	}

	// Anonymous pages are shared: the second visitor's copy comes from
	// Varnish, as long as the edge's s-maxage allows. Other cookies do not
	// split the cache.
	fetch("/career", nil)
	first := fetch("/", nil)
	if first.status != 200 || !strings.Contains(first.edgeCC, "s-maxage=") {
		t.Fatalf("anonymous GET /: %d Cache-Control %q, want 200 with s-maxage", first.status, first.edgeCC)
	}
	if again := fetch("/", map[string]string{"Cookie": "consent=yes; _ga=GA1.1"}); again.cdnCache != "HIT" || again.body != first.body {
		t.Fatalf("anonymous GET / again (other cookies): X-CDN-Cache %q, want HIT with the same page", again.cdnCache)
	}

	// The theme cookie keeps a copy per theme: a dark visitor
	// gets the dark page (cached for the next dark visitor), and nobody else
	// gets it.
	dark := fetch("/", map[string]string{"Cookie": "consent=yes; omnibus_theme=dark"})
	if dark.status != 200 || dark.body == first.body || !strings.Contains(dark.body, `class="dark"`) {
		t.Fatalf("dark GET /: %d, X-CDN-Cache %q, dark class %v; want the dark page", dark.status, dark.cdnCache, strings.Contains(dark.body, `class="dark"`))
	}
	if again := fetch("/", map[string]string{"Cookie": "omnibus_theme=dark"}); again.cdnCache != "HIT" || again.body != dark.body {
		t.Fatalf("dark GET / again: X-CDN-Cache %q, same dark page %v", again.cdnCache, again.body == dark.body)
	}
	if anon := fetch("/", map[string]string{"Cookie": "omnibus_theme=purple"}); anon.body != first.body || anon.cdnCache != "HIT" {
		t.Fatalf("GET / with a made-up theme after a dark visit: X-CDN-Cache %q, the shared anonymous page %v", anon.cdnCache, anon.body == first.body)
	}

	// A visitor signs up through the CDN (a POST passes) and gets a session.
	req, _ := http.NewRequest("POST", cdn+"/api/v1/oaccount/register", strings.NewReader(
		`{"name":"Vera","email":"vera-`+token[:8]+`@example.com","password":"correct horse battery","storeName":"vera `+token[:8]+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var session string
	for _, c := range res.Cookies() {
		if c.Name == "omnibus_session" {
			session = c.Name + "=" + c.Value
		}
	}
	if res.StatusCode != http.StatusCreated || session == "" {
		t.Fatalf("sign-up through the CDN: %s, session cookie %q", res.Status, session)
	}

	// The signed-in visitor never gets the anonymous copy Varnish holds: the
	// edge answers with the signed-in page, which it keeps per sign-in status
	// (decision 0034: a miss, then a hit), privately.
	for i, want := range []string{"MISS", "HIT"} {
		in := fetch("/", map[string]string{"Cookie": "consent=yes; " + session})
		if in.cdnCache == "HIT" || in.edgeCache != want || in.body == first.body {
			t.Fatalf("signed-in GET / #%d: X-CDN-Cache %q, edge X-Cache %q (want %s), same body as the anonymous page: %v; want the signed-in page from the edge",
				i+1, in.cdnCache, in.edgeCache, want, in.body == first.body)
		}
		if !strings.Contains(in.edgeCC, "private") {
			t.Errorf("signed-in GET /: Cache-Control %q, want private (no shared cache may keep it)", in.edgeCC)
		}
	}
	// ...and anonymous visitors never get the signed-in page.
	if anon := fetch("/", nil); anon.body != first.body || anon.cdnCache != "HIT" {
		t.Fatalf("anonymous GET / after a signed-in visit: X-CDN-Cache %q, same page %v; want the shared anonymous page", anon.cdnCache, anon.body == first.body)
	}

	// A purge made on the edge reaches Varnish too: the next visitor's
	// page comes from the edge, freshly rendered.
	preq, _ := http.NewRequest("POST", edgeURL+"/api/v1/admin/cache/purge", strings.NewReader(`{"path":"/"}`))
	preq.Header.Set("Authorization", "Bearer "+token)
	preq.Header.Set("Content-Type", "application/json")
	pres, err := http.DefaultTransport.RoundTrip(preq)
	if err != nil {
		t.Fatal(err)
	}
	pres.Body.Close()
	if pres.StatusCode != 200 {
		t.Fatalf("purge /: %s", pres.Status)
	}
	if after := fetch("/", nil); after.cdnCache != "MISS" || after.edgeCache != "MISS" {
		t.Fatalf("anonymous GET / after a purge: X-CDN-Cache %q, edge X-Cache %q; want MISS at both (the purge reached neither cache?)", after.cdnCache, after.edgeCache)
	}
	// Other pages stay cached.
	if other := fetch("/career", nil); other.cdnCache != "HIT" {
		t.Errorf("GET /career after purging /: X-CDN-Cache %q, want HIT (a path purge is not a purge of everything)", other.cdnCache)
	}

	// Hashed assets are kept for a year: the edge says so, and Varnish
	// stores the copy with that TTL (its log's TTL record for the fetch:
	// source, TTL in seconds, grace, keep, ...).
	asset := regexp.MustCompile(`(/assets/[\w.-]+\.js)`).FindStringSubmatch(first.body)
	if asset == nil {
		t.Fatal("GET /: no /assets/*.js linked")
	}
	fetch(asset[1], nil)
	a := fetch(asset[1], nil)
	if a.status != 200 || a.cdnCache != "HIT" || !strings.Contains(a.edgeCC, "max-age=31536000") {
		t.Fatalf("GET %s again: %d X-CDN-Cache %q Cache-Control %q; want a HIT kept for a year (max-age=31536000)", asset[1], a.status, a.cdnCache, a.edgeCC)
	}
	fetches := waitBackendLog(t, work, asset[1], "TTL", 1)
	if len(fetches) != 1 || len(fetches[0]) < 2 || fetches[0][1] != "31536000" {
		t.Fatalf("Varnish's fetches of %s and their last TTL records %v: want one fetch stored for 31536000 s (a year)", asset[1], fetches)
	}

	// A missing asset answers 404 no-store, and Varnish keeps no copy: the
	// next request reaches the edge again. (A stored 404 would outlive the
	// rollout that brings the file, as a CDN once kept one during a rollout.)
	missing := "/assets/missing-" + token[:8] + ".js"
	for i := 1; i <= 2; i++ {
		m := fetch(missing, nil)
		if m.status != 404 || !strings.Contains(m.edgeCC, "no-store") || m.cdnCache == "HIT" {
			t.Fatalf("GET %s #%d: %d Cache-Control %q X-CDN-Cache %q; want a 404, no-store, never a HIT", missing, i, m.status, m.edgeCC, m.cdnCache)
		}
	}
	if n := len(waitBackendLog(t, work, missing, "BerespStatus", 2)); n != 2 {
		t.Fatalf("GET %s twice: Varnish fetched it from the edge %d times, want 2 (the 404 must not be stored)", missing, n)
	}
}
