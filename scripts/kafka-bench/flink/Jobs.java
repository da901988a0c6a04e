package icebeam.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/** What the Flink SQL peers of the Kafka benchmarks share: flags, the mini cluster, the job's end. */
final class Jobs {
  private Jobs() {}

  interface Body {
    void run(Map<String, String> flags) throws Exception;
  }

  /** Runs body on argv's --key=value flags; exits 0 after it, 1 on any failure (printed). */
  static void main(String[] argv, Body body) {
    try {
      Map<String, String> a = new HashMap<>();
      for (String s : argv) {
        if (!s.startsWith("--") || !s.contains("=")) {
          throw new IllegalArgumentException("want --key=value, got " + s);
        }
        a.put(s.substring(2, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
      }
      body.run(a);
    } catch (Throwable t) {
      t.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  static String req(Map<String, String> a, String k) {
    String v = a.get(k);
    if (v == null) {
      throw new IllegalArgumentException("--" + k + " is required");
    }
    return v;
  }

  /**
   * A table environment on a local mini cluster of --parallelism slots (default 2), a
   * checkpoint every --checkpoint (default 20s), with conf's settings besides.
   */
  static StreamTableEnvironment tableEnv(Map<String, String> a, Configuration conf) {
    String parallelism = a.getOrDefault("parallelism", "2");
    conf.setString("execution.checkpointing.interval", a.getOrDefault("checkpoint", "20s"));
    conf.setString("parallelism.default", parallelism);
    conf.setString("taskmanager.numberOfTaskSlots", parallelism);
    conf.setString("classloader.check-leaked-classloader", "false");
    return StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment(conf));
  }

  /** Waits for the job of result to end, printing "NAME: ..." lines with epoch ms. */
  static void await(TableResult result, String name) throws Exception {
    JobClient job = result.getJobClient().orElseThrow(() -> new IllegalStateException("no job client"));
    System.out.println(name + ": job " + job.getJobID() + " submitted at " + System.currentTimeMillis());
    job.getJobExecutionResult().get();
    System.out.println(name + ": job finished at " + System.currentTimeMillis());
  }
}
