package cache

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// The regular expression a CDN bans by matches exactly the paths the
// edge's own purge removes.
func TestTargetRegexpMatchesWhatThePurgeRemoves(t *testing.T) {
	paths := []string{"/", "/_root.data", "/blog", "/blog/", "/blog.data", "/blog/a", "/blog/a.data", "/blogger", "/a.b", "/axb", "/x(y)"}
	for _, target := range []Target{{All: true}, {Path: "/"}, {Path: "/blog"}, {Path: "/blog/"}, {Prefix: "/blog"}, {Path: "/a.b"}, {Path: "/x(y)"}} {
		re := regexp.MustCompile(target.Regexp())
		match := target.matcher()
		for _, p := range paths {
			if got, want := re.MatchString(p), match(p); got != want {
				t.Errorf("%s: regexp %s matches %s: %v, the edge's purge: %v", target, target.Regexp(), p, got, want)
			}
		}
	}
}

// A purge goes on to every cache in front; one that fails is reported.
func TestPurgeReachesTheCachesInFront(t *testing.T) {
	var got []string
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.Header.Get(PurgeRegexHeader))
	}))
	defer ok.Close()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) }))
	defer down.Close()

	c := New(Options{})
	c.SetCDN([]string{ok.URL}, nil)
	if _, err := c.Purge(Target{Prefix: "/blog"}); err != nil || len(got) != 1 || got[0] != `PURGE ^/blog` {
		t.Fatalf("purge: err %v, the cache in front got %q", err, got)
	}
	c.SetCDN([]string{ok.URL, down.URL}, nil)
	if _, err := c.Purge(Target{All: true}); err == nil || !strings.Contains(err.Error(), "403") {
		t.Fatalf("purge with a cache in front refusing: err %v, want it named", err)
	}
}
