package io.trainplane.local.sim;

import io.trainplane.local.iam.IamRequest;
import java.util.List;
import software.amazon.awssdk.core.SdkRequest;

/**
 * What IAM is asked when a service operation is called: the action on the resource the Service
 * Authorization Reference names for it, with the condition keys the request and the resource
 * carry, and the actions the service performs with the caller's permissions on its behalf
 * (iam:PassRole, tagging on create, the EC2 calls behind a mount target). Every operation a
 * simulated service offers has an answer here; one without is a bug, not an allowed call.
 */
interface Permissions {
    List<IamRequest> of(String operation, SdkRequest request);

    static List<IamRequest> unmapped(String operation) {
        throw new IllegalStateException("the simulated account has no IAM mapping for " + operation);
    }
}
