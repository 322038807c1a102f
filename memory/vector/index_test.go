package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

func TestHashEmbed(t *testing.T) {
	a, b := HashEmbed("Deploy the payment service"), HashEmbed("deploy THE payment, service!")
	if len(a) != HashDims || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("hash-v1 is not deterministic over case and punctuation")
	}
	if n := Dot(a, a); math.Abs(float64(n)-1) > 1e-5 {
		t.Fatalf("norm² = %v", n)
	}
	if HashEmbed("  ...  ") != nil {
		t.Fatal("a text without words has a vector")
	}
	near := Dot(a, HashEmbed("deployed the payments service"))
	far := Dot(a, HashEmbed("water tomatoes in a garden"))
	if !(near > 0.5 && far < 0.15) {
		t.Fatalf("inflection %v, unrelated %v", near, far)
	}
}

// TestVectorsTopK checks the exact index against a brute-force sort, with
// slots freed and reused along the way.
func TestVectorsTopK(t *testing.T) {
	x := New(Config{})
	r := rand.New(rand.NewPCG(1, 2))
	vecs := map[string][]float32{}
	for i := range 300 {
		v := make([]float32, 16)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		Normalize(v)
		k := fmt.Sprintf("k%03d", i)
		vecs[k] = v
		x.Set("a", "s", "m", Meta{Key: k, VersionID: k, Type: "semantic"}, v)
	}
	for i := 0; i < 300; i += 3 {
		k := fmt.Sprintf("k%03d", i)
		x.Drop("a", k, nil)
		delete(vecs, k)
	}
	x.Set("a", "s", "m", Meta{Key: "new", VersionID: "new", Type: "episodic"}, vecs["k001"])
	vecs["new"] = vecs["k001"]
	if f := x.agents["a"]["s"]; len(f.metas) != 300 || len(f.free) != 99 {
		t.Fatalf("slots %d, free %d: freed slots not reused", len(f.metas), len(f.free))
	}
	q := vecs["k002"]
	var want []string
	for k := range vecs {
		want = append(want, k)
	}
	sort.Slice(want, func(i, j int) bool {
		si, sj := Dot(q, vecs[want[i]]), Dot(q, vecs[want[j]])
		if si != sj {
			return si > sj
		}
		return want[i] < want[j]
	})
	got, n := x.TopK("a", "s", q, &Filter{}, -1, 10)
	if n != len(vecs) || len(got) != 10 || got[0].Key != "k002" {
		t.Fatalf("topK: %v (%d)", got, n)
	}
	for i := range got {
		if got[i].Key != want[i] {
			t.Fatalf("rank %d: %s, want %s", i, got[i].Key, want[i])
		}
	}
	if got, _ := x.TopK("a", "s", q, &Filter{Type: "episodic"}, -1, 10); len(got) != 1 || got[0].Key != "new" {
		t.Fatalf("type filter: %v", got)
	}
	if got, _ := x.TopK("b", "s", q, &Filter{}, -1, 10); len(got) != 0 {
		t.Fatalf("another agent's vectors: %v", got)
	}
}
