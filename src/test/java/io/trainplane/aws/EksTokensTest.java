package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.local.asl.SimulatedClock;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

class EksTokensTest {
    static final Instant SIGNED_AT = Instant.parse("2026-03-01T12:00:00Z");
    final SimulatedClock clock = new SimulatedClock(SIGNED_AT);
    final EksTokens tokens = new EksTokens(
            StaticCredentialsProvider.create(
                    AwsBasicCredentials.create("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")),
            Region.EU_WEST_1,
            clock);

    @Test
    void tokenIsAPresignedGetCallerIdentityUrlInBase64UrlWithoutPadding() {
        String token = tokens.tokenFor("my-cluster");

        assertThat(token).startsWith("k8s-aws-v1.");
        String encoded = token.substring("k8s-aws-v1.".length());
        assertThat(encoded).doesNotContain("=", "+", "/");
        URI url = URI.create(new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8));
        assertThat(url.getScheme()).isEqualTo("https");
        assertThat(url.getHost()).isEqualTo("sts.eu-west-1.amazonaws.com");
        Map<String, String> query = query(url);
        assertThat(query)
                .containsEntry("Action", "GetCallerIdentity")
                .containsEntry("Version", "2011-06-15")
                .containsEntry("X-Amz-Algorithm", "AWS4-HMAC-SHA256")
                .containsEntry("X-Amz-Date", "20260301T120000Z")
                .containsEntry("X-Amz-Expires", "60")
                .containsEntry("X-Amz-Credential", "AKIDEXAMPLE/20260301/eu-west-1/sts/aws4_request");
        assertThat(query.get("X-Amz-SignedHeaders").split(";")).contains("host", "x-k8s-aws-id");
        assertThat(query.get("X-Amz-Signature")).matches("[0-9a-f]{64}");
    }

    @Test
    void signatureDependsOnTheClusterName() {
        assertThat(query(decode(tokens.tokenFor("a"))).get("X-Amz-Signature"))
                .isNotEqualTo(query(decode(tokens.tokenFor("b"))).get("X-Amz-Signature"));
    }

    @Test
    void tokenIsReusedWhileYoungAndRenewedBeforeEksStopsAcceptingIt() {
        String first = tokens.tokenFor("c");
        clock.advance(Duration.ofMinutes(9));
        assertThat(tokens.tokenFor("c")).isEqualTo(first);
        clock.advance(Duration.ofMinutes(1));
        String renewed = tokens.tokenFor("c");
        assertThat(renewed).isNotEqualTo(first);
        assertThat(query(decode(renewed))).containsEntry("X-Amz-Date", "20260301T121000Z");
    }

    @Test
    void nothingIsSignedBeforeTheFirstRequest() {
        var counting = new int[1];
        new EksTokens(
                () -> {
                    counting[0]++;
                    return AwsBasicCredentials.create("a", "b");
                },
                Region.US_EAST_1,
                clock);
        assertThat(counting[0]).isZero();
    }

    private static URI decode(String token) {
        return URI.create(new String(Base64.getUrlDecoder().decode(token.substring(11)), StandardCharsets.UTF_8));
    }

    private static Map<String, String> query(URI url) {
        return Arrays.stream(url.getRawQuery().split("&"))
                .map(p -> p.split("=", 2))
                .collect(Collectors.toMap(p -> p[0], p -> URLDecoder.decode(p[1], StandardCharsets.UTF_8)));
    }
}
