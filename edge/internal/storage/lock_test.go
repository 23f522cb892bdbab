package storage_test

import (
	"path/filepath"
	"sync"
	"testing"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Three edges booting together on one empty database all start: the
// migrations run once, under a lock, and every instance sees them recorded.
func TestConcurrentOpenOfEmptyDatabase(t *testing.T) {
	t.Run("postgres", func(t *testing.T) {
		url := storagetest.EmptyPostgres(t)
		openAtOnce(t, func() (*storage.DB, error) { return storage.OpenPostgres(url) })
	})
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "omnibus.db")
		openAtOnce(t, func() (*storage.DB, error) { return storage.OpenSQLite(path) })
	})
}

func openAtOnce(t *testing.T, open func() (*storage.DB, error)) {
	t.Helper()
	const n = 3
	dbs := make([]*storage.DB, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			dbs[i], errs[i] = open()
		})
	}
	close(start)
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("instance %d: %v", i, errs[i])
			continue
		}
		defer dbs[i].Close()
	}
	if t.Failed() {
		return
	}
	want := appliedMigrations(t, dbs[0])
	if len(want) == 0 {
		t.Fatal("no migrations recorded")
	}
	for i := 1; i < n; i++ {
		if got := appliedMigrations(t, dbs[i]); len(got) != len(want) {
			t.Errorf("instance %d sees %d migrations, instance 0 %d", i, len(got), len(want))
		}
	}
}
