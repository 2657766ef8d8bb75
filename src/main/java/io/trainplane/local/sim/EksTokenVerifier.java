package io.trainplane.local.sim;

import io.trainplane.local.iam.AccessKeys;
import io.trainplane.local.iam.PrincipalArn;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AuthLocation;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;

/**
 * Checks an EKS bearer token as the cluster's authenticator and STS do: the checks of
 * aws-iam-authenticator's {@code tokenVerifier.Verify}
 * (https://github.com/kubernetes-sigs/aws-iam-authenticator/blob/master/pkg/token/token.go: the
 * {@code k8s-aws-v1.} prefix, at most 4 KiB, an https URL of an STS host with path {@code /}, only
 * the whitelisted query parameters each once, {@code Action=GetCallerIdentity}, a signed
 * {@code x-k8s-aws-id} header, {@code X-Amz-Expires} within 0..900, and 15 minutes of validity
 * from {@code X-Amz-Date} whatever X-Amz-Expires says), then what STS checks when the
 * authenticator sends the URL on with {@code x-k8s-aws-id} set to its own cluster: a key this
 * account issued, its session token, and a SigV4 signature that matches for that cluster name.
 * The cluster's name is in the signature only, so a token signed for another cluster fails there.
 */
final class EksTokenVerifier {
    static final String PREFIX = "k8s-aws-v1.";
    static final Duration VALIDITY = Duration.ofMinutes(15);
    static final int MAX_EXPIRES_SECONDS = 900;
    static final int MAX_TOKEN_BYTES = 4096;
    private static final Set<String> PARAMETERS = Set.of(
            "action",
            "version",
            "x-amz-algorithm",
            "x-amz-credential",
            "x-amz-date",
            "x-amz-expires",
            "x-amz-security-token",
            "x-amz-signature",
            "x-amz-signedheaders");
    private static final Pattern STS_HOST = Pattern.compile("^sts(\\.[a-z0-9-]+)?\\.amazonaws\\.com$");
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    /** The IAM principal that signed the token, for which of the server's clusters. */
    record Identity(PrincipalArn principal, String callerArn, String accessKeyId, String cluster) {}

    /** Why a token was refused; the API server answers 401 whatever the reason. */
    static final class Refused extends Exception {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    private final AccessKeys keys;
    private final Clock clock;

    EksTokenVerifier(AccessKeys keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    /** The identity behind {@code token}, sent to an API server that serves {@code clusters}. */
    Identity verify(String token, Collection<String> clusters) throws Refused {
        if (token.length() > MAX_TOKEN_BYTES) {
            throw new Refused("token is too large");
        }
        if (!token.startsWith(PREFIX)) {
            throw new Refused("token is missing expected \"" + PREFIX + "\" prefix");
        }
        URI url;
        try {
            url = URI.create(new String(
                    Base64.getUrlDecoder().decode(token.substring(PREFIX.length())), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new Refused("token is not a base64url-encoded URL: " + e.getMessage());
        }
        if (!"https".equals(url.getScheme())
                || url.getHost() == null
                || !STS_HOST.matcher(url.getHost()).matches()
                || !"/".equals(url.getPath())
                || url.getRawQuery() == null) {
            throw new Refused(
                    "not a pre-signed URL of STS: " + url.getScheme() + "://" + url.getHost() + url.getPath());
        }
        Map<String, String> query = query(url.getRawQuery());
        if (!"GetCallerIdentity".equals(query.get("action"))) {
            throw new Refused("unexpected action parameter in pre-signed URL");
        }
        if (!Set.of(query.getOrDefault("x-amz-signedheaders", "")
                        .toLowerCase(Locale.ROOT)
                        .split(";"))
                .contains("x-k8s-aws-id")) {
            throw new Refused("client did not sign the x-k8s-aws-id header in the pre-signed URL");
        }
        int expires = expires(query.get("x-amz-expires"));
        Instant signedAt = signedAt(query.get("x-amz-date"));
        if (clock.instant().isAfter(signedAt.plus(VALIDITY))) {
            throw new Refused("X-Amz-Date parameter is expired (15 minute expiration) " + signedAt);
        }
        String[] scope = query.getOrDefault("x-amz-credential", "").split("/");
        AccessKeys.Key key = keys.find(scope[0])
                .orElseThrow(() ->
                        new Refused("STS: the security token included in the request is invalid (unknown access key "
                                + scope[0] + ")"));
        if (key.sessionToken() != null && !key.sessionToken().equals(query.get("x-amz-security-token"))) {
            throw new Refused(
                    "STS: the security token included in the request is invalid (session token of " + scope[0] + ")");
        }
        if (scope.length != 5) {
            throw new Refused("STS: malformed X-Amz-Credential " + query.get("x-amz-credential"));
        }
        for (String cluster : clusters) {
            String expected = signature(url, query, cluster, key, scope[2], signedAt, expires);
            if (MessageDigest.isEqual(
                    expected.getBytes(StandardCharsets.US_ASCII),
                    query.getOrDefault("x-amz-signature", "").getBytes(StandardCharsets.US_ASCII))) {
                return new Identity(
                        PrincipalArn.canonical(key.caller().arn()), key.caller().arn(), key.accessKeyId(), cluster);
            }
        }
        throw new Refused(
                "STS: SignatureDoesNotMatch: the token was not signed for any cluster of this API server " + clusters);
    }

    /** Signs the request the token stands for again, with x-k8s-aws-id set to {@code cluster}, as STS does to check it. */
    private static String signature(
            URI url,
            Map<String, String> query,
            String cluster,
            AccessKeys.Key key,
            String region,
            Instant signedAt,
            int expires) {
        SdkHttpRequest request = SdkHttpRequest.builder()
                .method(SdkHttpMethod.GET)
                .uri(URI.create("https://" + url.getHost() + "/"))
                .putRawQueryParameter("Action", query.get("action"))
                .putRawQueryParameter("Version", query.getOrDefault("version", ""))
                .putHeader("x-k8s-aws-id", cluster)
                .build();
        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(key.credentials())
                .request(request)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AuthLocation.QUERY_STRING)
                .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, Duration.ofSeconds(expires))
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(signedAt, ZoneOffset.UTC)));
        return signed.request()
                .firstMatchingRawQueryParameter("X-Amz-Signature")
                .orElse("");
    }

    /** The query's parameters by lower-case name: only the whitelisted ones, each once. */
    private static Map<String, String> query(String raw) throws Refused {
        Map<String, String> params = new TreeMap<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8)
                    .toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (!PARAMETERS.contains(name)) {
                throw new Refused("non-whitelisted query parameter \"" + name + "\"");
            }
            if (params.put(name, value) != null) {
                throw new Refused("query parameter with multiple values not supported");
            }
        }
        return params;
    }

    private static int expires(String value) throws Refused {
        try {
            int expires = Integer.parseInt(value);
            if (expires >= 0 && expires <= MAX_EXPIRES_SECONDS) {
                return expires;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new Refused("invalid X-Amz-Expires parameter in pre-signed URL: " + value);
    }

    private static Instant signedAt(String value) throws Refused {
        if (value == null || value.isEmpty()) {
            throw new Refused("X-Amz-Date parameter must be present in pre-signed URL");
        }
        try {
            return LocalDateTime.parse(value, AMZ_DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new Refused("error parsing X-Amz-Date parameter " + value);
        }
    }
}
