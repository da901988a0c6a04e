package icebeam.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * The Flink SQL peer of scripts/bench-kafka.sh: in a local mini cluster, a
 * `kafka` source table (format json) INSERT INTO an Iceberg table of a REST
 * catalog (icebeam serve) through Iceberg's own Flink sink, which commits once
 * per checkpoint.
 *
 * <pre>
 * --uri=URI              the REST catalog
 * --table=NS.NAME        the Iceberg table (created if missing, with the columns below)
 * --bootstrap=HOST:PORT  the broker
 * --topic=T              read from its earliest offsets
 * --group=G              the consumer group (offsets are Flink's own, in its checkpoints)
 * --parallelism=N        (default 2)
 * --checkpoint=20s       checkpoint interval
 * --bounded=true         stop at the end offsets found at start ('scan.bounded.mode'
 *                        = 'latest-offset'): the job ends, and the sink commits what
 *                        it holds at the end of input; false: runs until killed
 * </pre>
 *
 * Prints "flink-kafka: ..." lines with epoch ms.
 */
public final class FlinkKafkaBench {
  private FlinkKafkaBench() {}

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
    String[] table = req(a, "table").split("\\.", 2);
    String bootstrap = req(a, "bootstrap");
    String topic = req(a, "topic");
    String group = a.getOrDefault("group", "flink-kafka-bench");
    int parallelism = Integer.parseInt(a.getOrDefault("parallelism", "2"));
    String checkpoint = a.getOrDefault("checkpoint", "20s");
    boolean bounded = Boolean.parseBoolean(a.getOrDefault("bounded", "true"));

    Configuration conf = new Configuration();
    conf.setString("execution.checkpointing.interval", checkpoint);
    conf.setString("parallelism.default", Integer.toString(parallelism));
    conf.setString("taskmanager.numberOfTaskSlots", Integer.toString(parallelism));
    conf.setString("classloader.check-leaked-classloader", "false");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);

    String cols = "event_id BIGINT, user_id STRING, url STRING, ts BIGINT, `value` DOUBLE, flag BOOLEAN";
    t.executeSql("CREATE CATALOG ice WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='" + uri + "')");
    String ns = "ice.`" + table[0] + "`";
    String name = ns + ".`" + table[1] + "`";
    t.executeSql("CREATE DATABASE IF NOT EXISTS " + ns);
    t.executeSql("CREATE TABLE IF NOT EXISTS " + name + " (" + cols + ")");
    t.executeSql("CREATE TEMPORARY TABLE src (" + cols + ") WITH ("
        + "'connector'='kafka', 'topic'='" + topic + "'"
        + ", 'properties.bootstrap.servers'='" + bootstrap + "'"
        + ", 'properties.group.id'='" + group + "'"
        + ", 'scan.startup.mode'='earliest-offset'"
        + (bounded ? ", 'scan.bounded.mode'='latest-offset'" : "")
        + ", 'format'='json')");

    TableResult result = t.executeSql("INSERT INTO " + name + " SELECT * FROM src");
    JobClient job = result.getJobClient().orElseThrow(() -> new IllegalStateException("no job client"));
    System.out.println("flink-kafka: job " + job.getJobID() + " submitted at " + System.currentTimeMillis());
    job.getJobExecutionResult().get();
    System.out.println("flink-kafka: job finished at " + System.currentTimeMillis());
  }

  private static String req(Map<String, String> a, String k) {
    String v = a.get(k);
    if (v == null) {
      throw new IllegalArgumentException("--" + k + " is required");
    }
    return v;
  }
}
