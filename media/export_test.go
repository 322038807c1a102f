package media

import "time"

// SetRandRead replaces the source of blob name randomness until restore.
func SetRandRead(f func([]byte) (int, error)) (restore func()) {
	old := randRead
	randRead = f
	return func() { randRead = old }
}

// SetOrphanRetry sets the first and longest wait between the retried
// deletes of failed uploads' blobs, and how long they are retried.
func SetOrphanRetry(s *Service, first, longest, bound time.Duration) {
	s.orphans.mu.Lock()
	defer s.orphans.mu.Unlock()
	s.orphans.first, s.orphans.max, s.orphans.bound = first, longest, bound
}

// PendingDeletes is the number of failed uploads' blobs whose delete waits
// for a retry.
func PendingDeletes(s *Service) int {
	s.orphans.mu.Lock()
	defer s.orphans.mu.Unlock()
	return len(s.orphans.pending)
}
