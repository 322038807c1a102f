package cairn_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestPrograms: ProgramsOf keeps the codes in order, each once, trimmed,
// without the empty; List gives them back; JSON is an array of strings
// both ways (null reads as none).
func TestPrograms(t *testing.T) {
	p := cairn.ProgramsOf([]string{" CYBER2", "", "ELECTION-EO13848", "CYBER2", "a\nb"})
	if want := []string{"CYBER2", "ELECTION-EO13848", "a"}; !slices.Equal(p.List(), want) {
		t.Fatalf("List %q, want %q", p.List(), want)
	}
	if cairn.ProgramsOf(nil) != "" || cairn.ProgramsOf([]string{" "}).List() != nil {
		t.Fatal("no codes is the empty Programs with a nil List")
	}
	b, err := json.Marshal(struct {
		P cairn.Programs `json:"p"`
		E cairn.Programs `json:"e,omitempty"`
	}{P: p})
	if err != nil || string(b) != `{"p":["CYBER2","ELECTION-EO13848","a"]}` {
		t.Fatalf("JSON %s %v", b, err)
	}
	var back struct{ P, N cairn.Programs }
	if err := json.Unmarshal([]byte(`{"P":["CYBER2","ELECTION-EO13848","a"],"N":null}`), &back); err != nil || back.P != p || back.N != "" {
		t.Fatalf("decoded %+v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"P":"DPRK3"}`), &back); err == nil {
		t.Fatal("a string decoded as programs")
	}
}
