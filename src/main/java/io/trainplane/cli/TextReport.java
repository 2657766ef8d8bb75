package io.trainplane.cli;

import io.trainplane.core.FailureReason;
import io.trainplane.local.RunReport;
import io.trainplane.runs.RunError;
import java.io.PrintWriter;

/** The end-of-run summary for people (the JSON form is the record itself). */
final class TextReport {
    private TextReport() {}

    /** {@code status}: the command that shows the run's record, null when it was not kept (--no-store). */
    static void print(PrintWriter out, RunReport r, String status) {
        out.println("run:          " + r.runId());
        out.println("status:       " + r.status());
        if (r.failedState() != null) {
            out.println("failed state: " + r.failedState());
        }
        if (r.error() != null) {
            out.println("error:        " + r.error() + (r.cause() == null ? "" : ": " + r.cause()));
            FailureReason.adviceFor(r.error()).ifPresent(advice -> out.println("what to do:   " + advice));
            if (r.logTail() != null && !r.logTail().isBlank()) {
                out.println("log tail:");
                r.logTail().lines().forEach(l -> out.println("  | " + l));
            }
        }
        if (r.cleanup() != null) {
            LeftBehind.print(out, new RunError(r.failedState(), r.error(), r.cause(), null, r.cleanup()), null, 14);
            out.println("              (a local run: this was the simulated account, which ended with this command)");
        }
        r.metrics().forEach((k, v) -> out.printf("metric:       %s = %s%n", k, v));
        out.println("events:       " + (r.events().isEmpty() ? "none" : String.join(", ", r.events())));
        r.warnings().forEach(w -> out.println("warning:      " + w));
        if (r.cost() != null) {
            out.printf(
                    "cost:         $%.2f actual (what the run used, at %s%s)%n",
                    r.cost().total(), r.cost().priceTable(), status == null ? "" : "; " + status + " shows each line");
        }
        out.println("transitions:  " + r.stateTransitions());
        out.println("created:      " + r.resources().created().size() + " resources");
        out.println("remaining:    "
                + (r.resources().remaining().isEmpty()
                        ? "none"
                        : String.join(", ", r.resources().remaining())));
    }
}
