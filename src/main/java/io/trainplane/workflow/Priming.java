package io.trainplane.workflow;

import io.trainplane.aws.ModelWarmup;
import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.core.Json;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.RunSpecs;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceResponse;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequestStatusResponse;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesResponse;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsResponse;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsResponse;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsResponse;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupResponse;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupResponse;

/**
 * What a function's SnapStart hooks run before the snapshot, beyond the run store's requests
 * ({@link SnapStartHooks}): the code its invocations run first, loaded and warmed without side
 * effects. Declared per function in {@link Pipeline}. Every request goes through {@code offline}
 * (clients whose requests are signed with throwaway credentials and never leave: see
 * AwsClients#offline); {@code sample} is a run as the steps after StartRun receive it.
 */
public enum Priming {
    /** The spec's schema validation and normalization (the validator and the mapper it uses). */
    SPEC_VALIDATION,
    /** EKS DescribeCluster, and the model of its answer (the Cluster and what it holds). */
    EKS_CLUSTER,
    /** EKS DescribeNodegroup and ListNodegroups, and the model of their answers. */
    EKS_NODEGROUP,
    /** EKS CreateNodegroup, and the model of its request and answer. */
    EKS_NODEGROUP_CREATE,
    /** EFS DescribeFileSystems and DescribeMountTargets, and the model of their answers. */
    EFS_FILE_SYSTEM,
    /**
     * Cloud Control CreateResource and GetResourceRequestStatus (the cluster's log group, the node
     * group's placement group), GetResource and ListResources.
     */
    CLOUD_CONTROL,
    /** EKS ListClusters, EFS and FSx DescribeFileSystems: the janitor's sweep of the account. */
    ACCOUNT_SWEEP,
    /** An event on the stack's bus (EventBridge PutEvents). */
    RUN_EVENT,
    /** A Step Functions StartExecution. */
    EXECUTION_START,
    /**
     * The way to a cluster's Kubernetes API (AwsClients#primeClusters): the EKS call, the token,
     * the Kubernetes client and the mapping of the run's objects, the costly part of a first
     * request. Only the functions of the Kubernetes artifact, which holds the client.
     */
    KUBERNETES_ACCESS;

    /**
     * Builds the function's own clients of the services this priming reaches (no request: SDK
     * clients resolve credentials and connect on their first one), so the first invocation after
     * a restore does not build them.
     */
    void buildClients(Clients clients) {
        switch (this) {
            case SPEC_VALIDATION -> {}
            case EKS_CLUSTER, EKS_NODEGROUP, EKS_NODEGROUP_CREATE, KUBERNETES_ACCESS -> clients.eks();
            case EFS_FILE_SYSTEM -> clients.efs();
            case CLOUD_CONTROL -> clients.cloudControl();
            case ACCOUNT_SWEEP -> {
                clients.eks();
                clients.efs();
            }
            case RUN_EVENT -> clients.events();
            case EXECUTION_START -> clients.sfn();
        }
    }

    void prime(RunContext sample, AwsClients offline) {
        switch (this) {
            case SPEC_VALIDATION ->
                RunSpecs.normalize(
                        Json.write(sample.spec().toJson()),
                        KubernetesVersions.day(offline.clock().instant()));
            case EKS_CLUSTER -> {
                offline.eks().describeCluster(r -> r.name(sample.clusterName()));
                ModelWarmup.warm(DescribeClusterResponse.builder());
            }
            case EKS_NODEGROUP -> {
                offline.eks().describeNodegroup(r -> r.clusterName(sample.clusterName())
                        .nodegroupName(sample.names().nodeGroupName()));
                offline.eks()
                        .listNodegroupsPaginator(r -> r.clusterName(sample.clusterName()))
                        .nodegroups()
                        .forEach(name -> {});
                ModelWarmup.warm(DescribeNodegroupResponse.builder());
            }
            case EKS_NODEGROUP_CREATE -> {
                offline.eks().createNodegroup(r -> r.clusterName(sample.clusterName())
                        .nodegroupName(sample.names().nodeGroupName()));
                ModelWarmup.warm(CreateNodegroupRequest.builder());
                ModelWarmup.warm(CreateNodegroupResponse.builder());
            }
            case EFS_FILE_SYSTEM -> {
                offline.efs()
                        .describeFileSystems(r -> r.creationToken(sample.names().efsCreationToken()));
                offline.efs().describeMountTargets(r -> r.fileSystemId("fs-00000000"));
                ModelWarmup.warm(DescribeFileSystemsResponse.builder());
                ModelWarmup.warm(DescribeMountTargetsResponse.builder());
            }
            case CLOUD_CONTROL -> {
                offline.cloudControl().createResource(r -> r.typeName("AWS::Logs::LogGroup")
                        .desiredState("{}")
                        .clientToken(sample.runId()));
                offline.cloudControl().getResourceRequestStatus(r -> r.requestToken(sample.runId()));
                offline.cloudControl()
                        .getResource(r -> r.typeName("AWS::Logs::LogGroup").identifier(sample.runId()));
                offline.cloudControl()
                        .listResourcesPaginator(r -> r.typeName("AWS::Logs::LogGroup"))
                        .resourceDescriptions()
                        .forEach(resource -> {});
                ModelWarmup.warm(CreateResourceResponse.builder());
                ModelWarmup.warm(GetResourceRequestStatusResponse.builder());
                ModelWarmup.warm(ListResourcesResponse.builder());
            }
            case ACCOUNT_SWEEP -> {
                offline.eks().listClustersPaginator(r -> {}).clusters().forEach(name -> {});
                offline.efs()
                        .describeFileSystemsPaginator(r -> {})
                        .fileSystems()
                        .forEach(fs -> {});
                offline.lustreFileSystems().list();
                ModelWarmup.warm(DescribeFileSystemsResponse.builder());
            }
            case RUN_EVENT -> {
                StepWiring.runEvents(offline)
                        .publish("SnapStart Priming", Json.object().put("runId", sample.runId()));
                ModelWarmup.warm(PutEventsResponse.builder());
            }
            case EXECUTION_START ->
                offline.sfn().startExecution(r -> r.stateMachineArn(SnapStartHooks.STATE_MACHINE)
                        .name(sample.runId())
                        .input("{}"));
            case KUBERNETES_ACCESS -> offline.primeClusters(sample.spec());
        }
    }
}
