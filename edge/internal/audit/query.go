package audit

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Filter narrows a listing. Zero fields do not filter.
type Filter struct {
	Actor    string    // e-mail address, exact (any case)
	Action   string    // exact, or a prefix ending in "." ("role." matches role.granted and role.revoked)
	ItemType string    // exact
	ItemID   string    // exact
	From     time.Time // at or after
	To       time.Time // before
	// Before is an entry id: only older entries (the next page).
	Before uint64
}

// Listing limits.
const (
	DefaultPage = 100
	MaxPage     = 500
	// MaxExport is the most rows one CSV export writes (narrow the filter
	// for more): bounds what one request makes the database and the edge do.
	MaxExport = 50000
)

// ParseFilter reads a filter from a query string: actor, action, itemType,
// itemId, from and to (2006-01-02 or RFC 3339; a date "to" includes that
// day), before. Unknown parameters are ignored; a malformed one is an error
// naming it.
func ParseFilter(q url.Values) (Filter, map[string]string) {
	var f Filter
	bad := map[string]string{}
	f.Actor = strings.ToLower(strings.TrimSpace(q.Get("actor")))
	f.Action = strings.TrimSpace(q.Get("action"))
	f.ItemType = strings.TrimSpace(q.Get("itemType"))
	f.ItemID = strings.TrimSpace(q.Get("itemId"))
	for name, max := range map[string]int{"actor": maxActor, "action": maxAction, "itemType": maxType, "itemId": maxItem} {
		if len(q.Get(name)) > max {
			bad[name] = fmt.Sprintf("At most %d characters.", max)
		}
	}
	parse := func(name string, endOfDay bool) time.Time {
		v := strings.TrimSpace(q.Get(name))
		if v == "" {
			return time.Time{}
		}
		if t, err := time.Parse("2006-01-02", v); err == nil {
			if endOfDay {
				t = t.AddDate(0, 0, 1)
			}
			return t
		}
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t.UTC()
		}
		bad[name] = "Not a date (2006-01-02) or a time (RFC 3339)."
		return time.Time{}
	}
	f.From = parse("from", false)
	f.To = parse("to", true)
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			bad["before"] = "Not an entry id."
		}
		f.Before = n
	}
	if len(bad) == 0 {
		bad = nil
	}
	return f, bad
}

func (f Filter) apply(q *gorm.DB) *gorm.DB {
	if f.Actor != "" {
		q = q.Where("lower(actor) = ?", f.Actor)
	}
	if f.Action != "" {
		if strings.HasSuffix(f.Action, ".") {
			q = q.Where("action LIKE ?", strings.NewReplacer("%", "", "_", "").Replace(f.Action)+"%")
		} else {
			q = q.Where("action = ?", f.Action)
		}
	}
	if f.ItemType != "" {
		q = q.Where("item_type = ?", f.ItemType)
	}
	if f.ItemID != "" {
		q = q.Where("item_id = ?", f.ItemID)
	}
	if !f.From.IsZero() {
		q = q.Where("at >= ?", f.From.UTC())
	}
	if !f.To.IsZero() {
		q = q.Where("at < ?", f.To.UTC())
	}
	if f.Before > 0 {
		q = q.Where("id < ?", f.Before)
	}
	return q
}

// List is up to limit entries matching f, newest first.
func (l *Log) List(ctx context.Context, f Filter, limit int) ([]Entry, error) {
	if limit <= 0 || limit > MaxPage {
		limit = DefaultPage
	}
	var out []Entry
	err := f.apply(l.db.WithContext(ctx).Model(&Entry{})).Order("id DESC").Limit(limit).Find(&out).Error
	return out, err
}

// Each calls fn for up to max entries matching f, newest first, reading
// them in pages (a large export never sits in memory whole).
func (l *Log) Each(ctx context.Context, f Filter, max int, fn func(Entry) error) error {
	left := max
	for left > 0 {
		page, err := l.List(ctx, f, min(MaxPage, left))
		if err != nil {
			return err
		}
		for _, e := range page {
			if err := fn(e); err != nil {
				return err
			}
		}
		if len(page) < min(MaxPage, left) {
			return nil
		}
		left -= len(page)
		f.Before = page[len(page)-1].ID
	}
	return nil
}
