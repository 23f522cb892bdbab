// Package staff is who may do what in the studio: each staff member's one
// role (viewer < editor < publisher < admin), granted and revoked by the
// operator command `edge staff` or, for admins, in the studio; the studio
// sessions, separate from the merchant's and opened only by a second factor
// (a passkey, or a TOTP code where an admin allowed it); and the middleware
// every studio endpoint is behind (Require), which answers 401 without a
// studio session and 403 for a role too low.
//
// docs/staff-api.md has the endpoints; docs/decisions/0048 the threat model.
package staff

import (
	"fmt"
	"strings"
)

// Role is a staff member's level; each may do everything the one below
// may. None is no staff role at all.
type Role int

const (
	None Role = iota
	// Viewer reads the insights.
	Viewer
	// Editor also writes drafts and shares previews.
	Editor
	// Publisher also publishes, schedules, unpublishes, rolls back, and
	// edits redirects and campaign links.
	Publisher
	// Admin also grants and revokes roles, allows TOTP, and revokes other
	// members' sessions and passkeys.
	Admin
)

// Roles are the grantable roles, lowest first.
var Roles = []Role{Viewer, Editor, Publisher, Admin}

var names = map[Role]string{None: "none", Viewer: "viewer", Editor: "editor", Publisher: "publisher", Admin: "admin"}

func (r Role) String() string {
	if n, ok := names[r]; ok {
		return n
	}
	return fmt.Sprintf("role(%d)", int(r))
}

// MarshalText writes the role's name (JSON answers).
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a role's name ("none" too): the studio pages' data
// read back.
func (r *Role) UnmarshalText(b []byte) error {
	if string(b) == names[None] {
		*r = None
		return nil
	}
	v, err := ParseRole(string(b))
	*r = v
	return err
}

// ParseRole reads a grantable role's name (any case).
func ParseRole(s string) (Role, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, r := range Roles {
		if names[r] == s {
			return r, nil
		}
	}
	return None, fmt.Errorf("unknown role %q (viewer, editor, publisher or admin)", s)
}
