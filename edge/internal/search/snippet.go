package search

import (
	"strings"
	"unicode/utf8"
)

// snippetRunes is about how long a snippet is.
const snippetRunes = 180

// highlight cuts text into segments, marking the words whose stem the
// query matched. With max > 0 it returns the stretch of about max
// characters holding the most matched words (an ellipsis where it cuts);
// max < 0 is the whole text. Called under the index's read lock (it reads
// the words' stems).
func (ix *Index) highlight(text string, stems map[string]bool, max int) []Segment {
	var marks []token
	tokens(text, func(t token) {
		wi, ok := ix.words[t.word]
		if ok && stems[wi.stem] {
			marks = append(marks, t)
		}
	})
	from, to := 0, len(text)
	if max > 0 && utf8.RuneCountInString(text) > max {
		from, to = window(text, marks, max)
	}
	var segs []Segment
	add := func(s string, mark bool) {
		if s == "" {
			return
		}
		s = blockBreaks.Replace(s)
		if n := len(segs); n > 0 && !segs[n-1].Mark && !mark {
			segs[n-1].Text += s
			return
		}
		segs = append(segs, Segment{Text: s, Mark: mark})
	}
	if from > 0 {
		add("… ", false)
	}
	at := from
	for _, m := range marks {
		if m.start < from || m.end > to {
			continue
		}
		add(text[at:m.start], false)
		add(text[m.start:m.end], true)
		at = m.end
	}
	add(text[at:to], false)
	if to < len(text) {
		add(" …", false)
	}
	return segs
}

// blockBreaks shows where a block of the text ends (a line of it): after
// a sentence's end as a space, else (a heading, a list item) as a middle
// dot, so "Returns" and "When a customer asks…" read as two things.
var blockBreaks = strings.NewReplacer(".\n", ". ", "!\n", "! ", "?\n", "? ", ":\n", ": ", "…\n", "… ", "\n", " · ")

// window is the byte range of about max characters of text, on word
// boundaries, holding the most distinct matched words (the first such
// stretch; the start of the text when nothing matched).
func window(text string, marks []token, max int) (from, to int) {
	maxBytes := max
	if !asciiText(text) {
		maxBytes = len(string([]rune(text)[:max]))
	}
	bestFrom, bestCount := 0, -1
	for i := range marks {
		start := marks[i].start
		// Begin a little before the first match, at a word boundary.
		if back := strings.LastIndexAny(text[:start], ".!?\n"); back >= 0 && start-back < max/3 {
			start = back + 1
		} else if start > max/6 {
			start = wordStart(text, start-max/6)
		} else {
			start = 0
		}
		seen := map[string]bool{}
		for _, m := range marks[i:] {
			if m.end-start > maxBytes {
				break
			}
			seen[m.word] = true
		}
		if len(seen) > bestCount {
			bestFrom, bestCount = start, len(seen)
		}
	}
	from = bestFrom
	for from < len(text) && (text[from] == ' ' || text[from] == '\n') {
		from++
	}
	to = min(len(text), from+maxBytes)
	if to < len(text) {
		if sp := strings.LastIndexAny(text[from:to], " \n"); sp > 0 {
			to = from + sp
		}
	}
	for to < len(text) && to > from && !utf8.RuneStart(text[to]) {
		to--
	}
	return from, to
}

// wordStart is the start of the word at or after byte i.
func wordStart(text string, i int) int {
	for i < len(text) && !utf8.RuneStart(text[i]) {
		i++
	}
	if sp := strings.IndexAny(text[i:], " \n"); sp >= 0 {
		return i + sp + 1
	}
	return i
}

func asciiText(s string) bool { return ascii(s) }
