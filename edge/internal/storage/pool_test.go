package storage_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/newsletter"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// With every connection of a bounded pool in use, a request that needs the
// database is answered 503 with an errorDetail after the short pool wait
// instead of queueing without end, and is served again once one is free.
func TestPoolExhaustedAnswers503(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		if err := db.LimitPool(2, 200*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		e := edgetest.Start(t, edgetest.Options{DB: db, Setup: func(e *edgetest.Edge) {
			newsletter.New(e.DB, ratelimit.Keys{}).Register(e.Server.API)
		}})
		sqlDB, err := db.DB.DB()
		if err != nil {
			t.Fatal(err)
		}
		var held []*sql.Conn
		for range 2 {
			c, err := sqlDB.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
		}
		subscribe := func() *http.Response {
			client := &http.Client{Timeout: 30 * time.Second}
			req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/news-letter/subscribe", strings.NewReader(`{"emailaddress":"ana@example.com"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", e.URL)
			res, err := client.Do(req)
			if err != nil {
				t.Fatalf("request with the pool exhausted did not get an answer: %v", err)
			}
			return res
		}
		res := subscribe()
		var body struct {
			ErrorDetail string `json:"errorDetail"`
		}
		json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || body.ErrorDetail == "" {
			t.Fatalf("pool exhausted: %d %+v, want 503 with errorDetail", res.StatusCode, body)
		}
		for _, c := range held {
			c.Close()
		}
		if res := subscribe(); res.StatusCode >= 300 {
			t.Fatalf("after the pool freed up: %d", res.StatusCode)
		}
	})
}
