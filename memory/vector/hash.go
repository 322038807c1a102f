package vector

import (
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"
)

// The built-in embedding space: lexical feature hashing, no model.
const (
	// SpaceHash is the built-in space every plain-text memory is embedded in.
	SpaceHash = "hash-v1"
	// HashDims is the dimension of hash-v1 vectors.
	HashDims = 512
)

// Weights of the feature classes of hash-v1: whole words count most, word
// pairs carry phrase order, character trigrams match inflections and typos
// ("deploy", "deployed", "deploymnet" share most of theirs).
const (
	hashWordWeight    = 1.0
	hashBigramWeight  = 0.7
	hashTrigramWeight = 0.35
)

// HashEmbed embeds text in hash-v1: lower-cased words (runs of letters and
// digits; English stop words are left out unless the text has nothing
// else) give word unigram, word bigram and character trigram features
// (of the word padded as "<word>"); each feature is hashed (FNV-1a, 64 bit)
// to one of HashDims dimensions with a sign taken from another bit of the
// hash (so that collisions cancel rather than pile up), weighted by
// 1+ln(tf) times its class weight, and the vector is L2-normalised. It is
// deterministic and lexical: texts score high when they share words and
// word pieces, not when they mean the same thing in other words. It
// returns nil for text without a word.
func HashEmbed(text string) []float32 {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	if len(words) == 0 {
		return nil
	}
	if content := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return stopWords[w] }); len(content) > 0 {
		words = content
	}
	tf := map[string]float64{}
	weight := map[string]float64{}
	add := func(f string, w float64) {
		tf[f]++
		weight[f] = w
	}
	for i, w := range words {
		add("w:"+w, hashWordWeight)
		if i > 0 {
			add("b:"+words[i-1]+" "+w, hashBigramWeight)
		}
		p := []rune("<" + w + ">")
		for j := 0; j+3 <= len(p); j++ {
			add("c:"+string(p[j:j+3]), hashTrigramWeight)
		}
	}
	vec := make([]float32, HashDims)
	h := fnv.New64a()
	for f, n := range tf {
		h.Reset()
		_, _ = h.Write([]byte(f))
		sum := h.Sum64()
		v := (1 + math.Log(n)) * weight[f]
		if sum>>63 == 1 {
			v = -v
		}
		vec[sum%HashDims] += float32(v)
	}
	if !Normalize(vec) {
		return nil
	}
	return vec
}

// Normalize scales v to unit length in place; false when v is zero or not
// finite.
func Normalize(v []float32) bool {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 || math.IsInf(ss, 0) || math.IsNaN(ss) {
		return false
	}
	inv := float32(1 / math.Sqrt(ss))
	for i := range v {
		v[i] *= inv
	}
	return true
}

// stopWords are frequent English function words: without document
// frequencies, they would otherwise weigh as much as a text's subject.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by do does did for from has have had he her his how
		i if in into is it its me my no not of on or our she so than that the their them then there these they
		this to was we were what when where which who why will with you your can could would should about after
		before all any each more most other some such only own same too very just also over under again`) {
		stopWords[w] = true
	}
}
