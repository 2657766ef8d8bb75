package io.trainplane.local.sim;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.InvalidRequestException;
import software.amazon.awssdk.services.eks.model.NotFoundException;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/** EKS's errors, with the exception types, status codes and messages EKS answers with. */
final class EksErrors {
    private final ServiceCalls calls;

    EksErrors(ServiceCalls calls) {
        this.calls = calls;
    }

    AwsServiceException clusterNotFound(String cluster) {
        return calls.error(
                ResourceNotFoundException.builder().clusterName(cluster),
                404,
                "ResourceNotFoundException",
                "No cluster found for name: " + cluster + ".");
    }

    AwsServiceException nodegroupNotFound(String cluster, String nodegroup) {
        return calls.error(
                ResourceNotFoundException.builder().clusterName(cluster).nodegroupName(nodegroup),
                404,
                "ResourceNotFoundException",
                "No node group found for name: " + nodegroup + ".");
    }

    AwsServiceException addonNotFound(String cluster, String addon) {
        return calls.error(
                ResourceNotFoundException.builder().clusterName(cluster).addonName(addon),
                404,
                "ResourceNotFoundException",
                "No addon: " + addon + " found in cluster: " + cluster);
    }

    AwsServiceException clusterExists(String cluster) {
        return calls.error(
                ResourceInUseException.builder().clusterName(cluster),
                409,
                "ResourceInUseException",
                "Cluster already exists with name: " + cluster);
    }

    AwsServiceException nodegroupExists(String cluster, String nodegroup) {
        return calls.error(
                ResourceInUseException.builder().clusterName(cluster).nodegroupName(nodegroup),
                409,
                "ResourceInUseException",
                "NodeGroup already exists with name " + nodegroup + " and cluster name " + cluster);
    }

    AwsServiceException addonExists(String cluster, String addon) {
        return calls.error(
                ResourceInUseException.builder().clusterName(cluster).addonName(addon),
                409,
                "ResourceInUseException",
                "Addon already exists.");
    }

    AwsServiceException nodegroupsAttached(String cluster, String nodegroup) {
        return calls.error(
                ResourceInUseException.builder().clusterName(cluster).nodegroupName(nodegroup),
                409,
                "ResourceInUseException",
                "Cluster has nodegroups attached");
    }

    // Quoted from EKS's answer to an update of a node group that is not ACTIVE
    // (https://github.com/hashicorp/terraform-provider-aws/issues/13947).
    AwsServiceException nodegroupNotActive(String cluster, String nodegroup) {
        return calls.error(
                ResourceInUseException.builder().clusterName(cluster).nodegroupName(nodegroup),
                409,
                "ResourceInUseException",
                "Nodegroup cannot be updated as it is currently not in Active State");
    }

    AwsServiceException updateNotFound(String cluster, String updateId) {
        return calls.error(
                ResourceNotFoundException.builder().clusterName(cluster),
                404,
                "ResourceNotFoundException",
                "No update found for ID: " + updateId);
    }

    AwsServiceException notActive(String cluster) {
        return calls.error(
                InvalidRequestException.builder().clusterName(cluster),
                400,
                "InvalidRequestException",
                "Cluster '" + cluster + "' is not in ACTIVE status");
    }

    AwsServiceException clusterLimit(String cluster, int limit) {
        return calls.error(
                ResourceLimitExceededException.builder().clusterName(cluster),
                400,
                "ResourceLimitExceededException",
                "Cluster limit exceeded: this account already has " + limit + " clusters in " + AwsService.REGION);
    }

    AwsServiceException nodegroupLimit(String cluster, int limit) {
        return calls.error(
                ResourceLimitExceededException.builder().clusterName(cluster),
                400,
                "ResourceLimitExceededException",
                "Nodegroup limit exceeded: cluster " + cluster + " already has " + limit + " managed node groups");
    }

    AwsServiceException invalidParameter(String cluster, String message) {
        return calls.error(
                InvalidParameterException.builder().clusterName(cluster), 400, "InvalidParameterException", message);
    }

    // https://docs.aws.amazon.com/eks/latest/APIReference/API_CreatePodIdentityAssociation.html (Errors):
    // ResourceInUseException for an association that exists, ResourceNotFoundException for a missing one.
    AwsServiceException podIdentityExists(String cluster, String namespace, String serviceAccount) {
        return calls.error(
                ResourceInUseException.builder().clusterName(cluster),
                409,
                "ResourceInUseException",
                "Association already exists for service account " + serviceAccount + " in namespace " + namespace
                        + " of cluster " + cluster);
    }

    AwsServiceException podIdentityNotFound(String cluster, String associationId) {
        return calls.error(
                ResourceNotFoundException.builder().clusterName(cluster),
                404,
                "ResourceNotFoundException",
                "No association found for id: " + associationId + " in cluster: " + cluster);
    }

    AwsServiceException resourceNotFound(String arn) {
        return calls.error(NotFoundException.builder(), 404, "NotFoundException", "Resource not found: " + arn);
    }

    // Access entries: messages as EKS answers them (409 and 400 quoted in terraform-provider-aws and
    // crossplane issues; https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateAccessEntry.html).

    AwsServiceException accessEntryExists(String cluster) {
        return calls.error(
                ResourceInUseException.builder().clusterName(cluster),
                409,
                "ResourceInUseException",
                "The specified access entry resource is already in use on this cluster.");
    }

    AwsServiceException accessEntryNotFound(String cluster) {
        return calls.error(
                ResourceNotFoundException.builder().clusterName(cluster),
                404,
                "ResourceNotFoundException",
                "The specified principalArn could not be found. You can view your available access entries with 'list-access-entries'.");
    }

    AwsServiceException policyNotAssociated(String cluster, String policyArn) {
        return calls.error(
                ResourceNotFoundException.builder().clusterName(cluster),
                404,
                "ResourceNotFoundException",
                "The specified policyArn " + policyArn + " is not associated with the access entry.");
    }

    AwsServiceException accessEntriesNotEnabled(String cluster) {
        return calls.error(
                InvalidRequestException.builder().clusterName(cluster),
                400,
                "InvalidRequestException",
                "The cluster's authentication mode must be set to one of [API, API_AND_CONFIG_MAP] to perform this operation.");
    }
}
