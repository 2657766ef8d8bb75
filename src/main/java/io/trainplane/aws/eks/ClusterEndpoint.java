package io.trainplane.aws.eks;

/**
 * What later steps need of a cluster: its API endpoint and CA (to connect), the security group
 * EKS made for it and its VPC (EFS mount targets must admit the nodes). Fields the provider does
 * not report are null.
 */
public record ClusterEndpoint(
        String name, String endpoint, String certificateAuthorityData, String clusterSecurityGroupId, String vpcId) {}
