// Package proxy forwards page requests to the renderer with streaming
// intact: httputil.ReverseProxy with FlushInterval -1 writes every chunk the
// renderer sends (the document shell first, deferred data later) as soon as
// it arrives. Nothing on this path may buffer the body (no echo Gzip or
// Proxy middleware); the proxy compresses the stream itself, flushing the
// compressor with every chunk (compress.go).
//
// When the renderer cannot be reached the edge answers its own small HTML
// page, 503 with Retry-After: 5 (504 when the renderer was too slow), and
// always Cache-Control: no-store, so no cache keeps a broken page.
package proxy

import (
	"context"
	_ "embed"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"

	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/security"
)

// Options configure New.
type Options struct {
	// Target is the renderer's origin.
	Target *url.URL
	// Upstream, when set, is asked for the renderer's origin on every
	// request instead (renderer.Supervisor.URL: it changes when the warm
	// standby takes over from a crashed child).
	Upstream func() *url.URL
	// Timeout bounds one proxied request from start to the last byte
	// (RENDERER_TIMEOUT, default 30s). It replaces a server-wide
	// WriteTimeout, which would cut long streams everywhere.
	Timeout time.Duration
	// Logger (default slog.Default()).
	Logger *slog.Logger
	// MaxCompressing bounds the answers compressed at once (default
	// DefaultMaxCompressing): each holds a compressor of 1-2 MB, and a
	// visitor can keep many slow streams open. Past it, answers go out
	// uncompressed rather than wait.
	MaxCompressing int
}

// DefaultMaxCompressing is Options.MaxCompressing's default: at most about
// 64 MB of compressors however many streams are open.
const DefaultMaxCompressing = 32

// Proxy is the page handler.
type Proxy struct {
	slots   chan struct{} // one per answer being compressed
	rp      *httputil.ReverseProxy
	timeout time.Duration
}

//go:embed unavailable.html
var unavailablePage []byte

// New returns the page proxy to opts.Target.
func New(opts Options) *Proxy {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	upstream := opts.Upstream
	if upstream == nil {
		target := opts.Target
		upstream = func() *url.URL { return target }
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(upstream())
			pr.Out.Host = pr.In.Host // the renderer sees the public host
			setForwarded(pr.Out, pr.In)
		},
		// The edge already set the response's X-Request-ID; a renderer
		// echoing it would add a second value.
		ModifyResponse: func(res *http.Response) error {
			res.Header.Del(request.HeaderRequestID)
			return nil
		},
		FlushInterval: -1,
		Transport:     NewTransport(opts.Timeout),
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if errors.Is(r.Context().Err(), context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				return // the visitor went away; nobody to answer
			}
			status := http.StatusServiceUnavailable
			if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
				status = http.StatusGatewayTimeout
			}
			log.WarnContext(r.Context(), "proxy: renderer unavailable", "path", r.URL.Path, "err", err)
			Unavailable(w, status)
		},
	}
	if opts.MaxCompressing <= 0 {
		opts.MaxCompressing = DefaultMaxCompressing
	}
	return &Proxy{rp: rp, timeout: opts.Timeout, slots: make(chan struct{}, opts.MaxCompressing)}
}

// ServeHTTP forwards r to the renderer within the per-request timeout and
// compresses the answer as it streams (compressWriter).
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), p.timeout)
	defer cancel()
	security.Nonce(r) // the renderer writes it on its scripts; the answer's policy allows it
	cw := newCompressWriter(w, r, p.slots)
	defer cw.release() // also when a broken stream aborts the answer
	p.rp.ServeHTTP(cw, r.WithContext(ctx))
	cw.finish() // not reached when a broken stream aborts the answer
}

// NewTransport is the connection pool to the renderer: short dial and
// response-header timeouts (it is on loopback or the same private network)
// and enough idle keep-alive connections that a burst of pages does not
// open a connection per request. The renderer does not compress; the
// proxy does (compressWriter). Accept-Encoding is still passed through, and
// an answer the renderer encoded itself is forwarded as it is, never
// decoded.
func NewTransport(timeout time.Duration) *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   128,
		IdleConnTimeout:       50 * time.Second, // below the renderer's keep-alive (65 s), so the edge never reuses a connection the renderer is closing
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true,
	}
}

// setForwarded tells the renderer who asked and how. Incoming forwarding
// headers are kept only when the peer is a trusted proxy (loopback or
// TRUSTED_PROXIES); from anyone else they are replaced, so a visitor cannot
// claim another address.
func setForwarded(out, in *http.Request) {
	peer := request.PeerIP(in)
	trusted := request.FromTrustedProxy(in)

	xff := peer
	if prior := in.Header.Get("X-Forwarded-For"); trusted && prior != "" {
		xff = prior + ", " + peer
	}
	out.Header.Set("X-Forwarded-For", xff)
	out.Header.Set("X-Real-IP", request.ClientIP(in))

	host := in.Host
	if h := in.Header.Get("X-Forwarded-Host"); trusted && h != "" {
		host = h
	}
	out.Header.Set("X-Forwarded-Host", host)

	proto := "http"
	if in.TLS != nil {
		proto = "https"
	}
	if p := in.Header.Get("X-Forwarded-Proto"); trusted && (p == "http" || p == "https") {
		proto = p
	}
	out.Header.Set("X-Forwarded-Proto", proto)

	if id := request.ID(in); id != "" {
		out.Header.Set(request.HeaderRequestID, id)
	}
}

// Unavailable writes the edge's own "back in a moment" page with status.
func Unavailable(w http.ResponseWriter, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Retry-After", "5")
	h.Del("Content-Length")
	h.Del("Content-Encoding")
	h.Del("ETag")
	h.Del("Last-Modified")
	w.WriteHeader(status)
	w.Write(unavailablePage)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
