package io.trainplane.aws.efs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsResponse;
import software.amazon.awssdk.services.efs.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.efs.model.MountTargetDescription;

/** A file system's mount targets, every page of DescribeMountTargets. */
final class MountTargetListing {
    private MountTargetListing() {}

    /** Empty when the file system does not exist. */
    static Optional<List<MountTargetDescription>> all(EfsClient efs, String fileSystemId) {
        List<MountTargetDescription> all = new ArrayList<>();
        String marker = null;
        try {
            do {
                DescribeMountTargetsResponse page =
                        efs.describeMountTargets(EfsRequests.describeMountTargets(fileSystemId, marker));
                all.addAll(page.mountTargets());
                marker = page.nextMarker();
            } while (marker != null && !marker.isEmpty());
        } catch (FileSystemNotFoundException e) {
            return Optional.empty();
        }
        return Optional.of(all);
    }
}
