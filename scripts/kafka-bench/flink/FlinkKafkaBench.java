package icebeam.bench;

import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import static icebeam.bench.Jobs.req;

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
    Jobs.main(argv, FlinkKafkaBench::run);
  }

  private static void run(Map<String, String> a) throws Exception {
    String uri = req(a, "uri");
    String[] table = req(a, "table").split("\\.", 2);
    String bootstrap = req(a, "bootstrap");
    String topic = req(a, "topic");
    String group = a.getOrDefault("group", "flink-kafka-bench");
    boolean bounded = Boolean.parseBoolean(a.getOrDefault("bounded", "true"));
    StreamTableEnvironment t = Jobs.tableEnv(a, new Configuration());

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
    Jobs.await(t.executeSql("INSERT INTO " + name + " SELECT * FROM src"), "flink-kafka");
  }
}
