//go:build !amd64

package vector

// useAVX2 is false off amd64.
const useAVX2 = false

// Dot is the inner product of two vectors of one length.
func Dot(a, b []float32) float32 { return dotGo(a, b) }

func dotAVX2(a, b []float32) float32 { return dotGo(a, b) }
