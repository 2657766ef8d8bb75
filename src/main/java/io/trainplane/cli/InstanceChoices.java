package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.spec.Accelerators;
import io.trainplane.spec.InstanceShapes;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@code plan} shows of a node group named by its GPUs ({@code accelerator: "A100:8"}): every
 * instance type with those GPUs the Region sells, cheapest first at its prices (unpriced ones
 * last), as SkyPilot's {@code show-gpus} lists them; the run takes the smallest ({@link Accelerators}).
 */
record InstanceChoices(Accelerators.Request request, String region, List<Choice> choices, String chosen) {
    record Choice(InstanceShapes.Shape shape, Double onDemandPerHour, Double spotPerHour) {}

    /** The choices of the spec's {@code accelerator}, if it names one. */
    static Optional<InstanceChoices> of(JsonNode document, String chosen, RunPrices prices) {
        JsonNode accelerator = document.at("/cluster/nodeGroup/accelerator");
        Optional<Accelerators.Request> request =
                accelerator.isTextual() ? Accelerators.Request.parse(accelerator.asText()) : Optional.empty();
        return request.map(r -> new InstanceChoices(
                r,
                prices.region(),
                Accelerators.fitting(r, prices.region()).stream()
                        .map(s -> new Choice(s, prices.instancePerHour(s.name()), prices.spotPerHour(s.name())))
                        .sorted(Comparator.comparing(
                                Choice::onDemandPerHour, Comparator.nullsLast(Comparator.naturalOrder())))
                        .toList(),
                chosen));
    }

    void print(PrintWriter out) {
        out.println("# Instance types with " + request + " sold in " + region + ", cheapest first (EC2 catalog of "
                + InstanceShapes.date() + "):");
        for (Choice c : choices) {
            out.println(String.format(
                    Locale.ROOT,
                    "#   %-18s %s, on demand %s, spot %s%s",
                    c.shape().name(),
                    c.shape().describe().substring(c.shape().name().length() + 2),
                    perHour(c.onDemandPerHour()),
                    perHour(c.spotPerHour()),
                    c.shape().name().equals(chosen) ? "  <- the run's" : ""));
        }
    }

    ArrayNode toJson() {
        ArrayNode list = Json.array();
        for (Choice c : choices) {
            var n = list.addObject()
                    .put("instanceType", c.shape().name())
                    .put("describe", c.shape().describe())
                    .put("chosen", c.shape().name().equals(chosen));
            n.set("onDemandPerHour", Json.NODES.numberNode(c.onDemandPerHour()));
            n.set("spotPerHour", Json.NODES.numberNode(c.spotPerHour()));
        }
        return list;
    }

    private static String perHour(Double usd) {
        return usd == null ? "unpriced" : String.format(Locale.ROOT, "$%.3f/h", usd);
    }
}
