package io.trainplane.aws.efs;

import io.trainplane.Prerequisite;
import io.trainplane.bench.MotoProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.efs.EfsClient;

/**
 * A moto_server process for EFS conformance tests: started on a free port, stopped on close.
 * Tests are skipped (never passed) when moto_server is not on the PATH.
 *
 * <p>Moto's EFS checks mount-target subnets and security groups against its EC2 model, so
 * {@link #createSubnet} and {@link #createSecurityGroup} make them through moto's EC2 Query API
 * with a small SigV4-signed request (test code only: Trainplane itself has no EC2 client).
 */
final class MotoEfs implements AutoCloseable {
    static final Region REGION = Region.US_EAST_1;
    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));

    private final MotoProcess moto;
    private final URI endpoint;
    private final SdkHttpClient http = UrlConnectionHttpClient.create();

    private MotoEfs(MotoProcess moto) {
        this.moto = moto;
        this.endpoint = moto.endpoint();
    }

    /** Starts moto_server, or skips the calling test when it is not installed. */
    static MotoEfs start() throws IOException, InterruptedException {
        Optional<Path> executable = MotoProcess.executable();
        Prerequisite.require(
                executable.isPresent(),
                "moto_server not on PATH: install moto 5 with its server extra (pip install 'moto[server]')");
        return new MotoEfs(MotoProcess.start(executable.get()));
    }

    EfsClient efs() {
        return EfsClient.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(CREDENTIALS)
                .httpClient(http)
                .build();
    }

    /** A new VPC, for subnets that must share one. */
    String createVpc(String cidr) {
        return field(ec2("Action=CreateVpc&CidrBlock=" + cidr), "vpcId");
    }

    String createSubnet(String vpcId, String cidr, String availabilityZone) {
        return field(
                ec2("Action=CreateSubnet&VpcId=" + vpcId + "&CidrBlock=" + cidr + "&AvailabilityZone="
                        + availabilityZone),
                "subnetId");
    }

    String createSecurityGroup(String vpcId, String name) {
        return field(
                ec2("Action=CreateSecurityGroup&VpcId=" + vpcId + "&GroupName=" + name
                        + "&GroupDescription=trainplane-test"),
                "groupId");
    }

    private String ec2(String query) {
        String body = query + "&Version=2016-11-15";
        SdkHttpRequest request = SdkHttpRequest.builder()
                .method(SdkHttpMethod.POST)
                .uri(endpoint)
                .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .build();
        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(CREDENTIALS.resolveCredentials())
                .request(request)
                .payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "ec2")
                .putProperty(AwsV4HttpSigner.REGION_NAME, REGION.id()));
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder()
                            .request(signed.request())
                            .contentStreamProvider(signed.payload().orElseThrow())
                            .build())
                    .call();
            String text;
            try (InputStream in = response.responseBody().orElseThrow()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!response.httpResponse().isSuccessful()) {
                throw new IllegalStateException("moto EC2 " + query + " answered "
                        + response.httpResponse().statusCode() + ": " + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("moto EC2 " + query + " failed", e);
        }
    }

    private static String field(String xml, String element) {
        Matcher m =
                Pattern.compile("<" + element + ">([^<]+)</" + element + ">").matcher(xml);
        if (!m.find()) {
            throw new IllegalStateException("no <" + element + "> in " + xml);
        }
        return m.group(1);
    }

    @Override
    public void close() {
        http.close();
        try {
            moto.close();
        } catch (IOException ignored) {
            // a temporary log file left behind
        }
    }
}
