package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
)

// ErrBusy is returned when every database connection stayed in use for the
// whole pool wait: the request is refused (features answer 503 with an
// errorDetail) instead of queueing without end.
var ErrBusy = errors.New("storage: every database connection is busy")

// ErrUnavailable is returned at once, without waiting for a connection,
// while the background pinger (Health) finds the database down: features
// answer 503 with an errorDetail within milliseconds instead of after the
// pool wait, and a client's connection is not held meanwhile.
var ErrUnavailable = errors.New("storage: the database does not answer")

// Default pool bounds (DB_MAX_OPEN_CONNS, DB_POOL_WAIT).
const (
	DefaultMaxOpenConns = 20
	DefaultPoolWait     = 2 * time.Second
)

// LimitPool bounds the connection pool to maxOpen connections (so a burst
// cannot take PostgreSQL to "too many clients" for everyone else on it) and
// makes a query that waits longer than wait for a free one fail with ErrBusy.
// Zero values take the defaults.
func (db *DB) LimitPool(maxOpen int, wait time.Duration) error {
	if maxOpen <= 0 {
		maxOpen = DefaultMaxOpenConns
	}
	if wait <= 0 {
		wait = DefaultPoolWait
	}
	sqlDB, err := db.DB.DB()
	if err != nil {
		return err
	}
	sqlDB.SetMaxOpenConns(maxOpen)
	sqlDB.SetMaxIdleConns(maxOpen)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	p := &boundedPool{db: sqlDB, max: maxOpen, wait: wait}
	db.pool = p
	db.DB.ConnPool = p
	db.DB.Statement.ConnPool = p
	return nil
}

// boundedPool is gorm's connection pool: each statement (or transaction)
// first takes a connection, waiting at most wait, then runs on it with the
// caller's context. The connection goes back when the statement's rows or
// the transaction are done.
type boundedPool struct {
	db   *sql.DB
	max  int
	wait time.Duration
	// down is set while the pinger finds the database down (Health).
	down atomic.Bool
}

type probeKey struct{}

// asProbe marks the pinger's statements: they pass while the database is
// down (they are how it comes back), and never wait for a full pool.
func asProbe(ctx context.Context) context.Context { return context.WithValue(ctx, probeKey{}, true) }

var (
	_ gorm.ConnPool       = (*boundedPool)(nil)
	_ gorm.TxBeginner     = (*boundedPool)(nil)
	_ gorm.GetDBConnector = (*boundedPool)(nil)
)

func (p *boundedPool) conn(ctx context.Context) (*sql.Conn, error) {
	if probe, _ := ctx.Value(probeKey{}).(bool); probe {
		if p.db.Stats().InUse >= p.max {
			return nil, ErrBusy // statements hold every connection: it answers
		}
	} else if p.down.Load() {
		return nil, ErrUnavailable
	}
	wctx, cancel := context.WithTimeout(ctx, p.wait)
	defer cancel()
	c, err := p.db.Conn(wctx)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		if p.db.Stats().InUse < p.max {
			// Not a full pool but a slow new connection (a loaded
			// server): that may take as long as the caller allows.
			return p.db.Conn(ctx)
		}
		return nil, fmt.Errorf("%w (waited %s)", ErrBusy, p.wait)
	}
	return c, err
}

// release returns c to the pool once what runs on it is finished: Close
// waits for open rows or a transaction on c.
func release(c *sql.Conn) { go c.Close() }

func (p *boundedPool) GetDBConn() (*sql.DB, error) { return p.db, nil }

func (p *boundedPool) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.db.PrepareContext(ctx, query)
}

func (p *boundedPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c, err := p.conn(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.ExecContext(ctx, query, args...)
}

func (p *boundedPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c, err := p.conn(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := c.QueryContext(ctx, query, args...)
	release(c)
	return rows, err
}

func (p *boundedPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	c, err := p.conn(ctx)
	if err != nil {
		// *sql.Row cannot carry an error made outside database/sql: one
		// with a cancelled context fails on Scan (context.Canceled).
		cctx, cancel := context.WithCancelCause(ctx)
		cancel(err)
		return p.db.QueryRowContext(cctx, query, args...)
	}
	row := c.QueryRowContext(ctx, query, args...)
	release(c)
	return row
}

func (p *boundedPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	c, err := p.conn(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := c.BeginTx(ctx, opts)
	release(c)
	return tx, err
}
