package billing_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"omnibus/edge/internal/app"
	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// TestMain lets this test binary also be the edge that crashes: with
// BILLING_CHILD_DB set it is a whole edge (the app's own wiring) on that
// database, and exits (status 3) at the stage BILLING_CHILD_CRASH names.
func TestMain(m *testing.M) {
	if dsn := os.Getenv("BILLING_CHILD_DB"); dsn != "" {
		childEdge(dsn, os.Getenv("BILLING_CHILD_CRASH"))
		return
	}
	os.Exit(m.Run())
}

// childEdge is the edge as main builds it (internal/app), with Stripe, on
// the parent's database.
func childEdge(dsn, stage string) {
	var db *storage.DB
	var err error
	if strings.HasPrefix(dsn, "postgres") {
		db, err = storage.OpenPostgres(dsn)
	} else {
		db, err = storage.OpenSQLite(dsn)
	}
	if err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
	billing.SetCrash(func(s string) {
		if s == stage {
			os.Exit(3) // the process dies: no answer, no deferred work
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "billing-child-")
	if err != nil {
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	cfg := config.DevelopmentDefaults()
	cfg.Addr, cfg.PublicURL, cfg.DataDir = ln.Addr().String(), "http://"+ln.Addr().String(), dir
	cfg.RendererURL = "http://127.0.0.1:1" // no page is asked for
	cfg.CacheWarm = false
	stripeSettings("http://127.0.0.1:1")(&cfg)
	a, err := app.New(cfg, app.Deps{DB: db, Listener: ln, NoAssets: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
	os.Stdout.WriteString("LISTENING " + a.URL + "\n")
	a.Serve()
}

// startChild runs the child edge and returns its URL and its exit status channel.
func startChild(t *testing.T, dsn, stage string) (string, <-chan int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BILLING_CHILD_DB="+dsn, "BILLING_CHILD_CRASH="+stage)
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan int, 1)
	done := make(chan struct{})
	line, err := bufio.NewReader(out).ReadString('\n')
	go func() {
		io.Copy(io.Discard, out)
		cmd.Wait()
		exited <- cmd.ProcessState.ExitCode()
		close(done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	if err != nil || !strings.HasPrefix(line, "LISTENING ") {
		t.Fatalf("child edge did not start: %q %v", line, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "LISTENING ")), exited
}

func deliver(url string, payload []byte, header string) (*http.Response, error) {
	req, _ := http.NewRequest(http.MethodPost, url+"/api/v1"+billing.WebhookPath, strings.NewReader(string(payload)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", header)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err == nil {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	return res, err
}

// The edge dies between receiving a confirmed payment and answering it
// (before the commit, and after it); the provider gets no answer and
// retries; the retry completes the payment exactly once.
func TestConfirmedPaymentSurvivesACrash(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		dsn := db.DSN
		if !db.Postgres {
			dsn = dsn[:strings.IndexByte(dsn, '?')] // the file; the child adds its pragmas
		}
		for _, stage := range []string{"received", "committed"} {
			t.Run(stage, func(t *testing.T) {
				st := newSiteWith(t, db, nil, stripeSettings("http://127.0.0.1:1"))
				c, _ := st.merchant()
				o := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": "growth"}).order()
				id, total := o["id"].(string), int64(o["totalPaise"].(float64))
				evt := "evt_crash_" + stage
				payload := checkoutEvent(evt, "checkout.session.completed", id, total, "paid")
				sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: whsec}).Header

				url, exited := startChild(t, dsn, stage)
				res, err := deliver(url, payload, sig)
				if err == nil {
					t.Fatalf("the crashing edge answered %d", res.StatusCode)
				}
				if code := <-exited; code != 3 {
					t.Fatalf("child exit status %d, want the crash (3)", code)
				}
				wantEvents, wantOrder := int64(0), billing.OrderPending
				if stage == "committed" {
					wantEvents, wantOrder = 1, billing.OrderPaid
				}
				if n := count(t, db, "payment_events", "event_id = ?", evt); n != wantEvents || orderStatus(t, db, id) != wantOrder {
					t.Fatalf("after the crash: %d events, order %s", n, orderStatus(t, db, id))
				}

				// The provider's retry reaches a healthy edge.
				url, _ = startChild(t, dsn, "")
				res, err = deliver(url, payload, sig)
				if err != nil || res.StatusCode != 200 {
					t.Fatalf("retry: %v %v", res, err)
				}
				if orderStatus(t, db, id) != billing.OrderPaid || st.status(c) != billing.StatusActive {
					t.Fatalf("retry did not complete the payment: %s %s", orderStatus(t, db, id), st.status(c))
				}
				if n := count(t, db, "payment_events", "event_id = ?", evt); n != 1 {
					t.Fatalf("%d event rows", n)
				}
				if n := count(t, db, "account_status_changes", "order_id = ? AND to_status = ?", id, billing.StatusActive); n != 1 {
					t.Fatalf("%d moves to active", n)
				}
			})
		}
	})
}
