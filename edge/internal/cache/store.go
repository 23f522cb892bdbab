package cache

import (
	"container/list"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// entry is one finished page: its status, headers and body in every encoding,
// kept whole so a hit only copies bytes. Entries are immutable once stored; a
// refresh stores a new one.
type entry struct {
	key    string
	status int
	header http.Header // Content-Type and the renderer's other headers, minus per-response ones
	body   []byte      // identity (also in variants[identity] once stored)
	stored time.Time
	policy Policy
	size   int64
	// protected: in the store's protected segment (guarded by store.mu).
	protected bool

	// Set on entries that are stored (shared one-off answers have none):
	// each encoding's bytes and header values, ready to assign. Identity is
	// set at once; gzip and brotli (compressible entries only) when first
	// asked for (encode.go: entry.variant).
	variants     [3]atomic.Pointer[variant] // by encoding
	compress     bool                       // gzip and brotli may be given
	hash         string                     // of body: the ETags' base
	owner        *store                     // counts the bytes of variants made later
	encMu        sync.Mutex                 // one compression per encoding
	cacheControl []string

	// age is the last Age header value given out: every hit within the
	// same second reuses it instead of formatting and allocating its own.
	age atomic.Pointer[ageValue]
}

// ageValue is an Age header value and the whole seconds it says.
type ageValue struct {
	secs   int
	header []string // {strconv.Itoa(secs)}, capacity 1: an Add elsewhere copies
}

// ageHeader is the Age header value for secs, shared by the hits of the
// same second (a hit answers in microseconds, so most hits find it ready).
func (e *entry) ageHeader(secs int) []string {
	if a := e.age.Load(); a != nil && a.secs == secs {
		return a.header
	}
	a := &ageValue{secs: secs, header: []string{strconv.Itoa(secs)}}
	e.age.Store(a)
	return a.header
}

// variant is one encoding of an entry's body with its header values.
type variant struct {
	body          []byte
	etag          string   // quoted
	etagHeader    []string // {etag}
	contentLength []string
	encoding      []string // nil for identity
}

func newVariant(body []byte, hash string, enc encoding) *variant {
	v := &variant{body: body, etag: `"` + hash + `"`, contentLength: []string{strconv.Itoa(len(body))}}
	if enc != identity {
		v.etag = `"` + hash + "-" + enc.String() + `"`
		v.encoding = []string{enc.String()}
	}
	v.etagHeader = []string{v.etag}
	return v
}

// entryOverhead approximates the bookkeeping around an entry's bytes (map and
// list nodes, header maps) so many tiny entries still count against the bound.
const entryOverhead = 512

func (e *entry) computeSize() {
	n := int64(entryOverhead + len(e.key) + len(e.body))
	for i := range e.variants[1:] {
		if v := e.variants[1+i].Load(); v != nil {
			n += int64(len(v.body))
		}
	}
	for k, vs := range e.header {
		n += int64(len(k))
		for _, v := range vs {
			n += int64(len(v))
		}
	}
	e.size = n
}

// store is a map of entries bounded by the total size of the entries in
// bytes, evicted by a segmented LRU: a page enters on
// probation and is promoted to the protected segment when it is asked for
// again; eviction takes the least recently used page on probation first, so
// a flood of pages asked for once (random paths and parameters) churns the
// probation segment and cannot evict a page that earned its place. The
// protected segment holds at most protectedShare of the bytes; past it its
// least recently used page goes back on probation. (SLRU, Karedla et al.
// 1994; the main segment of Caffeine's W-TinyLFU is one.) A hit costs what
// an LRU hit did: a map lookup and a move to the front, plus a flag check.
type store struct {
	mu             sync.Mutex
	maxBytes       int64
	bytes          int64
	protectedBytes int64
	probation      *list.List // of *entry, front = most recently used
	protected      *list.List
	items          map[string]*list.Element
}

// protectedShare is the part of the bytes the protected segment may hold
// (80%, as in SLRU and W-TinyLFU).
const protectedShare = 0.8

func newStore(maxBytes int64) *store {
	return &store{maxBytes: maxBytes, probation: list.New(), protected: list.New(), items: map[string]*list.Element{}}
}

// get returns the entry for key and marks it used: a page on probation
// asked for again is promoted.
func (s *store) get(key string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.items[key]
	if !ok {
		return nil
	}
	e := el.Value.(*entry)
	if e.protected {
		s.protected.MoveToFront(el)
		return e
	}
	s.probation.Remove(el)
	e.protected = true
	s.items[key] = s.protected.PushFront(e)
	s.protectedBytes += e.size
	s.demoteLocked()
	return e
}

// demoteLocked moves the protected segment's least recently used pages back
// on probation while it holds more than its share.
func (s *store) demoteLocked() {
	for s.protectedBytes > int64(float64(s.maxBytes)*protectedShare) && s.protected.Len() > 1 {
		el := s.protected.Back()
		e := s.protected.Remove(el).(*entry)
		e.protected = false
		s.protectedBytes -= e.size
		s.items[e.key] = s.probation.PushFront(e)
	}
}

// put stores e (replacing any entry of its key, whose segment it takes: a
// refreshed page stays protected) and evicts until the total fits, from
// probation first. An entry larger than the whole bound is not stored.
func (s *store) put(e *entry) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.size > s.maxBytes {
		return false
	}
	if el, ok := s.items[e.key]; ok {
		e.protected = el.Value.(*entry).protected
		s.removeLocked(el)
	} else {
		e.protected = false
	}
	if e.protected {
		s.items[e.key] = s.protected.PushFront(e)
		s.protectedBytes += e.size
		s.demoteLocked()
	} else {
		s.items[e.key] = s.probation.PushFront(e)
	}
	s.bytes += e.size
	for s.bytes > s.maxBytes {
		if el := s.probation.Back(); el != nil {
			s.removeLocked(el)
		} else {
			s.removeLocked(s.protected.Back())
		}
	}
	return true
}

// grow counts n more bytes for e (an encoding made after it was stored),
// evicting as put does; nothing when e is no longer stored.
func (s *store) grow(e *entry, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[e.key]; !ok || el.Value.(*entry) != e {
		return
	}
	e.size += int64(n)
	s.bytes += int64(n)
	if e.protected {
		s.protectedBytes += int64(n)
		s.demoteLocked()
	}
	for s.bytes > s.maxBytes {
		if el := s.probation.Back(); el != nil {
			s.removeLocked(el)
		} else {
			s.removeLocked(s.protected.Back())
		}
	}
}

// peek returns the entry for key without marking it used (warming's check).
func (s *store) peek(key string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[key]; ok {
		return el.Value.(*entry)
	}
	return nil
}

func (s *store) removeLocked(el *list.Element) {
	e := el.Value.(*entry)
	if e.protected {
		s.protected.Remove(el)
		s.protectedBytes -= e.size
	} else {
		s.probation.Remove(el)
	}
	delete(s.items, e.key)
	s.bytes -= e.size
}

// removeIf drops every entry whose key matches and returns how many it dropped.
func (s *store) removeIf(match func(key string) bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for key, el := range s.items {
		if match(key) {
			s.removeLocked(el)
			n++
		}
	}
	return n
}

// stats reports the number of entries and their total size.
func (s *store) stats() (entries int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items), s.bytes
}

// Target says what a purge removes: one path (with any query), every path
// under a prefix, or everything.
type Target struct {
	Path   string `json:"path,omitempty"`
	Prefix string `json:"prefix,omitempty"`
	All    bool   `json:"all,omitempty"`
}

func (t Target) matcher() func(key string) bool {
	switch {
	case t.All:
		return func(string) bool { return true }
	case t.Prefix != "":
		p := escapePath(t.Prefix)
		return func(key string) bool { return strings.HasPrefix(keyPath(key), p) }
	default:
		// The page with any query, with a trailing slash, and React Router's
		// data request for it (/x.data; /_root.data for /), which client-side
		// navigations fetch instead of the document.
		p := escapePath(t.Path)
		same := map[string]bool{p: true, strings.TrimSuffix(p, "/") + ".data": true}
		if p == "/" {
			same["/_root.data"] = true
		} else if strings.HasSuffix(p, "/") {
			same[strings.TrimSuffix(p, "/")] = true
		} else {
			same[p+"/"] = true
		}
		return func(key string) bool { return same[keyPath(key)] }
	}
}
