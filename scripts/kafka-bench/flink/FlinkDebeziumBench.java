package icebeam.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

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
    try {
      run(argv);
    } catch (Throwable t) {
      t.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(String[] argv) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (String s : argv) {
      if (!s.startsWith("--") || !s.contains("=")) {
        throw new IllegalArgumentException("want --key=value, got " + s);
      }
      a.put(s.substring(2, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
    }
    String uri = req(a, "uri");
    String ns = "ice.`" + req(a, "namespace") + "`";
    String bootstrap = req(a, "bootstrap");
    String group = a.getOrDefault("group", "flink-debezium-bench");
    int parallelism = Integer.parseInt(a.getOrDefault("parallelism", "2"));
    String checkpoint = a.getOrDefault("checkpoint", "20s");
    String checkpointDir = req(a, "checkpoint_dir");
    String start = a.getOrDefault("start", "earliest");
    boolean bounded = Boolean.parseBoolean(a.getOrDefault("bounded", "true"));

    Configuration conf = new Configuration();
    conf.setString("execution.checkpointing.interval", checkpoint);
    conf.setString("state.checkpoint-storage", "filesystem");
    conf.setString("state.checkpoints.dir", "file://" + new java.io.File(checkpointDir).getAbsolutePath());
    conf.setString("parallelism.default", Integer.toString(parallelism));
    conf.setString("taskmanager.numberOfTaskSlots", Integer.toString(parallelism));
    conf.setString("classloader.check-leaked-classloader", "false");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);

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
    TableResult result = set.execute();
    JobClient job = result.getJobClient().orElseThrow(() -> new IllegalStateException("no job client"));
    System.out.println("flink-debezium: job " + job.getJobID() + " submitted at " + System.currentTimeMillis());
    job.getJobExecutionResult().get();
    System.out.println("flink-debezium: job finished at " + System.currentTimeMillis());
  }

  private static String req(Map<String, String> a, String k) {
    String v = a.get(k);
    if (v == null) {
      throw new IllegalArgumentException("--" + k + " is required");
    }
    return v;
  }
}
