package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import org.junit.jupiter.api.Test;

class KubernetesFailuresTest {
    static KubernetesClientException refused(int code, String message) {
        return new KubernetesClientException(
                new StatusBuilder().withCode(code).withMessage(message).build());
    }

    @Test
    void aRefusalIsTerminalAndSaysWhichEntryIsMissingAndHowToCreateIt() {
        var e = Failures.classify(refused(401, "Unauthorized"));
        assertThat(e).isInstanceOfSatisfying(TerminalException.class, t -> assertThat(t.reason())
                .isEqualTo(FailureReason.ClusterAccessDenied));
        assertThat(e.getMessage())
                .contains(
                        "401 Unauthorized",
                        "no EKS access entry",
                        "aws eks create-access-entry",
                        "AmazonEKSClusterAdminPolicy",
                        "docs/deploying.md: Using an existing cluster");

        var named =
                KubernetesFailures.accessDenied("trainplane-demo", refused(403, "forbidden: User \"x\" cannot POST"));
        assertThat(named.getMessage())
                .contains(
                        "cluster trainplane-demo",
                        "403 Forbidden (forbidden: User \"x\" cannot POST)",
                        "aws eks associate-access-policy --cluster-name trainplane-demo")
                .doesNotContain("create-access-entry");
    }

    @Test
    void otherErrorsKeepTheirMeaning() {
        assertThat(Failures.classify(refused(503, "unavailable"))).isInstanceOf(TransientException.class);
        var notFound = refused(404, "not found");
        assertThat(Failures.classify(notFound)).isSameAs(notFound);
    }
}
