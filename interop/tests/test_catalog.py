"""The catalog as other engines use it, through `icebeam serve`: Spark's
CTAS and RTAS into partitioned tables (Spark stages the create and commits
it with the data in one transaction), Spark's views, replaced and
versioned, and pyiceberg's create_table_transaction on a partitioned table;
each read back by the other engine.

The expected rows are the inputs (or a plain Python filter of them). A table
created in a transaction must start from nothing: its only partition spec is
the one the engine asked for, with id 0, and every data file written in the
same transaction names that spec and holds only rows of its partition, with
the partition computed here from the file's own rows.
"""

import datetime
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform
from pyiceberg.types import DoubleType, LongType, NestedField, StringType, TimestamptzType

from conftest import ROOT, URI, WORK, run

NS = "conformance"
EPOCH = datetime.datetime(1970, 1, 1)
ROWS = [{"id": i, "ts": f"2024-0{1 + i % 3}-{10 + i % 7}T{i % 24:02d}:30:00",
         "category": "abc"[i % 3], "amount": round(i * 1.5, 2)} for i in range(1, 41)]


def days(ts):
  return (datetime.datetime.fromisoformat(ts) - EPOCH).days


def our_rows(tbl):
  """A table's rows as pyiceberg reads them, shaped like ROWS."""
  out = []
  for r in tbl.scan().to_arrow().to_pylist():
    r = dict(r)
    if "ts" in r:
      r["ts"] = r["ts"].astimezone(datetime.timezone.utc).replace(tzinfo=None).isoformat()
    out.append(r)
  return sorted(out, key=lambda r: r["id"])


def data_files(tbl):
  return [task.file for task in tbl.scan().plan_files()]


def assert_files_use_the_spec(tbl, partition_of):
  """Every data file names the table's only spec, id 0, and holds only rows
  whose partition (partition_of(row), computed here) is the file's."""
  assert [s.spec_id for s in tbl.specs().values()] == [0], f"specs: {tbl.specs()}"
  files = data_files(tbl)
  assert files, "no data files"
  for f in files:
    assert f.spec_id == tbl.spec().spec_id == 0, f"{f.file_path} has spec {f.spec_id}"
    want = tuple(f.partition[i] for i in range(len(tbl.spec().fields)))
    for row in pq.read_table(f.file_path.removeprefix("file://")).to_pylist():
      assert partition_of(row) == want, f"{f.file_path}: row {row} is not in partition {want}"


@pytest.fixture(scope="session")
def pyiceberg_tx(catalog):
  """pyiceberg's create_table_transaction: a table partitioned by category,
  created with its first rows in one commit."""
  catalog.create_namespace_if_not_exists(NS)
  schema = Schema(NestedField(1, "id", LongType(), required=False),
                  NestedField(2, "ts", TimestamptzType(), required=False),
                  NestedField(3, "category", StringType(), required=False),
                  NestedField(4, "amount", DoubleType(), required=False))
  spec = PartitionSpec(PartitionField(source_id=3, field_id=1000, transform=IdentityTransform(), name="category"))
  data = pa.table({
      "id": pa.array([r["id"] for r in ROWS], pa.int64()),
      "ts": pa.array([datetime.datetime.fromisoformat(r["ts"]).replace(tzinfo=datetime.timezone.utc) for r in ROWS],
                     pa.timestamp("us", tz="UTC")),
      "category": pa.array([r["category"] for r in ROWS], pa.string()),
      "amount": pa.array([r["amount"] for r in ROWS], pa.float64()),
  })
  with catalog.create_table_transaction(f"{NS}.pytx", schema=schema, partition_spec=spec) as tx:
    tx.append(data)
  return f"{NS}.pytx"


@pytest.fixture(scope="session")
def spark_checks(pyiceberg_tx):
  rows_path = os.path.join(WORK, "catalog-rows.json")
  out = os.path.join(WORK, "catalog-spark.json")
  with open(rows_path, "w") as f:
    json.dump(ROWS, f)
  run("spark-catalog_checks", [f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/catalog_checks.py",
                               "lakehouse", NS, rows_path, out, "pytx"], 600)
  with open(out) as f:
    return json.load(f)


def test_spark_ctas_reads_back(catalog, spark_checks):
  assert spark_checks["ctas"] == ROWS
  assert our_rows(catalog.load_table(f"{NS}.ctas")) == ROWS


def test_spark_ctas_files_use_the_partitioned_spec(catalog, spark_checks):
  tbl = catalog.load_table(f"{NS}.ctas")
  assert [(str(f.transform), tbl.schema().find_column_name(f.source_id)) for f in tbl.spec().fields] == \
      [("bucket[4]", "id"), ("day", "ts")]
  # The bucket is Iceberg's murmur3 hash, which pyiceberg's transform computes.
  bucket = BucketTransform(4).transform(LongType())
  assert_files_use_the_spec(tbl, lambda r: (bucket(r["id"]), days(r["ts"].replace(tzinfo=None).isoformat())))


def test_spark_rtas_replaces_rows_and_spec(catalog, spark_checks):
  want = [r for r in ROWS if r["amount"] > 10]
  assert spark_checks["rtas"] == want
  tbl = catalog.load_table(f"{NS}.rtas")
  assert our_rows(tbl) == want
  assert [str(f.transform) for f in tbl.spec().fields] == ["day"]
  for f in data_files(tbl):
    assert f.spec_id == tbl.spec().spec_id, f"{f.file_path} has spec {f.spec_id}, the table's is {tbl.spec().spec_id}"


def test_spark_view_is_replaced_and_versioned(catalog, spark_checks):
  assert spark_checks["view"] == [{"id": r["id"], "amount": r["amount"]} for r in ROWS if r["amount"] > 20]
  assert catalog.view_exists(f"{NS}.big")
  assert (NS, "big") in catalog.list_views(NS)
  view = catalog.load_view(f"{NS}.big")
  meta = view.metadata
  assert [v.version_id for v in meta.versions] == [1, 2]
  assert meta.current_version_id == 2
  current = next(v for v in meta.versions if v.version_id == 2)
  assert any("amount > 20" in r.root.sql for r in current.representations), current.representations


def test_pyiceberg_create_transaction_files_use_the_spec(catalog, pyiceberg_tx, spark_checks):
  tbl = catalog.load_table(pyiceberg_tx)
  assert our_rows(tbl) == ROWS
  assert spark_checks["pytx"] == ROWS
  assert_files_use_the_spec(tbl, lambda r: (r["category"],))
