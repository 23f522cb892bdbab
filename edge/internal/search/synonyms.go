package search

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Synonyms are groups of phrases that mean the same (shared/content/
// search-synonyms.json): each phrase is its words' stems.
type Synonyms [][][]string

// maxVariants caps the rewritten queries one query is searched as.
const maxVariants = 4

// ParseSynonyms reads {"synonyms": ["return ~ refund", ...]}.
func ParseSynonyms(b []byte) (Synonyms, error) {
	var doc struct {
		Synonyms []string `json:"synonyms"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("search: synonyms: %w", err)
	}
	var syn Synonyms
	for _, line := range doc.Synonyms {
		var group [][]string
		for _, phrase := range strings.Split(line, "~") {
			words := queryWords(Normalise(phrase))
			if len(words) == 0 {
				return nil, fmt.Errorf("search: synonyms: %q has an empty phrase", line)
			}
			group = append(group, words)
		}
		if len(group) < 2 {
			return nil, fmt.Errorf("search: synonyms: %q needs two phrases joined by ~", line)
		}
		syn = append(syn, group)
	}
	return syn, nil
}

// variant is a query's words to search for, and how much its matches
// weigh (1: the query as typed; a synonym's rewrite weighs less).
type variant struct {
	words  []string
	weight float64
}

// variants are the query as typed and its rewrites: each phrase of a
// group found in the query (compared by stems) replaced by each other
// phrase of the group.
func (syn Synonyms) variants(words []string) []variant {
	out := []variant{{words: words, weight: 1}}
	stems := make([]string, len(words))
	for i, w := range words {
		stems[i] = stem(w)
	}
	for _, group := range syn {
		for pi, phrase := range group {
			at := indexOf(stems, stemsOf(phrase))
			if at < 0 {
				continue
			}
			for qi, other := range group {
				if qi == pi || len(out) >= maxVariants {
					continue
				}
				w := slices.Concat(words[:at], other, words[at+len(phrase):])
				if len(w) > MaxQueryWords {
					w = w[:MaxQueryWords]
				}
				out = append(out, variant{words: w, weight: weightSynonym})
			}
		}
	}
	return out
}

func stemsOf(words []string) []string {
	s := make([]string, len(words))
	for i, w := range words {
		s[i] = stem(w)
	}
	return s
}

// indexOf is where sub starts in s, or -1.
func indexOf(s, sub []string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if slices.Equal(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
