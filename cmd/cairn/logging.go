package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/cairn-dev/cairn/api"
)

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("invalid log level %q", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	var h slog.Handler
	switch strings.ToLower(format) {
	case "json":
		h = slog.NewJSONHandler(w, opts)
	case "text":
		h = slog.NewTextHandler(w, opts)
	default:
		return nil, fmt.Errorf("invalid log format %q (json or text)", format)
	}
	return slog.New(api.RequestIDHandler(h)), nil
}
