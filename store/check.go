package store

import "github.com/cairn-dev/cairn"

// CheckNewAccount validates the developer (an id) and the first agent
// (CheckNewAgent) of CreateAccount, and returns the agent a backend stores.
func CheckNewAccount(dev *cairn.Developer, agent *cairn.Agent) (cairn.Agent, error) {
	if dev == nil || dev.ID == "" {
		return cairn.Agent{}, cairn.Errorf(cairn.EINVALID, "Missing developer id.")
	}
	return CheckNewAgent(agent, dev.ID)
}

// CheckAddedAgent validates the agent of CreateAgent, which names its
// developer (CheckNewAgent), and returns the copy a backend stores.
func CheckAddedAgent(agent *cairn.Agent) (cairn.Agent, error) {
	if agent == nil || agent.DeveloperID == "" {
		return cairn.Agent{}, cairn.Errorf(cairn.EINVALID, "Missing developer id.")
	}
	return CheckNewAgent(agent, agent.DeveloperID)
}

// CheckNewAgent validates agent, a new agent of developer devID for
// CreateAccount or CreateAgent (an id, the developer's, a key hash), and
// returns the copy a backend stores, its DeveloperID filled in when empty.
func CheckNewAgent(agent *cairn.Agent, devID string) (cairn.Agent, error) {
	if agent == nil || agent.ID == "" {
		return cairn.Agent{}, cairn.Errorf(cairn.EINVALID, "Missing agent id.")
	}
	a := *agent
	if a.DeveloperID == "" {
		a.DeveloperID = devID
	}
	if a.DeveloperID != devID {
		return a, cairn.Errorf(cairn.EINVALID, "Agent belongs to another developer.")
	}
	if len(a.KeyHash) == 0 {
		return a, cairn.Errorf(cairn.EINVALID, "Missing API key hash.")
	}
	return a, nil
}

// MemoryNotFound is the error of every Memories method for a memory or
// version that is absent, or another agent's.
func MemoryNotFound() error { return cairn.Errorf(cairn.ENOTFOUND, "Memory not found.") }

// MediaNotFound is the error of every Media method for a record that is
// absent, or another agent's.
func MediaNotFound() error { return cairn.Errorf(cairn.ENOTFOUND, "Media not found.") }
