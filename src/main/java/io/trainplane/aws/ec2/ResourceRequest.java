package io.trainplane.aws.ec2;

import io.trainplane.aws.ResourceState;
import java.util.Optional;

/**
 * A Cloud Control request as last seen: what to poll ({@code requestToken}), where the resource
 * stands, and its identifier once Cloud Control knows it (the launch template id, the placement
 * group name). Record the token in the run record and poll with {@link Ec2Objects#request}.
 */
public record ResourceRequest(String typeName, String requestToken, ResourceState state, Optional<String> identifier) {}
