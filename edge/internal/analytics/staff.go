package analytics

import (
	"fmt"
	"io"
	"strings"

	"omnibus/edge/internal/storage"
)

// RunStaffCommand is `edge staff grant EMAIL` and `edge staff revoke EMAIL`:
// the only way an account becomes staff (no API or form writes the flag).
// `edge staff list` prints the staff accounts' addresses.
func RunStaffCommand(args []string, db *storage.DB, stdout, stderr io.Writer) int {
	usage := func() int {
		fmt.Fprintln(stderr, "usage: edge staff grant EMAIL | edge staff revoke EMAIL | edge staff list")
		return 2
	}
	if len(args) == 1 && args[0] == "list" {
		var emails []string
		if err := db.Table("accounts").Where("staff").Order("email").Pluck("email", &emails).Error; err != nil {
			fmt.Fprintf(stderr, "edge staff: %v\n", err)
			return 1
		}
		for _, e := range emails {
			fmt.Fprintln(stdout, e)
		}
		return 0
	}
	if len(args) != 2 || (args[0] != "grant" && args[0] != "revoke") {
		return usage()
	}
	email := strings.ToLower(strings.TrimSpace(args[1]))
	res := db.Table("accounts").Where("lower(email) = ?", email).Update("staff", args[0] == "grant")
	if res.Error != nil {
		fmt.Fprintf(stderr, "edge staff: %v\n", res.Error)
		return 1
	}
	if res.RowsAffected == 0 {
		fmt.Fprintf(stderr, "edge staff: no account with the e-mail address %s in %s: sign up on the site first, "+
			"and run this with the edge's DATABASE_URL or DATA_DIR (make run: from the repository's root, edge/bin/edge staff grant EMAIL)\n", email, db.Describe())
		return 1
	}
	if args[0] == "grant" {
		fmt.Fprintf(stdout, "%s is staff: %s shows them the counts\n", email, StaffPath)
	} else {
		fmt.Fprintf(stdout, "%s is no longer staff\n", email)
	}
	return 0
}
