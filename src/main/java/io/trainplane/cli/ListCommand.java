package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.RunSummary;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description = "List recent runs, newest first, from the run store's status index.")
final class ListCommand extends ClientsCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @ArgGroup(exclusive = true, multiplicity = "1")
    TableOptions.WithTable table;

    @Option(
            names = "--status",
            paramLabel = "STATUS",
            description = "only runs in this status: ${COMPLETION-CANDIDATES}")
    RunStatus status;

    @Option(
            names = "--limit",
            defaultValue = "20",
            paramLabel = "N",
            description = "at most this many runs (default ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Override
    public Integer call() {
        if (limit <= 0) {
            throw new UserInputException("--limit must be positive");
        }
        List<RunSummary> runs;
        try (TableOptions.Source source = table.open(clients)) {
            RunStore store = source.store();
            runs = status == null ? store.listRecent(limit) : store.listByStatus(status, limit);
        }
        PrintWriter out = command.commandLine().getOut();
        if (output.structured()) {
            ArrayNode array = Json.array();
            for (RunSummary r : runs) {
                array.addObject()
                        .put("runId", r.runId())
                        .put("status", r.status().name())
                        .put("phase", r.phase() == null ? null : r.phase().label())
                        .put("createdAt", String.valueOf(r.createdAt()))
                        .put("updatedAt", String.valueOf(r.updatedAt()))
                        .put("durationSeconds", r.duration().toSeconds())
                        .put("actualCost", r.actualCost())
                        .put("accuracy", r.accuracy())
                        .put("metric", r.metric())
                        .put("metricValue", r.metricValue());
            }
            out.println(output.write(array));
        } else if (runs.isEmpty()) {
            out.println("no runs" + (status == null ? "" : " in status " + status));
        } else {
            // The last column is each spec's gate metric: its name heads it when the runs share one.
            Set<String> metrics = new TreeSet<>();
            runs.forEach(r -> metrics.add(r.metric()));
            boolean one = metrics.size() == 1;
            String row = "%-40s %-15s %-16s %-22s %9s %9s %" + (one ? 10 : 22) + "s%n";
            out.printf(
                    row,
                    "RUN",
                    "STATUS",
                    "PHASE",
                    "CREATED",
                    "DURATION",
                    "COST",
                    one ? metrics.iterator().next().toUpperCase(Locale.ROOT) : "GATE METRIC");
            // A run not ended has no cost yet, and one not evaluated no metric: "-". An ended run is
            // in no phase any more (its status says how it ended).
            runs.forEach(r -> out.printf(
                    row,
                    r.runId(),
                    r.status(),
                    r.status().isTerminal() || r.phase() == null
                            ? "-"
                            : r.phase().label(),
                    r.createdAt(),
                    StatusCommand.duration(r.duration()),
                    r.actualCost() == null ? "-" : CostReport.money(r.actualCost()),
                    r.metricValue() == null
                            ? "-"
                            : (one ? "" : r.metric() + " ") + String.format("%.4f", r.metricValue())));
        }
        return Main.SUCCEEDED;
    }
}
