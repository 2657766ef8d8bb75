package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.sim.CloudControlTypes.Rejection;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudcontrol.model.ClientTokenConflictException;
import software.amazon.awssdk.services.cloudcontrol.model.ConcurrentOperationException;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceResponse;
import software.amazon.awssdk.services.cloudcontrol.model.DeleteResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.DeleteResourceResponse;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequestStatusRequest;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequestStatusResponse;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceResponse;
import software.amazon.awssdk.services.cloudcontrol.model.HandlerErrorCode;
import software.amazon.awssdk.services.cloudcontrol.model.InvalidRequestException;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesRequest;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesResponse;
import software.amazon.awssdk.services.cloudcontrol.model.Operation;
import software.amazon.awssdk.services.cloudcontrol.model.OperationStatus;
import software.amazon.awssdk.services.cloudcontrol.model.ProgressEvent;
import software.amazon.awssdk.services.cloudcontrol.model.RequestTokenNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.TypeNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.UnsupportedActionException;

/**
 * The Cloud Control API for {@code AWS::EC2::LaunchTemplate}, {@code AWS::EC2::PlacementGroup} and
 * {@code AWS::Logs::LogGroup}, in process; it also reads what the account has from the start
 * ({@link CloudControlReadTypes}: subnets, capacity reservations). Requests are asynchronous as on AWS: CreateResource and DeleteResource answer
 * IN_PROGRESS, GetResourceRequestStatus reports SUCCESS (with the identifier) or FAILED after
 * {@link #OPERATION}. A client token makes a request idempotent; reused with another request it
 * is a {@code ClientTokenConflictException}.
 */
public final class SimulatedCloudControl implements CloudControlClient, Inventory {
    public static final Duration OPERATION = Duration.ofSeconds(10);

    /** A resource: readable once its create request succeeded, gone once its delete request did. */
    private record Resource(
            CloudControlTypes type,
            String identifier,
            ObjectNode properties,
            Map<String, String> tags,
            Lifecycle life) {
        Resource deleted(Instant now) {
            return new Resource(type, identifier, properties, tags, life.delete(now));
        }
    }

    /** A request as GetResourceRequestStatus reports it; {@code rejection} is null when it succeeds. */
    private record Request(
            String token,
            Object sdkRequest,
            String typeName,
            Operation operation,
            String identifier,
            Instant start,
            Rejection rejection,
            String resourceModel) {}

    private final Map<String, Resource> resources = new LinkedHashMap<>();
    private final Map<String, Request> requests = new LinkedHashMap<>();
    private final Map<String, Request> byClientToken = new LinkedHashMap<>();
    private final Clock clock;
    private final ServiceCalls calls;
    private final SimulatedIds ids = new SimulatedIds("cloudcontrol");
    /** What the account has from the start, read through {@link CloudControlReadTypes}. */
    private volatile SimulatedNetwork network = SimulatedNetwork.stack();

    private volatile SimulatedCapacity capacity;

    public SimulatedCloudControl(CallLog calls, Clock clock, FaultPlan faults, Authorizer iam) {
        this.clock = clock;
        this.calls = new ServiceCalls(AwsService.CLOUD_CONTROL, calls, faults, iam, new CloudControlPermissions());
        this.capacity = SimulatedCapacity.stack(clock.instant());
    }

    /** This account's subnets and capacity reservations are {@code network}'s and {@code capacity}'s. */
    public SimulatedCloudControl reading(SimulatedNetwork network, SimulatedCapacity capacity) {
        this.network = network;
        this.capacity = capacity;
        return this;
    }

    @Override
    public CreateResourceResponse createResource(CreateResourceRequest request) {
        return calls.call("CreateResource", request, () -> {
            synchronized (this) {
                Instant now = now();
                CloudControlTypes type = type(request.typeName());
                Request replay = replay(request.clientToken(), request);
                if (replay != null) {
                    return CreateResourceResponse.builder()
                            .progressEvent(progress(replay, now))
                            .build();
                }
                ObjectNode properties = desiredState(request.desiredState());
                Rejection rejection = type.validate(properties);
                if (rejection == null && nameTaken(type, properties)) {
                    rejection = new Rejection(
                            HandlerErrorCode.ALREADY_EXISTS,
                            type.typeName() + " with " + type.nameProperty() + " '"
                                    + properties.get(type.nameProperty()).asText() + "' already exists");
                }
                if (rejection == null) {
                    rejection = handlerDenied(
                            type,
                            Operation.CREATE,
                            properties.path(type.nameProperty()).asText(null),
                            type.tags(properties));
                }
                String identifier = null;
                if (rejection == null) {
                    identifier = type.identifier(properties, ids);
                    resources.put(
                            key(type, identifier),
                            new Resource(
                                    type,
                                    identifier,
                                    properties,
                                    type.tags(properties),
                                    Lifecycle.startingAt(now, OPERATION, OPERATION)));
                }
                Request accepted = remember(
                        new Request(
                                UUID.randomUUID().toString(),
                                request,
                                type.typeName(),
                                Operation.CREATE,
                                identifier,
                                now,
                                rejection,
                                rejection == null ? Json.write(properties) : null),
                        request.clientToken());
                return CreateResourceResponse.builder()
                        .progressEvent(progress(accepted, now))
                        .build();
            }
        });
    }

    @Override
    public GetResourceRequestStatusResponse getResourceRequestStatus(GetResourceRequestStatusRequest request) {
        return calls.call("GetResourceRequestStatus", request, () -> {
            synchronized (this) {
                Instant now = now();
                Request r = requests.get(request.requestToken());
                if (r == null) {
                    throw calls.error(
                            RequestTokenNotFoundException.builder(),
                            400,
                            "RequestTokenNotFoundException",
                            "Request with token " + request.requestToken() + " was not found");
                }
                return GetResourceRequestStatusResponse.builder()
                        .progressEvent(progress(r, now))
                        .build();
            }
        });
    }

    @Override
    public GetResourceResponse getResource(GetResourceRequest request) {
        return calls.call("GetResource", request, () -> {
            synchronized (this) {
                Instant now = now();
                CloudControlReadTypes existing = CloudControlReadTypes.byName(request.typeName());
                if (existing != null) {
                    return GetResourceResponse.builder()
                            .typeName(existing.typeName())
                            .resourceDescription(existing.describe(request.identifier(), network, capacity, now)
                                    .orElseThrow(() -> notFound(existing.typeName(), request.identifier())))
                            .build();
                }
                CloudControlTypes type = type(request.typeName());
                Resource r = resources.get(key(type, request.identifier()));
                if (r == null || r.life().phase(now) == Lifecycle.Phase.CREATING) {
                    throw notFound(type, request.identifier());
                }
                return GetResourceResponse.builder()
                        .typeName(type.typeName())
                        .resourceDescription(describe(r))
                        .build();
            }
        });
    }

    @Override
    public DeleteResourceResponse deleteResource(DeleteResourceRequest request) {
        return calls.call("DeleteResource", request, () -> {
            synchronized (this) {
                Instant now = now();
                CloudControlTypes type = type(request.typeName());
                Request replay = replay(request.clientToken(), request);
                if (replay != null) {
                    return DeleteResourceResponse.builder()
                            .progressEvent(progress(replay, now))
                            .build();
                }
                Resource r = resources.get(key(type, request.identifier()));
                if (r == null) {
                    throw notFound(type, request.identifier());
                }
                if (r.life().phase(now) != Lifecycle.Phase.READY) {
                    throw calls.error(
                            ConcurrentOperationException.builder(),
                            400,
                            "ConcurrentOperationException",
                            "Another operation on resource [" + request.identifier() + "] of type [" + type.typeName()
                                    + "] is in progress");
                }
                Rejection rejection = handlerDenied(type, Operation.DELETE, r.identifier(), r.tags());
                if (rejection == null) {
                    resources.put(key(type, r.identifier()), r.deleted(now));
                }
                Request accepted = remember(
                        new Request(
                                UUID.randomUUID().toString(),
                                request,
                                type.typeName(),
                                Operation.DELETE,
                                r.identifier(),
                                now,
                                rejection,
                                null),
                        request.clientToken());
                return DeleteResourceResponse.builder()
                        .progressEvent(progress(accepted, now))
                        .build();
            }
        });
    }

    @Override
    public ListResourcesResponse listResources(ListResourcesRequest request) {
        return calls.call("ListResources", request, () -> {
            synchronized (this) {
                Instant now = now();
                CloudControlReadTypes existing = CloudControlReadTypes.byName(request.typeName());
                CloudControlTypes type = existing == null ? type(request.typeName()) : null;
                List<ResourceDescription> readable = existing != null
                        ? existing.describeAll(network, capacity, now)
                        : resources.values().stream()
                                .filter(r -> r.type() == type && r.life().phase(now) != Lifecycle.Phase.CREATING)
                                .map(SimulatedCloudControl::describe)
                                .toList();
                var page = Paging.page(
                        readable,
                        request.nextToken(),
                        request.maxResults(),
                        20,
                        () -> calls.error(
                                InvalidRequestException.builder(),
                                400,
                                "InvalidRequestException",
                                "The nextToken is not valid"));
                return ListResourcesResponse.builder()
                        .typeName(request.typeName())
                        .resourceDescriptions(page.items())
                        .nextToken(page.nextToken())
                        .build();
            }
        });
    }

    /**
     * What EKS does when it delivers a cluster's control-plane logs to a log group that does not
     * exist: it creates the group itself, untagged, with no retention (the logs of a cluster go to
     * {@code /aws/eks/<cluster>/cluster}: https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html).
     * A log group of that name that exists (or is being created) is used as it is. Not a Cloud
     * Control operation: the simulated EKS calls it.
     */
    public synchronized void controlPlaneLogsDelivered(String logGroupName) {
        Instant now = now();
        ObjectNode properties = Json.object().put("LogGroupName", logGroupName);
        if (nameTaken(CloudControlTypes.LOG_GROUP, properties)) {
            return;
        }
        String identifier = CloudControlTypes.LOG_GROUP.identifier(properties, ids);
        resources.put(
                key(CloudControlTypes.LOG_GROUP, identifier),
                new Resource(
                        CloudControlTypes.LOG_GROUP,
                        identifier,
                        properties,
                        Map.of(),
                        Lifecycle.startingAt(now, Duration.ZERO, OPERATION)));
    }

    /** Launch templates, placement groups and log groups that exist (being created or deleted included), with their tags. */
    @Override
    public synchronized List<CloudResource> resources() {
        now();
        return resources.values().stream()
                .map(r -> new CloudResource(r.type().ref(r.identifier()), r.tags()))
                .sorted()
                .toList();
    }

    private Instant now() {
        Instant now = clock.instant();
        resources.values().removeIf(r -> r.life().phase(now) == Lifecycle.Phase.GONE);
        return now;
    }

    /** The handler's own calls, made with the caller's permissions: a denial fails the request as AccessDenied. */
    private Rejection handlerDenied(
            CloudControlTypes type, Operation operation, String identifier, Map<String, String> tags) {
        var denied = calls.check(CloudControlPermissions.handler(type, operation, identifier, tags));
        return denied == null ? null : new Rejection(HandlerErrorCode.ACCESS_DENIED, AwsErrors.deniedMessage(denied));
    }

    /**
     * The launch template data of a launch template that exists (by id, or by name when no id is
     * given), as EKS reads it when a node group names the template; empty when there is none.
     */
    public synchronized Optional<JsonNode> launchTemplateData(String id, String name) {
        Instant now = now();
        return resources.values().stream()
                .filter(r -> r.type() == CloudControlTypes.LAUNCH_TEMPLATE
                        && r.life().phase(now) == Lifecycle.Phase.READY)
                .filter(r -> id != null
                        ? id.equals(r.identifier())
                        : name != null
                                && name.equals(r.properties()
                                        .path("LaunchTemplateName")
                                        .asText(null)))
                .findFirst()
                .map(r -> (JsonNode) r.properties().path("LaunchTemplateData").deepCopy());
    }

    private CloudControlTypes type(String typeName) {
        if (CloudControlReadTypes.byName(typeName) != null) {
            throw calls.error(
                    UnsupportedActionException.builder(),
                    400,
                    "UnsupportedActionException",
                    "The simulated account reads " + typeName
                            + " (it has them from the start) but does not create or delete them");
        }
        CloudControlTypes type = CloudControlTypes.byName(typeName);
        if (type == null) {
            throw calls.error(
                    TypeNotFoundException.builder(),
                    400,
                    "TypeNotFoundException",
                    "The type '" + typeName + "' cannot be found in the simulated account (it provisions "
                            + CloudControlTypes.names() + ")");
        }
        return type;
    }

    /** The request a client token was first used for, when this is a retry of it. */
    private Request replay(String clientToken, Object request) {
        Request earlier = clientToken == null ? null : byClientToken.get(clientToken);
        if (earlier == null) {
            return null;
        }
        if (!earlier.sdkRequest().equals(request)) {
            throw calls.error(
                    ClientTokenConflictException.builder(),
                    400,
                    "ClientTokenConflictException",
                    "The client token " + clientToken + " was already used for a different request");
        }
        return earlier;
    }

    private Request remember(Request request, String clientToken) {
        requests.put(request.token(), request);
        if (clientToken != null) {
            byClientToken.put(clientToken, request);
        }
        return request;
    }

    private ObjectNode desiredState(String json) {
        try {
            JsonNode node = json == null ? null : Json.read(json);
            if (node instanceof ObjectNode object) {
                return object.deepCopy();
            }
        } catch (UncheckedIOException e) {
            // reported below
        }
        throw calls.error(
                InvalidRequestException.builder(), 400, "InvalidRequestException", "DesiredState is not a JSON object");
    }

    private boolean nameTaken(CloudControlTypes type, ObjectNode properties) {
        JsonNode name = properties.get(type.nameProperty());
        return name != null
                && resources.values().stream()
                        .anyMatch(r -> r.type() == type
                                && Objects.equals(r.properties().get(type.nameProperty()), name));
    }

    private AwsServiceException notFound(CloudControlTypes type, String identifier) {
        return notFound(type.typeName(), identifier);
    }

    private AwsServiceException notFound(String typeName, String identifier) {
        return calls.error(
                ResourceNotFoundException.builder(),
                400,
                "ResourceNotFoundException",
                "Resource of type '" + typeName + "' with identifier '" + identifier + "' was not found.");
    }

    /** The request as it stands at {@code now}: in progress for {@link #OPERATION}, then done. */
    private static ProgressEvent progress(Request r, Instant now) {
        Instant done = r.start().plus(OPERATION);
        var event = ProgressEvent.builder()
                .typeName(r.typeName())
                .requestToken(r.token())
                .operation(r.operation());
        if (now.isBefore(done)) {
            return event.operationStatus(OperationStatus.IN_PROGRESS)
                    .eventTime(r.start())
                    .identifier(r.operation() == Operation.DELETE ? r.identifier() : null)
                    .build();
        }
        if (r.rejection() != null) {
            return event.operationStatus(OperationStatus.FAILED)
                    .eventTime(done)
                    .errorCode(r.rejection().code())
                    .statusMessage(r.rejection().message())
                    .build();
        }
        return event.operationStatus(OperationStatus.SUCCESS)
                .eventTime(done)
                .identifier(r.identifier())
                .resourceModel(r.resourceModel())
                .build();
    }

    private static ResourceDescription describe(Resource r) {
        return ResourceDescription.builder()
                .identifier(r.identifier())
                .properties(Json.write(r.properties()))
                .build();
    }

    private static String key(CloudControlTypes type, String identifier) {
        return type.typeName() + "|" + identifier;
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
