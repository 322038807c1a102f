package vector

import "golang.org/x/sys/cpu"

// useAVX2 is set when the CPU has AVX2 and FMA: Dot then runs 32 products
// per loop in vector registers.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// Dot is the inner product of two vectors of one length.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	if useAVX2 {
		return dotAVX2(a, b)
	}
	return dotGo(a, b)
}

// dotAVX2 is Dot with AVX2 and FMA (dot_amd64.s); len(b) >= len(a).
//
//go:noescape
func dotAVX2(a, b []float32) float32
