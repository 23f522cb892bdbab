// Package server builds the edge's echo instance: the middleware every
// request passes (recover, request id, real client IP, access log), the
// health endpoints, the /api/v1 group that feature packages register on,
// the static files of the client build, and the page handler that takes
// everything else (the renderer proxy, possibly wrapped by the page cache).
//
// Routing, in order:
//
//	/healthz, /readyz       this package
//	/api/v1/...             feature packages (Register(api)); unknown → JSON 404
//	/assets/...             assets.Handler (a missing file is a plain 404,
//	                        never a page; with no Assets, as in dev mode,
//	                        these go to the page handler too)
//	files of build/client   assets.Handler (known at start, no disk lookups)
//	anything else           Options.Pages (the page proxy), after
//	                        Options.PageMiddleware (forms posted to their page)
package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"omnibus/edge/internal/assets"
	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/logging"
	"omnibus/edge/internal/security"
)

// DefaultAPIBodyLimit caps request bodies under /api (16 KB): every API
// payload of the site is a small JSON object. Routes that need more use
// BodyLimit(n) as route middleware.
const DefaultAPIBodyLimit = 16 << 10

// Server timeouts (see limits.go for how writes are bounded).
const (
	ReadHeaderTimeout = 10 * time.Second
	IdleTimeout       = 120 * time.Second
	// apiReadTimeout bounds reading one API request body (slow senders).
	apiReadTimeout = 30 * time.Second
)

// Check is a readiness probe for /readyz: nil means healthy.
type Check func(ctx context.Context) error

// Options configure New. Only Pages is required.
type Options struct {
	// Pages answers every request that is not API, health or a static file.
	Pages http.Handler
	// Assets serves the client build; nil serves no static files.
	Assets *assets.Handler
	// Checks are run by /readyz, by name ("renderer"): one failing makes it
	// 503, and the instance leaves the load balancer.
	Checks map[string]Check
	// Reports are named in /readyz's body but do not make it fail
	// ("database": cached pages, static files and the renderer's pages that
	// need no data still answer while it is down). Each returns a state
	// known already (storage.Health: a background pinger's last answer) and
	// must not wait on anything: the probe answers within its timeout even
	// when the database drops packets.
	Reports map[string]func() error
	// APIBodyLimit caps /api request bodies (default DefaultAPIBodyLimit).
	APIBodyLimit int64
	// Logger for the access log and errors (default slog.Default()).
	Logger *slog.Logger
	// Security is the header set every answer carries (default: the set for
	// an http origin without Google sign-in).
	Security *security.Policy
	// TrustedProxies are the peers whose X-Forwarded-* headers are believed,
	// besides loopback (TRUSTED_PROXIES; default none).
	TrustedProxies request.Proxies
	// Limits bound what one connection may hold (zero values: defaults).
	Limits Limits
	// Middleware runs on every request after the server's own (recover,
	// request id, access log, security headers, guard), in order: the first
	// outermost.
	Middleware []echo.MiddlewareFunc
	// PageMiddleware runs before the page handler and static files (the
	// forms posted to their pages without JavaScript: internal/forms).
	PageMiddleware []echo.MiddlewareFunc
	// SharedSocket says the listening socket is shared with another process
	// that goes on accepting on it (inherited from systemd or from the edge
	// this one replaces, or handed to the next): stopping then only closes
	// this process's descriptor and leaves the queue to the other.
	SharedSocket bool
	// IdleGrace is how long Shutdown leaves idle keep-alive connections to
	// their clients to close before closing them itself (default
	// DefaultIdleGrace; negative: none).
	IdleGrace time.Duration
}

// DefaultIdleGrace: a balancer's upstream keep-alive timeout of 1 s (the
// shipped nginx and HAProxy examples) closes its idle connections within it.
const DefaultIdleGrace = 2 * time.Second

// Server is the edge's HTTP server.
type Server struct {
	// Routes is where top-level routes are added (sitemap.xml, robots.txt,
	// the purge endpoint). It is echo without Use: global middleware goes
	// through Server.Use, which composes the chain once (see Use), so
	// middleware added with echo's own Use could never run.
	Routes Routes
	// API is the /api/v1 group: feature packages call Register(srv.API).
	API *echo.Group

	echo      *echo.Echo
	pages     http.Handler
	assets    *assets.Handler
	checks    map[string]Check
	reports   map[string]func() error
	log       *slog.Logger
	http      *http.Server
	limits    Limits
	exempt    func(netip.Addr) bool // peers not capped per client (exemptPeer)
	ln        atomic.Pointer[listener]
	shared    atomic.Bool
	idleGrace time.Duration

	// draining is set by Drain: /readyz answers 503 and every answer closes
	// its connection. inflight counts the requests being answered.
	draining atomic.Bool
	inflight atomic.Int64
	// headOnce adds the HEAD twins of the GET routes when Serve starts.
	headOnce sync.Once

	// middleware is every global middleware, in order, and chain is it
	// composed around the route's handler (see Use).
	middleware []echo.MiddlewareFunc
	chain      echo.HandlerFunc
}

// New builds the server. Routes and middleware may be added to Echo and API
// until Serve is called.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.APIBodyLimit <= 0 {
		opts.APIBodyLimit = DefaultAPIBodyLimit
	}
	if opts.Security == nil {
		opts.Security, _ = security.New(security.Options{})
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// c.RealIP(): the nearest address in X-Forwarded-For that is not a
	// trusted proxy (loopback, TRUSTED_PROXIES). A visitor connecting
	// directly cannot forge it: their own address is untrusted, so it wins.
	trust := []echo.TrustOption{echo.TrustLoopback(true), echo.TrustPrivateNet(false), echo.TrustLinkLocal(false)}
	for _, n := range opts.TrustedProxies.IPNets() {
		trust = append(trust, echo.TrustIPRange(n))
	}
	e.IPExtractor = echo.ExtractIPFromXFFHeader(trust...)
	e.HTTPErrorHandler = errorHandler(opts.Logger)

	s := &Server{Routes: e, echo: e, assets: opts.Assets, checks: opts.Checks, reports: opts.Reports, log: opts.Logger, limits: opts.Limits.withDefaults()}
	s.shared.Store(opts.SharedSocket)
	s.idleGrace = opts.IdleGrace
	if s.idleGrace == 0 {
		s.idleGrace = DefaultIdleGrace
	}
	s.http = &http.Server{
		Handler:           e,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       s.limits.ReadTimeout,
		WriteTimeout:      s.limits.WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    s.limits.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
		ConnContext:       connContext,
		ConnState:         connState,
	}
	s.exempt = exemptPeer(opts.TrustedProxies)
	if s.pages = opts.Pages; s.pages == nil {
		s.pages = http.NotFoundHandler()
	}

	e.Use(func(echo.HandlerFunc) echo.HandlerFunc { return s.chain })
	s.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			s.log.ErrorContext(c.Request().Context(), "panic", "err", err, "path", c.Request().URL.Path, "stack", string(stack))
			return err
		},
	}))
	s.Use(s.perRequest(opts.TrustedProxies, opts.Security, opts.Logger)) // security headers on every answer, from here on
	s.Use(opts.Security.Middleware)
	s.Use(guard)
	s.Use(opts.Middleware...)

	getHead := []string{http.MethodGet, http.MethodHead}
	e.Match(getHead, "/healthz", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	e.Match(getHead, "/readyz", s.readyz)

	s.API = e.Group("/api/v1", BodyLimit(opts.APIBodyLimit))
	e.RouteNotFound("/api/*", func(c echo.Context) error {
		return response.Error(c, http.StatusNotFound, "Not found")
	})

	e.RouteNotFound("/*", compose(s.pageOrFile, opts.PageMiddleware))
	return s
}

// Routes are echo's route methods, and nothing else of echo.
type Routes interface {
	GET(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
	POST(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
	Match(methods []string, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) []*echo.Route
}

// ServeHTTP answers one request as the listener would (in-process tests
// and benchmarks).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Registered lists every route added so far (tests walk it).
func (s *Server) Registered() []*echo.Route { return s.echo.Routes() }

// Use adds global middleware after what is there (the edge's own: recover,
// perRequest, the nonce and https rules of security.Middleware, the guard,
// then Options.Middleware: a test adds its own here),
// to run on every request before the route's handler. Call it before Serve.
//
// The chain is composed here, once: echo.Use would have echo compose it
// anew for every request, a closure per middleware per request, which on a
// cache hit was a tenth of the edge's own work. Its last link calls the
// handler echo's router chose for the request (c.Handler()), which is what
// echo itself would have put there; so echo's one middleware, installed in
// New, ignores the handler echo passes it. That is why the Server hands out
// no *echo.Echo (Routes has no Use): middleware added there would never run.
func (s *Server) Use(mw ...echo.MiddlewareFunc) {
	s.middleware = append(s.middleware, mw...)
	s.chain = compose(func(c echo.Context) error { return c.Handler()(c) }, s.middleware)
}

// compose wraps h in mw, the first outermost, as echo would per request.
func compose(h echo.HandlerFunc, mw []echo.MiddlewareFunc) echo.HandlerFunc {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// pageOrFile serves a static file of the build when the path is one (a
// missing file, under /assets/, /images/ or any folder of the build or with
// a file's extension, is a no-store 404 from the asset handler) and the
// page handler otherwise. Without an asset handler (dev mode: Vite serves the
// files through the renderer) everything goes to the page handler.
func (s *Server) pageOrFile(c echo.Context) error {
	r, w := c.Request(), c.Response()
	if s.assets != nil && s.assets.IsStatic(r.URL.Path) {
		if !assets.IsWorker(r.URL.Path) {
			markStatic(c)
		}
		s.assets.ServeHTTP(w, r)
		return nil
	}
	s.pages.ServeHTTP(w, r)
	return nil
}

// readyz answers 200 when every check passes, else 503 naming the failures;
// the reports (the database) are named in the body whatever they say. While
// draining it answers 503 at once.
func (s *Server) readyz(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if s.draining.Load() {
		return c.JSON(http.StatusServiceUnavailable, map[string]any{
			"status": "draining", "errorDetail": "Not ready: shutting down",
		})
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), 3*time.Second)
	defer cancel()
	type result struct {
		name string
		err  error
	}
	results := make(chan result, len(s.checks))
	for name, check := range s.checks {
		go func() { results <- result{name, check(ctx)} }()
	}
	checks := map[string]string{}
	failed := []string{}
	state := func(err error) string {
		if err != nil {
			return "unavailable"
		}
		return "ok"
	}
	// A report's changes are logged where it is kept (storage.Health).
	for name, report := range s.reports {
		checks[name] = state(report())
	}
	for range len(s.checks) {
		r := <-results
		if checks[r.name] = state(r.err); r.err != nil {
			// The error names hosts, users and databases: the log only.
			s.log.WarnContext(ctx, "readyz: dependency down", "check", r.name, "err", r.err)
			failed = append(failed, r.name)
		}
	}
	if len(failed) > 0 {
		return c.JSON(http.StatusServiceUnavailable, map[string]any{
			"status":      "unavailable",
			"errorDetail": "Not ready: " + joinSorted(failed),
			"checks":      checks,
		})
	}
	return c.JSON(http.StatusOK, map[string]any{"status": "ok", "checks": checks})
}

// Drain starts a graceful shutdown's first phase: /readyz answers 503 (the
// load balancer takes the instance out), and every answer from now on
// carries Connection: close, so keep-alive connections end after their
// current request instead of being cut when Shutdown closes them. Requests
// are still served in full meanwhile, new connections included.
func (s *Server) Drain() { s.draining.Store(true) }

// SetSharedSocket says whether another process accepts on the listening
// socket too (see Options.SharedSocket): the edge that took it over.
func (s *Server) SetSharedSocket(shared bool) { s.shared.Store(shared) }

// Draining reports whether Drain was called.
func (s *Server) Draining() bool { return s.draining.Load() }

// Serve answers requests on ln until Shutdown, at most Limits.MaxConns
// connections at a time (listener). It returns nil after a graceful
// shutdown.
func (s *Server) Serve(ln net.Listener) error {
	s.headOnce.Do(s.headForGet)
	l := newListener(ln, s.limits.MaxConns, s.limits.MaxConnsPerClient, s.exempt)
	s.ln.Store(l)
	err := s.http.Serve(l)
	if errors.Is(err, http.ErrServerClosed) || (l.stopping.Load() && errors.Is(err, net.ErrClosed)) {
		return nil
	}
	return err
}

// headForGet gives every GET route without a HEAD route of its own one that
// answers as the GET route does (RFC 9110 §9.3.2: HEAD is GET without the
// body, which net/http drops, keeping the headers and Content-Length); echo
// routes only the methods it is told. Run once, when the routes are final.
func (s *Server) headForGet() {
	has := map[string]bool{}
	for _, r := range s.echo.Routes() {
		if r.Method == http.MethodHead {
			has[r.Path] = true
		}
	}
	router := s.echo.Router()
	asGet := func(c echo.Context) error {
		get := *c.Request()
		get.Method = http.MethodGet
		c.SetRequest(&get)
		router.Find(http.MethodGet, echo.GetPath(&get), c)
		return c.Handler()(c)
	}
	for _, r := range s.echo.Routes() {
		if r.Method == http.MethodGet && !has[r.Path] {
			has[r.Path] = true
			s.echo.HEAD(r.Path, asGet)
		}
	}
}

// exemptPeer: the peers whose connections are not capped per client, the
// trusted proxies (every visitor behind one shares its address) and this
// host's own loopback address.
func exemptPeer(trusted request.Proxies) func(netip.Addr) bool {
	v4, v6 := netip.MustParseAddr("127.0.0.1"), netip.IPv6Loopback()
	return func(a netip.Addr) bool {
		if a == v4 || a == v6 {
			return true
		}
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
}

// Shutdown stops accepting connections and waits until every connection
// has had its last answer, page streams included, or ctx ends; then it
// closes what is left. In order (decision 0056):
//
//  1. no connection is accepted any more: on a socket this process owns
//     alone, the ones the kernel has completed are taken from its queue
//     and served, and the socket is shut, so a later connection is refused
//     before its request is sent (listener.quiesce); a shared socket keeps
//     its queue for the process that takes over;
//  2. keep-alive ends: every answer from now on closes its connection, and
//     idle connections close unless their next request has begun to
//     arrive (conn.Close), which is answered first;
//  3. every request read is answered.
//
// It does not use http.Server.Shutdown until the end: once that has begun,
// net/http drops a request it reads without answering it (the request of a
// connection accepted a moment before, or of a kept-alive one that raced
// the close), which a proxy with retries off turns into a 502.
//
// Called before Serve, it makes Serve return at once.
func (s *Server) Shutdown(ctx context.Context) error {
	l := s.ln.Load()
	if l == nil {
		return s.http.Shutdown(ctx)
	}
	if err := l.quiesce(ctx, s.shared.Load()); err != nil {
		s.log.Warn("shutdown: could not take the queued connections; closing the listener may reset some", "err", err)
	}
	l.stopping.Store(true)
	l.Close()
	// The client's turn first: an idle keep-alive connection closed by this
	// side can meet a request the client sent at that moment (with retries
	// off, a balancer's 502), however carefully the close is timed. For
	// IdleGrace every answer says Connection: close and the clients close
	// their idle connections themselves (a balancer's upstream keep-alive
	// timeout below IdleGrace: docs/decisions/0056); only then does this
	// side close what is left.
	s.draining.Store(true)
	if grace := s.idleGrace; grace > 0 {
		gctx, cancel := context.WithTimeout(ctx, grace)
		_ = l.wait(gctx)
		cancel()
	}
	s.http.SetKeepAlivesEnabled(false) // closes idle connections (safely: conn.Close)
	err := l.wait(ctx)
	if err == nil {
		err = s.http.Shutdown(ctx)
	}
	if err != nil {
		s.http.Close()
		l.closeAll()
	}
	return err
}

// perRequest is the edge's own work on every request: the request id and
// client IP, the answer's writer (write deadlines and the security headers:
// answerWriter), and the access-log line when the answer is done. One
// middleware, sharing one clock read.
func (s *Server) perRequest(trusted request.Proxies, policy *security.Policy, log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			s.inflight.Add(1)
			defer s.inflight.Add(-1)
			setRequestContext(c, trusted)
			s.wrapAnswer(c, policy, start)
			if err := next(c); err != nil {
				c.Error(err) // write the error response now so its status is logged
			}
			logAccess(log, c, start)
			return nil
		}
	}
}

// setRequestContext gives the request its id (a well-formed incoming
// X-Request-ID, else a new UUID), echoed on the response and stored with the
// client IP and the peer's trust for plain handlers (request.ID,
// request.ClientIP, request.FromTrustedProxy).
func setRequestContext(c echo.Context, trusted request.Proxies) {
	r := c.Request()
	// By canonical key: Header.Get/Set with "X-Request-ID" would allocate
	// its canonical form on every request.
	ids := r.Header[requestIDKey]
	if len(ids) == 0 || !request.ValidID(ids[0]) {
		ids = []string{request.NewID()}
		r.Header[requestIDKey] = ids
	}
	c.Response().Header()[requestIDKey] = ids[:1:1] // clipped: an Add elsewhere copies
	c.SetRequest(request.With(r, ids[0], c.RealIP(), trusted.Trusts(request.PeerIP(r))))
}

var requestIDKey = http.CanonicalHeaderKey(request.HeaderRequestID)

// logAccess writes the request's one access-log line when it ends (for a
// page stream, when the last byte is sent). On the cache-hit path this line
// is much of the edge's work: logging.LogAccess writes it without slog's
// generic record handling where it can, the same line either way.
func logAccess(log *slog.Logger, c echo.Context, start time.Time) {
	r, res := c.Request(), c.Response()
	// One clock read for the line's time and the duration.
	end := time.Now()
	logging.LogAccess(r.Context(), log, end, logging.Access{
		Method: clip(r.Method, 16), Path: clip(r.URL.Path, maxLoggedPath), Status: res.Status,
		Bytes: res.Size, MS: end.Sub(start).Milliseconds(), IP: request.ClientIP(r), RequestID: request.ID(r),
	})
}

// BodyLimit caps the request body at n bytes; reading past the limit fails
// and the API answers 413 (see errorHandler). The /api/v1 group applies DefaultAPIBodyLimit; a route that needs a
// different cap adds BodyLimit(n) as route middleware, which replaces it.
func BodyLimit(n int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			raw, ok := c.Get(rawBodyKey).(io.ReadCloser)
			if !ok {
				raw = r.Body
				c.Set(rawBodyKey, raw)
				// Bound slow senders too: the server has no ReadTimeout.
				_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now().Add(apiReadTimeout))
			}
			r.Body = http.MaxBytesReader(c.Response(), raw, n)
			return next(c)
		}
	}
}

const rawBodyKey = "server.rawBody"

// errorHandler answers handler errors in the API's shape. A body over its
// limit is 413 wherever it was noticed (binding wraps it in a 400).
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		status, detail := http.StatusInternalServerError, "Something went wrong. Please try again."
		var tooBig *http.MaxBytesError
		var he *echo.HTTPError
		switch {
		case errors.As(err, &tooBig):
			status, detail = http.StatusRequestEntityTooLarge, "Request body too large"
		case errors.As(err, &he):
			status = he.Code
			if msg, ok := he.Message.(string); ok {
				detail = msg
			} else {
				detail = http.StatusText(status)
			}
		default:
			log.ErrorContext(c.Request().Context(), "handler error", "err", err, "path", c.Request().URL.Path)
		}
		if c.Request().Method == http.MethodHead {
			c.NoContent(status)
			return
		}
		response.Error(c, status, detail)
	}
}
