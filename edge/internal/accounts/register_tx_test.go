package accounts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// mailbox records the mail sent, by recipient.
type mailbox struct {
	mu   sync.Mutex
	sent map[string]int
}

func (m *mailbox) Send(_ context.Context, msg mail.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sent == nil {
		m.sent = map[string]int{}
	}
	m.sent[msg.To]++
	return nil
}

func (m *mailbox) count(to string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent[to]
}

// The account was committed, then the session's insert failed:
// the answer was 503, the confirmation mail went out anyway, and the retry
// got 409. Now the two are one transaction: a registration answered as
// failed leaves no account and sends no mail, and trying again works.
func TestRegistrationIsOneTransaction(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		box := &mailbox{}
		st := newSite(t, db, box, nil)
		var failSessions atomic.Bool
		if err := db.Callback().Create().Before("gorm:create").Register("test:kill_session_insert", func(tx *gorm.DB) {
			if tx.Statement.Table == "sessions" && failSessions.Load() {
				tx.AddError(errors.New("test: the backend died"))
			}
		}); err != nil {
			t.Fatal(err)
		}
		body := map[string]string{"name": "Ana Lima", "email": "ana@example.com", "password": "correct horse battery", "storeName": "anashop"}
		failSessions.Store(true)
		if a := st.do(st.browser(), "POST", "/api/v1/oaccount/register", body); a.status != http.StatusServiceUnavailable {
			t.Fatalf("register with the session insert failing: %d %s", a.status, a.body)
		}
		var n int64
		db.Model(&Account{}).Where("email = ?", "ana@example.com").Count(&n)
		if n != 0 || box.count("ana@example.com") != 0 {
			t.Fatalf("a registration answered 503 left %d accounts and %d mails", n, box.count("ana@example.com"))
		}
		failSessions.Store(false)
		if a := st.do(st.browser(), "POST", "/api/v1/oaccount/register", body); a.status != http.StatusCreated {
			t.Fatalf("the retry: %d %s, want 201", a.status, a.body)
		}
		if box.count("ana@example.com") != 1 {
			t.Fatalf("%d mails after the registration", box.count("ana@example.com"))
		}
	})
}

// The same under killed backends (PostgreSQL): registrations run while a
// loop terminates the connections of this test's pool; no registration
// answered as failed sent a mail.
func TestRegistrationUnderKilledBackends(t *testing.T) {
	admin := storagetest.Postgres(t)
	app := fmt.Sprintf("attack_reg_%d", time.Now().UnixNano())
	db, err := storage.OpenPostgres(admin.DSN + "&application_name=" + app)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	box := &mailbox{}
	st := newSite(t, db, box, nil)
	stop := make(chan struct{})
	var killed atomic.Int64
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(15 * time.Millisecond):
			}
			var n int64
			admin.Raw("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ?", app).Scan(&n)
			killed.Add(n)
		}
	}()
	defer close(stop)
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers := map[string]int{}
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				email := fmt.Sprintf("u%d-%d@example.com", g, i)
				body := fmt.Sprintf(`{"name":"U","email":%q,"password":"correct horse battery","storeName":"shop%d-%d"}`, email, g, i)
				req, _ := http.NewRequest("POST", st.srv.URL+"/api/v1/oaccount/register", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Origin", st.srv.URL)
				status := 0
				if res, err := http.DefaultClient.Do(req); err == nil {
					status = res.StatusCode
					res.Body.Close()
				}
				mu.Lock()
				answers[email] = status
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	failed, stored := 0, 0
	for email, status := range answers {
		mails := box.count(email)
		switch {
		case status == http.StatusCreated && mails > 1:
			// (none when storing its link met a killed backend too)
			t.Errorf("%s: 201 and %d mails", email, mails)
		case status != http.StatusCreated:
			failed++
			if mails != 0 {
				t.Errorf("%s: answered %d and mailed", email, status)
			}
			var n int64
			admin.Model(&Account{}).Where("email = ?", email).Count(&n)
			stored += int(n)
		}
	}
	t.Logf("%d registrations, %d answered as failed (%d of them stored: a kill during COMMIT), %d backends killed", len(answers), failed, stored, killed.Load())
	if killed.Load() == 0 || failed == 0 {
		t.Errorf("the killer did not reach the registrations (%d killed, %d failed)", killed.Load(), failed)
	}
}
