// Package servertest holds what the tests' real servers have in common:
// each is started and stopped by one of the repository's scripts
// (scripts/kafka.sh, postgres.sh, debezium.sh, jobserver.sh), whose
//
//	SCRIPT start ARGS... --owner PID   prints "PID ADDR..." once it serves
//	SCRIPT stop PID                    stops it, or forgets it once it is gone
//
// and whose --owner stops the server when the test binary dies, however
// it dies. Process is that protocol from Go: a server a test can stop,
// crash and start again on the same data, as in an outage.
package servertest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Process is one server started by Script. Its methods are safe for
// concurrent use: a test's outage goroutine stops what its cleanup also
// stops.
type Process struct {
	Script string // the script's path
	Log    string // the server's log, for LogTail
	// Crash, when set, is the script's command that kills the server as
	// a crash would (postgres.sh's kill takes the server's children
	// along); without it Kill sends SIGKILL to the server's pid.
	Crash string

	mu  sync.Mutex
	pid int // 0 while stopped
}

// Start runs `Script start args... --owner PID` and returns the addresses
// it printed after the server's pid: want of them. env, when set, is the
// script's environment.
func (p *Process) Start(args []string, want int, env ...string) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pid != 0 {
		return nil, fmt.Errorf("%s: a server already runs (pid %d)", p.Script, p.pid)
	}
	cmd := exec.Command(p.Script, append(append([]string{"start"}, args...), "--owner", strconv.Itoa(os.Getpid()))...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	// The script says why it failed on stderr (the end of the server's
	// log, say): pass it on.
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s start %s: %v\n%s", p.Script, strings.Join(args, " "), err, stderr.String())
	}
	fields := strings.Fields(string(out))
	var pid int
	if len(fields) == want+1 {
		pid, err = strconv.Atoi(fields[0])
	}
	if len(fields) != want+1 || err != nil || pid <= 0 {
		return nil, fmt.Errorf("%s start printed %q, want a pid and %d address(es)", p.Script, out, want)
	}
	p.pid = pid
	return fields[1:], nil
}

// Stop stops the server through its script, if it runs.
func (p *Process) Stop() error { return p.run("stop") }

// run runs `Script cmd PID`, after which the server is gone.
func (p *Process) run(cmd string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pid == 0 {
		return nil
	}
	out, err := exec.Command(p.Script, cmd, strconv.Itoa(p.pid)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s %d: %v\n%s", p.Script, cmd, p.pid, err, out)
	}
	p.pid = 0
	return nil
}

// Kill kills the server as a crash would, and returns once the script
// has seen it gone.
func (p *Process) Kill() error {
	p.mu.Lock()
	pid := p.pid
	p.mu.Unlock()
	if pid == 0 {
		return nil
	}
	if p.Crash != "" {
		return p.run(p.Crash)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill -9 %d: %v", pid, err)
	}
	// The script's stop forgets the dead server (and waits for it to go).
	return p.Stop()
}

// PID is the server's pid, 0 while it is stopped.
func (p *Process) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pid
}

// LogTail is the end of the server's log, for failure messages.
func (p *Process) LogTail(lines int) string {
	data, _ := os.ReadFile(p.Log)
	all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}
