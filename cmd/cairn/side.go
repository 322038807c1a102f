package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// sideServer is an operator's listener beside the API (--metrics-listen,
// --pprof-listen): it serves one handler, without a token, so it belongs on
// a loopback or private address.
type sideServer struct {
	ln  net.Listener
	srv *http.Server
}

// listenSide listens on addr for the flag; "" means off (nil, nil).
func (m *Main) listenSide(flag, addr string, h http.Handler) (*sideServer, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flag, err)
	}
	return &sideServer{ln: ln, srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(m.Logger.Handler(), slog.LevelWarn)}}, nil
}

func (s *sideServer) addr() string {
	if s == nil {
		return ""
	}
	return s.ln.Addr().String()
}

// serve serves in the background until close (nil: nothing).
func (s *sideServer) serve() {
	if s != nil {
		go func() { _ = s.srv.Serve(s.ln) }()
	}
}

// close stops the server and its listener, served or not.
func (s *sideServer) close() {
	if s != nil {
		_ = s.srv.Close()
		_ = s.ln.Close()
	}
}

// pprofHandler serves net/http/pprof's index, named profiles, CPU profile,
// trace, command line and symbols under /debug/pprof/.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
