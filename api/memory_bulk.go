package api

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/memory"
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

type bulkDeleteRequest struct {
	IDs []string `json:"ids"`
}

// itemError is the error member of a bulk item that failed: the members
// of the problem document the item would have had alone (type, title,
// status, code, detail and field; other extension members are told in
// detail), and message, the same text as detail.
func itemError(err error) (int, gin.H) {
	code := cairn.ErrorCode(err)
	msg := cairn.ErrorMessage(err)
	if code == cairn.EINTERNAL {
		msg = "internal error"
	}
	status := StatusOf(code)
	out := gin.H{"type": ProblemType + code, "title": http.StatusText(status), "status": status, "code": code, "detail": msg, "message": msg}
	var e *cairn.Error
	if code != cairn.EINTERNAL && errors.As(err, &e) && e.Details["field"] != nil {
		out["field"] = e.Details["field"]
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
	results := make([]gin.H, 0, len(req.Memories))
	ok := 0
	for i, raw := range req.Memories {
		res := gin.H{"index": i, "id": nil, "status": http.StatusCreated, "error": nil}
		err := s.bulkOne(c, agent.ID, raw, res)
		if err != nil {
			res["status"], res["error"] = itemError(err)
		} else {
			ok++
		}
		results = append(results, res)
	}
	writeJSON(c, http.StatusOK, gin.H{"results": results, "succeeded": ok, "failed": len(results) - ok})
	return nil
}

func (s *Server) bulkOne(c *gin.Context, agentID string, raw json.RawMessage, res gin.H) error {
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
	res["id"], res["memory"] = j.ID, j
	return nil
}

// bulkDeleteMemories is POST /v1/memory/bulk-delete: up to 50 version ids,
// each deleted as DELETE /v1/memory/:id would, charged memory.delete only
// when it succeeds.
func (s *Server) bulkDeleteMemories(c *gin.Context) error {
	var req bulkDeleteRequest
	if err := bindJSON(c, &req, false); err != nil {
		return err
	}
	if len(req.IDs) == 0 || len(req.IDs) > memory.MaxBulkDel {
		return cairn.Errorf(cairn.EINVALID, "ids must hold 1 to %d items.", memory.MaxBulkDel).With("field", "ids")
	}
	agent := agentOf(c)
	results := make([]gin.H, 0, len(req.IDs))
	ok := 0
	for i, id := range req.IDs {
		res := gin.H{"index": i, "id": id, "status": http.StatusOK, "error": nil}
		err := billOf(c).Item(c.Request.Context(), billing.OpMemoryDelete, func() error {
			_, _, err := s.Memory.Delete(c.Request.Context(), agent.ID, id, nil, requestID(c))
			return err
		})
		if err != nil {
			res["status"], res["error"] = itemError(err)
		} else {
			ok++
		}
		results = append(results, res)
	}
	writeJSON(c, http.StatusOK, gin.H{"results": results, "succeeded": ok, "failed": len(results) - ok})
	return nil
}
