package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.workflow.Json;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsRequest;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsResponse;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsResultEntry;

/**
 * EventBridge in process: accepts PutEvents and keeps every event in order. Calls are logged as
 * {@code events:PutEvents} and pass the {@link FaultPlan} like every simulated service's.
 */
public final class SimulatedEventBus implements CloudWatchEventsClient {
    /** An event as a rule would receive it. */
    public record Event(String bus, String source, String detailType, JsonNode detail, Instant time) {}

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final ServiceCalls calls;
    private final Clock clock;

    public SimulatedEventBus(CallLog calls, Clock clock, FaultPlan faults) {
        this.calls = new ServiceCalls(AwsService.EVENTS, calls, faults);
        this.clock = clock;
    }

    public SimulatedEventBus(CallLog calls, Clock clock) {
        this(calls, clock, new FaultPlan());
    }

    @Override
    public PutEventsResponse putEvents(PutEventsRequest request) {
        return calls.call("PutEvents", () -> {
            var results = new java.util.ArrayList<PutEventsResultEntry>();
            for (PutEventsRequestEntry entry : request.entries()) {
                events.add(new Event(entry.eventBusName(), entry.source(), entry.detailType(), Json.read(entry.detail()), clock.instant()));
                results.add(PutEventsResultEntry.builder().eventId(UUID.randomUUID().toString()).build());
            }
            return PutEventsResponse.builder().failedEntryCount(0).entries(results).build();
        });
    }

    public List<Event> events() {
        return List.copyOf(events);
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
