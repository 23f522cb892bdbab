package audit_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// A handler's record names who acted and from where without saying so
// (the context carries it); overlong text is cut, never refused, so an
// action is not lost to its record; outside a studio request Record
// fails, so the caller fails the action instead of leaving no trace.
func TestRecordFromTheRequestContext(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		if err := audit.Record(context.Background(), audit.Entry{Action: audit.Publish}); !errors.Is(err, audit.ErrNoLog) {
			t.Fatalf("Record without a log: %v", err)
		}
		log := audit.New(db)
		ctx := audit.WithActor(audit.WithLog(context.Background(), log), audit.Who{ActorID: 7, Actor: "pia@example.com", ClientIP: "203.0.113.9"})
		long := strings.Repeat("é", 3000)
		if err := audit.Record(ctx, audit.Entry{ID: 99, Action: audit.Publish, ItemType: "blog", ItemID: "spring", Revision: 4, Detail: long}); err != nil {
			t.Fatal(err)
		}
		if err := audit.Record(ctx, audit.Entry{ID: 99, Action: audit.Save, ItemType: "blog", ItemID: "spring", Revision: 5}); err != nil {
			t.Fatal(err)
		}
		got, err := log.List(ctx, audit.Filter{ItemID: "spring", Action: audit.Publish}, 10)
		if err != nil || len(got) != 1 {
			t.Fatalf("%v %+v", err, got)
		}
		e := got[0]
		if e.Actor != "pia@example.com" || e.ActorID != 7 || e.ClientIP != "203.0.113.9" || e.Revision != 4 || time.Since(e.At) > time.Minute {
			t.Errorf("entry %+v", e)
		}
		if len(e.Detail) > 2000 || !strings.HasPrefix(long, e.Detail) || strings.ToValidUTF8(e.Detail, "") != e.Detail {
			t.Errorf("detail of %d bytes, not a valid cut of the original", len(e.Detail))
		}
		all, _ := log.List(ctx, audit.Filter{}, 10)
		if len(all) != 2 || all[0].ID == all[1].ID {
			t.Errorf("an id in the entry replaced a row: %+v", all)
		}
	})
}
