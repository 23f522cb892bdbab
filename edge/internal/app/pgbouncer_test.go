package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/app"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage/storagetest"
)

// pgbouncerPort is in the deploy helpers' range (18200-18299).
const pgbouncerPort = 18230

// startPgBouncer runs Debian's pgbouncer in transaction mode in front of
// the test PostgreSQL, its pool's connections in the schema of dbURL (a
// storagetest schema; a real deployment has a database of its own), with
// at most poolSize server connections. It returns the pooled URL.
func startPgBouncer(t *testing.T, dbURL string, poolSize int) string {
	t.Helper()
	bin := "/usr/sbin/pgbouncer"
	if _, err := os.Stat(bin); err != nil {
		if bin, err = exec.LookPath("pgbouncer"); err != nil {
			t.Fatal("pgbouncer is missing: install Debian's pgbouncer (make test does so when run as root: make deploy-tools)")
		}
	}
	i := strings.Index(dbURL, "search_path=")
	if i < 0 {
		t.Fatalf("want a storagetest schema URL, got %s", dbURL)
	}
	schema := dbURL[i+len("search_path="):]
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	pgPort := u.Port()
	if pgPort == "" {
		pgPort = "5432"
	}
	pgUser := "postgres"
	if u.User != nil {
		pgUser = u.User.Username()
	}
	// Its own folder, readable by the user it runs as (t.TempDir's parent
	// is private to this one).
	dir, err := os.MkdirTemp("", "omnibus-pgbouncer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ini := fmt.Sprintf(`[databases]
omnibus = host=%s port=%s dbname=%s user=%s connect_query='SET search_path TO %s'

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s/users.txt
pool_mode = transaction
default_pool_size = %d
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
logfile = %s/pgbouncer.log
`, u.Hostname(), pgPort, strings.TrimPrefix(u.Path, "/"), pgUser, schema, pgbouncerPort, dir, poolSize, dir)
	if err := os.WriteFile(filepath.Join(dir, "pgbouncer.ini"), []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "users.txt"), []byte(`"`+pgUser+`" ""`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, filepath.Join(dir, "pgbouncer.ini"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if os.Geteuid() == 0 {
		// PgBouncer refuses to run as root.
		u, err := user.Lookup("nobody")
		if err != nil {
			t.Fatal(err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		os.Chmod(dir, 0o777)
	}
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	})
	poll.Until(t, 20*time.Second, func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", pgbouncerPort))
		if err == nil {
			c.Close()
			return true
		}
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			t.Fatalf("pgbouncer exited: %s\n%s", out, log)
		default:
		}
		return false
	}, "pgbouncer did not listen on %d", pgbouncerPort)
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/omnibus?sslmode=disable", pgUser, pgbouncerPort)
}

// Two edges behind a transaction-mode PgBouncer with two server connections
// between them (each edge's own pool is 20): they migrate together (the
// lock on their direct connections), a visitor signs up on one and signs
// in on the other, and a purge on one reaches the other (LISTEN on the
// direct connection, NOTIFY through the pooler).
func TestTwoEdgesBehindPgBouncerInTransactionMode(t *testing.T) {
	direct := storagetest.EmptyPostgres(t)
	pooled := startPgBouncer(t, direct, 2)

	rendererURL := edgetest.StubRenderer(t)
	const token = "pgbouncer-test-purge-token-0123456789abcdef"
	apps := make([]*app.App, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range apps {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		cfg := config.DevelopmentDefaults()
		cfg.Addr, cfg.DataDir, cfg.RendererURL = ln.Addr().String(), t.TempDir(), rendererURL
		cfg.DatabaseURL, cfg.DatabaseDirectURL = pooled, direct
		cfg.PublicURL = "http://omnibus.test"
		cfg.CachePurgeToken = token
		cfg.CacheWarm = false // a purged page is a miss until asked for (warming would render it again at once)
		wg.Go(func() {
			apps[i], errs[i] = app.New(cfg, app.Deps{Listener: ln, NoAssets: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		})
	}
	wg.Wait()
	for i, a := range apps {
		if errs[i] != nil {
			t.Fatalf("edge %d did not start behind PgBouncer: %v", i, errs[i])
		}
		go a.Serve()
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			a.Shutdown(ctx)
			a.Close()
		})
	}
	a, b := apps[0].URL, apps[1].URL

	post := func(c *http.Client, url, body string, header ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Host = "omnibus.test"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	browser := func() *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{Jar: jar}
	}

	// Writes through the pooler: sign up on one edge, sign in on the other.
	email := fmt.Sprintf("pgb%d@example.com", time.Now().UnixNano())
	if res := post(browser(), a+"/api/v1/oaccount/register",
		`{"name":"Pia","email":"`+email+`","password":"correct horse battery","storeName":"pia `+strconv.FormatInt(time.Now().UnixNano(), 36)+`"}`); res.StatusCode != http.StatusCreated {
		t.Fatalf("sign-up on edge A through PgBouncer: %s", res.Status)
	}
	visitor := browser()
	if res := post(visitor, b+"/api/v1/oaccount/login", `{"email":"`+email+`","password":"correct horse battery"}`); res.StatusCode != http.StatusOK {
		t.Fatalf("sign-in on edge B through PgBouncer: %s", res.Status)
	}

	// A purge on edge A reaches edge B.
	xcache := func(base string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+"/career", nil)
		req.Host = "omnibus.test" // the site's own host (others are redirected to it)
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.Header.Get("X-Cache")
	}
	xcache(b)
	if got := xcache(b); got != "HIT" {
		t.Fatalf("edge B GET /career again: X-Cache %q, want HIT", got)
	}
	if res := post(http.DefaultClient, a+"/api/v1/admin/cache/purge", `{"path":"/career"}`, "Authorization", "Bearer "+token); res.StatusCode != http.StatusOK {
		t.Fatalf("purge on edge A: %s", res.Status)
	}
	poll.Until(t, 10*time.Second, func() bool { return xcache(b) != "HIT" },
		"edge B still serves /career from its cache 10 s after the purge on edge A: the notification did not arrive")
}
