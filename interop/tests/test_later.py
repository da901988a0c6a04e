"""Hooks for the interoperability checks still to come; each skips with what it will do."""

import pytest


def test_streaming_clicks_tables_readable_by_spark_and_pyiceberg():
  # TODO(clicks): run ./pipelines/clicks for a bounded stream (prism, synthetic
  # clock) against the catalog, then read every clicks table with pyiceberg,
  # Spark (add it to spark_reads' list) and goscan, and compare each with
  # counts computed from the generated events; check one snapshot per trigger.
  pytest.skip("TODO: streaming clicks tables are not in the interop suite yet")


def test_taxi_through_nessie():
  # TODO(nessie): have interop/run.sh start nessie-quarkus (runner jar from
  # Maven Central into .cache/interop/, java -jar, loopback port) with an
  # object store it accepts (Nessie's REST needs S3/GCS, not file://: e.g.
  # fake-gcs-server), run the taxi pipeline with --catalog_uri=<nessie>/iceberg
  # and the seed job with the same URI, then reuse tables.diff exactly as
  # test_spark_parity does.
  pytest.skip("TODO: Nessie is not in the interop suite yet")
