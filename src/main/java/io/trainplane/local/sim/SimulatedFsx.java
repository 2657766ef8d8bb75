package io.trainplane.local.sim;

import io.trainplane.local.iam.Authorizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.BadRequestException;
import software.amazon.awssdk.services.fsx.model.CreateDataRepositoryAssociationRequest;
import software.amazon.awssdk.services.fsx.model.CreateDataRepositoryAssociationResponse;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemResponse;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociation;
import software.amazon.awssdk.services.fsx.model.DataRepositoryAssociationNotFoundException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryLifecycle;
import software.amazon.awssdk.services.fsx.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.DeleteFileSystemResponse;
import software.amazon.awssdk.services.fsx.model.DescribeDataRepositoryAssociationsRequest;
import software.amazon.awssdk.services.fsx.model.DescribeDataRepositoryAssociationsResponse;
import software.amazon.awssdk.services.fsx.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.fsx.model.DescribeFileSystemsResponse;
import software.amazon.awssdk.services.fsx.model.FileSystem;
import software.amazon.awssdk.services.fsx.model.FileSystemLifecycle;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.fsx.model.FileSystemType;
import software.amazon.awssdk.services.fsx.model.IncompatibleParameterErrorException;
import software.amazon.awssdk.services.fsx.model.InvalidImportPathException;
import software.amazon.awssdk.services.fsx.model.InvalidNetworkSettingsException;
import software.amazon.awssdk.services.fsx.model.ListTagsForResourceRequest;
import software.amazon.awssdk.services.fsx.model.ListTagsForResourceResponse;
import software.amazon.awssdk.services.fsx.model.LustreDeploymentType;
import software.amazon.awssdk.services.fsx.model.LustreFileSystemConfiguration;
import software.amazon.awssdk.services.fsx.model.ServiceLimitExceededException;
import software.amazon.awssdk.services.fsx.model.Tag;
import software.amazon.awssdk.services.fsx.model.TagResourceRequest;
import software.amazon.awssdk.services.fsx.model.TagResourceResponse;
import software.amazon.awssdk.services.fsx.model.UntagResourceRequest;
import software.amazon.awssdk.services.fsx.model.UntagResourceResponse;

/**
 * Amazon FSx for Lustre as the SDK sees it, in process: file systems CREATING → AVAILABLE →
 * DELETING → gone (https://docs.aws.amazon.com/fsx/latest/LustreGuide/file-system-lifecycle-states.html)
 * in one subnet of a {@link SimulatedNetwork}, with FSx's rules for a Lustre create (deployment
 * type, capacity, throughput, S3 link) and its errors. The ClientRequestToken makes a create
 * idempotent as FSx does: the same token with the same request returns the same file system, with
 * other parameters IncompatibleParameterError
 * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html).
 */
public final class SimulatedFsx implements FSxClient, Inventory {
    /**
     * CreateFileSystem to AVAILABLE: "several minutes" (https://alchemy.run/providers/aws/fsx/filesystem,
     * a provider that waits for it; FSx documents no figure,
     * https://docs.aws.amazon.com/fsx/latest/LustreGuide/file-system-lifecycle-states.html).
     */
    public static final Duration FILE_SYSTEM_CREATING = Duration.ofMinutes(6);

    public static final Duration DELETING = Duration.ofMinutes(2);
    /**
     * CreateDataRepositoryAssociation to AVAILABLE, the bucket's listing imported
     * (BatchImportMetaDataOnCreate). FSx documents no figure
     * (https://docs.aws.amazon.com/fsx/latest/LustreGuide/create-dra-linked-data-repo.html): the
     * twin's choice.
     */
    public static final Duration ASSOCIATION_CREATING = Duration.ofMinutes(1);
    /** At most 8 data repository associations per file system (API_CreateDataRepositoryAssociation). */
    static final int MAX_ASSOCIATIONS = 8;

    /** A data repository association, created with its file system's life ahead of it. */
    private record Association(String id, CreateDataRepositoryAssociationRequest request, Instant createdAt) {
        DataRepositoryLifecycle lifecycle(Instant now) {
            return now.isBefore(createdAt.plus(ASSOCIATION_CREATING))
                    ? DataRepositoryLifecycle.CREATING
                    : DataRepositoryLifecycle.AVAILABLE;
        }
    }

    private static final class LustreRecord {
        final CreateFileSystemRequest request;
        final String id;
        final String subnetId;
        final Map<String, String> tags = new TreeMap<>();
        final List<Association> associations = new ArrayList<>();
        Lifecycle life;

        LustreRecord(CreateFileSystemRequest request, String id, String subnetId, Lifecycle life) {
            this.request = request;
            this.id = id;
            this.subnetId = subnetId;
            this.life = life;
            request.tags().forEach(t -> tags.put(t.key(), t.value()));
        }
    }

    private final Map<String, LustreRecord> fileSystems = new LinkedHashMap<>();
    private final Clock clock;
    private final ServiceCalls calls;
    private final SimulatedNetwork network;
    private final SimulatedIds ids = new SimulatedIds("fsx");

    public SimulatedFsx(CallLog calls, Clock clock, FaultPlan faults, Authorizer iam, SimulatedNetwork network) {
        this.clock = clock;
        this.network = network;
        this.calls = new ServiceCalls(AwsService.FSX, calls, faults, iam, new FsxPermissions(this));
    }

    /** FSx without IAM, in the stack's network. */
    public SimulatedFsx(CallLog calls, Clock clock, FaultPlan faults) {
        this(calls, clock, faults, Authorizer.ALLOW_ALL, SimulatedNetwork.stack());
    }

    @Override
    public CreateFileSystemResponse createFileSystem(CreateFileSystemRequest request) {
        return calls.call("CreateFileSystem", request, () -> {
            synchronized (this) {
                Instant now = now();
                String token = request.clientRequestToken();
                if (token != null) {
                    for (LustreRecord fs : fileSystems.values()) {
                        if (token.equals(fs.request.clientRequestToken())) {
                            if (!sameCreate(fs.request, request)) {
                                throw incompatible(
                                        "ClientRequestToken",
                                        "A file system with client request token " + token
                                                + " exists and its parameters do not match");
                            }
                            return CreateFileSystemResponse.builder()
                                    .fileSystem(view(fs, now))
                                    .build();
                        }
                    }
                }
                String subnetId = validate(request);
                var fs = new LustreRecord(
                        request,
                        ids.next("fs-", 17),
                        subnetId,
                        Lifecycle.startingAt(now, FILE_SYSTEM_CREATING, DELETING));
                fileSystems.put(fs.id, fs);
                return CreateFileSystemResponse.builder()
                        .fileSystem(view(fs, now))
                        .build();
            }
        });
    }

    /** A retry sends the same request; only the token is compared by FSx's own rule, the rest here. */
    private static boolean sameCreate(CreateFileSystemRequest a, CreateFileSystemRequest b) {
        return a.toBuilder()
                .clientRequestToken(null)
                .build()
                .equals(b.toBuilder().clientRequestToken(null).build());
    }

    /**
     * FSx for Lustre's rules for a create: Lustre only here; one subnet of a known VPC; security
     * groups of that VPC; the capacity, throughput and S3 paths the deployment type allows
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html,
     * https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemLustreConfiguration.html).
     *
     * @return the subnet
     */
    private String validate(CreateFileSystemRequest request) {
        if (request.fileSystemType() != FileSystemType.LUSTRE) {
            throw badRequest(
                    "The simulated account offers FSx for Lustre only, not " + request.fileSystemTypeAsString());
        }
        if (!request.hasSubnetIds() || request.subnetIds().size() != 1) {
            throw error(
                    InvalidNetworkSettingsException.builder(),
                    400,
                    "InvalidNetworkSettings",
                    "A Lustre file system takes exactly one subnet ID");
        }
        String subnetId = request.subnetIds().getFirst();
        var subnet = network.subnet(subnetId)
                .orElseThrow(() -> error(
                        InvalidNetworkSettingsException.builder(),
                        400,
                        "InvalidNetworkSettings",
                        "The subnet ID '" + subnetId + "' does not exist"));
        for (String group : request.hasSecurityGroupIds() ? request.securityGroupIds() : List.<String>of()) {
            Optional<String> vpc = network.vpcOfSecurityGroup(group);
            if (vpc.isEmpty() || !vpc.get().equals(subnet.vpcId())) {
                throw error(
                        InvalidNetworkSettingsException.builder(),
                        400,
                        "InvalidNetworkSettings",
                        "The security group ID '" + group + "' does not exist in the VPC of subnet " + subnetId);
            }
        }
        var lustre = request.lustreConfiguration();
        LustreDeploymentType type = lustre == null || lustre.deploymentType() == null
                ? LustreDeploymentType.SCRATCH_1
                : lustre.deploymentType();
        Integer capacity = request.storageCapacity();
        int step = type == LustreDeploymentType.SCRATCH_1 ? 3600 : 2400;
        if (capacity == null || !(capacity == 1200 || capacity == 2400 || (capacity > 2400 && capacity % step == 0))) {
            throw badRequest("Invalid storage capacity " + capacity + " for deployment type " + type
                    + ": valid values are 1200 GiB, 2400 GiB and increments of " + step + " GiB");
        }
        Integer throughput = lustre == null ? null : lustre.perUnitStorageThroughput();
        List<Integer> allowed =
                switch (type) {
                    case PERSISTENT_1 -> List.of(50, 100, 200);
                    case PERSISTENT_2 -> List.of(125, 250, 500, 1000);
                    default -> List.of();
                };
        if (allowed.isEmpty() && throughput != null) {
            throw incompatible(
                    "PerUnitStorageThroughput",
                    "PerUnitStorageThroughput is only supported for PERSISTENT deployment types");
        }
        if (!allowed.isEmpty() && (throughput == null || !allowed.contains(throughput))) {
            throw badRequest("PerUnitStorageThroughput must be one of " + allowed + " for " + type);
        }
        String importPath = lustre == null ? null : lustre.importPath();
        String exportPath = lustre == null ? null : lustre.exportPath();
        if (importPath != null && type == LustreDeploymentType.PERSISTENT_2) {
            throw incompatible(
                    "ImportPath", "ImportPath is not supported for PERSISTENT_2; use a data repository association");
        }
        if (importPath != null && !importPath.startsWith("s3://")) {
            throw error(
                    InvalidImportPathException.builder(),
                    400,
                    "InvalidImportPath",
                    "The import path " + importPath + " is not an S3 URI");
        }
        if (exportPath != null && (importPath == null || !bucket(exportPath).equals(bucket(importPath)))) {
            throw incompatible("ExportPath", "ExportPath must be in the same S3 bucket as ImportPath");
        }
        return subnetId;
    }

    static String bucket(String s3Uri) {
        String rest = s3Uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    @Override
    public DescribeFileSystemsResponse describeFileSystems(DescribeFileSystemsRequest request) {
        return calls.call("DescribeFileSystems", request, () -> {
            synchronized (this) {
                Instant now = now();
                List<LustreRecord> matching = new ArrayList<>();
                if (request.hasFileSystemIds() && !request.fileSystemIds().isEmpty()) {
                    for (String id : request.fileSystemIds()) {
                        matching.add(fileSystem(id));
                    }
                } else {
                    matching.addAll(fileSystems.values());
                }
                var page = Paging.page(
                        matching,
                        request.nextToken(),
                        request.maxResults(),
                        2147483647,
                        () -> badRequest("The nextToken is not valid"));
                return DescribeFileSystemsResponse.builder()
                        .fileSystems(
                                page.items().stream().map(fs -> view(fs, now)).toList())
                        .nextToken(page.nextToken())
                        .build();
            }
        });
    }

    /** FSx refuses to delete a file system that is not AVAILABLE (or already DELETING: accepted again). */
    @Override
    public DeleteFileSystemResponse deleteFileSystem(DeleteFileSystemRequest request) {
        return calls.call("DeleteFileSystem", request, () -> {
            synchronized (this) {
                Instant now = now();
                LustreRecord fs = fileSystem(request.fileSystemId());
                if (fs.life.phase(now) == Lifecycle.Phase.CREATING) {
                    throw badRequest(
                            "File system " + fs.id + " is CREATING and cannot be deleted until it is AVAILABLE");
                }
                fs.life = fs.life.delete(now);
                return DeleteFileSystemResponse.builder()
                        .fileSystemId(fs.id)
                        .lifecycle(FileSystemLifecycle.DELETING)
                        .build();
            }
        });
    }

    /**
     * Links a file system to S3 as FSx does
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateDataRepositoryAssociation.html):
     * an AVAILABLE Lustre 2.12 or 2.15 file system, not SCRATCH_1, not one linked the legacy way
     * (ImportPath); an s3:// path; a file system path that overlaps none of its other associations;
     * at most {@value #MAX_ASSOCIATIONS}. The same ClientRequestToken answers the same association.
     */
    @Override
    public CreateDataRepositoryAssociationResponse createDataRepositoryAssociation(
            CreateDataRepositoryAssociationRequest request) {
        return calls.call("CreateDataRepositoryAssociation", request, () -> {
            synchronized (this) {
                Instant now = now();
                LustreRecord fs = fileSystem(request.fileSystemId());
                String token = request.clientRequestToken();
                for (Association a : fs.associations) {
                    if (token != null && token.equals(a.request().clientRequestToken())) {
                        return CreateDataRepositoryAssociationResponse.builder()
                                .association(view(fs, a, now))
                                .build();
                    }
                }
                if (fs.life.phase(now) != Lifecycle.Phase.READY) {
                    throw badRequest("File system " + fs.id + " is not AVAILABLE");
                }
                var lustre = fs.request.lustreConfiguration();
                String version =
                        fs.request.fileSystemTypeVersion() == null ? "2.10" : fs.request.fileSystemTypeVersion();
                if (!version.equals("2.12") && !version.equals("2.15")) {
                    throw incompatible(
                            "FileSystemTypeVersion",
                            "Data repository associations are supported on FSx for Lustre 2.12 and 2.15 file systems only;"
                                    + " file system " + fs.id + " runs Lustre " + version);
                }
                if (lustre == null
                        || lustre.deploymentType() == null
                        || lustre.deploymentType() == LustreDeploymentType.SCRATCH_1) {
                    throw incompatible(
                            "DeploymentType",
                            "Data repository associations are not supported on SCRATCH_1 file systems");
                }
                if (lustre.importPath() != null) {
                    throw incompatible(
                            "ImportPath", "File system " + fs.id + " is linked to S3 by its ImportPath already");
                }
                String path = request.fileSystemPath();
                if (path == null || !path.startsWith("/")) {
                    throw badRequest("FileSystemPath must start with a forward slash");
                }
                if (request.dataRepositoryPath() == null
                        || !request.dataRepositoryPath().startsWith("s3://")) {
                    throw badRequest("DataRepositoryPath must be an s3:// path");
                }
                for (Association a : fs.associations) {
                    String other = a.request().fileSystemPath();
                    if (overlaps(path, other)) {
                        throw badRequest("FileSystemPath " + path + " overlaps the path " + other
                                + " of data repository association " + a.id());
                    }
                }
                if (fs.associations.size() >= MAX_ASSOCIATIONS) {
                    throw error(
                            ServiceLimitExceededException.builder().limit("TOTAL_IN_PROGRESS_COPY_BACKUPS"),
                            400,
                            "ServiceLimitExceeded",
                            "A file system has at most " + MAX_ASSOCIATIONS + " data repository associations");
                }
                var created = new Association(ids.next("dra-", 17), request, now);
                fs.associations.add(created);
                return CreateDataRepositoryAssociationResponse.builder()
                        .association(view(fs, created, now))
                        .build();
            }
        });
    }

    private static boolean overlaps(String a, String b) {
        String x = a.endsWith("/") ? a : a + "/";
        String y = b.endsWith("/") ? b : b + "/";
        return x.startsWith(y) || y.startsWith(x);
    }

    @Override
    public DescribeDataRepositoryAssociationsResponse describeDataRepositoryAssociations(
            DescribeDataRepositoryAssociationsRequest request) {
        return calls.call("DescribeDataRepositoryAssociations", request, () -> {
            synchronized (this) {
                Instant now = now();
                List<DataRepositoryAssociation> found = new ArrayList<>();
                for (String id : request.hasAssociationIds() ? request.associationIds() : List.<String>of()) {
                    found.add(fileSystems.values().stream()
                            .flatMap(fs -> fs.associations.stream()
                                    .filter(a -> a.id().equals(id))
                                    .map(a -> view(fs, a, now)))
                            .findFirst()
                            .orElseThrow(() -> error(
                                    DataRepositoryAssociationNotFoundException.builder(),
                                    400,
                                    "DataRepositoryAssociationNotFound",
                                    "Data repository association '" + id + "' does not exist")));
                }
                return DescribeDataRepositoryAssociationsResponse.builder()
                        .associations(found)
                        .build();
            }
        });
    }

    private DataRepositoryAssociation view(LustreRecord fs, Association a, Instant now) {
        var r = a.request();
        return DataRepositoryAssociation.builder()
                .associationId(a.id())
                .resourceARN(IamRequests.ARN + "fsx:" + IamRequests.REGIONAL + "association/" + fs.id + "/" + a.id())
                .fileSystemId(fs.id)
                .lifecycle(
                        fs.life.phase(now) == Lifecycle.Phase.READY
                                ? a.lifecycle(now)
                                : DataRepositoryLifecycle.DELETING)
                .fileSystemPath(r.fileSystemPath())
                .dataRepositoryPath(r.dataRepositoryPath())
                .batchImportMetaDataOnCreate(r.batchImportMetaDataOnCreate())
                .s3(r.s3())
                .creationTime(a.createdAt())
                .build();
    }

    @Override
    public TagResourceResponse tagResource(TagResourceRequest request) {
        return calls.call("TagResource", request, () -> {
            synchronized (this) {
                now();
                request.tags().forEach(t -> byArn(request.resourceARN()).tags.put(t.key(), t.value()));
                return TagResourceResponse.builder().build();
            }
        });
    }

    @Override
    public UntagResourceResponse untagResource(UntagResourceRequest request) {
        return calls.call("UntagResource", request, () -> {
            synchronized (this) {
                now();
                byArn(request.resourceARN()).tags.keySet().removeAll(request.tagKeys());
                return UntagResourceResponse.builder().build();
            }
        });
    }

    @Override
    public ListTagsForResourceResponse listTagsForResource(ListTagsForResourceRequest request) {
        return calls.call("ListTagsForResource", request, () -> {
            synchronized (this) {
                now();
                return ListTagsForResourceResponse.builder()
                        .tags(tags(byArn(request.resourceARN()).tags))
                        .build();
            }
        });
    }

    @Override
    public synchronized List<CloudResource> resources() {
        now();
        return fileSystems.values().stream()
                .map(fs -> new CloudResource("fsx:file-system/" + fs.id, fs.tags))
                .sorted()
                .toList();
    }

    /** Whether file system {@code id} exists and is AVAILABLE (a node can mount it). */
    public synchronized boolean available(String id) {
        Instant now = now();
        LustreRecord fs = fileSystems.get(id);
        return fs != null && fs.life.phase(now) == Lifecycle.Phase.READY;
    }

    static String arn(String id) {
        return "arn:aws:fsx:" + AwsService.REGION + ":" + AwsService.ACCOUNT + ":file-system/" + id;
    }

    private FileSystem view(LustreRecord fs, Instant now) {
        var lustre = fs.request.lustreConfiguration();
        FileSystemLifecycle state =
                switch (fs.life.phase(now)) {
                    case CREATING -> FileSystemLifecycle.CREATING;
                    case READY -> FileSystemLifecycle.AVAILABLE;
                    case DELETING, GONE -> FileSystemLifecycle.DELETING;
                };
        return FileSystem.builder()
                .fileSystemId(fs.id)
                .resourceARN(arn(fs.id))
                .ownerId(AwsService.ACCOUNT)
                .fileSystemType(FileSystemType.LUSTRE)
                .lifecycle(state)
                .storageCapacity(fs.request.storageCapacity())
                .storageType(fs.request.storageType())
                .subnetIds(fs.subnetId)
                .dnsName(fs.id + ".fsx." + AwsService.REGION + ".amazonaws.com")
                .creationTime(fs.life.createdAt())
                .tags(tags(fs.tags))
                .lustreConfiguration(LustreFileSystemConfiguration.builder()
                        .deploymentType(lustre == null ? null : lustre.deploymentType())
                        .perUnitStorageThroughput(lustre == null ? null : lustre.perUnitStorageThroughput())
                        // A scratch file system's mount name is "fsx"; others get an 8-character name.
                        .mountName(
                                lustre != null
                                                && lustre.deploymentType() != null
                                                && lustre.deploymentTypeAsString()
                                                        .startsWith("PERSISTENT")
                                        ? fs.id.substring(fs.id.length() - 8)
                                        : "fsx")
                        .build())
                .build();
    }

    private static List<Tag> tags(Map<String, String> tags) {
        return tags.entrySet().stream()
                .map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build())
                .toList();
    }

    private Instant now() {
        Instant now = clock.instant();
        fileSystems.values().removeIf(fs -> fs.life.phase(now) == Lifecycle.Phase.GONE);
        return now;
    }

    private LustreRecord fileSystem(String id) {
        LustreRecord fs = id == null ? null : fileSystems.get(id);
        if (fs == null) {
            throw error(
                    FileSystemNotFoundException.builder(),
                    400,
                    "FileSystemNotFound",
                    "File system '" + id + "' does not exist.");
        }
        return fs;
    }

    private LustreRecord byArn(String arn) {
        String prefix = arn("");
        if (arn == null || !arn.startsWith(prefix)) {
            throw badRequest("Resource ARN '" + arn + "' is not an FSx file system of this account and region");
        }
        return fileSystem(arn.substring(prefix.length()));
    }

    /** For IAM: the tags of file system {@code id}, or null when it does not exist. */
    synchronized Map<String, String> tagsOrNull(String id) {
        LustreRecord fs = id == null ? null : fileSystems.get(id);
        return fs == null ? null : Map.copyOf(fs.tags);
    }

    private AwsServiceException badRequest(String message) {
        return error(BadRequestException.builder(), 400, "BadRequest", message);
    }

    private AwsServiceException incompatible(String parameter, String message) {
        return error(
                IncompatibleParameterErrorException.builder().parameter(parameter),
                400,
                "IncompatibleParameterError",
                message);
    }

    private AwsServiceException error(AwsServiceException.Builder builder, int status, String code, String message) {
        return calls.error(builder, status, code, message);
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
