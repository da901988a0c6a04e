// Package jobservertest runs pipelines on Beam's portable Flink and Spark
// runners in tests, the closest stand-ins for Dataflow that run here: it
// starts a job server that scripts/jobserver.sh assembles from Maven
// Central (cached in .cache/jobserver) on loopback, with parallelism 2 and,
// for Flink, checkpoints in a temporary directory, and an external worker
// pool that a test can crash and restart. Everything stops when the test
// ends.
package jobservertest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/icebeam/icebeam/internal/launch/launchtest"
	"github.com/icebeam/icebeam/internal/servertest"
)

// Required reports whether a machine without Java or Maven fails the
// runner tests (and the other tests that assemble Java from Maven Central,
// such as the Iceberg compatibility kit's) instead of skipping them:
// JOBSERVER=require, as `make test` sets it in CI.
func Required() bool { return os.Getenv("JOBSERVER") == "require" }

// Server is a running job server.
type Server struct {
	Runner   string // "flink" or "spark"
	Endpoint string // host:port of the job service, for --endpoint
	Log      string // the server's log file
	proc     servertest.Process
}

// Start starts a job server for runner ("flink" or "spark") and stops it
// when t ends. flinkConf lines ("key: value") go into a Flink cluster's
// flink-conf.yaml, as an operator would set them. A test on a machine without Java and Maven is skipped unless
// Required. Each test gets its own server: Beam's job service does not
// stop a cancelled Flink job, which would keep the slots a later job needs.
func Start(t testing.TB, runner string, flinkConf ...string) *Server {
	t.Helper()
	if testing.Short() {
		t.Skipf("starts a %s job server", runner)
	}
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			if Required() {
				t.Fatalf("the %s runner tests need %s (JOBSERVER=require)", runner, tool)
			}
			t.Skipf("the %s runner tests need %s", runner, tool)
		}
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	switch runner {
	case "flink":
		if err := os.MkdirAll(conf, 0o755); err != nil {
			t.Fatal(err)
		}
		yaml := "parallelism.default: 2\ntaskmanager.numberOfTaskSlots: 2\n" +
			"state.checkpoints.dir: file://" + filepath.Join(dir, "checkpoints") + "\n"
		for _, line := range flinkConf {
			yaml += line + "\n"
		}
		if err := os.WriteFile(filepath.Join(conf, "flink-conf.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	case "spark":
		// local[2] is the script's default master: two cores.
	default:
		t.Fatalf("jobservertest: unknown runner %q", runner)
	}
	log := filepath.Join(dir, "jobserver.log")
	s := &Server{Runner: runner, Log: log,
		proc: servertest.Process{Script: filepath.Join(launchtest.RepoRoot(t), "scripts", "jobserver.sh"), Log: log}}
	args := []string{runner, "--job-port", "0", "--log", s.Log}
	if runner == "flink" {
		args = append(args, "--conf-dir", conf)
	}
	// Info shows Flink's checkpoints and the SDK harnesses' log lines.
	addrs, err := s.proc.Start(args, 1, "JOBSERVER_LOG_LEVEL=info")
	if err != nil {
		t.Fatal(err)
	}
	s.Endpoint = addrs[0]
	t.Cleanup(func() {
		if err := s.proc.Stop(); err != nil {
			t.Log(err)
		}
	})
	return s
}

// LogTail is the end of the server's log, for failure messages.
func (s *Server) LogTail(lines int) string { return s.proc.LogTail(lines) }

// Run runs cmd, a pipeline that submits its job to s, and returns its
// combined output. If cmd fails, or has not ended after timeout, the error
// says what there is to see: the end of the output and of the server's
// log and, for a run that did not end in time, what Hung reports, taken
// before cmd is killed (killing it leaves the job as it was). s may be nil
// (a run on prism): then the error has the output alone.
func (s *Server) Run(t testing.TB, timeout time.Duration, cmd *exec.Cmd) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	var hung string
	select {
	case err = <-done:
	case <-time.After(timeout):
		err = fmt.Errorf("did not end within %v: killed", timeout)
		if s != nil {
			hung = s.Hung(t)
		}
		_ = cmd.Process.Kill()
		<-done
	}
	if err == nil {
		return out.String(), nil
	}
	msg := fmt.Sprintf("%v\n%s", err, launchtest.Tail(out.String()))
	if s != nil {
		msg += "\njob server log:\n" + s.LogTail(40)
	}
	if hung != "" {
		msg += "\n" + hung
	}
	return out.String(), fmt.Errorf("%s", msg)
}

// Hung describes a job of s that does not end, while it hangs: the
// checkpoint and task-state lines of the server's log, and the threads of
// Flink's tasks that run Beam code or are busy, from a thread dump of the
// server's JVM (jstack, else kill -3 into its log). The whole dump and a
// copy of the log, which goes with the test's temporary directory, are
// kept in .cache/test-artifacts/jobserver.
func (s *Server) Hung(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	var states []string
	for _, line := range s.lines() {
		if strings.Contains(line, "CheckpointCoordinator") || strings.Contains(line, "ExecutionGraph") && strings.Contains(line, "switched from") {
			if len(line) > 300 {
				line = line[:300] + "..."
			}
			states = append(states, line)
		}
	}
	fmt.Fprintf(&b, "the job's last checkpoint and task-state lines:\n%s\n", strings.Join(states[max(0, len(states)-40):], "\n"))
	dump, err := s.threadDump()
	if err != nil {
		fmt.Fprintf(&b, "no thread dump of the job server (pid %d): %v\n", s.proc.PID(), err)
		return b.String()
	}
	var idle []string
	b.WriteString("its task threads running Beam code or busy (jstack):\n")
	for _, th := range strings.Split(dump, "\n\n") {
		th = strings.Trim(th, "\n")
		if !strings.Contains(th, "org.apache.flink.runtime.taskmanager.Task.run") {
			continue
		}
		if !strings.Contains(th, "org.apache.beam.") && !strings.Contains(th, "State: RUNNABLE") {
			name, _, _ := strings.Cut(th, "\n")
			idle = append(idle, name)
			continue
		}
		lines := strings.Split(th, "\n")
		if len(lines) > 40 {
			lines = append(lines[:40], "\t...")
		}
		b.WriteString(strings.Join(lines, "\n") + "\n\n")
	}
	fmt.Fprintf(&b, "its other task threads, waiting:\n%s\n", strings.Join(idle, "\n"))
	dir := filepath.Join(launchtest.RepoRoot(t), ".cache", "test-artifacts", "jobserver")
	base := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+time.Now().Format("-20060102-150405"))
	log, _ := os.ReadFile(s.Log)
	if err := os.MkdirAll(dir, 0o755); err == nil &&
		os.WriteFile(base+".jstack.txt", []byte(dump), 0o644) == nil && os.WriteFile(base+".log", log, 0o644) == nil {
		fmt.Fprintf(&b, "the whole thread dump: %s.jstack.txt, the server's log: %s.log\n", base, base)
	}
	return b.String()
}

// threadDump is a thread dump of the server's JVM.
func (s *Server) threadDump() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pid := s.proc.PID()
	out, err := exec.CommandContext(ctx, "jstack", strconv.Itoa(pid)).Output()
	if err == nil {
		return string(out), nil
	}
	// kill -3: the JVM prints the dump on its standard output, the log.
	st, serr := os.Stat(s.Log)
	if serr != nil {
		return "", fmt.Errorf("jstack: %v", err)
	}
	if kerr := syscall.Kill(pid, syscall.SIGQUIT); kerr != nil {
		return "", fmt.Errorf("jstack: %v; kill -3: %v", err, kerr)
	}
	time.Sleep(3 * time.Second)
	f, ferr := os.Open(s.Log)
	if ferr != nil {
		return "", ferr
	}
	defer f.Close()
	var b bytes.Buffer
	_, ferr = b.ReadFrom(io.NewSectionReader(f, st.Size(), 1<<30))
	return b.String(), ferr
}

// lines are the lines of the server's log.
func (s *Server) lines() []string {
	b, err := os.ReadFile(s.Log)
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// Count returns how many lines of the server's log contain substr.
func (s *Server) Count(substr string) int {
	f, err := os.Open(s.Log)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), substr) {
			n++
		}
	}
	return n
}

// CheckpointSizes are the sizes in bytes of the job's completed Flink
// checkpoints, in order, from the server's log lines "Completed checkpoint
// N for job ID (BYTES bytes, ...".
func (s *Server) CheckpointSizes() []int64 {
	var sizes []int64
	for _, l := range s.lines() {
		_, rest, ok := strings.Cut(l, "Completed checkpoint ")
		if !ok {
			continue
		}
		_, rest, _ = strings.Cut(rest, " (")
		size, _, _ := strings.Cut(rest, " bytes")
		if n, err := strconv.ParseInt(size, 10, 64); err == nil {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// WorkerPool is a pipeline binary serving as the external worker pool of
// jobs run with --environment_type=EXTERNAL: the SDK harnesses live in its
// process, which a test can kill as a machine failure would.
type WorkerPool struct {
	Addr string // host:port, for --environment_config

	t      testing.TB
	bin    string
	env    []string
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited
	kill   int
}

// StartWorkerPool starts bin --worker_pool on a free loopback port with
// env added to its environment.
func StartWorkerPool(t testing.TB, bin string, env ...string) *WorkerPool {
	t.Helper()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	p := &WorkerPool{Addr: fmt.Sprintf("localhost:%d", port), t: t, bin: bin, env: env}
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.stop()
	})
	return p
}

func (p *WorkerPool) start() error {
	cmd := exec.Command(p.bin, "--worker_pool="+p.Addr)
	cmd.Env = append(os.Environ(), p.env...)
	logf, err := os.CreateTemp("", "icebeam-worker-pool-*.log")
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); os.Remove(logf.Name()); close(exited) }()
	p.cmd, p.exited = cmd, exited
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("worker pool %s exited at start", p.bin)
		default:
		}
		if c, err := net.Dial("tcp", p.Addr); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("worker pool %s did not listen on %s within 30 s", p.bin, p.Addr)
}

// stop kills the pool and waits until it is gone, so that its port is
// free again.
func (p *WorkerPool) stop() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
	p.cmd = nil
}

// Crash kills the pool and every harness in it with SIGKILL, as a machine
// failure would, and starts a new pool on the same address for the
// runner's restarted job to find.
func (p *WorkerPool) Crash() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
	p.kill++
	if err := p.start(); err != nil {
		p.t.Errorf("restarting the worker pool: %v", err)
	}
}

// Crashes is how many times Crash ran.
func (p *WorkerPool) Crashes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.kill
}
