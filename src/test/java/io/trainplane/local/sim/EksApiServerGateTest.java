package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.aws.EksTokens;
import io.trainplane.kubernetes.EksClusterAccess;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.AccessKeys;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Caller;
import io.trainplane.local.iam.Callers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.model.AccessScopeType;

/** The simulated API server behind EKS's authentication: tokens verified as STS does, access as the cluster's entries say. */
class EksApiServerGateTest {
    static final String ROLE = "arn:aws:iam::000000000000:role/trainplane-ClusterWorkRole";
    static final Caller CREATE_CLUSTER = caller("CreateCluster", "trainplane-ClusterWorkRole");
    static final Caller START_TRAINING = caller("StartTraining", "trainplane-ClusterWorkRole");
    static final Caller DEV = caller("Notebook", "dev");
    static final String DEV_ROLE = "arn:aws:iam::000000000000:role/dev";

    final SimulatedClock clock = new SimulatedClock(SimAccount.START);
    final SimulatedKubernetes kubernetes = new SimulatedKubernetes();
    final SimulatedEks eks =
            new SimulatedEks(new CallLog(), clock, new FaultPlan(), Authorizer.ALLOW_ALL, kubernetes.endpoint());
    final AccessKeys keys = new AccessKeys();
    final EksApiServerGate gate = new EksApiServerGate(eks, keys, clock, kubernetes.endpoint());
    final HttpClient http = HttpClient.newHttpClient();
    final List<KubernetesClient> opened = new ArrayList<>();

    EksApiServerGateTest() {
        kubernetes.guardedBy(gate);
        Callers.as(CREATE_CLUSTER, () -> eks.createCluster(SimAccount.cluster("c1", "t1", "run-1")));
        clock.advance(SimulatedEks.CLUSTER_CREATING);
    }

    @AfterEach
    void stop() {
        opened.forEach(KubernetesClient::close);
        kubernetes.close();
    }

    static Caller caller(String function, String role) {
        return new Caller(function, role, "arn:aws:sts::000000000000:assumed-role/" + role + "/trainplane-" + function);
    }

    KubernetesClient as(Caller caller, String cluster) {
        KubernetesClient client = new EksClusterAccess(
                        eks,
                        tokens(StaticCredentialsProvider.create(
                                keys.keyOf(caller).credentials())))
                .connect(cluster);
        opened.add(client);
        return client;
    }

    EksTokens tokens(AwsCredentialsProvider credentials) {
        return new EksTokens(credentials, Region.US_EAST_1, clock);
    }

    String token(Caller caller, String cluster) {
        return tokens(StaticCredentialsProvider.create(keys.keyOf(caller).credentials()))
                .tokenFor(cluster);
    }

    HttpResponse<String> get(String authorization) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create(kubernetes.endpoint() + "/api/v1/namespaces"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String tamper(String token, UnaryOperator<String> url) {
        String decoded = new String(
                Base64.getUrlDecoder().decode(token.substring(EksTokenVerifier.PREFIX.length())),
                StandardCharsets.UTF_8);
        return EksTokenVerifier.PREFIX
                + Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(url.apply(decoded).getBytes(StandardCharsets.UTF_8));
    }

    String lastRefusal() {
        var log = gate.log();
        return log.isEmpty() ? "" : log.getLast();
    }

    void createNamespace(KubernetesClient client, String name) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
    }

    @Test
    void everyFunctionOfTheCreatorsRoleIsClusterAdmin() {
        createNamespace(as(CREATE_CLUSTER, "c1"), "a");
        createNamespace(as(START_TRAINING, "c1"), "b");

        assertThat(kubernetes.admin().namespaces().withName("b").get()).isNotNull();
        assertThat(gate.log()).isEmpty();
    }

    @Test
    void aPrincipalWithoutAnEntryIsUnauthorizedUntilItGetsOne() throws Exception {
        assertThatThrownBy(() -> createNamespace(as(DEV, "c1"), "a"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(401));
        assertThat(lastRefusal())
                .isEqualTo("401 POST /api/v1/namespaces: no access entry for " + DEV_ROLE + " on cluster c1");
        var raw = get("Bearer " + token(DEV, "c1"));
        assertThat(raw.statusCode()).isEqualTo(401);
        assertThat(raw.body()).contains("\"message\":\"Unauthorized\"", "\"reason\":\"Unauthorized\"", "\"code\":401");
        assertThat(kubernetes.admin().namespaces().withName("a").get()).isNull();

        eks.createAccessEntry(r -> r.clusterName("c1").principalArn(DEV_ROLE));
        eks.associateAccessPolicy(r -> r.clusterName("c1")
                .principalArn(DEV_ROLE)
                .policyArn(EksAccessEntries.CLUSTER_ADMIN_POLICY)
                .accessScope(s -> s.type(AccessScopeType.CLUSTER)));
        createNamespace(as(DEV, "c1"), "a");
        assertThat(kubernetes.admin().namespaces().withName("a").get()).isNotNull();
    }

    @Test
    void anEntryAllowsWhatItsPoliciesAllowInTheirScope() {
        eks.createAccessEntry(r -> r.clusterName("c1").principalArn(DEV_ROLE));
        KubernetesClient dev = as(DEV, "c1");
        assertThatThrownBy(() -> dev.namespaces().list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(403));
        assertThat(lastRefusal())
                .contains("403 GET /api/v1/namespaces", "has no access policy and no Kubernetes group");

        eks.associateAccessPolicy(r -> r.clusterName("c1")
                .principalArn(DEV_ROLE)
                .policyArn(SimulatedEksAccessEntriesTest.VIEW_POLICY)
                .accessScope(s -> s.type(AccessScopeType.NAMESPACE).namespaces("tp-*")));
        createNamespace(kubernetes.admin(), "tp-run");
        assertThat(dev.pods().inNamespace("tp-run").list().getItems()).isEmpty();
        assertThatThrownBy(() -> dev.pods().inNamespace("default").list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(403));
        assertThatThrownBy(() -> dev.configMaps()
                        .inNamespace("tp-run")
                        .resource(new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName("x")
                                .endMetadata()
                                .build())
                        .create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(403));
    }

    @Test
    void aTokenSignedForAnotherClusterIsRefused() throws Exception {
        // A cluster with an entry for the role, whose API server is elsewhere: its token does not open this one.
        eks.addExistingCluster("elsewhere", () -> "https://elsewhere.example", "1.31");
        eks.addExistingAccessEntry("elsewhere", ROLE, EksAccessEntries.CLUSTER_ADMIN_POLICY);

        assertThat(get("Bearer " + token(START_TRAINING, "elsewhere")).statusCode())
                .isEqualTo(401);
        assertThat(lastRefusal()).contains("SignatureDoesNotMatch", "[c1]");
        assertThat(get("Bearer " + token(START_TRAINING, "no-such-cluster")).statusCode())
                .isEqualTo(401);
        assertThat(get("Bearer " + token(START_TRAINING, "c1")).statusCode()).isEqualTo(200);
    }

    @Test
    void aTokenIsGoodForFifteenMinutesAfterSigning() throws Exception {
        String token = token(START_TRAINING, "c1");
        clock.advance(Duration.ofMinutes(15));
        assertThat(get("Bearer " + token).statusCode()).isEqualTo(200);

        clock.advance(Duration.ofSeconds(1));
        assertThat(get("Bearer " + token).statusCode()).isEqualTo(401);
        assertThat(lastRefusal()).contains("X-Amz-Date parameter is expired (15 minute expiration)");
        // EksTokens renews its tokens before that: a client of the role keeps working.
        createNamespace(as(START_TRAINING, "c1"), "later");
    }

    @Test
    void malformedForgedAndAnonymousTokensAreRefused() throws Exception {
        String token = token(START_TRAINING, "c1");
        assertThat(get(null).statusCode()).isEqualTo(401);
        assertThat(lastRefusal()).endsWith("no bearer token");

        assertThat(get("Bearer " + tamper(token, u -> u.replace("X-Amz-Expires=60", "X-Amz-Expires=901")))
                        .statusCode())
                .isEqualTo(401);
        assertThat(lastRefusal()).contains("invalid X-Amz-Expires parameter in pre-signed URL: 901");
        assertThat(get("Bearer " + tamper(token, u -> u.replace("GetCallerIdentity", "GetSessionToken")))
                        .statusCode())
                .isEqualTo(401);
        assertThat(lastRefusal()).contains("unexpected action parameter");
        assertThat(get("Bearer " + tamper(token, u -> u.replace("sts.us-east-1.amazonaws.com", "sts.example.com")))
                        .statusCode())
                .isEqualTo(401);
        assertThat(get("Bearer " + tamper(token, u -> u + "&X-Amz-Foo=1")).statusCode())
                .isEqualTo(401);
        assertThat(lastRefusal()).contains("non-whitelisted query parameter \"x-amz-foo\"");
        assertThat(get("Bearer " + tamper(token, u -> u.replace("x-k8s-aws-id", "x-other")))
                        .statusCode())
                .isEqualTo(401);
        assertThat(lastRefusal()).contains("did not sign the x-k8s-aws-id header");
        assertThat(get("Bearer "
                                + tamper(
                                        token,
                                        u -> u.replaceFirst(
                                                "X-Amz-Security-Token=[^&]+", "X-Amz-Security-Token=forged")))
                        .statusCode())
                .isEqualTo(401);
        assertThat(lastRefusal()).contains("security token included in the request is invalid");
        assertThat(get("Bearer " + token.substring(3)).statusCode()).isEqualTo(401);

        // Well signed, but with a key this account never issued.
        String stranger = tokens(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIAIOSFODNN7EXAMPLE", "secret")))
                .tokenFor("c1");
        assertThat(get("Bearer " + stranger).statusCode()).isEqualTo(401);
        assertThat(lastRefusal()).contains("unknown access key AKIAIOSFODNN7EXAMPLE");
    }

    @Test
    void aConfigMapClusterAdmitsItsCreatorOnly() throws Exception {
        Callers.as(
                CREATE_CLUSTER,
                () -> eks.createCluster(SimAccount.cluster("legacy", "t2", "run-2").toBuilder()
                        .accessConfig(a -> a.authenticationMode("CONFIG_MAP"))
                        .build()));
        clock.advance(SimulatedEks.CLUSTER_CREATING);

        createNamespace(as(START_TRAINING, "legacy"), "ok");
        assertThat(get("Bearer " + token(DEV, "legacy")).statusCode()).isEqualTo(401);
        assertThat(lastRefusal()).contains("is not the creator of cluster legacy");
    }
}
