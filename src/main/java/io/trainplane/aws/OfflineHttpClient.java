package io.trainplane.aws;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * An HTTP client that never opens a connection: the SDK's UrlConnectionHttpClient, the client the
 * functions use, over connections that send nothing. Every request is marshalled, signed and
 * written as usual, and answered {@code 200} with the body given for its operation
 * ({@link #answer}), {@code {}} otherwise. SnapStart priming runs the SDK's request and response
 * paths through it, so they are loaded and warm in the snapshot without any call.
 *
 * <p>An operation is named by its {@code X-Amz-Target} header where the protocol has one
 * ({@code DynamoDB_20120810.GetItem}), else by its method and path ({@code GET /clusters}).
 */
public final class OfflineHttpClient implements SdkHttpClient {
    /** The service in a SigV4 Authorization header's credential scope: {@code Credential=key/date/region/service/aws4_request}. */
    private static final Pattern SIGNED_SERVICE = Pattern.compile("Credential=[^/]+/[^/]+/[^/]+/([^/]+)/aws4_request");

    private final SdkHttpClient http = UrlConnectionHttpClient.create(OfflineConnection::new);
    private final AtomicInteger requests = new AtomicInteger();
    private final Set<String> services = ConcurrentHashMap.newKeySet();
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    private final Map<String, List<String>> bodies = new ConcurrentHashMap<>();

    /** Answers {@code operation}'s requests with {@code body} from now on. */
    public OfflineHttpClient answer(String operation, String body) {
        answers.put(operation, body);
        return this;
    }

    /** The bodies of {@code operation}'s requests, in the order they were made. */
    public List<String> requestBodies(String operation) {
        return List.copyOf(bodies.getOrDefault(operation, List.of()));
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return http.prepareRequest(request);
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

    /** A connection that keeps what the SDK writes and answers from {@link #answers}, connecting nowhere. */
    private final class OfflineConnection extends HttpURLConnection {
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private byte[] answer;

        OfflineConnection(URI uri) {
            super(toUrl(uri));
        }

        @Override
        public void connect() {}

        @Override
        public void disconnect() {}

        @Override
        public boolean usingProxy() {
            return false;
        }

        @Override
        public OutputStream getOutputStream() {
            return body;
        }

        @Override
        public InputStream getInputStream() {
            return new ByteArrayInputStream(answer());
        }

        @Override
        public int getResponseCode() {
            answer();
            return HTTP_OK;
        }

        @Override
        public String getResponseMessage() {
            return "OK";
        }

        @Override
        public String getHeaderField(String name) {
            List<String> values = getHeaderFields().get(name);
            return values == null ? null : values.get(0);
        }

        @Override
        public Map<String, List<String>> getHeaderFields() {
            return Map.of(
                    "Content-Type", List.of("application/x-amz-json-1.0"),
                    "Content-Length", List.of(Integer.toString(answer().length)));
        }

        /** Once per request: the request recorded, its answer chosen. */
        private synchronized byte[] answer() {
            if (answer == null) {
                requests.incrementAndGet();
                Optional.ofNullable(getRequestProperty("Authorization"))
                        .map(SIGNED_SERVICE::matcher)
                        .filter(Matcher::find)
                        .ifPresent(m -> services.add(m.group(1)));
                String target = getRequestProperty("X-Amz-Target");
                String operation = target != null ? target : getRequestMethod() + " " + getURL().getPath();
                bodies.computeIfAbsent(operation, k -> new CopyOnWriteArrayList<>())
                        .add(body.toString(StandardCharsets.UTF_8));
                answer = answers.getOrDefault(operation, "{}").getBytes(StandardCharsets.UTF_8);
            }
            return answer;
        }
    }

    private static URL toUrl(URI uri) {
        try {
            return uri.toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(uri.toString(), e);
        }
    }
}
