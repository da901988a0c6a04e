package kafkaio_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx"
	pipepb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/pipeline_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"google.golang.org/protobuf/proto"

	"github.com/icebeam/icebeam/catalog"
	"github.com/icebeam/icebeam/internal/kafkatest"
	"github.com/icebeam/icebeam/transforms/kafkaio"
)

// passwordEnv holds the SASL password on the "workers" (prism runs them in
// this process), so that only its name travels with the job.
const passwordEnv = "KAFKAIO_TEST_SASL_PASSWORD"

var mechanisms = []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}

// TestReadSASL reads through the broker's SASL_PLAINTEXT listener with each
// mechanism, bounded and unbounded, and fails fast, naming the mechanism,
// when the password is wrong.
func TestReadSASL(t *testing.T) {
	b := kafkatest.StartWith(t, kafkatest.Options{SASL: true})
	topic := "sasl"
	b.CreateTopic(t, topic, 2)
	want := produce(t, b, topic, "sasl", 500)
	sasl := func(mech string) kafkaio.ReadConfig {
		return kafkaio.ReadConfig{
			BootstrapServers: []string{b.SASLBootstrap()}, Topics: []string{topic},
			Security: kafkaio.Security{SASLMechanism: mech, Username: b.SASLUser, Password: "env:" + passwordEnv},
		}
	}

	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			t.Setenv(passwordEnv, b.SASLPassword)
			cfg := sasl(mech)
			cfg.Bounded = true
			p, s := beam.NewPipelineWithRoot()
			collect(s, t.Name(), kafkaio.Read(s, cfg))
			if err := ptest.Run(p); err != nil {
				t.Fatal(err)
			}
			checkOnce(t, got(t.Name()), want)
		})
	}

	for _, mech := range mechanisms {
		for _, bounded := range []bool{true, false} {
			t.Run(fmt.Sprintf("wrong password/%s/bounded=%v", mech, bounded), func(t *testing.T) {
				wrong := "not-" + b.SASLPassword
				t.Setenv(passwordEnv, wrong)
				cfg := sasl(mech)
				cfg.Bounded = bounded
				p, s := beam.NewPipelineWithRoot()
				collect(s, t.Name(), kafkaio.Read(s, cfg))
				start := time.Now()
				done := make(chan error, 1)
				go func() { done <- ptest.Run(p) }()
				var err error
				select {
				case err = <-done:
				case <-time.After(time.Minute):
					t.Fatal("a wrong password did not fail the job within a minute")
				}
				if err == nil {
					t.Fatal("a wrong password did not fail the job")
				}
				msg := err.Error()
				t.Logf("failed after %v", time.Since(start).Round(time.Millisecond))
				if !strings.Contains(msg, "SASL "+mech) || !strings.Contains(msg, b.SASLUser) {
					t.Errorf("the error does not name the mechanism SASL %s and user %s: %v", mech, b.SASLUser, msg)
				}
				if strings.Contains(msg, wrong) || strings.Contains(msg, b.SASLPassword) {
					t.Errorf("the error holds the password: %v", msg)
				}
			})
		}
	}
}

// TestSecurityRedacted checks where a SASL password goes: a literal never
// into a ReadConfig's printed or logged forms; with an "env:" reference,
// not into the job either, whose graph holds the name alone.
func TestSecurityRedacted(t *testing.T) {
	const secret = "s3cr3t-sasl-password"
	cfg := kafkaio.ReadConfig{
		BootstrapServers: []string{"127.0.0.1:9"}, Topics: []string{"t"},
		Security: kafkaio.Security{SASLMechanism: "SCRAM-SHA-512", Username: "alice", Password: catalog.Secret(secret)},
	}
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("read", "config", cfg, "security", cfg.Security)
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("read", "config", cfg, "security", cfg.Security)
	for _, form := range []string{
		fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg),
		fmt.Sprint(cfg.Security), fmt.Sprintf("%+v", cfg.Security), fmt.Sprintf("%#v", cfg.Security),
		logged.String(),
	} {
		if strings.Contains(form, secret) {
			t.Errorf("the password is printed: %s", form)
		}
		if !strings.Contains(form, "[redacted]") {
			t.Errorf("no [redacted] in %s", form)
		}
	}

	t.Setenv(passwordEnv, secret)
	cfg.Security.Password = "env:" + passwordEnv
	p, s := beam.NewPipelineWithRoot()
	kafkaio.Read(s, cfg)
	kafkaio.Read(s, kafkaio.ReadConfig{BootstrapServers: cfg.BootstrapServers, Topics: cfg.Topics, Security: cfg.Security, Bounded: true})
	edges, _, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	job, err := graphx.Marshal(edges, &graphx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The DoFns, their config included, are base64 in their ParDos'
	// payloads: look inside those too.
	raw, err := proto.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range job.GetComponents().GetTransforms() {
		var pardo pipepb.ParDoPayload
		if tr.GetSpec().GetUrn() != "beam:transform:pardo:v1" || proto.Unmarshal(tr.GetSpec().GetPayload(), &pardo) != nil {
			continue
		}
		fn, err := base64.StdEncoding.DecodeString(string(pardo.GetDoFn().GetPayload()))
		if err != nil {
			t.Fatalf("%s: %v", tr.GetUniqueName(), err)
		}
		raw = append(raw, fn...)
	}
	if bytes.Contains(raw, []byte(secret)) {
		t.Error("the job's graph holds the password")
	}
	if !bytes.Contains(raw, []byte("env:"+passwordEnv)) {
		t.Errorf("the job's graph does not hold the reference env:%s", passwordEnv)
	}
	if s := fmt.Sprintf("%+v", cfg); !strings.Contains(s, "env:"+passwordEnv) {
		t.Errorf("a reference is not printed as it is: %s", s)
	}
}
