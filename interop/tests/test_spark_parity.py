"""Check a and b: the seed's Spark job and our taxi pipeline, on the same input
file and the same REST catalog, write the same table; and each engine reads
the other's table (Spark reads ours, iceberg-go reads Spark's).

Spark is the reference: every double must match it bit for bit. A mismatch
lists each differing row and column with both values and their difference.
"""

import pytest

import tables
from conftest import go_read, valid_trips


def assert_no_diff(problems, what):
  if problems:
    pytest.fail(f"{what}: {len(problems)} difference(s)\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture(scope="module")
def spark_py(catalog, spark_table):
  return tables.from_pyiceberg(catalog, spark_table)


@pytest.fixture(scope="module")
def go_py(catalog, go_table):
  return tables.from_pyiceberg(catalog, go_table)


def test_input_has_awkward_rows_and_spark_filters_them(taxi_input, spark_py):
  # The comparison is only worth something if the filters and odd dates matter.
  trips = sum(r["total_trips"] for r in spark_py.rows.values())
  assert trips == valid_trips(taxi_input), "Spark's total_trips should count exactly the rows the seed's filter keeps"
  assert any(k[0] and k[0] < "2008-01-01" for k in spark_py.rows), "expected out-of-month pickups (2002) in the input"
  assert len(spark_py.rows) > 100


def test_schema_names_and_types_match_spark(spark_py, go_py):
  assert_no_diff(tables.schema_diff(spark_py, go_py, nullability=False), "column names/types differ")


def test_schema_nullability_matches_spark(spark_py, go_py):
  assert_no_diff(tables.schema_diff(spark_py, go_py, nullability=True), "required/optional flags differ")


def test_same_rows_read_by_pyiceberg(spark_py, go_py):
  assert_no_diff(tables.diff(spark_py, go_py), "our table differs from Spark's (both read by pyiceberg)")


def test_same_rows_read_by_spark(spark_reads, spark_table, go_table):
  # Also check b, first half: Spark reads the table our pipeline committed.
  assert_no_diff(tables.diff(spark_reads[spark_table], spark_reads[go_table]),
                 "our table differs from Spark's (both read by Spark)")


def test_spark_reads_our_table_as_pyiceberg_does(go_py, spark_reads, go_table):
  assert_no_diff(tables.schema_diff(go_py, spark_reads[go_table], nullability=True), "schemas differ")
  assert_no_diff(tables.diff(go_py, spark_reads[go_table]), "Spark and pyiceberg read our table differently")


def test_iceberg_go_reads_spark_table(spark_py, spark_table):
  # Check b, second half: iceberg-go scans the table Spark committed.
  got = go_read(spark_table)
  assert_no_diff(tables.schema_diff(spark_py, got, nullability=True), "schemas differ")
  assert_no_diff(tables.diff(spark_py, got), "iceberg-go and pyiceberg read Spark's table differently")
