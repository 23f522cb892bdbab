package cache

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"omnibus/edge/internal/storage"
)

// fanout carries purges between edge instances that share a PostgreSQL
// database: each instance LISTENs on one channel and NOTIFYs its purges there.
type fanout struct {
	c       *Cache
	db      *storage.DB
	dsn     string
	channel atomic.Pointer[string] // set by the first LISTEN
	origin  string                 // this instance, to skip its own notifications
	up      atomic.Bool
}

// purgeMessage is a NOTIFY payload: a purge of Target (edges of every
// version read it), or of Targets with an ID to acknowledge, or an Ack.
type purgeMessage struct {
	Origin string `json:"origin"`
	Target
	Targets []Target    `json:"targets,omitempty"`
	ID      string      `json:"id,omitempty"`
	Sent    int64       `json:"sent,omitempty"` // the sender's clock, Unix ns
	Ack     *ackMessage `json:"ack,omitempty"`
}

// targets is what m purges.
func (m purgeMessage) targets() []Target {
	if len(m.Targets) > 0 {
		return m.Targets
	}
	return []Target{m.Target}
}

// StartFanout joins the purge fan-out when db is PostgreSQL: purges made here
// reach every other edge instance on the same database, and theirs are
// applied here. It returns once LISTEN is in place, or failed: then it
// logs that and keeps trying in the background (a database that blipped
// while the edge started must not stop it: the cached pages, static files
// and pages without data can still be served). It keeps listening,
// reconnecting as needed, until ctx ends. On SQLite it does nothing:
// purges stay local.
//
// The channel is per schema (omnibus_cache_purge_<schema>), so instances on
// the same schema share purges and tests in schemas of their own do not.
func (c *Cache) StartFanout(ctx context.Context, db *storage.DB) {
	if !db.Postgres {
		return
	}
	b := make([]byte, 8)
	rand.Read(b)
	// LISTEN holds one server session for as long as the edge runs: never
	// through a transaction-mode pooler (DATABASE_DIRECT_URL).
	dsn := db.DirectDSN
	if dsn == "" {
		dsn = db.DSN
	}
	f := &fanout{c: c, db: db, dsn: dsn, origin: hex.EncodeToString(b)}
	c.fanout = f
	conn, err := f.listen(ctx)
	if err != nil {
		c.log.Warn("cache: purge listener not connected; purges from other edges are missed until it is (retrying)", "err", err)
	} else {
		f.up.Store(true)
	}
	go f.run(ctx, conn)
}

// Reconnecting the listener: the first attempt after listenRetryFirst, each
// wait twice the last up to listenRetryMax (a few seconds: the edge purges
// everything once back, but purges sent meanwhile are missed), each attempt
// given listenTimeout (a partition that drops packets would hold it).
const (
	listenRetryFirst = time.Second
	listenRetryMax   = 5 * time.Second
	listenTimeout    = 10 * time.Second
)

// listen opens a dedicated connection (pgx, outside gorm's pool, since a
// listening connection must stay checked out) and LISTENs on the channel.
func (f *fanout) listen(ctx context.Context) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, listenTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, f.dsn)
	if err != nil {
		return nil, err
	}
	channel := f.channel.Load()
	if channel == nil {
		var schema string
		if err := conn.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
			conn.Close(ctx)
			return nil, err
		}
		channel = new(string)
		*channel = "omnibus_cache_purge_" + schema
		f.channel.Store(channel)
	}
	// Named, so that an edge purging can list the live ones (liveEdges).
	if _, err := conn.Exec(ctx, "SELECT set_config('application_name', $1, false)", f.sessionName(*channel)); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{*channel}.Sanitize()); err != nil {
		conn.Close(ctx)
		return nil, err
	}
	return conn, nil
}

// run applies notifications until ctx ends, from conn (nil: not connected
// yet). When the connection drops it reconnects with backoff, and then
// purges everything here, since purges sent while it was away were missed;
// only then is it up again.
func (f *fanout) run(ctx context.Context, conn *pgx.Conn) {
	for {
		if conn != nil {
			err := f.receive(ctx, conn)
			f.up.Store(false)
			conn.Close(context.Background())
			if ctx.Err() != nil {
				return
			}
			f.c.log.Warn("cache: purge listener lost its connection", "err", err)
		}
		for backoff := listenRetryFirst; ; backoff = min(2*backoff, listenRetryMax) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			var err error
			if conn, err = f.listen(ctx); err == nil {
				break
			}
		}
		f.c.beforePurge([]Target{{All: true}})
		f.c.purgeLocal(Target{All: true})
		f.up.Store(true)
	}
}

func (f *fanout) receive(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		var m purgeMessage
		if err := json.Unmarshal([]byte(n.Payload), &m); err != nil || !m.valid() {
			f.c.log.Warn("cache: ignoring a malformed purge notification", "payload", n.Payload)
			continue
		}
		switch {
		case m.Ack != nil:
			if m.Ack.To == f.origin {
				f.c.noteAck(m.Ack.ID, m.Origin, m.Ack.Edge, m.Ack.Event, m.Ack.Warms)
			}
		case m.Origin != f.origin:
			sent := time.Now() // an older edge does not say when it sent it
			if m.Sent > 0 {
				sent = time.Unix(0, m.Sent)
			}
			requester := ""
			if m.ID != "" {
				requester = m.Origin
			}
			f.c.apply(m.targets(), m.ID, requester, sent)
		}
	}
}

// PurgeListenerUp reports whether purges from other instances reach this
// one: ok is false when there is no fan-out (SQLite), up whether its LISTEN
// connection is in place.
func (c *Cache) PurgeListenerUp() (up, ok bool) {
	if c.fanout == nil {
		return false, false
	}
	return c.fanout.up.Load(), true
}

// valid: an acknowledgement, or a purge of valid targets.
func (m purgeMessage) valid() bool {
	if m.Ack != nil {
		return m.Ack.ID != "" && m.Ack.To != ""
	}
	for _, t := range m.targets() {
		if t.Validate() != nil {
			return false
		}
	}
	return true
}

// sessionName is the listener's application_name: the channel (hashed:
// names are at most 63 bytes), this edge's origin and its name.
func (f *fanout) sessionName(channel string) string {
	sum := sha256.Sum256([]byte(channel))
	name := sessionPrefix + hex.EncodeToString(sum[:4]) + " " + f.origin + " " + f.c.name
	if len(name) > 63 {
		name = name[:63]
	}
	return name
}

const sessionPrefix = "omnibus-purge "

// liveEdges lists the edges listening on the channel now (this one too,
// when its listener is up), from their sessions' application_name: origin
// to name (cut short where the session name was).
func (f *fanout) liveEdges(ctx context.Context) (map[string]string, error) {
	channel := f.channel.Load()
	if channel == nil {
		return nil, errors.New("the purge listener has not connected yet")
	}
	prefix := f.sessionName(*channel)[:len(sessionPrefix)+9] // up to the channel's hash and its space
	var sessions []string
	err := f.db.WithContext(ctx).Raw(
		"SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND starts_with(application_name, ?)", prefix,
	).Scan(&sessions).Error
	live := map[string]string{}
	for _, s := range sessions {
		origin, name, _ := strings.Cut(strings.TrimPrefix(s, prefix), " ")
		live[origin] = name
	}
	return live, err
}

// send NOTIFYs the other instances.
func (f *fanout) send(m purgeMessage) error {
	if m.Ack == nil && m.Sent == 0 {
		m.Sent = time.Now().UnixNano()
	}
	payload, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(payload) >= 8000 { // PostgreSQL's payload limit
		return errors.New("purge too long to send")
	}
	channel := f.channel.Load()
	if channel == nil {
		return errors.New("the purge listener has not connected yet")
	}
	return f.db.Exec("SELECT pg_notify(?, ?)", *channel, string(payload)).Error
}
