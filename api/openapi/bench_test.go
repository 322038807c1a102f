package openapi

import "testing"

func BenchmarkLoadDocument(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := loadFragments(); err != nil {
			b.Fatal(err)
		}
	}
}
