package io.trainplane.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.regions.Region;

/**
 * A SigV4-signed POST to one AWS service without its SDK module: for the few calls whose module
 * would not fit a Lambda artifact's budget (FSx in the Kubernetes artifact; EC2, 22 MB, and the
 * Price List in the AWS one). The SDK's own signer and HTTP client do the work; the caller writes
 * the protocol's body and reads its answer.
 */
public final class SignedHttp {
    /** What the service answered: its HTTP status and body. */
    public record Answer(int status, byte[] body) {
        public boolean ok() {
            return status / 100 == 2;
        }

        /**
         * The error of an AWS JSON protocol's answer: the code of {@code __type} (after its
         * {@code #}), else {@code fallback}, and the {@code Message}. A body that is not JSON (a
         * load balancer's HTML page, a proxy's text) is the message, so the status still decides
         * whether to ask again (https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html).
         */
        public JsonError jsonError(String fallback) {
            String text = new String(body, StandardCharsets.UTF_8).strip();
            JsonNode parsed = null;
            try {
                parsed = text.isEmpty() ? null : Json.read(text);
            } catch (java.io.UncheckedIOException notJson) {
                // Read below as text.
            }
            if (parsed == null || !parsed.isObject()) {
                return new JsonError(fallback, text.length() > 200 ? text.substring(0, 200) + "…" : text);
            }
            String type = parsed.path("__type").asText(fallback);
            return new JsonError(
                    type.substring(type.lastIndexOf('#') + 1),
                    parsed.path("Message").asText(parsed.path("message").asText("")));
        }
    }

    /** An AWS JSON protocol's error: its code and message. */
    public record JsonError(String code, String message) {}

    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final String signingName;
    private final String signingRegion;
    private final URI endpoint;

    public SignedHttp(
            SdkHttpClient http,
            AwsCredentialsProvider credentials,
            String signingName,
            String signingRegion,
            URI endpoint) {
        this.http = http;
        this.credentials = credentials;
        this.signingName = signingName;
        this.signingRegion = signingRegion;
        this.endpoint = endpoint;
    }

    /**
     * Where a service is, as the SDK's clients find it: {@code AWS_ENDPOINT_URL_<SERVICE>}, else
     * {@code AWS_ENDPOINT_URL}, else (or with {@code AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true})
     * {@code https://<host>/} (https://docs.aws.amazon.com/sdkref/latest/guide/feature-ss-endpoints.html).
     */
    public static URI endpoint(Map<String, String> environment, String serviceVariable, String host) {
        String configured = "true".equalsIgnoreCase(environment.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"))
                ? null
                : environment.getOrDefault("AWS_ENDPOINT_URL_" + serviceVariable, environment.get("AWS_ENDPOINT_URL"));
        return configured != null && !configured.isBlank()
                ? URI.create(configured.endsWith("/") ? configured : configured + "/")
                : URI.create("https://" + host + "/");
    }

    /** The region's endpoint of {@code service} ({@code fsx.eu-west-1.amazonaws.com}). */
    public static String regionalHost(String service, Region region) {
        return service + "." + region.id() + ".amazonaws.com";
    }

    /** POSTs {@code payload} with {@code headers}, signed; an IOException is a failed connection or a cut-off answer. */
    public Answer post(Map<String, String> headers, byte[] payload) throws IOException {
        SdkHttpFullRequest.Builder builder =
                SdkHttpFullRequest.builder().method(SdkHttpMethod.POST).uri(endpoint);
        headers.forEach(builder::putHeader);
        SdkHttpFullRequest request = builder.build();
        ContentStreamProvider content = ContentStreamProvider.fromByteArray(payload);
        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials.resolveCredentials())
                .request(request)
                .payload(content)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, signingName)
                .putProperty(AwsV4HttpSigner.REGION_NAME, signingRegion));
        var response = http.prepareRequest(HttpExecuteRequest.builder()
                        .request(signed.request())
                        .contentStreamProvider(signed.payload().orElse(content))
                        .build())
                .call();
        try (InputStream in = response.responseBody().orElse(null)) {
            return new Answer(response.httpResponse().statusCode(), in == null ? new byte[0] : in.readAllBytes());
        }
    }
}
