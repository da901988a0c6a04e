# Builds a Dataflow Flex Template image for one pipeline (see docs/dataflow.md):
#
#   docker build --build-arg PIPELINE=taxi   --build-arg VERSION=$(git describe --always --dirty) \
#     -t REGION-docker.pkg.dev/PROJECT/icebeam/taxi:TAG .
#   docker build --build-arg PIPELINE=clicks --build-arg VERSION=$(git describe --always --dirty) \
#     -t REGION-docker.pkg.dev/PROJECT/icebeam/clicks:TAG .
#
# PIPELINE=maintain (table maintenance), PIPELINE=clicks_per_minute, PIPELINE=cdc and PIPELINE=owners build the same way.
#
# Stage 1 compiles a static linux/amd64 binary; pipelines/*/main_test.go runs
# this stage's `go build` line as written, so keep it on one RUN. Symbols are
# kept (no -s): Beam looks functions up by symbol at run time. Stage 2 is
# Google's Go template launcher, which runs the binary to submit the job; the
# binary stages itself as the Dataflow worker (internal/launch), so the image
# needs no Go toolchain.
ARG GO_VERSION=1.26.8
# Google documents the launcher base by its :latest tag; for reproducible
# builds pass LAUNCHER_IMAGE pinned to a digest (...@sha256:...).
ARG LAUNCHER_IMAGE=gcr.io/dataflow-templates-base/go-template-launcher-base:latest

FROM golang:${GO_VERSION} AS build
ARG PIPELINE=taxi
ARG VERSION=dev
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces a module with a patched copy (third_party/README.md).
COPY third_party/substrait-go/go.mod third_party/substrait-go/go.sum third_party/substrait-go/
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -ldflags="-X main.version=${VERSION}" -o /out/pipeline ./pipelines/${PIPELINE}

FROM ${LAUNCHER_IMAGE}
COPY --from=build /out/pipeline /template/pipeline
ENV FLEX_TEMPLATE_GO_BINARY=/template/pipeline
ENTRYPOINT ["/opt/google/dataflow/go_template_launcher"]
