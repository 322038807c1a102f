package main

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/ingest"
)

// openList installs the sanctions list before anything is served. The last
// stored version comes back without any fetch, so a restart never depends
// on the sources being reachable; the sources are then ingested in the
// background by Run. With no stored version (first start) and no
// --source, the snapshot built into the binary is installed as gov_sdn, so
// that screening works at once and offline; the default sources, when on,
// replace it in the background. With a --source, the sources are ingested
// now, so that the first request is screened against them.
func (m *Main) openList(ctx context.Context) (restored bool, err error) {
	restored, err = m.pipeline.Restore(ctx)
	if err != nil {
		return false, fmt.Errorf("restore sanctions list: %w", err)
	}
	if restored {
		return true, nil
	}
	if len(m.Config.Sources) == 0 {
		b, err := ingest.BundledSnapshot()
		if err != nil {
			return false, err
		}
		res, err := m.pipeline.InstallBundled(ctx, b)
		if cairn.IsCode(err, cairn.ECONFLICT) {
			return true, m.restoreAfterConflict(ctx, err)
		} else if err != nil {
			return false, err
		}
		m.Logger.Info("sanctions list ready", "version", res.Version, "root", res.Root, "leaves", res.Leaves,
			"bundled_snapshot", b.Header.Date, "live_source", len(m.pipeline.Sources) > 0)
		return true, nil
	}
	res, err := m.pipeline.Run(ctx)
	if cairn.IsCode(err, cairn.ECONFLICT) {
		return false, m.restoreAfterConflict(ctx, err) // its sources were just ingested
	} else if err != nil {
		return false, fmt.Errorf("ingest: %w", err)
	}
	m.Logger.Info("sanctions list ready", "version", res.Version, "root", res.Root, "leaves", res.Leaves, "failures", len(res.Failures))
	return false, nil
}

// restoreAfterConflict serves the version that another instance sharing
// the store committed first, when both started on a store with none (the
// commit of this one's first version was refused with err, ECONFLICT).
func (m *Main) restoreAfterConflict(ctx context.Context, err error) error {
	restored, rerr := m.pipeline.Restore(ctx)
	if rerr != nil || !restored {
		return fmt.Errorf("first list version: %w", err)
	}
	m.Logger.Info("sanctions list restored: another instance stored the first version")
	return nil
}
