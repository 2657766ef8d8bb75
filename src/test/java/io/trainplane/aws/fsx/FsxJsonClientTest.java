package io.trainplane.aws.fsx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.TransientException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.regions.Region;

/** FSx's JSON 1.1 protocol as Teardown speaks it: the requests it sends, the answers and errors it reads. */
class FsxJsonClientTest {
    record Sent(String target, String body, String authorization) {}

    /** Answers each request with the next canned (status, body); records what was sent. */
    static final class Canned implements SdkHttpClient {
        final Deque<Map.Entry<Integer, String>> answers = new ArrayDeque<>();
        final List<Sent> sent = new ArrayList<>();

        Canned answer(int status, String body) {
            answers.add(Map.entry(status, body));
            return this;
        }

        @Override
        public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
            return new ExecutableHttpRequest() {
                @Override
                public HttpExecuteResponse call() {
                    try {
                        String body = new String(
                                request.contentStreamProvider()
                                        .orElseThrow()
                                        .newStream()
                                        .readAllBytes(),
                                StandardCharsets.UTF_8);
                        sent.add(new Sent(
                                request.httpRequest()
                                        .firstMatchingHeader("X-Amz-Target")
                                        .orElse(null),
                                body,
                                request.httpRequest()
                                        .firstMatchingHeader("Authorization")
                                        .orElse("")));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    var answer = answers.removeFirst();
                    return HttpExecuteResponse.builder()
                            .response(SdkHttpResponse.builder()
                                    .statusCode(answer.getKey())
                                    .build())
                            .responseBody(AbortableInputStream.create(
                                    new ByteArrayInputStream(answer.getValue().getBytes(StandardCharsets.UTF_8))))
                            .build();
                }

                @Override
                public void abort() {}
            };
        }

        @Override
        public void close() {}
    }

    static FsxJsonClient client(Canned http) {
        return new FsxJsonClient(
                http, StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")), Region.US_EAST_1);
    }

    static final String FS = "{\"FileSystemId\": \"fs-1\", \"FileSystemType\": \"LUSTRE\", \"Lifecycle\": \"%s\","
            + " \"Tags\": [{\"Key\": \"trainplane:stack\", \"Value\": \"tp\"}, {\"Key\": \"trainplane:run-id\", \"Value\": \"r1\"}]}";

    @Test
    void findsFsxWhereTheSdkClientsWouldFromTheEndpointSettings() {
        assertThat(FsxJsonClient.endpoint(Map.of(), Region.EU_WEST_1))
                .hasToString("https://fsx.eu-west-1.amazonaws.com/");
        assertThat(FsxJsonClient.endpoint(Map.of("AWS_ENDPOINT_URL", "http://127.0.0.1:5000"), Region.EU_WEST_1))
                .hasToString("http://127.0.0.1:5000/");
        assertThat(FsxJsonClient.endpoint(
                        Map.of(
                                "AWS_ENDPOINT_URL",
                                "http://127.0.0.1:5000",
                                "AWS_ENDPOINT_URL_FSX",
                                "http://127.0.0.1:6000/"),
                        Region.EU_WEST_1))
                .as("the service's own setting wins")
                .hasToString("http://127.0.0.1:6000/");
        assertThat(FsxJsonClient.endpoint(
                        Map.of(
                                "AWS_ENDPOINT_URL",
                                "http://127.0.0.1:5000",
                                "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
                                "true"),
                        Region.EU_WEST_1))
                .hasToString("https://fsx.eu-west-1.amazonaws.com/");
    }

    @Test
    void describeSendsTheIdSignedForFsxAndReadsTheLifecycle() {
        Canned http = new Canned().answer(200, "{\"FileSystems\": [" + FS.formatted("AVAILABLE") + "]}");
        assertThat(new LustreTeardown(client(http)).state("fs-1")).isInstanceOf(ResourceState.Ready.class);
        assertThat(http.sent).singleElement().satisfies(s -> {
            assertThat(s.target()).isEqualTo("AWSSimbaAPIService_v20180301.DescribeFileSystems");
            assertThat(s.body()).isEqualTo("{\"FileSystemIds\":[\"fs-1\"]}");
            assertThat(s.authorization()).startsWith("AWS4-HMAC-SHA256").contains("/us-east-1/fsx/aws4_request");
        });
    }

    @Test
    void aMissingFileSystemIsGoneAndAnAvailableOneIsDeleted() {
        Canned http = new Canned()
                .answer(
                        400,
                        "{\"__type\": \"FileSystemNotFound\", \"Message\": \"File system 'fs-1' does not exist.\"}")
                .answer(200, "{\"FileSystems\": [" + FS.formatted("AVAILABLE") + "]}")
                .answer(200, "{\"FileSystemId\": \"fs-1\", \"Lifecycle\": \"DELETING\"}");
        LustreTeardown teardown = new LustreTeardown(client(http));
        assertThat(teardown.state("fs-1")).isInstanceOf(ResourceState.Gone.class);
        assertThat(teardown.delete("fs-1")).isInstanceOf(Deletion.Deleting.class);
        assertThat(http.sent.get(2).target()).isEqualTo("AWSSimbaAPIService_v20180301.DeleteFileSystem");
        assertThat(http.sent.get(2).body()).isEqualTo("{\"FileSystemId\":\"fs-1\"}");
    }

    @Test
    void aFileSystemStillCreatingIsBlockedAndThrottlingIsTransient() {
        Canned http = new Canned()
                .answer(200, "{\"FileSystems\": [" + FS.formatted("CREATING") + "]}")
                .answer(400, "{\"__type\": \"BadRequest\", \"Message\": \"not available\"}")
                .answer(400, "{\"__type\": \"ThrottlingException\", \"Message\": \"Rate exceeded\"}")
                .answer(
                        403,
                        "{\"__type\": \"AccessDeniedException\", \"Message\": \"not authorized to perform: fsx:DescribeFileSystems\"}");
        LustreTeardown teardown = new LustreTeardown(client(http));
        assertThat(teardown.delete("fs-1")).isInstanceOf(Deletion.Blocked.class);
        assertThatThrownBy(() -> teardown.state("fs-1")).isInstanceOf(TransientException.class);
        assertThatThrownBy(() -> teardown.state("fs-1"))
                .isInstanceOf(LustreFileSystems.FsxError.class)
                .hasMessageContaining("AccessDeniedException")
                .hasMessageContaining("fsx:DescribeFileSystems");
    }

    @Test
    void theRunsFileSystemIsFoundByItsTagsOverEveryPage() {
        Canned http = new Canned()
                .answer(200, "{\"FileSystems\": [], \"NextToken\": \"t2\"}")
                .answer(200, "{\"FileSystems\": [" + FS.formatted("CREATING") + "]}");
        assertThat(new LustreTeardown(client(http)).findByRun(new RunTags("tp", "r1")))
                .contains("fs-1");
        assertThat(http.sent.get(1).body()).isEqualTo("{\"NextToken\":\"t2\"}");
        Canned none = new Canned().answer(200, "{\"FileSystems\": [" + FS.formatted("AVAILABLE") + "]}");
        assertThat(new LustreTeardown(client(none)).findByRun(new RunTags("tp", "r2")))
                .isEmpty();
    }
}
