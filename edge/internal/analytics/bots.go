package analytics

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"
)

// bots tells crawlers from browsers by shared/bots.json: isbot's patterns
// joined with |, case-insensitive, as the renderer's isbot does. The list
// uses lookbehind and lookahead, which Go's regexp (RE2) lacks, hence
// regexp2 (ECMAScript mode: JavaScript's \w, \d, \b).
//
// A match costs tens of microseconds, too much for a cache hit, so answers
// are kept in a fixed table of slots indexed by a hash of the user agent
// (atomic words, no lock, no allocation): a browser's user agent is matched
// once, and a flood of made-up ones only overwrites slots (memory fixed).
type bots struct {
	re    *regexp2.Regexp
	names []crawlerName
	seed  maphash.Seed
	slots [botSlots]atomic.Uint64 // hash's high bits | answer+2 in the low 12
}

type crawlerName struct{ Name, Match string }

const (
	botSlots   = 4096
	answerBits = 0xfff
	// maxUA bounds the user agent matched (the pattern's run time grows
	// with it); browsers send 100-300 bytes.
	maxUA = 512
)

func parseBots(botsJSON []byte) (*bots, error) {
	var f struct {
		Crawlers []crawlerName `json:"crawlers"`
		Patterns []string      `json:"patterns"`
	}
	if err := json.Unmarshal(botsJSON, &f); err != nil {
		return nil, fmt.Errorf("analytics: bots.json: %w", err)
	}
	if len(f.Patterns) == 0 {
		return nil, fmt.Errorf("analytics: bots.json has no patterns")
	}
	if len(f.Crawlers)+2 > answerBits {
		return nil, fmt.Errorf("analytics: bots.json names too many crawlers")
	}
	re, err := regexp2.Compile(strings.Join(f.Patterns, "|"), regexp2.IgnoreCase|regexp2.ECMAScript)
	if err != nil {
		return nil, fmt.Errorf("analytics: bots.json patterns: %w", err)
	}
	re.MatchTimeout = 50 * time.Millisecond
	return &bots{re: re, names: f.Crawlers, seed: maphash.MakeSeed()}, nil
}

// count is the number of crawler labels: the named ones and "other".
func (b *bots) count() int { return len(b.names) + 1 }

// name is crawler i's label.
func (b *bots) name(i int) string {
	if i < len(b.names) {
		return b.names[i].Name
	}
	return "other"
}

// crawler is the index of ua's crawler label, or -1 for a browser.
func (b *bots) crawler(ua string) int {
	if ua == "" {
		return -1 // as the renderer: no user agent is not a bot
	}
	h := maphash.String(b.seed, ua)
	slot := &b.slots[h%botSlots]
	if v := slot.Load(); v&^answerBits == h&^answerBits && v&answerBits != 0 {
		return int(v&answerBits) - 2
	}
	i := b.match(ua)
	slot.Store(h&^answerBits | uint64(i+2))
	return i
}

// match runs the pattern (uncached).
func (b *bots) match(ua string) int {
	if len(ua) > maxUA {
		ua = ua[:maxUA]
	}
	if ok, err := b.re.MatchString(ua); err != nil || !ok {
		return -1
	}
	lower := strings.ToLower(ua)
	for i, n := range b.names {
		if strings.Contains(lower, n.Match) {
			return i
		}
	}
	return len(b.names)
}
