package io.trainplane.aws.ec2;

import io.trainplane.core.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import software.amazon.awssdk.services.cloudcontrol.model.Operation;
import software.amazon.awssdk.services.cloudcontrol.model.OperationStatus;
import software.amazon.awssdk.services.cloudcontrol.model.ProgressEvent;
import software.amazon.awssdk.services.cloudcontrol.model.RequestTokenNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceNotFoundException;

/**
 * A hand-written Cloud Control: requests are asynchronous (IN_PROGRESS until {@link #finish} or
 * {@link #fail}), a create with a client token already used is the same request (a different
 * desired state under it is a ClientTokenConflict), deletes of a missing resource are
 * ResourceNotFound, and a second delete while one runs is a ConcurrentOperation.
 */
final class FakeCloudControl implements CloudControlClient {
    record Request(String token, Operation operation, String typeName, String desiredState, String identifier) {}

    private final Map<String, Request> byClientToken = new HashMap<>();
    private final Map<String, Request> byRequestToken = new LinkedHashMap<>();
    private final Map<String, ProgressEvent> events = new HashMap<>();
    /** typeName + "|" + identifier → properties JSON. */
    final Map<String, String> resources = new LinkedHashMap<>();

    final List<Object> calls = new ArrayList<>();
    private int next;

    @Override
    public CreateResourceResponse createResource(CreateResourceRequest request) {
        calls.add(request);
        Request earlier = byClientToken.get(request.clientToken());
        if (earlier != null) {
            if (!earlier.desiredState().equals(request.desiredState())) {
                throw ClientTokenConflictException.builder()
                        .message("token used in another request")
                        .build();
            }
            return CreateResourceResponse.builder()
                    .progressEvent(events.get(earlier.token()))
                    .build();
        }
        String identifier =
                switch (request.typeName()) {
                    case Ec2DesiredState.LAUNCH_TEMPLATE -> "lt-0" + (++next);
                    case ControlPlaneLogGroup.TYPE ->
                        Json.read(request.desiredState()).path("LogGroupName").asText();
                    default -> "pg-" + (++next);
                };
        Request created = new Request(
                "req-" + (++next), Operation.CREATE, request.typeName(), request.desiredState(), identifier);
        byClientToken.put(request.clientToken(), created);
        byRequestToken.put(created.token(), created);
        events.put(created.token(), event(created, OperationStatus.IN_PROGRESS).build());
        return CreateResourceResponse.builder()
                .progressEvent(events.get(created.token()))
                .build();
    }

    @Override
    public GetResourceRequestStatusResponse getResourceRequestStatus(GetResourceRequestStatusRequest request) {
        calls.add(request);
        ProgressEvent event = events.get(request.requestToken());
        if (event == null) {
            throw RequestTokenNotFoundException.builder()
                    .message("no such request")
                    .build();
        }
        return GetResourceRequestStatusResponse.builder().progressEvent(event).build();
    }

    @Override
    public GetResourceResponse getResource(GetResourceRequest request) {
        calls.add(request);
        String properties = resources.get(request.typeName() + "|" + request.identifier());
        if (properties == null) {
            throw ResourceNotFoundException.builder().message("not found").build();
        }
        return GetResourceResponse.builder()
                .typeName(request.typeName())
                .resourceDescription(ResourceDescription.builder()
                        .identifier(request.identifier())
                        .properties(properties)
                        .build())
                .build();
    }

    @Override
    public DeleteResourceResponse deleteResource(DeleteResourceRequest request) {
        calls.add(request);
        if (!resources.containsKey(request.typeName() + "|" + request.identifier())) {
            throw ResourceNotFoundException.builder().message("not found").build();
        }
        for (Request running : byRequestToken.values()) {
            if (running.identifier().equals(request.identifier())
                    && events.get(running.token()).operationStatus() == OperationStatus.IN_PROGRESS) {
                throw ConcurrentOperationException.builder()
                        .message("another operation is running")
                        .build();
            }
        }
        Request delete =
                new Request("req-" + (++next), Operation.DELETE, request.typeName(), null, request.identifier());
        byRequestToken.put(delete.token(), delete);
        events.put(delete.token(), event(delete, OperationStatus.IN_PROGRESS).build());
        return DeleteResourceResponse.builder()
                .progressEvent(events.get(delete.token()))
                .build();
    }

    /** The request succeeds: a create makes its resource exist, a delete removes it. */
    void finish(String requestToken) {
        Request request = byRequestToken.get(requestToken);
        String key = request.typeName() + "|" + request.identifier();
        if (request.operation() == Operation.CREATE) {
            resources.put(key, request.desiredState());
        } else {
            resources.remove(key);
        }
        events.put(
                requestToken,
                event(request, OperationStatus.SUCCESS)
                        .identifier(request.identifier())
                        .build());
    }

    /** Finishes every request still in progress. */
    void finishAll() {
        byRequestToken.keySet().stream()
                .filter(token -> events.get(token).operationStatus() == OperationStatus.IN_PROGRESS)
                .toList()
                .forEach(this::finish);
    }

    void fail(String requestToken, HandlerErrorCode code, String message) {
        Request request = byRequestToken.get(requestToken);
        events.put(
                requestToken,
                event(request, OperationStatus.FAILED)
                        .errorCode(code)
                        .statusMessage(message)
                        .build());
    }

    /** The token of the latest request. */
    String lastRequestToken() {
        return byRequestToken.keySet().stream().reduce((a, b) -> b).orElseThrow();
    }

    private static ProgressEvent.Builder event(Request request, OperationStatus status) {
        return ProgressEvent.builder()
                .typeName(request.typeName())
                .requestToken(request.token())
                .operation(request.operation())
                .operationStatus(status)
                .eventTime(Instant.EPOCH)
                .identifier(request.operation() == Operation.DELETE ? request.identifier() : null);
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
