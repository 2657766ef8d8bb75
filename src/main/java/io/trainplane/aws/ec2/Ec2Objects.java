package io.trainplane.aws.ec2;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudcontrol.model.AlreadyExistsException;
import software.amazon.awssdk.services.cloudcontrol.model.ClientTokenConflictException;
import software.amazon.awssdk.services.cloudcontrol.model.ConcurrentOperationException;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.HandlerErrorCode;
import software.amazon.awssdk.services.cloudcontrol.model.Operation;
import software.amazon.awssdk.services.cloudcontrol.model.OperationStatus;
import software.amazon.awssdk.services.cloudcontrol.model.ProgressEvent;
import software.amazon.awssdk.services.cloudcontrol.model.RequestTokenNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.ServiceLimitExceededException;

/**
 * The few objects a run makes through the Cloud Control API, so the Lambda artifact does without
 * the EC2 and CloudWatch Logs SDK modules: a launch template per node group (the metadata
 * options; for the workers' also capacity reservations, capacity blocks, EFA), a cluster placement group (EFA), and the
 * log group of the cluster's control-plane logs ({@link ControlPlaneLogGroup}).
 *
 * <p>Creates are asynchronous: they return the request as Cloud Control first reports it, and the
 * caller polls {@link #request} with its token. A create sent again with the run's client token
 * is the same request (for 36 hours). Deletes are called again until {@code Gone}.
 */
public final class Ec2Objects {
    private final CloudControlClient cloudControl;

    public Ec2Objects(CloudControlClient cloudControl) {
        this.cloudControl = cloudControl;
    }

    /**
     * The node group's launch template ({@link Ec2DesiredState#launchTemplate}); its identifier is
     * the launch template id, and EKS also takes its name ({@link Ec2DesiredState#launchTemplateName}).
     */
    public ResourceRequest createLaunchTemplate(
            Names names,
            RunTags tags,
            NodeGroupSpec nodeGroup,
            Optional<String> placementGroupName,
            List<String> securityGroupIds) {
        return create(
                Ec2DesiredState.createLaunchTemplate(names, tags, nodeGroup, placementGroupName, securityGroupIds));
    }

    /** The system node group's launch template ({@link Ec2DesiredState#systemLaunchTemplate}): its identifier is its id. */
    public ResourceRequest createSystemLaunchTemplate(Names names, RunTags tags, int diskGiB) {
        return create(Ec2DesiredState.createSystemLaunchTemplate(names, tags, diskGiB));
    }

    /** A cluster placement group; its identifier is its name, chosen by EC2. */
    public ResourceRequest createPlacementGroup(Names names, RunTags tags) {
        return create(Ec2DesiredState.createPlacementGroup(names, tags));
    }

    /** The cluster's control-plane log group; its identifier is its name ({@link ControlPlaneLogGroup#name}). */
    public ResourceRequest createControlPlaneLogGroup(Names names, RunTags tags, int retentionDays) {
        return create(ControlPlaneLogGroup.create(names, tags, retentionDays));
    }

    /**
     * The tags of a resource (its schema's {@code Tags} property, a [{Key, Value}] list), or empty
     * when the resource does not exist (or is still being created).
     */
    public Optional<Map<String, String>> tags(String typeName, String identifier) {
        String properties;
        try {
            properties = cloudControl
                    .getResource(r -> r.typeName(typeName).identifier(identifier))
                    .resourceDescription()
                    .properties();
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        }
        Map<String, String> tags = new TreeMap<>();
        Json.read(properties)
                .path("Tags")
                .forEach(t -> tags.put(t.path("Key").asText(), t.path("Value").asText()));
        return Optional.of(tags);
    }

    /** The identifiers of every resource of a type in the account and region (all pages). */
    public List<String> identifiers(String typeName) {
        return cloudControl.listResourcesPaginator(r -> r.typeName(typeName)).resourceDescriptions().stream()
                .map(ResourceDescription::identifier)
                .toList();
    }

    /** The request behind {@code requestToken}, as Cloud Control reports it now. */
    public ResourceRequest request(String requestToken) {
        try {
            return fromEvent(cloudControl
                    .getResourceRequestStatus(r -> r.requestToken(requestToken))
                    .progressEvent());
        } catch (RequestTokenNotFoundException e) {
            throw new TerminalException(
                    FailureReason.CloudControlRequestNotFound,
                    "Cloud Control no longer knows request " + requestToken
                            + " (it keeps requests for a limited time): start the run again",
                    e);
        }
    }

    public ResourceState requestState(String requestToken) {
        return request(requestToken).state();
    }

    /**
     * Deletes a resource, or reports on its deletion: call again until {@code Gone}. A resource
     * that no longer exists is {@code Gone}; while a delete is running it is {@code Deleting}; a
     * delete Cloud Control refuses at once is {@code Blocked} with its reason. No client token is
     * sent, so a delete that failed (a placement group still in use) is tried again on the next
     * call; the reason for such an asynchronous failure is not kept.
     */
    public Deletion delete(String typeName, String identifier) {
        try {
            cloudControl.getResource(r -> r.typeName(typeName).identifier(identifier));
            // The same client token on every pass: Cloud Control answers a request it already
            // has with that request's progress, so a delete its handler was refused (IAM) ends
            // cleanup with the refusal instead of a new request each pass. Any other failure gets
            // a new request.
            String token = UUID.nameUUIDFromBytes(
                            ("delete " + typeName + " " + identifier).getBytes(StandardCharsets.UTF_8))
                    .toString();
            ProgressEvent event = cloudControl
                    .deleteResource(
                            r -> r.typeName(typeName).identifier(identifier).clientToken(token))
                    .progressEvent();
            if (event.operationStatus() == OperationStatus.FAILED
                    && event.errorCode() != HandlerErrorCode.ACCESS_DENIED
                    && event.errorCode() != HandlerErrorCode.NOT_FOUND) {
                event = cloudControl
                        .deleteResource(r -> r.typeName(typeName).identifier(identifier))
                        .progressEvent();
            }
            return deletion(event);
        } catch (ResourceNotFoundException e) {
            return new Deletion.Gone();
        } catch (ConcurrentOperationException e) {
            return new Deletion.Deleting();
        }
    }

    private ResourceRequest create(CreateResourceRequest request) {
        try {
            return fromEvent(cloudControl.createResource(request).progressEvent());
        } catch (ClientTokenConflictException e) {
            throw new TerminalException(
                    FailureReason.ClientTokenConflict,
                    "an earlier " + request.typeName() + " request of this"
                            + " run, with token " + request.clientToken() + ", asked for something else: the node group"
                            + " settings changed between attempts; start a new run",
                    e);
        } catch (AlreadyExistsException e) {
            throw new TerminalException(
                    FailureReason.AlreadyExists,
                    request.typeName() + " already exists (left by an earlier"
                            + " run with this run id?): delete it, or start the run under another id",
                    e);
        } catch (ServiceLimitExceededException e) {
            throw new TerminalException(
                    FailureReason.ServiceLimitExceeded,
                    "a quota stops the creation of " + request.typeName() + ": free or raise it (Service Quotas)",
                    e);
        } catch (ConcurrentOperationException e) {
            throw new TransientException("Cloud Control is busy with another request on " + request.typeName(), e);
        }
    }

    static ResourceRequest fromEvent(ProgressEvent event) {
        String identifier = event.identifier();
        return new ResourceRequest(
                event.typeName(),
                event.requestToken(),
                state(event),
                identifier == null || identifier.isEmpty() ? Optional.empty() : Optional.of(identifier));
    }

    /** A request's progress as the state of its resource: a delete ends {@code Gone}. */
    static ResourceState state(ProgressEvent event) {
        boolean delete = event.operation() == Operation.DELETE;
        return switch (event.operationStatus()) {
            case SUCCESS -> delete ? new ResourceState.Gone() : new ResourceState.Ready();
            case FAILED ->
                delete && event.errorCode() == HandlerErrorCode.NOT_FOUND
                        ? new ResourceState.Gone()
                        : new ResourceState.Failed(failure(event));
            case CANCEL_IN_PROGRESS, CANCEL_COMPLETE ->
                new ResourceState.Failed(event.typeName() + " " + event.operationAsString() + " was cancelled");
            case PENDING, IN_PROGRESS, UNKNOWN_TO_SDK_VERSION ->
                delete
                        ? new ResourceState.Deleting()
                        : new ResourceState.Creating(event.typeName() + " " + event.operationStatusAsString());
        };
    }

    static Deletion deletion(ProgressEvent event) {
        if (event.operationStatus() == OperationStatus.FAILED && event.errorCode() == HandlerErrorCode.ACCESS_DENIED) {
            // Not blocked for now: IAM refuses it every time, and cleanup must say so instead of waiting.
            throw new TerminalException(FailureReason.AccessDeniedException, failure(event));
        }
        return switch (state(event)) {
            case ResourceState.Gone gone -> new Deletion.Gone();
            case ResourceState.Failed failed -> new Deletion.Blocked(failed.reason());
            default -> new Deletion.Deleting();
        };
    }

    /** "AWS::EC2::PlacementGroup CREATE failed (ServiceLimitExceeded): …" plus what to do. */
    static String failure(ProgressEvent event) {
        String hint = event.errorCode() == null
                ? ""
                : switch (event.errorCode()) {
                    case ALREADY_EXISTS ->
                        "; it was left by an earlier run with this run id? Delete it or use another run id";
                    case SERVICE_LIMIT_EXCEEDED -> "; free or raise the quota (Service Quotas)";
                    case ACCESS_DENIED, UNAUTHORIZED_TAGGING_OPERATION ->
                        "; the functions' role lacks a permission for this (see template.yaml)";
                    default -> "";
                };
        return event.typeName() + " " + event.operationAsString() + " failed (" + event.errorCodeAsString() + "): "
                + event.statusMessage() + hint;
    }
}
