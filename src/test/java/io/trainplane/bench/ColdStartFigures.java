package io.trainplane.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The arithmetic and parsing of the cold-start benchmark, apart from processes so it can be tested. */
final class ColdStartFigures {
    /** The budget of DESIGN.md §9: a function's cold start over the baseline's. */
    static final double TARGET_RATIO = 1.25;
    /**
     * Issue 19's targets for the primed invocation (SnapStart beforeCheckpoint, then invoke: the
     * stand-in for the first invocation after a restore), by the artifact the function ships.
     */
    static final long PRIMED_AWS_MILLIS = 100;

    static final long PRIMED_KUBERNETES_MILLIS = 250;

    private ColdStartFigures() {}

    /**
     * One measured process: its wall time, exit code and what the harness printed ({@code result},
     * {@code timing}, {@code vmhwm}); {@code builtMillis}, {@code invokedMillis} and {@code doneMillis}: from the
     * launch to the handler built, to the invocation started (later than built when primed), to it served;
     * {@code endpointMillis}: how long the local endpoints took to answer the process's requests.
     */
    record Sample(
            long wallMillis,
            int exit,
            String result,
            long builtMillis,
            long invokedMillis,
            long doneMillis,
            long peakRssKb,
            long endpointMillis) {
        Sample(long wallMillis, int exit, String result, long built, long invoked, long done, long peakRssKb) {
            this(wallMillis, exit, result, built, invoked, done, peakRssKb, 0);
        }

        Sample withEndpointMillis(long millis) {
            return new Sample(wallMillis, exit, result, builtMillis, invokedMillis, doneMillis, peakRssKb, millis);
        }

        /** The invocation alone: from its start to its response. */
        long invocationMillis() {
            return doneMillis - invokedMillis;
        }

        /**
         * The invocation's own time: without the time its endpoints took to answer, which no code of
         * the function can shorten (and which the local endpoints, moto_server in Python above all,
         * make longer than AWS's).
         */
        long ownInvocationMillis() {
            return invocationMillis() - endpointMillis;
        }

        /** Served the invocation: returned, or threw what Lambda reports as a function error. */
        boolean served() {
            return (exit == 0 && result.equals("ok")) || (exit == 3 && result.startsWith("error "));
        }

        /** What the invocation ended in, short: {@code ok}, or the exception's simple name and the start of its message. */
        String outcome() {
            if (!result.startsWith("error ")) {
                return result.isEmpty() ? "no result (exit " + exit + ")" : result;
            }
            String[] parts = result.substring("error ".length()).split(" ", 2);
            String type = parts[0].substring(parts[0].lastIndexOf('.') + 1);
            String message = parts.length > 1 ? parts[1].strip() : "";
            return message.isEmpty()
                    ? type
                    : type + ": " + (message.length() > 60 ? message.substring(0, 57) + "..." : message);
        }
    }

    /** Parses the harness's stdout; missing lines leave empty or -1 values (a crash before them). */
    static Sample parse(String stdout, long wallMillis, int exit) {
        String result = "";
        long built = -1;
        long invoked = -1;
        long done = -1;
        long rss = -1;
        for (String line : stdout.split("\n")) {
            if (line.startsWith("result ")) {
                result = line.substring("result ".length()).strip();
            } else if (line.startsWith("timing ")) {
                String[] parts = line.strip().split(" ");
                built = Long.parseLong(parts[1]);
                done = Long.parseLong(parts[2]);
                invoked = parts.length > 3 ? Long.parseLong(parts[3]) : built;
            } else if (line.startsWith("vmhwm ")) {
                rss = Long.parseLong(line.substring("vmhwm ".length()).strip());
            }
        }
        return new Sample(wallMillis, exit, result, built, invoked, done, rss);
    }

    /**
     * From a {@code -Xlog:class+load} log of a primed invocation, the classes loaded after the
     * harness marked the invocation's start, in load order: none hidden (lambdas, method handles,
     * proxies) or the harness's own, which a class loader cannot load by name.
     */
    static List<String> loadedAfterPriming(List<String> log) {
        List<String> classes = new ArrayList<>();
        boolean invoking = false;
        for (String line : log) {
            java.util.regex.Matcher entry =
                    java.util.regex.Pattern.compile("\\] (\\S+) source: ").matcher(line);
            if (!entry.find()) {
                continue;
            }
            String name = entry.group(1);
            if (name.equals("ColdStartHarness$InvocationStarts")) {
                invoking = true;
            } else if (invoking
                    && !name.contains("$$Lambda")
                    && !name.contains("/0x")
                    && !name.contains("LambdaForm$")
                    && !name.startsWith("jdk.proxy")
                    && !name.startsWith("ColdStartHarness")) {
                classes.add(name);
            }
        }
        return classes;
    }

    /** The median; of an even count, the mean of the middle two. */
    static double median(List<Long> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }

    static double ratio(double function, double baseline) {
        return function / baseline;
    }

    static boolean withinTarget(double ratio) {
        return ratio <= TARGET_RATIO;
    }

    /** The primed invocation's limit for a function of the Kubernetes artifact or of the AWS-only one. */
    static long primedLimitMillis(boolean kubernetes) {
        return kubernetes ? PRIMED_KUBERNETES_MILLIS : PRIMED_AWS_MILLIS;
    }

    static boolean primedWithinTarget(double primedMedianMillis, boolean kubernetes) {
        return primedMedianMillis <= primedLimitMillis(kubernetes);
    }

    static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
