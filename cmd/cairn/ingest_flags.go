package main

import (
	"context"
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
	for _, v := range vals {
		s, err := ingest.ParseSourceFlag(v)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// startSchedule runs the pipeline on the --ingest-schedule until ctx ends.
// A run still going when the next is due makes the next one skip.
func (m *Main) startSchedule(ctx context.Context, p *ingest.Pipeline) (stop func(), err error) {
	c := cron.New(cron.WithChain(cron.SkipIfStillRunning(cron.DiscardLogger)))
	if _, err := c.AddFunc(m.Config.IngestSchedule, func() {
		if _, err := p.Run(ctx); err != nil {
			m.Logger.Error("scheduled ingestion failed", "err", err)
		}
	}); err != nil {
		return nil, err
	}
	c.Start()
	return func() { <-c.Stop().Done() }, nil
}
