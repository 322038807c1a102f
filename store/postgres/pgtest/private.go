package pgtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testenv"
)

// Server is a PostgreSQL server of the test's own: a cluster made by
// initdb in a temporary directory, listening on a free port of 127.0.0.1,
// that the test may stop, start and restart while the service runs (the
// shared server of URL serves other tests at the same time, which a
// restart of it would break). Root runs it as the postgres user, as
// PostgreSQL refuses to run as root.
type Server struct {
	tb   testing.TB
	bin  string // the directory of initdb, pg_ctl and postgres
	dir  string // the cluster's data directory
	port int
	as   string // the user it runs as ("": the test's own)
}

// Private starts a server of the test's own, stopped and removed when the
// test ends. Without PostgreSQL's programs it skips the test, or fails it
// with CAIRN_REQUIRE_POSTGRES=1.
func Private(tb testing.TB) *Server {
	tb.Helper()
	bin := binDir()
	if bin == "" {
		testenv.Missing(tb, "CAIRN_REQUIRE_POSTGRES", "PostgreSQL's initdb and pg_ctl are not installed")
	}
	// Not t.TempDir: its parents are the test user's alone, and the
	// postgres user must reach the cluster's directory.
	root, err := os.MkdirTemp("", "cairn-pgtest-")
	if err != nil {
		tb.Fatal(err)
	}
	s := &Server{tb: tb, bin: bin, dir: filepath.Join(root, "data"), port: freePort(tb)}
	tb.Cleanup(func() {
		s.pgCtl("stop", "-m", "immediate")
		os.RemoveAll(root)
	})
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			tb.Fatalf("running as root, PostgreSQL needs another user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(root, uid, gid); err != nil {
			tb.Fatal(err)
		}
		s.as = "postgres"
	}
	if out, err := s.run(filepath.Join(bin, "initdb"), "-D", s.dir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"); err != nil {
		tb.Fatalf("initdb: %v\n%s", err, out)
	}
	s.Start()
	return s
}

// URL is the URL of the server's postgres database.
func (s *Server) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// Start starts the server and waits until it accepts connections.
func (s *Server) Start() {
	s.tb.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off", s.port, filepath.Dir(s.dir))
	if out, err := s.pgCtl("start", "-w", "-t", "60", "-o", opts, "-l", filepath.Join(filepath.Dir(s.dir), "log")); err != nil {
		s.tb.Fatalf("pg_ctl start: %v\n%s", err, out)
	}
}

// Stop stops the server the fast way: sessions are ended, transactions
// in flight rolled back.
func (s *Server) Stop() {
	s.tb.Helper()
	if out, err := s.pgCtl("stop", "-w", "-m", "fast"); err != nil {
		s.tb.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

// Restart stops and starts the server, as pg_ctlcluster restart does.
func (s *Server) Restart() {
	s.tb.Helper()
	s.Stop()
	s.Start()
}

func (s *Server) pgCtl(args ...string) ([]byte, error) {
	return s.run(filepath.Join(s.bin, "pg_ctl"), append([]string{"-D", s.dir}, args...)...)
}

// run runs a PostgreSQL program as the server's user.
func (s *Server) run(prog string, args ...string) ([]byte, error) {
	var cmd *exec.Cmd
	if s.as != "" {
		cmd = exec.Command("runuser", append([]string{"-u", s.as, "--", prog}, args...)...)
	} else {
		cmd = exec.Command(prog, args...)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Dir = os.TempDir()
	err := cmd.Run()
	return out.Bytes(), err
}

// binDir finds the directory of PostgreSQL's server programs: that of
// pg_config --bindir, or the newest /usr/lib/postgresql/*/bin (Debian).
func binDir() string {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if d := strings.TrimSpace(string(out)); exists(filepath.Join(d, "initdb")) {
			return d
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	for i := len(dirs) - 1; i >= 0; i-- {
		if exists(filepath.Join(dirs[i], "initdb")) && exists(filepath.Join(dirs[i], "pg_ctl")) {
			return dirs[i]
		}
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// freePort returns a port of 127.0.0.1 nothing listens on now.
func freePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
