package icebeam.bench;

import java.io.File;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import static icebeam.bench.Jobs.req;

/**
 * The Flink SQL peer of scripts/bench-debezium.sh, as Flink users land a
 * Debezium change log in Iceberg: per source table a `kafka` table in
 * format debezium-json (schema envelope included, as the JSON converter with
 * schemas writes it) INSERT INTO an Iceberg upsert table (primary key NOT
 * ENFORCED, format v2, write.upsert.enabled: equality deletes) of a REST
 * catalog, all the INSERTs in one statement set (one job), committed once
 * per checkpoint.
 *
 * <pre>
 * --uri=URI              the REST catalog
 * --namespace=NS         the Iceberg tables' namespace (created if missing)
 * --bootstrap=HOST:PORT  the broker
 * --tables=T1,T2         the tables; for each:
 * --topic.T=TOPIC        its Debezium topic
 * --columns.T=SQL        its columns as Flink SQL, e.g. "aid INT, abalance INT"
 * --key.T=C1,C2          its primary key
 * --group=G              the consumer group (offsets are Flink's own, in its checkpoints)
 * --parallelism=N        (default 2)
 * --checkpoint=20s       checkpoint interval
 * --checkpoint_dir=DIR   where checkpoints go (the job manager's memory holds 5 MB at
 *                        most, less than the upsert state of a large table)
 * --start=earliest       or latest: where each topic is read from
 * --bounded=true         stop at the end offsets found at start: the job ends, and the
 *                        sink commits what it holds at the end of input; false: runs
 *                        until killed
 * </pre>
 *
 * Prints "flink-debezium: ..." lines with epoch ms.
 */
public final class FlinkDebeziumBench {
  private FlinkDebeziumBench() {}

  public static void main(String[] argv) {
    Jobs.main(argv, FlinkDebeziumBench::run);
  }

  private static void run(Map<String, String> a) throws Exception {
    String uri = req(a, "uri");
    String ns = "ice.`" + req(a, "namespace") + "`";
    String bootstrap = req(a, "bootstrap");
    String group = a.getOrDefault("group", "flink-debezium-bench");
    String start = a.getOrDefault("start", "earliest");
    boolean bounded = Boolean.parseBoolean(a.getOrDefault("bounded", "true"));
    Configuration conf = new Configuration();
    conf.setString("state.checkpoint-storage", "filesystem");
    conf.setString("state.checkpoints.dir", "file://" + new File(req(a, "checkpoint_dir")).getAbsolutePath());
    StreamTableEnvironment t = Jobs.tableEnv(a, conf);

    t.executeSql("CREATE CATALOG ice WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='" + uri + "')");
    t.executeSql("CREATE DATABASE IF NOT EXISTS " + ns);
    StatementSet set = t.createStatementSet();
    for (String tb : req(a, "tables").split(",")) {
      // The key on the source table too, as Flink's documentation declares
      // it for debezium-json: without it the planner cannot tell that the
      // changes are keyed as the sink is, and puts a SinkUpsertMaterializer
      // (all rows in state) before the sink.
      String cols = req(a, "columns." + tb) + ", PRIMARY KEY (" + req(a, "key." + tb) + ") NOT ENFORCED";
      String name = ns + ".`" + tb + "`";
      t.executeSql("CREATE TABLE IF NOT EXISTS " + name + " (" + cols
          + ") WITH ('format-version'='2', 'write.upsert.enabled'='true')");
      String src = "src_" + tb;
      t.executeSql("CREATE TEMPORARY TABLE " + src + " (" + cols + ") WITH ("
          + "'connector'='kafka', 'topic'='" + req(a, "topic." + tb) + "'"
          + ", 'properties.bootstrap.servers'='" + bootstrap + "'"
          + ", 'properties.group.id'='" + group + "'"
          + ", 'properties.client.id.prefix'='" + group + "-" + tb + "'"
          + ", 'scan.startup.mode'='" + start + "-offset'"
          + (bounded ? ", 'scan.bounded.mode'='latest-offset'" : "")
          + ", 'format'='debezium-json', 'debezium-json.schema-include'='true')");
      set.addInsertSql("INSERT INTO " + name + " SELECT * FROM " + src);
    }
    Jobs.await(set.execute(), "flink-debezium");
  }
}
