package icebeam.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;

/**
 * The yardstick of scripts/bench-flink-native.sh: Flink SQL in a local mini
 * cluster writes generated clicks through Iceberg's own Flink sink into a
 * table of an Iceberg REST catalog (icebeam serve).
 *
 * <pre>
 * --uri=URI             the REST catalog
 * --table=NS.NAME       created if missing (default clicks.user_clicks)
 * --parallelism=N       (default 2)
 * --checkpoint=20s      checkpoint interval: the sink commits once per checkpoint
 * --rate=R              rows per second over all subtasks; 0 = flat out
 * --stop_at_ms=T        epoch ms at which the job is stopped with a savepoint
 *                       (whose completion commits what the sink holds)
 * --run_for_ms=D        or: stopped D ms after the job is RUNNING
 * --savepoints=DIR      where that savepoint goes (file:///...)
 * --seq=true            a seq column: row i is (i, user-(i%users), i%100), from
 *                       a DataGeneratorSource, as in icebeam's clicks pipeline;
 *                       else SQL's datagen connector with random user ids
 *                       (0..users-1) and click counts (0..99)
 * --users=N             distinct user ids (default 10)
 * </pre>
 *
 * Prints "flink-native: ..." lines (job id, submitted, finished, with epoch
 * ms) that the script reads.
 */
public final class FlinkNativeBench {
  private FlinkNativeBench() {}

  public static void main(String[] argv) {
    try {
      run(argv);
    } catch (Throwable t) {
      // The mini cluster's threads would keep the JVM (and the job) alive.
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
    String uri = a.get("uri");
    if (uri == null) {
      throw new IllegalArgumentException("--uri is required");
    }
    String[] table = a.getOrDefault("table", "clicks.user_clicks").split("\\.", 2);
    int parallelism = Integer.parseInt(a.getOrDefault("parallelism", "2"));
    String checkpoint = a.getOrDefault("checkpoint", "20s");
    long rate = Long.parseLong(a.getOrDefault("rate", "0"));
    long stopAt = Long.parseLong(a.getOrDefault("stop_at_ms", "0"));
    long runFor = Long.parseLong(a.getOrDefault("run_for_ms", "0"));
    boolean seq = Boolean.parseBoolean(a.getOrDefault("seq", "false"));
    int users = Integer.parseInt(a.getOrDefault("users", "10"));
    String savepoints = a.getOrDefault("savepoints", "file:///tmp/flink-native-savepoints");
    if (stopAt == 0 && runFor == 0) {
      throw new IllegalArgumentException("want --stop_at_ms or --run_for_ms");
    }

    Configuration conf = new Configuration();
    conf.setString("execution.checkpointing.interval", checkpoint);
    conf.setString("parallelism.default", Integer.toString(parallelism));
    conf.setString("taskmanager.numberOfTaskSlots", Integer.toString(parallelism));
    // Hadoop's shutdown hook touches the user classloader after the job: quiet.
    conf.setString("classloader.check-leaked-classloader", "false");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    StreamTableEnvironment t = StreamTableEnvironment.create(env);

    t.executeSql("CREATE CATALOG ice WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='" + uri + "')");
    String ns = "ice.`" + table[0] + "`";
    String name = ns + ".`" + table[1] + "`";
    t.executeSql("CREATE DATABASE IF NOT EXISTS " + ns);
    t.executeSql("CREATE TABLE IF NOT EXISTS " + name + " ("
        + (seq ? "seq BIGINT, " : "") + "user_id STRING, click_count BIGINT)");

    String insert;
    if (seq) {
      // Row i of the stream, as icebeam's clicks pipeline makes it. The
      // sequence is split lazily (NumberSequenceSource): nothing is
      // materialised, unlike datagen's 'sequence' kind. Each subtask holds
      // one contiguous range of it.
      DataGeneratorSource<Row> src = new DataGeneratorSource<>(new Clicks(users, rate), Long.MAX_VALUE,
          RateLimiterStrategy.noOp(),
          Types.ROW_NAMED(new String[] {"seq", "user_id", "click_count"}, Types.LONG, Types.STRING, Types.LONG));
      DataStream<Row> stream = env.fromSource(src, WatermarkStrategy.noWatermarks(), "clicks");
      t.createTemporaryView("gen", t.fromDataStream(stream));
      insert = "INSERT INTO " + name + " SELECT seq, user_id, click_count FROM gen";
    } else {
      // Flat out: a rate no source reaches (datagen's default is 10,000/s).
      t.executeSql("CREATE TEMPORARY TABLE gen (u INT, c BIGINT) WITH ("
          + "'connector'='datagen', 'rows-per-second'='" + (rate > 0 ? rate : Long.MAX_VALUE) + "'"
          + ", 'fields.u.kind'='random', 'fields.u.min'='0', 'fields.u.max'='" + (users - 1) + "'"
          + ", 'fields.c.kind'='random', 'fields.c.min'='0', 'fields.c.max'='99')");
      insert = "INSERT INTO " + name + " SELECT CONCAT('user-', CAST(u AS STRING)), c FROM gen";
    }

    TableResult result = t.executeSql(insert);
    JobClient job = result.getJobClient().orElseThrow(() -> new IllegalStateException("no job client"));
    System.out.println("flink-native: job " + job.getJobID() + " submitted at " + System.currentTimeMillis());
    if (runFor > 0) {
      while (job.getJobStatus().get() != JobStatus.RUNNING) {
        Thread.sleep(20);
      }
      stopAt = System.currentTimeMillis() + runFor;
      System.out.println("flink-native: job running at " + System.currentTimeMillis());
    }
    long wait = stopAt - System.currentTimeMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
    System.out.println("flink-native: stopping with a savepoint at " + System.currentTimeMillis());
    String sp;
    for (int attempt = 1; ; attempt++) {
      try {
        sp = job.stopWithSavepoint(false, savepoints, SavepointFormatType.CANONICAL).get();
        break;
      } catch (ExecutionException e) {
        // E.g. "Not all required tasks are currently running" while the job
        // deploys: a stop due before that waits for it.
        if (attempt == 240) {
          throw e;
        }
        if (attempt == 1) {
          System.out.println("flink-native: stop-with-savepoint failed, retrying every 0.5 s: " + e.getCause());
        }
        Thread.sleep(500);
      }
    }
    System.out.println("flink-native: savepoint " + sp);
    job.getJobExecutionResult().get();
    System.out.println("flink-native: job finished at " + System.currentTimeMillis());
  }

  /** Row i: (i, user-(i % users), i % 100); at most rate rows/s over all subtasks if rate > 0. */
  static final class Clicks implements GeneratorFunction<Long, Row> {
    private final int users;
    private final long rate;
    private transient double nanosPerRow;
    private transient long t0;
    private transient long n;

    Clicks(int users, long rate) {
      this.users = users;
      this.rate = rate;
    }

    @Override
    public void open(SourceReaderContext ctx) {
      nanosPerRow = rate > 0 ? 1e9 * ctx.currentParallelism() / rate : 0;
    }

    @Override
    public Row map(Long i) throws Exception {
      if (nanosPerRow > 0 && (n++ & 1023) == 0) {
        // Paced every 1,024 rows: sleeps while ahead of the rate.
        long now = System.nanoTime();
        if (t0 == 0) {
          t0 = now;
        }
        long ahead = t0 + (long) (n * nanosPerRow) - now;
        if (ahead > 1_000_000) {
          Thread.sleep(ahead / 1_000_000);
        }
      }
      return Row.of(i, "user-" + (i % users), i % 100);
    }
  }
}
