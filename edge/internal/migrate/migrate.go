// Package migrate is the edge binary's "migrate" subcommand: bring the
// database (DATABASE_URL, else the SQLite file under DATA_DIR) to the
// current schema and exit. Kubernetes runs it as the pod's first init
// container (deploy/k8s), so a migration that fails stops the rollout before
// any new edge serves; the edge still migrates at start too (a no-op then).
package migrate

import (
	"fmt"
	"io"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/storage"
)

// Run migrates the database cfg names and returns the exit code. It never
// prints the database URL (it carries the password).
func Run(args []string, cfg config.Config, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: edge migrate   (reads DATABASE_URL, else DATA_DIR)")
		return 2
	}
	// Like serving: a schema a newer edge migrated is refused outside
	// development, and nothing in it is changed.
	db, err := storage.Open(cfg.DatabaseURL, cfg.DataDir, storage.AllowNewerSchema(cfg.Development()), storage.Direct(cfg.DatabaseDirectURL))
	if err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	defer db.Close()
	engine := "sqlite"
	if db.Postgres {
		engine = "postgresql"
	}
	for _, m := range db.Schema.Applied {
		fmt.Fprintf(stdout, "migrate: %s: applied %04d %s\n", engine, m.Version, m.Name)
	}
	if len(db.Schema.Applied) == 0 {
		fmt.Fprintf(stdout, "migrate: %s: nothing to apply\n", engine)
	}
	fmt.Fprintf(stdout, "migrate: %s schema is current: %04d %s\n", engine, db.Schema.Version, db.Schema.Name)
	if db.Schema.Newer() {
		fmt.Fprintf(stdout, "migrate: %s: the schema is newer than this edge (it knows up to %04d); allowed in development only\n", engine, db.Schema.Known)
	}
	return 0
}
