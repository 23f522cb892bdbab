package routepath

import "testing"

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/", true},
		{"/blog/article/:slug", "/blog/article/hello", true},
		{"/blog/article/:slug", "/blog/article/", false},
		{"/blog/article/:slug", "/blog/article/a/b", false},
		{"/features", "/features/", true},
		{"/features", "/feature", false},
	}
	for _, c := range cases {
		if got := Match(Split(c.pattern), Split(c.path)); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}
