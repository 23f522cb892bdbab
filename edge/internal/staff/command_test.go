package staff_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

func run(db *storage.DB, args ...string) (int, string, string) {
	var out, errOut strings.Builder
	code := staff.RunCommand(args, db, &out, &errOut)
	return code, out.String(), errOut.String()
}

// The operator's command grants a role (the first admin included), lists
// the members and revokes; a grant needs a role that exists; each change
// is in the audit log, by the command.
func TestCommandGrantsListsAndRevokes(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		stafftest.Account(t, db, "Ada@Example.com")
		if code, _, msg := run(db, "grant", "ada@example.com"); code != 2 || !strings.Contains(msg, "--role") {
			t.Errorf("grant without a role: exit %d %q", code, msg)
		}
		if code, _, msg := run(db, "grant", "ada@example.com", "--role", "owner"); code != 2 || !strings.Contains(msg, "unknown role") {
			t.Errorf("grant of an unknown role: exit %d %q", code, msg)
		}
		if code, out, msg := run(db, "grant", "ADA@example.com", "--role", "admin", "--reason", "first admin"); code != 0 || !strings.Contains(out, "admin") {
			t.Fatalf("first admin: exit %d %q %q", code, out, msg)
		}
		stafftest.Account(t, db, "vi@example.com")
		if code, _, msg := run(db, "grant", "--role", "viewer", "vi@example.com"); code != 0 {
			t.Fatalf("flags before the address: exit %d %q", code, msg)
		}
		code, out, _ := run(db, "list")
		if code != 0 || !strings.Contains(out, "Ada@Example.com\tadmin") || !strings.Contains(out, "vi@example.com\tviewer") {
			t.Fatalf("list: %d %q", code, out)
		}
		if code, _, msg := run(db, "revoke", "vi@example.com"); code != 0 {
			t.Fatalf("revoke: %d %q", code, msg)
		}
		if code, _, msg := run(db, "revoke", "vi@example.com"); code != 1 || !strings.Contains(msg, "no staff role") {
			t.Errorf("revoke twice: %d %q", code, msg)
		}
		if _, out, _ := run(db, "list"); strings.Contains(out, "vi@example.com") {
			t.Errorf("revoked member still listed: %q", out)
		}
		entries, err := audit.New(db).List(t.Context(), audit.Filter{Actor: "edge staff command"}, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Action+" "+e.ItemID+" "+e.Detail)
		}
		want := []string{"role.revoked vi@example.com was viewer", "role.granted vi@example.com viewer", "role.granted Ada@Example.com admin: first admin"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("audit log %q, want %q", got, want)
		}
	})
}

// Granting a role to an address with no account names the database the
// command opened (the file, or PostgreSQL's database and host), so an
// operator sees at once when it is not the edge's.
func TestCommandNamesItsDatabase(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		code, _, msg := run(db, "grant", "nobody@example.com", "--role", "viewer")
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		want := ""
		if u, err := url.Parse(storagetest.PostgresURL()); err == nil {
			want = fmt.Sprintf("%q on %s:", strings.TrimPrefix(u.Path, "/"), u.Hostname())
		}
		if !db.Postgres {
			want, _, _ = strings.Cut(db.DSN, "?")
		}
		if !strings.Contains(msg, "nobody@example.com") || !strings.Contains(msg, want) {
			t.Errorf("%q does not name %q", msg, want)
		}
	})
}
