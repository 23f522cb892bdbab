package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// An acknowledged save survives the edge being killed (-9) right after its
// answer: the edge binary on SQLite (its file) and on PostgreSQL, an editor
// saves a draft through the studio's API, the process is killed the moment
// the 2xx answer arrives, and a new edge on the same database shows the
// draft with the saved text. An edge that answered before its write was
// durable (a write-behind queue, a transaction committed after the
// answer) would lose it here.
func TestAnAcknowledgedSaveSurvivesAKill(t *testing.T) {
	bin := sharedEdgeBinary(t)
	renderer := edgetest.StubRenderer(t)
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			port := edgetest.FreePort(t)
			base := "http://127.0.0.1:" + strconv.Itoa(port)
			env := append(os.Environ(), "OMNIBUS_ENV=development", "PUBLIC_URL="+base, "RENDERER_URL="+renderer,
				"CACHE_WARM=0", "METRICS_ADDR=", "DATABASE_URL=")
			var db *storage.DB
			var err error
			if engine == "postgres" {
				url := storagetest.EmptyPostgres(t)
				env = append(env, "DATABASE_URL="+url)
				db, err = storage.OpenPostgres(url)
			} else {
				// startEdgeOn's data directory for edge 0: the edge's SQLite file is there.
				db, err = storage.Open("", filepath.Join(dir, "data0"))
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			site := &rollSite{t: t, dir: dir, bin: bin, env: env}
			edge := site.startEdgeOn(0, port, edgetest.FreePort(t))
			waitReady(t, edge)

			cookie := stafftest.SignIn(t, db, "editor@example.com", staff.Editor)
			do := func(method, path string, body any) (int, map[string]any) {
				var b []byte
				if body != nil {
					b, _ = json.Marshal(body)
				}
				req, _ := http.NewRequest(method, base+path, bytes.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Origin", base)
				req.AddCookie(cookie)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatalf("%s %s: %v", method, path, err)
				}
				defer res.Body.Close()
				var out map[string]any
				json.NewDecoder(res.Body).Decode(&out)
				return res.StatusCode, out
			}
			revision := func(out map[string]any) map[string]any {
				d, _ := out["data"].(map[string]any)
				r, _ := d["revision"].(map[string]any)
				if r == nil {
					t.Fatalf("no item in %v", out)
				}
				return r
			}
			fields := map[string]string{"title": "Kept", "description": "d", "date": "2026-11-27", "category": "Growth"}
			code, out := do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog", "slug": "kept", "fields": fields, "body": "First draft.\n"})
			if code != http.StatusCreated {
				t.Fatalf("create: %d %v", code, out)
			}
			id := int(out["data"].(map[string]any)["id"].(float64))
			code, out = do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", id),
				map[string]any{"baseRevisionId": revision(out)["id"], "slug": "kept", "fields": fields, "body": "Saved, then the edge was killed.\n"})
			if code != http.StatusOK {
				t.Fatalf("save: %d %v", code, out)
			}
			if err := syscall.Kill(edge.cmd.Process.Pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-edge.done

			edge = site.startEdgeOn(0, port, edgetest.FreePort(t))
			waitReady(t, edge)
			code, out = do(http.MethodGet, fmt.Sprintf("/api/v1/staff/content/%d", id), nil)
			if code != http.StatusOK || revision(out)["body"] != "Saved, then the edge was killed.\n" {
				t.Fatalf("the draft after the kill and a restart: %d %v, want the saved text", code, out)
			}
		})
	}
}
