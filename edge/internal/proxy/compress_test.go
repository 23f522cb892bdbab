package proxy_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"

	"omnibus/edge/internal/proxy"
)

// decoder reads a body in the coding named by its Content-Encoding.
func decoder(t *testing.T, res *http.Response) io.Reader {
	t.Helper()
	switch res.Header.Get("Content-Encoding") {
	case "br":
		return brotli.NewReader(res.Body)
	case "gzip":
		z, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return z
	}
	return res.Body
}

// rawClient does not decompress: the test sees the bytes on the wire.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// The renderer's stream is compressed chunk by chunk: its first flush
// reaches the visitor, compressed and decodable, while the renderer is
// still holding the rest back.
func TestCompressedStreamDeliversEachChunk(t *testing.T) {
	const shell = "<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Sign in</h1>"
	const rest = "<script>deferred data</script></body></html>"
	for _, coding := range []string{"br", "gzip"} {
		t.Run(coding, func(t *testing.T) {
			release := make(chan struct{})
			p := proxy.New(proxy.Options{Target: target(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Vary", "Cookie")
				io.WriteString(w, shell)
				w.(http.Flusher).Flush()
				select { // the rest only once the visitor has read the shell
				case <-release:
				case <-r.Context().Done():
					return
				}
				io.WriteString(w, rest)
			})})
			edge := httptest.NewServer(p)
			defer edge.Close()
			defer func() {
				select {
				case <-release:
				default:
					close(release)
				}
			}()

			// The deadline only turns a buffering proxy into a failure
			// instead of a hung test.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, edge.URL+"/login", nil)
			req.Header.Set("Accept-Encoding", coding)
			res, err := rawClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if got := res.Header.Get("Content-Encoding"); got != coding {
				t.Fatalf("Content-Encoding %q, want %q", got, coding)
			}
			if vary := res.Header.Values("Vary"); !strings.Contains(strings.Join(vary, ","), "Accept-Encoding") || !strings.Contains(strings.Join(vary, ","), "Cookie") {
				t.Errorf("Vary %q: want the renderer's Cookie and Accept-Encoding", vary)
			}
			if res.ContentLength != -1 {
				t.Errorf("Content-Length %d on a compressed stream", res.ContentLength)
			}
			body := decoder(t, res)
			first := make([]byte, len(shell))
			if _, err := io.ReadFull(body, first); err != nil || string(first) != shell {
				t.Fatalf("first chunk before the renderer finished: %q, %v", first, err)
			}
			close(release)
			after, err := io.ReadAll(body)
			if err != nil || string(after) != rest {
				t.Fatalf("rest %q, %v", after, err)
			}
		})
	}
}

// A visitor holding streams open cannot make the edge hold a compressor
// each: past MaxCompressing answers go out uncompressed (still whole and
// still marked Vary), and a finished answer frees its slot.
func TestCompressorsAreBounded(t *testing.T) {
	const page = "<!DOCTYPE html><html><body><h1>Sign in</h1>"
	release := make(chan struct{})
	p := proxy.New(proxy.Options{MaxCompressing: 1, Target: target(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
		w.(http.Flusher).Flush()
		if r.URL.Path == "/held" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		io.WriteString(w, "</body></html>")
	})})
	edge := httptest.NewServer(p)
	defer edge.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	get := func(path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, edge.URL+path, nil)
		req.Header.Set("Accept-Encoding", "br")
		res, err := rawClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	held := get("/held") // takes the only slot until release
	defer held.Body.Close()
	if got := held.Header.Get("Content-Encoding"); got != "br" {
		t.Fatalf("first stream: Content-Encoding %q, want br", got)
	}
	if _, err := io.ReadFull(decoder(t, held), make([]byte, len(page))); err != nil {
		t.Fatal(err)
	}

	second := get("/other")
	body, err := io.ReadAll(second.Body)
	second.Body.Close()
	if err != nil || second.Header.Get("Content-Encoding") != "" || string(body) != page+"</body></html>" {
		t.Fatalf("with the slot taken: Content-Encoding %q, body %q, %v; want the page uncompressed", second.Header.Get("Content-Encoding"), body, err)
	}
	if !strings.Contains(strings.Join(second.Header.Values("Vary"), ","), "Accept-Encoding") {
		t.Errorf("uncompressed for lack of a slot, Vary %q still must name Accept-Encoding", second.Header.Values("Vary"))
	}

	close(release)
	if _, err := io.ReadAll(held.Body); err != nil {
		t.Fatal(err)
	}
	held.Body.Close()
	// The slot is given back when the handler returns, just after the
	// visitor read the last byte: wait for it, never for a fixed time.
	for {
		res := get("/other")
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.Header.Get("Content-Encoding") == "br" {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the finished stream never gave its compression slot back")
		}
	}
}

// What must not be compressed passes through as the renderer sent it; the
// visitor who accepts no coding gets identity (but Vary still says the
// answer depends on Accept-Encoding).
func TestCompressOnlyWhatGains(t *testing.T) {
	page := strings.Repeat("<p>Omnibus sells everywhere.</p>", 100)
	for _, tc := range []struct {
		name, method, accept string
		header               map[string]string
		status               int
		wantEncoding         string
		wantVary             bool
	}{
		{"html, br", "GET", "gzip, br", map[string]string{"Content-Type": "text/html", "ETag": `"v1"`}, 200, "br", true},
		{"json, gzip", "GET", "gzip", map[string]string{"Content-Type": "application/json"}, 200, "gzip", true},
		{"route data, 404", "GET", "br", map[string]string{"Content-Type": "text/x-script"}, 404, "br", true},
		{"no Accept-Encoding", "GET", "", map[string]string{"Content-Type": "text/html"}, 200, "", true},
		{"identity (the cache's renders)", "GET", "identity", map[string]string{"Content-Type": "text/html"}, 200, "", true},
		{"HEAD", "HEAD", "br", map[string]string{"Content-Type": "text/html"}, 200, "", false},
		{"image", "GET", "br", map[string]string{"Content-Type": "image/png"}, 200, "", false},
		{"encoded already", "GET", "br", map[string]string{"Content-Type": "text/html", "Content-Encoding": "gzip"}, 200, "gzip", false},
		{"no-transform", "GET", "br", map[string]string{"Content-Type": "text/html", "Cache-Control": "no-transform"}, 200, "", false},
		{"tiny", "GET", "br", map[string]string{"Content-Type": "text/html", "Content-Length": "12"}, 200, "", false},
		{"304", "GET", "br", map[string]string{"Content-Type": "text/html"}, 304, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := proxy.New(proxy.Options{Target: target(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tc.status)
				if tc.header["Content-Length"] != "" {
					io.WriteString(w, page[:12])
				} else if tc.status != 304 {
					io.WriteString(w, page)
				}
			})})
			req := httptest.NewRequest(tc.method, "/x", nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, req)
			res := rec.Result()
			if rec.Code != tc.status || res.Header.Get("Content-Encoding") != tc.wantEncoding {
				t.Fatalf("%d, Content-Encoding %q, want %d %q", rec.Code, res.Header.Get("Content-Encoding"), tc.status, tc.wantEncoding)
			}
			if got := strings.Contains(res.Header.Get("Vary"), "Accept-Encoding"); got != tc.wantVary {
				t.Errorf("Vary %q", res.Header.Get("Vary"))
			}
			if tc.wantEncoding == "br" || tc.wantEncoding == "gzip" && tc.header["Content-Encoding"] == "" {
				got, err := io.ReadAll(decoder(t, res))
				if err != nil || string(got) != page {
					t.Fatalf("decoded %d bytes, %v", len(got), err)
				}
				if etag := tc.header["ETag"]; etag != "" && res.Header.Get("ETag") != "W/"+etag {
					t.Errorf("ETag %q: the compressed bytes are not the renderer's, want W/%s", res.Header.Get("ETag"), etag)
				}
				if res.Header.Get("Content-Length") != "" {
					t.Errorf("Content-Length %q on a compressed body", res.Header.Get("Content-Length"))
				}
			}
		})
	}
}
