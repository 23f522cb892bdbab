package analytics

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"
	"golang.org/x/time/rate"
)

// bots tells crawlers from browsers by shared/bots.json: a user agent is a
// bot when one of isbot's patterns matches it, case-insensitively, as the
// renderer's isbot does. The patterns are all lower case, so they run
// case-sensitively on the lower-cased user agent, each on its own: Go's
// regexp (RE2) runs the 200 of them one by one in a tenth of the time it
// takes for them joined with | (no literal-prefix search in an alternation).
// Six use lookbehind or lookahead, which RE2 lacks; those run in regexp2
// (ECMAScript mode: JavaScript's \w, \d, \b).
//
// Even so a match costs tens of microseconds, too much for a cache hit, so
// answers are kept in a fixed table of slots indexed by a hash of the user
// agent (atomic words, no lock, no allocation): a browser's user agent is
// matched once. A flood of made-up ones only overwrites slots (memory
// fixed), and at most matchesPerSecond of them are matched (CPU bounded);
// past that a user agent counts as a browser and is not remembered.
//
// A user agent that holds a name of the crawlers list (googlebot, bingbot:
// a substring search of 16 short words) has a budget of its own, so a flood
// of made-up user agents can neither spend it nor, by overwriting its slot,
// turn a search engine into visitors; past that budget too (a flood that
// names crawlers), the name decides without the patterns.
type bots struct {
	plain       []*regexp.Regexp
	look        []*regexp2.Regexp
	names       []crawlerName
	seed        maphash.Seed
	budget      *rate.Limiter           // user agents that name no crawler
	namedBudget *rate.Limiter           // those that do
	slots       [botSlots]atomic.Uint64 // hash's high bits | answer+2 in the low 12
}

type crawlerName struct{ Name, Match string }

const (
	botSlots   = 4096
	answerBits = 0xfff
	// maxUA bounds the user agent matched (the pattern's run time grows
	// with it); browsers send 100-300 bytes.
	maxUA = 512
	// matchesPerSecond bounds the pattern runs for user agents not in the
	// table (a burst of as many is allowed), for those that name a crawler
	// and for the others each.
	matchesPerSecond = 200
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
	b := &bots{names: f.Crawlers, seed: maphash.MakeSeed(), budget: rate.NewLimiter(matchesPerSecond, matchesPerSecond),
		namedBudget: rate.NewLimiter(matchesPerSecond, matchesPerSecond)}
	for _, p := range f.Patterns {
		if strings.Contains(p, "(?<") || strings.Contains(p, "(?=") || strings.Contains(p, "(?!") {
			re, err := regexp2.Compile(p, regexp2.IgnoreCase|regexp2.ECMAScript)
			if err != nil {
				return nil, fmt.Errorf("analytics: bots.json pattern %q: %w", p, err)
			}
			re.MatchTimeout = 10 * time.Millisecond
			b.look = append(b.look, re)
			continue
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("analytics: bots.json pattern %q: %w", p, err)
		}
		b.plain = append(b.plain, re)
	}
	return b, nil
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
	lower := lowerUA(ua)
	named := b.nameIn(lower)
	switch {
	case named >= 0 && !b.namedBudget.Allow():
		return named // a crawler's name, past its budget: the name decides
	case named < 0 && !b.budget.Allow():
		return -1
	}
	i := b.match(lower, named)
	slot.Store(h&^answerBits | uint64(i+2))
	return i
}

// lowerUA is the user agent as matched: cut at maxUA, lower case.
func lowerUA(ua string) string {
	if len(ua) > maxUA {
		ua = ua[:maxUA]
	}
	return strings.ToLower(ua)
}

// nameIn is the first crawler of the list whose name a lower-cased user
// agent holds, or -1.
func (b *bots) nameIn(lower string) int {
	for i, n := range b.names {
		if strings.Contains(lower, n.Match) {
			return i
		}
	}
	return -1
}

// match runs the patterns (uncached) on a lower-cased user agent that
// names crawler named (-1: none).
func (b *bots) match(lower string, named int) int {
	switch {
	case !b.isBot(lower):
		return -1
	case named >= 0:
		return named
	}
	return len(b.names)
}

// isBot runs the patterns on a lower-cased user agent.
func (b *bots) isBot(lower string) bool {
	for _, re := range b.plain {
		if re.MatchString(lower) {
			return true
		}
	}
	for _, re := range b.look {
		if ok, err := re.MatchString(lower); err == nil && ok {
			return true
		}
	}
	return false
}
