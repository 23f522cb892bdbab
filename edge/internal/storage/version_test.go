package storage_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"omnibus/edge/internal/storage"
)

// minSQLite is the oldest bundled SQLite the edge accepts: the
// driver pinned 3.41.2 (2023, modernc.org/sqlite v1.23.1); modernc.org/sqlite
// v1.62.0 bundles 3.54.1.
var minSQLite = [3]int{3, 54, 0}

func TestBundledSQLiteIsCurrent(t *testing.T) {
	db, err := storage.OpenSQLite(filepath.Join(t.TempDir(), "v.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	if err := db.Raw("select sqlite_version()").Scan(&v).Error; err != nil {
		t.Fatal(err)
	}
	var got [3]int
	for i, p := range strings.SplitN(v, ".", 3) {
		got[i], _ = strconv.Atoi(p)
	}
	for i := range got {
		if got[i] != minSQLite[i] {
			if got[i] < minSQLite[i] {
				t.Fatalf("sqlite_version() = %s, want >= %d.%d.%d", v, minSQLite[0], minSQLite[1], minSQLite[2])
			}
			break
		}
	}
	t.Logf("sqlite_version() = %s", v)
}
