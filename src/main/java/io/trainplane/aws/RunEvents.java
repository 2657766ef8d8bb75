package io.trainplane.aws;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.workflow.Json;
import java.util.List;
import java.util.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsResultEntry;

/**
 * Publishes the run's events (DESIGN §4) on the stack's bus, source {@code trainplane}.
 *
 * <p>Policy: an event is retried once when EventBridge rejects it; if it still cannot be
 * published the step logs it and goes on. Events report a run, they never decide it: the run
 * record stays the source of truth, so a lost event never fails or hides a run.
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

    /** Publishes one event; {@code detail} must carry {@code runId}. Returns whether it was accepted. */
    public boolean publish(String detailType, ObjectNode detail) {
        if (!detail.hasNonNull("runId")) {
            throw new IllegalArgumentException("event detail must carry runId: " + detailType);
        }
        PutEventsRequestEntry entry = PutEventsRequestEntry.builder()
                .eventBusName(busName).source(SOURCE).detailType(detailType)
                .detail(Json.write(detail))
                .resources(List.of())
                .build();
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                var response = events.putEvents(r -> r.entries(entry));
                if (response.failedEntryCount() == null || response.failedEntryCount() == 0) {
                    return true;
                }
                PutEventsResultEntry failed = response.entries().get(0);
                LOG.warning(() -> "event " + detailType + " rejected: " + failed.errorCode() + " " + failed.errorMessage());
            } catch (SdkException e) {
                LOG.warning(() -> "event " + detailType + " not published: " + e.getMessage());
            }
        }
        return false;
    }
}
