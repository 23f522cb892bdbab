package audit

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/http/response"
)

// Paths of the studio's audit endpoints under the /api/v1 group.
const (
	ListPath   = "/staff/audit"
	ExportPath = "/staff/audit.csv"
)

// Register adds the listing and the export to g (the /api/v1 group),
// behind guard (staff.Require(staff.Admin): who may read the log is the
// staff package's rule). There is no route that changes or deletes an
// entry.
func (l *Log) Register(g *echo.Group, guard echo.MiddlewareFunc) {
	g.GET(ListPath, l.list, guard)
	g.GET(ExportPath, l.export, guard)
}

type listAnswer struct {
	Entries []Entry `json:"entries"`
	// Next is the query parameter "before" of the next (older) page; 0
	// when this page is the last.
	Next uint64 `json:"next"`
}

type fieldRefusal struct {
	ErrorDetail string            `json:"errorDetail"`
	FieldErrors map[string]string `json:"fieldErrors"`
}

// list is GET /api/v1/staff/audit?actor=&action=&itemType=&itemId=&from=&to=&before=&limit=
func (l *Log) list(c echo.Context) error {
	f, bad := ParseFilter(c.QueryParams())
	limit := DefaultPage
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPage {
			if bad == nil {
				bad = map[string]string{}
			}
			bad["limit"] = "A number from 1 to " + strconv.Itoa(MaxPage) + "."
		}
		limit = n
	}
	if bad != nil {
		return c.JSON(http.StatusBadRequest, fieldRefusal{ErrorDetail: "Some filters are not valid.", FieldErrors: bad})
	}
	entries, err := l.List(c.Request().Context(), f, limit)
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, "The audit log cannot be read right now. Please try again.")
	}
	ans := listAnswer{Entries: entries}
	if ans.Entries == nil {
		ans.Entries = []Entry{}
	}
	if len(entries) == limit {
		ans.Next = entries[len(entries)-1].ID
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, ans)
}

// export is GET /api/v1/staff/audit.csv with the listing's filters: at
// most MaxExport rows, newest first. Cells a spreadsheet would take for a
// formula get a leading apostrophe. The export itself is recorded.
func (l *Log) export(c echo.Context) error {
	f, bad := ParseFilter(c.QueryParams())
	if bad != nil {
		return c.JSON(http.StatusBadRequest, fieldRefusal{ErrorDetail: "Some filters are not valid.", FieldErrors: bad})
	}
	ctx := c.Request().Context()
	// Recorded first: a failed record refuses the export, so no export goes
	// unrecorded.
	if err := l.Record(ctx, Entry{Action: AuditExported, Detail: c.QueryString()}); err != nil {
		return response.Error(c, http.StatusServiceUnavailable, "The audit log cannot be read right now. Please try again.")
	}
	h := c.Response().Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="omnibus-audit-`+l.now().Format("2006-01-02")+`.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	row := func(cells ...string) error {
		for i, v := range cells {
			if v != "" && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@' || v[0] == '\t' || v[0] == '\r') {
				cells[i] = "'" + v
			}
		}
		return w.Write(cells)
	}
	row("id", "at", "actor", "action", "item_type", "item_id", "revision", "detail", "client_ip")
	err := l.Each(ctx, f, MaxExport, func(e Entry) error {
		return row(strconv.FormatUint(e.ID, 10), e.At.UTC().Format(time.RFC3339), e.Actor, e.Action, e.ItemType, e.ItemID,
			strconv.FormatInt(e.Revision, 10), e.Detail, e.ClientIP)
	})
	w.Flush()
	if err != nil {
		// The status is out; a cut file must not look complete.
		w.Write([]string{"# export incomplete: the database stopped answering"})
		w.Flush()
	}
	return nil
}
