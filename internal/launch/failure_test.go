package launch

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// prismFailure is how a failed prism job's error reads (Beam 2.77), cut
// from a clicks run whose catalog went away.
const prismFailure = "job job-001 failed:\nbundle inst027 stage-004 failed:process bundle failed for instruction inst027 using plan stage-004 : " +
	"while executing Process for Plan[stage-004]:\n1: DataSource[S[stage-004_source@localhost:41299], i0] Out:4 Coder:W<CoGBK<string;c8,bytes;c0>>!GWC \n" +
	"4: ParDo[icebergio.commitFn] Out:[3] Sig: func(context.Context, typex.PaneInfo, string, func(*[]uint8) bool, func(icebergio.CommitResult)) error, SideInputs: []\n" +
	"3: PCollection[n7] Out:[2]\n2: Discard\n\tcaused by:\nsource failed processing data\n\tcaused by:\n" +
	"DoFn[UID:4, PID:e7, Name: github.com/icebeam/icebeam/transforms/icebergio.commitFn] failed:\n" +
	"icebergio: loading table clicks.user_clicks: Get \"http://127.0.0.1:18181/v1/namespaces/clicks/tables/user_clicks\": dial tcp 127.0.0.1:18181: connect: connection refused (failing for 10s, 7 attempts)"

func TestRootCause(t *testing.T) {
	want := "icebergio: loading table clicks.user_clicks: Get \"http://127.0.0.1:18181/v1/namespaces/clicks/tables/user_clicks\": dial tcp 127.0.0.1:18181: connect: connection refused (failing for 10s, 7 attempts)"
	if got := RootCause(errors.New(prismFailure)); got != want {
		t.Errorf("RootCause = %q, want %q", got, want)
	}
	if got := RootCause(errors.New("context canceled")); got != "context canceled" {
		t.Errorf("RootCause of a plain error = %q", got)
	}
	inner := errors.New(prismFailure)
	if err := Failed(inner); err.Error() != want || !errors.Is(err, inner) {
		t.Errorf("Failed = %q (wrapping the job's error: %v)", err, errors.Is(err, inner))
	}
}

func TestQuietFailures(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		log := slog.New(quietFailures{slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level})})
		log.Error("Bundle Failed.", "error", prismFailure)
		log.Error("[SDK] process bundle failed for instruction inst027 using plan stage-004 : while executing Process for Plan[stage-004]:")
		// As the Go harness relays its pending log at INFO once the job's
		// log stream has closed (seen in a CI run).
		log.Info("bundle inst095 stage-004 failed:process bundle failed for instruction inst095 using plan stage-004 : while executing Process for Plan[stage-004]:")
		// A DoFn that fails in FinishBundle (the sink's commit step
		// reports its commits there), and the progress report after it.
		log.Error("[SDK] process bundle failed for instruction inst101 using plan stage-004 : while executing FinishBundle for Plan[stage-004]:")
		log.Error("[SDK] failed to return progress: instruction inst095 failed: while executing FinishBundle for Plan[stage-004]:")
		log.Error("clicks: job failed: the cause")
		out := buf.String()
		if strings.Contains(out, "level=INFO") {
			t.Errorf("at %v: a plan dump is printed at INFO:\n%s", level, out)
		}
		if n := strings.Count(out, "level=ERROR"); n != 1 || !strings.Contains(out, "the cause") {
			t.Errorf("at %v: %d ERROR lines, want only the job's own:\n%s", level, n, out)
		}
		if dumps := strings.Count(out, "level=DEBUG"); (level == slog.LevelDebug) != (dumps == 5) {
			t.Errorf("at %v: %d runner reports at DEBUG:\n%s", level, dumps, out)
		}
	}
}

// A job's lifecycle, as prism and the harness logged it for a taxi run
// (Beam 2.77), goes to DEBUG; the pipeline's own lines stay.
func TestQuietLifecycle(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(quietFailures{slog.NewTextHandler(&buf, nil)})
	for _, msg := range []string{
		"Serving JobManagement",
		"starting Loopback server at 127.0.0.1:37927",
		"Prepared job with id: job-001 and staging token: job-001",
		"Staged binary artifact with token: job-001",
		"Submitted job: job-001",
		"starting job-001[go-job-1-1796216173508215399]",
		"running job-001[go-job-1-1796216173508215399]",
		"Job[job-001] state: RUNNING",
		"pipeline done!",
		"[SDK] stopping worker job-001[go-job-1-1796216173508215399]_go",
		"[SDK] pipeline completed job-001[go-job-1-1796216173508215399]",
		"[SDK] terminating job-001[go-job-1-1796216173508215399]",
	} {
		log.Info(msg)
	}
	log.Info("[SDK] icebergio: committed table=nyc_taxi.yellow_trips_analyzed commit=x snapshot=1 files=1 rows=100")
	log.Info("taxi dev, runner prism")
	log.Warn("Job[job-001] state: FAILED")
	out := buf.String()
	if n := strings.Count(out, "\n"); n != 3 || !strings.Contains(out, "icebergio: committed") || !strings.Contains(out, "runner prism") || !strings.Contains(out, "FAILED") {
		t.Errorf("%d lines, want the commit, the pipeline's line and the warning:\n%s", n, out)
	}
}
