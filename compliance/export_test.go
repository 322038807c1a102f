package compliance

// SetTopLevels makes s's records leave the hashes of each tree's first
// levels to its top record, for tests whose trees are smaller than the
// service's top.
func SetTopLevels(s *Service, levels int) { s.topLevels = levels }
