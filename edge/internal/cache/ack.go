package cache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// An acknowledged purge (decision 0057): PurgePaths and PurgeTargets return
// when every live edge has applied the purge, and say when each warmed its
// new copy; the publishing code and `edge purge` call them.
//
// The live edges are the ones whose purge listener is connected: each
// names its LISTEN session after the fan-out channel and itself
// (application_name), and the edge that purges reads the list from
// pg_stat_activity when it sends, so an edge that stopped is not waited
// for and one that never connected is not forgotten. Each edge answers a
// purge with an "applied" notification once its pages are gone (the next
// request renders the new copy) and a "warmed" one once its warm-up that
// followed has stored every page again.

// DefaultPurgeTimeout bounds a purge's wait when its context has no deadline.
const DefaultPurgeTimeout = 10 * time.Second

// Ack is what every edge said of one purge.
type Ack struct {
	// ID names the purge in the edges' logs.
	ID string `json:"id"`
	// Sent is when the purge was sent (this edge's clock).
	Sent time.Time `json:"sent"`
	// Edges are the edges that applied it, this one included, by name.
	Edges []EdgeAck `json:"edges"`
	// Missing names the live edges that had not applied it when the wait
	// ended (PurgeNotApplied is the error then).
	Missing []string `json:"missing,omitempty"`
	// Purged is how many pages this edge removed.
	Purged int `json:"purged"`
}

// EdgeAck is one edge's answer.
type EdgeAck struct {
	// Edge is its name (host, process and listener: "web-2/1234").
	Edge string `json:"edge"`
	// Applied: its pages were purged (measured from Ack.Sent).
	Applied time.Duration `json:"appliedAfter"`
	// Warmed: its warm-up stored the new copies (from Ack.Sent); zero when
	// it does not warm (CACHE_WARM off) or had not finished when the wait
	// ended, which WarmPending tells apart.
	Warmed      time.Duration `json:"warmedAfter,omitempty"`
	WarmPending bool          `json:"warmPending,omitempty"`
}

// PurgeNotApplied is the error of a purge that some live edge did not apply
// within the wait.
type PurgeNotApplied struct{ Edges []string }

func (e *PurgeNotApplied) Error() string {
	return "cache: purge not applied within the wait by " + strings.Join(e.Edges, ", ")
}

// PurgePaths purges each of paths (every query of it) on every edge, and
// the caches in front, and returns once every live edge has applied it and
// warmed its new copies, or when ctx ends (DefaultPurgeTimeout when it has
// no deadline): then the error is a *PurgeNotApplied naming the edges that
// had not applied it. Edges still warming when it returns are marked
// WarmPending, which is not an error: they serve the new copy already.
func (c *Cache) PurgePaths(ctx context.Context, paths []string) (Ack, error) {
	ts := make([]Target, 0, len(paths))
	for _, p := range paths {
		ts = append(ts, Target{Path: p})
	}
	return c.PurgeTargets(ctx, ts...)
}

// PurgeTargets is PurgePaths for any targets (a prefix, everything).
func (c *Cache) PurgeTargets(ctx context.Context, ts ...Target) (Ack, error) {
	if len(ts) == 0 {
		return Ack{}, errors.New("cache: nothing to purge")
	}
	for _, t := range ts {
		if err := t.Validate(); err != nil {
			return Ack{}, err
		}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultPurgeTimeout)
		defer cancel()
	}
	b := make([]byte, 8)
	rand.Read(b)
	w := &ackWait{id: hex.EncodeToString(b), sent: time.Now(), changed: make(chan struct{}, 1),
		applied: map[string]time.Time{}, warmed: map[string]time.Time{}, warms: map[string]bool{}, names: map[string]string{}}
	c.acks.Store(w.id, w)
	defer c.acks.Delete(w.id)

	live := map[string]string{}
	var errs []error
	if c.fanout != nil {
		var err error
		if live, err = c.fanout.liveEdges(ctx); err != nil {
			errs = append(errs, fmt.Errorf("cache: the live edges could not be listed: %w", err))
		}
	}
	live[c.origin()] = c.name
	purged := c.apply(ts, w.id, "", time.Time{})
	if c.fanout != nil {
		if err := c.fanout.send(purgeMessage{Origin: c.fanout.origin, Targets: ts, ID: w.id, Sent: w.sent.UnixNano()}); err != nil {
			errs = append(errs, fmt.Errorf("cache: purge not sent to other edge instances: %w", err))
		}
	}
	for _, t := range ts {
		if err := c.purgeCDN(t); err != nil {
			errs = append(errs, fmt.Errorf("cache: purge not sent to every cache in front: %w", err))
			break
		}
	}
	if len(errs) > 0 {
		a := w.ack(live)
		a.Purged = purged
		return a, errors.Join(errs...)
	}
	for !w.done(live) {
		select {
		case <-ctx.Done():
			a := w.ack(live)
			a.Purged = purged
			if len(a.Missing) > 0 {
				return a, &PurgeNotApplied{Edges: a.Missing}
			}
			return a, nil
		case <-w.changed:
		}
	}
	a := w.ack(live)
	a.Purged = purged
	return a, nil
}

// ackWait collects one purge's answers.
type ackWait struct {
	id      string
	sent    time.Time
	changed chan struct{}

	mu      sync.Mutex
	applied map[string]time.Time // by edge (origin)
	warmed  map[string]time.Time
	warms   map[string]bool   // the edge said it warms
	names   map[string]string // the edges' names, as they gave them
}

func (w *ackWait) note(edge, name, event string, warms bool, at time.Time) {
	w.mu.Lock()
	w.names[edge] = name
	switch event {
	case ackApplied:
		w.applied[edge], w.warms[edge] = at, warms
	case ackWarmed:
		w.warmed[edge] = at
	}
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// done: every live edge applied it, and every one that warms has warmed.
func (w *ackWait) done(live map[string]string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for e := range live {
		if _, ok := w.applied[e]; !ok {
			return false
		}
		if _, ok := w.warmed[e]; w.warms[e] && !ok {
			return false
		}
	}
	return true
}

func (w *ackWait) ack(live map[string]string) Ack {
	w.mu.Lock()
	defer w.mu.Unlock()
	a := Ack{ID: w.id, Sent: w.sent}
	for e, at := range w.applied {
		ea := EdgeAck{Edge: w.names[e], Applied: at.Sub(w.sent)}
		if wt, ok := w.warmed[e]; ok {
			ea.Warmed = wt.Sub(w.sent)
		} else {
			ea.WarmPending = w.warms[e]
		}
		a.Edges = append(a.Edges, ea)
	}
	sort.Slice(a.Edges, func(i, j int) bool { return a.Edges[i].Edge < a.Edges[j].Edge })
	for e, name := range live {
		if _, ok := w.applied[e]; !ok {
			a.Missing = append(a.Missing, name)
		}
	}
	sort.Strings(a.Missing)
	return a
}

// Events of an acknowledgement.
const (
	ackApplied = "applied"
	ackWarmed  = "warmed"
)

// apply purges ts here for the purge id (empty: nobody waits) asked by
// requester (empty: this edge) and sent at sent (zero: begun here),
// acknowledges it and remembers to say when the warm-up that follows is
// done. It returns how many pages it removed.
func (c *Cache) apply(ts []Target, id, requester string, sent time.Time) (n int) {
	c.beforePurge(ts)
	for _, t := range ts {
		n += c.purgeLocal(t)
	}
	gen := c.gen.Load()
	if c.observe.applied != nil {
		switch {
		case sent.IsZero():
			c.observe.applied(false, 0) // begun here
		default:
			c.observe.applied(true, max(time.Since(sent), 0))
		}
	}
	if id == "" {
		return n
	}
	warms := c.warming.Load()
	c.acknowledge(id, requester, ackApplied, warms)
	if warms {
		c.pendingMu.Lock()
		c.pending = append(c.pending, pendingWarm{id: id, requester: requester, gen: gen, at: time.Now()})
		c.pendingMu.Unlock()
	}
	return n
}

// pendingWarm is a purge whose warm-up has not finished here.
type pendingWarm struct {
	id, requester string
	gen           uint64
	at            time.Time
}

// warmedUpTo acknowledges every purge whose pages a warm-up begun at
// generation gen has stored again.
func (c *Cache) warmedUpTo(gen uint64) {
	c.pendingMu.Lock()
	var done, left []pendingWarm
	for _, p := range c.pending {
		if p.gen <= gen {
			done = append(done, p)
		} else {
			left = append(left, p)
		}
	}
	c.pending = left
	c.pendingMu.Unlock()
	for _, p := range done {
		if c.observe.warmed != nil {
			c.observe.warmed(time.Since(p.at))
		}
		c.acknowledge(p.id, p.requester, ackWarmed, true)
	}
}

// acknowledge tells the edge that asked for purge id (requester; empty:
// this one) what happened here.
func (c *Cache) acknowledge(id, requester, event string, warms bool) {
	if requester == "" {
		c.noteAck(id, c.origin(), c.name, event, warms)
		return
	}
	if c.fanout != nil {
		if err := c.fanout.send(purgeMessage{Origin: c.fanout.origin, Ack: &ackMessage{ID: id, To: requester, Edge: c.name, Event: event, Warms: warms}}); err != nil {
			c.log.Warn("cache: purge acknowledgement not sent", "id", id, "err", err)
		}
	}
}

// noteAck records an edge's answer to a purge begun here.
func (c *Cache) noteAck(id, origin, name, event string, warms bool) {
	if v, ok := c.acks.Load(id); ok {
		v.(*ackWait).note(origin, name, event, warms, time.Now())
	}
}

// origin tells this edge's answers from the others'.
func (c *Cache) origin() string {
	if c.fanout != nil {
		return c.fanout.origin
	}
	return "local"
}

// ackMessage is an edge's answer to a purge, sent on the fan-out channel.
type ackMessage struct {
	ID    string `json:"id"`
	To    string `json:"to"` // the origin that asked
	Edge  string `json:"edge"`
	Event string `json:"event"`
	Warms bool   `json:"warms,omitempty"`
}

// SetPurgeObserver is told of every purge another edge sent here, with how
// long it took from the sender's clock to being applied here (edges on
// other hosts: their clocks' skew counts), and of every purge warmed here,
// with how long the warm-up took after it (the metrics).
func (c *Cache) SetPurgeObserver(applied func(fromOther bool, d time.Duration), warmed func(time.Duration)) {
	c.observe.applied, c.observe.warmed = applied, warmed
}

// edgeName names this edge in acknowledgements: host and process.
func edgeName() string {
	h, _ := os.Hostname()
	if h == "" {
		h = "edge"
	}
	return fmt.Sprintf("%s/%d", h, os.Getpid())
}
