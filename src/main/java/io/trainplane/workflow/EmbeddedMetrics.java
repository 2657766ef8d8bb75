package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Map;

/**
 * Metrics in CloudWatch embedded metric format: one JSON line on standard output, which CloudWatch
 * Logs turns into metrics of namespace {@value #NAMESPACE} (no dimensions; the stack's dashboard
 * reads them). Printed only inside Lambda, so that local runs keep their standard output clean.
 */
public final class EmbeddedMetrics {
    public static final String NAMESPACE = "Trainplane";

    private EmbeddedMetrics() {}

    /** The EMF line for {@code values} (metric name to value, with its CloudWatch unit after a '|', e.g. "Seconds"). */
    public static String line(
            Instant time, Map<String, Double> values, Map<String, String> units, Map<String, String> properties) {
        ObjectNode root = Json.object();
        ObjectNode directive = root.putObject("_aws")
                .put("Timestamp", time.toEpochMilli())
                .putArray("CloudWatchMetrics")
                .addObject()
                .put("Namespace", NAMESPACE);
        directive.putArray("Dimensions").addArray();
        ArrayNode metrics = directive.putArray("Metrics");
        values.forEach((name, value) -> {
            metrics.addObject().put("Name", name).put("Unit", units.getOrDefault(name, "None"));
            root.put(name, value);
        });
        properties.forEach(root::put);
        return Json.write(root);
    }

    /** Prints the line when running in Lambda; does nothing elsewhere. */
    public static void emit(Map<String, Double> values, Map<String, String> units, Map<String, String> properties) {
        if (System.getenv("AWS_LAMBDA_FUNCTION_NAME") != null) {
            emit(System.out, Instant.now(), values, units, properties);
        }
    }

    static void emit(
            PrintStream out,
            Instant time,
            Map<String, Double> values,
            Map<String, String> units,
            Map<String, String> properties) {
        out.println(line(time, values, units, properties));
        out.flush();
    }
}
