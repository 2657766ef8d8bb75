package io.trainplane.local.sim;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.efs.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;

/** What the simulated EFS remembers about file systems and mount targets. */
final class EfsRecords {
    private EfsRecords() {}

    static final class FileSystemRecord {
        final CreateFileSystemRequest request;
        final String creationToken;
        final String id;
        final String kmsKeyId;
        final Map<String, String> tags = new TreeMap<>();
        Lifecycle life;

        FileSystemRecord(
                CreateFileSystemRequest request, String creationToken, String id, String kmsKeyId, Lifecycle life) {
            this.request = request;
            this.creationToken = creationToken;
            this.id = id;
            this.kmsKeyId = kmsKeyId;
            this.life = life;
            request.tags().forEach(t -> tags.put(t.key(), t.value()));
        }

        String arn() {
            return "arn:aws:elasticfilesystem:" + AwsService.REGION + ":" + AwsService.ACCOUNT + ":file-system/" + id;
        }
    }

    static final class MountTargetRecord {
        final CreateMountTargetRequest request;
        final String id;
        final String networkInterfaceId;
        final String ipAddress;
        final SimulatedNetwork.Subnet subnet;
        /** The groups of its network interface: replaced by ModifyMountTargetSecurityGroups. */
        List<String> securityGroups;

        Lifecycle life;

        MountTargetRecord(
                CreateMountTargetRequest request,
                String id,
                String networkInterfaceId,
                MountTargetRules.Placement placement,
                Lifecycle life) {
            this.request = request;
            this.id = id;
            this.networkInterfaceId = networkInterfaceId;
            this.ipAddress = placement.ipAddress();
            this.subnet = placement.subnet();
            this.securityGroups = placement.securityGroups();
            this.life = life;
        }

        String fileSystemId() {
            return request.fileSystemId();
        }
    }
}
