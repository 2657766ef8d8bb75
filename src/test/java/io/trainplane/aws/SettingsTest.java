package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.spec.Names;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stack's settings as template.yaml's Globals give them, and the run tags made from them. */
class SettingsTest {
    static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("STACK_NAME", "ml-prod");
        env.put("RUNS_TABLE", "ml-prod-RunsTable-1");
        env.put("CLUSTER_SUBNET_IDS", "subnet-0a, subnet-0b");
        env.put("CONTROL_PLANE_LOG_RETENTION_DAYS", "14");
        return env;
    }

    @Test
    void theStackNameTheRetentionAndThePublicCidrsComeFromTheEnvironment() {
        Map<String, String> env = environment();
        env.put("CLUSTER_ENDPOINT_PUBLIC_CIDRS", "203.0.113.0/24, 198.51.100.7/32");

        Settings settings = Settings.fromMap(env);

        assertThat(settings.stackName()).isEqualTo("ml-prod");
        assertThat(settings.logRetentionDays()).isEqualTo(14);
        assertThat(settings.network().subnetIds()).containsExactly("subnet-0a", "subnet-0b");
        assertThat(settings.network().publicAccessCidrs()).containsExactly("203.0.113.0/24", "198.51.100.7/32");
        assertThat(RunTags.of(settings, new Names("nightly-1")).asMap())
                .containsExactly(Map.entry("trainplane:run-id", "nightly-1"), Map.entry("trainplane:stack", "ml-prod"));
    }

    @Test
    void anEmptyCidrListKeepsEksDefault() {
        Map<String, String> env = environment();
        env.put("CLUSTER_ENDPOINT_PUBLIC_CIDRS", ""); // !Join of the parameter's default ''

        assertThat(Settings.fromMap(env).network().publicAccessCidrs()).isEmpty();
    }

    @Test
    void anInvalidCidrIsRefusedAtStartupNamingTheParameter() {
        Map<String, String> env = environment();
        env.put("CLUSTER_ENDPOINT_PUBLIC_CIDRS", "203.0.113.0/24,10.0.0.0/8,2001:db8::/32");

        assertThatThrownBy(() -> Settings.fromMap(env))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ClusterEndpointPublicCidrs")
                .hasMessageContaining("'10.0.0.0/8' is inside the reserved range 10.0.0.0/8")
                .hasMessageContaining("'2001:db8::/32' is not an IPv4 CIDR block")
                .hasMessageNotContaining("'203.0.113.0/24'");
    }

    @Test
    void theStackNameIsRequiredAndTheRetentionMustBeOneCloudWatchTakes() {
        Map<String, String> noStack = environment();
        noStack.remove("STACK_NAME");
        assertThatThrownBy(() -> Settings.fromMap(noStack)).hasMessageContaining("STACK_NAME");

        Map<String, String> badRetention = environment();
        badRetention.put("CONTROL_PLANE_LOG_RETENTION_DAYS", "31");
        assertThatThrownBy(() -> Settings.fromMap(badRetention))
                .hasMessageContaining("LogRetentionDays")
                .hasMessageContaining("30, 60");
    }

    @Test
    void runTagsMatchOnlyTheirOwnStackAndRun() {
        RunTags tags = new RunTags("ml-prod", "nightly-1");

        assertThat(tags.on(Map.of("trainplane:stack", "ml-prod", "trainplane:run-id", "nightly-1", "Name", "x")))
                .isTrue();
        assertThat(tags.on(Map.of("trainplane:stack", "ml-dev", "trainplane:run-id", "nightly-1")))
                .isFalse();
        assertThat(tags.on(Map.of("trainplane:run-id", "nightly-1"))).isFalse();
        assertThat(tags.on(null)).isFalse();
        assertThatThrownBy(() -> new RunTags("", "nightly-1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClusterNetwork(List.of("subnet-0a"), List.of(), List.of("192.168.1.0/24")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("192.168.0.0/16");
    }
}
