package io.trainplane.aws.ec2;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import java.util.Optional;

/**
 * The lifecycle of a resource of one type that a run makes through Cloud Control (a launch
 * template, a placement group), known by the token of the request that creates it: the run
 * records the token, and learns the resource's identifier from the request once it exists.
 */
public final class RequestedResources implements ResourceLifecycle<String> {
    private final Ec2Objects cloudControl;
    private final String typeName;

    public RequestedResources(Ec2Objects cloudControl, String typeName) {
        this.cloudControl = cloudControl;
        this.typeName = typeName;
    }

    /** The resource's identifier, once the request made it; empty while creating or when it made nothing. */
    public Optional<String> identifier(String requestToken) {
        return cloudControl.request(requestToken).identifier();
    }

    /** The request's state until it has made the resource; then whether the resource is still there. */
    @Override
    public ResourceState state(String requestToken) {
        ResourceRequest request = cloudControl.request(requestToken);
        if (!(request.state() instanceof ResourceState.Ready)) {
            return request.state();
        }
        return request.identifier()
                        .flatMap(id -> cloudControl.tags(typeName, id))
                        .isPresent()
                ? new ResourceState.Ready()
                : new ResourceState.Gone();
    }

    /**
     * Deletes what the request made. A create still under way is waited for ({@code Blocked}):
     * forgotten now, what it then creates would be left. A request that made nothing is Gone.
     */
    @Override
    public Deletion delete(String requestToken) {
        ResourceRequest request = cloudControl.request(requestToken);
        if (request.state() instanceof ResourceState.Creating) {
            return new Deletion.Blocked(
                    typeName + " is still being created (request " + requestToken + "): it is deleted once it exists");
        }
        Optional<String> identifier = request.identifier();
        return identifier.isEmpty() ? new Deletion.Gone() : cloudControl.delete(typeName, identifier.get());
    }
}
