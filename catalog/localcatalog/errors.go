package localcatalog

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
)

// apiError is an error response as Apache Iceberg's reference catalog
// (JdbcCatalog behind CatalogHandlers, Iceberg 1.10) gives it: the status,
// the type (the name of the Java exception, which Java clients throw again)
// and the message, worded as the reference words it, since engines and
// people branch on these texts. Every error response the server words
// itself is built by one of the functions below.
type apiError struct {
	status int
	typ    string
	msg    string
	kind   error // the iceberg-go sentinel of the same meaning, if any
}

func (e *apiError) Error() string { return e.msg }
func (e *apiError) Unwrap() error { return e.kind }

func newAPIError(status int, typ, format string, args ...any) *apiError {
	return &apiError{status: status, typ: typ, msg: fmt.Sprintf(format, args...)}
}

func (e *apiError) is(kind error) error {
	e.kind = kind
	return e
}

// dotted is how Java prints a namespace or table identifier.
func dotted(ident table.Identifier) string { return strings.Join(ident, ".") }

func errNoSuchNamespace(ns table.Identifier) error {
	return newAPIError(http.StatusNotFound, "NoSuchNamespaceException", "Namespace does not exist: %s", dotted(ns)).
		is(catalog.ErrNoSuchNamespace)
}

func errNoSuchTable(ident table.Identifier) error {
	return newAPIError(http.StatusNotFound, "NoSuchTableException", "Table does not exist: %s", dotted(ident)).
		is(catalog.ErrNoSuchTable)
}

func errNoSuchView(ident table.Identifier) error {
	return newAPIError(http.StatusNotFound, "NoSuchViewException", "View does not exist: %s", dotted(ident)).
		is(catalog.ErrNoSuchView)
}

// errNoSuch is errNoSuchTable or errNoSuchView, as o is.
func (o object) errNoSuch(ident table.Identifier) error {
	if o == viewObject {
		return errNoSuchView(ident)
	}
	return errNoSuchTable(ident)
}

func errNamespaceExists(ns table.Identifier) error {
	return alreadyExists("Namespace already exists: %s", dotted(ns))
}

func errTableExists(ident table.Identifier) error {
	return alreadyExists("Table already exists: %s", dotted(ident))
}

func errViewExists(ident table.Identifier) error {
	return alreadyExists("View already exists: %s", dotted(ident))
}

// errViewInTheWay answers creating a table where a view of that name is.
func errViewInTheWay(ident table.Identifier) error {
	return alreadyExists("View with same name already exists: %s", dotted(ident))
}

// errTableInTheWay answers creating a view where a table of that name is.
func errTableInTheWay(ident table.Identifier) error {
	return alreadyExists("Table with same name already exists: %s", dotted(ident))
}

func errRenameOnto(from, to table.Identifier, what string) error {
	return alreadyExists("Cannot rename %s to %s. %s already exists", dotted(from), dotted(to), what)
}

func alreadyExists(format string, args ...any) error {
	return newAPIError(http.StatusConflict, "AlreadyExistsException", format, args...).is(errAlreadyExists)
}

// errAlreadyExists is what every "already exists" apiError is.
var errAlreadyExists = errors.New("already exists")

// errNamespaceNotEmpty: what is "table(s)" or "view(s)".
func errNamespaceNotEmpty(ns table.Identifier, n int, what string) error {
	return newAPIError(http.StatusConflict, "NamespaceNotEmptyException",
		"Namespace %s is not empty. Contains %d %s.", dotted(ns), n, what).is(catalog.ErrNamespaceNotEmpty)
}

// commitFailed is a 409 the client may retry on fresh metadata.
func commitFailed(format string, args ...any) error {
	return newAPIError(http.StatusConflict, "CommitFailedException", format, args...).is(table.ErrCommitFailed)
}

// invalidArgument is a 400 for a request the reference refuses with an
// IllegalArgumentException (which Java clients throw as such).
func invalidArgument(format string, args ...any) error {
	return newAPIError(http.StatusBadRequest, "IllegalArgumentException", format, args...).is(iceberg.ErrInvalidArgument)
}

// badRequest is a 400 for a request that cannot be parsed or names nothing
// valid.
func badRequest(format string, args ...any) error {
	return newAPIError(http.StatusBadRequest, "BadRequestException", format, args...).is(errBadRequest)
}

// errBadRequest is what every badRequest is.
var errBadRequest = errors.New("bad request")

func unprocessable(format string, args ...any) error {
	return newAPIError(http.StatusUnprocessableEntity, "UnprocessableEntityException", format, args...).is(errUnprocessable)
}

// errNotFound is an unknown route.
var errNotFound = errors.New("no such endpoint")

// errMethod is a known route with the wrong method.
var errMethod = errors.New("method not allowed")

// errUnprocessable is a well-formed request the spec answers with 422.
var errUnprocessable = errors.New("unprocessable request")

type restError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    int    `json:"code"`
}

// classify maps an error to the REST spec's status code and exception type:
// an apiError says so itself; iceberg-go's sentinels stand for the Java
// exceptions of the same meaning.
func classify(err error) (int, string) {
	var api *apiError
	if errors.As(err, &api) {
		return api.status, api.typ
	}
	switch {
	case errors.Is(err, errNotFound):
		return http.StatusNotFound, "NoSuchEndpointException"
	case errors.Is(err, errMethod):
		return http.StatusMethodNotAllowed, "MethodNotAllowedException"
	case errors.Is(err, catalog.ErrNoSuchTable):
		return http.StatusNotFound, "NoSuchTableException"
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		return http.StatusNotFound, "NoSuchNamespaceException"
	case errors.Is(err, catalog.ErrNoSuchView):
		return http.StatusNotFound, "NoSuchViewException"
	case errors.Is(err, catalog.ErrTableAlreadyExists),
		errors.Is(err, catalog.ErrNamespaceAlreadyExists),
		errors.Is(err, catalog.ErrViewAlreadyExists):
		return http.StatusConflict, "AlreadyExistsException"
	case errors.Is(err, catalog.ErrNamespaceNotEmpty):
		return http.StatusConflict, "NamespaceNotEmptyException"
	case errors.Is(err, table.ErrCommitFailed):
		return http.StatusConflict, "CommitFailedException"
	case errors.Is(err, errUnprocessable):
		return http.StatusUnprocessableEntity, "UnprocessableEntityException"
	case errors.Is(err, iceberg.ErrInvalidArgument):
		return http.StatusBadRequest, "IllegalArgumentException"
	}
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return http.StatusRequestEntityTooLarge, "BadRequestException"
	}
	return http.StatusInternalServerError, "InternalServerError"
}

func writeError(w http.ResponseWriter, r *http.Request, err error) {
	code, typ := classify(err)
	switch {
	case code == http.StatusServiceUnavailable: // busy, by design
		slog.Warn("localcatalog: request refused", "method", r.Method, "path", r.URL.Path, "error", err)
	case code >= 500:
		slog.Error("localcatalog: request failed", "method", r.Method, "path", r.URL.Path, "error", err)
	}
	if r.Method == http.MethodHead {
		w.WriteHeader(code)
		return
	}
	writeJSON(w, code, map[string]restError{"error": {Message: err.Error(), Type: typ, Code: code}})
}
