package io.trainplane.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One training pod lost to its node, as CheckTraining first saw it: the pod, its completion index
 * (null when the pod did not say), its node, the {@code DisruptionTarget} condition's reason and
 * message ({@code TerminationByKubelet} for a spot instance's graceful shutdown,
 * {@code DeletionByPodGC} for a node that is gone, {@code EvictionByEvictionAPI}, …), when it
 * happened ({@code at}, the condition's transition time) and when CheckTraining saw it.
 *
 * <p>{@code resumedAt} is when the replacement pod of the same index started, null until it has.
 * {@code lostMinutes} is the time from the interruption to that start: the time the training stood
 * still waiting for replacement capacity and a new pod. It leaves out the work done since the last
 * checkpoint, which the resumed training does again: the training does not report when it wrote
 * that checkpoint, so the figure is a lower bound. {@code lostCost} is what the node group cost in
 * that time at the plan's prices (every node waits for the lost worker's rendezvous), null when the
 * price table does not list the instance type or the run uses an existing cluster's nodes.
 */
public record Interruption(
        String pod,
        Integer index,
        String node,
        String reason,
        String message,
        Instant at,
        Instant seenAt,
        Instant resumedAt,
        Double lostMinutes,
        Double lostCost) {
    /** Cut to keep the record far below DynamoDB's 400 KB item limit. */
    public static final int MAX_MESSAGE = 512;

    public Interruption {
        Objects.requireNonNull(pod, "pod");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(seenAt, "seenAt");
        reason = reason == null ? "unknown" : reason;
        message = message != null && message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "…" : message;
        if (lostMinutes != null && (!Double.isFinite(lostMinutes) || lostMinutes < 0)) {
            throw new IllegalArgumentException(
                    "interruption of " + pod + ": lostMinutes must be finite, not negative: " + lostMinutes);
        }
        if (lostCost != null && (!Double.isFinite(lostCost) || lostCost < 0)) {
            throw new IllegalArgumentException(
                    "interruption of " + pod + ": lostCost must be finite, not negative: " + lostCost);
        }
    }

    /** Just seen: not resumed yet. */
    public static Interruption seen(
            String pod, Integer index, String node, String reason, String message, Instant at, Instant seenAt) {
        return new Interruption(pod, index, node, reason, message, at, seenAt, null, null, null);
    }

    public boolean resumed() {
        return resumedAt != null;
    }

    /**
     * Resumed at {@code resumedAt}: the minutes lost since the interruption (none when the
     * replacement started first, as it can when the pod was replaced before its node was declared
     * gone), and their cost at {@code nodeGroupPerHour} (null when unknown).
     */
    public Interruption resumedAt(Instant resumedAt, Double nodeGroupPerHour) {
        Objects.requireNonNull(resumedAt, "resumedAt");
        double minutes = Math.max(0, Duration.between(at, resumedAt).toMillis()) / 60_000.0;
        Double cost = nodeGroupPerHour == null ? null : nodeGroupPerHour * minutes / 60.0;
        return new Interruption(pod, index, node, reason, message, at, seenAt, resumedAt, minutes, cost);
    }

    /** One line for people: when, which pod on which node, why, and what it lost. */
    public String describe() {
        return at + " " + pod + (index == null ? "" : " (worker " + index + ")") + " on "
                + (node == null ? "an unknown node" : node) + ": " + reason
                + (message == null ? "" : " (" + message + ")") + "; "
                + (resumedAt == null
                        ? "not resumed yet"
                        : String.format(
                                java.util.Locale.ROOT,
                                "resumed %s, %.1f min lost%s",
                                resumedAt,
                                lostMinutes,
                                lostCost == null ? "" : String.format(java.util.Locale.ROOT, ", $%.2f", lostCost)));
    }
}
