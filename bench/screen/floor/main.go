// Command floor answers POST /v1/compliance/screen as simply as Go's
// net/http allows: it decodes the same request body as cairn, looks each
// address up in a Go map of the list (lower-cased, as an EVM address's
// canonical form) and encodes a status per address, with no
// authentication, billing, matches or proof. It is the floor of what
// screening costs on this machine (bench/screen/floor.sh), not a
// screening service.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"os"
	"strings"
)

type query struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
}

type result struct {
	Address string `json:"address"`
	Chain   string `json:"chain"`
	Status  string `json:"status"`
}

func main() {
	listen := flag.String("listen", "127.0.0.1:18099", "address")
	list := flag.String("list", "", "file of listed addresses, one a line")
	flag.Parse()
	listed, err := load(*list)
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("POST /v1/compliance/screen", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Addresses []query `json:"addresses"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out := struct {
			Results []result `json:"results"`
		}{make([]result, len(req.Addresses))}
		for i, q := range req.Addresses {
			st := "clear"
			if _, ok := listed[strings.ToLower(q.Address)]; ok {
				st = "sanctioned"
			}
			out.Results[i] = result{q.Address, q.Chain, st}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out) // a client gone is no error of ours
	})
	http.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {})
	log.Fatal(http.ListenAndServe(*listen, nil))
}

// load reads the listed addresses, lower-cased, into a set.
func load(name string) (map[string]struct{}, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	set := map[string]struct{}{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if a := strings.TrimSpace(sc.Text()); a != "" {
			set[strings.ToLower(a)] = struct{}{}
		}
	}
	return set, sc.Err()
}
