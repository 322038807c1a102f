//go:build !amd64

package memory

// useAVX2 is false off amd64.
const useAVX2 = false

// dot is the inner product of two vectors of one length.
func dot(a, b []float32) float32 { return dotGo(a, b) }

func dotAVX2(a, b []float32) float32 { return dotGo(a, b) }
