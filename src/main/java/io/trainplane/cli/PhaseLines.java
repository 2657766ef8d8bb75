package io.trainplane.cli;

import io.trainplane.runs.RunPhase;
import io.trainplane.runs.TrainingProgress;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

/**
 * The live view run and watch share: one line per phase change with the finished phase's real
 * duration, each failure as it happens, and the training's epochs, as a bar redrawn in place on a
 * terminal or as one plain line per new epoch otherwise (a file or CI log gets no carriage
 * returns).
 */
final class PhaseLines {
    /** {@code --progress}: how the live view shows a run. */
    enum Mode {
        /** A bar on a terminal, plain lines otherwise. */
        auto,
        /** The epochs as a bar redrawn in place. */
        bar,
        /** One line per phase change and per new epoch. */
        lines,
        /** Every state as it ends and every wait, as well (the most detail). */
        states;

        static final String HELP = "auto (a progress bar on a terminal, plain lines otherwise; default), bar, lines,"
                + " or states (also every state as it ends and every wait)";

        /** Whether the epochs show as a bar: {@code terminal} says whether stderr is one. */
        boolean bar(boolean terminal) {
            return this == bar || (this == auto && terminal);
        }
    }

    private final PrintWriter out;
    private final boolean bar;
    private final Function<Instant, String> stamp;
    private RunPhase phase;
    private Instant phaseStarted;
    private int epochShown = -1;
    private boolean barShown;

    /** {@code stamp}: the time a line starts with, e.g. {@code [0:10:11]}, for an instant. */
    PhaseLines(PrintWriter out, boolean bar, Function<Instant, String> stamp) {
        this.out = out;
        this.bar = bar;
        this.stamp = stamp;
    }

    RunPhase phase() {
        return phase;
    }

    /** A new phase, entered {@code at}: {@code [0:10:11] ▶ volume (cluster took 10m11s)}. */
    void phase(RunPhase next, Instant at) {
        String took = phase == null ? "" : " (" + phase.label() + " took " + PhasesReport.duration(between(at)) + ")";
        line(at, "▶ " + next.label() + took);
        phase = next;
        phaseStarted = at;
    }

    /** The run ended {@code at}: the last phase's duration with the outcome. */
    void end(Instant at, String outcome) {
        String took = phase == null ? "" : " (" + phase.label() + " took " + PhasesReport.duration(between(at)) + ")";
        line(at, "■ " + outcome + took);
        phase = null;
    }

    /** The training's progress, when it is a new epoch (a look that found the same one prints nothing). */
    void epoch(TrainingProgress p) {
        if (p.epoch() == epochShown) {
            return;
        }
        epochShown = p.epoch();
        if (bar) {
            out.print("\r" + stamp.apply(p.at()) + " " + PhasesReport.bar(p) + "\033[K");
            out.flush();
            barShown = true;
        } else {
            line(p.at(), PhasesReport.line(p));
        }
    }

    /** Any other line; a bar being drawn is ended first, so the line does not overwrite it. */
    void line(Instant at, String text) {
        if (barShown) {
            out.println();
            barShown = false;
        }
        out.println(stamp.apply(at) + " " + text);
    }

    private Duration between(Instant at) {
        return phaseStarted == null || at.isBefore(phaseStarted) ? Duration.ZERO : Duration.between(phaseStarted, at);
    }
}
