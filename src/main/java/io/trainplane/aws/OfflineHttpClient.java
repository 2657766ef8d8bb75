package io.trainplane.aws;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An HTTP client that never opens a connection: every request is marshalled and signed by the SDK
 * as usual, its body read, and answered {@code 200 {}}. SnapStart priming runs the SDK's request
 * and response paths through it, so they are loaded and warm in the snapshot without any call.
 */
public final class OfflineHttpClient implements SdkHttpClient {
    /** The service in a SigV4 Authorization header's credential scope: {@code Credential=key/date/region/service/aws4_request}. */
    private static final Pattern SIGNED_SERVICE = Pattern.compile("Credential=[^/]+/[^/]+/[^/]+/([^/]+)/aws4_request");

    private final AtomicInteger requests = new AtomicInteger();
    private final Set<String> services = ConcurrentHashMap.newKeySet();

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        requests.incrementAndGet();
        request.httpRequest()
                .firstMatchingHeader("Authorization")
                .map(SIGNED_SERVICE::matcher)
                .filter(Matcher::find)
                .ifPresent(m -> services.add(m.group(1)));
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                request.contentStreamProvider().ifPresent(body -> drain(body.newStream()));
                return HttpExecuteResponse.builder()
                        .response(SdkHttpResponse.builder()
                                .statusCode(200)
                                .putHeader("Content-Type", "application/x-amz-json-1.0")
                                .build())
                        .responseBody(AbortableInputStream.create(
                                new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8))))
                        .build();
            }

            @Override
            public void abort() {}
        };
    }

    /** How many requests were answered. */
    public int requests() {
        return requests.get();
    }

    /** The services the answered requests were signed for (their signing names: dynamodb, eks, ...). */
    public Set<String> services() {
        return Set.copyOf(services);
    }

    @Override
    public String clientName() {
        return "Offline";
    }

    @Override
    public void close() {}

    private static void drain(InputStream body) {
        try (body) {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
