// Command load drives one cairn endpoint from its own process at a
// fixed request rate (open loop: each request is sent on schedule in its
// own goroutine, whatever the server's state, so a slow server cannot hide
// queueing; latency counts from the send) and prints the
// p50, p99 and max latency and the achieved throughput.
//
//	load -url http://127.0.0.1:18080 -key sk_live_... -op create -rate 500 -dur 10s
//	load ... -op get -ids ids.txt
//	load ... -op post -path /v1/compliance/screen -body batch.json -rate 600
//
// With -rate 0 it runs closed loop with -conns workers to find the maximum
// throughput. It imports only the standard library.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:18080", "service address")
	key := flag.String("key", "", "agent API key")
	op := flag.String("op", "create", "create (POST /v1/memory), get (GET /v1/memory/:id) or post (-body to -path)")
	path := flag.String("path", "/v1/compliance/screen", "path of -op post")
	bodyFile := flag.String("body", "", "JSON body of -op post")
	rate := flag.Int("rate", 500, "requests per second (0: closed loop)")
	conns := flag.Int("conns", 16, "workers in closed loop")
	dur := flag.Duration("dur", 10*time.Second, "duration")
	idsFile := flag.String("ids", "", "file of memory ids for get (one per line); create appends the ids it made")
	size := flag.Int("size", 256, "content bytes of a create")
	flag.Parse()

	var ids []string
	var postBody []byte
	if *op == "post" {
		b, err := os.ReadFile(*bodyFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		postBody = b
	}
	if *op == "get" {
		f, err := os.Open(*idsFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			ids = append(ids, sc.Text())
		}
		f.Close()
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 1024, MaxConnsPerHost: 0}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	content := bytes.Repeat([]byte("m"), *size)
	var seq, errs atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var made []string
	var sched []time.Duration
	one := func(at time.Time) {
		// The dispatcher never waits for the server (one goroutine per
		// request), so a request is sent late only when the dispatcher
		// wakes late: the Go runtime sleeps in whole milliseconds on Linux,
		// and the server shares the CPUs. Both figures are reported:
		// latency from the send, and from the scheduled time.
		start := time.Now()
		n := seq.Add(1)
		var req *http.Request
		switch *op {
		case "create":
			body := fmt.Sprintf(`{"key":"load/%d-%d","content":"%s"}`, time.Now().UnixNano(), n, content)
			req, _ = http.NewRequest("POST", *base+"/v1/memory", bytes.NewReader([]byte(body)))
			req.Header.Set("Content-Type", "application/json")
		case "post":
			req, _ = http.NewRequest("POST", *base+*path, bytes.NewReader(postBody))
			req.Header.Set("Content-Type", "application/json")
		default:
			req, _ = http.NewRequest("GET", *base+"/v1/memory/"+ids[int(n)%len(ids)], nil)
		}
		req.Header.Set("Authorization", "Bearer "+*key)
		resp, err := client.Do(req)
		ok := err == nil && resp.StatusCode/100 == 2
		var id []byte
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if ok && *op == "create" && len(b) > 8 {
				id = b[7:43] // {"id":"<36 chars>"
			}
		}
		d := time.Since(start)
		mu.Lock()
		defer mu.Unlock()
		if !ok {
			errs.Add(1)
			return
		}
		lat = append(lat, d)
		sched = append(sched, time.Since(at))
		if id != nil {
			made = append(made, string(id))
		}
	}
	t0 := time.Now()
	var wg sync.WaitGroup
	if *rate > 0 {
		interval := time.Second / time.Duration(*rate)
		for i := 0; ; i++ {
			at := t0.Add(time.Duration(i) * interval)
			if at.Sub(t0) >= *dur {
				break
			}
			time.Sleep(time.Until(at))
			wg.Add(1)
			go func() { defer wg.Done(); one(at) }()
		}
	} else {
		for w := 0; w < *conns; w++ {
			wg.Go(func() {
				for time.Since(t0) < *dur {
					one(time.Now())
				}
			})
		}
	}
	wg.Wait()
	elapsed := time.Since(t0)
	slices.Sort(lat)
	slices.Sort(sched)
	pctOf := func(ds []time.Duration, p float64) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		return ds[int(float64(len(ds)-1)*p)].Round(10 * time.Microsecond)
	}
	pct := func(p float64) time.Duration { return pctOf(lat, p) }
	fmt.Printf("op=%s rate=%d ok=%d errors=%d throughput=%.0f/s p50=%v p99=%v max=%v (from schedule: p50=%v p99=%v)\n",
		*op, *rate, len(lat), errs.Load(), float64(len(lat))/elapsed.Seconds(), pct(0.50), pct(0.99), pct(1),
		pctOf(sched, 0.50), pctOf(sched, 0.99))
	if *op == "create" && *idsFile != "" {
		f, err := os.OpenFile(*idsFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			for _, id := range made {
				fmt.Fprintln(f, id)
			}
			f.Close()
		}
	}
}
