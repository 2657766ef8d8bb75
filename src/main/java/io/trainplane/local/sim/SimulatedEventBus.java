package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.IamRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsRequest;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsResponse;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsResultEntry;

/**
 * EventBridge in process: accepts PutEvents and keeps every event in order. Calls are logged as
 * {@code events:PutEvents} and pass the {@link FaultPlan} like every simulated service's. Events
 * AWS services emit themselves (Step Functions' execution status changes, on the default bus) come
 * in through {@link #emit}. Rules ({@link #addRule}) receive each matching event, as EventBridge
 * delivers it to a target, after it is stored.
 */
public final class SimulatedEventBus implements CloudWatchEventsClient {
    /** An event as a rule would receive it. */
    public record Event(String bus, String source, String detailType, JsonNode detail, Instant time, String id) {
        public Event(String bus, String source, String detailType, JsonNode detail, Instant time) {
            this(bus, source, detailType, detail, time, UUID.randomUUID().toString());
        }

        /** The event as a rule's target receives it: the full EventBridge envelope. */
        public ObjectNode envelope() {
            ObjectNode envelope = Json.object()
                    .put("version", "0")
                    .put("id", id)
                    .put("detail-type", detailType)
                    .put("source", source)
                    .put("account", AwsService.ACCOUNT)
                    .put("time", time.truncatedTo(ChronoUnit.SECONDS).toString())
                    .put("region", AwsService.REGION);
            envelope.putArray("resources");
            envelope.set("detail", detail.deepCopy());
            return envelope;
        }
    }

    private record Rule(String name, Predicate<Event> pattern, Consumer<Event> target) {}

    private final List<Rule> rules = new CopyOnWriteArrayList<>();

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final ServiceCalls calls;
    private final Clock clock;

    public SimulatedEventBus(CallLog calls, Clock clock, FaultPlan faults, Authorizer iam) {
        this.calls = new ServiceCalls(AwsService.EVENTS, calls, faults, iam, SimulatedEventBus::permissions);
        this.clock = clock;
    }

    public SimulatedEventBus(CallLog calls, Clock clock) {
        this(calls, clock, new FaultPlan(), Authorizer.ALLOW_ALL);
    }

    /**
     * events:PutEvents acts on each entry's bus (the default bus when it names none), with the
     * entry's source and detail-type as condition keys
     * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoneventbridge.html).
     */
    private static List<IamRequest> permissions(String operation, SdkRequest request) {
        if (!(request instanceof PutEventsRequest put)) {
            return Permissions.unmapped(operation);
        }
        return put.entries().stream()
                .map(entry -> {
                    IamRequest asked = IamRequest.of("events:PutEvents", busArn(entry.eventBusName()));
                    asked = entry.source() == null ? asked : asked.with("events:source", entry.source());
                    return entry.detailType() == null ? asked : asked.with("events:detail-type", entry.detailType());
                })
                .distinct()
                .toList();
    }

    private static String busArn(String bus) {
        if (bus != null && bus.startsWith("arn:")) {
            return bus;
        }
        return IamRequests.ARN + "events:" + IamRequests.REGIONAL + "event-bus/"
                + (bus == null || bus.isEmpty() ? "default" : bus);
    }

    @Override
    public PutEventsResponse putEvents(PutEventsRequest request) {
        return calls.call("PutEvents", request, () -> {
            var results = new java.util.ArrayList<PutEventsResultEntry>();
            var accepted = new java.util.ArrayList<Event>();
            for (PutEventsRequestEntry entry : request.entries()) {
                Event event = new Event(
                        entry.eventBusName(),
                        entry.source(),
                        entry.detailType(),
                        Json.read(entry.detail()),
                        clock.instant());
                events.add(event);
                accepted.add(event);
                results.add(PutEventsResultEntry.builder().eventId(event.id()).build());
            }
            accepted.forEach(this::deliver);
            return PutEventsResponse.builder()
                    .failedEntryCount(0)
                    .entries(results)
                    .build();
        });
    }

    /** An event an AWS service puts on a bus itself (no PutEvents call of ours): stored and delivered. */
    public void emit(String bus, String source, String detailType, JsonNode detail) {
        Event event = new Event(bus, source, detailType, detail, clock.instant());
        events.add(event);
        deliver(event);
    }

    /** A rule: every later event that {@code pattern} matches goes to {@code target}, once. Replaces a rule of the same name. */
    public void addRule(String name, Predicate<Event> pattern, Consumer<Event> target) {
        rules.removeIf(rule -> rule.name().equals(name));
        rules.add(new Rule(name, pattern, target));
    }

    private void deliver(Event event) {
        for (Rule rule : rules) {
            if (rule.pattern().test(event)) {
                rule.target().accept(event);
            }
        }
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
