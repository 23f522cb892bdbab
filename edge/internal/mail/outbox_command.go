package mail

import (
	"flag"
	"fmt"
	"io"

	"omnibus/edge/internal/storage"
)

// RunOutboxCommand is `edge mail [-n N] [-to ADDRESS]`: prints the newest
// messages of the development outbox (mail_outbox), newest last. It reads
// the database directly, so only someone on the machine (or with the
// database's credentials) can read the links in them; nothing is logged or
// served over HTTP. It returns the process exit code.
func RunOutboxCommand(args []string, db *storage.DB, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 10, "how many of the newest messages to print")
	to := fs.String("to", "", "only messages to this address")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	q := db.Order("id DESC").Limit(max(*n, 1))
	if *to != "" {
		q = q.Where("recipient = ?", *to)
	}
	var rows []OutboxMessage
	if err := q.Find(&rows).Error; err != nil {
		fmt.Fprintln(stderr, "edge mail:", err)
		return 1
	}
	for i := len(rows) - 1; i >= 0; i-- {
		m := rows[i]
		fmt.Fprintf(stdout, "--- #%d %s\nTo: %s\nSubject: %s\n\n%s\n", m.ID, m.CreatedAt.Format("2006-01-02 15:04:05Z07:00"), m.Recipient, m.Subject, m.Body)
	}
	return 0
}
