"""A table Spark creates with its own Parquet settings (codec, row group
size) gets data files from our streaming sink with those settings, as their
Parquet footers show, and every row reads back.

The settings are ones that differ from the sink's defaults (gzip, 64 KiB row
groups), so that a sink ignoring them fails: its files would be zstd with one
row group per chunk.
"""

import pyarrow.parquet as pq
import pytest

from conftest import BIN, ROOT, URI, run

NS = "settings"
TABLE = f"{NS}.clicks"
ROW_GROUP_BYTES = 64 << 10


@pytest.fixture(scope="session")
def spark_made_table(catalog):
  run("spark-create-settings", [
      f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/run_sql.py",
      f"CREATE NAMESPACE IF NOT EXISTS lakehouse.{NS}",
      f"CREATE TABLE lakehouse.{TABLE} (user_id string, click_count bigint) USING iceberg TBLPROPERTIES ("
      f"'write.parquet.compression-codec'='gzip', 'write.parquet.row-group-size-bytes'='{ROW_GROUP_BYTES}')"], 600)
  run("clicks-settings", [f"{BIN}/clicks", f"--iceberg_table={TABLE}", f"--catalog_uri={URI}",
                          "--interval=50us", "--triggering_frequency_seconds=2", "--duration=6s"], 300)
  return catalog.load_table(TABLE)


def test_rows_landed(spark_made_table):
  assert spark_made_table.scan().to_arrow().num_rows > 10_000


def test_footers_follow_the_tables_settings(spark_made_table):
  files = [task.file.file_path for task in spark_made_table.scan().plan_files()]
  assert files
  most = 0
  for path in files:
    meta = pq.ParquetFile(path.removeprefix("file://")).metadata
    most = max(most, meta.num_row_groups)
    for i in range(meta.num_row_groups):
      rg = meta.row_group(i)
      assert rg.total_byte_size <= ROW_GROUP_BYTES * 5 // 4, f"{path} row group {i}: {rg.total_byte_size} bytes"
      for c in range(rg.num_columns):
        assert rg.column(c).compression == "GZIP", f"{path} row group {i} column {c}: {rg.column(c).compression}"
  assert most > 1, "no file holds more than one row group: the row group size was not applied"
