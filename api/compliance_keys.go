package api

import (
	"net/http"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// signingKeys is GET /v1/compliance/signing-keys: the public keys proof
// documents are signed with, the current one first, then the retired ones
// (no account needed, as for the documents).
func (s *Server) signingKeys(c *gin.Context) error {
	out := wire.SigningKeys{Keys: []compliance.SigningKey{}}
	if s.Compliance.Signer != nil {
		out.Keys = s.Compliance.Signer.Keys()
	}
	writeJSON(c, http.StatusOK, out)
	return nil
}
