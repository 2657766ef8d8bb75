package io.trainplane.bench;

import io.trainplane.local.sim.SimulatedKubernetes;
import io.trainplane.local.sim.SimulatedNetwork;
import io.trainplane.runs.RunsTable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The local endpoints a measured function talks to, in the benchmark's own process: moto_server's
 * DynamoDB (the runs table created as RunsTable creates it), the fabric8 mock API server
 * in CRUD mode with the Kubeflow CRD (SimulatedKubernetes, as local mode uses it), moto_server as a
 * child process for EKS, EFS, EC2, Step Functions and EventBridge, {@link EksEndpointProxy} in
 * front of moto's EKS, {@link KubernetesRecorder} in front of the API server, and
 * {@link CloudControlEndpoint} (moto has no Cloud Control). Seeds what the stack would have: a VPC subnet, the event bus and both state
 * machines.
 */
final class ColdStartEndpoints implements AutoCloseable {
    static final String REGION = "us-east-1";
    static final String ACCOUNT = "123456789012";
    static final String TABLE = "trainplane-coldstart-runs";
    static final String BUS = "trainplane-coldstart";
    static final String NO_MOTO =
            "moto_server is not on the PATH (pip install 'moto[server]'): the functions' EKS, EFS,"
                    + " Step Functions and EventBridge calls need it";

    private final SimulatedKubernetes kubernetes;
    private final MotoProcess moto;
    private final URI motoEndpoint;
    /** The time the endpoints spent answering, summed over every request the functions made. */
    private final java.util.concurrent.atomic.AtomicLong busy = new java.util.concurrent.atomic.AtomicLong();

    private final EndpointFront dynamoFront;
    private final EndpointFront motoFront;
    private final EksEndpointProxy eks;
    private final KubernetesRecorder kubernetesRecorder;
    private CloudControlEndpoint cloudControl;
    private final SdkHttpClient http = UrlConnectionHttpClient.create();
    private final Map<String, String> environment = new LinkedHashMap<>();

    /** moto_server on the PATH, if it is there. */
    static Optional<Path> moto() {
        return MotoProcess.executable();
    }

    ColdStartEndpoints(Path motoServer) throws Exception {
        kubernetes = new SimulatedKubernetes();
        moto = MotoProcess.start(motoServer);
        motoEndpoint = moto.endpoint();
        dynamoFront = new EndpointFront(dynamoEndpoint(), busy);
        motoFront = new EndpointFront(motoEndpoint, busy);
        kubernetesRecorder = new KubernetesRecorder(kubernetes.endpoint(), busy);
        eks = new EksEndpointProxy(motoEndpoint, kubernetesRecorder.endpoint().toString(), busy);
        seed();
    }

    private void seed() throws IOException, InterruptedException {
        RunsTable.create(client(DynamoDbClient.builder(), dynamoEndpoint()), TABLE);
        // The stack's network (EFS mount targets need real subnets in moto); the build has no EC2 SDK module.
        String vpc = ec2("Action=CreateVpc&CidrBlock=10.0.0.0/16", "vpcId");
        String subnetA = ec2(
                "Action=CreateSubnet&VpcId=" + vpc + "&CidrBlock=10.0.1.0/24&AvailabilityZone=" + REGION + "a",
                "subnetId");
        String subnetB = ec2(
                "Action=CreateSubnet&VpcId=" + vpc + "&CidrBlock=10.0.2.0/24&AvailabilityZone=" + REGION + "b",
                "subnetId");
        String group = ec2(
                "Action=CreateSecurityGroup&VpcId=" + vpc + "&GroupName=coldstart&GroupDescription=coldstart",
                "groupId");
        cloudControl = new CloudControlEndpoint(
                SimulatedNetwork.stack()
                        .addVpc(vpc, group)
                        .addSubnet(subnetA, vpc, REGION + "a", "10.0.1.0/24")
                        .addSubnet(subnetB, vpc, REGION + "b", "10.0.2.0/24"),
                busy);
        client(CloudWatchEventsClient.builder(), motoEndpoint).createEventBus(r -> r.name(BUS));
        SfnClient sfn = client(SfnClient.builder(), motoEndpoint);
        String definition = "{\"StartAt\":\"Done\",\"States\":{\"Done\":{\"Type\":\"Succeed\"}}}";
        String role = roleArn("states");
        String cleanup = sfn.createStateMachine(
                        r -> r.name("Cleanup").definition(definition).roleArn(role))
                .stateMachineArn();
        String pipeline = sfn.createStateMachine(
                        r -> r.name("TrainingPipeline").definition(definition).roleArn(role))
                .stateMachineArn();

        // What template.yaml sets (Globals and the functions' own variables), pointed at the local endpoints.
        environment.put("STACK_NAME", "coldstart");
        environment.put("RUNS_TABLE", TABLE);
        environment.put("EVENT_BUS_NAME", BUS);
        environment.put("CLUSTER_SUBNET_IDS", subnetA + "," + subnetB);
        environment.put("CLUSTER_SECURITY_GROUP_IDS", group);
        environment.put("CLUSTER_ROLE_ARN", roleArn("trainplane-cluster"));
        environment.put("NODE_ROLE_ARN", roleArn("trainplane-node"));
        environment.put("EFS_CSI_ROLE_ARN", roleArn("trainplane-efs-csi"));
        environment.put("ARTIFACTS_BUCKET", "coldstart-artifacts");
        environment.put("RUN_OUTPUTS_ROLE_ARN", roleArn("trainplane-run-outputs"));
        environment.put("PENDING_TIMEOUT_MINUTES", "15");
        environment.put("CLEANUP_STATE_MACHINE_ARN", cleanup);
        environment.put("TRAINING_PIPELINE_ARN", pipeline);
        environment.put("RETRAINING_OVERLAP", "skip");
        // What the Lambda runtime sets.
        environment.put("AWS_REGION", REGION);
        environment.put("AWS_DEFAULT_REGION", REGION);
        environment.put("AWS_ACCESS_KEY_ID", "testing");
        environment.put("AWS_SECRET_ACCESS_KEY", "testing");
        environment.put("AWS_SESSION_TOKEN", "testing");
        environment.put("AWS_LAMBDA_FUNCTION_NAME", "coldstart");
        // The SDK's own endpoint settings: moto for every service (DynamoDB through its own front), the EKS proxy for
        // EKS.
        environment.put("AWS_ENDPOINT_URL", motoFront.endpoint().toString());
        environment.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoFront.endpoint().toString());
        environment.put("AWS_ENDPOINT_URL_EKS", eks.endpoint().toString());
        environment.put("AWS_ENDPOINT_URL_CLOUDCONTROL", cloudControl.endpoint().toString());
        // For the reference that reaches Kubernetes without DescribeCluster (bench/ColdStartKubernetesFloor.java).
        environment.put("COLDSTART_KUBERNETES_URL", kubernetes.endpoint());
    }

    /** One EC2 Query API call to moto (which reads the service from the credential scope); the id it returns. */
    private String ec2(String query, String idElement) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpRequest request = HttpRequest.newBuilder(motoEndpoint.resolve("/"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header(
                            "Authorization",
                            "AWS4-HMAC-SHA256 Credential=testing/20261122/" + REGION
                                    + "/ec2/aws4_request, SignedHeaders=host, Signature=0")
                    .POST(HttpRequest.BodyPublishers.ofString(query + "&Version=2016-11-15"))
                    .build();
            String body =
                    client.send(request, HttpResponse.BodyHandlers.ofString()).body();
            Matcher id = Pattern.compile("<" + idElement + ">([^<]+)</" + idElement + ">")
                    .matcher(body);
            if (!id.find()) {
                throw new IllegalStateException("moto EC2 answered " + query + " with " + body);
            }
            return id.group(1);
        }
    }

    /** The environment of every measured process (the baseline's too). */
    Map<String, String> environment() {
        return Map.copyOf(environment);
    }

    /** moto_server's DynamoDB, which holds the runs table (the benchmark needs an HTTP endpoint; the twin's DynamoDB has none). */
    URI dynamoEndpoint() {
        return motoEndpoint;
    }

    private <B extends AwsClientBuilder<B, C> & SdkSyncClientBuilder<B, C>, C> C client(B builder, URI endpoint) {
        return builder.httpClient(http)
                .endpointOverride(endpoint)
                .region(Region.of(REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing")))
                .build();
    }

    static String roleArn(String name) {
        return "arn:aws:iam::" + ACCOUNT + ":role/" + name;
    }

    /** How long the endpoints have spent answering the functions so far, in nanoseconds. */
    long endpointNanos() {
        return busy.get();
    }

    /** The Kubernetes requests of the measured functions, as they reach the API server. */
    KubernetesRecorder kubernetesRequests() {
        return kubernetesRecorder;
    }

    @Override
    public void close() throws Exception {
        eks.close();
        kubernetesRecorder.close();
        motoFront.close();
        dynamoFront.close();
        if (cloudControl != null) {
            cloudControl.close();
        }
        moto.close();
        kubernetes.close();
        http.close();
    }
}
