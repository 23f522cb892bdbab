package content

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Scheduled publishing fires once, on time, across any number of edges: one
// lease row in the database (content_leases, "scheduler") names the edge
// allowed to publish what is due; each edge's loop tries to take or renew it
// every SchedulerInterval, and only the holder looks for due items. The
// publication itself is a conditional update (still scheduled, still due),
// so even two holders in the moment a lease changes hands cannot publish
// one item twice.

// SchedulerInterval is how often each edge checks the lease and, holding
// it, what is due: a scheduled item goes live within this of its time.
var SchedulerInterval = 200 * time.Millisecond

// schedulerLease is how long a lease lasts without renewal: an edge that
// dies is replaced within it.
const schedulerLease = 3 * time.Second

const leaseName = "scheduler"

// RunScheduler publishes due items until ctx ends. holder names this edge
// ("" makes a random name).
func (s *Store) RunScheduler(ctx context.Context, holder string) {
	if holder == "" {
		b := make([]byte, 8)
		rand.Read(b)
		holder = hex.EncodeToString(b)
	}
	t := time.NewTicker(SchedulerInterval)
	defer t.Stop()
	for {
		if ok, err := s.takeLease(ctx, holder); err != nil {
			if ctx.Err() == nil {
				s.log.Warn("content: scheduler lease", "err", err)
			}
		} else if ok {
			if _, err := s.PublishDue(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("content: scheduled publishing", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// takeLease takes or renews the scheduler's lease for holder.
func (s *Store) takeLease(ctx context.Context, holder string) (bool, error) {
	db := s.db.WithContext(ctx)
	now := s.now().UTC()
	res := db.Table("content_leases").Where("name = ? AND (holder = ? OR expires_at < ?)", leaseName, holder, now).
		Updates(map[string]any{"holder": holder, "expires_at": now.Add(schedulerLease)})
	if res.Error != nil {
		return false, res.Error
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	// No row yet: the first edge makes it.
	res = db.Clauses(clause.OnConflict{DoNothing: true}).Table("content_leases").Create(map[string]any{"name": leaseName, "holder": holder, "expires_at": now.Add(schedulerLease)})
	if res.Error != nil {
		return false, res.Error
	}
	return res.RowsAffected == 1, nil
}

// PublishDue publishes every scheduled item whose time has come, each in a
// transaction of its own, and returns how many it published.
func (s *Store) PublishDue(ctx context.Context) (int, error) {
	var due []itemRow
	if err := s.db.WithContext(ctx).Where("state = ? AND scheduled_at <= ?", StateScheduled, s.now().UTC()).Order("scheduled_at").Limit(100).Find(&due).Error; err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, row := range due {
		err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
			// Still scheduled and due: only one transaction gets the row.
			res := tx.Model(&itemRow{}).Where("id = ? AND state = ? AND scheduled_at <= ?", row.ID, StateScheduled, s.now().UTC()).Update("updated_at", s.now().UTC())
			if res.Error != nil || res.RowsAffected == 0 {
				return nil, res.Error
			}
			cur, err := s.findItem(tx, row.ID)
			if err != nil || cur.ScheduledRevisionID == nil {
				return nil, err
			}
			n++
			return s.publish(tx, cur, *cur.ScheduledRevisionID)
		})
		var fe FieldErrors
		if errors.As(err, &fe) {
			// The revision no longer validates (its category went): it
			// stays scheduled-past-due in the studio, said in the log.
			s.log.Warn("content: a scheduled item cannot be published", "id", row.ID, "err", err)
			s.db.WithContext(ctx).Model(&itemRow{}).Where("id = ?", row.ID).Updates(map[string]any{"state": restingState(row), "scheduled_at": nil, "scheduled_revision_id": nil})
			continue
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}
