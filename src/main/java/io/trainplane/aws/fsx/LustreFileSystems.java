package io.trainplane.aws.fsx;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What cleanup asks of FSx, without the FSx SDK's model: the Teardown function runs from the
 * Kubernetes artifact, which has no room for the FSx SDK module (about 2 MB against its budget),
 * so on AWS it speaks FSx's JSON protocol for these calls ({@link FsxJsonClient}); the AWS functions
 * and the simulated account answer through the SDK ({@link SdkLustreFileSystems}).
 */
public interface LustreFileSystems {
    /**
     * A file system as DescribeFileSystems shows it
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_FileSystem.html).
     */
    record Described(String fileSystemId, String fileSystemType, String lifecycle, Map<String, String> tags) {
        public Described {
            tags = Map.copyOf(tags);
        }
    }

    /** An error FSx answered with: its code ({@code FileSystemNotFound}, {@code BadRequest}, …) and message. */
    final class FsxError extends RuntimeException {
        private final String code;

        public FsxError(String code, String message) {
            super(code + ": " + message);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /** The file system; empty when FSx answers FileSystemNotFound. */
    Optional<Described> describe(String fileSystemId);

    /** Every file system of the account in the region, every page. */
    List<Described> list();

    /**
     * DeleteFileSystem (https://docs.aws.amazon.com/fsx/latest/APIReference/API_DeleteFileSystem.html).
     *
     * @throws FsxError as FSx refuses it (FileSystemNotFound, BadRequest while it is not AVAILABLE)
     */
    void delete(String fileSystemId);
}
