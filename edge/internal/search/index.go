package search

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Document types.
const (
	TypeHelp = "help" // a help-centre article
	TypeBlog = "blog" // a blog article
	TypePage = "page" // a product page
)

// Doc is one searchable page.
type Doc struct {
	Type string
	Slug string
	// URL is the page's path (/help/category/article/{slug}).
	URL   string
	Title string
	// Category is the label a result shows (the help topic's title, "Blog",
	// "Product").
	Category string
	// Text is the page's plain text (its description first).
	Text string
}

func (d Doc) key() string { return d.Type + "/" + d.Slug }

// Ranking.
const (
	// titleWeight: a word in the title counts this much more than BM25's
	// most for a word of the body, so a title match ranks above body ones.
	titleWeight = 3.0
	bm25K1      = 1.2
	bm25B       = 0.75
	// The weights of a word's matches other than as typed (its stem).
	weightSynonym = 0.9
	weightPrefix  = 0.8
	weightTypo    = 0.7
	// maxExpansions caps the terms one word's prefix or typo matches
	// search for (the most frequent first).
	maxExpansions = 10
)

type posting struct {
	doc         int32
	title, body uint16
}

type entry struct {
	doc    Doc
	stems  []string // the distinct stems of title and text
	words  []string // the distinct surface words
	length int      // words in title and text
}

type wordInfo struct {
	stem string
	docs int // documents holding the word
}

// Index is an in-memory inverted index of Docs: Upsert and Remove are
// seen by the next Search. Safe for concurrent use.
type Index struct {
	mu       sync.RWMutex
	ids      map[string]int32 // Doc.key → id
	entries  map[int32]*entry
	next     int32
	postings map[string][]posting // stem → postings by doc id
	words    map[string]wordInfo  // surface word → stem
	sorted   []string             // the surface words, sorted (prefixes)
	reversed []string             // the same spelt backwards, sorted (endings)
	total    int                  // words in every document
	lengths  []int32              // words of each document, by id
	synonyms Synonyms
	gen      atomic.Uint64
}

// NewIndex returns an empty index that expands queries with syn.
func NewIndex(syn Synonyms) *Index {
	return &Index{ids: map[string]int32{}, entries: map[int32]*entry{}, postings: map[string][]posting{}, words: map[string]wordInfo{}, synonyms: syn}
}

// Generation changes with every Upsert and Remove: a result computed at
// another generation is stale.
func (ix *Index) Generation() uint64 { return ix.gen.Load() }

// Len is the number of documents.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.entries)
}

// Upsert adds d, or replaces the document of the same type and slug.
func (ix *Index) Upsert(d Doc) { ix.UpsertAll([]Doc{d}) }

// UpsertAll is Upsert of each of docs, at once (the index's word list is
// sorted once).
func (ix *Index) UpsertAll(docs []Doc) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	defer ix.gen.Add(1)
	var added []string
	for _, d := range docs {
		added = ix.upsertLocked(d, added)
	}
	if len(added) <= 256 {
		// An article's own few words: into their places.
		for _, w := range added {
			ix.sorted = insertSorted(ix.sorted, w)
			ix.reversed = insertSorted(ix.reversed, reverse(w))
		}
	} else {
		ix.sorted, ix.reversed = ix.sorted[:0], ix.reversed[:0]
		for w := range ix.words {
			ix.sorted = append(ix.sorted, w)
			ix.reversed = append(ix.reversed, reverse(w))
		}
		slices.Sort(ix.sorted)
		slices.Sort(ix.reversed)
	}
}

// upsertLocked indexes d, adding the words new to the index to added.
func (ix *Index) upsertLocked(d Doc, added []string) []string {
	title := map[string]int{}
	body := map[string]int{}
	words := map[string]string{}
	length := 0
	add := func(text string, into map[string]int) {
		tokens(text, func(t token) {
			s, ok := words[t.word]
			if !ok {
				s = stem(t.word)
				words[t.word] = s
			}
			into[s]++
			length++
		})
	}
	add(d.Title, title)
	add(d.Text, body)

	if id, ok := ix.ids[d.key()]; ok {
		ix.removeLocked(id)
	}
	id := ix.next
	ix.next++
	e := &entry{doc: d, length: length}
	for s := range title {
		body[s] += 0 // every title stem has a posting
	}
	for s, n := range body {
		ix.postings[s] = append(ix.postings[s], posting{doc: id, title: clamp16(title[s]), body: clamp16(n)})
		e.stems = append(e.stems, s)
	}
	for w, s := range words {
		wi, ok := ix.words[w]
		if !ok {
			wi.stem = s
			added = append(added, w)
		}
		wi.docs++
		ix.words[w] = wi
		e.words = append(e.words, w)
	}
	ix.total += length
	ix.lengths = append(ix.lengths, int32(length))
	ix.ids[d.key()] = id
	ix.entries[id] = e
	return added
}

// Remove drops the document of type and slug (nothing if there is none).
func (ix *Index) Remove(typ, slug string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if id, ok := ix.ids[typ+"/"+slug]; ok {
		ix.removeLocked(id)
		ix.gen.Add(1)
	}
}

func (ix *Index) removeLocked(id int32) {
	e := ix.entries[id]
	for _, s := range e.stems {
		ps := ix.postings[s]
		i, ok := slices.BinarySearchFunc(ps, id, func(p posting, id int32) int { return int(p.doc - id) })
		if !ok {
			continue
		}
		if ps = slices.Delete(ps, i, i+1); len(ps) == 0 {
			delete(ix.postings, s)
		} else {
			ix.postings[s] = ps
		}
	}
	for _, w := range e.words {
		wi := ix.words[w]
		if wi.docs--; wi.docs > 0 {
			ix.words[w] = wi
			continue
		}
		delete(ix.words, w)
		ix.sorted = deleteSorted(ix.sorted, w)
		ix.reversed = deleteSorted(ix.reversed, reverse(w))
	}
	ix.total -= e.length
	delete(ix.ids, e.doc.key())
	delete(ix.entries, id)
}

func clamp16(n int) uint16 { return uint16(min(n, math.MaxUint16)) }

// Hit is one result: the document and its highlighted title and snippet.
type Hit struct {
	Doc     Doc
	Score   float64
	Title   []Segment
	Snippet []Segment
}

// Segment is a piece of text, Mark when it matched the query. The
// renderer escapes Text and wraps a marked one in <mark>: no markup of a
// document ever reaches the page as markup.
type Segment struct {
	Text string `json:"text"`
	Mark bool   `json:"mark,omitempty"`
}

// clause is one word of the query: the stems it matches, with a weight
// each (1 as typed, less for a prefix or a typo).
type clause map[string]float64

type scored struct {
	id      int32
	matched int     // clauses matched
	of      int     // clauses of its variant
	score   float64 // sum of the clauses' best
}

// better orders results: more of the query matched first, then score,
// then title.
func (ix *Index) better(a, b scored) bool {
	if a.matched*b.of != b.matched*a.of {
		return a.matched*b.of > b.matched*a.of
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return ix.entries[a.id].doc.Title < ix.entries[b.id].doc.Title
}

// Search returns the documents matching the normalised query q, best
// first, at most limit of them with their snippets, and how many matched.
func (ix *Index) Search(q string, limit int) (hits []Hit, total int) {
	words := queryWords(q)
	if len(words) == 0 {
		return nil, 0
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	sc := getScratch(int(ix.next))
	defer scratchPool.Put(sc)
	matchedStems := map[string]bool{}
	for _, v := range ix.synonyms.variants(words) {
		clauses := make([]clause, len(v.words))
		for i, w := range v.words {
			clauses[i] = ix.expand(w, i == len(v.words)-1 && v.weight == 1)
			if v.weight != 1 {
				for s, wt := range clauses[i] {
					clauses[i][s] = wt * v.weight
				}
			}
			for s := range clauses[i] {
				matchedStems[s] = true
			}
		}
		ix.score(clauses, sc)
	}
	// The best limit of those matching at least half of the query's words
	// (one of two, two of three or four), in order.
	var top []scored
	for _, id := range sc.bestTouched {
		r := sc.best[id]
		if 2*r.matched < r.of {
			continue
		}
		total++
		if len(top) == limit && !ix.better(r, top[limit-1]) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return ix.better(r, top[i]) })
		if len(top) < limit {
			top = append(top, scored{})
		}
		copy(top[i+1:], top[i:])
		top[i] = r
	}
	for _, r := range top {
		e := ix.entries[r.id]
		hits = append(hits, Hit{
			Doc: e.doc, Score: r.score,
			Title:   ix.highlight(e.doc.Title, matchedStems, -1),
			Snippet: ix.highlight(e.doc.Text, matchedStems, snippetRunes),
		})
	}
	return hits, total
}

// acc is one document's matches of one query variant.
type acc struct {
	mask uint32
	best [MaxQueryWords]float32
}

// scratch is one search's working memory, by document id, reused.
type scratch struct {
	acc         []acc
	touched     []int32
	best        []scored
	bestTouched []int32
}

var scratchPool = sync.Pool{New: func() any { return &scratch{} }}

func getScratch(n int) *scratch {
	sc := scratchPool.Get().(*scratch)
	if len(sc.acc) < n {
		sc.acc = make([]acc, n)
		sc.best = make([]scored, n)
	}
	for _, id := range sc.bestTouched {
		sc.best[id] = scored{}
	}
	sc.touched, sc.bestTouched = sc.touched[:0], sc.bestTouched[:0]
	return sc
}

// queryWords are the words of a normalised query, at most MaxQueryWords,
// without stop words (unless it has nothing else).
func queryWords(q string) []string {
	var all, kept []string
	tokens(q, func(t token) {
		if len(all) < 4*MaxQueryWords {
			all = append(all, t.word)
		}
	})
	for _, w := range all {
		if !stopWords[w] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		kept = all
	}
	if len(kept) > MaxQueryWords {
		kept = kept[:MaxQueryWords]
	}
	return kept
}

// expand is the stems word matches: its own stem; for the query's last
// word the stems of the words it begins (the visitor may not have
// finished typing it); and when the word is not on the site and is long
// enough, the stems of the words one edit away.
func (ix *Index) expand(word string, last bool) clause {
	c := clause{stem(word): 1}
	n := utf8.RuneCountInString(word)
	type cand struct {
		stem string
		w    float64
		docs int
	}
	var cands []cand
	if last && n >= minPrefixRunes {
		for _, w := range prefixed(ix.sorted, word) {
			wi := ix.words[w]
			cands = append(cands, cand{wi.stem, weightPrefix, wi.docs})
		}
	}
	if _, known := ix.words[word]; !known && n >= minTypoRunes {
		// A word one edit away from a word of five letters or more keeps
		// its first two letters or its last two (an edit cannot touch
		// both): only those words are compared.
		b := []byte(word)
		first := string(b[:2])
		lastTwo := reverse(word)[:2]
		for _, w := range prefixed(ix.sorted, first) {
			if oneEdit(word, w) {
				wi := ix.words[w]
				cands = append(cands, cand{wi.stem, weightTypo, wi.docs})
			}
		}
		for _, rw := range prefixed(ix.reversed, lastTwo) {
			if w := reverse(rw); !strings.HasPrefix(w, first) && oneEdit(word, w) {
				wi := ix.words[w]
				cands = append(cands, cand{wi.stem, weightTypo, wi.docs})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].docs > cands[j].docs })
	for _, cd := range cands {
		if len(c) > maxExpansions {
			break
		}
		if c[cd.stem] < cd.w {
			c[cd.stem] = cd.w
		}
	}
	return c
}

// prefixed is the run of sorted words that begin with p.
func prefixed(sorted []string, p string) []string {
	i, _ := slices.BinarySearch(sorted, p)
	j := i
	for j < len(sorted) && strings.HasPrefix(sorted[j], p) {
		j++
	}
	return sorted[i:j]
}

func insertSorted(s []string, w string) []string {
	i, _ := slices.BinarySearch(s, w)
	return slices.Insert(s, i, w)
}

func deleteSorted(s []string, w string) []string {
	if i, ok := slices.BinarySearch(s, w); ok {
		return slices.Delete(s, i, i+1)
	}
	return s
}

// reverse is s spelt backwards (by bytes: only compared with its kind,
// and a multi-byte letter's bytes stay a unit in their reversed order).
func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// oneEdit reports whether a and b differ by exactly one inserted, deleted
// or substituted letter, or two neighbours swapped ("recieve").
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if ascii(a) && ascii(b) {
		return oneEditBytes(a, b)
	}
	ra, rb := []rune(a), []rune(b)
	la, lb := len(ra), len(rb)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	i := 0
	for i < la && i < lb && ra[i] == rb[i] {
		i++
	}
	switch {
	case la == lb:
		if string(ra[i+1:]) == string(rb[i+1:]) {
			return true // substitution
		}
		return i+1 < la && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
	case la > lb:
		return string(ra[i+1:]) == string(rb[i:])
	default:
		return string(ra[i:]) == string(rb[i+1:])
	}
}

// score sums, per document, each clause's best stem by BM25 with the
// title weighted above the body, and keeps each document's best variant
// in sc.best.
func (ix *Index) score(clauses []clause, sc *scratch) {
	n := float64(len(ix.entries))
	avg := 1.0
	if len(ix.entries) > 0 {
		avg = max(1, float64(ix.total)/n)
	}
	for ci, c := range clauses {
		for s, w := range c {
			ps := ix.postings[s]
			if len(ps) == 0 {
				continue
			}
			df := float64(len(ps))
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			for _, p := range ps {
				l := float64(ix.lengths[p.doc])
				tf := float64(p.body)
				v := tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*l/avg))
				if p.title > 0 {
					v += titleWeight
				}
				v *= idf * w
				a := &sc.acc[p.doc]
				if a.mask == 0 {
					sc.touched = append(sc.touched, p.doc)
				}
				a.mask |= 1 << ci
				a.best[ci] = max(a.best[ci], float32(v))
			}
		}
	}
	for _, id := range sc.touched {
		a := &sc.acc[id]
		sum := 0.0
		for _, v := range a.best {
			sum += float64(v)
		}
		r := scored{id: id, matched: bits.OnesCount32(a.mask), of: len(clauses), score: sum}
		*a = acc{}
		if cur := sc.best[id]; cur.of == 0 {
			sc.best[id] = r
			sc.bestTouched = append(sc.bestTouched, id)
		} else if ix.better(r, cur) {
			sc.best[id] = r
		}
	}
	sc.touched = sc.touched[:0]
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// oneEditBytes is oneEdit for ASCII words, without allocating.
func oneEditBytes(a, b string) bool {
	la, lb := len(a), len(b)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	i := 0
	for i < la && i < lb && a[i] == b[i] {
		i++
	}
	switch {
	case la == lb:
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case la > lb:
		return a[i+1:] == b[i:]
	default:
		return a[i:] == b[i+1:]
	}
}
