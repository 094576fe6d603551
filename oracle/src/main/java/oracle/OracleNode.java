package oracle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.ExtensiblePlugin;
import org.opensearch.plugins.Plugin;

/**
 * A real OpenSearch node in a plain JVM, its modules loaded as classpath plugins.
 *
 * <p>We subclass {@link Node} instead of going through {@code bin/opensearch} because the
 * distribution's bootstrap refuses to run as root and Maven Central has no full distribution: this
 * skips bootstrap checks and the security manager, neither of which changes REST behaviour.
 *
 * <p>Usage: {@code OracleNode <home> [-E key=value]...}. Every node setting comes from oracle.js.
 */
public final class OracleNode extends Node {
  /** The modules of a real 2.19 distribution that are on Maven Central (2.x class names). */
  private static final String[] MODULES = {
    "org.opensearch.transport.Netty4Plugin",
    "org.opensearch.painless.PainlessPlugin",
    "org.opensearch.analysis.common.CommonAnalysisPlugin",
    "org.opensearch.script.mustache.MustachePlugin",
    "org.opensearch.index.reindex.ReindexPlugin",
    "org.opensearch.index.mapper.MapperExtrasPlugin",
    "org.opensearch.join.ParentJoinPlugin",
    "org.opensearch.percolator.PercolatorPlugin",
    "org.opensearch.index.rankeval.RankEvalPlugin",
    "org.opensearch.search.aggregations.matrix.MatrixAggregationPlugin",
    "org.opensearch.ingest.common.IngestCommonPlugin",
    "org.opensearch.geo.GeoModulePlugin",
    "org.opensearch.script.expression.ExpressionPlugin",
    "org.opensearch.plugin.repository.url.URLRepositoryPlugin",
    "org.opensearch.ingest.useragent.IngestUserAgentPlugin",
  };

  private OracleNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
    // true = forbid private index settings, as the distribution's Bootstrap does.
    super(env, plugins, true);
  }

  /** The distribution wires the node id into log4j here; our logging has no node-name pattern. */
  @Override
  protected void configureNodeAndClusterIdStateListener(ClusterService clusterService) {}

  /**
   * Classpath plugins never get {@code loadExtensions} called (only plugin directories do), so
   * painless would lack the allowlists that analysis-common (condition / predicate_token_filter
   * scripts) and ingest-common (processor helpers) contribute. PainlessPlugin keeps its allowlists
   * in a static map, so feeding them through a throwaway instance before the node starts reaches
   * the instance the node creates.
   */
  private static void loadPainlessExtensions() {
    new PainlessPlugin()
        .loadExtensions(
            new ExtensiblePlugin.ExtensionLoader() {
              @Override
              public <T> List<T> loadExtensions(Class<T> type) {
                List<T> found = new ArrayList<>();
                ServiceLoader.load(type, OracleNode.class.getClassLoader()).forEach(found::add);
                return found;
              }
            });
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: OracleNode <home> [-E key=value]...");
    }
    Path home = Paths.get(args[0]).toAbsolutePath();
    Settings.Builder settings = Settings.builder().put("path.home", home.toString());
    for (int i = 1; i < args.length; i++) {
      if (!args[i].equals("-E") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected -E key=value, got [" + args[i] + "]");
      }
      String kv = args[++i];
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected key=value, got [" + kv + "]");
      }
      settings.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    // Node refuses to start without these directories.
    for (String dir : new String[] {"config", "modules", "plugins"}) {
      Files.createDirectories(home.resolve(dir));
    }

    loadPainlessExtensions();
    List<Class<? extends Plugin>> plugins = new ArrayList<>();
    for (String className : MODULES) {
      plugins.add(Class.forName(className).asSubclass(Plugin.class));
    }
    Environment env =
        InternalSettingsPreparer.prepareEnvironment(
            settings.build(), Collections.emptyMap(), home.resolve("config"), () -> "oracle");
    Node node = new OracleNode(env, plugins);

    // SIGTERM from `npm run oracle -- stop` runs this: close the node so shards are flushed and the
    // data directory is released before the JVM exits, as the distribution's Bootstrap does.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    node.close();
                    node.awaitClose(20, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    e.printStackTrace();
                  }
                },
                "oracle-shutdown"));
    node.start();
    System.out.println("ORACLE READY");
    Thread.currentThread().join();
  }
}
