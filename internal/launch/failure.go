package launch

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
)

// RootCause is the part of a failed job's error a person needs: what the
// failing DoFn returned, without the runner's plan dump and "caused by"
// chain around it (those go to the debug log; see quietFailures).
func RootCause(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "\n\tcaused by:\n"); i >= 0 {
		msg = msg[i+len("\n\tcaused by:\n"):]
	}
	// "DoFn[UID:4, PID:e7, Name: ...commitFn] failed:\n<the DoFn's error>"
	if strings.HasPrefix(msg, "DoFn[") {
		if _, rest, ok := strings.Cut(msg, " failed:\n"); ok {
			msg = rest
		}
	}
	return strings.TrimSpace(msg)
}

// quietFailures demotes to DEBUG the records in which prism reports a failed
// bundle or job, each with the whole plan dump: a failure would otherwise
// print the same dump ten times before the job's one line saying what went
// wrong. Any level: when the job ends, the SDK harness's log stream closes
// and the harness relays what it still holds at INFO. It also demotes the
// INFO records of a job's lifecycle (submitted, running, done, workers
// stopping): a dozen lines that came before a pipeline's result and said
// nothing its own lines do not.
type quietFailures struct{ slog.Handler }

func (h quietFailures) Handle(ctx context.Context, r slog.Record) error {
	if runnerFailure(r.Message) || r.Level < slog.LevelWarn && runnerLifecycle(r.Message) {
		if !h.Handler.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		r.Level = slog.LevelDebug
	}
	return h.Handler.Handle(ctx, r)
}

func (h quietFailures) WithAttrs(as []slog.Attr) slog.Handler {
	return quietFailures{h.Handler.WithAttrs(as)}
}

func (h quietFailures) WithGroup(name string) slog.Handler {
	return quietFailures{h.Handler.WithGroup(name)}
}

// quietRunnerFailures wraps the handler beam.Init installed (prism logs
// through it) in quietFailures. slog's built-in handler is left alone: it
// writes through the log package, which SetDefault would route back into
// slog, a deadlock.
func quietRunnerFailures() {
	if h := slog.Default().Handler(); !builtinHandler(h) {
		slog.SetDefault(slog.New(quietFailures{h}))
	}
}

// builtinHandler reports slog's own default handler, which writes through
// the log package: a handler wrapping it must not become the default.
func builtinHandler(h slog.Handler) bool { return fmt.Sprintf("%T", h) == "*slog.defaultHandler" }

// errorsOnly passes on ERROR records only.
type errorsOnly struct{ slog.Handler }

func (h errorsOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError && h.Handler.Enabled(ctx, l)
}

// runnerFailure reports the messages prism logs for a failed bundle or job
// (as of Beam 2.77), and any carrying a plan dump: the harness's own report,
// relayed by prism or logged directly.
func runnerFailure(msg string) bool {
	switch msg {
	case "Prism received bundle error from worker response", "stage.Execute aborting due to bundle error",
		"Bundle Failed.", "job failed":
		return true
	}
	return planDump.MatchString(msg)
}

// planDump matches the Go SDK's report of a DoFn that failed in any of its
// methods (Process, FinishBundle, ...), which dumps the bundle's plan.
var planDump = regexp.MustCompile(`while executing \w+ for Plan\[`)

// lifecycle matches the INFO messages prism and the Go SDK harness log for
// every job (as of Beam 2.77).
var lifecycle = regexp.MustCompile(`^(Serving JobManagement|starting Loopback server at |Prepared job with id: |` +
	`Staged binary artifact with token: |Submitted job: |(starting|running) job-\d+\[|Job\[job-\d+\] state: |` +
	`pipeline done!|\[SDK\] (stopping worker|pipeline completed|terminating) job-\d+\[)`)

// runnerLifecycle reports a message of a job's lifecycle.
func runnerLifecycle(msg string) bool { return lifecycle.MatchString(msg) }

// Failed is a failed job's error as a person reads it: its message is the
// RootCause, and it wraps err, which goes to the debug log whole.
func Failed(err error) error {
	slog.Debug("the job's whole error", "error", err.Error())
	return &jobError{RootCause(err), err}
}

type jobError struct {
	cause string
	err   error
}

func (e *jobError) Error() string { return e.cause }
func (e *jobError) Unwrap() error { return e.err }
