// Command fakegcs is the interop suite's object store for Nessie: an
// in-process fake-gcs-server on a loopback port with the named buckets, so
// Nessie's Iceberg REST (which refuses file:// warehouses) and our sink
// share one Cloud Storage emulator. It runs until killed.
//
//	fakegcs --addr=127.0.0.1:4443 --bucket=warehouse
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/fsouza/fake-gcs-server/fakestorage"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback host:port to listen on")
	bucket := flag.String("bucket", "warehouse", "bucket to create")
	flag.Parse()
	host, portStr, err := net.SplitHostPort(*addr)
	if err != nil {
		log.Fatalf("fakegcs: --addr=%q: %v", *addr, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		log.Fatalf("fakegcs: --addr=%q: bad port: %v", *addr, err)
	}
	if port == 0 {
		// fake-gcs-server reports the port it was given, not the one it
		// got: pick a free one here.
		l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			log.Fatalf("fakegcs: %v", err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		Scheme: "http",
		Host:   host,
		Port:   uint16(port),
		// Resumable-upload Location headers must name the address clients use.
		ExternalURL: fmt.Sprintf("http://%s:%d", host, port),
		PublicHost:  fmt.Sprintf("%s:%d", host, port),
		Writer:      io.Discard,
		NoListener:  true,
	})
	if err != nil {
		log.Fatalf("fakegcs: starting on %s:%d: %v", host, port, err)
	}
	defer srv.Stop()
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: *bucket})
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		log.Fatalf("fakegcs: %v", err)
	}
	go http.Serve(l, srv.HTTPHandler())
	fmt.Printf("http://%s:%d\n", host, port)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
}
