// Command bare serves one file with net/http's ServeContent over an
// os.File, nothing else: the reference a Go server reaches on this machine
// for Range reads (bench/media/run.sh).
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:18082", "address")
	file := flag.String("file", "", "file to serve")
	flag.Parse()
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(*file)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		http.ServeContent(w, r, "", time.Time{}, f)
	})
	log.Fatal(http.ListenAndServe(*listen, nil))
}
