package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// childEnv makes this test binary run `icebeam serve` instead of tests: a
// server process the crash test can kill -9.
const childEnv = "ICEBEAM_TEST_SERVE_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		if err := run(ctx, strings.Split(args, "\x1f"), os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startServeProcess runs `icebeam serve` on dir in a child process and
// returns it and the catalog URL it printed.
func startServeProcess(t *testing.T, dir string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{"serve", "--addr", "127.0.0.1:0", "--local_dir", dir}, "\x1f"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "icebeam: serving the Iceberg REST catalog at "); ok {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return cmd, u
		}
	}
	t.Fatal("serve printed no URL")
	return nil, ""
}

func post(url, body string) (int, []byte, error) {
	rsp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer rsp.Body.Close()
	b, err := io.ReadAll(rsp.Body)
	return rsp.StatusCode, b, err
}

// TestKillNineKeepsAcknowledgedCommits: writers commit to one table as fast
// as the server answers while the server is killed with SIGKILL at a random
// moment, five times over; after each restart every commit the server
// acknowledged is in the table, and the catalog opens.
func TestKillNineKeepsAcknowledgedCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a server five times")
	}
	dir := t.TempDir()
	acked := map[string]bool{}
	var unacked int
	for round := range 5 {
		cmd, url := startServeProcess(t, dir)
		if round == 0 {
			for _, req := range [][2]string{
				{"/v1/namespaces", `{"namespace":["db"]}`},
				{"/v1/namespaces/db/tables", `{"name":"t","schema":{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","type":"long","required":false}]}}`},
			} {
				if code, body, err := post(url+req[0], req[1]); err != nil || code != 200 {
					t.Fatalf("%s: %d %s %v", req[0], code, body, err)
				}
			}
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					key := fmt.Sprintf("r%d-w%d-%d", round, w, i)
					code, _, err := post(url+"/v1/namespaces/db/tables/t",
						`{"requirements":[],"updates":[{"action":"set-properties","updates":{"`+key+`":"1"}}]}`)
					if err != nil {
						return // the server is gone
					}
					if code == 200 {
						mu.Lock()
						acked[key] = true
						mu.Unlock()
					}
				}
			}()
		}
		time.Sleep(time.Duration(200+rand.IntN(600)) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		wg.Wait()

		_, url = startServeProcess(t, dir)
		rsp, err := http.Get(url + "/v1/namespaces/db/tables/t")
		if err != nil {
			t.Fatal(err)
		}
		var loaded struct {
			Metadata struct {
				Properties map[string]string `json:"properties"`
			} `json:"metadata"`
		}
		b, _ := io.ReadAll(rsp.Body)
		rsp.Body.Close()
		if err := json.NewDecoder(bytes.NewReader(b)).Decode(&loaded); err != nil || rsp.StatusCode != 200 {
			t.Fatalf("round %d: loading the table after the crash: %d %v %s", round, rsp.StatusCode, err, b)
		}
		var lost []string
		for k := range acked {
			if loaded.Metadata.Properties[k] == "" {
				lost = append(lost, k)
			}
		}
		if len(lost) > 0 {
			t.Fatalf("round %d: %d acknowledged commits lost, e.g. %v", round, len(lost), lost[:min(5, len(lost))])
		}
		for k := range loaded.Metadata.Properties {
			if strings.HasPrefix(k, fmt.Sprintf("r%d-", round)) && !acked[k] {
				unacked++ // applied, killed before it answered
			}
		}
	}
	t.Logf("%d acknowledged commits kept across 5 kill -9; %d applied but never answered", len(acked), unacked)
}
