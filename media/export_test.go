package media

// SetRandRead replaces the source of blob name randomness until restore.
func SetRandRead(f func([]byte) (int, error)) (restore func()) {
	old := randRead
	randRead = f
	return func() { randRead = old }
}
