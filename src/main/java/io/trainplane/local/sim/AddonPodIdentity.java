package io.trainplane.local.sim;

import java.time.Instant;

/**
 * An EKS Pod Identity association, as the simulated EKS records it when CreateAddon is given
 * {@code podIdentityAssociations}: the add-on's service account may assume {@code roleArn}.
 */
public record AddonPodIdentity(
        String clusterName,
        String namespace,
        String serviceAccount,
        String roleArn,
        String associationId,
        String associationArn,
        String ownerArn,
        Instant createdAt) {}
