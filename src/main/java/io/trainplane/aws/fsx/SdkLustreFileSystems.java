package io.trainplane.aws.fsx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.fsx.model.FSxException;
import software.amazon.awssdk.services.fsx.model.FileSystem;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;

/** {@link LustreFileSystems} through the FSx SDK: the AWS functions' and the simulated account's. */
public final class SdkLustreFileSystems implements LustreFileSystems {
    private final FSxClient fsx;

    public SdkLustreFileSystems(FSxClient fsx) {
        this.fsx = fsx;
    }

    @Override
    public Optional<Described> describe(String fileSystemId) {
        try {
            return fsx.describeFileSystems(LustreRequests.describe(fileSystemId)).fileSystems().stream()
                    .findFirst()
                    .map(SdkLustreFileSystems::described);
        } catch (FileSystemNotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<Described> list() {
        List<Described> all = new ArrayList<>();
        String token = null;
        do {
            var page = fsx.describeFileSystems(
                    DescribeFileSystemsRequest.builder().nextToken(token).build());
            page.fileSystems().forEach(fs -> all.add(described(fs)));
            token = page.nextToken();
        } while (token != null);
        return all;
    }

    @Override
    public void delete(String fileSystemId) {
        try {
            fsx.deleteFileSystem(LustreRequests.delete(fileSystemId));
        } catch (FSxException e) {
            throw new FsxError(
                    e.awsErrorDetails() == null
                            ? "Unknown"
                            : e.awsErrorDetails().errorCode(),
                    e.awsErrorDetails() == null
                            ? e.getMessage()
                            : e.awsErrorDetails().errorMessage());
        }
    }

    private static Described described(FileSystem fs) {
        Map<String, String> tags = new TreeMap<>();
        fs.tags().forEach(t -> tags.put(t.key(), t.value()));
        return new Described(fs.fileSystemId(), fs.fileSystemTypeAsString(), fs.lifecycleAsString(), tags);
    }
}
