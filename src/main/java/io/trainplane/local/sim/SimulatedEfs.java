package io.trainplane.local.sim;

import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.sim.EfsRecords.FileSystemRecord;
import io.trainplane.local.sim.EfsRecords.MountTargetRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.efs.model.CreateFileSystemResponse;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;
import software.amazon.awssdk.services.efs.model.CreateMountTargetResponse;
import software.amazon.awssdk.services.efs.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.efs.model.DeleteFileSystemResponse;
import software.amazon.awssdk.services.efs.model.DeleteMountTargetRequest;
import software.amazon.awssdk.services.efs.model.DeleteMountTargetResponse;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsResponse;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetSecurityGroupsRequest;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetSecurityGroupsResponse;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsRequest;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsResponse;
import software.amazon.awssdk.services.efs.model.ListTagsForResourceRequest;
import software.amazon.awssdk.services.efs.model.ListTagsForResourceResponse;
import software.amazon.awssdk.services.efs.model.ModifyMountTargetSecurityGroupsRequest;
import software.amazon.awssdk.services.efs.model.ModifyMountTargetSecurityGroupsResponse;
import software.amazon.awssdk.services.efs.model.Tag;
import software.amazon.awssdk.services.efs.model.TagResourceRequest;
import software.amazon.awssdk.services.efs.model.TagResourceResponse;
import software.amazon.awssdk.services.efs.model.ThroughputMode;
import software.amazon.awssdk.services.efs.model.UntagResourceRequest;
import software.amazon.awssdk.services.efs.model.UntagResourceResponse;

/**
 * Amazon EFS as the SDK sees it, in process: file systems (creating → available → deleting →
 * gone) and their mount targets in the subnets of a {@link SimulatedNetwork} — one per
 * Availability Zone, all in one VPC, guarded by security groups of that VPC
 * ({@link MountTargetRules}) — with EFS's rules and errors. A creation token makes
 * CreateFileSystem idempotent the way EFS does it: while the file system exists, the same token
 * answers {@code FileSystemAlreadyExists} carrying its id, never a second file system.
 */
public final class SimulatedEfs implements EfsClient, Inventory {
    /**
     * CreateFileSystem to available. EFS documents no figure
     * (https://docs.aws.amazon.com/efs/latest/ug/API_CreateFileSystem.html): the twin's choice.
     */
    public static final Duration FILE_SYSTEM_CREATING = Duration.ofSeconds(30);
    /**
     * CreateMountTarget to available: "typically 1–2 minutes"
     * (https://alchemy.run/providers/aws/efs/mounttarget, a provider that waits for it; EFS's own
     * documentation gives no figure, https://docs.aws.amazon.com/efs/latest/ug/API_CreateMountTarget.html).
     */
    public static final Duration MOUNT_TARGET_CREATING = Duration.ofSeconds(90);

    public static final Duration DELETING = Duration.ofSeconds(30);

    private final Map<String, FileSystemRecord> fileSystems = new LinkedHashMap<>();
    private final Map<String, MountTargetRecord> mountTargets = new LinkedHashMap<>();
    private final Clock clock;
    private final ServiceCalls calls;
    private final EfsErrors errors;
    private final MountTargetRules rules;
    private final SimulatedIds ids = new SimulatedIds("efs");

    /** EFS in an account whose network is {@code network} (shared with the account's other services). */
    public SimulatedEfs(CallLog calls, Clock clock, FaultPlan faults, Authorizer iam, SimulatedNetwork network) {
        this.clock = clock;
        var permissions = new EfsPermissions(this);
        this.calls = new ServiceCalls(AwsService.EFS, calls, faults, iam, permissions);
        this.errors = new EfsErrors(this.calls);
        this.rules = new MountTargetRules(network, errors);
    }

    /** EFS without IAM in an account of its own with the stack's network ({@link SimulatedNetwork#stack()}). */
    public SimulatedEfs(CallLog calls, Clock clock, FaultPlan faults) {
        this(calls, clock, faults, Authorizer.ALLOW_ALL, SimulatedNetwork.stack());
    }

    @Override
    public CreateFileSystemResponse createFileSystem(CreateFileSystemRequest request) {
        return calls.call("CreateFileSystem", request, () -> {
            synchronized (this) {
                Instant now = now();
                // The SDK fills in an idempotency token when the caller gives none.
                String token = request.creationToken() != null
                        ? request.creationToken()
                        : UUID.randomUUID().toString();
                if (token.isEmpty() || token.length() > 64) {
                    throw errors.badRequest("CreationToken must be 1 to 64 characters long");
                }
                if (request.throughputMode() == ThroughputMode.PROVISIONED
                        && request.provisionedThroughputInMibps() == null) {
                    throw errors.badRequest(
                            "ProvisionedThroughputInMibps is required when ThroughputMode is provisioned");
                }
                for (FileSystemRecord fs : fileSystems.values()) {
                    if (fs.creationToken.equals(token)) {
                        throw errors.alreadyExists(fs.id, token);
                    }
                }
                String kmsKey = !Boolean.TRUE.equals(request.encrypted())
                        ? null
                        : request.kmsKeyId() != null
                                ? request.kmsKeyId()
                                : "arn:aws:kms:" + AwsService.REGION + ":" + AwsService.ACCOUNT + ":key/"
                                        + UUID.nameUUIDFromBytes(token.getBytes());
                var fs = new FileSystemRecord(
                        request,
                        token,
                        ids.next("fs-", 17),
                        kmsKey,
                        Lifecycle.startingAt(now, FILE_SYSTEM_CREATING, DELETING));
                fileSystems.put(fs.id, fs);
                return EfsViews.created(EfsViews.fileSystem(fs, 0, now));
            }
        });
    }

    @Override
    public DescribeFileSystemsResponse describeFileSystems(DescribeFileSystemsRequest request) {
        return calls.call("DescribeFileSystems", request, () -> {
            synchronized (this) {
                Instant now = now();
                List<FileSystemRecord> matching;
                if (request.fileSystemId() != null) {
                    matching = List.of(fileSystem(request.fileSystemId()));
                } else {
                    matching = fileSystems.values().stream()
                            .filter(fs -> request.creationToken() == null
                                    || request.creationToken().equals(fs.creationToken))
                            .toList();
                }
                var page = Paging.page(
                        matching,
                        request.marker(),
                        request.maxItems(),
                        100,
                        () -> errors.badRequest("The marker is not valid"));
                return DescribeFileSystemsResponse.builder()
                        .fileSystems(page.items().stream()
                                .map(fs -> EfsViews.fileSystem(
                                        fs, mountTargetsOf(fs.id).size(), now))
                                .toList())
                        .marker(request.marker())
                        .nextMarker(page.nextToken())
                        .build();
            }
        });
    }

    @Override
    public DeleteFileSystemResponse deleteFileSystem(DeleteFileSystemRequest request) {
        return calls.call("DeleteFileSystem", request, () -> {
            synchronized (this) {
                Instant now = now();
                FileSystemRecord fs = fileSystem(request.fileSystemId());
                if (!mountTargetsOf(fs.id).isEmpty()) {
                    throw errors.inUse(fs.id);
                }
                fs.life = fs.life.delete(now);
                return DeleteFileSystemResponse.builder().build();
            }
        });
    }

    @Override
    public CreateMountTargetResponse createMountTarget(CreateMountTargetRequest request) {
        return calls.call("CreateMountTarget", request, () -> {
            synchronized (this) {
                Instant now = now();
                FileSystemRecord fs = fileSystem(request.fileSystemId());
                if (request.subnetId() == null || request.subnetId().isBlank()) {
                    throw errors.badRequest("SubnetId is required");
                }
                if (fs.life.phase(now) != Lifecycle.Phase.READY) {
                    throw errors.notAvailable(
                            fs.id, EfsViews.state(fs.life, now).toString());
                }
                var placement = rules.place(fs, request, mountTargetsOf(fs.id), mountTargets.values());
                var mt = new MountTargetRecord(
                        request,
                        ids.next("fsmt-", 17),
                        ids.next("eni-", 17),
                        placement,
                        Lifecycle.startingAt(now, MOUNT_TARGET_CREATING, DELETING));
                mountTargets.put(mt.id, mt);
                return EfsViews.created(EfsViews.mountTarget(mt, now));
            }
        });
    }

    @Override
    public DescribeMountTargetsResponse describeMountTargets(DescribeMountTargetsRequest request) {
        return calls.call("DescribeMountTargets", request, () -> {
            synchronized (this) {
                Instant now = now();
                List<MountTargetRecord> matching;
                if (request.mountTargetId() != null) {
                    matching = List.of(mountTarget(request.mountTargetId()));
                } else if (request.fileSystemId() != null) {
                    matching = mountTargetsOf(fileSystem(request.fileSystemId()).id);
                } else {
                    throw errors.badRequest(
                            "Must specify exactly one mutually exclusive parameter: FileSystemId, MountTargetId or AccessPointId");
                }
                var page = Paging.page(
                        matching,
                        request.marker(),
                        request.maxItems(),
                        10,
                        () -> errors.badRequest("The marker is not valid"));
                return DescribeMountTargetsResponse.builder()
                        .mountTargets(page.items().stream()
                                .map(mt -> EfsViews.mountTarget(mt, now))
                                .toList())
                        .marker(request.marker())
                        .nextMarker(page.nextToken())
                        .build();
            }
        });
    }

    @Override
    public DeleteMountTargetResponse deleteMountTarget(DeleteMountTargetRequest request) {
        return calls.call("DeleteMountTarget", request, () -> {
            synchronized (this) {
                Instant now = now();
                MountTargetRecord mt = mountTarget(request.mountTargetId());
                mt.life = mt.life.delete(now);
                return DeleteMountTargetResponse.builder().build();
            }
        });
    }

    /**
     * "This operation requires that the network interface of the mount target has been created and
     * the lifecycle state of the mount target is not deleted"
     * (https://docs.aws.amazon.com/efs/latest/ug/API_DescribeMountTargetSecurityGroups.html). A
     * deleted mount target is not found here; the twin also refuses one being deleted (stricter).
     */
    @Override
    public DescribeMountTargetSecurityGroupsResponse describeMountTargetSecurityGroups(
            DescribeMountTargetSecurityGroupsRequest request) {
        return calls.call("DescribeMountTargetSecurityGroups", request, () -> {
            synchronized (this) {
                Instant now = now();
                MountTargetRecord mt = mountTarget(request.mountTargetId());
                if (mt.life.phase(now) == Lifecycle.Phase.DELETING) {
                    throw errors.mountTargetState(
                            mt.id, EfsViews.state(mt.life, now).toString());
                }
                return DescribeMountTargetSecurityGroupsResponse.builder()
                        .securityGroups(mt.securityGroups)
                        .build();
            }
        });
    }

    /**
     * Replaces the groups of the mount target's network interface
     * (https://docs.aws.amazon.com/efs/latest/ug/API_ModifyMountTargetSecurityGroups.html): up to
     * five, of the mount target's VPC. The docs ask only that the interface exists and the mount
     * target is not deleted; the twin is stricter and takes changes only while it is available. An
     * empty list is refused: an interface always has a group, and EFS documents no meaning for none.
     */
    @Override
    public ModifyMountTargetSecurityGroupsResponse modifyMountTargetSecurityGroups(
            ModifyMountTargetSecurityGroupsRequest request) {
        return calls.call("ModifyMountTargetSecurityGroups", request, () -> {
            synchronized (this) {
                Instant now = now();
                MountTargetRecord mt = mountTarget(request.mountTargetId());
                if (mt.life.phase(now) != Lifecycle.Phase.READY) {
                    throw errors.mountTargetState(
                            mt.id, EfsViews.state(mt.life, now).toString());
                }
                if (!request.hasSecurityGroups() || request.securityGroups().isEmpty()) {
                    throw errors.badRequest("SecurityGroups must name at least one security group");
                }
                mt.securityGroups = rules.securityGroups(request.securityGroups(), mt.subnet.vpcId());
                return ModifyMountTargetSecurityGroupsResponse.builder().build();
            }
        });
    }

    @Override
    public TagResourceResponse tagResource(TagResourceRequest request) {
        return calls.call("TagResource", request, () -> {
            synchronized (this) {
                now();
                var tags = taggable(request.resourceId()).tags;
                request.tags().forEach(t -> tags.put(t.key(), t.value()));
                return TagResourceResponse.builder().build();
            }
        });
    }

    @Override
    public UntagResourceResponse untagResource(UntagResourceRequest request) {
        return calls.call("UntagResource", request, () -> {
            synchronized (this) {
                now();
                taggable(request.resourceId()).tags.keySet().removeAll(request.tagKeys());
                return UntagResourceResponse.builder().build();
            }
        });
    }

    @Override
    public ListTagsForResourceResponse listTagsForResource(ListTagsForResourceRequest request) {
        return calls.call("ListTagsForResource", request, () -> {
            synchronized (this) {
                now();
                var tags = taggable(request.resourceId()).tags.entrySet().stream()
                        .map(e -> Tag.builder()
                                .key(e.getKey())
                                .value(e.getValue())
                                .build())
                        .toList();
                var page = Paging.page(
                        tags,
                        request.nextToken(),
                        request.maxResults(),
                        100,
                        () -> errors.badRequest("The nextToken is not valid"));
                return ListTagsForResourceResponse.builder()
                        .tags(page.items())
                        .nextToken(page.nextToken())
                        .build();
            }
        });
    }

    /** File systems with their tags; mount targets (EFS does not tag them) carry their file system's tags. */
    @Override
    public synchronized List<CloudResource> resources() {
        now();
        List<CloudResource> all = new ArrayList<>();
        fileSystems.values().forEach(fs -> all.add(new CloudResource("efs:file-system/" + fs.id, fs.tags)));
        mountTargets
                .values()
                .forEach(mt -> all.add(new CloudResource(
                        "efs:mount-target/" + mt.id,
                        fileSystems.containsKey(mt.fileSystemId())
                                ? fileSystems.get(mt.fileSystemId()).tags
                                : Map.of())));
        return all.stream().sorted().toList();
    }

    /**
     * The Availability Zones where file system {@code fileSystemId} has an available mount target
     * (what a node there can reach over NFS); empty when there is no such file system.
     */
    public synchronized java.util.Optional<java.util.Set<String>> mountTargetZones(String fileSystemId) {
        Instant now = now();
        if (!fileSystems.containsKey(fileSystemId)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(mountTargetsOf(fileSystemId).stream()
                .filter(mt -> mt.life.phase(now) == Lifecycle.Phase.READY)
                .map(mt -> mt.subnet.zoneName())
                .collect(java.util.stream.Collectors.toSet()));
    }

    private Instant now() {
        Instant now = clock.instant();
        mountTargets.values().removeIf(mt -> mt.life.phase(now) == Lifecycle.Phase.GONE);
        fileSystems.values().removeIf(fs -> fs.life.phase(now) == Lifecycle.Phase.GONE);
        return now;
    }

    private FileSystemRecord fileSystem(String id) {
        FileSystemRecord fs = id == null ? null : fileSystems.get(id);
        if (fs == null) {
            throw errors.fileSystemNotFound(id);
        }
        return fs;
    }

    private MountTargetRecord mountTarget(String id) {
        MountTargetRecord mt = id == null ? null : mountTargets.get(id);
        if (mt == null) {
            throw errors.mountTargetNotFound(id);
        }
        return mt;
    }

    private List<MountTargetRecord> mountTargetsOf(String fileSystemId) {
        return mountTargets.values().stream()
                .filter(mt -> mt.fileSystemId().equals(fileSystemId))
                .toList();
    }

    private FileSystemRecord taggable(String resourceId) {
        if (resourceId == null || !resourceId.startsWith("fs-")) {
            throw errors.badRequest(
                    "Resource '" + resourceId + "' cannot be tagged: only file systems and access points can");
        }
        return fileSystem(resourceId);
    }

    /** For IAM: the file system with this id, or null (a missing resource has no tags). */
    synchronized FileSystemRecord fileSystemOrNull(String id) {
        return fileSystems.get(id);
    }

    synchronized MountTargetRecord mountTargetOrNull(String id) {
        return mountTargets.get(id);
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
