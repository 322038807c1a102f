package pebble

import (
	"bytes"
	"context"

	"github.com/cairn-dev/cairn"
)

// Developer returns the developer with the id.
func (db *DB) Developer(ctx context.Context, id string) (*cairn.Developer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := db.flushCharges(); err != nil { // the balance counts the buffered charges
		return nil, err
	}
	return getRecord[cairn.Developer](db, devKey(id), func() error { return cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.") })
}

// Agent returns the agent with the id.
func (db *DB) Agent(ctx context.Context, id string) (*cairn.Agent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return getRecord[cairn.Agent](db, agentKey(id), func() error { return cairn.Errorf(cairn.ENOTFOUND, "Agent not found.") })
}

// AgentByKeyHash returns the agent whose current key hashes to h. The agent
// record is checked against h, so a key rotated between the two reads does
// not resolve.
func (db *DB) AgentByKeyHash(ctx context.Context, h []byte) (*cairn.Agent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	notFound := cairn.Errorf(cairn.ENOTFOUND, "Agent not found.")
	if len(h) == 0 {
		return nil, notFound
	}
	id, err := db.getBytes(keyHashKey(h))
	if err != nil {
		return nil, err
	} else if id == nil {
		return nil, notFound
	}
	var a cairn.Agent
	if ok, err := db.getJSON(agentKey(string(id)), &a); err != nil {
		return nil, err
	} else if !ok || !bytes.Equal(a.KeyHash, h) {
		return nil, notFound
	}
	return &a, nil
}
