package memory

import (
	"sort"
	"sync"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// Secrets finds credentials in text with gitleaks' default rule set (AWS
// keys, private key blocks, GitHub, Slack and Stripe tokens, JWTs and some
// two hundred more). The zero value is ready; the rules are compiled on
// first use.
type Secrets struct {
	once sync.Once
	d    *detect.Detector
	err  error
}

func (s *Secrets) init() {
	logging.Logger = zerolog.Nop() // the library logs every finding otherwise
	s.d, s.err = detect.NewDetectorDefaultConfig()
}

// Find returns the ids of the rules that matched text (for example
// "aws-access-token" or "private-key"), sorted and without repeats; none
// when the text holds no credential.
func (s *Secrets) Find(text string) ([]string, error) {
	s.once.Do(s.init)
	if s.err != nil {
		return nil, s.err
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range s.d.DetectString(text) {
		if !seen[f.RuleID] {
			seen[f.RuleID] = true
			out = append(out, f.RuleID)
		}
	}
	sort.Strings(out)
	return out, nil
}
