package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Property-style: every derived name of many run ids is valid for the service that receives it. */
class NamesTest {
    private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern EKS_NAME = Pattern.compile("[0-9A-Za-z][A-Za-z0-9_-]*");
    private static final Pattern CLIENT_TOKEN = Pattern.compile("[a-zA-Z0-9-]+");
    private static final Pattern EXECUTION_NAME = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Pattern LABEL_KEY =
            Pattern.compile("([a-z0-9.-]{1,253}/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final List<String> OPERATIONS = List.of(
            "CreateCluster",
            "CreateNodegroup",
            "CreateSystemNodegroup",
            "CreateAccessEntry",
            "create-addon",
            "X".repeat(40));

    static Stream<String> runIds() {
        List<String> ids = new ArrayList<>(List.of(
                "a",
                "0",
                "z9",
                "0123456789",
                "9".repeat(Names.MAX_RUN_ID),
                "a".repeat(Names.MAX_RUN_ID),
                "1abc",
                "007-run",
                "a" + "-".repeat(Names.MAX_RUN_ID - 2) + "b",
                "a--b",
                "9-9",
                "x-" + "1".repeat(Names.MAX_RUN_ID - 2),
                "a".repeat(40),
                "a".repeat(41),
                "a".repeat(44),
                "a".repeat(45),
                "a".repeat(46),
                "a".repeat(47),
                "a".repeat(48),
                "a".repeat(44) + "-" + "b".repeat(15),
                "cifar10-nightly-001"));
        Random random = new Random(20240611L);
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        for (int i = 0; i < 500; i++) {
            int length = 1 + random.nextInt(Names.MAX_RUN_ID);
            StringBuilder id = new StringBuilder();
            for (int j = 0; j < length; j++) {
                boolean edge = j == 0 || j == length - 1;
                if (!edge && random.nextInt(4) == 0) {
                    id.append('-');
                } else {
                    id.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            ids.add(id.toString());
        }
        return ids.stream();
    }

    @ParameterizedTest
    @MethodSource("runIds")
    void everyDerivedNameIsValidForItsService(String runId) {
        assertThat(Names.isValidRunId(runId)).as("generator made a valid id").isTrue();
        Names names = new Names(runId);

        assertValid(names.namespace(), DNS_1123_LABEL, 63);
        assertValid(names.trainingJob(), DNS_1123_LABEL, Names.MAX_JOB_NAME);
        assertValid(names.evaluationJob(), DNS_1123_LABEL, Names.MAX_JOB_NAME);
        assertValid(names.dataJob(), DNS_1123_LABEL, Names.MAX_JOB_NAME);
        assertValid(names.trainingService(), DNS_1035_LABEL, 63);
        assertValid(names.configMap(), DNS_1123_LABEL, 63);
        assertValid(names.clusterName(), EKS_NAME, 100);
        assertValid(names.nodeGroupName(), EKS_NAME, 63);
        assertValid(names.systemNodeGroupName(), EKS_NAME, 63);
        assertThat(names.efsCreationToken()).hasSizeBetween(1, 64).matches("\\p{Graph}+");
        for (String operation : OPERATIONS) {
            assertValid(names.clientRequestToken(operation), CLIENT_TOKEN, 64);
        }
        assertValid(names.executionName(), EXECUTION_NAME, 80);
        // An Indexed Job's pods are named <job>-<index>-<5 random>; the pod's hostname <job>-<index>.
        assertThat(names.trainingJob().length() + "-63-abcde".length()).isLessThanOrEqualTo(63);
        names.labels().forEach((key, value) -> {
            assertThat(key).matches(LABEL_KEY);
            assertValid(value, LABEL_VALUE, 63);
        });
    }

    @ParameterizedTest
    @MethodSource("runIds")
    void namesAreDeterministicAndDistinct(String runId) {
        Map<String, String> first = all(new Names(runId));

        assertThat(all(new Names(runId))).isEqualTo(first);
        assertThat(new HashSet<>(first.values())).as(first.toString()).hasSize(first.size());
    }

    @Test
    void runIdsSharingALongPrefixGetDifferentNames() {
        String prefix = "shared-prefix-" + "x".repeat(44);
        Map<String, String> a = all(new Names(prefix + "a1"));
        Map<String, String> b = all(new Names(prefix + "a2"));

        a.forEach((kind, name) -> assertThat(b.get(kind)).as(kind).isNotEqualTo(name));
    }

    @Test
    void shortNamesAreReadable() {
        Names names = new Names("cifar10-nightly-001");

        assertThat(names.namespace()).isEqualTo("tp-cifar10-nightly-001");
        assertThat(names.trainingJob()).isEqualTo("tp-cifar10-nightly-001-train");
        assertThat(names.trainingService()).isEqualTo("tp-cifar10-nightly-001-workers");
        assertThat(names.clusterName()).isEqualTo("tp-cifar10-nightly-001-eks");
        assertThat(names.clientRequestToken("CreateCluster")).isEqualTo("tp-cifar10-nightly-001-CreateCluster");
        assertThat(names.executionName()).isEqualTo("cifar10-nightly-001");
        assertThat(names.labels())
                .containsExactly(
                        Map.entry("app.kubernetes.io/managed-by", "trainplane"),
                        Map.entry("app.kubernetes.io/part-of", "trainplane"),
                        Map.entry("trainplane/run-id", "cifar10-nightly-001"));
    }

    @Test
    void fitCutsLongNamesWithAHashOfTheWholeName() {
        String longName = "tp-" + "a".repeat(60) + "-train";

        assertThat(Names.fit("short", 52)).isEqualTo("short");
        assertThat(Names.fit("x".repeat(52), 52)).isEqualTo("x".repeat(52));
        assertThat(Names.fit(longName, 52)).hasSize(52).matches("tp-a{40}-[0-9a-f]{8}");
        assertThat(Names.fit(longName, 52)).isEqualTo(Names.fit(longName, 52));
        assertThat(Names.fit(longName, 52)).isNotEqualTo(Names.fit(longName.replace("train", "trainx"), 52));
        // A cut that ends in separators drops them rather than doubling the '-'.
        assertThat(Names.fit("tp-" + "a".repeat(38) + "---" + "b".repeat(20), 52))
                .matches("tp-a{38}-[0-9a-f]{8}");
        assertThatThrownBy(() -> Names.fit("anything", 9)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "-a", "a-", "A", "a_b", "a.b", "abc\n", "\u00e9t\u00e9"})
    void invalidRunIdsAreRefused(String runId) {
        assertThat(Names.isValidRunId(runId)).isFalse();
        assertThatThrownBy(() -> new Names(runId)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tooLongRunIdIsRefused() {
        assertThat(Names.isValidRunId("a".repeat(60))).isTrue();
        assertThat(Names.isValidRunId("a".repeat(61))).isFalse();
    }

    /**
     * The namespace is the run's own, never cut: EKS Pod Identity tags a pod's session with it and
     * RunOutputsRole confines the pod to runs/<namespace>/. A cut one ends in a hash that a shorter
     * run id could spell, and would share another run's prefix.
     */
    @Test
    void everyRunHasANamespaceOfItsOwnThatIsAWholeLabel() {
        String longest = "a".repeat(Names.MAX_RUN_ID);
        assertThat(new Names(longest).namespace()).isEqualTo("tp-" + longest).hasSize(Names.MAX_LABEL);
        assertThat(new Names(longest).artifactsPrefix()).isEqualTo("runs/tp-" + longest + "/");
        String cut = Names.fit("tp-" + "a".repeat(63), Names.MAX_LABEL);
        assertThat(Names.isValidRunId(cut.substring(Names.PREFIX.length())))
                .as("a cut name's tail is a valid run id: why run ids stop at %d", Names.MAX_RUN_ID)
                .isTrue();
    }

    @Test
    void operationOfAClientTokenMustBeSafe() {
        Names names = new Names("r");

        assertThatThrownBy(() -> names.clientRequestToken("Create Cluster"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> names.clientRequestToken("")).isInstanceOf(IllegalArgumentException.class);
        assertThat(names.clientRequestToken("CreateCluster")).isNotEqualTo(names.clientRequestToken("DeleteCluster"));
    }

    @Test
    void runIdPatternIsTheSchemas() {
        assertThat(Names.RUN_ID_PATTERN)
                .isEqualTo(RunSpecs.schema().at("/properties/runId/pattern").asText());
        assertThat(Names.RUN_ID_MEANING)
                .isEqualTo(
                        RunSpecs.schema().at("/properties/runId/patternMeaning").asText());
    }

    private static Map<String, String> all(Names names) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("namespace", names.namespace());
        all.put("trainingJob", names.trainingJob());
        all.put("trainingService", names.trainingService());
        all.put("evaluationJob", names.evaluationJob());
        all.put("dataJob", names.dataJob());
        all.put("configMap", names.configMap());
        all.put("clusterName", names.clusterName());
        all.put("nodeGroupName", names.nodeGroupName());
        all.put("systemNodeGroupName", names.systemNodeGroupName());
        all.put("efsCreationToken", names.efsCreationToken());
        for (String operation : OPERATIONS) {
            all.put("token " + operation, names.clientRequestToken(operation));
        }
        all.put("executionName", names.executionName());
        return all;
    }

    private static void assertValid(String name, Pattern pattern, int max) {
        assertThat(name).matches(pattern).hasSizeLessThanOrEqualTo(max);
    }
}
