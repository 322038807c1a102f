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
	var d cairn.Developer
	if ok, err := db.getJSON(devKey(id), &d); err != nil {
		return nil, err
	} else if !ok {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Developer account not found.")
	}
	return &d, nil
}

// Agent returns the agent with the id.
func (db *DB) Agent(ctx context.Context, id string) (*cairn.Agent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var a cairn.Agent
	if ok, err := db.getJSON(agentKey(id), &a); err != nil {
		return nil, err
	} else if !ok {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "Agent not found.")
	}
	return &a, nil
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
