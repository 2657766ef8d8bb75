package io.trainplane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.local.asl.HistoryEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Orchestration benchmark (DESIGN.md §9): one simulated run of examples/quickstart.json whose
 * training lasts 2 hours, measured from the local executor's history; then a 48-hour training for
 * the history limit. Run with {@code ./bench/run orchestration}.
 */
public final class Orchestration {
    /** The simulated workload trains for 30 s per epoch (SimulatedWorkload.EPOCH). */
    static final Duration EPOCH = Duration.ofSeconds(30);

    static final String PRICES = "us-east-1 public prices as of 2026-11: Step Functions Standard $0.025 per 1,000 state"
            + " transitions; Lambda x86 $0.0000166667 per GB-s and $0.20 per 1M requests";
    static final double PRICE_TRANSITION = 0.025 / 1000;
    static final double PRICE_GB_SECOND = 0.0000166667;
    static final double PRICE_REQUEST = 0.20 / 1_000_000;
    static final int HISTORY_LIMIT = 25_000;
    /** run-spec.schema.json: training.epochs maximum. */
    static final int MAX_EPOCHS = 1000;

    /** What one run's history says. */
    record Measure(
            String status,
            int transitions,
            int historyEvents,
            int invocations,
            double gbSeconds,
            Duration noticeDelay,
            Duration training,
            long wallMillis) {
        double cost() {
            return transitions * PRICE_TRANSITION + gbSeconds * PRICE_GB_SECOND + invocations * PRICE_REQUEST;
        }
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        JsonNode base = Json.read(Files.readString(root.resolve("examples/quickstart.json")));
        Map<String, Integer> memory = memorySizes(Files.readString(root.resolve("template.yaml")));

        Measure two = measure(base, Duration.ofHours(2), memory);
        // The run spec allows at most 1,000 epochs (8 h 20 min of simulated training): the 48-hour
        // history is that run's history plus the steady-state events per hour of polling measured
        // between it and the 2-hour run, for the remaining hours.
        Measure longest = measure(base, EPOCH.multipliedBy(MAX_EPOCHS), memory);
        double eventsPerHour = (longest.historyEvents() - two.historyEvents())
                / ((longest.training().toSeconds() - two.training().toSeconds()) / 3600.0);
        int events48 = (int) Math.ceil(longest.historyEvents()
                + eventsPerHour * (48 - longest.training().toSeconds() / 3600.0));

        System.out.println(
                "Orchestration benchmark: examples/quickstart.json, local executor, simulated AWS and Kubernetes");
        System.out.println(
                "Lambda duration per invocation: the real wall time of the in-process invocation, rounded up to"
                        + " 1 ms (a stand-in for billed duration on Lambda: no cold starts, no network latency)");
        System.out.println("Memory: template.yaml (Globals MemorySize unless the function sets its own)");
        System.out.println(PRICES);
        System.out.println();
        print("2-hour training", two);
        print("8 h 20 min training (the most epochs a spec allows)", longest);
        System.out.printf(
                Locale.ROOT,
                "48-hour training: %d history events, extrapolated (%.1f events per hour of training)%n",
                events48,
                eventsPerHour);
        System.out.println();
        double historyShare = 100.0 * events48 / HISTORY_LIMIT;
        boolean ok = true;
        ok &= target(
                "state transitions, 2 h training <= 400", two.transitions() <= 400, String.valueOf(two.transitions()));
        ok &= target("Lambda GB-s, 2 h training <= 300", two.gbSeconds() <= 300, fmt(two.gbSeconds()));
        ok &= target(
                "training completion noticed <= 60 s",
                two.noticeDelay() != null && two.noticeDelay().toMillis() <= 60_000,
                two.noticeDelay() == null ? "never" : seconds(two.noticeDelay()));
        ok &= target(
                "48 h training history < 25 % of 25,000 events",
                historyShare < 25, String.format(Locale.ROOT, "%d events, %.1f %%", events48, historyShare));
        ok &= target(
                "both runs SUCCEEDED",
                two.status().equals("SUCCEEDED") && longest.status().equals("SUCCEEDED"),
                two.status() + ", " + longest.status());
        System.exit(ok ? 0 : 1);
    }

    static Measure measure(JsonNode base, Duration training, Map<String, Integer> memory) {
        ObjectNode spec = base.deepCopy();
        long epochs = training.dividedBy(EPOCH);
        ((ObjectNode) spec.path("training")).put("epochs", epochs);
        spec.put("maxRunHours", Math.min(168, training.toHours() + 4));
        String runId = "bench-" + training.toMinutes() + "m";
        spec.put("runId", runId);
        List<HistoryEvent> history = new ArrayList<>();
        RunReport report;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            Instant[] completion = new Instant[1];
            report = new LocalRun(cloud, Faults.none(), e -> {
                        history.add(e);
                        if (completion[0] == null
                                && e.type().equals("TaskSucceeded")
                                && "CheckTraining".equals(e.stateName())
                                && e.details().path("output").path("done").asBoolean()) {
                            completion[0] = trainingFinished(cloud);
                        }
                    })
                    .execute(spec, runId);
            if (!report.succeeded()) {
                System.err.println(runId + ": " + report.failedState() + " " + report.error() + ": " + report.cause());
            }
            return analyse(report, history, memory, completion[0], training);
        }
    }

    /**
     * When the training really ended: the last training pod's container finishedAt. (The simulated
     * Job controller stamps the Job's completionTime when it next reconciles, which is just before
     * the next handler runs, so the Job's own completionTime would hide the polling delay.)
     */
    static Instant trainingFinished(LocalCloud cloud) {
        return cloud.kubernetesClusters().admins().stream()
                .flatMap(api -> api.pods().inAnyNamespace().list().getItems().stream())
                .filter(p -> p.getMetadata().getName().contains("train"))
                .filter(p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null)
                .flatMap(p -> p.getStatus().getContainerStatuses().stream())
                .filter(c -> c.getState() != null
                        && c.getState().getTerminated() != null
                        && c.getState().getTerminated().getFinishedAt() != null)
                .map(c -> Instant.parse(c.getState().getTerminated().getFinishedAt()))
                .max(Instant::compareTo)
                .orElse(null);
    }

    static Measure analyse(
            RunReport report,
            List<HistoryEvent> history,
            Map<String, Integer> memory,
            Instant completion,
            Duration training) {
        Map<String, HistoryEvent> started = new HashMap<>();
        Map<Long, String> scheduledFunction = new HashMap<>();
        int invocations = 0;
        double gbSeconds = 0;
        Instant noticed = null;
        for (HistoryEvent e : history) {
            switch (e.type()) {
                case "TaskScheduled" -> {
                    invocations++;
                    scheduledFunction.put(e.id(), e.stateName());
                }
                case "TaskStarted" -> started.put(e.stateName(), e);
                case "TaskSucceeded", "TaskFailed", "TaskTimedOut" -> {
                    HistoryEvent start = started.remove(e.stateName());
                    if (start != null) {
                        long micros = Duration.between(start.timestamp(), e.timestamp())
                                .toNanos();
                        long millis = Math.max(1, (micros + 999_999) / 1_000_000);
                        String function = functionOf(e, start);
                        int mb = memory.getOrDefault(function, memory.get(GLOBAL));
                        gbSeconds += mb / 1024.0 * millis / 1000.0;
                    }
                    if (noticed == null
                            && e.type().equals("TaskSucceeded")
                            && "CheckTraining".equals(e.stateName())
                            && e.details().path("output").path("done").asBoolean()) {
                        noticed = e.timestamp();
                    }
                }
                default -> {}
            }
        }
        Map<String, Integer> entered = new java.util.TreeMap<>();
        history.stream()
                .filter(e -> e.type().endsWith("StateEntered"))
                .forEach(e -> entered.merge(e.stateName(), 1, Integer::sum));
        System.err.println(training.toMinutes() + " min training: states entered " + entered);
        Duration delay = completion == null || noticed == null ? null : Duration.between(completion, noticed);
        return new Measure(
                report.status(),
                report.stateTransitions(),
                history.size(),
                invocations,
                gbSeconds,
                delay,
                training,
                report.wallMillis());
    }

    static final String GLOBAL = "";

    private static String functionOf(HistoryEvent end, HistoryEvent start) {
        String resource = start.details()
                .path("resource")
                .asText(end.details().path("resource").asText(""));
        Matcher m = Pattern.compile("function:([A-Za-z0-9]+)").matcher(resource);
        return m.find() ? m.group(1) + "Function" : start.stateName() + "Function";
    }

    /** MemorySize per function resource of template.yaml, and the Globals one under {@link #GLOBAL}. */
    static Map<String, Integer> memorySizes(String template) {
        Map<String, Integer> sizes = new HashMap<>();
        String section = null;
        String resource = null;
        for (String line : template.split("\n")) {
            if (!line.isBlank() && !line.startsWith(" ") && !line.startsWith("#")) {
                section = line.trim();
                resource = null;
            } else if (line.startsWith("  ") && !line.startsWith("   ") && !line.isBlank()) {
                resource = line.trim().replace(":", "");
            }
            Matcher m = Pattern.compile("^\\s+MemorySize:\\s*(\\d+)").matcher(line);
            if (m.find()) {
                sizes.put("Globals:".equals(section) ? GLOBAL : resource, Integer.parseInt(m.group(1)));
            }
        }
        sizes.putIfAbsent(GLOBAL, 128);
        return sizes;
    }

    private static void print(String title, Measure m) {
        System.out.printf(
                Locale.ROOT,
                "%s (%d epochs x 30 s), run %s, %d ms wall%n",
                title,
                m.training().dividedBy(EPOCH),
                m.status(),
                m.wallMillis());
        System.out.printf(Locale.ROOT, "  state transitions   %d%n", m.transitions());
        System.out.printf(
                Locale.ROOT,
                "  history events      %d (%.1f %% of the 25,000-event limit)%n",
                m.historyEvents(),
                100.0 * m.historyEvents() / HISTORY_LIMIT);
        System.out.printf(Locale.ROOT, "  Lambda invocations  %d%n", m.invocations());
        System.out.printf(Locale.ROOT, "  Lambda GB-s         %s%n", fmt(m.gbSeconds()));
        System.out.printf(
                Locale.ROOT,
                "  completion noticed  %s after the Job's completionTime%n",
                m.noticeDelay() == null ? "never" : seconds(m.noticeDelay()));
        System.out.printf(
                Locale.ROOT,
                "  cost                $%.4f (transitions $%.4f, Lambda $%.4f)%n",
                m.cost(),
                m.transitions() * PRICE_TRANSITION,
                m.gbSeconds() * PRICE_GB_SECOND + m.invocations() * PRICE_REQUEST);
    }

    private static boolean target(String what, boolean pass, String value) {
        System.out.printf(Locale.ROOT, "%s  %-48s %s%n", pass ? "PASS" : "FAIL", what, value);
        return pass;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
