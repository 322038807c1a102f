package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// clusterBlobArgs returns the flags and environment of `cairn serve` on a
// new bucket that several processes share: of the s3rver process named by
// CAIRN_TEST_S3_ENDPOINT (as .ci/run starts one), else of gofakes3 in
// this process.
func clusterBlobArgs(t *testing.T) (args, env []string) {
	t.Helper()
	host, bucket := "", "cairn-blobs"
	access, secret := s3Env["CAIRN_S3_ACCESS_KEY"], s3Env["CAIRN_S3_SECRET_KEY"]
	if ep := os.Getenv("CAIRN_TEST_S3_ENDPOINT"); ep != "" {
		host, access, secret = ep, envOr("CAIRN_TEST_S3_ACCESS_KEY", "S3RVER"), envOr("CAIRN_TEST_S3_SECRET_KEY", "S3RVER")
		bucket = fmt.Sprintf("cairn-kill-%d", time.Now().UnixNano())
		c, err := minio.New(host, &minio.Options{Creds: credentials.NewStaticV4(access, secret, ""), Region: "us-east-1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.MakeBucket(context.Background(), bucket, minio.MakeBucketOptions{}); err != nil {
			t.Fatal(err)
		}
	} else {
		cfg, _ := s3Server(t)
		host, bucket = cfg.S3Endpoint, cfg.S3Bucket
	}
	return []string{"--blob", "s3", "--s3-endpoint", host, "--s3-bucket", bucket, "--s3-secure=false"},
		[]string{"CAIRN_S3_ACCESS_KEY=" + access, "CAIRN_S3_SECRET_KEY=" + secret}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// TestE2EClusterKill runs two `cairn serve` processes on one Postgres
// schema and one bucket, drives concurrent memory creates and paid reads
// of one account spread over both, and kills one with SIGKILL in the
// middle; the clients of the killed one go on with the survivor, as
// behind a load balancer, until the credits run out. On the survivor then:
// every create that was acknowledged (201) is readable with its content
// and found by vector search, whichever process acknowledged it; the
// balance is the sum of the ledger and never went below zero; every
// acknowledged paid request was charged, but for the deferred charges the
// killed process lost and those refused as unpaid (a bound of the
// service's loss). Requests the killed process
// never answered may or may not have happened, and are not checked.
func TestE2EClusterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	blobArgs, env := clusterBlobArgs(t)
	start := func() *process {
		dir := t.TempDir()
		args := append([]string{"--listen", "127.0.0.1:0", "--data-dir", dir, "--default-sources=false",
			"--deposit-mnemonic", testConfig(t, dir).DepositMnemonic, "--admin-token", admin,
			"--store", url, "--postgres-schema", schema, "--leader-interval", "100ms",
			"--write-limit-per-agent", "0", "--rate-limit-per-key", "0"}, blobArgs...)
		return serveProcess(t, env, args...)
	}
	procs := []*process{start(), start()}
	victim, survivor := procs[0], procs[1].server()
	u := survivor.register(t, "kill")
	const credits, writeCost, readCost = 1500, 5, 1
	survivor.topUp(t, u, credits)

	type ack struct{ id, content string }
	var (
		mu         sync.Mutex
		acks       []ack
		acksOnDead []ack // acknowledged by the process killed later
		paid       int   // acknowledged paid requests' credits
		unanswered int
		created    atomic.Int64
		wg         sync.WaitGroup
	)
	killed := make(chan struct{})
	for w := range 8 {
		wg.Go(func() {
			ts := procs[w%2].server()
			var last *ack
			for i := 0; ; i++ {
				content := fmt.Sprintf("worker %d write %d marker%dx%d", w, i, w, i)
				r, err := ts.try(t, "POST", "/v1/memory", u.Key, map[string]any{"key": fmt.Sprintf("w%d/%d", w, i), "content": content})
				if err != nil {
					mu.Lock()
					unanswered++
					mu.Unlock()
					if ts.base != victim.base {
						t.Errorf("the survivor did not answer: %v", err)
						return
					}
					<-killed
					ts = survivor // the load balancer sends the rest to the survivor
					continue
				}
				switch r.Status {
				case 402:
					return // the credits ran out
				case 201:
				default:
					t.Errorf("create: %d %s", r.Status, r.Body)
					return
				}
				a := ack{r.str("id"), content}
				mu.Lock()
				acks = append(acks, a)
				if ts.base == victim.base {
					acksOnDead = append(acksOnDead, a)
				}
				paid += writeCost
				mu.Unlock()
				created.Add(1)
				if last != nil { // a paid read of the previous one
					r, err := ts.try(t, "GET", "/v1/memory/"+last.id, u.Key, nil)
					switch {
					case err != nil:
						// answered or not, by the victim: counted at the next create
					case r.Status == 200:
						if r.str("content") != last.content {
							t.Errorf("read %s: %q, want %q", last.id, r.str("content"), last.content)
						}
						mu.Lock()
						paid += readCost
						mu.Unlock()
					case r.Status != 402:
						t.Errorf("read: %d %s", r.Status, r.Body)
					}
				}
				last = &a
			}
		})
	}
	// SIGKILL in the middle: about a third of the credits are spent.
	for created.Load() < credits/writeCost/3 {
		time.Sleep(time.Millisecond)
	}
	if err := victim.cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	<-victim.exited
	_ = victim.cmd.Wait()
	close(killed)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	bal := survivor.balance(t, u.Key)
	sum, _ := ledgerSum(t, survivor, u.Key)
	if bal < 0 || int64(bal) != sum {
		t.Fatalf("balance %d, ledger sum %d", bal, sum)
	}
	// Charges are deferred (README, Credits): the killed process loses
	// those it had not written yet, at most postgres.maxDeferredCredits (64)
	// of the account, and when the account runs out each process may have
	// served up to 64 credits that the other spent meanwhile. Both cost the
	// service, never the client.
	const deferredBound = 3 * 64
	if spent := credits - bal; spent < paid-deferredBound {
		t.Fatalf("%d credits spent, but the acknowledged requests cost %d (more than %d unpaid)", spent, paid, deferredBound)
	}
	t.Logf("%d creates acknowledged (%d by the killed process), %d requests unanswered; balance %d, %d credits spent, %d of acknowledged requests",
		len(acks), len(acksOnDead), unanswered, bal, credits-bal, paid)
	if len(acksOnDead) == 0 || unanswered == 0 {
		t.Fatalf("the kill was not in the middle of the load: %d acknowledged by the killed process, %d unanswered", len(acksOnDead), unanswered)
	}

	// Every acknowledged create is on the survivor, and in its search.
	survivor.topUp(t, u, 10*len(acks))
	for _, a := range acks {
		if r := survivor.do(t, "GET", "/v1/memory/"+a.id, u.Key, nil).must(t, 200); r.str("content") != a.content {
			t.Fatalf("%s: content %q, want %q", a.id, r.str("content"), a.content)
		}
	}
	for _, a := range acksOnDead {
		r := survivor.do(t, "POST", "/v1/memory/vector-search", u.Key, map[string]any{"query": a.content, "limit": 3}).must(t, 200)
		var ids []string
		for _, h := range r.JSON["results"].([]any) {
			ids = append(ids, h.(map[string]any)["id"].(string))
		}
		if !slices.Contains(ids, a.id) {
			t.Fatalf("vector search on the survivor for %q: %v, want %s among them", a.content, ids, a.id)
		}
	}
}
