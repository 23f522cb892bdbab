package cache

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Headers of the PURGE request sent to each cache in front of the edges
// (CDN_PURGE_URLS). deploy/varnish/default.vcl bans the objects whose path
// matches PurgeRegexHeader; PurgeTargetHeader says the purge in words (logs).
const (
	PurgeRegexHeader  = "X-Omnibus-Purge-Regex"
	PurgeTargetHeader = "X-Omnibus-Purge"
)

// cdnTimeout bounds one PURGE to one cache in front.
const cdnTimeout = 5 * time.Second

// SetCDN makes every purge made on this instance (the admin API, edge
// purge) go on to the caches in front of the edges at urls, as an HTTP
// PURGE request each, so a purge does not leave a CDN serving the old page
// for its stale window. Purges that arrive from other instances are not
// passed on: the instance where a purge began tells the CDN, once.
func (c *Cache) SetCDN(urls []string, client *http.Client) {
	if client == nil {
		client = &http.Client{Timeout: cdnTimeout}
	}
	c.cdn, c.cdnClient = urls, client
}

// Regexp is the target as a regular expression over URL paths (without the
// query), matching exactly the pages the edge's own purge removes: a path
// with its trailing-slash twin and React Router's data request, a prefix,
// or everything.
func (t Target) Regexp() string {
	switch {
	case t.All:
		return "^/"
	case t.Prefix != "":
		return "^" + regexp.QuoteMeta(escapePath(t.Prefix))
	}
	p := escapePath(t.Path)
	same := []string{p, strings.TrimSuffix(p, "/") + ".data"}
	switch {
	case p == "/":
		same = append(same, "/_root.data")
	case strings.HasSuffix(p, "/"):
		same = append(same, strings.TrimSuffix(p, "/"))
	default:
		same = append(same, p+"/")
	}
	for i, s := range same {
		same[i] = regexp.QuoteMeta(s)
	}
	return "^(" + strings.Join(same, "|") + ")$"
}

// purgeCDN sends t to every cache in front, side by side; the error names
// those that did not answer 2xx.
func (c *Cache) purgeCDN(t Target) error {
	if len(c.cdn) == 0 {
		return nil
	}
	errs := make([]error, len(c.cdn))
	done := make(chan struct{})
	for i, u := range c.cdn {
		go func() {
			defer func() { done <- struct{}{} }()
			errs[i] = c.purgeOne(u, t)
		}()
	}
	for range c.cdn {
		<-done
	}
	return errors.Join(errs...)
}

func (c *Cache) purgeOne(u string, t Target) error {
	ctx, cancel := context.WithTimeout(context.Background(), cdnTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "PURGE", u, nil)
	if err != nil {
		return err
	}
	req.Header.Set(PurgeRegexHeader, t.Regexp())
	req.Header.Set(PurgeTargetHeader, t.String())
	res, err := c.cdnClient.Do(req)
	if err != nil {
		return fmt.Errorf("cache in front %s: %w", req.URL.Redacted(), errors.Unwrap(err))
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("cache in front %s answered %s", req.URL.Redacted(), res.Status)
	}
	return nil
}
