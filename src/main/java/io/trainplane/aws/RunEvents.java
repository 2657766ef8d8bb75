package io.trainplane.aws;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsResultEntry;

/**
 * Publishes the run's events (DESIGN §4) on the stack's bus, source {@code trainplane}.
 *
 * <p>Policy: an event is retried once when EventBridge rejects it; if it still cannot be
 * published the step logs it and goes on (the steps note it in the run record as a lost event).
 * Events report a run, they never decide it: the run record stays the source of truth, so a lost
 * event never fails or hides a run.
 */
public final class RunEvents {
    public static final String SOURCE = "trainplane";
    private static final Logger LOG = Logger.getLogger(RunEvents.class.getName());

    private final CloudWatchEventsClient events;
    private final String busName;

    public RunEvents(CloudWatchEventsClient events, String busName) {
        this.events = events;
        this.busName = busName;
    }

    /**
     * Publishes one event; {@code detail} must carry {@code runId}. Returns why it could not be
     * published (the last attempt's error), empty when EventBridge accepted it.
     */
    public Optional<String> publish(String detailType, ObjectNode detail) {
        if (!detail.hasNonNull("runId")) {
            throw new IllegalArgumentException("event detail must carry runId: " + detailType);
        }
        PutEventsRequestEntry entry = PutEventsRequestEntry.builder()
                .eventBusName(busName)
                .source(SOURCE)
                .detailType(detailType)
                .detail(Json.write(detail))
                .resources(List.of())
                .build();
        String why = null;
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                var response = events.putEvents(r -> r.entries(entry));
                if (response.failedEntryCount() == null || response.failedEntryCount() == 0) {
                    return Optional.empty();
                }
                PutEventsResultEntry failed = response.entries().get(0);
                why = "rejected: " + failed.errorCode() + " " + failed.errorMessage();
            } catch (SdkException e) {
                why = e.getMessage();
            }
            String reason = why;
            LOG.warning(() -> "event " + detailType + " not published: " + reason);
        }
        return Optional.of(why);
    }
}
