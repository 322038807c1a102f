package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDot checks Dot (vector instructions where the CPU has them) and
// dotGo against a float64 sum over every length to 100 and the common
// embedding sizes, at offsets that misalign the slices, and that a
// shorter second vector panics rather than reading past it.
func TestDot(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	buf := make([]float32, 2*1540)
	for i := range buf {
		buf[i] = float32(r.NormFloat64())
	}
	lens := []int{384, 768, 1024, 1536}
	for n := range 101 {
		lens = append(lens, n)
	}
	for _, n := range lens {
		for off := range 3 {
			a, b := buf[off:off+n], buf[1540+2*off:1540+2*off+n]
			var want, mag float64
			for i := range a {
				want += float64(a[i]) * float64(b[i])
				mag += math.Abs(float64(a[i]) * float64(b[i]))
			}
			for name, got := range map[string]float32{"dot": Dot(a, b), "dotGo": dotGo(a, b)} {
				if math.Abs(float64(got)-want) > 1e-5*(mag+1) {
					t.Fatalf("%s n=%d off=%d: %v, want %v", name, n, off, got, want)
				}
			}
		}
	}
	t.Logf("vector instructions: %v", useAVX2)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on a short vector")
		}
	}()
	Dot(buf[:10], buf[:9:9])
}
