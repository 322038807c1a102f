package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

type bulkRequest struct {
	Memories []json.RawMessage `json:"memories"`
}

// bulkStrict is the bulk request as strictBody checks it: every item a
// memory object, so that a misnamed member of any item refuses the whole
// request before anything is charged or stored.
type bulkStrict struct {
	Memories []memoryRequest `json:"memories"`
}

// itemError is the error member of a bulk item that failed: the members
// of the problem document the item would have had alone (type, title,
// status, code, detail and field; other extension members are told in
// detail), and message, the same text as detail.
func itemError(err error) (int, *wire.ItemError) {
	code := cairn.ErrorCode(err)
	msg := cairn.ErrorMessage(err)
	if code == cairn.EINTERNAL {
		msg = "internal error"
	}
	status := StatusOf(code)
	out := &wire.ItemError{Type: ProblemType + code, Title: http.StatusText(status), Status: status, Code: code, Detail: msg, Message: msg}
	var e *cairn.Error
	if code != cairn.EINTERNAL && errors.As(err, &e) && e.Details["field"] != nil {
		out.Field = fmt.Sprint(e.Details["field"])
	}
	return status, out
}

// bulkMemories is POST /v1/memory/bulk: up to 20 creates, each charged
// bulk.write before it runs and refunded when it fails, so the request
// pays only for the memories stored. 200 with one result per item, in
// order: {index, id, status, error}.
func (s *Server) bulkMemories(c *gin.Context) error {
	var req bulkRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if len(req.Memories) == 0 || len(req.Memories) > memory.MaxBulkWrite {
		return cairn.Errorf(cairn.EINVALID, "memories must hold 1 to %d items.", memory.MaxBulkWrite).With("field", "memories")
	}
	agent := agentOf(c)
	bulkRun(c, req.Memories, http.StatusCreated, func(raw json.RawMessage, res *wire.BulkItem) error {
		return s.bulkOne(c, agent.ID, raw, res)
	})
	return nil
}

// bulkRun runs one on each item, in order, and writes 200 with the
// results: an item's status is ok, or its failure's.
func bulkRun[T any](c *gin.Context, items []T, ok int, one func(item T, res *wire.BulkItem) error) {
	results := make([]wire.BulkItem, 0, len(items))
	succeeded := 0
	for i, item := range items {
		res := wire.BulkItem{Index: i, Status: ok}
		if err := one(item, &res); err != nil {
			res.Status, res.Error = itemError(err)
		} else {
			succeeded++
		}
		results = append(results, res)
	}
	writeJSON(c, http.StatusOK, wire.BulkResults{Results: results, Succeeded: succeeded, Failed: len(results) - succeeded})
}

func (s *Server) bulkOne(c *gin.Context, agentID string, raw json.RawMessage, res *wire.BulkItem) error {
	var item memoryRequest
	if err := json.Unmarshal(raw, &item); err != nil {
		return cairn.Errorf(cairn.EINVALID, "Item is not a memory object.")
	}
	w, err := item.write(c)
	if err != nil {
		return err
	}
	var v *memory.View
	if err := billOf(c).Item(c.Request.Context(), billing.OpBulkWrite, func() (err error) {
		v, err = s.Memory.Create(c.Request.Context(), agentID, w)
		return err
	}); err != nil {
		return err
	}
	j := toMemoryJSON(v, false)
	res.ID, res.Memory = &j.ID, &j
	return nil
}

// bulkDeleteMemories is POST /v1/memory/bulk-delete: up to 50 version ids,
// each deleted as DELETE /v1/memory/:id would, charged memory.delete only
// when it succeeds.
func (s *Server) bulkDeleteMemories(c *gin.Context) error {
	var req wire.BulkDeleteRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if len(req.IDs) == 0 || len(req.IDs) > memory.MaxBulkDel {
		return cairn.Errorf(cairn.EINVALID, "ids must hold 1 to %d items.", memory.MaxBulkDel).With("field", "ids")
	}
	agent := agentOf(c)
	bulkRun(c, req.IDs, http.StatusOK, func(id string, res *wire.BulkItem) error {
		res.ID = &id
		return billOf(c).Item(c.Request.Context(), billing.OpMemoryDelete, func() error {
			_, _, err := s.Memory.Delete(c.Request.Context(), agent.ID, id, nil, requestID(c))
			return err
		})
	})
	return nil
}
