package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	blobs3 "github.com/cairn-dev/cairn/blob/s3"
)

// openBlobs opens the blob store --blob names: the files under the data
// dir, or a bucket of an S3-compatible service.
func openBlobs(ctx context.Context, cfg Config, clock cairn.Clock) (blob.Store, error) {
	if err := checkBlobs(cfg); err != nil {
		return nil, err
	}
	switch cfg.Blob {
	case "fs":
		s, err := blobfs.New(filepath.Join(cfg.DataDir, "blobs"), blobfs.Options{Clock: clock, CacheBytes: blobCache(cfg.BlobCacheBytes)})
		if err != nil {
			return nil, err
		}
		return s, nil
	case "s3":
		s, err := blobs3.New(ctx, blobs3.Options{Endpoint: cfg.S3Endpoint, Secure: cfg.S3Secure, Region: cfg.S3Region,
			AccessKey: cfg.S3AccessKey, SecretKey: cfg.S3SecretKey, Bucket: cfg.S3Bucket, Clock: clock})
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("--blob %q: want fs or s3", cfg.Blob)
}

// checkBlobs checks the blob flags without opening anything (Validate, and
// openBlobs for `cairn ingest`).
func checkBlobs(cfg Config) error {
	switch cfg.Blob {
	case "fs":
		return nil
	case "s3":
		if cfg.S3Endpoint == "" || cfg.S3Bucket == "" {
			return errors.New("--blob s3 needs --s3-endpoint and --s3-bucket")
		}
		if _, _, err := blobs3.ParseEndpoint(cfg.S3Endpoint, cfg.S3Secure); err != nil {
			return fmt.Errorf("--s3-endpoint: %w", err)
		}
		return nil
	}
	return fmt.Errorf("--blob %q: want fs or s3", cfg.Blob)
}

// logBlobs says where the blobs of an S3 blob store go, and warns when
// its server does not honour conditional writes (create-only is then a
// best-effort check across instances). It never logs the credentials.
func logBlobs(logger *slog.Logger, cfg Config, s blob.Store) {
	s3, ok := s.(*blobs3.Store)
	if !ok {
		return
	}
	logger.Info("blob store", "kind", "s3", "endpoint", cfg.S3Endpoint, "bucket", cfg.S3Bucket, "conditional_writes", s3.Conditional())
	if !s3.Conditional() {
		logger.Warn("the S3 server ignores If-None-Match: a blob name created by two instances at once may be written twice (the later upload wins)",
			"endpoint", cfg.S3Endpoint)
	}
}

// blobCache is the blob store's CacheBytes for --blob-cache-bytes (0: none).
func blobCache(n int64) int64 {
	if n <= 0 {
		return -1
	}
	return n
}
