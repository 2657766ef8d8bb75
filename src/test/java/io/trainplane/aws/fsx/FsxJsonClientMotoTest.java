package io.trainplane.aws.fsx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.MotoServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.FileSystemType;

/**
 * Teardown's hand-written FSx client against moto_server, beside the real SDK: the file system the
 * SDK creates is the one it describes, lists and deletes, over the wire protocol moto implements
 * from the same service model; an unknown id reads as gone.
 */
class FsxJsonClientMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    FsxJsonClient client() {
        return new FsxJsonClient(
                UrlConnectionHttpClient.create(),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing")),
                MotoServer.REGION,
                MOTO.endpoint().resolve("/"));
    }

    @Test
    void whatTheSdkCreatesIsDescribedListedAndDeleted() {
        FSxClient sdk = MOTO.client(FSxClient.builder());
        String id = sdk.createFileSystem(r -> r.fileSystemType(FileSystemType.LUSTRE)
                        .storageCapacity(1200)
                        .subnetIds("subnet-12345678")
                        .lustreConfiguration(l -> l.deploymentType("SCRATCH_2"))
                        .tags(t -> t.key("trainplane:run-id").value("moto-run")))
                .fileSystem()
                .fileSystemId();
        FsxJsonClient fsx = client();

        var described = fsx.describe(id).orElseThrow();
        assertThat(described.fileSystemId()).isEqualTo(id);
        assertThat(described.fileSystemType()).isEqualTo("LUSTRE");
        // moto 5 leaves Lifecycle out of its FileSystem (its to_dict has no such key); FSx always sends it.
        assertThat(described.tags()).containsEntry("trainplane:run-id", "moto-run");
        assertThat(fsx.list())
                .extracting(LustreFileSystems.Described::fileSystemId)
                .contains(id);

        fsx.delete(id);
        assertThat(sdk.describeFileSystems().fileSystems())
                .noneSatisfy(f -> assertThat(f.fileSystemId()).isEqualTo(id));
        assertThat(fsx.describe(id)).isEmpty();
    }

    @Test
    void anUnknownFileSystemIsGoneAndAServerErrorThatIsNotJsonIsAskedAgain() {
        FsxJsonClient fsx = client();
        assertThat(fsx.describe("fs-0123456789abcdef0")).isEmpty();
        // moto answers DeleteFileSystem of an unknown id with an HTML 500 page (its model raises a
        // KeyError) where FSx answers FileSystemNotFound (FsxJsonClientTest): a 5xx, whatever its
        // body, is asked again.
        assertThatThrownBy(() -> fsx.delete("fs-0123456789abcdef0"))
                .isInstanceOf(io.trainplane.core.TransientException.class)
                .hasMessageContaining("DeleteFileSystem answered 500");
    }
}
