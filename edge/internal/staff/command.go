package staff

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"omnibus/edge/internal/storage"
)

const commandUsage = `usage:
  edge staff grant EMAIL --role viewer|editor|publisher|admin [--reason TEXT]
  edge staff revoke EMAIL [--reason TEXT]
  edge staff list`

// RunCommand is `edge staff`: the operator's grants. It is the only way the
// first admin is made (the studio's grants need an admin already); after
// that admins grant in the studio too. Every change is in the audit log,
// by "edge staff command".
func RunCommand(args []string, db *storage.DB, stdout, stderr io.Writer) int {
	usage := func() int {
		fmt.Fprintln(stderr, commandUsage)
		return 2
	}
	if len(args) == 0 {
		return usage()
	}
	ctx := context.Background()
	dir := NewDirectory(db)
	if args[0] == "list" {
		if len(args) != 1 {
			return usage()
		}
		members, err := dir.List(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "edge staff: %v\n", err)
			return 1
		}
		for _, m := range members {
			fmt.Fprintf(stdout, "%s\t%s\tpasskeys: %d\tgranted by %s on %s\n", m.Email, m.Role, m.Passkeys, m.GrantedBy, m.GrantedAt.Format("2006-01-02"))
		}
		return 0
	}
	if args[0] != "grant" && args[0] != "revoke" {
		return usage()
	}
	fs := flag.NewFlagSet("edge staff "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	roleName := fs.String("role", "", "the role: viewer, editor, publisher or admin")
	reason := fs.String("reason", "", "why (kept in the audit log)")
	// The address may come before or after the flags.
	var email string
	rest := args[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		email, rest = rest[0], rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	if email == "" && fs.NArg() == 1 {
		email = fs.Arg(0)
	} else if fs.NArg() != 0 || email == "" {
		return usage()
	}
	ch := Change{Command: true, Reason: *reason}
	var err error
	if args[0] == "grant" {
		if *roleName == "" {
			fmt.Fprintln(stderr, "edge staff grant: say which role with --role viewer|editor|publisher|admin")
			return 2
		}
		role, perr := ParseRole(*roleName)
		if perr != nil {
			fmt.Fprintf(stderr, "edge staff grant: %v\n", perr)
			return 2
		}
		var m Member
		if m, err = dir.Grant(ctx, email, role, ch); err == nil {
			fmt.Fprintf(stdout, "%s is %s. Sign in on the site, then enrol a passkey at %s (the studio asks for it).\n", m.Email, m.Role, SignInPath)
			return 0
		}
	} else {
		var m Member
		if m, err = dir.Revoke(ctx, email, ch); err == nil {
			fmt.Fprintf(stdout, "%s is no longer staff (was %s); their studio sessions ended\n", m.Email, m.Role)
			return 0
		}
	}
	switch {
	case errors.Is(err, ErrNoAccount):
		fmt.Fprintf(stderr, "edge staff: no account with the e-mail address %s in %s: sign up on the site first, "+
			"and run this with the edge's DATABASE_URL or DATA_DIR (make run: from the repository's root, edge/bin/edge staff grant EMAIL --role R)\n",
			strings.ToLower(strings.TrimSpace(email)), db.Describe())
	case errors.Is(err, ErrNotStaff):
		fmt.Fprintf(stderr, "edge staff: %s has no staff role\n", email)
	default:
		fmt.Fprintf(stderr, "edge staff: %v\n", err)
	}
	return 1
}
