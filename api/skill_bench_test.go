package api

import "testing"

func BenchmarkNegotiate(b *testing.B) {
	const accept = "text/html, application/xhtml+xml, application/xml;q=0.9, text/markdown;q=0.95, */*;q=0.8"
	b.ReportAllocs()
	for b.Loop() {
		if negotiate(accept, skillOffers) != "text/markdown" {
			b.Fatal("wrong offer")
		}
	}
}

func BenchmarkLoadDocument(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := loadFragments(); err != nil {
			b.Fatal(err)
		}
	}
}
