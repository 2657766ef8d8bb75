package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.ModelWarmup;
import io.trainplane.aws.OfflineHttpClient;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.ControlPlaneLogGroup;
import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.RunSpecs;
import java.util.List;
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
    /**
     * The spec's schema validation and normalization (the validator and the mapper it uses), and its
     * worst case priced as StartRun prices it against the stack's ceilings (the price table, CostEstimate).
     */
    SPEC_VALIDATION,
    /** EKS DescribeCluster, and the model of its answer (the Cluster and what it holds). */
    EKS_CLUSTER,
    /**
     * EC2's DescribeInstanceTypes over its Query protocol (XML) and the Price List's GetProducts,
     * as StartRun asks them ({@link io.trainplane.aws.catalog.AwsInstanceCatalog}).
     */
    INSTANCE_CATALOG,
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
    /**
     * The janitor's sweep (EKS ListClusters, EFS and FSx DescribeFileSystems, Cloud Control's log
     * groups) of an account holding one orphan of each kind, adopted into its run's record and its
     * cleanup started.
     */
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
            case INSTANCE_CATALOG -> clients.instanceCatalog();
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

    void prime(RunContext sample, AwsClients offline, OfflineHttpClient answered) {
        switch (this) {
            // On the calendar's own day, not the snapshot's: the sample's version is one EKS supports
            // that day, so priming validates the same on any day the function is published.
            case SPEC_VALIDATION -> {
                RunSpecs.normalize(Json.write(sample.spec().toJson()), KubernetesVersions.asOf());
                io.trainplane.runs.CostEstimate.of(
                                sample.spec(),
                                io.trainplane.aws.RunPrices.forRegion(io.trainplane.aws.RunPrices.DEFAULT_REGION),
                                KubernetesVersions.asOf())
                        .ceilingWorstCase();
            }
            case INSTANCE_CATALOG -> {
                answerInstanceCatalog(sample, answered);
                var types =
                        java.util.List.of(sample.spec().cluster().nodeGroup().firstType());
                offline.instanceCatalog().describeInstanceTypes(types);
                offline.instanceCatalog().onDemandPerHour(io.trainplane.aws.RunPrices.DEFAULT_REGION, types);
            }
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
                String stack = offline.settings().stackName();
                answerOrphans(sample, offline.settings(), answered);
                RunStore store = StepWiring.runStore(offline);
                // The orphans' run has failed: the janitor adopts them into its record and starts its cleanup.
                store.update(sample.runId(), run -> run.withStatus(RunStatus.FAILED));
                readBackLastWrite(answered);
                answered.answer(QUERY, "{}"); // no warm node group claimed
                TaggedResources.Sweep sweep =
                        TaggedResources.of(offline, stack, offline.settings().stackId());
                new JanitorStep(
                                store,
                                offline.clock(),
                                () -> StepWiring.runEvents(offline),
                                () -> sweep,
                                offline::sfn,
                                () -> SnapStartHooks.STATE_MACHINE,
                                () -> SnapStartHooks.STATE_MACHINE)
                        .clean(sweep, offline.clock().instant());
                ModelWarmup.warm(DescribeFileSystemsResponse.builder());
            }
            case RUN_EVENT -> {
                new RunEventPublisher(
                                "SnapStart",
                                () -> StepWiring.runEvents(offline),
                                StepWiring.runStore(offline),
                                offline.clock())
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

    private static final String PUT_ITEM = "DynamoDB_20120810.PutItem";
    private static final String GET_ITEM = "DynamoDB_20120810.GetItem";
    private static final String QUERY = "DynamoDB_20120810.Query";

    /** The run store's reads answer the item it wrote last, so reading a record is primed as well as writing one. */
    static void readBackLastWrite(OfflineHttpClient answered) {
        answered.answer(
                GET_ITEM,
                Json.write(Json.object().set("Item", written(answered, 1).get(0))));
    }

    /** The run store's queries answer the {@code steps} items it wrote last: its timeline, read back. */
    static void readBackTimeline(OfflineHttpClient answered, int steps) {
        ArrayNode items = Json.array().addAll(written(answered, steps));
        answered.answer(QUERY, Json.write(Json.object().put("Count", steps).set("Items", items)));
    }

    /** The last {@code count} items PutItem wrote. */
    private static List<JsonNode> written(OfflineHttpClient answered, int count) {
        List<String> puts = answered.requestBodies(PUT_ITEM);
        return puts.subList(puts.size() - count, puts.size()).stream()
                .map(body -> Json.read(body).path("Item"))
                .toList();
    }

    /**
     * One resource of each kind the sweep lists (a cluster with its node groups, EFS and FSx file
     * systems, a control-plane log group), tagged for the sample's run of the stack: the
     * janitor's way through what it finds is primed, not only its empty sweep.
     */
    private static void answerInstanceCatalog(RunContext sample, OfflineHttpClient answered) {
        // EC2's Query protocol: every action is a POST to / (StartRun's DescribeInstanceTypes alone here).
        String type = sample.spec().cluster().nodeGroup().firstType();
        String instanceTypes = "<DescribeInstanceTypesResponse><instanceTypeSet><item><instanceType>" + type
                + "</instanceType><vCpuInfo><defaultVCpus>4</defaultVCpus></vCpuInfo><memoryInfo><sizeInMiB>16384"
                + "</sizeInMiB></memoryInfo><processorInfo><supportedArchitectures><item>x86_64</item>"
                + "</supportedArchitectures></processorInfo><networkInfo><maximumNetworkInterfaces>4"
                + "</maximumNetworkInterfaces><ipv4AddressesPerInterface>15</ipv4AddressesPerInterface>"
                + "<efaSupported>false</efaSupported></networkInfo><supportedUsageClasses><item>on-demand</item>"
                + "</supportedUsageClasses></item></instanceTypeSet></DescribeInstanceTypesResponse>";
        ObjectNode product = Json.object();
        product.putObject("terms")
                .putObject("OnDemand")
                .putObject("T")
                .putObject("priceDimensions")
                .putObject("D")
                .putObject("pricePerUnit")
                .put("USD", "1.0");
        ObjectNode products = Json.object();
        products.putArray("PriceList").add(Json.write(product));

        answered.answer("POST /", instanceTypes)
                .answer(io.trainplane.aws.catalog.AwsInstanceCatalog.PRICE_LIST_TARGET, Json.write(products));
    }

    private static void answerOrphans(RunContext sample, Settings settings, OfflineHttpClient answered) {
        String cluster = sample.clusterName();
        String logGroup = ControlPlaneLogGroup.name(cluster);
        ObjectNode tags = Json.object();
        RunTags.of(settings, sample.names()).asMap().forEach(tags::put);
        ArrayNode tagList = Json.array();
        tags.properties().forEach(tag -> tagList.addObject()
                .put("Key", tag.getKey())
                .put("Value", tag.getValue().asText()));

        ObjectNode clusters = Json.object();
        clusters.putArray("clusters").add(cluster);
        ObjectNode described = Json.object();
        described.putObject("cluster").put("name", cluster).set("tags", tags);
        ObjectNode nodegroups = Json.object();
        nodegroups
                .putArray("nodegroups")
                .add(sample.names().systemNodeGroupName())
                .add(sample.names().nodeGroupName());
        ObjectNode efs = Json.object();
        efs.putArray("FileSystems")
                .addObject()
                .put("FileSystemId", "fs-00000000")
                .put("LifeCycleState", "available")
                .set("Tags", tagList);
        ObjectNode lustre = Json.object();
        lustre.putArray("FileSystems")
                .addObject()
                .put("FileSystemId", "fs-00000000000000000")
                .put("FileSystemType", "LUSTRE")
                .put("Lifecycle", "AVAILABLE")
                .set("Tags", tagList);
        ObjectNode logGroups = Json.object();
        logGroups.putArray("ResourceDescriptions").addObject().put("Identifier", logGroup);
        ObjectNode logGroupTags = Json.object();
        logGroupTags
                .putObject("ResourceDescription")
                .put("Identifier", logGroup)
                .put("Properties", Json.write(Json.object().set("Tags", tagList)));

        answered.answer("GET /clusters", Json.write(clusters))
                .answer("GET /clusters/" + cluster, Json.write(described))
                .answer("GET /clusters/" + cluster + "/node-groups", Json.write(nodegroups))
                .answer("GET /2015-02-01/file-systems", Json.write(efs))
                .answer("AWSSimbaAPIService_v20180301.DescribeFileSystems", Json.write(lustre))
                .answer("CloudApiService.ListResources", Json.write(logGroups))
                .answer("CloudApiService.GetResource", Json.write(logGroupTags));
    }
}
