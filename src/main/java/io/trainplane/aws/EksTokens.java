package io.trainplane.aws;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AuthLocation;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.regions.Region;

/**
 * Bearer tokens for the Kubernetes API of an EKS cluster, built the way aws-iam-authenticator and
 * {@code aws eks get-token} build them: a presigned STS GetCallerIdentity URL that signs the
 * {@code x-k8s-aws-id} header, as {@code k8s-aws-v1.} + base64url without padding.
 *
 * <p>EKS accepts a token for 15 minutes after signing; it is reused for {@link #REUSE} and then
 * renewed. Nothing is signed before the first request, so a SnapStart snapshot holds no token.
 */
public final class EksTokens {
    public static final String PREFIX = "k8s-aws-v1.";
    static final Duration REUSE = Duration.ofMinutes(10);
    private static final Duration PRESIGN_EXPIRY = Duration.ofSeconds(60);

    private final AwsCredentialsProvider credentials;
    private final Region region;
    private final Clock clock;
    private final Map<String, Token> cache = new ConcurrentHashMap<>();

    public EksTokens(AwsCredentialsProvider credentials, Region region, Clock clock) {
        this.credentials = credentials;
        this.region = region;
        this.clock = clock;
    }

    record Token(String value, Instant signedAt) {}

    /** A token for the cluster, reused while younger than {@link #REUSE}. */
    public String tokenFor(String clusterName) {
        Instant now = clock.instant();
        return cache.compute(
                        clusterName,
                        (name, cached) -> cached != null
                                        && Duration.between(cached.signedAt(), now)
                                                        .compareTo(REUSE)
                                                < 0
                                ? cached
                                : new Token(sign(name, now), now))
                .value();
    }

    /** Forgets cached tokens: after a SnapStart restore, or when the API server answered 401. */
    public void clear() {
        cache.clear();
    }

    public int cachedTokens() {
        return cache.size();
    }

    String sign(String clusterName, Instant at) {
        SdkHttpRequest request = SdkHttpRequest.builder()
                .method(SdkHttpMethod.GET)
                .uri(URI.create("https://sts." + region.id() + ".amazonaws.com/"))
                .putRawQueryParameter("Action", "GetCallerIdentity")
                .putRawQueryParameter("Version", "2011-06-15")
                .putHeader("x-k8s-aws-id", clusterName)
                .build();
        Clock signingClock = Clock.fixed(at, java.time.ZoneOffset.UTC);
        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials.resolveCredentials())
                .request(request)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region.id())
                .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AuthLocation.QUERY_STRING)
                .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, PRESIGN_EXPIRY)
                .putProperty(HttpSigner.SIGNING_CLOCK, signingClock));
        String url = signed.request().getUri().toString();
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(url.getBytes(StandardCharsets.UTF_8));
    }
}
