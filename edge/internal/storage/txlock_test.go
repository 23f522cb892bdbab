package storage_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// A transaction that reads before it writes, run 50 times at once, never
// fails with SQLITE_BUSY: on SQLite each transaction takes the write lock
// when it begins (decision 0009, finding 6); PostgreSQL runs the same test.
func TestConcurrentReadThenWrite(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		if err := db.Exec("CREATE TABLE txlock_probe (id integer primary key, n integer not null)").Error; err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 50)
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- db.Transaction(func(tx *gorm.DB) error {
					var n int64
					if err := tx.Table("txlock_probe").Count(&n).Error; err != nil {
						return err
					}
					time.Sleep(time.Millisecond) // another transaction reads meanwhile
					return tx.Exec("INSERT INTO txlock_probe (id, n) VALUES (?, ?)", i+1, n).Error
				})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(fmt.Errorf("transaction: %w", err))
			}
		}
	})
}
