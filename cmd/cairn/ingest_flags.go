package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/ingest"
	"github.com/robfig/cron/v3"
)

// stringList is a repeatable flag; from the environment, items are
// separated by ";".
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ";") }

func (l *stringList) Set(v string) error {
	for _, item := range strings.Split(v, ";") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
}

// parseSources turns the --source values into sources.
func parseSources(vals []string) ([]ingest.Source, error) {
	var out []ingest.Source
	seen := map[string]bool{}
	for _, v := range vals {
		s, err := ingest.ParseSourceFlag(v)
		if err != nil {
			return nil, err
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("source %q given twice (one location per name; gov_sdn CSV takes \"sdn.csv,sdn_comments.csv\")", s.Name)
		}
		seen[s.Name] = true
		out = append(out, s)
	}
	return out, nil
}

// withSourceHeaders adds each --source-header (SOURCE:HEADER=VALUE) to
// the source it names, which must be one of sources. Its errors never hold
// a header's value.
func withSourceHeaders(sources []ingest.Source, vals []string) error {
	for _, v := range vals {
		name, key, value, err := ingest.ParseSourceHeaderFlag(v)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(sources, func(s ingest.Source) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("source header %s names source %q, which is not ingested (no --source %s=...)", key, name, name)
		}
		if sources[i].Header == nil {
			sources[i].Header = http.Header{}
		}
		sources[i].Header.Add(key, value)
	}
	return nil
}

// configuredSources is what the pipeline ingests: the --source values, or
// with none and --default-sources the defaults (nil: the public OFAC
// list), each with its --source-header.
func configuredSources(c IngestConfig, defaults []ingest.Source) ([]ingest.Source, error) {
	sources, err := parseSources(c.Sources)
	if err != nil {
		return nil, fmt.Errorf("--source: %w", err)
	}
	if len(sources) == 0 && c.DefaultSources {
		sources = slices.Clone(defaults)
		if sources == nil {
			sources = ingest.DefaultSources()
		}
	}
	if err := withSourceHeaders(sources, c.SourceHeaders); err != nil {
		return nil, fmt.Errorf("--source-header: %w", err)
	}
	return sources, nil
}

// startSchedule runs the pipeline on the --ingest-schedule until ctx ends,
// and once at start when startup is set. Runs never overlap: one due while
// another is going is skipped.
func (m *Main) startSchedule(ctx context.Context, p *ingest.Pipeline, startup bool) (stop func(), err error) {
	sched, err := cron.ParseStandard(m.Config.IngestSchedule)
	if err != nil {
		return nil, err
	}
	job := cron.NewChain(cron.SkipIfStillRunning(cron.DiscardLogger)).Then(cron.FuncJob(func() {
		if _, err := p.Run(ctx); err != nil && ctx.Err() == nil {
			m.Logger.Error("scheduled ingestion failed", "err", err)
		}
	}))
	c := cron.New()
	c.Schedule(sched, job)
	if startup {
		m.wg.Add(1)
		go func() { defer m.wg.Done(); job.Run() }()
	}
	c.Start()
	return func() { <-c.Stop().Done(); p.Wait() }, nil
}
