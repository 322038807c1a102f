package main

import (
	"context"
	"fmt"
)

// openList installs the sanctions list before anything is served. The last
// stored version comes back without any fetch, so a restart never depends
// on the sources being reachable; the sources are then ingested in the
// background by Run. With no stored version (first start), the sources are
// ingested now, so that the first request is screened against them.
func (m *Main) openList(ctx context.Context) (restored bool, err error) {
	if d := m.Config.IngestMaxDrop; !(d > 0 && d <= 1) {
		return false, fmt.Errorf("--ingest-max-drop %v: want a share in (0, 1]", d)
	}
	restored, err = m.pipeline.Restore(ctx)
	if err != nil {
		return false, fmt.Errorf("restore sanctions list: %w", err)
	}
	if restored {
		return true, nil
	}
	res, err := m.pipeline.Run(ctx)
	if err != nil {
		return false, fmt.Errorf("ingest: %w", err)
	}
	m.Logger.Info("sanctions list ready", "version", res.Version, "root", res.Root, "leaves", res.Leaves, "failures", len(res.Failures))
	return false, nil
}
