package io.trainplane.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ClusterRoles;
import io.trainplane.aws.EksTokens;
import io.trainplane.aws.Settings;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The real clients across a SnapStart restore: no signed EKS token outlives the snapshot. */
class AwsClientsSnapStartTest {
    static final Settings SETTINGS = new Settings(
            "trainplane",
            "trainplane-runs",
            "trainplane",
            "us-east-1",
            new ClusterNetwork(List.of("subnet-0a"), List.of()),
            new ClusterRoles("", "", ""),
            30);

    @Test
    void afterRestoreEmptiesTheTokenCache() throws Exception {
        AwsClients clients = new AwsClients(
                SETTINGS, StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")));
        StepHandler handler = Pipeline.CONNECT_CLUSTER.handler(clients);
        clients.tokens().tokenFor("tp-run-1");
        assertThat(clients.tokens().cachedTokens()).isEqualTo(1);

        handler.snapStart().beforeCheckpoint(null);
        handler.snapStart().afterRestore(null);

        assertThat(clients.tokens().cachedTokens()).isZero();
        assertThat(clients.tokens().tokenFor("tp-run-1")).startsWith(EksTokens.PREFIX);
    }
}
