package io.trainplane.aws.efs;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
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
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final URI endpoint;
    private final Path log;
    private final SdkHttpClient http = UrlConnectionHttpClient.create();

    private MotoEfs(Process process, URI endpoint, Path log) {
        this.process = process;
        this.endpoint = endpoint;
        this.log = log;
    }

    /** Starts moto_server, or skips the calling test when it is not installed. */
    static MotoEfs start() throws IOException, InterruptedException {
        Path executable = onPath("moto_server");
        Assumptions.assumeTrue(executable != null,
                "moto_server not on PATH: install moto 5 with its server extra (pip install 'moto[server]')");
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Path log = Files.createTempFile("moto-efs-", ".log");
        Process process = new ProcessBuilder(executable.toString(), "-H", "127.0.0.1", "-p", String.valueOf(port))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        MotoEfs moto = new MotoEfs(process, URI.create("http://127.0.0.1:" + port), log);
        moto.awaitListening(port);
        return moto;
    }

    EfsClient efs() {
        return EfsClient.builder().endpointOverride(endpoint).region(REGION).credentialsProvider(CREDENTIALS)
                .httpClient(http).build();
    }

    /** A new VPC, for subnets that must share one. */
    String createVpc(String cidr) {
        return field(ec2("Action=CreateVpc&CidrBlock=" + cidr), "vpcId");
    }

    String createSubnet(String vpcId, String cidr, String availabilityZone) {
        return field(ec2("Action=CreateSubnet&VpcId=" + vpcId + "&CidrBlock=" + cidr
                + "&AvailabilityZone=" + availabilityZone), "subnetId");
    }

    String createSecurityGroup(String vpcId, String name) {
        return field(ec2("Action=CreateSecurityGroup&VpcId=" + vpcId + "&GroupName=" + name
                + "&GroupDescription=trainplane-test"), "groupId");
    }

    private String ec2(String query) {
        String body = query + "&Version=2016-11-15";
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(endpoint)
                .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8").build();
        var signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(CREDENTIALS.resolveCredentials())
                .request(request)
                .payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "ec2")
                .putProperty(AwsV4HttpSigner.REGION_NAME, REGION.id()));
        try {
            HttpExecuteResponse response = http.prepareRequest(HttpExecuteRequest.builder()
                    .request(signed.request()).contentStreamProvider(signed.payload().orElseThrow()).build()).call();
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
        Matcher m = Pattern.compile("<" + element + ">([^<]+)</" + element + ">").matcher(xml);
        if (!m.find()) {
            throw new IllegalStateException("no <" + element + "> in " + xml);
        }
        return m.group(1);
    }

    private void awaitListening(int port) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("moto_server exited with " + process.exitValue() + ": "
                        + Files.readString(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        close();
        throw new IllegalStateException("moto_server did not listen on port " + port + " within " + START_TIMEOUT
                + "; its output: " + Files.readString(log));
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    @Override
    public void close() {
        http.close();
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            Files.deleteIfExists(log);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // a temporary log file left behind
        }
    }
}
