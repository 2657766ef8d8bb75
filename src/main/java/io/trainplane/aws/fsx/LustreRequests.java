package io.trainplane.aws.fsx;

import io.trainplane.aws.RunTags;
import io.trainplane.spec.Names;
import io.trainplane.spec.VolumeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.fsx.model.CreateDataRepositoryAssociationRequest;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemLustreConfiguration;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.fsx.model.EventType;
import software.amazon.awssdk.services.fsx.model.FileSystemType;
import software.amazon.awssdk.services.fsx.model.LustreDeploymentType;
import software.amazon.awssdk.services.fsx.model.StorageType;
import software.amazon.awssdk.services.fsx.model.Tag;

/**
 * The FSx for Lustre requests of a run, as pure functions of its names and spec: {@code plan}
 * prints them, tests check them without an endpoint. {@link LustreVolumes} sends them.
 */
public final class LustreRequests {
    public static final String NAME_TAG = "Name";
    /** The Lustre version of the run's file systems: the newest, and one that takes data repository associations. */
    public static final String LUSTRE_VERSION = "2.15";
    /** Where {@code volume.s3ImportPath} appears in the file system: the pods' {@code /shared/data}. */
    public static final String IMPORT_PATH = "/data";
    /** What goes to {@code volume.s3ExportPath}: the pods' {@code /shared/model}. */
    public static final String EXPORT_PATH = "/model";

    private LustreRequests() {}

    /**
     * The run's file system
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html): SSD storage of
     * the spec's deployment type and capacity in one subnet of the cluster, guarded by the cluster's
     * security group. Lustre needs inbound TCP 988 and 1018-1023 from the clients and between the
     * file system's own interfaces
     * (https://docs.aws.amazon.com/fsx/latest/LustreGuide/limit-access-security-groups.html): the
     * EKS cluster security group admits all traffic from its own members, which are the nodes and,
     * once created, the file system's interfaces. The ClientRequestToken makes a retry return the
     * same file system.
     *
     * <p>Lustre 2.15, which every deployment type runs and which links S3 through data repository
     * associations ({@link #associations}) rather than the legacy ImportPath/ExportPath of 2.10
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html, FileSystemTypeVersion).
     */
    public static CreateFileSystemRequest createFileSystem(
            Names names, RunTags runTags, VolumeSpec volume, String subnetId, List<String> securityGroupIds) {
        CreateFileSystemLustreConfiguration.Builder lustre = CreateFileSystemLustreConfiguration.builder()
                .deploymentType(LustreDeploymentType.fromValue(
                        volume.lustreDeploymentType().name()));
        if (volume.perUnitStorageThroughput() != null) {
            lustre.perUnitStorageThroughput(volume.perUnitStorageThroughput());
        }
        return CreateFileSystemRequest.builder()
                .clientRequestToken(names.lustreRequestToken())
                .fileSystemType(FileSystemType.LUSTRE)
                .fileSystemTypeVersion(LUSTRE_VERSION)
                .storageType(StorageType.SSD)
                .storageCapacity(volume.lustreStorageCapacityGiB())
                .subnetIds(subnetId)
                .securityGroupIds(securityGroupIds)
                .lustreConfiguration(lustre.build())
                .tags(tags(names, runTags))
                .build();
    }

    /**
     * The file system's links to S3, each a data repository association
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateDataRepositoryAssociation.html,
     * https://docs.aws.amazon.com/fsx/latest/LustreGuide/create-dra-linked-data-repo.html):
     * {@code volume.s3ImportPath} at {@value #IMPORT_PATH} (where the run's data is read), imported
     * as the bucket changes (AutoImportPolicy NEW, CHANGED, DELETED) with its listing loaded at
     * once; {@code volume.s3ExportPath} at {@value #EXPORT_PATH} (where the training writes the
     * model and its checkpoints), exported as files change (AutoExportPolicy). Two paths, so that
     * the two never overlap, as FSx requires. Each has its own ClientRequestToken: a retry is the
     * same association.
     */
    public static List<CreateDataRepositoryAssociationRequest> associations(
            Names names, VolumeSpec volume, String fileSystemId) {
        List<CreateDataRepositoryAssociationRequest> links = new ArrayList<>();
        if (volume.s3ImportPath() != null) {
            links.add(CreateDataRepositoryAssociationRequest.builder()
                    .clientRequestToken(names.lustreRequestToken() + "-import")
                    .fileSystemId(fileSystemId)
                    .fileSystemPath(IMPORT_PATH)
                    .dataRepositoryPath(volume.s3ImportPath())
                    .batchImportMetaDataOnCreate(true)
                    .s3(s -> s.autoImportPolicy(p -> p.events(EventType.NEW, EventType.CHANGED, EventType.DELETED)))
                    .build());
        }
        if (volume.s3ExportPath() != null) {
            links.add(CreateDataRepositoryAssociationRequest.builder()
                    .clientRequestToken(names.lustreRequestToken() + "-export")
                    .fileSystemId(fileSystemId)
                    .fileSystemPath(EXPORT_PATH)
                    .dataRepositoryPath(volume.s3ExportPath())
                    .s3(s -> s.autoExportPolicy(p -> p.events(EventType.NEW, EventType.CHANGED, EventType.DELETED)))
                    .build());
        }
        return List.copyOf(links);
    }

    /** Name first (the request token), then the run's tags in key order. */
    public static List<Tag> tags(Names names, RunTags runTags) {
        List<Tag> tags = new ArrayList<>();
        tags.add(Tag.builder().key(NAME_TAG).value(names.lustreRequestToken()).build());
        for (Map.Entry<String, String> tag : runTags.asMap().entrySet()) {
            tags.add(Tag.builder().key(tag.getKey()).value(tag.getValue()).build());
        }
        return List.copyOf(tags);
    }

    public static DescribeFileSystemsRequest describe(String fileSystemId) {
        return DescribeFileSystemsRequest.builder().fileSystemIds(fileSystemId).build();
    }

    /** No final backup: the file system is the run's scratch space, its outputs are in S3. */
    public static DeleteFileSystemRequest delete(String fileSystemId) {
        return DeleteFileSystemRequest.builder().fileSystemId(fileSystemId).build();
    }
}
