package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.runs.Interruption;
import io.trainplane.runs.RunRecord;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A run's interruptions (training pods lost to their nodes) as {@code status} and {@code watch}
 * show them: how many, the minutes of training lost and their cost at the plan's prices (of the
 * interruptions whose replacement started: the others have lost an unknown time so far), the epoch
 * the training resumed from, then each one.
 */
final class InterruptionsReport {
    private InterruptionsReport() {}

    static ObjectNode toJson(RunRecord run) {
        List<Interruption> all = run.interruptions();
        ObjectNode n = Json.object()
                .put("count", all.size())
                .put("lostMinutes", round(lostMinutes(all)))
                .put("lostCost", lostCost(all) == null ? null : round(lostCost(all)));
        Double resumedFrom = run.metrics().get("resumedFromEpoch");
        if (resumedFrom == null) {
            n.putNull("resumedFromEpoch");
        } else {
            n.put("resumedFromEpoch", resumedFrom.intValue());
        }
        ArrayNode list = n.putArray("list");
        for (Interruption i : all) {
            list.addObject()
                    .put("pod", i.pod())
                    .put("workerIndex", i.index())
                    .put("node", i.node())
                    .put("reason", i.reason())
                    .put("message", i.message())
                    .put("at", i.at().toString())
                    .put("seenAt", i.seenAt().toString())
                    .put(
                            "resumedAt",
                            i.resumedAt() == null ? null : i.resumedAt().toString())
                    .put("lostMinutes", i.lostMinutes() == null ? null : round(i.lostMinutes()))
                    .put("lostCost", i.lostCost() == null ? null : round(i.lostCost()));
        }
        return n;
    }

    /** Nothing when the run was not interrupted; else a summary line and one line per interruption. */
    static void print(PrintWriter out, RunRecord run, int width) {
        List<Interruption> all = run.interruptions();
        if (all.isEmpty()) {
            return;
        }
        out.println(pad("interrupted:", width) + summary(run));
        all.forEach(i -> out.println(pad("", width) + "- " + i.describe()));
    }

    /** "2 times, 6.5 min of training lost ($0.07 at the plan's prices), resumed from epoch 5". */
    static String summary(RunRecord run) {
        List<Interruption> all = run.interruptions();
        long pending = all.stream().filter(i -> !i.resumed()).count();
        Double cost = lostCost(all);
        Double resumedFrom = run.metrics().get("resumedFromEpoch");
        return (all.size() == 1 ? "1 time" : all.size() + " times")
                + String.format(Locale.ROOT, ", %.1f min of training lost", lostMinutes(all))
                + (cost == null ? "" : String.format(Locale.ROOT, " ($%.2f at the plan's prices)", cost))
                + (pending == 0 ? "" : " so far, " + pending + " not resumed yet")
                + (resumedFrom == null ? "" : ", resumed from epoch " + resumedFrom.intValue());
    }

    private static double lostMinutes(List<Interruption> all) {
        return all.stream()
                .map(Interruption::lostMinutes)
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .sum();
    }

    /** The cost of the resumed interruptions; null when one of them could not be priced. */
    private static Double lostCost(List<Interruption> all) {
        List<Interruption> resumed = all.stream().filter(Interruption::resumed).toList();
        if (resumed.stream().anyMatch(i -> i.lostCost() == null)) {
            return null;
        }
        return resumed.stream().mapToDouble(Interruption::lostCost).sum();
    }

    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }

    private static String pad(String label, int width) {
        return label.length() >= width ? label + " " : String.format("%-" + width + "s", label);
    }

    /** "worker 1 (tp-…-1-abcde) resumed: 6.0 min lost, $0.07 at the plan's prices". */
    static String resumed(Interruption i) {
        return (i.index() == null ? i.pod() : "worker " + i.index() + " (" + i.pod() + ")")
                + String.format(Locale.ROOT, " resumed: %.1f min lost", i.lostMinutes())
                + (i.lostCost() == null
                        ? ""
                        : String.format(Locale.ROOT, ", $%.2f at the plan's prices", i.lostCost()));
    }
}
