package wire

// Status is the answer of healthz (ok) and readyz (ready), and what a
// disabled Anchor or Oracle writes.
type Status struct {
	Status string `json:"status"`
}
