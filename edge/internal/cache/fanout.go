package cache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
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

// purgeMessage is a NOTIFY payload.
type purgeMessage struct {
	Origin string `json:"origin"`
	Target
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
		if err := json.Unmarshal([]byte(n.Payload), &m); err != nil || m.Target.Validate() != nil {
			f.c.log.Warn("cache: ignoring a malformed purge notification", "payload", n.Payload)
			continue
		}
		if m.Origin != f.origin {
			f.c.purgeLocal(m.Target)
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

// send NOTIFYs the other instances.
func (f *fanout) send(t Target) error {
	payload, err := json.Marshal(purgeMessage{Origin: f.origin, Target: t})
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
