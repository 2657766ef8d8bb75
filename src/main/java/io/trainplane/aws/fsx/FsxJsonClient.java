package io.trainplane.aws.fsx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.SignedHttp;
import io.trainplane.core.Json;
import io.trainplane.core.TransientException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * FSx's DescribeFileSystems and DeleteFileSystem over its AWS JSON 1.1 protocol: a POST to
 * {@code https://fsx.<region>.amazonaws.com/} with {@code X-Amz-Target:
 * AWSSimbaAPIService_v20180301.<Operation>}, signed with SigV4 for service {@code fsx}; errors
 * answer 4xx/5xx with {@code __type} and {@code Message}
 * (https://docs.aws.amazon.com/fsx/latest/APIReference/CommonErrors.html,
 * https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html). For Teardown, whose artifact
 * carries no FSx SDK module; throttling and 5xx become {@link TransientException} (Teardown looks
 * again).
 */
public final class FsxJsonClient implements LustreFileSystems {
    static final String TARGET_PREFIX = "AWSSimbaAPIService_v20180301.";

    private final SignedHttp http;

    public FsxJsonClient(SdkHttpClient http, AwsCredentialsProvider credentials, Region region) {
        this(http, credentials, region, endpoint(System.getenv(), region));
    }

    /** Where FSx is, as the SDK's clients find it ({@link SignedHttp#endpoint}). */
    static URI endpoint(java.util.Map<String, String> environment, Region region) {
        return SignedHttp.endpoint(environment, "FSX", SignedHttp.regionalHost("fsx", region));
    }

    FsxJsonClient(SdkHttpClient http, AwsCredentialsProvider credentials, Region region, URI endpoint) {
        this.http = new SignedHttp(http, credentials, "fsx", region.id(), endpoint);
    }

    @Override
    public Optional<Described> describe(String fileSystemId) {
        ObjectNode body = Json.object();
        body.putArray("FileSystemIds").add(fileSystemId);
        try {
            JsonNode answer = call("DescribeFileSystems", body);
            JsonNode first = answer.path("FileSystems").path(0);
            return first.isMissingNode() ? Optional.empty() : Optional.of(described(first));
        } catch (FsxError e) {
            if ("FileSystemNotFound".equals(e.code())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public List<Described> list() {
        List<Described> all = new ArrayList<>();
        String token = null;
        do {
            ObjectNode body = Json.object();
            if (token != null) {
                body.put("NextToken", token);
            }
            JsonNode answer = call("DescribeFileSystems", body);
            answer.path("FileSystems").forEach(fs -> all.add(described(fs)));
            token = answer.path("NextToken").isTextual()
                    ? answer.path("NextToken").asText()
                    : null;
        } while (token != null);
        return all;
    }

    @Override
    public void delete(String fileSystemId) {
        call("DeleteFileSystem", Json.object().put("FileSystemId", fileSystemId));
    }

    private static Described described(JsonNode fs) {
        Map<String, String> tags = new TreeMap<>();
        fs.path("Tags")
                .forEach(t -> tags.put(t.path("Key").asText(), t.path("Value").asText()));
        return new Described(
                fs.path("FileSystemId").asText(),
                fs.path("FileSystemType").asText(),
                fs.path("Lifecycle").asText(),
                tags);
    }

    JsonNode call(String operation, ObjectNode body) {
        byte[] payload = Json.write(body).getBytes(StandardCharsets.UTF_8);
        try {
            SignedHttp.Answer response = http.post(
                    Map.of("Content-Type", "application/x-amz-json-1.1", "X-Amz-Target", TARGET_PREFIX + operation),
                    payload);
            int status = response.status();
            byte[] bytes = response.body();
            if (response.ok()) {
                return bytes.length == 0 ? Json.object() : Json.read(new ByteArrayInputStream(bytes));
            }
            SignedHttp.JsonError error = response.jsonError("Unknown");
            String code = error.code();
            String message = error.message();
            if (status >= 500 || code.contains("Throttl") || "InternalServerError".equals(code)) {
                throw new TransientException("FSx " + operation + " answered " + status + " " + code + ": " + message);
            }
            throw new FsxError(code, message);
        } catch (IOException e) {
            // The connection failed, or an answer was cut off: as the SDK would, ask again.
            throw new TransientException("FSx " + operation + " failed: " + e.getMessage(), e);
        }
    }
}
